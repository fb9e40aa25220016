// The imbalance answers (the view probe_imbalance and the canned query `imbalance`) on
// both bases: a full run of known per-rank data and the summary-mode run made from the
// same data (merged statistics and cross-rank spread per node, computed here as the MPI
// layer computes them) give the same max, rank_of_max, min, mean and ranks for probes
// with one node; a probe with several nodes on a summary run is answered from its
// heaviest node and flagged by `nodes`. The same source runs on SQLite and PostgreSQL
// (test_database.hpp).
#include "query_checks.hpp"
#include "store_support.hpp"
#include "summary_data.hpp"
#include "synthetic.hpp"
#include "test_database.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace idb::test {
namespace {

constexpr int kRanks = 4, kSlow = 2;

// kRanks ranks of `nodes` nodes, rank kSlow three times slower, the last node (a leaf)
// missing on the last rank, so its probe is reached by three ranks of four.
profile::Profile full_data(int nodes) {
  profile::Profile p = synthetic_profile(kRanks, nodes);
  for (profile::Node &n : p.cfhs[kSlow].nodes) {
    n.stats.sum *= 3;
    n.stats.max *= 3;
    n.stats.mean *= 3;
  }
  p.cfhs[kRanks - 1].nodes.pop_back();
  return p;
}

using Rows = std::map<std::string, std::vector<store::Cell>>; // by probe_id

const char *const kColumns[] = {"min",   "max",           "mean",  "imbalance",
                                "ranks", "ranks_reached", "basis", "nodes"};

// The view's rows of one run, by probe, columns as kColumns then rank_of_max.
Rows view_rows(store::Database &db, const std::string &label) {
  store::QueryResult r = store::query(
      db,
      "SELECT i.probe_id, i.min, i.max, i.mean, i.imbalance, i.ranks, i.ranks_reached, "
      "i.basis, i.nodes, i.rank_of_max FROM probe_imbalance i JOIN runs r USING (run_id) "
      "WHERE r.label = :run",
      {{"run", label}});
  Rows rows;
  for (auto &row : r.rows)
    rows[*row[0]] = std::vector<store::Cell>(row.begin() + 1, row.end());
  return rows;
}

// The canned query's rows of one run, in the same shape.
Rows query_rows(store::Database &db, const std::string &label) {
  store::QueryResult r = queries::canned(db, "imbalance", {{"run", label}});
  Rows rows;
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    std::vector<store::Cell> cells;
    for (const char *c : kColumns)
      cells.push_back(r.rows[i][queries::column(r, c)]);
    cells.push_back(r.rows[i][queries::column(r, "rank_of_max")]);
    rows[*r.rows[i][queries::column(r, "probe_id")]] = cells;
  }
  return rows;
}

void expect_close(const store::Cell &a, const store::Cell &b, const std::string &what) {
  ASSERT_TRUE(a && b) << what;
  double x = as_double(a), y = as_double(b);
  EXPECT_NEAR(x, y, 1e-12 * std::max(1.0, std::fabs(x))) << what;
}

class Imbalance : public ::testing::Test {
protected:
  void load(const profile::Profile &p, const std::string &label) {
    store::LoadOptions options;
    options.label = label;
    store::load(*db, p, options);
  }
  std::unique_ptr<TestDatabase> database = fresh_database();
  std::unique_ptr<store::Database> db = store::open(database->url());
};

// synthetic_profile(_, 60) puts probes 2..60 on one node each, and the root's probe 0.
TEST_F(Imbalance, SummaryAndFullRunsAgreeOnSingleNodeProbes) {
  profile::Profile full = full_data(60);
  load(full, "full");
  load(summary_of(full), "sum");
  for (auto read : {view_rows, query_rows}) {
    Rows f = read(*db, "full"), s = read(*db, "sum");
    ASSERT_EQ(60u, f.size());
    ASSERT_EQ(f.size(), s.size());
    for (const auto &[probe, a] : f) {
      const auto &b = s.at(probe);
      std::string what = "probe " + probe;
      EXPECT_EQ(a[1], b[1]) << what << ": max, bit for bit";
      EXPECT_EQ(a[8], b[8]) << what << ": rank_of_max";
      EXPECT_EQ(as_double(a[0]), as_double(b[0])) << what << ": min";
      expect_close(a[2], b[2], what + ": mean");
      expect_close(a[3], b[3], what + ": imbalance");
      EXPECT_EQ(a[4], b[4]) << what << ": ranks";
      EXPECT_EQ(a[5], b[5]) << what << ": ranks_reached";
      EXPECT_EQ("ranks", a[6].value_or("NULL")) << what;
      EXPECT_EQ("NULL", a[7].value_or("NULL")) << what;
      EXPECT_EQ("spread", b[6].value_or("NULL")) << what;
      EXPECT_EQ("1", b[7].value_or("NULL")) << what;
      if (probe != "0") {
        EXPECT_EQ(std::to_string(kSlow), b[8]) << what;
      }
    }
    // Probe 60 (the dropped leaf) was reached by three ranks: the fourth counts as 0.
    EXPECT_EQ("3", s.at("60")[5]);
    EXPECT_EQ(0.0, as_double(s.at("60")[0]));
  }
}

TEST_F(Imbalance, ViewAndQueryGiveTheSameSummaryRows) {
  load(summary_of(full_data(300)), "sum");
  Rows v = view_rows(*db, "sum"), q = query_rows(*db, "sum");
  ASSERT_EQ(v.size(), q.size());
  for (const auto &[probe, a] : v)
    for (std::size_t c = 0; c < a.size(); ++c)
      EXPECT_EQ(a[c], q.at(probe)[c]) << "probe " << probe << " column " << c;
}

// synthetic_profile(_, 300) gives probes 1..63 four or five nodes each: the summary row
// is the heaviest node's spread, flagged with the probe's node count.
TEST_F(Imbalance, SeveralNodesAreAnsweredFromTheHeaviestAndFlagged) {
  profile::Profile sum = summary_of(full_data(300));
  load(sum, "sum");
  const profile::Cfh &h = sum.cfhs[0];
  std::map<int, std::pair<std::size_t, int>> heaviest; // probe -> (node, nodes)
  for (std::size_t i = 0; i < h.nodes.size(); ++i) {
    auto [it, fresh] = heaviest.try_emplace(h.nodes[i].probe, i, 0);
    ++it->second.second;
    if (h.nodes[i].stats.sum > h.nodes[it->second.first].stats.sum) it->second.first = i;
  }
  Rows rows = view_rows(*db, "sum");
  ASSERT_EQ(heaviest.size(), rows.size());
  for (const auto &[probe, at] : heaviest) {
    const profile::RankSpread &d = h.spread[at.first].total;
    const auto &row = rows.at(std::to_string(probe));
    std::string what = "probe " + std::to_string(probe);
    EXPECT_EQ(d.max, as_double(row[1])) << what;
    EXPECT_EQ(std::to_string(d.rank_max), row[8]) << what;
    EXPECT_EQ(std::to_string(at.second), row[7].value_or("NULL")) << what;
    EXPECT_EQ(std::to_string(h.spread[at.first].ranks), row[5]) << what;
  }
  EXPECT_EQ("5", rows.at("5")[7].value_or("NULL")) << "probe 5: nodes 4, 67, 130, 193, 256";
}

TEST_F(Imbalance, FullRunsKeepTheirAnswersBesideSummaryRuns) {
  profile::Profile p = queries::dataset();
  queries::load_dataset(*db, p);
  load(summary_of(full_data(60)), "sum");
  queries::check_imbalance(*db, p);
  EXPECT_EQ("0", scalar(*db, "SELECT count(*) FROM probe_imbalance i JOIN runs r USING (run_id) "
                             "WHERE r.label = 'syn' AND i.basis <> 'ranks'"));
}

} // namespace
} // namespace idb::test
