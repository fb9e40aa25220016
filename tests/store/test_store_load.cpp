// store::load on the generator's real profile: every table's rows checked against the
// Profile structs (the run's metadata, attributes from the environment and from the load
// options, probes, CFH instances, nodes with their depth, statistics to the last bit), the
// tree rebuilt from the parent links, the default label, progress, and store::runs.
#include "store_support.hpp"
#include "synthetic.hpp"

#include "idb/probe.h"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace idb::test {
namespace {

class StoreLoad : public ::testing::Test {
protected:
  void SetUp() override {
    db = store::open(dir.file("idb.db"));
    store::LoadOptions options;
    options.label = "gen";
    options.attributes = {{"mesh", "128x128"}, {"input", "smoke.nml"}};
    result = store::load(*db, generated(), options);
  }

  TempDir dir;
  std::unique_ptr<store::Database> db;
  store::LoadResult result;
};

TEST_F(StoreLoad, ReportsWhatItStored) {
  EXPECT_EQ("gen", result.label);
  EXPECT_EQ(generated().cfhs.size(), result.cfhs);
  std::size_t nodes = 0;
  for (const profile::Cfh &h : generated().cfhs)
    nodes += h.nodes.size();
  EXPECT_EQ(nodes, result.nodes);
  EXPECT_EQ(std::to_string(nodes), scalar(*db, "SELECT count(*) FROM node_stats"));
}

TEST_F(StoreLoad, RunRowHoldsTheMetadata) {
  const profile::Profile &p = generated();
  store::QueryResult r = store::query(
      *db,
      "SELECT label, program, command_line, start_time, end_time, wall_seconds, nprocs, "
      "threads, host, os, arch, idb_version, timer, timer_hz, noise_per_activation, "
      "cpu_policy, profile_mode, loaded_at, compiler FROM runs WHERE run_id = :id",
      {{"id", std::to_string(result.run_id)}});
  ASSERT_EQ(1u, r.rows.size());
  const auto &row = r.rows[0];
  EXPECT_EQ("gen", row[0]);
  EXPECT_EQ(p.get("program"), row[1]);
  EXPECT_EQ(std::string(IDB_TEST_GENERATOR) + " alpha 'two words' '' last ''", row[2]);
  EXPECT_EQ(p.number("start_unix"), as_double(row[3]));
  EXPECT_EQ(p.number("end_unix"), as_double(row[4]));
  EXPECT_EQ(p.number("end_unix") - p.number("start_unix"), as_double(row[5]));
  EXPECT_EQ("1", row[6]);
  EXPECT_EQ(p.get("threads"), row[7]);
  EXPECT_EQ(p.get("host"), row[8]);
  EXPECT_EQ(p.get("os"), row[9]);
  EXPECT_EQ(p.get("arch"), row[10]);
  EXPECT_EQ(p.get("idb_version"), row[11]);
  EXPECT_EQ(p.get("timer"), row[12]);
  EXPECT_EQ(p.number("timer_hz"), as_double(row[13]));
  EXPECT_EQ(p.number("noise_per_activation_s"), as_double(row[14]));
  EXPECT_EQ(p.get("cpu_policy"), row[15]);
  EXPECT_EQ("full", row[16]);
  EXPECT_TRUE(std::regex_match(*row[17], std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << *row[17];
  EXPECT_FALSE(row[18]) << "the profile names no compiler";
}

TEST_F(StoreLoad, AttributesComeFromTheEnvironmentAndTheOptionsWinOnConflict) {
  store::QueryResult r =
      store::query(*db, "SELECT key, value FROM run_attributes ORDER BY key", {});
  std::string text;
  for (const auto &row : r.rows)
    text += *row[0] + "=" + *row[1] + "\n";
  // kGeneratorEnv sets IDB_ATTR_case=roundtrip and IDB_ATTR_mesh=64x64.
  EXPECT_EQ("case=roundtrip\ninput=smoke.nml\nmesh=128x128\n", text);
  EXPECT_EQ(generated().get("pid"), scalar(*db, "SELECT value FROM run_meta WHERE key = 'pid'"));
  EXPECT_EQ("0", scalar(*db, "SELECT count(*) FROM run_meta WHERE key = 'argv' "
                             "OR key LIKE 'attr.%'"));
}

TEST_F(StoreLoad, ProbeSitesMatchTheProbeTable) {
  const char *kinds[] = {"", "PROC", "LOOP", "CALL", "COMM"};
  store::QueryResult r =
      store::query(*db,
                   "SELECT probe_id, kind, description, file, line, function FROM probe_sites "
                   "ORDER BY probe_id",
                   {});
  const auto &probes = generated().probes;
  ASSERT_EQ(probes.size(), r.rows.size());
  std::map<std::string, std::vector<store::Cell>> by_id;
  for (const auto &row : r.rows)
    by_id[*row[0]] = row;
  for (const profile::Probe &probe : probes) {
    const auto &row = by_id[std::to_string(probe.id)];
    ASSERT_FALSE(row.empty()) << probe.id;
    EXPECT_EQ(kinds[probe.kind], row[1]);
    EXPECT_EQ(probe.description, row[2]);
    EXPECT_EQ(probe.file.empty() ? store::Cell() : probe.file, row[3]) << probe.id;
    EXPECT_EQ(probe.file.empty() ? store::Cell() : std::to_string(probe.line), row[4]);
    EXPECT_EQ(probe.function.empty() ? store::Cell() : probe.function, row[5]);
  }
  EXPECT_EQ("compute", scalar(*db, "SELECT description FROM probe_sites WHERE probe_id = 10"));
}

TEST_F(StoreLoad, CfhInstancesMatchInOrder) {
  store::QueryResult r = store::query(
      *db,
      "SELECT rank, thread, name, named, overflow, mismatches, unclosed, depth_overflow "
      "FROM cfh_instances ORDER BY cfh_id",
      {});
  const auto &cfhs = generated().cfhs;
  ASSERT_EQ(cfhs.size(), r.rows.size());
  for (std::size_t i = 0; i < cfhs.size(); ++i) {
    const profile::Cfh &h = cfhs[i];
    std::vector<store::Cell> expected = {
        std::to_string(h.rank),       std::to_string(h.thread),        h.name,
        std::to_string(int(h.named)), std::to_string(h.overflow),      std::to_string(h.mismatches),
        std::to_string(h.unclosed),   std::to_string(h.depth_overflow)};
    EXPECT_EQ(expected, r.rows[i]) << "CFH " << i;
  }
  EXPECT_EQ("1", scalar(*db, "SELECT mismatches FROM cfh_instances WHERE name = 'solver[0]'"));
}

// Depth by walking up the parent links of the Profile, independently of the loader.
int depth_of(const profile::Cfh &h, std::size_t i) {
  int depth = 0;
  for (std::uint32_t at = h.nodes[i].parent; at != profile::kNoParent; at = h.nodes[at].parent)
    ++depth;
  return depth;
}

void expect_stats(const idb_stats_t &s, const std::vector<store::Cell> &row, std::size_t at) {
  EXPECT_EQ(std::to_string(s.count), row[at]);
  const double reals[] = {s.sum, s.min, s.max, s.mean, s.m2};
  for (std::size_t k = 0; k < 5; ++k)
    EXPECT_EQ(reals[k], as_double(row[at + 1 + k])) << "stat " << k;
  EXPECT_EQ(std::to_string(s.cpu_count), row[at + 6]);
  EXPECT_EQ(s.cpu_sum, as_double(row[at + 7]));
  EXPECT_EQ(s.cpu_min, as_double(row[at + 8]));
  EXPECT_EQ(s.cpu_max, as_double(row[at + 9]));
  EXPECT_EQ(s.noise, as_double(row[at + 10]));
  EXPECT_EQ(std::to_string(s.bytes_sent), row[at + 11]);
  EXPECT_EQ(std::to_string(s.bytes_recv), row[at + 12]);
}

TEST_F(StoreLoad, NodesAndStatisticsMatchToTheLastBit) {
  const auto &cfhs = generated().cfhs;
  store::QueryResult r = store::query(
      *db,
      "SELECT h.cfh_id, n.node, n.parent, n.probe_id, n.depth, s.count, s.total, s.min, "
      "s.max, s.mean, s.m2, s.cpu_count, s.cpu_total, s.cpu_min, s.cpu_max, s.noise, "
      "s.bytes_sent, s.bytes_recv FROM cfh_instances h JOIN nodes n USING (cfh_id) "
      "JOIN node_stats s USING (cfh_id, node) ORDER BY h.cfh_id, n.node",
      {});
  std::size_t row = 0;
  for (const profile::Cfh &h : cfhs) {
    for (std::size_t i = 0; i < h.nodes.size(); ++i, ++row) {
      ASSERT_LT(row, r.rows.size());
      const auto &cells = r.rows[row];
      const profile::Node &n = h.nodes[i];
      EXPECT_EQ(std::to_string(i), cells[1]);
      EXPECT_EQ(n.parent == profile::kNoParent ? store::Cell() : std::to_string(n.parent),
                cells[2]);
      EXPECT_EQ(std::to_string(n.probe), cells[3]);
      EXPECT_EQ(std::to_string(depth_of(h, i)), cells[4]);
      expect_stats(n.stats, cells, 5);
    }
  }
  EXPECT_EQ(row, r.rows.size());
}

TEST_F(StoreLoad, TreeRebuiltFromParentLinksPrintsAsTheProfile) {
  const profile::Profile &p = generated();
  for (std::size_t c = 0; c < p.cfhs.size(); ++c) {
    store::QueryResult r =
        store::query(*db,
                     "SELECT n.parent, n.probe_id, s.count FROM nodes n JOIN node_stats s "
                     "USING (cfh_id, node) WHERE n.cfh_id = (SELECT cfh_id FROM cfh_instances "
                     "ORDER BY cfh_id LIMIT 1 OFFSET :c) ORDER BY n.node",
                     {{"c", std::to_string(c)}});
    profile::Cfh rebuilt;
    for (const auto &row : r.rows) {
      profile::Node &n = rebuilt.nodes.emplace_back();
      n.parent = row[0] ? std::uint32_t(std::stoul(*row[0])) : profile::kNoParent;
      n.probe = std::stoi(*row[1]);
      n.stats.count = std::stoull(*row[2]);
    }
    EXPECT_EQ(profile::paths_text(p, p.cfhs[c]), profile::paths_text(p, rebuilt)) << "CFH " << c;
  }
}

TEST_F(StoreLoad, RunsListsTheRun) {
  std::vector<store::RunInfo> list = store::runs(*db);
  ASSERT_EQ(1u, list.size());
  EXPECT_EQ("gen", list[0].label);
  EXPECT_EQ(generated().get("program"), list[0].program);
  EXPECT_EQ(1, list[0].nprocs);
  EXPECT_EQ(3, list[0].attributes);
  EXPECT_EQ(std::int64_t(result.nodes), list[0].nodes);
  ASSERT_TRUE(list[0].start_time);
  EXPECT_EQ(generated().number("start_unix"), *list[0].start_time);
}

TEST(StoreLoadLabel, DefaultIsProgramStartAndPid) {
  const profile::Profile &p = generated();
  std::string label = store::default_label(p);
  EXPECT_EQ(p.get("program") + "-" + store::iso_utc(p.number("start_unix")) + "-" + p.get("pid"),
            label);
  TempDir dir;
  auto db = store::open(dir.file("idb.db"));
  EXPECT_EQ(label, store::load(*db, p).label);
  EXPECT_EQ("2026-11-22T05:01:02Z", store::iso_utc(1795323662.9));
}

TEST(StoreLoadLabel, QuotesAndSemicolonsAreStoredIntact) {
  TempDir dir;
  auto db = store::open(dir.file("idb.db"));
  const std::string label = "it's; DROP TABLE runs; --";
  store::LoadOptions options;
  options.label = label;
  options.attributes = {{"k'ey;", "va\"l'ue; DROP TABLE runs"}};
  store::load(*db, generated(), options);
  EXPECT_EQ(label, store::runs(*db).at(0).label);
  EXPECT_EQ("va\"l'ue; DROP TABLE runs",
            scalar(*db, "SELECT value FROM run_attributes WHERE key = :k", {{"k", "k'ey;"}}));
  EXPECT_EQ(label, scalar(*db, "SELECT label FROM runs WHERE label = :l", {{"l", label}}));
}

// A label no command line could name again, or that would break the tables listing it, is
// refused, and nothing is stored.
TEST(StoreLoadLabel, BadLabelsAreRefusedAndNothingIsStored) {
  TempDir dir;
  auto db = store::open(dir.file("idb.db"));
  for (const std::string &label : {std::string("-x"), std::string("two\nlines"),
                                   std::string("cr\rhere"), std::string(201, 'a')}) {
    store::LoadOptions options;
    options.label = label;
    try {
      store::load(*db, generated(), options);
      ADD_FAILURE() << "accepted '" << label << "'";
    } catch (const store::Error &e) {
      EXPECT_EQ(0u, std::string(e.what()).find("bad label '")) << e.what();
    }
  }
  EXPECT_TRUE(store::runs(*db).empty());
  EXPECT_EQ("", store::label_problem("smvp-4x4 (before); rank 0"));
  EXPECT_NE("", store::label_problem(""));
}

TEST(StoreLoadSummary, ASummaryRunReadsBackWithItsSpreadBitForBit) {
  TempDir dir;
  auto db = store::open(dir.file("idb.db"));
  profile::Profile p = synthetic_profile(1, 50);
  profile::Cfh &h = p.cfhs[0];
  h.rank = -1;
  h.summary = true;
  h.spread.resize(h.nodes.size());
  for (std::size_t i = 0; i < h.spread.size(); ++i) {
    profile::NodeSpread &n = h.spread[i];
    n.ranks = std::uint32_t(4 + i % 3);
    int k = 0;
    for (profile::RankSpread *q : {&n.total, &n.count, &n.cpu, &n.sent, &n.received}) {
      double base = double(i) + 0.1 * ++k;
      *q = {base, base * 3.5, base * 2.25, base / 7.0, int(i % 4), int((i + k) % 4)};
    }
  }
  store::LoadOptions options;
  options.label = "summary";
  store::load(*db, p, options);
  EXPECT_EQ("summary", scalar(*db, "SELECT profile_mode FROM runs"));
  ASSERT_EQ(1u, store::runs(*db).size());
  EXPECT_EQ("summary", store::runs(*db)[0].mode) << "idb runs says which mode a run has";
  profile::Profile back = store::read_run(*db, "summary");
  ASSERT_EQ(1u, back.cfhs.size());
  EXPECT_TRUE(back.cfhs[0].summary);
  EXPECT_EQ(-1, back.cfhs[0].rank);
  ASSERT_EQ(h.spread.size(), back.cfhs[0].spread.size());
  for (std::size_t i = 0; i < h.spread.size(); ++i) {
    const profile::NodeSpread &a = h.spread[i], &b = back.cfhs[0].spread[i];
    EXPECT_EQ(a.ranks, b.ranks) << i;
    const profile::RankSpread *qa[] = {&a.total, &a.count, &a.cpu, &a.sent, &a.received};
    const profile::RankSpread *qb[] = {&b.total, &b.count, &b.cpu, &b.sent, &b.received};
    for (int k = 0; k < 5; ++k) {
      EXPECT_EQ(qa[k]->min, qb[k]->min) << i << ' ' << k;
      EXPECT_EQ(qa[k]->max, qb[k]->max) << i << ' ' << k;
      EXPECT_EQ(qa[k]->mean, qb[k]->mean) << i << ' ' << k;
      EXPECT_EQ(qa[k]->m2, qb[k]->m2) << i << ' ' << k;
      EXPECT_EQ(qa[k]->rank_min, qb[k]->rank_min) << i << ' ' << k;
      EXPECT_EQ(qa[k]->rank_max, qb[k]->rank_max) << i << ' ' << k;
    }
  }
  h.spread.pop_back(); // a spread missing for one node is refused, and nothing is stored
  options.label = "broken";
  EXPECT_THROW(store::load(*db, p, options), store::Error);
  EXPECT_EQ("1", scalar(*db, "SELECT count(*) FROM runs"));
}

TEST(StoreLoadProgress, ReportsUpToTheTotal) {
  TempDir dir;
  auto db = store::open(dir.file("idb.db"));
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  store::LoadOptions options;
  options.progress = [&](std::size_t done, std::size_t total) { calls.emplace_back(done, total); };
  store::LoadResult r = store::load(*db, generated(), options);
  ASSERT_GE(calls.size(), 2u);
  EXPECT_EQ(std::make_pair(std::size_t(0), 2 * r.nodes), calls.front());
  EXPECT_EQ(std::make_pair(2 * r.nodes, 2 * r.nodes), calls.back());
}

} // namespace
} // namespace idb::test
