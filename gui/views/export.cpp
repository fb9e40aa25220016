// PNG and SVG of a widget (export.hpp). Both are drawn into memory, then written by
// writeBytes (csv.hpp): a temporary file beside the target renamed over it only when
// complete, so a failure (a full disk) leaves no partial file and an existing one as it
// was; a target that is not a regular file (/dev/null) is written in place.
#include "export.hpp"

#include "csv.hpp"

#include <QBuffer>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace idb::gui {

bool saveWidgetPng(QWidget &widget, const QString &path, QString &error) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  if (!buffer.open(QIODevice::WriteOnly) || !widget.grab().save(&buffer, "PNG")) {
    error = QStringLiteral("cannot write %1 as PNG").arg(path);
    return false;
  }
  return writeBytes(bytes, path, error);
}

bool saveWidgetSvg(QWidget &widget, const QString &path, QString &error) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
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
  return writeBytes(bytes, path, error);
}

} // namespace idb::gui
