// The experiment view against a real database (the engine of the test_database_*.cpp this
// program is built with): an .edf opened in COALESCE and in COMPARE, box plots with their
// outliers, each entry's value per rank with ratio and verdict, value and rank switched,
// the chart exported; and a broken .edf showing its error in the window.
#include "fixtures.hpp"
#include "test_database.hpp"

#include "files.hpp"
#include "main_window.hpp"

#include <QChartView>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <fstream>

using namespace idb;

namespace {

constexpr int kWaitMs = 60000;

// base-1..4 around 1x, base-5 at 3x (an outlier), slow-1..4 around 1.5x.
std::unique_ptr<test::TestDatabase> experiment_database() {
  auto db = test::fresh_database();
  auto store_db = store::open(db->url());
  const double base[] = {1.0, 1.01, 1.02, 1.03, 3.0}, slow[] = {1.5, 1.51, 1.52, 1.53};
  for (int i = 0; i < 5; ++i)
    store::load(*store_db, test::gui_profile(base[i]), {"base-" + std::to_string(i + 1), {}, {}});
  for (int i = 0; i < 4; ++i)
    store::load(*store_db, test::gui_profile(slow[i]), {"slow-" + std::to_string(i + 1), {}, {}});
  return db;
}

class Experiment : public ::testing::Test {
protected:
  test::TempDir dir;
  QSettings settings{QString::fromStdString(dir.file("gui.ini")), QSettings::IniFormat};
  gui::MainWindow window{settings};
  std::unique_ptr<test::TestDatabase> db = experiment_database();

  void SetUp() override {
    window.resize(1200, 800);
    window.show();
  }
  std::string write_edf(const std::string &name, const std::string &text) {
    std::ofstream(dir.file(name)) << text;
    return dir.file(name);
  }
  void open(const std::string &path) {
    QSignalSpy shown(&window, &gui::MainWindow::experimentShown);
    window.openExperiment(QString::fromStdString(path), QString::fromStdString(db->url()));
    ASSERT_TRUE(shown.wait(kWaitMs)) << window.errorText().toStdString();
  }
};

} // namespace

TEST_F(Experiment, CoalesceShowsBoxesWithOutliers) {
  open(write_edf("c.edf", "[PREAMBLE]\nExperiment base runs\nMode COALESCE\n"
                          "[DBLIST]\nbase-*  five runs of the same configuration\n"));
  gui::ExperimentView &view = *window.experimentView();
  EXPECT_EQ(view.mode(), edf::Mode::coalesce);
  const edf::CoalesceResult &r = view.coalesceResult();
  EXPECT_EQ(r.runs.size(), 5u);
  auto solve = std::find_if(r.rows.begin(), r.rows.end(),
                            [](const edf::CoalesceRow &row) { return row.probe == 2; });
  ASSERT_NE(solve, r.rows.end());
  ASSERT_EQ(solve->outliers.size(), 1u);
  EXPECT_EQ(solve->outliers[0].run, "base-5");
  EXPECT_EQ(view.table().rowCount(), int(r.rows.size()));
  EXPECT_EQ(view.panel()->seriesCount(), 2); // the boxes and the outliers

  // Medians under 100 times apart: drawn as they are, in the unit of the largest.
  EXPECT_FALSE(view.relative());
  EXPECT_EQ(view.panel()->yTitle(), "total (s)");
  view.setRelative(true);
  EXPECT_EQ(view.panel()->yTitle(), QStringLiteral("total \u00f7 median"));
  EXPECT_TRUE(view.panel()->chartView()->chart()->title().endsWith("each probe \u00f7 its median"));
  view.setRelative(false);

  view.setRank(1);
  EXPECT_EQ(view.coalesceResult().rows.front().rank, 1);
  view.setMetric(gui::Metric::count);
  EXPECT_EQ(view.coalesceResult().value, analysis::Metric::count);

  QString error;
  const QString png = QString::fromStdString(dir.file("boxes.png"));
  ASSERT_TRUE(view.panel()->savePng(png, error)) << error.toStdString();
  QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_GT(image.width(), 200);
  EXPECT_NE(image.pixel(image.width() / 2, image.height() / 2), image.pixel(1, 1));
}

TEST_F(Experiment, CompareShowsEachEntryPerRankWithTheVerdict) {
  open(write_edf("k.edf", "[PREAMBLE]\nMode COMPARE\n[DBLIST]\nbase-[1-4]  baseline\n"
                          "slow-*  slower build\n"));
  gui::ExperimentView &view = *window.experimentView();
  EXPECT_EQ(view.mode(), edf::Mode::compare);
  view.setProbe(2);
  const edf::CompareResult &r = view.compareResult();
  auto row = std::find_if(r.rows.begin(), r.rows.end(),
                          [](const edf::CompareRow &x) { return x.probe == 2 && x.rank == 1; });
  ASSERT_NE(row, r.rows.end());
  ASSERT_EQ(row->cells.size(), 2u);
  ASSERT_TRUE(row->cells[1].ratio);
  EXPECT_NEAR(*row->cells[1].ratio, 1.5, 0.02);
  EXPECT_TRUE(row->cells[1].significant);
  EXPECT_EQ(view.panel()->seriesCount(), 2); // one series per rank
  // The title sums the ranks up, not rank 0's ratio alone; the axis names its unit.
  const QString title = view.panel()->chartView()->chart()->title();
  EXPECT_TRUE(title.contains("per rank; slow-* \u00d71.4") ||
              title.contains("per rank; slow-* \u00d71.5"))
      << title.toStdString();
  EXPECT_TRUE(title.contains("over 2 ranks (2 significant)")) << title.toStdString();
  EXPECT_FALSE(title.contains("[rank 0]")) << title.toStdString();
  EXPECT_EQ(view.panel()->yTitle(), "total (s)");
  // The table: values in their unit, ratios with ×, exact numbers in the export.
  const gui::TableModel &t = view.table();
  EXPECT_EQ(t.headerData(t.column("value"), Qt::Horizontal).toString(), "value s");
  EXPECT_TRUE(t.index(1, t.column("ratio")).data().toString().endsWith(QStringLiteral("\u00d7")));
  EXPECT_EQ(t.headerData(t.column("ratio"), Qt::Horizontal, gui::kExportRole).toString(), "ratio");
  view.setRank(0);
  EXPECT_EQ(view.panel()->seriesCount(), 1);
  EXPECT_TRUE(view.panel()->chartView()->chart()->title().contains("[rank 0]"));
  view.setMode(edf::Mode::coalesce); // the same runs, the other analysis
  EXPECT_EQ(view.coalesceResult().runs.size(), 8u);
}

TEST_F(Experiment, ABrokenFileShowsWhereInTheWindow) {
  QSignalSpy failed(&window, &gui::MainWindow::errorShown);
  window.openExperiment(
      QString::fromStdString(write_edf("bad.edf", "[PREAMBLE]\nMode SOMETIMES\n[DBLIST]\nx\n")));
  ASSERT_TRUE(failed.wait(kWaitMs));
  EXPECT_TRUE(window.errorText().contains("bad.edf:2:"))
      << failed.front().front().toString().toStdString();
  window.openExperiment(QString::fromStdString(write_edf(
                            "none.edf", "[PREAMBLE]\nMode COALESCE\n[DBLIST]\nno-such-run\n")),
                        QString::fromStdString(db->url()));
  ASSERT_TRUE(failed.wait(kWaitMs));
  EXPECT_TRUE(window.errorText().contains("no-such-run")) << window.errorText().toStdString();
}
