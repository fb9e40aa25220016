// The main window of idb-gui: one tab per view (runs, the linked run view, chart, tree,
// flame graph, diff, source, SQL, experiment, iterations), the rows of
// the probe last clicked in a panel below, errors in a banner at the top. It wires the views to the
// store worker; every database call goes through the worker, off the GUI thread.
#pragma once

#include "chart_view.hpp"
#include "diff_view.hpp"
#include "dynamics_view.hpp"
#include "experiment_view.hpp"
#include "flame_view.hpp"
#include "flat_view.hpp"
#include "run_view.hpp"
#include "runs_view.hpp"
#include "source_view.hpp"
#include "sql_console.hpp"
#include "store_worker.hpp"
#include "tree_view.hpp"

#include <QMainWindow>

#include <optional>

class QDockWidget;
class QLabel;
class QSettings;
class QTabWidget;
class QTableView;

namespace idb::gui {

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  enum class View {
    runs,
    chart,
    tree,
    sql,
    experiment,
    iterations,
    flame,
    diff,
    run,
    source,
    flat
  };

  explicit MainWindow(QSettings &settings, QWidget *parent = nullptr);

  // Opens `url` in the worker; the first run (or `run`, when given) is then shown.
  void openDatabase(const QString &url, const QString &run = {});
  // Reads the experiment `path` in the worker and shows it (its database: `override` when
  // not empty, else the file's own, else the database open in the window).
  void openExperiment(const QString &path, const QString &override = {});
  // Asks for a database with the connect dialog and opens it.
  void askForDatabase();
  void showView(View view);
  // The view of a --view name of a run (runs, run, chart, tree, flat, flame, diff, source,
  // sql, iterations); nullopt for any other name.
  static std::optional<View> viewNamed(const QString &name);
  // Shows the view `name` names; false (and nothing else) for a name viewNamed refuses.
  bool showViewNamed(const QString &name);
  // Shows the rows of `probe` in the run shown, and its source in the Source tab.
  void showProbe(qint64 probe);
  // Shows the Diff tab, with `other` (a run's label, or a label pattern naming a group of
  // runs) set against `baseline` (the same; empty: the run shown), read in the worker.
  void diffWith(const QString &other, const QString &baseline = {});

  RunsView *runsView() const { return runs_; }
  ChartView *chartView() const { return chart_; }
  CfhTreeView *treeView() const { return tree_; }
  FlatView *flatView() const { return flat_; }
  SqlConsole *console() const { return console_; }
  ExperimentView *experimentView() const { return experiment_; }
  DynamicsView *dynamicsView() const { return dynamics_; }
  FlameView *flameView() const { return flame_; }
  DiffView *diffView() const { return diff_; }
  RunView *runView() const { return run_view_; }
  SourceView *sourceView() const { return source_; }
  TableModel &probeRows() { return probe_rows_; }
  StoreClient &store() { return store_; }
  QString errorText() const; // the banner's text; empty when no error is shown
  RunDataPtr run() const { return run_; }
  // The table the shown tab holds, as File → Export table writes it: the runs, the chart's
  // numbers (probes as row headers: `categories`), the flat profile, the SQL result or the
  // experiment's table. The Tree tab's trees are written by exportTrees (screenshot.hpp) instead.
  struct ShownTable {
    QAbstractItemModel *model;
    bool categories;
  };
  ShownTable shownTable();
  // The tree the flame graph shows as collapsed stacks (analysis::folded_stacks, as
  // `idb export RUN --format folded` writes them); sets `error` when there is none.
  std::string foldedStacks(QString &error) const;
  // The run's trees as a whole in Hatchet's literal format (analysis::hatchet_literal, as
  // `idb export RUN --format hatchet --aggregate` writes them); sets `error` without a run.
  std::string hatchetJson(QString &error) const;

signals:
  void databaseOpened();
  // A large run's lowest rank is shown while the rest is read (StoreClient::loadRun).
  void firstLookShown();
  // The whole run is shown.
  void runShown();
  void queryShown();
  void experimentShown();
  // The diff has both sides' runs (DiffView::diffReady).
  void diffShown();
  void errorShown(const QString &message);

private:
  void makeMenus();
  void wire();
  void showError(const QString &message);
  void opened(const QString &location, const store::QueryResult &runs);
  void runLoaded(const RunDataPtr &run);
  void exportChart(bool svg);
  void exportTable();
  // Asks where, then writes what `make` returns there (its error, or the write's, in the
  // banner); the file is named after the run and `suffix`.
  void exportText(std::string (MainWindow::*make)(QString &) const, const QString &title,
                  const QString &suffix, const QString &filter);

  QSettings &settings_;
  StoreClient store_;
  RunDataPtr run_;
  QString location_, wanted_run_;
  QLabel *banner_;
  QTabWidget *tabs_;
  RunsView *runs_;
  ChartView *chart_;
  CfhTreeView *tree_;
  FlatView *flat_;
  SqlConsole *console_;
  ExperimentView *experiment_;
  DynamicsView *dynamics_;
  FlameView *flame_;
  DiffView *diff_;
  RunView *run_view_;
  SourceView *source_;
  TableModel probe_rows_;
  QLabel *probe_title_;
  QDockWidget *rows_dock_ = nullptr;
};

} // namespace idb::gui
