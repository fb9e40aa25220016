// PNG and SVG of a widget (export.hpp). Both go through QSaveFile: written to a temporary
// file beside the target and renamed over it only when complete, so a failure (a full
// disk) leaves no partial file and an existing one as it was.
#include "export.hpp"

#include <QPainter>
#include <QPixmap>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace idb::gui {

namespace {

bool open_for(QSaveFile &file, const QString &path, QString &error) {
  if (file.open(QIODevice::WriteOnly)) return true;
  error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
  return false;
}

bool commit(QSaveFile &file, const QString &path, QString &error) {
  if (file.commit()) return true;
  error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
  return false;
}

} // namespace

bool saveWidgetPng(QWidget &widget, const QString &path, QString &error) {
  QSaveFile file(path);
  if (!open_for(file, path, error)) return false;
  if (!widget.grab().save(&file, "PNG")) {
    file.cancelWriting();
    error = QStringLiteral("cannot write %1 as PNG").arg(path);
    return false;
  }
  return commit(file, path, error);
}

bool saveWidgetSvg(QWidget &widget, const QString &path, QString &error) {
  QSaveFile file(path);
  if (!open_for(file, path, error)) return false;
  QSvgGenerator svg;
  svg.setOutputDevice(&file);
  svg.setSize(widget.size());
  svg.setViewBox(QRect(QPoint(0, 0), widget.size()));
  svg.setTitle(widget.windowTitle().isEmpty() ? QStringLiteral("IDB") : widget.windowTitle());
  QPainter painter;
  if (!painter.begin(&svg)) {
    file.cancelWriting();
    error = QStringLiteral("cannot write %1 as SVG").arg(path);
    return false;
  }
  widget.render(&painter);
  painter.end();
  return commit(file, path, error);
}

} // namespace idb::gui
