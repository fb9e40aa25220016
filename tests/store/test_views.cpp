// The classic relations (probes, lookup, connections, cfh), their SQL functions (sdev,
// minprobe, maxprobe, maxnoise) and the derived views (node_times, probe_imbalance,
// node_cpu_ratio), checked against values computed in C++ from the Profile structs: the
// generator's real profile for shape and the classic queries run verbatim, a synthetic
// multi-rank profile (one rank deliberately slow) for merges over many nodes and imbalance.
// The same source runs on SQLite and on PostgreSQL (test_database.hpp).
#include "store_support.hpp"
#include "synthetic.hpp"
#include "test_database.hpp"

#include "idb/stats.h"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace idb::test {
namespace {

// Relative closeness for sums whose order of addition SQL does not fix.
void expect_close(double expected, double actual, const std::string &what) {
  EXPECT_NEAR(expected, actual, 1e-12 * std::max(1.0, std::fabs(expected))) << what;
}

double sdev_of(const idb_stats_t &s) {
  return std::sqrt(idb_stats_variance(&s));
}

// Per (CFH index, probe): the probe's nodes in that CFH merged with idb_stats_merge.
std::map<std::pair<std::size_t, int>, idb_stats_t> merged(const profile::Profile &p) {
  std::map<std::pair<std::size_t, int>, idb_stats_t> m;
  for (std::size_t h = 0; h < p.cfhs.size(); ++h)
    for (const profile::Node &n : p.cfhs[h].nodes) {
      auto [it, fresh] = m.try_emplace({h, n.probe});
      if (fresh) idb_stats_clear(&it->second);
      idb_stats_merge(&it->second, &n.stats);
    }
  return m;
}

// Checks every row of `probes` against the hand merge; cfh_id is the CFH's index + 1 on a
// fresh database holding one run.
void expect_probes_match(store::Database &db, const profile::Profile &p) {
  auto expected = merged(p);
  store::QueryResult r = store::query(
      db, "SELECT cfh, lid, min, max, avg, sdev, count, noise, proc, cpu_acc, cpu_min, "
          "cpu_max, id, total FROM probes ORDER BY cfh, lid");
  ASSERT_EQ(expected.size(), r.rows.size());
  std::size_t row = 0;
  for (const auto &[key, s] : expected) {
    const auto &c = r.rows[row++];
    std::string what = "cfh " + std::to_string(key.first) + " probe " + std::to_string(key.second);
    ASSERT_EQ(std::to_string(key.first + 1), c[0]) << what;
    ASSERT_EQ(std::to_string(key.second), c[1]) << what;
    EXPECT_EQ(s.count ? s.min : 0.0, as_double(c[2])) << what;
    EXPECT_EQ(s.count ? s.max : 0.0, as_double(c[3])) << what;
    expect_close(s.count ? s.sum / double(s.count) : 0.0, as_double(c[4]), what + " avg");
    expect_close(sdev_of(s), as_double(c[5]), what + " sdev");
    EXPECT_EQ(std::to_string(s.count), c[6]) << what;
    expect_close(s.noise, as_double(c[7]), what + " noise");
    EXPECT_EQ(std::to_string(p.cfhs[key.first].rank), c[8]) << what;
    expect_close(s.cpu_sum, as_double(c[9]), what + " cpu_acc");
    EXPECT_EQ(s.cpu_count ? s.cpu_min : 0.0, as_double(c[10])) << what;
    EXPECT_EQ(s.cpu_count ? s.cpu_max : 0.0, as_double(c[11])) << what;
    expect_close(s.sum, as_double(c[13]), what + " total");
  }
}

class Views : public ::testing::Test {
protected:
  void SetUp() override {
    db = store::open(database->url());
    store::load(*db, generated(), {});
  }
  std::unique_ptr<TestDatabase> database = fresh_database();
  std::unique_ptr<store::Database> db;
};

TEST_F(Views, ProbesMergeEachProbesNodesPerCfh) {
  expect_probes_match(*db, generated());
}

TEST_F(Views, ProbeIdIsUniqueAndNamesTheCfhAndFirstNode) {
  EXPECT_EQ("0", scalar(*db, "SELECT count(*) FROM probes GROUP BY id HAVING count(*) > 1 "
                             "UNION ALL SELECT 0 LIMIT 1"));
  EXPECT_EQ("0", scalar(*db, "SELECT count(*) FROM probes p WHERE (p.id & 4294967295) <> "
                             "(SELECT min(node) FROM nodes n WHERE n.cfh_id = p.cfh AND "
                             "n.probe_id = p.lid) OR (p.id >> 32) <> p.cfh"));
}

TEST_F(Views, NodeTimesMatchTheReader) {
  const profile::Profile &p = generated();
  store::QueryResult r = store::query(
      *db, "SELECT inclusive, exclusive, descendant_noise, corrected, probe_id FROM node_times "
           "ORDER BY cfh_id, node");
  std::size_t row = 0;
  for (const profile::Cfh &h : p.cfhs) {
    std::vector<profile::NodeTimes> t = profile::node_times(h);
    for (std::size_t i = 0; i < t.size(); ++i) {
      ASSERT_LT(row, r.rows.size());
      const auto &c = r.rows[row++];
      EXPECT_EQ(t[i].inclusive, as_double(c[0])) << h.name << " node " << i;
      EXPECT_EQ(t[i].exclusive, as_double(c[1])) << h.name << " node " << i;
      EXPECT_EQ(t[i].descendant_noise, as_double(c[2])) << h.name << " node " << i;
      EXPECT_EQ(t[i].corrected, as_double(c[3])) << h.name << " node " << i;
      EXPECT_EQ(std::to_string(h.nodes[i].probe), c[4]);
    }
  }
  EXPECT_EQ(row, r.rows.size());
}

TEST_F(Views, ClassicTotalsPerProcedureRunVerbatim) {
  store::QueryResult r =
      store::query(*db, "SELECT l.name, p.avg*p.count AS total FROM probes p, lookup l "
                        "WHERE p.lid = l.lid AND p.proc = 0 ORDER BY total DESC;");
  std::size_t described = 0; // (CFH, probe) rows on rank 0 whose probe has a description
  for (const auto &entry : merged(generated()))
    if (generated().probe(entry.first.second)) ++described;
  ASSERT_EQ(described, r.rows.size());
  // The program's root on thread 0 holds the most time, main (its only child) the next.
  const profile::Cfh &main_cfh = generated().cfhs[0];
  EXPECT_EQ(generated().get("program"), r.rows[0][0]);
  expect_close(main_cfh.nodes[0].stats.sum, as_double(r.rows[0][1]), "root total");
  EXPECT_EQ("main", r.rows[1][0]);
  expect_close(main_cfh.nodes[1].stats.sum, as_double(r.rows[1][1]), "main total");
}

TEST_F(Views, RankOfAProbesMaximumAndFunctions) {
  // compute (10) runs on the main thread and on both workers.
  double max = 0, min = INFINITY, noise = 0;
  std::vector<double> samples;
  idb_stats_t all;
  idb_stats_clear(&all);
  for (const profile::Cfh &h : generated().cfhs) {
    double cfh_noise = 0;
    for (const profile::Node &n : h.nodes)
      if (n.probe == 10) {
        max = std::max(max, n.stats.max);
        min = std::min(min, n.stats.min);
        cfh_noise += n.stats.noise;
        idb_stats_merge(&all, &n.stats);
      }
    noise = std::max(noise, cfh_noise);
  }
  store::KeyValues lid = {{"lid", "10"}};
  EXPECT_EQ("0",
            scalar(*db, "SELECT proc FROM probes WHERE lid = :lid AND max = maxprobe(:lid)", lid));
  EXPECT_EQ(max, as_double(scalar(*db, "SELECT maxprobe(:lid)", lid)));
  EXPECT_EQ(min, as_double(scalar(*db, "SELECT minprobe(:lid)", lid)));
  expect_close(noise, as_double(scalar(*db, "SELECT maxnoise(:lid)", lid)), "maxnoise");
  expect_close(sdev_of(all), as_double(scalar(*db, "SELECT sdev(:lid)", lid)), "sdev");
  EXPECT_EQ("1", scalar(*db, "SELECT count(*) FROM probes WHERE lid = 10 AND min = minprobe(10)"));
  EXPECT_EQ("NULL", scalar(*db, "SELECT maxprobe(999)"));
  EXPECT_EQ("NULL", scalar(*db, "SELECT sdev(999)"));
  EXPECT_EQ(max, as_double(scalar(*db, "SELECT maxprobe(10, 1)")));
  EXPECT_EQ("NULL", scalar(*db, "SELECT maxprobe(10, 2)")) << "no run 2";
}

TEST_F(Views, AncestryThroughConnections) {
  // compute (10) under step (4) under iterate (3) under main (1) under the root (0).
  store::QueryResult r = store::query(
      // PostgreSQL wants the start of a recursion typed as the recursive part (BIGINT).
      *db, "WITH RECURSIVE up(lid) AS (SELECT CAST(10 AS BIGINT) UNION SELECT c.parent FROM "
           "connections c, up "
           "WHERE c.child = up.lid AND c.cfh = 1) SELECT lid FROM up ORDER BY lid DESC");
  std::string chain;
  for (const auto &row : r.rows)
    chain += (chain.empty() ? "" : " ") + row[0].value_or("NULL");
  EXPECT_EQ("10 4 3 1 0", chain);
  EXPECT_EQ("0", scalar(*db, "SELECT parent FROM connections WHERE cfh = 1 AND child = 1"));
}

TEST_F(Views, LookupAndCfhNameProbesAndInstances) {
  EXPECT_EQ("compute", scalar(*db, "SELECT name FROM lookup WHERE lid = 10"));
  EXPECT_EQ("solver[0]", scalar(*db, "SELECT name FROM cfh WHERE cfh = 2"));
  EXPECT_EQ(std::to_string(generated().cfhs.size()), scalar(*db, "SELECT count(*) FROM cfh"));
  EXPECT_EQ("LOOP", scalar(*db, "SELECT type FROM probes WHERE lid = 4"));
}

// Synthetic: 4 ranks, rank 2 three times slower on every node, rank 3 twice as noisy.
class SyntheticViews : public ::testing::Test {
protected:
  void SetUp() override {
    profile = synthetic_profile(4, 300);
    for (profile::Node &n : profile.cfhs[2].nodes) {
      n.stats.sum *= 3;
      n.stats.min *= 3;
      n.stats.max *= 3;
      n.stats.mean *= 3;
      n.stats.m2 *= 9;
    }
    for (profile::Node &n : profile.cfhs[3].nodes)
      n.stats.noise *= 2;
    db = store::open(database->url());
    store::load(*db, profile, {});
  }
  std::unique_ptr<TestDatabase> database = fresh_database();
  profile::Profile profile;
  std::unique_ptr<store::Database> db;
};

TEST_F(SyntheticViews, ProbesMergeManyNodesPerCfh) {
  expect_probes_match(*db, profile);
}

TEST_F(SyntheticViews, ImbalanceFindsTheSlowRank) {
  for (int probe : {0, 5, 63}) {
    std::vector<double> per_rank(4, 0.0);
    for (std::size_t r = 0; r < 4; ++r)
      for (const profile::Node &n : profile.cfhs[r].nodes)
        if (n.probe == probe) per_rank[r] += n.stats.sum;
    double sum = per_rank[0] + per_rank[1] + per_rank[2] + per_rank[3];
    double mean = sum / 4, max = *std::max_element(per_rank.begin(), per_rank.end());
    store::QueryResult r =
        store::query(*db,
                     "SELECT min, max, mean, imbalance, rank_of_max, ranks FROM probe_imbalance "
                     "WHERE probe_id = :p",
                     {{"p", std::to_string(probe)}});
    ASSERT_EQ(1u, r.rows.size()) << probe;
    const auto &c = r.rows[0];
    expect_close(*std::min_element(per_rank.begin(), per_rank.end()), as_double(c[0]), "min");
    expect_close(max, as_double(c[1]), "max");
    expect_close(mean, as_double(c[2]), "mean");
    expect_close(max / mean, as_double(c[3]), "imbalance");
    EXPECT_GT(as_double(c[3]), 1.5) << probe;
    EXPECT_EQ("2", c[4]) << probe;
    EXPECT_EQ("4", c[5]);
  }
}

TEST_F(SyntheticViews, ClassicMaximumIsOnTheSlowRank) {
  store::KeyValues lid = {{"lid", "7"}};
  EXPECT_EQ("2",
            scalar(*db, "SELECT proc FROM probes WHERE lid = :lid AND max = maxprobe(:lid)", lid));
  EXPECT_EQ("3",
            scalar(*db, "SELECT proc FROM probes WHERE lid = :lid AND noise = maxnoise(:lid)", lid))
      << "rank 3 is the noisy one";
  idb_stats_t all;
  idb_stats_clear(&all);
  for (const profile::Cfh &h : profile.cfhs)
    for (const profile::Node &n : h.nodes)
      if (n.probe == 7) idb_stats_merge(&all, &n.stats);
  expect_close(sdev_of(all), as_double(scalar(*db, "SELECT sdev(:lid)", lid)), "sdev");
}

TEST_F(SyntheticViews, CpuRatioOverCpuTimedActivations) {
  const idb_stats_t &s = profile.cfhs[1].nodes[9].stats; // cpu_count 4 of count 10
  store::QueryResult r = store::query(
      *db, "SELECT cpu_count, ratio FROM node_cpu_ratio WHERE cfh_id = 2 AND node = 9");
  ASSERT_EQ(1u, r.rows.size());
  EXPECT_EQ(std::to_string(s.cpu_count), r.rows[0][0]);
  expect_close(s.cpu_sum / (s.mean * double(s.cpu_count)), as_double(r.rows[0][1]), "ratio");
  EXPECT_EQ("0", scalar(*db, "SELECT count(*) FROM node_cpu_ratio WHERE node < 2"))
      << "nodes 0 and 1 have no CPU-timed activation";
}

} // namespace
} // namespace idb::test
