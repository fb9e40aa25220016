// `idb-gui --screenshot OUT.png --view NAME`: drives a main window to the named view
// (opening the database, the run and, for the SQL view, a canned query; or an experiment),
// then renders it to a PNG and quits. The docs' pictures of every view come from it. And
// `--export OUT.csv`: the rows a view shows, written headless.
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

// The view names --view accepts; the experiment's (coalesce, compare) need an .edf.
bool knownView(const QString &name);
bool experimentView(const QString &name);

// Waits for `window` to show its run or experiment (or fail), shows the view (COALESCE or
// COMPARE of the experiment, whatever mode its file names), saves the PNG and exits
// the event loop with 0, or 1 after printing one error line.
void takeScreenshot(MainWindow &window, const ScreenshotRequest &request);

// `idb-gui --db URL [--run LABEL] --view tree --export OUT.csv`: waits for the run, then
// writes the rows the tree view shows for each tree of the run as a whole (the threads
// merged, each named CFH over its instances), one after the other, as CSV (the columns of
// analysis::tree_export_columns, the same `idb report LABEL --aggregate --format csv`
// writes), and exits the event loop with 0, or 1 after printing one error line.
void exportTrees(MainWindow &window, const QString &out);

} // namespace idb::gui
