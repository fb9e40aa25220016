// COALESCE and COMPARE against numbers worked out by hand: runs built in memory (one
// activation per probe and rank, so each value is the number given), then the same
// experiment end to end through a real SQLite database.
#include "edf_support.hpp"
#include "files.hpp"
#include "idb/edf_analysis.hpp"
#include "idb/histogram.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace idb::edf {
namespace {

// A run where probe 7 took `per_rank[r]` seconds on rank r (one activation each).
RunData run_of(const std::string &label, const std::vector<double> &per_rank) {
  RunData d;
  d.run.label = label;
  d.names[7] = "solve [s.c:7]";
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    ProbeRank p;
    p.probe = 7;
    p.rank = std::int32_t(r);
    idb_stats_clear(&p.stats);
    idb_stats_add(&p.stats, per_rank[r]);
    p.corrected = per_rank[r];
    d.probes.push_back(p);
    d.ranks.push_back(std::int32_t(r));
  }
  return d;
}

std::vector<EntryData> five_runs() {
  // Rank 0: 1 2 3 4 100; rank 1: 2 2 2 2 2.
  return {{"a-*",
           "",
           {run_of("a1", {4, 2}), run_of("a2", {100, 2}), run_of("a3", {2, 2}),
            run_of("a4", {1, 2}), run_of("a5", {3, 2})}}};
}

TEST(EdfCoalesce, OneRankByHand) {
  AnalysisOptions o;
  o.rank = {false, 0};
  CoalesceResult r = coalesce(five_runs(), o);
  EXPECT_EQ(r.runs, (std::vector<std::string>{"a1", "a2", "a3", "a4", "a5"}));
  ASSERT_EQ(r.rows.size(), 1u);
  const CoalesceRow &row = r.rows[0];
  EXPECT_EQ(row.probe, 7);
  EXPECT_EQ(row.rank, 0);
  EXPECT_EQ(row.name, "solve [s.c:7]");
  EXPECT_EQ(row.values, (std::vector<double>{4, 100, 2, 1, 3}));
  EXPECT_DOUBLE_EQ(row.box.median, 3);
  EXPECT_DOUBLE_EQ(row.box.upper_whisker, 4);
  ASSERT_EQ(row.outliers.size(), 1u);
  EXPECT_EQ(row.outliers[0].run, "a2");
  EXPECT_DOUBLE_EQ(row.outliers[0].value, 100);
  // mean 22; squared deviations 441 + 400 + 361 + 324 + 6084 = 7610, over 4.
  EXPECT_DOUBLE_EQ(row.mean, 22);
  EXPECT_DOUBLE_EQ(row.sdev, std::sqrt(1902.5));
  ASSERT_TRUE(row.cv);
  EXPECT_DOUBLE_EQ(*row.cv, std::sqrt(1902.5) / 22);
  // Pooled: the five activations as one record.
  EXPECT_EQ(row.pooled.count, 5u);
  EXPECT_DOUBLE_EQ(row.pooled.total, 110);
  EXPECT_DOUBLE_EQ(row.pooled.mean, 22);
  EXPECT_NEAR(row.pooled.sdev, std::sqrt(1902.5), 1e-12);
  EXPECT_DOUBLE_EQ(row.pooled.min, 1);
  EXPECT_DOUBLE_EQ(row.pooled.max, 100);
}

TEST(EdfCoalesce, AllRanksMergedOrEach) {
  AnalysisOptions o; // all ranks merged: per run 6 102 4 3 5
  CoalesceResult r = coalesce(five_runs(), o);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].rank, kAllRanks);
  EXPECT_EQ(r.rows[0].values, (std::vector<double>{6, 102, 4, 3, 5}));
  EXPECT_DOUBLE_EQ(r.rows[0].box.q1, 4);
  EXPECT_EQ(r.rows[0].pooled.count, 10u);
  o.each_rank = true;
  r = coalesce(five_runs(), o);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[1].rank, 1);
  EXPECT_DOUBLE_EQ(r.rows[1].sdev, 0);
  EXPECT_DOUBLE_EQ(*r.rows[1].cv, 0);
  EXPECT_TRUE(r.rows[1].outliers.empty());
  // A rank no run has gives no row; the count value counts activations.
  o.rank = {false, 5};
  EXPECT_TRUE(coalesce(five_runs(), o).rows.empty());
  o.rank = {};
  o.each_rank = false;
  o.value = Metric::count;
  EXPECT_EQ(coalesce(five_runs(), o).rows.at(0).values, (std::vector<double>(5, 2.0)));
}

TEST(EdfCoalesce, ProbeFilter) {
  AnalysisOptions o;
  o.probe = "7";
  EXPECT_EQ(coalesce(five_runs(), o).rows.size(), 1u);
  o.probe = "solve";
  EXPECT_EQ(coalesce(five_runs(), o).rows.size(), 1u);
  o.probe = "8";
  EXPECT_TRUE(coalesce(five_runs(), o).rows.empty());
  o.probe = "nothing";
  EXPECT_TRUE(coalesce(five_runs(), o).rows.empty());
}

TEST(EdfCoalesce, ProbeFilterTakesTenDigitAndNegativeIds) {
  for (std::int32_t id : {1236937567, -1046}) {
    std::vector<EntryData> e = five_runs();
    for (RunData &r : e[0].runs) {
      r.names = {{id, "MPI_Send"}};
      for (ProbeRank &p : r.probes)
        p.probe = id;
    }
    AnalysisOptions o;
    o.probe = std::to_string(id);
    EXPECT_EQ(coalesce(e, o).rows.size(), 1u) << id;
    o.probe = std::to_string(id) + "0"; // out of range: a description, and none has it
    EXPECT_TRUE(coalesce(e, o).rows.empty()) << id;
  }
}

TEST(EdfCompare, GroupsAndSingleRuns) {
  // Rank 0: base {1, 2, 3}, fast {4, 5, 6, 7} (Welch: p ≈ 0.01), one {2}.
  std::vector<EntryData> e{
      {"base-*", "", {run_of("b1", {1, 9}), run_of("b2", {2, 9}), run_of("b3", {3, 9})}},
      {"fast-*",
       "",
       {run_of("f1", {4, 9}), run_of("f2", {5, 9}), run_of("f3", {6, 9}), run_of("f4", {7, 9})}},
      {"one", "", {run_of("o1", {2, 0})}}};
  AnalysisOptions o;
  CompareResult r = compare(e, o);
  EXPECT_EQ(r.entries, (std::vector<std::string>{"base-*", "fast-*", "one"}));
  ASSERT_EQ(r.rows.size(), 2u); // ranks 0 and 1
  const CompareRow &row = r.rows[0];
  EXPECT_EQ(row.rank, 0);
  ASSERT_EQ(row.cells.size(), 3u);
  EXPECT_EQ(row.cells[0].runs, 3u);
  EXPECT_DOUBLE_EQ(*row.cells[0].value, 2);
  EXPECT_DOUBLE_EQ(row.cells[0].sdev, 1);
  EXPECT_DOUBLE_EQ(*row.cells[0].diff, 0);
  EXPECT_DOUBLE_EQ(*row.cells[0].ratio, 1);
  EXPECT_FALSE(row.cells[0].test);
  EXPECT_EQ(row.cells[1].run_labels, (std::vector<std::string>{"f1", "f2", "f3", "f4"}));
  EXPECT_EQ(row.cells[1].run_values, (std::vector<double>{4, 5, 6, 7}));
  EXPECT_DOUBLE_EQ(*row.cells[1].value, 5.5);
  EXPECT_DOUBLE_EQ(*row.cells[1].diff, 3.5);
  EXPECT_DOUBLE_EQ(*row.cells[1].ratio, 2.75);
  ASSERT_TRUE(row.cells[1].test);
  EXPECT_NEAR(row.cells[1].test->t, 3.5 / std::sqrt(0.75), 1e-12);
  EXPECT_TRUE(row.cells[1].significant);
  // A single run: difference and ratio, no test.
  EXPECT_DOUBLE_EQ(*row.cells[2].diff, 0);
  EXPECT_FALSE(row.cells[2].test);
  EXPECT_FALSE(row.cells[2].significant);
  // Rank 1: the groups are constant and equal (p = 1); "one" took 0 s there.
  const CompareRow &r1 = r.rows[1];
  EXPECT_FALSE(r1.cells[1].significant);
  EXPECT_DOUBLE_EQ(r1.cells[1].test->p, 1);
  EXPECT_DOUBLE_EQ(*r1.cells[2].ratio, 0);
  // A stricter level can turn the verdict.
  o.alpha = 0.005;
  EXPECT_FALSE(compare(e, o).rows[0].cells[1].significant);
}

TEST(EdfCompare, ZeroBaseAndMissingRank) {
  std::vector<EntryData> e{{"zero", "", {run_of("z", {0})}}, {"two", "", {run_of("t", {3, 4})}}};
  AnalysisOptions o;
  CompareResult r = compare(e, o);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(*r.rows[0].cells[1].diff, 3);
  EXPECT_FALSE(r.rows[0].cells[1].ratio); // no ratio to 0
  // Rank 1 exists only in "two": the first entry has no value there.
  EXPECT_EQ(r.rows[1].cells[0].runs, 0u);
  EXPECT_FALSE(r.rows[1].cells[0].value);
  EXPECT_FALSE(r.rows[1].cells[1].diff);
  EXPECT_DOUBLE_EQ(*r.rows[1].cells[1].value, 4);
}

// A run where probe 7 on rank 0 took 1 µs, `ns` and 1 ms, with their histogram: its p50
// is the estimate of the bucket holding `ns`.
RunData quantile_run(const std::string &label, std::uint64_t ns) {
  RunData d;
  d.run.label = label;
  ProbeRank &p = d.probes.emplace_back();
  p.probe = 7;
  idb_stats_clear(&p.stats);
  for (std::uint64_t x : {std::uint64_t(1000), ns, std::uint64_t(1000000)})
    idb_stats_add(&p.stats, double(x) * 1e-9);
  p.hist = profile::histogram_of({1000, ns, 1000000});
  d.ranks = {0};
  return d;
}

// Quantiles come in bucket steps (1/16 of an octave): groups whose p50 lies one bucket
// apart (100,000–100,500 ns in [98,304, 102,400), 103,000–103,500 in the next) are not
// marked different, though with six runs each the test's p is below 0.05 even with the
// rounding variance; groups several buckets apart are.
TEST(EdfCompare, QuantilesOneBucketApartAreNotADifference) {
  auto group = [](const std::string &name, std::uint64_t from) {
    EntryData e{name, "", {}};
    for (std::uint64_t i = 0; i < 6; ++i)
      e.runs.push_back(quantile_run(name + std::to_string(i), from + 100 * i));
    return e;
  };
  AnalysisOptions o;
  o.value = Metric::p50;
  CompareResult near = compare({group("a", 100000), group("b", 103000)}, o);
  ASSERT_EQ(near.rows.size(), 1u);
  const CompareCell &b = near.rows[0].cells[1];
  EXPECT_EQ(b.runs, 6u);
  EXPECT_EQ(near.rows[0].cells[0].sdev, 0.0); // one bucket: the same value in every run
  ASSERT_TRUE(b.test);
  EXPECT_GT(*b.diff, 0.0);
  EXPECT_LT(b.test->p, 0.05);
  EXPECT_FALSE(b.significant);
  CompareResult far = compare({group("a", 100000), group("c", 120000)}, o);
  ASSERT_TRUE(far.rows[0].cells[1].test);
  EXPECT_TRUE(far.rows[0].cells[1].significant);
  EXPECT_LT(far.rows[0].cells[1].test->p, 0.05);
}

TEST(EdfAnalysis, EndToEndThroughSqlite) {
  test::TempDir dir;
  std::string db = dir.file("exp.db");
  test::load_as(db, test::simple_run(1.0, 2), "r-1");
  test::load_as(db, test::simple_run(1.2, 2), "r-2");
  test::load_as(db, test::simple_run(1.4, 2), "r-3");
  ParseResult p =
      parse("[PREAMBLE]\nMode COALESCE\nDatabase exp.db\n[DBLIST]\nr-*\n", dir.file("e.edf"));
  ASSERT_TRUE(p.document) << p.error;
  Connections c;
  std::vector<std::pair<std::size_t, std::size_t>> seen;
  std::vector<EntryData> data = read_entries(
      resolve(p.experiment,
              {experiment_database(p.experiment, dir.file("e.edf"), ""), dir.path(), "e"}, c),
      [&](std::size_t done, std::size_t total) { seen.emplace_back(done, total); });
  EXPECT_EQ(seen, (std::vector<std::pair<std::size_t, std::size_t>>{{1, 3}, {2, 3}, {3, 3}}));
  AnalysisOptions o;
  o.probe = "1";
  CoalesceResult r = coalesce(data, o);
  ASSERT_EQ(r.rows.size(), 1u);
  // Probe 1 took the run's value on each of 2 ranks: 2.0, 2.4, 2.8.
  EXPECT_NEAR(r.rows[0].box.median, 2.4, 1e-12);
  EXPECT_NEAR(r.rows[0].mean, 2.4, 1e-12);
  EXPECT_NEAR(r.rows[0].sdev, 0.4, 1e-12);
  EXPECT_EQ(r.rows[0].name, "probe 1");
  EXPECT_EQ(r.rows[0].pooled.count, 6u);
}

} // namespace
} // namespace idb::edf
