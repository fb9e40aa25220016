// Screenshots and rows of the views (screenshot.hpp).
#include "screenshot.hpp"

#include "cfh_tree.hpp"
#include "csv.hpp"
#include "diff_tree.hpp"
#include "export.hpp"

#include "idb/analysis/diff.hpp"
#include "idb/analysis/trees.hpp"

#include <QCoreApplication>
#include <QTimer>
#include <QTreeView>

#include <cstdio>

namespace idb::gui {

namespace {

void finish(int code, const QString &message) {
  if (!message.isEmpty()) std::fprintf(stderr, "idb-gui: %s\n", qPrintable(message));
  QCoreApplication::exit(code);
}

// The rows the tree view shows for each tree of the run as a whole, one after the other.
std::vector<std::vector<std::string>> tree_rows(MainWindow &window) {
  CfhTreeView *view = window.treeView();
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < window.run()->whole.size(); ++i) {
    view->showCfh(-1 - int(i));
    for (auto &row : tree_export_rows(view->model(), view->currentTitle()))
      rows.push_back(std::move(row));
  }
  return rows;
}

void write_rows(MainWindow &window, const ScreenshotRequest &request) {
  QString error;
  bool ok = false;
  if (request.view == "tree") {
    ok = writeText(toCsv(analysis::tree_export_columns(), tree_rows(window)), request.out, error);
  } else if (request.view == "diff") {
    ok = writeText(
        toCsv(analysis::diff_export_columns(), diff_export_rows(window.diffView()->diff())),
        request.out, error);
  } else if (request.view == "flame") {
    const std::string stacks = window.foldedStacks(error);
    ok = error.isEmpty() && writeText(QString::fromStdString(stacks), request.out, error);
  } else {
    auto [model, categories] = window.shownTable();
    ok = writeCsv(*model, request.out, error, categories);
  }
  if (ok)
    finish(0, {});
  else
    finish(1, error);
}

// The view is shown: its picture or its rows.
void save(MainWindow &window, const ScreenshotRequest &request) {
  if (request.csv) return write_rows(window, request);
  // Let layouts settle and charts paint once before the picture is taken.
  QTimer::singleShot(300, &window, [&window, out = request.out] {
    QString error;
    if (saveWidgetPng(window, out, error))
      finish(0, {});
    else
      finish(1, error);
  });
}

} // namespace

bool knownView(const QString &name) {
  return MainWindow::viewNamed(name).has_value() || experimentView(name);
}

bool experimentView(const QString &name) {
  return name == "coalesce" || name == "compare";
}

void takeScreenshot(MainWindow &window, const ScreenshotRequest &request) {
  QObject::connect(&window, &MainWindow::errorShown, &window,
                   [](const QString &message) { finish(1, message); });
  if (experimentView(request.view)) {
    QObject::connect(&window, &MainWindow::experimentShown, &window, [&window, request] {
      window.showView(MainWindow::View::experiment);
      window.experimentView()->setMode(request.view == "coalesce" ? edf::Mode::coalesce
                                                                  : edf::Mode::compare);
      save(window, request);
    });
    return;
  }
  QObject::connect(&window, &MainWindow::runShown, &window, [&window, request] {
    if (request.view == "diff") {
      window.diffWith(request.compare, request.baseline); // saved once both sides are read
      return;
    }
    if (request.view == "sql") {
      window.showView(MainWindow::View::sql);
      if (!window.console()->chooseCanned(request.query))
        return finish(1, QStringLiteral("no canned query named '%1'").arg(request.query));
      window.console()->run();
      return;
    }
    if (request.view == "chart") {
      window.showView(MainWindow::View::chart);
      window.showProbe(window.chartView()->legend().checkedProbes().back());
    } else if (request.view == "tree") {
      window.showView(MainWindow::View::tree);
      if (!request.node.isEmpty() && !window.treeView()->chooseNode(request.node))
        return finish(1, QStringLiteral("no node of the tree is labelled '%1…'").arg(request.node));
    } else if (request.view == "flat") {
      window.showView(MainWindow::View::flat);
      if (!request.node.isEmpty() && !window.flatView()->chooseProbe(request.node))
        return finish(
            1, QStringLiteral("no probe of the flat profile is labelled '%1…'").arg(request.node));
    } else if (request.view == "source") {
      // The source of the tree's node --node names (default: the hot path's leaf).
      CfhTreeView *tree = window.treeView();
      if (!request.node.isEmpty() && !tree->chooseNode(request.node))
        return finish(1, QStringLiteral("no node of the tree is labelled '%1…'").arg(request.node));
      window.showProbe(tree->treeView()->currentIndex().data(kKeyRole).toLongLong());
      window.showView(MainWindow::View::source);
    } else if (request.view == "run") {
      window.showView(MainWindow::View::run);
      if (!request.node.isEmpty() && !window.runView()->chooseNode(request.node))
        return finish(1, QStringLiteral("no node of the tree is labelled '%1…'").arg(request.node));
    } else if (request.view == "flame") {
      window.showView(MainWindow::View::flame);
      if (!request.node.isEmpty() && !window.flameView()->chooseFrame(request.node))
        return finish(
            1, QStringLiteral("no frame of the flame graph is labelled '%1…'").arg(request.node));
    } else if (request.view == "iterations") {
      window.showView(MainWindow::View::iterations);
      if (!request.node.isEmpty() && !window.dynamicsView()->chooseProbe(request.node))
        return finish(
            1, QStringLiteral("no probe of the iterations is labelled '%1…'").arg(request.node));
    } else {
      window.showView(MainWindow::View::runs);
    }
    save(window, request);
  });
  QObject::connect(&window, &MainWindow::queryShown, &window,
                   [&window, request] { save(window, request); });
  QObject::connect(&window, &MainWindow::diffShown, &window,
                   [&window, request] { save(window, request); });
  QObject::connect(&window, &MainWindow::databaseOpened, &window, [&window] {
    if (window.runsView()->runs().rowCount() == 0)
      finish(1, QStringLiteral("the database holds no run to show"));
  });
}

} // namespace idb::gui
