// The canned queries of queries/ checked against a known dataset, for both engines
// (test_queries.cpp on SQLite, test_store_postgres.cpp on PostgreSQL): a synthetic
// 4-rank profile with rank 2 three times slower, probe 7 called very often for very
// little time each, and the expected answers computed in C++ from the Profile structs.
#pragma once

#include "idb/histogram.h"
#include "idb/queries.hpp"
#include "idb/wait_states.h"
#include "store_support.hpp"
#include "synthetic.hpp"

#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace idb::test::queries {

inline constexpr int kSlowRank = 2, kHotProbe = 7, kWaitProbe = 3;

// The node of the dataset's CFH that has dynamics: the first but the root with ten
// activations or more (0: none).
inline std::uint32_t dynamic_node(const profile::Cfh &h) {
  for (std::uint32_t i = 1; i < h.nodes.size(); ++i)
    if (h.nodes[i].stats.count >= 10 && h.nodes[i].stats.sum > 0) return i;
  return 0;
}

// The dataset: synthetic_profile(4, 300), rank 2 slower on every node, the program (the
// roots) 10 s per rank, 30 s on rank 2, probe 7's nodes timed a million times for 1e-9 s
// each and then throttled (two million more activations counted), probe 3's nodes waiting
// half their time as late senders (rank 0's a quarter more at a barrier), with the run's
// calibrated charges in its metadata.
inline profile::Profile dataset() {
  profile::Profile p = synthetic_profile(4, 300);
  for (profile::Node &n : p.cfhs[kSlowRank].nodes) {
    n.stats.sum *= 3;
    n.stats.min *= 3;
    n.stats.max *= 3;
    n.stats.mean *= 3;
    n.stats.m2 *= 9;
  }
  for (profile::Cfh &h : p.cfhs) {
    idb_stats_t &root = h.nodes[0].stats; // the program: 10 s, 30 s on the slow rank
    root.sum = root.min = root.max = root.mean = h.rank == kSlowRank ? 30.0 : 10.0;
    for (profile::Node &n : h.nodes)
      if (n.probe == kHotProbe)
        n.stats = {1000000, 1e-3, 1e-9, 1e-9, 1e-9, 0, 0, 0, 0, 0, 0, 0, 0, 2000000, 0, 0};
  }
  // A duration histogram per node: every timed activation in the bucket of its mean.
  for (profile::Cfh &h : p.cfhs)
    for (profile::Node &n : h.nodes)
      if (n.stats.count > 0)
        n.hist = {0, {{idb_hist_bucket(std::uint64_t(n.stats.mean * 1e9)), n.stats.count}}};
  for (profile::Cfh &h : p.cfhs)
    for (profile::Node &n : h.nodes)
      if (n.probe == kWaitProbe && n.stats.count > 0) {
        n.waits = {{IDB_WAIT_late_sender, n.stats.sum / 2, (n.stats.count + 1) / 2, 0, {}}};
        if (h.rank == 0) n.waits.push_back({IDB_WAIT_wait_barrier, n.stats.sum / 4, 1, 0, {}});
      }
  // A dynamic node per rank (the first node with ten activations or more) over ten
  // iterations, the sixth five times as long as the others; its first child, if any,
  // visited twice an iteration.
  for (profile::Cfh &h : p.cfhs) {
    std::uint32_t node = dynamic_node(h);
    if (node == 0) continue;
    std::uint32_t child = 0;
    for (std::uint32_t i = node + 1; i < h.nodes.size() && !child; ++i)
      if (h.nodes[i].parent == node) child = i;
    profile::Dynamics d;
    d.node = node;
    d.members = {node};
    if (child) d.members.push_back(child);
    d.iterations = 10;
    double base = h.nodes[node].stats.sum / 14;
    d.clusters = {{9, {9.0, 18.0}, {9 * base, 9 * base / 2}}, {1, {1.0, 2.0}, {5 * base, base}}};
    for (profile::DynCluster &c : d.clusters) {
      c.visits.resize(d.members.size());
      c.seconds.resize(d.members.size());
    }
    d.runs = {{5, 0}, {1, 1}, {4, 0}};
    h.dynamics.push_back(d);
  }
  p.meta["noise_per_activation_s"] = "2e-08";
  p.meta["throttled_noise_per_activation_s"] = "5e-09";
  return p;
}

// Loads the dataset as run "syn", and again as "syn2" with the attribute mesh=64.
inline void load_dataset(store::Database &db, const profile::Profile &p) {
  store::LoadOptions options;
  options.label = "syn";
  store::load(db, p, options);
  options.label = "syn2";
  options.attributes = {{"mesh", "64"}};
  store::load(db, p, options);
}

inline store::QueryResult canned(store::Database &db, const std::string &name,
                                 const store::KeyValues &params) {
  const idb::queries::CannedQuery *q = idb::queries::find_canned_query(name);
  if (!q) throw std::runtime_error("no canned query " + name);
  return store::query(db, q->sql, params);
}

// Column `name` of `r`.
inline std::size_t column(const store::QueryResult &r, const std::string &name) {
  auto it = std::find(r.columns.begin(), r.columns.end(), name);
  if (it == r.columns.end()) throw std::runtime_error("no column " + name);
  return std::size_t(it - r.columns.begin());
}

inline double cell(const store::QueryResult &r, std::size_t row, const std::string &name) {
  return as_double(r.rows.at(row).at(column(r, name)));
}

inline void expect_close(double expected, double actual, const std::string &what) {
  EXPECT_NEAR(expected, actual, 1e-9 * std::max(1e-12, std::fabs(expected))) << what;
}

// Sum over every node of every CFH of f(cfh index, node index).
template <class F> double sum_nodes(const profile::Profile &p, F f) {
  double s = 0;
  for (std::size_t h = 0; h < p.cfhs.size(); ++h)
    for (std::size_t i = 0; i < p.cfhs[h].nodes.size(); ++i)
      s += f(h, i);
  return s;
}

inline double run_time(const profile::Profile &p) {
  return sum_nodes(
      p, [&](std::size_t h, std::size_t i) { return i == 0 ? p.cfhs[h].nodes[i].stats.sum : 0.0; });
}

inline double probe_total(const profile::Profile &p, int probe) {
  return sum_nodes(p, [&](std::size_t h, std::size_t i) {
    const profile::Node &n = p.cfhs[h].nodes[i];
    return n.probe == probe ? n.stats.sum : 0.0;
  });
}

inline void check_hottest_procedures(store::Database &db, const profile::Profile &p) {
  std::vector<std::pair<double, int>> procs; // (-total, id): sorted hottest first
  for (const profile::Probe &probe : p.probes)
    if (probe.kind == 1) procs.emplace_back(-probe_total(p, probe.id), probe.id);
  std::sort(procs.begin(), procs.end());
  store::QueryResult r = canned(db, "hottest_procedures", {{"run", "syn"}, {"limit", "5"}});
  ASSERT_EQ(5u, r.rows.size());
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(std::to_string(procs[i].second), r.rows[i][column(r, "probe_id")]) << i;
    expect_close(-procs[i].first, cell(r, i, "inclusive"), "inclusive");
    expect_close(-procs[i].first / run_time(p), cell(r, i, "share"), "share");
  }
}

inline void check_critical_path(store::Database &db, const profile::Profile &p) {
  const profile::Cfh &h = p.cfhs[kSlowRank];
  std::vector<std::uint32_t> expected{0};
  for (;;) {
    std::uint32_t best = profile::kNoParent;
    for (std::uint32_t i = 0; i < h.nodes.size(); ++i)
      if (h.nodes[i].parent == expected.back() &&
          (best == profile::kNoParent || h.nodes[i].stats.sum > h.nodes[best].stats.sum))
        best = i;
    if (best == profile::kNoParent) break;
    expected.push_back(best);
  }
  store::QueryResult r = canned(
      db, "critical_path", {{"run", "syn"}, {"rank", std::to_string(kSlowRank)}, {"thread", "0"}});
  ASSERT_EQ(expected.size(), r.rows.size());
  std::vector<profile::NodeTimes> t = profile::node_times(h);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const profile::Node &n = h.nodes[expected[i]];
    EXPECT_EQ(std::to_string(expected[i]), r.rows[i][column(r, "node")]);
    EXPECT_EQ(std::to_string(i), r.rows[i][column(r, "depth")]);
    EXPECT_EQ(n.stats.sum, cell(r, i, "inclusive"));
    expect_close(t[expected[i]].exclusive, cell(r, i, "exclusive"), "exclusive");
    if (i > 0)
      expect_close(n.stats.sum / h.nodes[n.parent].stats.sum, cell(r, i, "share_of_parent"),
                   "share of parent");
  }
}

inline void check_imbalance(store::Database &db, const profile::Profile &p) {
  store::QueryResult r = canned(db, "imbalance", {{"run", "syn"}});
  std::set<int> probes;
  for (const profile::Cfh &h : p.cfhs)
    for (const profile::Node &n : h.nodes)
      probes.insert(n.probe);
  ASSERT_EQ(probes.size(), r.rows.size());
  for (std::size_t row = 0; row < r.rows.size(); ++row) {
    int probe = std::stoi(*r.rows[row][column(r, "probe_id")]);
    std::vector<double> per_rank(p.cfhs.size(), 0.0);
    for (std::size_t k = 0; k < p.cfhs.size(); ++k)
      for (const profile::Node &n : p.cfhs[k].nodes)
        if (n.probe == probe) per_rank[k] += n.stats.sum;
    double max = *std::max_element(per_rank.begin(), per_rank.end());
    double mean = (per_rank[0] + per_rank[1] + per_rank[2] + per_rank[3]) / 4;
    auto rank_of_max = std::max_element(per_rank.begin(), per_rank.end()) - per_rank.begin();
    std::string what = "probe " + std::to_string(probe);
    expect_close(*std::min_element(per_rank.begin(), per_rank.end()), cell(r, row, "min"), what);
    expect_close(max, cell(r, row, "max"), what);
    expect_close(mean, cell(r, row, "mean"), what);
    expect_close(max / mean, cell(r, row, "imbalance"), what);
    EXPECT_EQ(std::to_string(rank_of_max), r.rows[row][column(r, "rank_of_max")]) << what;
    if (probe != kHotProbe) {
      EXPECT_EQ(std::to_string(kSlowRank), r.rows[row][column(r, "rank_of_max")]) << what;
    }
  }
}

inline void check_cpu_wall_gap(store::Database &db, const profile::Profile &p) {
  std::set<std::pair<std::size_t, std::size_t>> expected; // (rank, node)
  for (std::size_t h = 0; h < p.cfhs.size(); ++h)
    for (std::size_t i = 0; i < p.cfhs[h].nodes.size(); ++i) {
      const idb_stats_t &s = p.cfhs[h].nodes[i].stats;
      if (s.cpu_count == 0) continue;
      double wall = s.cpu_count == s.count ? s.sum : s.mean * double(s.cpu_count);
      if (wall > 0 && s.cpu_sum / wall < 0.05) expected.emplace(h, i);
    }
  store::QueryResult r = canned(db, "cpu_wall_gap", {{"run", "syn"}, {"max_ratio", "0.05"}});
  std::set<std::pair<std::size_t, std::size_t>> got;
  double last = INFINITY;
  for (std::size_t row = 0; row < r.rows.size(); ++row) {
    got.emplace(std::stoul(*r.rows[row][column(r, "rank")]),
                std::stoul(*r.rows[row][column(r, "node")]));
    EXPECT_LT(cell(r, row, "ratio"), 0.05);
    EXPECT_LE(cell(r, row, "off_cpu"), last) << "sorted by off-CPU time";
    last = cell(r, row, "off_cpu");
  }
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(expected, got);
}

inline void check_noise_share(store::Database &db, const profile::Profile &p) {
  std::map<int, std::pair<double, double>> per_probe; // probe → (noise inside, inclusive)
  for (const profile::Cfh &h : p.cfhs) {
    std::vector<profile::NodeTimes> t = profile::node_times(h);
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      per_probe[h.nodes[i].probe].first += t[i].descendant_noise;
      per_probe[h.nodes[i].probe].second += h.nodes[i].stats.sum;
    }
  }
  store::QueryResult r = canned(db, "noise_share", {{"run", "syn"}});
  ASSERT_EQ(per_probe.size(), r.rows.size());
  for (std::size_t row = 0; row < r.rows.size(); ++row) {
    auto [noise, inclusive] = per_probe.at(std::stoi(*r.rows[row][column(r, "probe_id")]));
    expect_close(noise, cell(r, row, "noise"), "noise");
    if (inclusive > 0) expect_close(noise / inclusive, cell(r, row, "share"), "share");
  }
}

inline void check_pruning_candidates(store::Database &db, const profile::Profile &p) {
  store::QueryResult r = canned(db, "pruning_candidates",
                                {{"run", "syn"}, {"min_count", "100000"}, {"max_mean", "1e-8"}});
  ASSERT_EQ(1u, r.rows.size());
  EXPECT_EQ(std::to_string(kHotProbe), r.rows[0][column(r, "probe_id")]);
  expect_close(1e-9, cell(r, 0, "mean"), "mean (of the timed activations)");
  // count is every activation, timed and throttled; the estimate charges each its cost.
  double timed = 0, throttled = 0;
  for (const profile::Cfh &h : p.cfhs)
    for (const profile::Node &n : h.nodes)
      if (n.probe == kHotProbe) {
        timed += double(n.stats.count);
        throttled += double(n.stats.throttled);
      }
  expect_close(timed + throttled, cell(r, 0, "count"), "count");
  expect_close(timed * 2e-8 + throttled * 5e-9, cell(r, 0, "noise_estimate"), "noise_estimate");
  r = canned(db, "pruning_candidates",
             {{"run", "syn"},
              {"min_count", std::to_string(std::int64_t(timed) + 1)},
              {"max_mean", "1e-8"}});
  EXPECT_EQ(1u, r.rows.size()) << "the throttled activations count towards min_count";
  r = canned(db, "pruning_candidates", {{"run", "syn"}, {"min_count", "1"}, {"max_mean", "1"}});
  EXPECT_EQ(63u, r.rows.size()) << "every probe below the root";
}

inline void check_probe_across_runs(store::Database &db, const profile::Profile &p) {
  for (const char *probe : {"7", "probe 7"}) {
    store::QueryResult r = canned(db, "probe_across_runs", {{"probe", probe}});
    ASSERT_EQ(2u, r.rows.size()) << probe;
    EXPECT_EQ("syn", r.rows[0][column(r, "label")]);
    EXPECT_EQ("kind=synthetic", r.rows[0][column(r, "attributes")]);
    EXPECT_EQ("syn2", r.rows[1][column(r, "label")]);
    EXPECT_EQ("kind=synthetic, mesh=64", r.rows[1][column(r, "attributes")]);
    for (std::size_t row = 0; row < 2; ++row) {
      expect_close(probe_total(p, kHotProbe), cell(r, row, "inclusive"), "inclusive");
      expect_close(probe_total(p, kHotProbe) / run_time(p), cell(r, row, "share"), "share");
    }
  }
  EXPECT_TRUE(canned(db, "probe_across_runs", {{"probe", "no such probe"}}).rows.empty());
}

// quantile: probe 7's activations all take 1 ns, on every rank; the merged row (rank
// empty) counts every rank's.
inline void check_quantile(store::Database &db, const profile::Profile &p) {
  double timed = 0;
  for (const profile::Cfh &h : p.cfhs)
    for (const profile::Node &n : h.nodes)
      if (n.probe == kHotProbe) timed += double(n.stats.count);
  store::QueryResult r = canned(db, "quantile", {{"run", "syn"}, {"q", "0.999"}});
  bool merged = false;
  for (std::size_t row = 0; row < r.rows.size(); ++row) {
    if (r.rows[row][column(r, "probe_id")] != std::to_string(kHotProbe)) continue;
    expect_close(1e-9, cell(r, row, "quantile"), "quantile of probe 7");
    if (!r.rows[row][column(r, "rank")]) {
      merged = true;
      expect_close(timed, cell(r, row, "count"), "merged count of probe 7");
    }
  }
  EXPECT_TRUE(merged);
  EXPECT_THROW(canned(db, "quantile", {{"run", "syn"}}), store::Error) << "q is required";
}

// wait_states: probe 3 waited as a late sender half its time on every rank, most on the
// slow rank; rank 0 alone a quarter more at a barrier.
inline void check_wait_states(store::Database &db, const profile::Profile &p) {
  double total = 0, slow = 0;
  for (const profile::Cfh &h : p.cfhs)
    for (const profile::Node &n : h.nodes)
      if (n.probe == kWaitProbe) {
        total += n.stats.sum;
        if (h.rank == kSlowRank) slow += n.stats.sum;
      }
  store::QueryResult r = canned(db, "wait_states", {{"run", "syn"}});
  ASSERT_EQ(2u, r.rows.size());
  EXPECT_EQ("late sender", r.rows[0][column(r, "pattern")]); // the larger first
  EXPECT_EQ(std::to_string(kWaitProbe), r.rows[0][column(r, "probe_id")]);
  expect_close(total / 2, cell(r, 0, "seconds"), "late sender seconds");
  expect_close(0.5, cell(r, 0, "share"), "late sender share");
  EXPECT_EQ(std::to_string(kSlowRank), r.rows[0][column(r, "worst_rank")]);
  expect_close(slow / 2, cell(r, 0, "worst_rank_seconds"), "the slow rank's wait");
  EXPECT_EQ("wait at barrier", r.rows[1][column(r, "pattern")]);
  EXPECT_EQ("0", r.rows[1][column(r, "worst_rank")]);
  EXPECT_TRUE(canned(db, "wait_states", {{"run", "no such run"}}).rows.empty());

  // The spread over the ranks: every rank waited as late sender, only rank 0 at the
  // barrier (the others count as 0 s there).
  std::map<int, double> late;
  for (const profile::Cfh &h : p.cfhs)
    for (const profile::Node &n : h.nodes)
      if (n.probe == kWaitProbe) late[h.rank] += n.stats.sum / 2;
  double least = 1e300;
  for (const auto &[rank, seconds] : late)
    least = std::min(least, seconds);
  store::QueryResult s = store::query(
      db, "SELECT pattern, ranks, min, max, mean, rank_of_max, basis, imbalance FROM wait_spread "
          "WHERE label = 'syn' AND probe_id = " +
              std::to_string(kWaitProbe) + " ORDER BY pattern");
  ASSERT_EQ(2u, s.rows.size());
  EXPECT_EQ("wait at barrier", s.rows[1][0].value_or(""));
  EXPECT_EQ("late sender", s.rows[0][0].value_or(""));
  EXPECT_EQ("4", s.rows[0][1].value_or(""));
  expect_close(least, cell(s, 0, "min"), "the least late sender wait");
  expect_close(late[kSlowRank], cell(s, 0, "max"), "the slow rank's late sender wait");
  expect_close(total / 2 / 4, cell(s, 0, "mean"), "the mean late sender wait");
  EXPECT_EQ(std::to_string(kSlowRank), s.rows[0][5].value_or(""));
  EXPECT_EQ("ranks", s.rows[0][6].value_or(""));
  expect_close(0.0, cell(s, 1, "min"), "ranks that never waited at the barrier");
  expect_close(late[0] / 2, cell(s, 1, "max"), "rank 0's barrier wait");
  expect_close(late[0] / 2 / 4, cell(s, 1, "mean"), "the mean barrier wait");
  expect_close(4.0, cell(s, 1, "imbalance"), "one rank of four waited");
  EXPECT_EQ("0", s.rows[1][5].value_or(""));
  expect_close(late[kSlowRank] / (total / 2 / 4), cell(r, 0, "imbalance"),
               "the canned query's imbalance of the late sender waits");
}

// iteration_series and iteration_outliers: every rank's sixth iteration (5, from 0) took
// five times the others, and its first child ran twice an iteration.
inline void check_dynamics(store::Database &db, const profile::Profile &p) {
  const profile::Cfh &h = p.cfhs.at(0);
  std::uint32_t node = dynamic_node(h);
  ASSERT_NE(0u, node);
  const profile::Dynamics &d = h.dynamics.at(0);
  double base = h.nodes[node].stats.sum / 14;
  std::string probe = std::to_string(h.nodes[node].probe);
  store::QueryResult r =
      store::query(db, "SELECT iteration, seconds, count, dynamic_probe_id FROM iteration_series "
                       "WHERE label = 'syn' AND rank = 0 AND probe_id = " +
                           probe + " ORDER BY iteration");
  ASSERT_EQ(10u, r.rows.size());
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(std::to_string(i), r.rows[i][0].value_or(""));
    expect_close(i == 5 ? 5 * base : base, cell(r, i, "seconds"), "iteration " + std::to_string(i));
    expect_close(1.0, cell(r, i, "count"), "the dynamic node's count");
    EXPECT_EQ(probe, r.rows[i][3].value_or(""));
  }
  if (d.members.size() > 1) {
    std::string child = std::to_string(h.nodes[d.members[1]].probe);
    store::QueryResult c = store::query(
        db, "SELECT count(*), min(count), max(count) FROM iteration_series WHERE label = 'syn' "
            "AND rank = 0 AND dynamic_probe_id = " +
                probe + " AND probe_id = " + child);
    EXPECT_EQ("10", c.rows.at(0)[0].value_or(""));
    expect_close(2.0, as_double(c.rows[0][1]), "the child's visits");
    expect_close(2.0, as_double(c.rows[0][2]), "the child's visits");
  }
  store::QueryResult o = canned(db, "iteration_outliers", {{"run", "syn"}, {"limit", "10"}});
  std::size_t ranks = 0;
  for (const profile::Cfh &cfh : p.cfhs)
    ranks += cfh.dynamics.size();
  ASSERT_GE(o.rows.size(), ranks);
  for (std::size_t i = 0; i < ranks; ++i) { // every rank's spike, first
    EXPECT_EQ("5", o.rows[i][column(o, "first_iteration")].value_or(""));
    EXPECT_EQ("5", o.rows[i][column(o, "last_iteration")].value_or(""));
    expect_close(5 / 1.4 - 1, cell(o, i, "deviation"), "the spike's deviation");
  }
  EXPECT_TRUE(
      canned(db, "iteration_outliers", {{"run", "no such run"}, {"limit", "5"}}).rows.empty());
  // The run reads back with its dynamics as loaded.
  profile::Profile back = store::read_run(db, "syn");
  ASSERT_EQ(p.cfhs.size(), back.cfhs.size());
  for (std::size_t i = 0; i < p.cfhs.size(); ++i)
    EXPECT_EQ(p.cfhs[i].dynamics, back.cfhs[i].dynamics) << "CFH " << i;
}

// Values for every parameter any canned query takes, on the dataset.
inline store::KeyValues parameters_for(const idb::queries::CannedQuery &q) {
  const store::KeyValues all = {{"run", "syn"},        {"limit", "10"},      {"rank", "0"},
                                {"thread", "0"},       {"max_ratio", "0.5"}, {"min_count", "10"},
                                {"max_mean", "0.001"}, {"probe", "3"},       {"q", "0.5"}};
  store::KeyValues used;
  for (const auto &[key, value] : all)
    if (q.sql.find(":" + key) != std::string::npos) used.emplace_back(key, value);
  return used;
}

// Every canned query parses and answers rows on `db` (which holds the dataset).
inline void check_every_query_runs(store::Database &db) {
  ASSERT_EQ(10u, idb::queries::canned_queries().size());
  for (const idb::queries::CannedQuery &q : idb::queries::canned_queries()) {
    EXPECT_FALSE(q.answers.empty()) << q.name;
    EXPECT_FALSE(q.parameters.empty()) << q.name;
    try {
      EXPECT_FALSE(store::query(db, q.sql, parameters_for(q)).rows.empty()) << q.name;
    } catch (const store::Error &e) {
      ADD_FAILURE() << q.name << ": " << e.what();
    }
  }
}

} // namespace idb::test::queries
