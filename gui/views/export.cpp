// PNG and SVG of a widget (export.hpp).
#include "export.hpp"

#include <QFile>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace idb::gui {

namespace {

// QSvgGenerator reports no open failure of its own, so the file is tried first.
bool writable(const QString &path, QString &error) {
  QFile file(path);
  if (file.open(QIODevice::WriteOnly)) return true;
  error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
  return false;
}

} // namespace

bool saveWidgetPng(QWidget &widget, const QString &path, QString &error) {
  if (!writable(path, error)) return false;
  if (widget.grab().save(path, "PNG")) return true;
  error = QStringLiteral("cannot write %1 as PNG").arg(path);
  return false;
}

bool saveWidgetSvg(QWidget &widget, const QString &path, QString &error) {
  if (!writable(path, error)) return false;
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(widget.size());
  svg.setViewBox(QRect(QPoint(0, 0), widget.size()));
  svg.setTitle(widget.windowTitle().isEmpty() ? QStringLiteral("IDB") : widget.windowTitle());
  QPainter painter;
  if (!painter.begin(&svg)) {
    error = QStringLiteral("cannot write %1 as SVG").arg(path);
    return false;
  }
  widget.render(&painter);
  painter.end();
  return true;
}

} // namespace idb::gui
