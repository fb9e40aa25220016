// `idb-gui --screenshot OUT.png --view NAME`: drives a main window to the named view
// (opening the database, the run and, for the SQL view, a canned query; or an experiment),
// then renders it to a PNG and quits. The docs' pictures of every view come from it. And
// `--export OUT.csv --view NAME`: the rows the view shows, written the same way.
#pragma once

#include "main_window.hpp"

#include <QObject>
#include <QString>

namespace idb::gui {

struct ScreenshotRequest {
  QString out;                                          // the PNG (or CSV) to write
  QString view;                                         // runs, chart, tree, sql, ...
  QString query = QStringLiteral("hottest_procedures"); // the SQL view's canned query
  // The tree view's node to choose (the first, depth first, whose label starts so);
  // empty: the hot path's leaf. The flame graph zooms into that node's frame.
  QString node;
  // --export: the view's rows as CSV instead of a picture. The tree: every tree of the
  // run as a whole, one after the other, in the columns of analysis::tree_export_columns
  // (the bytes `idb report RUN --aggregate --format csv` writes); the flame graph: its
  // tree as folded stacks (MainWindow::foldedStacks, the bytes of `idb export RUN --format
  // folded`); the diff: its rows in the columns of analysis::diff_export_columns; the
  // other views: the table File → Export table writes
  // (MainWindow::shownTable).
  bool csv = false;
  // --view diff: what is set against the baseline, and the baseline (empty: the run
  // shown); each a run's label or a label pattern.
  QString compare;
  QString baseline;
};

// The view names --view accepts; the experiment's (coalesce, compare) need an .edf.
bool knownView(const QString &name);
bool experimentView(const QString &name);

// Waits for `window` to show its run or experiment (or fail), shows the view (COALESCE or
// COMPARE of the experiment, whatever mode its file names), saves the PNG or the CSV and
// exits the event loop with 0, or 1 after printing one error line.
void takeScreenshot(MainWindow &window, const ScreenshotRequest &request);

} // namespace idb::gui
