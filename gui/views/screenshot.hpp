// `idb-gui --screenshot OUT.png --view NAME`: drives a main window to the named view
// (opening the database, the run and, for the SQL view, a canned query), then renders it
// to a PNG and quits. The docs' pictures of every view come from it.
#pragma once

#include "main_window.hpp"

#include <QObject>
#include <QString>

namespace idb::gui {

struct ScreenshotRequest {
  QString out;                                          // the PNG to write
  QString view;                                         // runs, chart, tree, sql
  QString query = QStringLiteral("hottest_procedures"); // the SQL view's canned query
};

// The view names --view accepts, and which of them this build can show.
bool knownView(const QString &name);

// Waits for `window` to show its run (or fail), shows the view, saves the PNG and exits
// the event loop with 0, or 1 after printing one error line.
void takeScreenshot(MainWindow &window, const ScreenshotRequest &request);

} // namespace idb::gui
