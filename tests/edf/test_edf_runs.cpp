// [DBLIST] resolution against real SQLite files (labels, label patterns, database files,
// and every way an entry can fail, each error naming the entry's place), and the values
// read per probe and rank, against numbers worked out by hand from the samples.
#include "edf_support.hpp"
#include "files.hpp"
#include "idb/analysis/histogram.hpp"
#include "idb/edf_runs.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace idb::edf {
namespace {

using test::CfhSpec;
using test::NodeSpec;

class EdfRuns : public ::testing::Test {
protected:
  test::TempDir dir;
  std::string db = dir.file("exp.db");
  Connections connections;

  void SetUp() override {
    test::load_as(db, test::simple_run(1.0), "base-1");
    test::load_as(db, test::simple_run(1.1), "base-2");
    test::load_as(db, test::simple_run(2.0), "opt-1");
    test::load_as(dir.file("single.db"), test::simple_run(3.0), "alone");
  }

  std::vector<ResolvedEntry> resolve_text(const std::string &dblist, std::string database = "") {
    ParseResult p = parse("[PREAMBLE]\nMode COMPARE\n[DBLIST]\n" + dblist, dir.file("e.edf"));
    if (!p.document) throw Error(p.error);
    if (database.empty()) database = experiment_database(p.experiment, dir.file("e.edf"), "");
    return resolve(p.experiment, {database, dir.path(), dir.file("e.edf")}, connections);
  }

  std::string error_of(const std::string &dblist, const std::string &database) {
    try {
      resolve_text(dblist, database);
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(EdfRuns, ClassifiesNames) {
  EXPECT_EQ(classify("run1"), EntryKind::label);
  EXPECT_EQ(classify("nemo-2026-11-22T05:01:02Z-42"), EntryKind::label);
  EXPECT_EQ(classify("run-*"), EntryKind::pattern);
  EXPECT_EQ(classify("run-[12]"), EntryKind::pattern);
  EXPECT_EQ(classify("r?"), EntryKind::pattern);
  EXPECT_EQ(classify("a.db"), EntryKind::database);
  EXPECT_EQ(classify("data/a"), EntryKind::database);
  EXPECT_EQ(classify("x.sqlite3"), EntryKind::database);
  EXPECT_EQ(classify("sqlite:a"), EntryKind::database);
  EXPECT_EQ(classify("postgresql://u@h/d"), EntryKind::database);
}

TEST_F(EdfRuns, LabelsPatternsAndFiles) {
  std::vector<ResolvedEntry> r =
      resolve_text("base-*  the baseline\nopt-1\nsingle.db  a file\n", db);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].kind, EntryKind::pattern);
  ASSERT_EQ(r[0].runs.size(), 2u);
  EXPECT_EQ(r[0].runs[0].label, "base-1");
  EXPECT_EQ(r[0].runs[1].label, "base-2");
  EXPECT_EQ(r[1].kind, EntryKind::label);
  ASSERT_EQ(r[1].runs.size(), 1u);
  EXPECT_EQ(r[1].runs[0].label, "opt-1");
  EXPECT_EQ(r[2].kind, EntryKind::database);
  ASSERT_EQ(r[2].runs.size(), 1u);
  EXPECT_EQ(r[2].runs[0].label, "alone");
  EXPECT_EQ(r[2].runs[0].location, dir.file("single.db"));
}

TEST_F(EdfRuns, DatabaseFromTheFileIsRelativeToIt) {
  ParseResult p = parse("[PREAMBLE]\nMode COMPARE\nDatabase exp.db\n[DBLIST]\nopt-1\n", "x");
  ASSERT_TRUE(p.document) << p.error;
  EXPECT_EQ(experiment_database(p.experiment, dir.file("e.edf"), ""), dir.file("exp.db"));
  EXPECT_EQ(experiment_database(p.experiment, dir.file("e.edf"), "other.db"), "other.db");
  EXPECT_EQ(experiment_database(p.experiment, "e.edf", ""), "exp.db");
}

TEST_F(EdfRuns, EveryFailureNamesTheEntry) {
  std::string at = dir.file("e.edf") + ":5:1: [DBLIST] entry ";
  EXPECT_EQ(error_of("opt-1\nnope  missing\n", db), at + "'nope': no run labelled so in " + db);
  EXPECT_EQ(error_of("opt-1\nbase-9*\n", db), at + "'base-9*': no run label matches it in " + db);
  EXPECT_EQ(error_of("opt-1\nexp.db\n", db),
            at + "'exp.db': holds 3 runs; a database in [DBLIST] must hold exactly one (list the "
                 "runs by label with Database naming it)");
  EXPECT_EQ(error_of("opt-1\nbase-*\nbase-1\n", db),
            dir.file("e.edf") +
                ":6:1: [DBLIST] entry 'base-1': run 'base-1' is named by 'base-*' too");
  EXPECT_NE(error_of("opt-1\nnone.db\n", db).find(at + "'none.db': "), std::string::npos);
  EXPECT_EQ(error_of("opt-1\n", ""),
            dir.file("e.edf") +
                ":4:1: [DBLIST] entry 'opt-1': a run label, but the experiment names no database "
                "(Database in [PREAMBLE], or --db)");
  EXPECT_EQ(error_of("", db), dir.file("e.edf") + ": [DBLIST] names no runs");
  // A password in a URL entry is never echoed (nothing listens on port 1).
  std::string e = error_of("postgresql://ann:s3cret@127.0.0.1:1/d\n", db);
  EXPECT_EQ(e.find("s3cret"), std::string::npos) << e;
  EXPECT_NE(e.find("entry 'postgresql://ann:***@127.0.0.1:1/d'"), std::string::npos) << e;
}

// Rank 0: probe 5 under probe 1 ({1, 3} s, noise 0.1, CPU {0.5, 1.5}) and under the root
// ({6} s, noise 0.2); rank 1: probe 5 under the root ({2, 4} s).
profile::Profile hand_run() {
  CfhSpec r0{0,
             {{-1, 0, {20}}, {0, 1, {5}, 0.05}, {1, 5, {1, 3}, 0.1, {0.5, 1.5}}, {0, 5, {6}, 0.2}}};
  CfhSpec r1{1, {{-1, 0, {10}}, {0, 5, {2, 4}}}};
  return test::make_profile({r0, r1});
}

const ProbeRank *find(const RunData &d, std::int32_t probe, std::int32_t rank) {
  for (const ProbeRank &p : d.probes)
    if (p.probe == probe && p.rank == rank) return &p;
  return nullptr;
}

TEST_F(EdfRuns, ValuesPerProbeAndRank) {
  test::load_as(db, hand_run(), "hand");
  std::vector<ResolvedEntry> r = resolve_text("hand\n", db);
  RunData d = read_run_data(r.at(0).runs.at(0));
  EXPECT_EQ(d.ranks, (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(d.names.at(5), "probe 5");
  const ProbeRank *p = find(d, 5, 0);
  ASSERT_TRUE(p);
  // {1, 3, 6}: mean 10/3, M2 = 12.666..., sample variance 6.333...
  EXPECT_DOUBLE_EQ(analysis::value(*p, Metric::total), 10.0);
  EXPECT_DOUBLE_EQ(analysis::value(*p, Metric::count), 3.0);
  EXPECT_DOUBLE_EQ(analysis::value(*p, Metric::range), 5.0);
  EXPECT_NEAR(analysis::value(*p, Metric::sdev), std::sqrt(19.0 / 3.0), 1e-12);
  EXPECT_DOUBLE_EQ(analysis::value(*p, Metric::cpu), 2.0);
  EXPECT_NEAR(analysis::value(*p, Metric::noise), 0.3, 1e-15);
  EXPECT_DOUBLE_EQ(analysis::value(*p, Metric::corrected), 10.0); // leaves: nothing below them
  // Probe 1 holds node 2 (noise 0.1) below it; the root holds all three noises.
  EXPECT_NEAR(analysis::value(*find(d, 1, 0), Metric::corrected), 4.9, 1e-12);
  EXPECT_NEAR(analysis::value(*find(d, 0, 0), Metric::corrected), 19.65, 1e-12);
  // Both ranks merged: {1, 3, 6, 2, 4}: mean 3.2, sample variance 3.7.
  ProbeRank all = *p;
  all.merge(*find(d, 5, 1));
  EXPECT_DOUBLE_EQ(analysis::value(all, Metric::total), 16.0);
  EXPECT_NEAR(analysis::value(all, Metric::sdev), std::sqrt(3.7), 1e-12);
  EXPECT_DOUBLE_EQ(analysis::value(all, Metric::range), 5.0);
}

// The quantile values come from the nodes' histograms read back from the database and
// merged: within the bucket's error of the exact order statistic, inside the record's min
// and max; a record with one node short of a histogram has none (NaN), not a guess.
TEST_F(EdfRuns, QuantilesFromTheStoredHistograms) {
  CfhSpec r0{0, {{-1, 0, {20}}, {0, 1, {5}}, {1, 5, {1, 3}}, {0, 5, {6}}}};
  CfhSpec r1{1, {{-1, 0, {10}}, {0, 5, {2, 4}}}};
  test::load_as(db, test::make_profile({r0, r1}, true), "hist");
  profile::Profile partial = test::make_profile({r0, r1}, true);
  partial.cfhs[0].nodes[3].hist = {}; // rank 0's second node of probe 5
  test::load_as(db, partial, "partial");
  test::load_as(db, test::make_profile({r0, r1}), "none");
  std::vector<ResolvedEntry> r = resolve_text("hist\npartial\nnone\n", db);
  RunData hist = read_run_data(r.at(0).runs.at(0));
  RunData part = read_run_data(r.at(1).runs.at(0));
  RunData none = read_run_data(r.at(2).runs.at(0));

  const ProbeRank *p = find(hist, 5, 0); // {1, 3, 6} s
  ASSERT_TRUE(p);
  EXPECT_EQ(analysis::histogram_count(p->hist), 3u);
  EXPECT_NEAR(analysis::value(*p, Metric::p50), 3.0, 3.0 / 33);
  double p99 = analysis::value(*p, Metric::p99);
  EXPECT_NEAR(p99, 6.0, 6.0 / 33);
  EXPECT_LE(p99, 6.0);
  ProbeRank all = *p; // with rank 1's {2, 4}: {1, 2, 3, 4, 6}
  all.merge(*find(hist, 5, 1));
  EXPECT_NEAR(analysis::value(all, Metric::p50), 3.0, 3.0 / 33);
  EXPECT_NEAR(analysis::value(all, Metric::p90), 6.0, 6.0 / 33);
  // One activation: every quantile is it, exactly (the estimate is held within min, max).
  EXPECT_DOUBLE_EQ(analysis::value(*find(hist, 1, 0), Metric::p90), 5.0);

  EXPECT_TRUE(std::isnan(analysis::value(*find(part, 5, 0), Metric::p50)));
  EXPECT_NEAR(analysis::value(*find(part, 5, 1), Metric::p50), 2.0, 2.0 / 33);
  EXPECT_TRUE(std::isnan(analysis::value(*find(none, 5, 1), Metric::p99)));
  EXPECT_DOUBLE_EQ(analysis::value(*find(none, 5, 1), Metric::total), 6.0);
  ProbeRank mixed = *find(hist, 5, 1);
  mixed.merge(*find(none, 5, 1));
  EXPECT_TRUE(std::isnan(analysis::value(mixed, Metric::p50)));
}

} // namespace
} // namespace idb::edf
