// Saving what a widget shows: a PNG of its pixels, or an SVG of the same painting (vector
// where Qt paints vectors, as charts do). Both refuse a file they cannot write.
#pragma once

#include <QString>

class QWidget;

namespace idb::gui {

// Each returns false with a one-line `error` naming the file when it cannot be written.
bool saveWidgetPng(QWidget &widget, const QString &path, QString &error);
bool saveWidgetSvg(QWidget &widget, const QString &path, QString &error);

} // namespace idb::gui
