// Per-probe, per-rank summaries, the chart data built from them and from query results,
// and the chart-data and legend models under QAbstractItemModelTester.
#include "fixtures.hpp"

#include "chart_data.hpp"
#include "experiment_data.hpp"
#include "histogram_data.hpp"
#include "idb/histogram.hpp"
#include "legend_model.hpp"
#include "run_data.hpp"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <cmath>

using namespace idb;

namespace {

gui::RunData small_run() {
  return gui::summarize_run("small", test::gui_profile(), {});
}

} // namespace

TEST(RunData, SummarizesEveryProbePerRank) {
  gui::RunData run = small_run();
  EXPECT_EQ(run.summary.ranks, (std::vector<int>{0, 1}));
  ASSERT_EQ(run.summary.probes.size(), 4u);
  EXPECT_EQ(run.summary.probes[0].label, "main()");  // 18 s over both ranks
  EXPECT_EQ(run.summary.probes[1].label, "solve()"); // 6 + 12
  const gui::ProbeSummary *solve = run.summary.probe(2);
  ASSERT_TRUE(solve);
  EXPECT_DOUBLE_EQ(analysis::value(solve->per_rank[1], gui::Metric::total), 12.0);
  EXPECT_DOUBLE_EQ(analysis::value(solve->per_rank[1], gui::Metric::cpu), 6.0);
  EXPECT_DOUBLE_EQ(analysis::value(solve->per_rank[1], gui::Metric::range), 4.0);
  EXPECT_DOUBLE_EQ(analysis::value(solve->per_rank[1], gui::Metric::sdev), 2.0);
  EXPECT_DOUBLE_EQ(analysis::value(solve->all, gui::Metric::count), 6.0);
  EXPECT_DOUBLE_EQ(analysis::value(solve->all, gui::Metric::noise), 0.04);
  EXPECT_NEAR(analysis::value(solve->per_rank[0], gui::Metric::corrected), 6.0 - 0.001, 1e-12);
  ASSERT_EQ(run.whole.size(), 1u);
  EXPECT_EQ(run.whole[0].cfh.nodes.size(), 5u); // both ranks merged by probe path
  EXPECT_DOUBLE_EQ(profile::node_times(run.whole[0].cfh)[2].inclusive, 18.0);
  EXPECT_EQ(run.summary.probe(99), nullptr);
}

TEST(RunData, NamesASummaryRunsRanks) {
  profile::Profile p = test::gui_profile();
  p.cfhs.resize(1);
  p.cfhs[0].rank = -1; // a summary-mode run: one CFH for every rank
  gui::RunData run = gui::summarize_run("summary", p, {});
  EXPECT_EQ(run.summary.ranks, (std::vector<int>{-1}));
  gui::ChartData c = gui::chart_data(run.summary, {{2}, gui::Metric::total, {}});
  ASSERT_EQ(c.series.size(), 1u);
  EXPECT_EQ(c.series[0].name, "all ranks (summary)");
  EXPECT_EQ(gui::rank_name(3), "rank 3");
}

TEST(RunData, ListsAProbesRows) {
  gui::RunData run = small_run();
  store::QueryResult rows = gui::probe_rows(run, 3);
  ASSERT_EQ(rows.rows.size(), 2u);
  EXPECT_EQ(rows.rows[1][0], "1");       // rank
  EXPECT_EQ(rows.rows[1][4], "solve()"); // parent probe
  EXPECT_EQ(rows.rows[1][6], "2");       // total
  EXPECT_TRUE(gui::probe_rows(run, 42).rows.empty());
}

TEST(ChartData, OneSeriesPerRankOrOneRank) {
  gui::RunData run = small_run();
  gui::ChartData all = gui::chart_data(run.summary, {{2, 4, 77}, gui::Metric::total, {}});
  EXPECT_EQ(all.categories, (std::vector<std::string>{"solve()", "output()"}));
  ASSERT_EQ(all.series.size(), 2u);
  EXPECT_EQ(all.series[1].name, "rank 1");
  EXPECT_EQ(all.series[1].values, (std::vector<double>{12.0, 1.0}));
  gui::ChartData one = gui::chart_data(run.summary, {{2}, gui::Metric::count, 1});
  ASSERT_EQ(one.series.size(), 1u);
  EXPECT_EQ(one.series[0].values, (std::vector<double>{3.0}));
  EXPECT_TRUE(gui::chart_data(run.summary, {{2}, gui::Metric::count, 7}).series.empty());
}

// A quantile needs histograms: without them the chart has no value (NaN, a blank cell,
// no point), not a 0; with them, the per-rank quantile of the activations.
TEST(ChartData, QuantilesWithAndWithoutHistograms) {
  gui::RunData plain = small_run();
  gui::ChartDataModel model;
  model.setChartData(gui::chart_data(plain.summary, {{2}, gui::Metric::p50, {}}));
  ASSERT_EQ(model.columnCount(), 2);
  EXPECT_TRUE(std::isnan(model.index(0, 1).data(gui::kValueRole).toDouble()));
  EXPECT_EQ(model.index(0, 1).data(Qt::DisplayRole).toString(), "");

  profile::Profile p = test::gui_profile();
  for (int r = 0; r < 2; ++r) { // solve(): {1, 2, 3} s times rank + 1
    std::vector<std::uint64_t> ns;
    for (int i = 1; i <= 3; ++i)
      ns.push_back(std::uint64_t(i * (r + 1)) * 1'000'000'000);
    p.cfhs[std::size_t(r)].nodes[2].hist = profile::histogram_of(ns);
  }
  gui::RunData with = gui::summarize_run("hist", p, {});
  gui::ChartData c = gui::chart_data(with.summary, {{2, 3}, gui::Metric::p50, {}});
  ASSERT_EQ(c.series.size(), 2u);
  EXPECT_NEAR(c.series[1].values[0], 4.0, 4.0 / 33);
  EXPECT_TRUE(std::isnan(c.series[1].values[1])); // exchange() has no histogram
  EXPECT_NEAR(analysis::value(with.summary.probe(2)->all, gui::Metric::p99), 6.0, 6.0 / 33);
}

TEST(HistogramChart, BarsQuantilesOrWhyNot) {
  profile::Profile p = test::gui_profile();
  profile::Node &solve = p.cfhs[1].nodes[2]; // {2, 4, 6} s
  gui::HistogramChart none = gui::histogram_chart("solve()", solve);
  EXPECT_TRUE(none.bars.empty());
  EXPECT_NE(none.missing.find("IDB_HISTOGRAM=0"), std::string::npos);
  EXPECT_EQ(none.title, "solve(): " + none.missing);
  profile::Node outside = solve; // the workers' time outside their probes is no probe's
  outside.probe = profile::kWorkersOutsideProbes;
  EXPECT_NE(gui::histogram_chart("x", outside).missing.find("outside its probes"),
            std::string::npos);

  solve.hist = profile::histogram_of({2'000'000'000, 4'000'000'000, 6'000'000'000});
  gui::HistogramChart c = gui::histogram_chart("solve()", solve);
  ASSERT_EQ(c.bars.size(), 3u);
  EXPECT_EQ(c.count, 3u);
  for (std::size_t i = 0; i < 3; ++i) { // each bar holds its duration, within 1/16
    const double d = 2.0 * double(i + 1);
    EXPECT_LE(c.bars[i].lower, d);
    EXPECT_GT(c.bars[i].upper, d);
    EXPECT_LT(c.bars[i].upper / c.bars[i].lower, 1.0 + 1.0 / 16 + 1e-12);
    EXPECT_EQ(c.bars[i].count, 1u);
  }
  EXPECT_NEAR(c.p50, 4.0, 4.0 / 33);
  EXPECT_NEAR(c.p99, 6.0, 6.0 / 33);
  EXPECT_EQ(c.title.rfind("solve(): 3 activations, p50 ", 0), 0u) << c.title;
  EXPECT_NE(c.title.find(", max 6.00 s"), std::string::npos) << c.title;
  profile::Node throttled = solve; // the histogram holds the timed ones: the title says so
  throttled.stats.throttled = 1'234'567;
  EXPECT_EQ(gui::histogram_chart("solve()", throttled)
                .title.rfind("solve(): 3 timed activations (of 1,234,570), p50 ", 0),
            0u)
      << gui::histogram_chart("solve()", throttled).title;

  solve.hist.buckets.pop_back(); // two of three activations: not this node's histogram
  EXPECT_TRUE(gui::histogram_chart("solve()", solve).bars.empty());
  profile::Node zero = solve; // a duration of 0 ns: drawn from half the bucket's upper bound
  idb_stats_clear(&zero.stats);
  idb_stats_add(&zero.stats, 0.0);
  zero.hist = profile::histogram_of({0});
  gui::HistogramChart z = gui::histogram_chart("tiny", zero);
  ASSERT_EQ(z.bars.size(), 1u);
  EXPECT_GT(z.bars[0].lower, 0.0);
}

TEST(HistogramChart, DurationsReadInTheirUnit) {
  EXPECT_EQ(gui::duration_text(48.24e-6), "48.2 µs");
  EXPECT_EQ(gui::duration_text(1.25), "1.25 s");
  EXPECT_EQ(gui::duration_text(999.7e-6), "1.00 ms");
  EXPECT_EQ(gui::duration_text(120e-9), "120 ns");
  EXPECT_EQ(gui::duration_text(3.0e-10), "0.30 ns");
  EXPECT_EQ(gui::duration_text(2e-5, true), "20 µs");
  EXPECT_EQ(gui::duration_text(std::nan("")), "–");
}

TEST(ChartData, FromAQueryResult) {
  store::QueryResult t;
  t.columns = {"probe_id", "description", "total"};
  t.numeric = {true, false, true};
  t.rows = {{"1", "main()", "2.5"}, {"2", std::nullopt, std::nullopt}};
  gui::ChartData c = gui::chart_from_table(t);
  EXPECT_EQ(c.categories, (std::vector<std::string>{"main()", "2"}));
  ASSERT_EQ(c.series.size(), 1u) << "the probe id names a probe, it does not measure";
  EXPECT_EQ(c.series[0].name, "total");
  EXPECT_EQ(c.series[0].values, (std::vector<double>{2.5, 0.0}));
  EXPECT_FALSE(c.seconds) << "'total' does not say it is seconds";
  EXPECT_EQ(gui::chart_from_table(t, 1).categories.size(), 1u);
  // Ranks, threads, nodes and any *_id column are left out; *_s columns are seconds.
  t.columns = {"rank", "thread", "node", "run_id", "label", "inclusive_s", "exclusive_s"};
  t.numeric = {true, true, true, true, false, true, true};
  t.rows = {{"0", "0", "3", "1", "solve", "2.5", "1.5"}};
  c = gui::chart_from_table(t);
  ASSERT_EQ(c.series.size(), 2u);
  EXPECT_EQ(c.series[0].name, "inclusive_s");
  EXPECT_EQ(c.series[1].values, (std::vector<double>{1.5}));
  EXPECT_EQ(c.categories, (std::vector<std::string>{"solve"}));
  EXPECT_TRUE(c.seconds);
}

TEST(ChartData, AxesEndOnRoundNumbersWithHeadroom) {
  gui::NiceAxis a = gui::nice_axis(0, 0.0846);
  EXPECT_DOUBLE_EQ(a.min, 0);
  EXPECT_NEAR(a.max, 0.1, 1e-12);
  EXPECT_EQ(a.ticks, 6); // 0, 0.02, ..., 0.1
  a = gui::nice_axis(0, 958.3);
  EXPECT_NEAR(a.max, 1200, 1e-9) << "1000 is under 5% of headroom";
  EXPECT_EQ(a.ticks, 7);
  a = gui::nice_axis(0, 100);
  EXPECT_GE(a.max, 105);
  a = gui::nice_axis(-3, 7);
  EXPECT_NEAR(a.min, -4, 1e-12);
  EXPECT_NEAR(a.max, 8, 1e-12);
  for (double hi : {1e-7, 3.3, 17.0, 4.2e5}) {
    a = gui::nice_axis(0, hi);
    EXPECT_GE(a.max, hi * 1.05 - 1e-12) << hi;
    EXPECT_LE(a.max, hi * 2.5) << hi;
    EXPECT_GE(a.ticks, 4) << hi;
    EXPECT_LE(a.ticks, 9) << hi;
    const double step = (a.max - a.min) / (a.ticks - 1);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-6 || std::fabs(mantissa - 2) < 1e-6 ||
                std::fabs(mantissa - 5) < 1e-6)
        << hi << ": step " << step;
  }
  a = gui::nice_axis(0, 0);
  EXPECT_DOUBLE_EQ(a.max, 1);
}

TEST(ChartData, LabelsLoseTheirMiddleAndStayDistinct) {
  const std::vector<std::string> labels = gui::axis_labels(
      {"main", "for loop in power_iteration [smvp.c:199]",
       "for loop in power_iteration [smvp.c:195]", "a very long label number one that ends [x.c:1]",
       "a very long label number two that ends [x.c:1]", "µµµµµµµµµµµµµµµµµµµµµµ [x.c:1]"});
  EXPECT_EQ(labels[0], "main");
  EXPECT_EQ(labels[1], "for loop in p\u2026n [smvp.c:199]");
  EXPECT_EQ(labels[2], "for loop in p\u2026n [smvp.c:195]") << "the locations keep them apart";
  EXPECT_NE(labels[3], labels[4]) << "equal once elided: made distinct";
  EXPECT_EQ(QString::fromStdString(labels[4]).remove(QChar(0x200b)).toStdString(), labels[3])
      << "the same text, a zero-width space apart";
  for (const std::string &l : labels)
    EXPECT_LE(QString::fromStdString(l).size(), 30) << l;
  EXPECT_TRUE(QString::fromStdString(labels[5]).isValidUtf16()) << "never cut inside a character";
  EXPECT_TRUE(QString::fromStdString(labels[5]).endsWith("[x.c:1]"));
}

TEST(ChartDataModel, ShowsCategoriesBySeries) {
  gui::RunData run = small_run();
  gui::ChartDataModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setChartData(gui::chart_data(run.summary, {{2, 3}, gui::Metric::total, {}}));
  ASSERT_EQ(model.rowCount(), 2);
  ASSERT_EQ(model.columnCount(), 2);
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), "rank 1");
  EXPECT_EQ(model.headerData(1, Qt::Vertical).toString(), "exchange()");
  EXPECT_DOUBLE_EQ(model.index(1, 1).data(gui::kValueRole).toDouble(), 2.0);
  EXPECT_EQ(model.index(1, 1).data(gui::kKeyRole).toLongLong(), 3);
  model.setChartData({});
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(LegendModel, ChecksProbesAndTellsTheChart) {
  gui::RunData run = small_run();
  gui::LegendModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSignalSpy changed(&model, &gui::LegendModel::checkedChanged);
  model.setProbes(run.summary, 2);
  EXPECT_EQ(model.checkedProbes(), (std::vector<std::int32_t>{1, 2}));
  EXPECT_TRUE(model.setData(model.index(3), Qt::Checked, Qt::CheckStateRole));
  EXPECT_EQ(model.checkedProbes(), (std::vector<std::int32_t>{1, 2, 4}));
  model.setChecked(1, false);
  EXPECT_EQ(model.checkedProbes(), (std::vector<std::int32_t>{2, 4}));
  EXPECT_EQ(changed.count(), 3);
  EXPECT_FALSE(model.setData(model.index(0), "x", Qt::DisplayRole));
  // solve(): 6 s on rank 0, 12 s on rank 1 (analysis::imbalance of the wall total).
  EXPECT_EQ(model.index(1).data(Qt::ToolTipRole).toString(),
            "solve()\nwall time max/mean 1.33 over 2 ranks, most on rank 1");
  EXPECT_EQ(model.index(1).data().toString(), "solve()");
  EXPECT_TRUE(model.flags(model.index(0)) & Qt::ItemIsUserCheckable);
}

TEST(ExperimentData, RelativeBoxesDivideEachProbeByItsMedian) {
  gui::BoxPlotData boxes;
  boxes.title = "COALESCE: total per run, 3 runs";
  boxes.y_title = "total";
  boxes.seconds = true;
  boxes.categories = {"big", "small", "none"};
  boxes.keys = {1, 2, 3};
  edf::Box big{};
  big.min = 90, big.q1 = 95, big.median = 100, big.q3 = 105, big.max = 110;
  big.lower_whisker = 90, big.upper_whisker = 110;
  edf::Box small = big;
  for (double *v : {&small.min, &small.q1, &small.median, &small.q3, &small.max,
                    &small.lower_whisker, &small.upper_whisker})
    *v /= 1000;
  edf::Box none{};
  boxes.boxes = {big, small, none};
  boxes.outliers = {{150}, {}, {}};
  EXPECT_TRUE(gui::medians_far_apart(boxes)) << "100 against 0.1";
  EXPECT_FALSE(gui::medians_far_apart(boxes, 2000));
  const gui::BoxPlotData r = gui::relative_boxes(boxes);
  EXPECT_DOUBLE_EQ(r.boxes[0].median, 1.0);
  EXPECT_DOUBLE_EQ(r.boxes[0].q1, 0.95);
  EXPECT_DOUBLE_EQ(r.boxes[1].q3, 1.05);
  EXPECT_DOUBLE_EQ(r.outliers[0][0], 1.5);
  EXPECT_DOUBLE_EQ(r.boxes[2].median, 0.0) << "a median of 0 stays";
  EXPECT_FALSE(r.seconds);
  EXPECT_EQ(r.y_title, "total \u00f7 median");
  boxes.boxes.resize(1);
  EXPECT_FALSE(gui::medians_far_apart(boxes));
}
