// Wait states end to end under mpirun: a program of four ranks (tests/mpi/waits.c) makes
// each pattern happen inside a probe of its own (late sender, late receiver of a
// synchronous send, staggered MPI_Allreduce and MPI_Barrier, a late broadcast root, an
// early reduce root, MPI_Allreduce on a sub-communicator, receives posted by MPI_Irecv and
// completed by MPI_Waitall, MPI_Issend completed by MPI_Wait, a persistent receive started
// twice, two receives of one stream completed in the other order) and writes the waits its
// own
// clock reads imply; the replay's waits in the profile match them within 10% (and 2 ms),
// with the clocks shared and with ping-pong offsets alike, and no pattern appears where
// none happened. IDB_WAIT=0 records nothing; a buffer too small for the run says so in
// the metadata and still gives a valid profile.
#include "mpi_launch.hpp"

#include "idb/profile.hpp"
#include "idb/store.hpp"
#include "idb/wait_states.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

namespace {

using idb::profile::Profile;
using idb::test::mpi_run;
using idb::test::MpiRun;

constexpr int kRanks = 4;

MpiRun run_waits(const idb::test::Env &env = {}) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_WAITS, {"expected"}, env);
  EXPECT_TRUE(run.ok()) << run.output;
  return run;
}

Profile read(const MpiRun &run) {
  auto r = idb::profile::read_profile(run.profile);
  EXPECT_TRUE(r.profile) << r.error;
  return r.profile ? *r.profile : Profile{};
}

using Key = std::tuple<int, int, std::uint32_t>; // rank, scenario probe, pattern

// What the program says each rank waited, from its own clock.
std::map<Key, double> expected(const MpiRun &run) {
  std::map<Key, double> out;
  for (int rank = 0; rank < kRanks; ++rank) {
    std::ifstream in(run.dir.file("expected-" + std::to_string(rank) + ".txt"));
    int probe = 0;
    std::uint32_t pattern = 0;
    double seconds = 0;
    while (in >> probe >> pattern >> seconds)
      out[{rank, probe, pattern}] = seconds;
  }
  return out;
}

// What the profile says: the waits of the COMM nodes below each scenario's probe.
std::map<Key, double> found(const Profile &p) {
  std::map<Key, double> out;
  for (const idb::profile::Cfh &cfh : p.cfhs)
    for (const idb::profile::Node &n : cfh.nodes) {
      if (n.waits.empty()) continue;
      int scenario = 0; // the nearest enclosing scenario probe, 11 to 20
      for (std::uint32_t at = n.parent; at != idb::profile::kNoParent; at = cfh.nodes[at].parent)
        if (cfh.nodes[at].probe >= 11 && cfh.nodes[at].probe <= 20) {
          scenario = cfh.nodes[at].probe;
          break;
        }
      for (const idb::profile::Wait &w : n.waits) {
        EXPECT_LE(w.seconds, n.stats.sum * (1 + 1e-9)) << "a wait longer than its node";
        EXPECT_LE(w.instances, n.stats.count);
        out[{cfh.rank, scenario, w.pattern}] += w.seconds;
      }
    }
  return out;
}

void expect_waits(const MpiRun &run) {
  Profile p = read(run);
  std::map<Key, double> want = expected(run), got = found(p);
  ASSERT_EQ(want.size(), 22u) << "the program wrote what it expects";
  for (const auto &[key, seconds] : want) {
    auto [rank, probe, pattern] = key;
    std::string what = "rank " + std::to_string(rank) + ", probe " + std::to_string(probe) + ", " +
                       idb_wait_pattern_name(pattern);
    double idb = got.count(key) ? got.at(key) : 0.0;
    EXPECT_LE(std::abs(idb - seconds), 0.10 * seconds + 0.002)
        << what << ": the program measured " << seconds << " s, the replay " << idb << " s";
  }
  for (const auto &[key, seconds] : got) { // nothing where the program expects nothing
    auto [rank, probe, pattern] = key;
    if (probe == 0 || want.count(key)) continue; // the scenarios' own lining up aside
    EXPECT_LE(seconds, 0.002) << "rank " << rank << ", probe " << probe << ": "
                              << idb_wait_pattern_name(pattern) << " " << seconds << " s";
  }
  EXPECT_EQ(p.get("wait"), "on");
  EXPECT_EQ(p.get("wait_dropped"), "0");
  EXPECT_EQ(p.get("wait_unreplayed"), "0");
  EXPECT_GT(p.number("wait_events"), 4 * 10.0);
}

// Also through the database (node_wait, the wait_states view) and `idb report`.
TEST(MpiWaits, KnownWaitsOnASharedClock) {
  MpiRun run = run_waits();
  expect_waits(run);
  Profile p = read(run);
  EXPECT_EQ(p.get("wait_clock"), "shared time-stamp counter");

  std::string db_path = run.dir.file("idb.db");
  auto db = idb::store::open(db_path);
  idb::store::LoadOptions options;
  options.label = "waits";
  idb::store::load(*db, p, options);
  EXPECT_EQ(idb::store::read_run(*db, "waits").cfhs.at(0).nodes.size(), p.cfhs.at(0).nodes.size());
  // Rank 0's late senders: its MPI_Recv (scenario 11), its MPI_Wait (20) and its
  // MPI_Waitall (18), the only calls of the run that complete receives on rank 0.
  idb::store::QueryResult r = idb::store::query(
      *db, "SELECT description, seconds, instances, share FROM wait_states WHERE label = "
           "'waits' AND rank = 0 AND pattern = 'late sender' ORDER BY description");
  ASSERT_EQ(3u, r.rows.size());
  const std::pair<const char *, int> calls[] = {
      {"MPI_Recv", 11}, {"MPI_Wait", 20}, {"MPI_Waitall", 18}};
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(calls[k].first, r.rows[k][0].value_or(""));
    double want = expected(run).at({0, calls[k].second, IDB_WAIT_late_sender});
    EXPECT_LE(std::abs(std::stod(r.rows[k][1].value_or("0")) - want), 0.10 * want + 0.002);
    EXPECT_EQ("1", r.rows[k][2].value_or("")) << calls[k].first;
  }
  r = idb::store::query(*db, "SELECT count(*) FROM wait_states WHERE label = 'waits' AND "
                             "rank IS NULL AND pattern = 'wait at barrier'");
  EXPECT_EQ("1", r.rows.at(0).at(0).value_or(""));
  db.reset();

  idb::test::CommandResult report =
      idb::test::run_command(run.dir, {IDB_TEST_CLI, "report", "waits", "--db", db_path});
  ASSERT_EQ(0, report.status) << report.output;
  EXPECT_NE(report.output.find("wait states: "), std::string::npos) << report.output;
  EXPECT_NE(report.output.find("wait s"), std::string::npos) << report.output;
}

TEST(MpiWaits, KnownWaitsWithPingPongOffsets) {
  MpiRun run = run_waits({{"IDB_WAIT_CLOCK", "sync"}});
  expect_waits(run);
  EXPECT_EQ(read(run).get("wait_clock"), "synchronised by ping-pong");
}

// The summary mode: one CFH for every rank, whose COMM nodes carry the waits summed over
// the ranks and their spread (the ranks that reached the node, the least and most a rank
// waited and which rank), as each rank's own clock reads imply; through the database's
// wait_spread view too.
TEST(MpiWaits, TheSummaryModeKeepsTheSpreadOverTheRanks) {
  MpiRun run = run_waits({{"IDB_MPI_MODE", "summary"}});
  Profile p = read(run);
  std::map<Key, double> want = expected(run);
  ASSERT_EQ(p.get("mpi_mode"), "summary");
  int checked = 0;
  for (const idb::profile::Cfh &cfh : p.cfhs) {
    ASSERT_TRUE(cfh.summary);
    for (const idb::profile::Node &n : cfh.nodes)
      for (const idb::profile::Wait &w : n.waits) {
        int scenario = 0;
        for (std::uint32_t at = n.parent; at != idb::profile::kNoParent; at = cfh.nodes[at].parent)
          if (cfh.nodes[at].probe >= 11 && cfh.nodes[at].probe <= 20) {
            scenario = cfh.nodes[at].probe;
            break;
          }
        if (scenario == 0) continue; // the scenarios' own lining up
        std::string what =
            "probe " + std::to_string(scenario) + ", " + idb_wait_pattern_name(w.pattern);
        // Each node of a scenario is one MPI function, and no rank calls two functions
        // that wait in the same pattern there, so each rank's expected wait is this node's.
        double most = 0, second = 0, sum = 0;
        int worst = -1, waiting = 0;
        for (int rank = 0; rank < kRanks; ++rank) {
          auto it = want.find({rank, scenario, w.pattern});
          double e = it == want.end() ? 0.0 : it->second;
          sum += e;
          waiting += e > 0.002 ? 1 : 0;
          if (e > most) {
            second = most;
            most = e, worst = rank;
          } else if (e > second) {
            second = e;
          }
        }
        ASSERT_GT(w.ranks, 0u) << what << ": a summary wait without its spread";
        EXPECT_GE(int(w.ranks), waiting) << what;
        EXPECT_LE(int(w.ranks), kRanks) << what;
        EXPECT_LE(std::abs(w.seconds - sum), 0.10 * sum + 0.002 * kRanks) << what;
        EXPECT_NEAR(w.spread.mean * w.ranks, w.seconds, 1e-9 * w.seconds + 1e-12) << what;
        EXPECT_LE(std::abs(w.spread.max - most), 0.10 * most + 0.002) << what;
        EXPECT_LE(w.spread.min, w.spread.max) << what;
        if (most > second + 0.03) { // a clear worst rank
          EXPECT_EQ(worst, w.spread.rank_max) << what;
        }
        ++checked;
      }
  }
  EXPECT_GE(checked, 8) << "every scenario's waits are in the summary";

  auto db = idb::store::open(run.dir.file("idb.db"));
  idb::store::LoadOptions options;
  options.label = "summary";
  idb::store::load(*db, p, options);
  // Scenario 13: rank r reaches MPI_Allreduce 60 r ms late, so rank 0 waits most.
  idb::store::QueryResult r = idb::store::query(
      *db, "SELECT ranks, max, rank_of_max, basis, nodes FROM wait_spread WHERE label = "
           "'summary' AND description = 'MPI_Allreduce' AND pattern = 'wait at NxN' "
           "ORDER BY max DESC");
  ASSERT_FALSE(r.rows.empty());
  EXPECT_EQ("spread", r.rows[0][3].value_or(""));
  EXPECT_EQ("4", r.rows[0][0].value_or(""));
  EXPECT_EQ("0", r.rows[0][2].value_or(""));
  double rank0 = want.at({0, 13, IDB_WAIT_wait_nxn});
  EXPECT_LE(std::abs(std::stod(r.rows[0][1].value_or("0")) - rank0), 0.10 * rank0 + 0.002);
}

TEST(MpiWaits, OffRecordsNothing) {
  MpiRun run = run_waits({{"IDB_WAIT", "0"}});
  Profile p = read(run);
  EXPECT_EQ(p.get("wait"), "off");
  for (const idb::profile::Cfh &cfh : p.cfhs)
    for (const idb::profile::Node &n : cfh.nodes)
      EXPECT_TRUE(n.waits.empty());
}

// A stream the sender left unrecorded (its buffer full) while the receiver recorded it,
// beside the other direction on the same tag, which both recorded: both ranks leave both
// out (before, the receiver alone did, and its peer waited for ever in the replay).
TEST(MpiWaits, AStreamOnlyItsReceiverRecordedIsLeftOutOnBothSides) {
  MpiRun run = mpi_run(2, IDB_TEST_WAIT_UNANNOUNCED, {}, {{"IDB_WAIT_BUFFER", "480"}});
  ASSERT_TRUE(run.ok()) << run.output;
  Profile p = read(run);
  EXPECT_EQ(p.get("wait"), "on");
  EXPECT_GT(p.number("wait_dropped"), 0.0);
  // Rank 0's send and receive, rank 1's receive from rank 0: all left out.
  EXPECT_GE(p.number("wait_unreplayed"), 3.0);
}

// 512 bytes hold 10 events a rank: the first calls are replayed, the rest counted as
// dropped.
TEST(MpiWaits, ASmallBufferReportsItsCoverage) {
  MpiRun run = run_waits({{"IDB_WAIT_BUFFER", "512"}});
  Profile p = read(run);
  EXPECT_EQ(p.get("wait"), "on");
  EXPECT_EQ(p.number("wait_events"), 4 * 10.0);
  EXPECT_GT(p.number("wait_dropped"), 0.0);
}

} // namespace
