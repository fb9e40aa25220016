// The main window (main_window.hpp).
#include "main_window.hpp"

#include "connect_dialog.hpp"
#include "connection.hpp"
#include "csv.hpp"

#include "idb/analysis/exports.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace idb::gui {

MainWindow::MainWindow(QSettings &settings, QWidget *parent)
    : QMainWindow(parent), settings_(settings), banner_(new QLabel(this)),
      tabs_(new QTabWidget(this)), runs_(new RunsView(this)), chart_(new ChartView(this)),
      tree_(new CfhTreeView(this)), flat_(new FlatView(this)), console_(new SqlConsole(this)),
      experiment_(new ExperimentView(this)), dynamics_(new DynamicsView(this)),
      flame_(new FlameView(this)), diff_(new DiffView(this)), run_view_(new RunView(this)),
      source_(new SourceView(settings, this)),
      probe_title_(new QLabel(tr("Click a probe in the chart, legend or tree to see its rows."))) {
  setWindowTitle(QStringLiteral("IDB"));
  banner_->setStyleSheet(QStringLiteral("background:#fde2e1;color:#8a1c1c;padding:4px"));
  banner_->setWordWrap(true);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  banner_->hide();
  tabs_->addTab(runs_, tr("Runs"));
  tabs_->addTab(run_view_, tr("Run"));
  tabs_->addTab(chart_, tr("Chart"));
  tabs_->addTab(tree_, tr("Tree"));
  tabs_->addTab(flat_, tr("Flat"));
  tabs_->addTab(flame_, tr("Flame graph"));
  tabs_->addTab(diff_, tr("Diff"));
  tabs_->addTab(source_, tr("Source"));
  tabs_->addTab(console_, tr("SQL"));
  tabs_->addTab(experiment_, tr("Experiment"));
  tabs_->addTab(dynamics_, tr("Iterations"));
  auto *central = new QWidget(this);
  auto *layout = new QVBoxLayout(central);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(banner_);
  layout->addWidget(tabs_, 1);
  setCentralWidget(central);
  auto *rows = new QWidget;
  auto *rows_layout = new QVBoxLayout(rows);
  rows_layout->setContentsMargins(2, 2, 2, 2);
  rows_layout->addWidget(probe_title_);
  rows_layout->addWidget(makeTableView(&probe_rows_, rows));
  auto *dock = new QDockWidget(tr("Probe rows"), this);
  dock->setObjectName(QStringLiteral("probe_rows"));
  dock->setWidget(rows);
  addDockWidget(Qt::BottomDockWidgetArea, dock);
  dock->hide(); // until a probe is clicked
  rows_dock_ = dock;
  makeMenus();
  wire();
  statusBar()->showMessage(tr("Not connected"));
}

void MainWindow::makeMenus() {
  QMenu *file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Connect…"), QKeySequence::Open, this, &MainWindow::askForDatabase);
  file->addAction(tr("Open &experiment…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Experiment definition file"), {},
                                                      tr("Experiments (*.edf);;All files (*)"));
    if (!path.isEmpty()) openExperiment(path);
  });
  file->addAction(tr("Export chart as &PNG…"), this, [this] { exportChart(false); });
  file->addAction(tr("Export chart as &SVG…"), this, [this] { exportChart(true); });
  file->addAction(tr("Export table as &CSV…"), this, &MainWindow::exportTable);
  file->addAction(tr("Export flame graph as &folded stacks…"), this, [this] {
    exportText(&MainWindow::foldedStacks, tr("Export folded stacks"), QStringLiteral(".folded"),
               tr("Folded stacks (*.folded *.txt);;All files (*)"));
  });
  file->addAction(tr("Export run as &Hatchet JSON…"), this, [this] {
    exportText(&MainWindow::hatchetJson, tr("Export Hatchet JSON"), QStringLiteral(".json"),
               tr("JSON (*.json);;All files (*)"));
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
  QMenu *view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Expand &hot path"), this, [this] {
    showView(View::tree);
    tree_->expandHotPath();
  });
}

void MainWindow::wire() {
  connect(&store_, &StoreClient::opened, this, &MainWindow::opened);
  connect(&store_, &StoreClient::runLoaded, this, &MainWindow::runLoaded);
  connect(&store_, &StoreClient::queryDone, this, [this](const store::QueryResult &r) {
    console_->showResult(r);
    statusBar()->showMessage(tr("%1 rows").arg(r.rows.size()));
    emit queryShown();
  });
  connect(&store_, &StoreClient::experimentLoaded, this, [this](const ExperimentPtr &e) {
    experiment_->setExperiment(e);
    showView(View::experiment);
    statusBar()->showMessage(tr("Experiment %1: %2 entries")
                                 .arg(QString::fromStdString(e->path))
                                 .arg(e->entries.size()));
    emit experimentShown();
  });
  connect(&store_, &StoreClient::failed, this, [this](const QString &what, const QString &message) {
    showError(tr("%1 failed: %2").arg(what, message));
  });
  connect(runs_, &RunsView::runChosen, this, [this](const QString &label) {
    statusBar()->showMessage(tr("Reading run %1…").arg(label));
    store_.loadRun(label);
  });
  connect(console_, &SqlConsole::runRequested, this,
          [this](const QString &sql, const store::KeyValues &params) {
            banner_->hide();
            store_.runQuery(sql, params);
          });
  connect(console_, &SqlConsole::error, this, &MainWindow::showError);
  connect(chart_, &ChartView::probeClicked, this, &MainWindow::showProbe);
  connect(tree_, &CfhTreeView::probeClicked, this, &MainWindow::showProbe);
  connect(flat_, &FlatView::probeClicked, this, &MainWindow::showProbe);
  connect(flame_, &FlameView::probeClicked, this, &MainWindow::showProbe);
  connect(diff_, &DiffView::probeClicked, this, &MainWindow::showProbe);
  connect(run_view_, &RunView::probeClicked, this, &MainWindow::showProbe);
  connect(diff_, &DiffView::sideChosen, this, [this](int side, const QString &name) {
    statusBar()->showMessage(tr("Reading %1 for the diff…").arg(name));
    store_.loadDiffSide(side, name);
  });
  connect(runs_, &RunsView::diffRequested, this, [this](const QString &label) { diffWith(label); });
  connect(runs_, &RunsView::groupDiffRequested, this, &MainWindow::diffWith);
  connect(&store_, &StoreClient::diffSideLoaded, diff_, &DiffView::setSide);
  connect(diff_, &DiffView::diffReady, this, [this] {
    const RunDiff &diff = diff_->diff();
    statusBar()->showMessage(
        tr("Diff: %1 against %2")
            .arg(QString::fromStdString(diff.baseline), QString::fromStdString(diff.other)));
    emit diffShown();
  });
}

void MainWindow::openDatabase(const QString &url, const QString &run) {
  wanted_run_ = run;
  run_.reset();
  banner_->hide();
  statusBar()->showMessage(
      tr("Opening %1…").arg(url.startsWith("postgres") ? tr("the server") : url));
  store_.open(url);
}

void MainWindow::opened(const QString &location, const store::QueryResult &runs) {
  location_ = location;
  if (!location.contains(QStringLiteral("://"))) addRecentFile(settings_, location);
  setWindowTitle(QStringLiteral("IDB: %1").arg(location));
  runs_->setRuns(runs);
  QStringList labels;
  for (const auto &row : runs.rows)
    labels << QString::fromStdString(row.front().value_or(""));
  diff_->setRuns(labels);
  statusBar()->showMessage(tr("%1: %2 runs").arg(location).arg(runs.rows.size()));
  emit databaseOpened();
  if (runs.rows.empty()) return;
  const QString first = QString::fromStdString(runs.rows.front().front().value_or(""));
  if (wanted_run_.isEmpty() || runs_->chooseRun(wanted_run_)) {
    if (wanted_run_.isEmpty()) runs_->chooseRun(first);
    return;
  }
  showError(tr("no run labelled '%1' in %2; showing %3").arg(wanted_run_, location, first));
  runs_->chooseRun(first);
}

void MainWindow::runLoaded(const RunDataPtr &run) {
  run_ = run;
  runs_->setAttributes(run->attributes);
  chart_->setRun(run);
  tree_->setRun(run);
  flat_->setRun(run);
  dynamics_->setRun(run);
  flame_->setRun(run);
  run_view_->setRun(run);
  diff_->setShownRun(run);
  runs_->setShownRun(QString::fromStdString(run->label));
  console_->setRun(run);
  probe_rows_.setTable({});
  const QString label = QString::fromStdString(run->label);
  if (!run->complete) {
    statusBar()->showMessage(tr("%1: run %2, rank %3 shown; reading the other ranks…")
                                 .arg(location_, label)
                                 .arg(run->summary.ranks.front()));
    emit firstLookShown();
    return;
  }
  statusBar()->showMessage(tr("%1: run %2, %3 CFHs, %4 probes")
                               .arg(location_, label)
                               .arg(run->profile.cfhs.size())
                               .arg(run->summary.probes.size()));
  emit runShown();
}

void MainWindow::openExperiment(const QString &path, const QString &override) {
  banner_->hide();
  statusBar()->showMessage(tr("Reading the runs of %1…").arg(path));
  store_.openExperiment(path, override);
}

void MainWindow::showView(View view) {
  QWidget *pages[] = {runs_,  chart_, tree_,     console_, experiment_, dynamics_,
                      flame_, diff_,  run_view_, source_,  flat_};
  tabs_->setCurrentWidget(pages[int(view)]);
}

std::optional<MainWindow::View> MainWindow::viewNamed(const QString &name) {
  static const std::pair<const char *, View> names[] = {
      {"runs", View::runs},   {"run", View::run},
      {"chart", View::chart}, {"tree", View::tree},
      {"flat", View::flat},   {"flame", View::flame},
      {"diff", View::diff},   {"source", View::source},
      {"sql", View::sql},     {"iterations", View::iterations}};
  for (const auto &[text, view] : names)
    if (name == QLatin1String(text)) return view;
  return std::nullopt;
}

bool MainWindow::showViewNamed(const QString &name) {
  const std::optional<View> view = viewNamed(name);
  if (view) showView(*view);
  return view.has_value();
}

void MainWindow::showProbe(qint64 probe) {
  if (!run_) return;
  const profile::Probe *site = run_->profile.probe(std::int32_t(probe));
  // A probe the profile does not describe has no location either.
  const profile::Probe unknown{std::int32_t(probe), 0, "#" + std::to_string(probe), "", 0, ""};
  source_->showProbe(site ? site : &unknown, run_->profile.get("cwd"));
  store::QueryResult rows = probe_rows(*run_, std::int32_t(probe));
  // Times in one unit per column, counts with separators; the exact values stay in the
  // tooltips and the export.
  std::vector<std::optional<Format>> formats(rows.columns.size());
  for (std::size_t c = 0; c < rows.columns.size(); ++c) {
    const std::string &name = rows.columns[c];
    if (name == "count") formats[c] = Format::integer;
    if (name == "total" || name == "min" || name == "max" || name == "mean" || name == "sdev" ||
        name == "cpu" || name == "noise" || name == "corrected")
      formats[c] = Format::seconds_or_blank;
  }
  probe_rows_.setTable(std::move(rows), std::move(formats));
  rows_dock_->show();
  probe_title_->setText(
      tr("Rows of %1 (%2 nodes)")
          .arg(QString::fromStdString(profile::probe_label(run_->profile, std::int32_t(probe))))
          .arg(probe_rows_.rowCount()));
}

void MainWindow::diffWith(const QString &other, const QString &baseline) {
  showView(View::diff);
  for (const auto &[side, name] :
       {std::pair{DiffView::kBaseline, baseline}, {DiffView::kOther, other}})
    if (!name.isEmpty() && !diff_->chooseSide(side, name))
      return showError(tr("no run is labelled '%1' in %2, and no label matches it as a pattern")
                           .arg(name, location_));
}

QString MainWindow::errorText() const {
  return banner_->isVisible() ? banner_->text() : QString();
}

void MainWindow::showError(const QString &message) {
  banner_->setText(message);
  banner_->show();
  statusBar()->showMessage(message);
  emit errorShown(message);
}

void MainWindow::askForDatabase() {
  ConnectDialog dialog(settings_, this);
  if (dialog.exec() == QDialog::Accepted) {
    const QString url = dialog.url();
    if (url.isEmpty())
      showError(tr("no database given"));
    else
      openDatabase(url);
  }
}

void MainWindow::exportChart(bool svg) {
  ChartPanel *panel = chart_->panel();
  if (tabs_->currentWidget() == console_) panel = console_->chartPanel();
  if (tabs_->currentWidget() == experiment_) panel = experiment_->panel();
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export chart"), svg ? QStringLiteral("chart.svg") : QStringLiteral("chart.png"),
      svg ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
  if (path.isEmpty()) return;
  QString error;
  if (!(svg ? panel->saveSvg(path, error) : panel->savePng(path, error))) showError(error);
}

MainWindow::ShownTable MainWindow::shownTable() {
  if (tabs_->currentWidget() == runs_) return {&runs_->runs(), false};
  if (tabs_->currentWidget() == flat_) return {&flat_->table(), false};
  if (tabs_->currentWidget() == console_) return {&console_->result(), false};
  if (tabs_->currentWidget() == experiment_) return {&experiment_->table(), false};
  return {&chart_->data(), true}; // the chart's numbers, by default
}

void MainWindow::exportTable() {
  auto [model, categories] = shownTable();
  const QString path = QFileDialog::getSaveFileName(this, tr("Export table"),
                                                    QStringLiteral("table.csv"), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  QString error;
  if (!writeCsv(*model, path, error, categories)) showError(error);
}

void MainWindow::exportText(std::string (MainWindow::*make)(QString &) const, const QString &title,
                            const QString &suffix, const QString &filter) {
  QString error;
  const std::string text = (this->*make)(error);
  if (!error.isEmpty()) return showError(error);
  const QString path = QFileDialog::getSaveFileName(
      this, title, QString::fromStdString(run_->label) + suffix, filter);
  if (path.isEmpty()) return;
  if (!writeText(QString::fromStdString(text), path, error)) showError(error);
}

std::string MainWindow::hatchetJson(QString &error) const {
  if (!run_) {
    error = tr("no run to export: open a run first");
    return {};
  }
  return analysis::hatchet_literal(run_->profile, run_->whole);
}

std::string MainWindow::foldedStacks(QString &error) const {
  const profile::Cfh *cfh = flame_->shownTree();
  if (!run_ || !cfh) {
    error = tr("no tree to export: open a run first");
    return {};
  }
  return analysis::folded_stacks(run_->profile, *cfh);
}

} // namespace idb::gui
