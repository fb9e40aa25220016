// A database shared by a team: `idb load`s and read-only commands run as separate
// processes at the same time on one database, repeated; nothing fails for waiting, nothing
// is lost or stored twice, a same-label race ends in the usual message, and a load that
// waits longer than --wait allows fails with a sentence saying so and changes nothing.
// Compiled into both engines' test programs.
#include "store_support.hpp"
#include "test_database.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <thread>

namespace idb::test {
namespace {

// About 6,000 nodes: every load's transaction is long enough that eight of them and the
// readers overlap on two cores, short enough that the sanitized stage stays cheap.
constexpr int kOuter = 60, kInner = 100;
constexpr int kNodes = 2 + kOuter * (1 + kInner); // what bulk_profile_gen writes
constexpr int kRounds = 2; // one that races to create the database, one beside readers

class Concurrency : public ::testing::Test {
protected:
  void SetUp() override {
    RunResult r = run({IDB_TEST_BULK_GENERATOR, std::to_string(kOuter), std::to_string(kInner)},
                      {"IDB_OUT=" + profile});
    ASSERT_EQ(0, r.status) << r.err;
  }

  std::future<RunResult> load_async(const std::string &label, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"load", "--db", db->url(), "--label", label, "--no-progress"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(profile);
    return std::async(std::launch::async, [args] { return idb(args); });
  }

  // label → its node count, over every run.
  std::map<std::string, std::string> nodes_per_run() {
    auto opened = store::open(db->url(), {.read_only = true});
    store::QueryResult r = store::query(
        *opened, "SELECT r.label, count(*) FROM runs r JOIN cfh_instances h ON h.run_id = "
                 "r.run_id JOIN nodes n ON n.cfh_id = h.cfh_id GROUP BY r.label");
    std::map<std::string, std::string> counts;
    for (const auto &row : r.rows)
      counts[row[0].value_or("")] = row[1].value_or("");
    return counts;
  }

  TempDir dir;
  std::string profile = dir.file("bulk.idbprof");
  std::unique_ptr<TestDatabase> db = fresh_database();
};

TEST_F(Concurrency, EightLoadsAtOnceBesideQueriesRepeatedLoseNothing) {
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    std::vector<std::future<RunResult>> loads;
    loads.reserve(8);
    for (int k = 0; k < 8; ++k)
      loads.push_back(load_async("r" + std::to_string(round) + "-" + std::to_string(k)));
    // The first round races to create the database; later ones run beside readers.
    std::atomic<bool> loading{round > 0};
    std::vector<std::future<std::vector<RunResult>>> readers;
    for (int q = 0; loading && q < 2; ++q)
      readers.push_back(std::async(std::launch::async, [&, q] {
        std::vector<RunResult> results;
        while (loading)
          results.push_back(
              q == 0 ? idb({"runs", "--db", db->url(), "--format", "csv"})
                     : idb({"query", "--db", db->url(), "SELECT count(*) FROM node_stats"}));
        return results;
      }));
    for (std::future<RunResult> &f : loads) {
      RunResult r = f.get();
      EXPECT_EQ(0, r.status) << r.err;
      EXPECT_NE(std::string::npos, r.out.find("(1 CFHs, " + std::to_string(kNodes) + " nodes)"))
          << r.out;
    }
    loading = false;
    for (auto &f : readers)
      for (const RunResult &r : f.get())
        EXPECT_EQ(0, r.status) << r.err;
  }
  std::map<std::string, std::string> counts = nodes_per_run();
  EXPECT_EQ(8u * kRounds, counts.size());
  for (const auto &[label, nodes] : counts)
    EXPECT_EQ(std::to_string(kNodes), nodes) << label;
  auto opened = store::open(db->url(), {.read_only = true});
  EXPECT_EQ(std::to_string(8 * kRounds * kNodes),
            scalar(*opened, "SELECT count(*) FROM node_stats"));
}

TEST_F(Concurrency, ASameLabelRaceEndsInTheUsualMessage) {
  ASSERT_EQ(0, load_async("first").get().status); // the database exists
  std::vector<std::future<RunResult>> loads;
  loads.reserve(4);
  for (int k = 0; k < 4; ++k)
    loads.push_back(load_async("same"));
  int stored = 0;
  for (std::future<RunResult> &f : loads) {
    RunResult r = f.get();
    if (r.status == 0) {
      ++stored;
      continue;
    }
    EXPECT_EQ(1, r.status);
    EXPECT_NE(std::string::npos, r.err.find(": a run labelled 'same' is already in ")) << r.err;
    EXPECT_NE(std::string::npos, r.err.find("choose another label")) << r.err;
    EXPECT_EQ(std::string::npos, r.err.find("duplicate key")) << r.err;
  }
  EXPECT_EQ(1, stored);
  EXPECT_EQ(2u, nodes_per_run().size());
}

TEST_F(Concurrency, ALoadWaitsForAnotherWriterAsLongAsAllowed) {
  ASSERT_EQ(0, load_async("first").get().status);
  std::shared_ptr<void> lock = hold_write_lock(*db);
  // Readers go on while another process writes.
  RunResult listed = idb({"runs", "--db", db->url(), "--format", "csv"});
  EXPECT_EQ(0, listed.status) << listed.err;
  EXPECT_NE(std::string::npos, listed.out.find("\nfirst,")) << listed.out;
  // A load that may not wait long enough fails, saying why, and stores nothing.
  RunResult quick = load_async("quick", {"--wait", "0.5"}).get();
  EXPECT_EQ(1, quick.status);
  EXPECT_NE(std::string::npos,
            quick.err.find("past the time this command waits for it (--wait SECONDS sets it)"))
      << quick.err;
  // One that may wait longer goes on when the lock is released.
  std::future<RunResult> patient = load_async("patient", {"--wait", "120"});
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  lock.reset();
  RunResult r = patient.get();
  EXPECT_EQ(0, r.status) << r.err;
  std::map<std::string, std::string> counts = nodes_per_run();
  EXPECT_EQ(2u, counts.size());
  EXPECT_EQ(1u, counts.count("patient"));
}

TEST_F(Concurrency, ALoadCompletesWhileALongReadIsOpen) {
  ASSERT_EQ(0, load_async("first").get().status);
  std::shared_ptr<void> reading = hold_read(*db);
  // Neither waits for the other (SQLite's WAL mode): the load is stored before the read
  // ends, and the reader still sees the database as it was when it began.
  RunResult r = load_async("beside", {"--wait", "5"}).get();
  EXPECT_EQ(0, r.status) << r.err;
  reading.reset();
  EXPECT_EQ(1u, nodes_per_run().count("beside"));
}

} // namespace
} // namespace idb::test
