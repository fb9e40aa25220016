// Duration histograms end to end under mpirun: a program whose activations are bimodal
// (tests/mpi/bimodal.c) records each duration itself as well; the p50, p90 and p99 of its
// profile, of the database's probe_quantiles view and of `idb report --quantiles` land
// within 5% of the exact quantiles of those durations, per rank and every rank merged, in
// full and in summary mode. With IDB_HISTOGRAM=0 the quantiles are empty, not zero.
#include "mpi_launch.hpp"

#include "files.hpp"
#include "idb/histogram.hpp"
#include "idb/profile.hpp"
#include "idb/profile_format.h"
#include "idb/store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using idb::profile::Profile;
using idb::test::mpi_run;
using idb::test::MpiRun;

constexpr int kRanks = 2;
constexpr int kActivations = 400;
constexpr double kQuantiles[] = {0.50, 0.90, 0.99};

// The durations rank `rank` recorded itself, in seconds.
std::vector<double> durations(const MpiRun &run, int rank) {
  std::ifstream in(run.dir.file("took-" + std::to_string(rank) + ".txt"));
  std::vector<double> out;
  for (long long ns = 0; in >> ns;)
    out.push_back(double(ns) * 1e-9);
  return out;
}

std::vector<double> all_durations(const MpiRun &run) {
  std::vector<double> all;
  for (int rank = 0; rank < kRanks; ++rank) {
    std::vector<double> d = durations(run, rank);
    all.insert(all.end(), d.begin(), d.end());
  }
  return all;
}

// The ceil(q n)-th shortest, the convention of the histogram's quantiles.
double exact(std::vector<double> d, double q) {
  std::sort(d.begin(), d.end());
  auto rank = std::max<std::size_t>(1, std::size_t(std::ceil(q * double(d.size()))));
  return d.at(rank - 1);
}

void expect_close(double exact_value, double got, const std::string &what) {
  EXPECT_LE(std::abs(got - exact_value), 0.05 * exact_value)
      << what << ": exact " << exact_value << " s, from the histogram " << got << " s";
}

MpiRun run_bimodal(const idb::test::Env &env = {}) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_BIMODAL, {std::to_string(kActivations), "took"}, env);
  EXPECT_TRUE(run.ok()) << run.output;
  return run;
}

Profile read(const MpiRun &run) {
  auto r = idb::profile::read_profile(run.profile);
  EXPECT_TRUE(r.profile) << r.error;
  return r.profile ? *r.profile : Profile{};
}

// The node of probe 1 ("solve") in `cfh`.
const idb::profile::Node *solve_node(const idb::profile::Cfh &cfh) {
  for (const idb::profile::Node &n : cfh.nodes)
    if (n.probe == 1) return &n;
  return nullptr;
}

TEST(MpiHistogram, BimodalQuantilesPerRankAndMergedInTheProfileTheViewAndTheReport) {
  MpiRun run = run_bimodal();
  Profile p = read(run);
  ASSERT_EQ(std::size_t(kRanks), p.cfhs.size());
  EXPECT_EQ("on", p.get("histogram"));
  for (const idb::profile::Cfh &cfh : p.cfhs) {
    const idb::profile::Node *solve = solve_node(cfh);
    ASSERT_NE(nullptr, solve);
    ASSERT_EQ(std::uint64_t(kActivations), solve->stats.count);
    ASSERT_EQ(solve->stats.count, idb::profile::histogram_count(solve->hist));
    std::vector<double> took = durations(run, cfh.rank);
    ASSERT_EQ(std::size_t(kActivations), took.size());
    for (double q : kQuantiles)
      expect_close(exact(took, q), idb::profile::quantile_seconds(*solve, q),
                   "profile rank " + std::to_string(cfh.rank) + " q " + std::to_string(q));
  }

  // The database: per rank, and every rank merged (rank NULL).
  std::string db_path = run.dir.file("idb.db");
  auto db = idb::store::open(db_path);
  idb::store::LoadOptions options;
  options.label = "bimodal";
  idb::store::load(*db, p, options);
  idb::store::QueryResult r = idb::store::query(
      *db, "SELECT rank, count, p50, p90, p99, max FROM probe_quantiles "
           "WHERE label = 'bimodal' AND probe_id = 1 ORDER BY rank IS NULL, rank");
  ASSERT_EQ(std::size_t(kRanks + 1), r.rows.size());
  for (std::size_t row = 0; row < r.rows.size(); ++row) {
    bool merged = !r.rows[row][0];
    std::vector<double> took = merged ? all_durations(run) : durations(run, int(row));
    std::string what = merged ? "view merged" : "view rank " + std::to_string(row);
    EXPECT_EQ(std::to_string(took.size()), r.rows[row][1].value_or("")) << what;
    for (std::size_t k = 0; k < 3; ++k) {
      ASSERT_TRUE(r.rows[row][2 + k]) << what;
      expect_close(exact(took, kQuantiles[k]), std::stod(*r.rows[row][2 + k]),
                   what + " q " + std::to_string(kQuantiles[k]));
    }
  }
  db.reset();

  // idb report --quantiles: the merged tree's solve row, p50 in microseconds.
  idb::test::CommandResult report = idb::test::run_command(
      run.dir, {IDB_TEST_CLI, "report", "bimodal", "--db", db_path, "--aggregate", "--quantiles"});
  ASSERT_EQ(0, report.status) << report.output;
  EXPECT_NE(std::string::npos, report.output.find("p50 us")) << report.output;
  std::istringstream lines(report.output);
  bool found = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream cells(line);
    std::string label;
    cells >> label;
    if (label != "solve") continue;
    std::vector<std::string> cell;
    for (std::string c; cells >> c;)
      cell.push_back(c);
    // count, incl, excl, corr, %par, mean, sdev, then p50, p90, p99 (us)
    ASSERT_GE(cell.size(), 10u) << line;
    std::vector<double> took = all_durations(run);
    for (std::size_t k = 0; k < 3; ++k)
      expect_close(exact(took, kQuantiles[k]), std::stod(cell[7 + k]) * 1e-6,
                   "report q " + std::to_string(kQuantiles[k]));
    found = true;
  }
  EXPECT_TRUE(found) << report.output;
}

TEST(MpiHistogram, TheSummaryModeMergesTheRanksHistogramsExactly) {
  MpiRun run = run_bimodal({{"IDB_MPI_MODE", "summary"}});
  Profile p = read(run);
  ASSERT_EQ(1u, p.cfhs.size());
  ASSERT_TRUE(p.cfhs[0].summary);
  const idb::profile::Node *solve = solve_node(p.cfhs[0]);
  ASSERT_NE(nullptr, solve);
  ASSERT_EQ(std::uint64_t(kRanks * kActivations), solve->stats.count);
  ASSERT_EQ(solve->stats.count, idb::profile::histogram_count(solve->hist));
  std::vector<double> took = all_durations(run);
  for (double q : kQuantiles)
    expect_close(exact(took, q), idb::profile::quantile_seconds(*solve, q),
                 "summary q " + std::to_string(q));
  // Every node's histogram counts its activations.
  for (const idb::profile::Node &n : p.cfhs[0].nodes)
    EXPECT_EQ(n.stats.count, idb::profile::histogram_count(n.hist));
}

TEST(MpiHistogram, OffLeavesTheQuantilesEmptyNotZero) {
  MpiRun run = run_bimodal({{"IDB_HISTOGRAM", "0"}});
  Profile p = read(run);
  EXPECT_EQ("off", p.get("histogram"));
  for (const idb::profile::Cfh &cfh : p.cfhs)
    for (const idb::profile::Node &n : cfh.nodes)
      EXPECT_TRUE(n.hist.empty());
  auto db = idb::store::open(run.dir.file("idb.db"));
  idb::store::LoadOptions options;
  options.label = "off";
  idb::store::load(*db, p, options);
  idb::store::QueryResult r =
      idb::store::query(*db, "SELECT count, p50, p99, max FROM probe_quantiles WHERE probe_id = 1");
  ASSERT_EQ(std::size_t(kRanks + 1), r.rows.size());
  for (const auto &row : r.rows) {
    EXPECT_TRUE(row[0] && *row[0] != "0");
    EXPECT_FALSE(row[1]);
    EXPECT_FALSE(row[2]);
    EXPECT_TRUE(row[3]);
  }
}

} // namespace
