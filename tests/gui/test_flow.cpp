// The whole single-run explorer against a real database (SQLite or the test PostgreSQL
// server, whichever test_database_*.cpp this program is built with): open it, see the
// runs, check probes, switch chart types, ranks and scale, browse the tree, click a
// probe, run a canned query, export PNG, SVG and CSV and check what the files hold; and
// bad databases that must show an error in the window, not crash it.
#include "fixtures.hpp"
#include "test_database.hpp"

#include "cfh_tree.hpp"
#include "chart_panel.hpp"
#include "csv.hpp"
#include "dynamics_view.hpp"
#include "files.hpp"
#include "flame_view.hpp"
#include "histogram_panel.hpp"
#include "idb/analysis/exports.hpp"
#include "idb/analysis/trees.hpp"
#include "idb/histogram.hpp"
#include "idb/queries.hpp"
#include "idb/wait_states.h"
#include "main_window.hpp"
#include "run_view.hpp"
#include "source_view.hpp"
#include "wait_panel.hpp"

#include <QCategoryAxis>
#include <QChartView>
#include <QImage>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTreeView>
#include <QTreeWidget>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace idb;

namespace {

constexpr int kWaitMs = 60000;

// A database holding the small profile twice: runs "small" (attribute mesh=fine) and
// "small-2".
std::unique_ptr<test::TestDatabase> filled_database() {
  auto db = test::fresh_database();
  auto store_db = store::open(db->url());
  store::load(*store_db, test::gui_profile(), {"small", {{"mesh", "fine"}}, {}});
  store::load(*store_db, test::gui_profile(), {"small-2", {}, {}});
  return db;
}

class Flow : public ::testing::Test {
protected:
  test::TempDir dir;
  QSettings settings{QString::fromStdString(dir.file("gui.ini")), QSettings::IniFormat};
  gui::MainWindow window{settings};

  void SetUp() override {
    window.resize(1200, 800);
    window.show();
  }
  void open(const std::string &url, const QString &run = {}) {
    QSignalSpy shown(&window, &gui::MainWindow::runShown);
    QSignalSpy failed(&window, &gui::MainWindow::errorShown);
    window.openDatabase(QString::fromStdString(url), run);
    ASSERT_TRUE(shown.wait(kWaitMs)) << window.errorText().toStdString();
    ASSERT_EQ(failed.count(), 0) << window.errorText().toStdString();
  }
};

bool notOneColour(const QImage &image) {
  const QRgb first = image.pixel(0, 0);
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3)
      if (image.pixel(x, y) != first) return true;
  return false;
}

} // namespace

TEST_F(Flow, ShowsRunsChartTreeAndProbeRows) {
  auto db = filled_database();
  open(db->url(), "small");
  EXPECT_EQ(window.runsView()->runs().rowCount(), 2);
  ASSERT_EQ(window.runsView()->attributes().rowCount(), 1);
  EXPECT_EQ(window.runsView()->attributes().index(0, 1).data().toString(), "fine");
  ASSERT_TRUE(window.run());
  EXPECT_EQ(window.run()->label, "small");

  gui::ChartView &chart = *window.chartView();
  EXPECT_EQ(chart.legend().checkedProbes(), (std::vector<std::int32_t>{1, 2, 3, 4}));
  EXPECT_EQ(chart.panel()->seriesCount(), 2); // bars: one set per rank
  chart.legend().setChecked(1, false);
  EXPECT_EQ(chart.data().rowCount(), 3);
  chart.setMetric(gui::Metric::count);
  EXPECT_DOUBLE_EQ(chart.data().index(0, 1).data(gui::kValueRole).toDouble(), 3.0); // solve
  chart.setKind(gui::ChartKind::line);
  EXPECT_EQ(chart.panel()->seriesCount(), 2);
  chart.setRank(1);
  EXPECT_EQ(chart.panel()->seriesCount(), 1);
  EXPECT_EQ(chart.data().headerData(0, Qt::Horizontal).toString(), "rank 1");
  chart.setKind(gui::ChartKind::scatter);
  chart.setLogScale(true);
  EXPECT_EQ(chart.panel()->seriesCount(), 1);

  gui::TreeModel &tree = window.treeView()->model();
  QModelIndex root = tree.index(0, 0);
  EXPECT_EQ(root.data().toString(), "program");
  EXPECT_TRUE(window.treeView()->treeView()->isExpanded(root)); // the hot path is open
  EXPECT_DOUBLE_EQ(
      tree.index(0, 0, tree.index(0, 0, root)).siblingAtColumn(2).data(gui::kValueRole).toDouble(),
      18.0); // solve over both ranks
  window.treeView()->showCfh(1);
  EXPECT_DOUBLE_EQ(
      tree.index(0, 0, tree.index(0, 0, root)).siblingAtColumn(2).data(gui::kValueRole).toDouble(),
      12.0);

  window.showProbe(3);
  EXPECT_EQ(window.probeRows().rowCount(), 2);
  emit window.chartView()->panel()->categoryClicked(2);
  EXPECT_EQ(window.probeRows().index(0, 4).data().toString(), "main()");

  QSignalSpy shown(&window, &gui::MainWindow::runShown);
  window.runsView()->chooseRun("small-2");
  ASSERT_TRUE(shown.wait(kWaitMs)) << window.errorText().toStdString();
  EXPECT_EQ(window.run()->label, "small-2");
  EXPECT_EQ(window.runsView()->attributes().rowCount(), 0);
  EXPECT_EQ(window.probeRows().rowCount(), 0) << "no rows of the run shown before";
}

TEST_F(Flow, ShowsALargeRunsFirstRankWhileReadingTheRest) {
  auto db = filled_database();
  window.store().setFirstLookNodes(0); // every run of several ranks comes in two steps
  std::vector<std::size_t> ranks_seen;
  QObject::connect(&window, &gui::MainWindow::firstLookShown, &window, [&] {
    ranks_seen.push_back(window.run()->summary.ranks.size());
    window.chartView()->legend().setChecked(1, false); // a choice the whole run must keep
    window.chartView()->setRank(0);
  });
  open(db->url(), "small");
  EXPECT_EQ(ranks_seen, (std::vector<std::size_t>{1}));
  EXPECT_TRUE(window.run()->complete);
  EXPECT_EQ(window.run()->summary.ranks.size(), 2u);
  EXPECT_EQ(window.chartView()->legend().checkedProbes(), (std::vector<std::int32_t>{2, 3, 4}));
  EXPECT_EQ(window.chartView()->data().headerData(0, Qt::Horizontal).toString(), "rank 0");
  EXPECT_EQ(window.chartView()->panel()->seriesCount(), 1);
}

// The Flat tab: the run as a whole's probes by own time, as analysis::flat_rows gives them
// (idb report --flat); another tree on demand; a click shows the probe's rows; the table
// is what File → Export table writes while the tab is shown.
TEST_F(Flow, ListsTheProbesByOwnTimeAndShowsAClickedOnesRows) {
  auto db = filled_database();
  open(db->url(), "small");
  gui::FlatView &flat = *window.flatView();
  const profile::Profile &p = window.run()->profile;
  std::vector<analysis::FlatRow> rows = analysis::flat_rows(p, window.run()->whole[0].cfh);
  ASSERT_EQ(flat.table().rowCount(), int(rows.size()));
  ASSERT_GE(rows.size(), 2u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(flat.table().index(int(i), 0).data().toString().toStdString(), rows[i].label);
    EXPECT_DOUBLE_EQ(flat.table().index(int(i), 1).data(gui::kValueRole).toDouble(), rows[i].own);
    EXPECT_EQ(flat.table().index(int(i), gui::kFlatProbeIdColumn).data(gui::kValueRole).toInt(),
              rows[i].probe);
    EXPECT_FALSE(flat.table().index(int(i), 6).data(gui::kValueRole).isValid())
        << "no untimed activations: blank";
  }
  EXPECT_TRUE(flat.tableView()->isColumnHidden(gui::kFlatProbeIdColumn));
  emit flat.tableView()->clicked(flat.table().index(1, 0));
  EXPECT_GT(window.probeRows().rowCount(), 0) << "the clicked probe's rows";
  EXPECT_EQ(window.probeRows().rowCount(),
            int(gui::probe_rows(*window.run(), rows[1].probe).rows.size()));
  flat.showTree(1); // the second CFH alone
  EXPECT_EQ(flat.table().rowCount(), int(analysis::flat_rows(p, p.cfhs[1]).size()));
  EXPECT_TRUE(flat.chooseProbe(QString::fromStdString(rows[0].label)));
  EXPECT_FALSE(flat.chooseProbe(QStringLiteral("nosuch")));
  window.showView(gui::MainWindow::View::flat);
  EXPECT_EQ(window.shownTable().model, &flat.table());
}

TEST_F(Flow, RunsACannedQueryAndChartsIt) {
  auto db = filled_database();
  open(db->url());
  gui::SqlConsole &console = *window.console();
  ASSERT_TRUE(console.chooseCanned("hottest_procedures"));
  QSignalSpy done(&window, &gui::MainWindow::queryShown);
  console.run();
  ASSERT_TRUE(done.wait(kWaitMs)) << window.errorText().toStdString();
  const gui::TableModel &result = console.result();
  ASSERT_EQ(result.rowCount(), 3); // main, solve, output: the PROC probes
  EXPECT_EQ(result.index(0, result.column("description")).data().toString(), "main()");
  console.showChart(true);
  // count, inclusive and share: the probe id names a probe, it is no series.
  EXPECT_EQ(console.chartPanel()->seriesCount(), 3);

  QSignalSpy failed(&window, &gui::MainWindow::errorShown);
  console.setSql("SELECT nonsense FROM nowhere");
  console.run();
  ASSERT_TRUE(failed.wait(kWaitMs));
  EXPECT_TRUE(window.errorText().startsWith("query failed: ")) << window.errorText().toStdString();
  console.setSql("SELECT 1", "broken");
  console.run();
  EXPECT_EQ(window.errorText(), "parameter 'broken' is not key=value");

  // A canned query takes its parameters of the types it declares.
  ASSERT_TRUE(console.chooseCanned("hottest_procedures"));
  console.setSql(QString::fromStdString(queries::find_canned_query("hottest_procedures")->sql),
                 "run=x; limit=abc");
  console.run();
  EXPECT_EQ(window.errorText(),
            "parameter limit of hottest_procedures takes a whole number, not 'abc'");
  // The console only reads.
  console.setSql("DELETE FROM runs");
  console.run();
  ASSERT_TRUE(failed.wait(kWaitMs));
  EXPECT_TRUE(window.errorText().contains("read-only")) << window.errorText().toStdString();
}

TEST_F(Flow, ExportsPngSvgAndCsvWithContent) {
  auto db = filled_database();
  open(db->url());
  window.showView(gui::MainWindow::View::chart);
  gui::ChartPanel &panel = *window.chartView()->panel();
  QString error;
  const QString png = QString::fromStdString(dir.file("chart.png"));
  ASSERT_TRUE(panel.savePng(png, error)) << error.toStdString();
  QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_EQ(image.size(), panel.chartView()->size() * panel.chartView()->devicePixelRatio());
  EXPECT_GT(image.width(), 200);
  EXPECT_TRUE(notOneColour(image));

  const QString svg = QString::fromStdString(dir.file("chart.svg"));
  ASSERT_TRUE(panel.saveSvg(svg, error)) << error.toStdString();
  QSvgRenderer renderer(svg);
  EXPECT_TRUE(renderer.isValid());
  QXmlStreamReader xml(QString::fromStdString(test::read_file(svg.toStdString())));
  int texts = 0;
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QStringLiteral("text"))
      ++texts;
  EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
  EXPECT_GT(texts, 4); // title, axis labels, legend

  const QString csv = QString::fromStdString(dir.file("chart.csv"));
  ASSERT_TRUE(gui::writeCsv(window.chartView()->data(), csv, error, true)) << error.toStdString();
  const QStringList lines =
      QString::fromStdString(test::read_file(csv.toStdString())).split('\n', Qt::SkipEmptyParts);
  ASSERT_EQ(lines.size(), 5); // header and main, solve, exchange, output
  EXPECT_EQ(lines[0].toStdString(), "category,rank 0,rank 1");
  EXPECT_EQ(lines[2].toStdString(), "solve(),6,12");

  EXPECT_FALSE(panel.savePng("/nonexistent-folder/chart.png", error));
  EXPECT_FALSE(panel.saveSvg("/nonexistent-folder/chart.svg", error));
  EXPECT_TRUE(error.contains("/nonexistent-folder/chart.svg")) << error.toStdString();
  // Written whole through a temporary file and renamed: saving again replaces the file and
  // leaves nothing else beside it; a folder in the way is refused and left alone.
  ASSERT_TRUE(panel.savePng(png, error)) << error.toStdString();
  ASSERT_TRUE(panel.saveSvg(svg, error)) << error.toStdString();
  for (const auto &entry : std::filesystem::directory_iterator(dir.file("")))
    EXPECT_EQ(std::string::npos, entry.path().filename().string().find("chart.png."))
        << entry.path();
  std::filesystem::create_directory(dir.file("folder.svg"));
  EXPECT_FALSE(panel.saveSvg(QString::fromStdString(dir.file("folder.svg")), error));
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("folder.svg")));
}

// A long probe label: shortened in its middle on the axis (its location kept), whole in
// the exported SVG and CSV, never cut; the axis names its unit.
TEST_F(Flow, ChartLabelsAreShortOnScreenAndWholeInExports) {
  auto db = test::fresh_database();
  profile::Profile p = test::gui_profile();
  const std::string label = "solve_the_whole_problem_in_one_go(...) [small.c:10]";
  p.probes[1].description = label;
  store::load(*store::open(db->url()), p, {"long", {}, {}});
  open(db->url());
  window.showView(gui::MainWindow::View::chart);
  gui::ChartPanel &panel = *window.chartView()->panel();
  EXPECT_EQ(panel.yTitle(), "total (s)");
  const QStringList shown = panel.axisLabels();
  const auto shortened =
      std::find_if(shown.begin(), shown.end(), [](const QString &l) { return l.contains("…"); });
  ASSERT_NE(shortened, shown.end()) << shown.join('|').toStdString();
  EXPECT_TRUE(shortened->endsWith("[small.c:10]")) << shortened->toStdString();
  QString error;
  const QString svg = QString::fromStdString(dir.file("long.svg"));
  ASSERT_TRUE(panel.saveSvg(svg, error)) << error.toStdString();
  const std::string text = test::read_file(svg.toStdString());
  EXPECT_NE(text.find("solve_the_whole_problem_in_one_go"), std::string::npos);
  EXPECT_EQ(text.find("…"), std::string::npos) << "nothing elided in the export";
  EXPECT_EQ(panel.axisLabels(), shown) << "the screen's labels are back";
  const QString csv = gui::toCsv(window.chartView()->data(), true);
  EXPECT_TRUE(csv.contains(QString::fromStdString(label))) << csv.toStdString();
}

TEST_F(Flow, ABadPathShowsAnErrorInTheWindow) {
  QSignalSpy failed(&window, &gui::MainWindow::errorShown);
  window.openDatabase(QString::fromStdString(dir.file("missing/none.db")));
  ASSERT_TRUE(failed.wait(kWaitMs));
  EXPECT_TRUE(window.errorText().contains("none.db")) << window.errorText().toStdString();
  EXPECT_EQ(window.runsView()->runs().rowCount(), 0);
  test::TempDir other;
  const std::string junk = other.file("junk.db");
  {
    std::FILE *f = std::fopen(junk.c_str(), "w");
    std::fputs("not a database at all", f);
    std::fclose(f);
  }
  window.openDatabase(QString::fromStdString(junk));
  ASSERT_TRUE(failed.wait(kWaitMs));
  EXPECT_EQ(failed.count(), 2);
}

TEST_F(Flow, ARefusedConnectionShowsAnErrorInTheWindow) {
  QSignalSpy failed(&window, &gui::MainWindow::errorShown);
  window.openDatabase("postgresql://nobody:secret@127.0.0.1:1/idb");
  ASSERT_TRUE(failed.wait(kWaitMs));
  EXPECT_TRUE(window.errorText().startsWith("open failed: ")) << window.errorText().toStdString();
  EXPECT_FALSE(window.errorText().contains("secret")) << window.errorText().toStdString();
  // The window still works: a good database opens after the failure.
  auto db = filled_database();
  open(db->url());
  EXPECT_TRUE(window.errorText().isEmpty());
}

// Wait states in the tree: exchange() waited a quarter of its time as late sender (and
// rank 1 also at a barrier), so its rows carry the seconds and an orange tint, and the
// panel beside the histogram breaks them down by pattern for the node chosen.
TEST_F(Flow, TintsNodesThatWaitedAndBreaksTheirWaitsDown) {
  auto db = test::fresh_database();
  profile::Profile p = test::gui_profile();
  for (profile::Cfh &cfh : p.cfhs) {
    profile::Node &exchange = cfh.nodes[3];
    exchange.waits = {{IDB_WAIT_late_sender, exchange.stats.sum / 4, 1, 0, {}}};
    if (cfh.rank == 1) exchange.waits.push_back({IDB_WAIT_wait_barrier, 0.05, 2, 0, {}});
  }
  store::load(*store::open(db->url()), p, {"waits", {}, {}});
  open(db->url(), "waits");
  gui::CfhTreeView &view = *window.treeView();
  QTreeView *tree = view.treeView();
  QModelIndex exchange = tree->currentIndex(); // the hot path's leaf
  ASSERT_EQ(exchange.data().toString(), "exchange()");
  const int wait_column = gui::kWaitColumn;
  ASSERT_EQ(view.model().headerData(wait_column, Qt::Horizontal).toString(), "wait ms");
  // Both ranks merged: 0.25 s + 0.5 s of late sender and 0.05 s at the barrier, of 3 s.
  EXPECT_NEAR(exchange.siblingAtColumn(wait_column).data(gui::kValueRole).toDouble(), 0.80, 1e-9);
  EXPECT_TRUE(exchange.data(Qt::BackgroundRole).isValid());
  EXPECT_TRUE(exchange.data(Qt::ToolTipRole).toString().contains("late sender"));
  QModelIndex solve = exchange.parent();
  EXPECT_FALSE(solve.data(Qt::BackgroundRole).isValid()) << "solve() itself never waited";
  EXPECT_TRUE(solve.siblingAtColumn(wait_column).data().toString().isEmpty());

  gui::WaitPanel &panel = *view.waitPanel();
  ASSERT_EQ(panel.rowCount(), 2);
  EXPECT_EQ(panel.cell(0, 0), "late sender");
  EXPECT_EQ(panel.cell(1, 0), "wait at barrier");
  EXPECT_EQ(panel.cell(1, 2), "2");
  EXPECT_TRUE(panel.title().contains("26.7%")) << panel.title().toStdString(); // 0.8 of 3
  tree->setCurrentIndex(solve);
  EXPECT_EQ(panel.rowCount(), 0);
  EXPECT_TRUE(panel.title().contains("no wait states")) << panel.title().toStdString();
}

// The histogram under the tree follows the node chosen: the hot path's leaf at first
// (exchange(), which has no histogram: nothing drawn, the reason in the title), then
// solve(), whose histogram came through the database: its bars and three quantile marks.
TEST_F(Flow, ShowsTheChosenNodesHistogram) {
  auto db = test::fresh_database();
  profile::Profile p = test::gui_profile();
  for (profile::Cfh &cfh : p.cfhs) // solve(): {1, 2, 3} s on rank 0, twice that on rank 1
    cfh.nodes[2].hist = profile::histogram_of({std::uint64_t(cfh.nodes[2].stats.min * 1e9),
                                               std::uint64_t(cfh.nodes[2].stats.mean * 1e9),
                                               std::uint64_t(cfh.nodes[2].stats.max * 1e9)});
  store::load(*store::open(db->url()), p, {"hist", {}, {}});
  open(db->url(), "hist");
  gui::CfhTreeView &view = *window.treeView();
  EXPECT_EQ(view.histogramPanel()->seriesCount(), 0);
  QTreeView *tree = view.treeView();
  EXPECT_EQ(tree->currentIndex().data().toString(), "exchange()");
  QModelIndex solve = tree->currentIndex().parent();
  ASSERT_EQ(solve.data().toString(), "solve()");
  tree->setCurrentIndex(solve);
  EXPECT_EQ(view.histogramPanel()->seriesCount(), 4);
  // The duration axis' labels stay whole ("2 s", never "2 …").
  const auto axes = view.histogramPanel()->chartView()->chart()->axes(Qt::Horizontal);
  ASSERT_EQ(axes.size(), 1);
  EXPECT_FALSE(axes.front()->truncateLabels());
  const QStringList durations = qobject_cast<QCategoryAxis *>(axes.front())->categoriesLabels();
  ASSERT_FALSE(durations.isEmpty());
  for (const QString &label : durations)
    EXPECT_TRUE(label.endsWith(" s")) << label.toStdString();
  view.histogramPanel()->setLogCount(true);
  EXPECT_EQ(view.histogramPanel()->seriesCount(), 4);
  view.showCfh(0); // rank 0 alone: the view starts again at its hot path's leaf
  EXPECT_EQ(view.histogramPanel()->seriesCount(), 0);
}

// The Iterations view: the dynamic probe's line over the ranks and the ranks × iterations
// heat map of a run stored with dynamics, any probe of the subtree on demand; and a run
// without dynamics says how to get them.
TEST_F(Flow, ShowsTheIterationsOfTheDynamicProbe) {
  auto db = test::fresh_database();
  {
    auto store_db = store::open(db->url());
    store::load(*store_db, test::gui_dynamic_profile(), {"steps", {}, {}});
    store::load(*store_db, test::gui_profile(), {"plain", {}, {}});
  }
  open(db->url(), "steps");
  window.showView(gui::MainWindow::View::iterations);
  gui::DynamicsView &view = *window.dynamicsView();
  EXPECT_TRUE(
      view.summary().contains("Dynamic probe solve(): 3 iterations on 2 CFH(s), 2 clusters"))
      << view.summary().toStdString();
  EXPECT_EQ(view.probeCount(), 2);
  EXPECT_EQ(view.probeShown(), "solve()");
  EXPECT_EQ(view.seriesCount(), 4); // the band, the least, the most, the mean
  const gui::HeatMap &map = view.heatMap().map();
  EXPECT_EQ(map.rows, (std::vector<std::string>{"rank 0", "rank 1"}));
  EXPECT_EQ(map.iterations, 3u);
  // solve() took 6 s on rank 0 and 12 s on rank 1: iterations of 1.5, 3, 1.5 and 3, 6, 3.
  EXPECT_DOUBLE_EQ(map.low, 1.5);
  EXPECT_DOUBLE_EQ(map.high, 6.0);
  EXPECT_DOUBLE_EQ(map.seconds[1][1], 6.0);
  QImage image = view.grab().toImage();
  EXPECT_TRUE(notOneColour(image));
  ASSERT_TRUE(view.chooseProbe("exchange"));
  EXPECT_EQ(view.probeShown(), "exchange()");
  EXPECT_DOUBLE_EQ(view.heatMap().map().seconds[0][1], 0.0) << "exchange() skipped iteration 1";
  EXPECT_FALSE(view.chooseProbe("nosuch"));

  QSignalSpy shown(&window, &gui::MainWindow::runShown);
  window.runsView()->chooseRun(QStringLiteral("plain"));
  ASSERT_TRUE(shown.wait(kWaitMs)) << window.errorText().toStdString();
  EXPECT_TRUE(view.summary().contains("no dynamic probe")) << view.summary().toStdString();
  EXPECT_EQ(view.probeCount(), 0);
  EXPECT_EQ(view.seriesCount(), 0);
}

// The flame graph of the run as a whole: the root spans the width and no frame is wider;
// clicking a frame zooms into it (its ancestors across the top, its siblings gone) and
// shows its probe's rows; the search marks frames and says their share; labels that do
// not fit lose their location, never run past their frame; the export is the folded
// stacks of the tree shown.
TEST_F(Flow, DrawsTheFlameGraphZoomsSearchesAndExports) {
  auto db = filled_database();
  open(db->url(), "small");
  window.showView(gui::MainWindow::View::flame);
  gui::FlameView &view = *window.flameView();
  gui::FlameCanvas &canvas = *view.canvas();
  QCoreApplication::processEvents();
  const gui::FlameGraph &g = canvas.graph();
  ASSERT_EQ(g.frames.size(), 5u);
  EXPECT_EQ(g.title, window.run()->whole[0].title);
  EXPECT_EQ(g.frames[2].label, "solve()");
  EXPECT_EQ(g.frames[2].count, 6u) << "both ranks merged";
  const QRectF root = canvas.frameRect(0);
  EXPECT_DOUBLE_EQ(root.width(), canvas.width());
  for (std::uint32_t i = 1; i < g.frames.size(); ++i)
    EXPECT_LT(canvas.frameRect(i).width(), root.width()) << g.frames[i].label;
  EXPECT_EQ(canvas.frameAt(root.center()), 0u);
  EXPECT_EQ(canvas.frameAt(QPointF(1, 4.5 * gui::FlameCanvas::kRowHeight)), gui::kFlameTop);
  EXPECT_EQ(canvas.frameText(0), "program");

  // A click on solve(): it fills the width under program and main(); output() is gone.
  const QRectF solve = canvas.frameRect(2);
  QTest::mouseClick(&canvas, Qt::LeftButton, {}, solve.center().toPoint());
  EXPECT_EQ(canvas.zoomed(), 2u);
  EXPECT_DOUBLE_EQ(canvas.frameRect(2).width(), canvas.width());
  EXPECT_DOUBLE_EQ(canvas.frameRect(1).width(), canvas.width());
  EXPECT_TRUE(canvas.frameRect(4).isEmpty()) << "output() lies outside solve()";
  EXPECT_FALSE(canvas.frameRect(3).isEmpty());
  EXPECT_EQ(window.probeRows().rowCount(), 2) << "solve()'s node on each rank";
  EXPECT_TRUE(view.matchText().startsWith("Zoomed into solve(): "))
      << view.matchText().toStdString();
  // Clicking the root shows everything again.
  QTest::mouseClick(&canvas, Qt::LeftButton, {}, canvas.frameRect(0).center().toPoint());
  EXPECT_EQ(canvas.zoomed(), 0u);
  EXPECT_FALSE(canvas.frameRect(4).isEmpty());
  EXPECT_TRUE(view.chooseFrame("exch"));
  EXPECT_EQ(canvas.zoomed(), 3u);
  EXPECT_FALSE(view.chooseFrame("nosuch"));

  view.search("OUT");
  EXPECT_EQ(canvas.matches().count, 1u);
  EXPECT_TRUE(view.matchText().contains("1 frame(s) match 'OUT'"))
      << view.matchText().toStdString();
  view.search("zzz");
  EXPECT_TRUE(view.matchText().contains("No probe matches 'zzz'"))
      << view.matchText().toStdString();
  view.search("");

  // A narrow window: every label drawn fits in its frame.
  window.resize(420, 600);
  QCoreApplication::processEvents();
  canvas.zoomTo(0);
  const QFontMetrics metrics = canvas.fontMetrics();
  for (std::uint32_t i = 0; i < g.frames.size(); ++i) {
    const QString text = canvas.frameText(i);
    if (text.isEmpty()) continue;
    EXPECT_LE(metrics.horizontalAdvance(text), canvas.frameRect(i).width() - 6)
        << text.toStdString();
  }

  // The other trees of the run: rank 1's CFH alone.
  view.showTree(1);
  EXPECT_EQ(canvas.graph().frames[2].count, 3u);
  QString error;
  EXPECT_EQ(window.foldedStacks(error),
            analysis::folded_stacks(window.run()->profile, window.run()->profile.cfhs[1]));
  EXPECT_TRUE(error.isEmpty());
  // And the run as a whole for Hatchet, as idb export --format hatchet --aggregate.
  const std::string json = window.hatchetJson(error);
  EXPECT_TRUE(error.isEmpty());
  EXPECT_EQ(json, analysis::hatchet_literal(window.run()->profile,
                                            analysis::aggregate_trees(window.run()->profile)));
  EXPECT_EQ(json.rfind("[{\"frame\": {\"name\": \"program [", 0), 0u) << json.substr(0, 80);
}

// The diff: a run chosen against the run shown (from the Diff tab or the Runs tab's
// context menu) is read in the worker and set beside it node by node; switching the run
// shown keeps the other run and sets the new baseline against it; a run the database does
// not hold is an error in the banner.
TEST_F(Flow, SetsAnotherRunAgainstTheRunShown) {
  auto db = test::fresh_database();
  {
    auto store_db = store::open(db->url());
    store::load(*store_db, test::gui_profile(), {"base", {}, {}});
    store::load(*store_db, test::gui_profile(2.0), {"slow", {}, {}});
  }
  open(db->url(), "base");
  gui::DiffView &view = *window.diffView();
  EXPECT_EQ(view.model().rowCount(), 0);
  EXPECT_TRUE(view.caption().startsWith("Choose a run")) << view.caption().toStdString();
  QSignalSpy diffed(&window, &gui::MainWindow::diffShown);
  emit window.runsView()->diffRequested("slow"); // the Runs tab's context menu
  ASSERT_TRUE(diffed.wait(kWaitMs)) << window.errorText().toStdString();
  EXPECT_EQ(view.diff().baseline, "base");
  EXPECT_EQ(view.diff().other, "slow");
  ASSERT_EQ(view.model().rowCount(), 1);
  const QModelIndex main = view.model().index(0, 0, view.model().index(0, 0));
  const QModelIndex solve = view.model().index(0, 0, main);
  EXPECT_EQ(solve.data().toString(), "solve()");
  EXPECT_EQ(solve.siblingAtColumn(gui::kDiffRatioColumn).data().toString(),
            QStringLiteral("2.00×"));
  EXPECT_TRUE(view.treeView()->isExpanded(main)) << "the path of largest change is open";
  EXPECT_TRUE(view.caption().contains("slower in slow")) << view.caption().toStdString();
  // Clicking a node shows its probe's rows.
  emit view.probeClicked(2);
  EXPECT_EQ(window.probeRows().rowCount(), 2);

  // The other way round once the shown run changes.
  QSignalSpy shown(&window, &gui::MainWindow::runShown);
  window.runsView()->chooseRun("slow");
  ASSERT_TRUE(shown.wait(kWaitMs)) << window.errorText().toStdString();
  EXPECT_EQ(view.diff().baseline, "slow");
  EXPECT_EQ(view.diff().other, "slow");
  ASSERT_TRUE(view.chooseOther("base"));
  ASSERT_TRUE(diffed.wait(kWaitMs)) << window.errorText().toStdString();
  EXPECT_EQ(view.diff().other, "base");
  EXPECT_EQ(view.model()
                .index(0, 0, view.model().index(0, 0, view.model().index(0, 0)))
                .siblingAtColumn(gui::kDiffRatioColumn)
                .data()
                .toString(),
            QStringLiteral("0.50×"));

  QSignalSpy failed(&window, &gui::MainWindow::errorShown);
  window.diffWith("nosuch");
  EXPECT_EQ(failed.count(), 1);
  EXPECT_TRUE(window.errorText().contains("no run is labelled 'nosuch'"))
      << window.errorText().toStdString();
}

// Two groups of repeated runs, each named by a label pattern, read in the worker: means
// over each side's three runs, Welch's p per node, significant changes tinted; a pattern
// that matches no run is an error in the banner, and the baseline can return to the run
// shown.
TEST_F(Flow, SetsAGroupOfRunsAgainstAnother) {
  auto db = test::fresh_database();
  {
    auto store_db = store::open(db->url());
    const double scales[] = {1.0, 1.02, 0.98};
    for (int i = 0; i < 3; ++i) {
      const std::string n = std::to_string(i + 1);
      store::load(*store_db, test::gui_profile(scales[i]), {"base-" + n, {}, {}});
      store::load(*store_db, test::gui_profile(1.5 * scales[i]), {"slow-" + n, {}, {}});
    }
  }
  open(db->url(), "base-1");
  gui::DiffView &view = *window.diffView();
  QSignalSpy diffed(&window, &gui::MainWindow::diffShown);
  window.diffWith("slow-*", "base-*");
  ASSERT_TRUE(diffed.wait(kWaitMs)) << window.errorText().toStdString();
  EXPECT_EQ(view.diff().baseline, "base-*");
  EXPECT_EQ(view.diff().other, "slow-*");
  EXPECT_EQ(view.diff().baseline_runs, 3u);
  EXPECT_EQ(view.diff().other_runs, 3u);
  EXPECT_TRUE(view.caption().contains("Welch")) << view.caption().toStdString();
  const QModelIndex solve =
      view.model().index(0, 0, view.model().index(0, 0, view.model().index(0, 0)));
  ASSERT_EQ(solve.data().toString(), "solve()");
  EXPECT_NEAR(solve.siblingAtColumn(gui::kDiffBaselineColumn).data(gui::kValueRole).toDouble(),
              18 - 0.002, 1e-9);
  EXPECT_LT(solve.siblingAtColumn(gui::kDiffPColumn).data(gui::kValueRole).toDouble(), 0.001);
  EXPECT_TRUE(solve.data(Qt::BackgroundRole).isValid()) << "significant: tinted";

  QSignalSpy failed(&window, &gui::MainWindow::errorShown);
  window.diffWith("fast-*");
  EXPECT_EQ(failed.count(), 1);
  EXPECT_TRUE(window.errorText().contains("no label matches it"))
      << window.errorText().toStdString();
  EXPECT_EQ(view.diff().other, "slow-*") << "the diff shown stays";

  // The run shown as the baseline again: one run against the group, spreads but no test.
  ASSERT_TRUE(view.chooseSide(gui::DiffView::kBaseline, "base-1"));
  EXPECT_EQ(view.diff().baseline_runs, 1u);
  EXPECT_FALSE(view.diff().tested());
  EXPECT_TRUE(view.caption().contains("no test")) << view.caption().toStdString();

  // The database opened again: both sides are chosen afresh.
  open(db->url(), "base-2");
  EXPECT_TRUE(view.diff().rows.empty());
  EXPECT_TRUE(view.caption().startsWith("Choose a run")) << view.caption().toStdString();
}

// The linked run view: the metric chosen values the tree and the ranks' bars; the node
// chosen shows on every rank, largest first; clicking a rank's bar shows that rank's own
// tree with the same node chosen, clicking it again the run as a whole.
TEST_F(Flow, LinksTheMetricTreeAndRankPanes) {
  auto db = filled_database();
  open(db->url(), "small");
  window.showView(gui::MainWindow::View::run);
  gui::RunView &view = *window.runView();
  QCoreApplication::processEvents();
  EXPECT_EQ(view.chosenMetric(), gui::NodeMetric::corrected);
  EXPECT_EQ(view.metricList()->currentItem()->text(0), "corrected inclusive");
  EXPECT_TRUE(view.treeTitle().startsWith("The run as a whole")) << view.treeTitle().toStdString();
  // At first the hot path's leaf: exchange(), on both ranks.
  EXPECT_EQ(view.chosenPath(), (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(view.rankBars()->spread().values.size(), 2u);

  ASSERT_TRUE(view.chooseNode("solve"));
  const gui::RankSpreadView &spread = view.rankBars()->spread();
  ASSERT_EQ(spread.values.size(), 2u);
  EXPECT_EQ(spread.values[0].rank, 1) << "rank 1 spent twice rank 0's time";
  EXPECT_NEAR(spread.values[0].value, 12 - 0.001, 1e-9);
  EXPECT_TRUE(view.rankSummary().contains("most/mean 1.33")) << view.rankSummary().toStdString();
  EXPECT_TRUE(view.rankBars()->rowText(0).startsWith("rank 1")) << "largest first";

  // Another metric: the tree's column and the bars follow, the node stays chosen.
  QTreeWidget *metrics = view.metricList();
  for (int i = 0; i < metrics->topLevelItemCount(); ++i)
    if (metrics->topLevelItem(i)->text(0) == "activations")
      metrics->setCurrentItem(metrics->topLevelItem(i));
  EXPECT_EQ(view.chosenMetric(), gui::NodeMetric::count);
  EXPECT_EQ(view.model().headerData(1, Qt::Horizontal).toString(), "activations");
  EXPECT_EQ(view.chosenPath(), (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_DOUBLE_EQ(view.rankBars()->spread().values[0].value, 3.0);
  EXPECT_EQ(view.metricList()->topLevelItem(6)->text(1), "16") << "both ranks: 8 activations each";

  // A click on rank 0's bar: rank 0's tree, solve() still chosen; again: the whole run.
  view.setMetric(gui::NodeMetric::inclusive);
  gui::RankBars &bars = *view.rankBars();
  QCoreApplication::processEvents();
  const int row0 = bars.spread().values[0].rank == 0 ? 0 : 1;
  QTest::mouseClick(&bars, Qt::LeftButton, {},
                    QPoint(100, 2 + row0 * gui::RankBars::kRowHeight + 8));
  ASSERT_EQ(view.shownRank(), std::optional<int>(0));
  EXPECT_TRUE(view.treeTitle().startsWith("rank 0")) << view.treeTitle().toStdString();
  EXPECT_EQ(view.chosenPath(), (std::vector<std::int32_t>{0, 1, 2}));
  const QModelIndex chosen = view.treeView()->currentIndex();
  EXPECT_EQ(chosen.data().toString(), "solve()");
  EXPECT_DOUBLE_EQ(chosen.siblingAtColumn(1).data(gui::kValueRole).toDouble(), 6.0);
  const int again = bars.spread().values[0].rank == 0 ? 0 : 1;
  QTest::mouseClick(&bars, Qt::LeftButton, {},
                    QPoint(100, 2 + again * gui::RankBars::kRowHeight + 8));
  EXPECT_FALSE(view.shownRank().has_value());
  EXPECT_DOUBLE_EQ(
      view.treeView()->currentIndex().siblingAtColumn(1).data(gui::kValueRole).toDouble(), 18.0);
  // Clicking a node shows its probe's rows.
  emit view.probeClicked(2);
  EXPECT_EQ(window.probeRows().rowCount(), 2);
}

// The source of a clicked probe: not found where the run recorded it, the view names the
// paths it tried; under a source root set once (and kept in the settings), the file opens
// at the probe's line, marked; the probe rows show times in their unit.
TEST_F(Flow, ShowsAProbesSourceAtItsLine) {
  auto db = filled_database();
  open(db->url(), "small");
  gui::SourceView &view = *window.sourceView();
  window.showProbe(2); // solve(), small.c:10, recorded relative and without a run directory
  EXPECT_EQ(view.foundPath(), "");
  EXPECT_TRUE(view.message().startsWith("Source not found. Looked at: small.c"))
      << view.message().toStdString();
  const std::string root = dir.file("sources");
  std::filesystem::create_directories(root);
  {
    std::ofstream out(root + "/small.c");
    for (int i = 1; i <= 30; ++i)
      out << "line " << i << "\n";
  }
  view.setSourceRoot(QString::fromStdString(root));
  EXPECT_EQ(view.foundPath().toStdString(), root + "/small.c");
  EXPECT_EQ(view.markedLine(), 10);
  EXPECT_EQ(view.text()->textCursor().blockNumber(), 9);
  EXPECT_TRUE(view.text()->textCursor().block().text().endsWith("line 10"))
      << view.text()->textCursor().block().text().toStdString();
  EXPECT_EQ(settings.value("source/root").toString().toStdString(), root);
  window.showProbe(4); // output(), small.c:30
  EXPECT_EQ(view.markedLine(), 30);
  window.showProbe(0); // the program's root: not described here, no location
  EXPECT_EQ(view.markedLine(), 0);
  EXPECT_TRUE(view.message().contains("no source location")) << view.message().toStdString();
  // The probe rows: seconds in the column's unit, the exact value in the tooltip.
  window.showProbe(2);
  const int total = window.probeRows().column("total");
  EXPECT_EQ(window.probeRows().headerData(total, Qt::Horizontal).toString(), "total s");
  EXPECT_EQ(window.probeRows().index(0, total).data().toString(), "6.00") << "as 12.00";
  EXPECT_EQ(window.probeRows().index(0, total).data(Qt::ToolTipRole).toString(), "6");
}
