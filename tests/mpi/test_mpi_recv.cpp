// Received bytes of non-blocking receives under a real mpirun with four ranks
// (recv_sizes.c): every receive is posted for 100 ints and gets 10, and the bytes must be
// the 40 that arrived, counted by the wait or test that completed the receive (each of
// the eight kinds, with and without the caller's statuses), never the 400 posted; a
// persistent receive counts each of its completions and a persistent send each of its
// starts (MPI_Start, MPI_Startall); a cancelled receive and one released with
// MPI_Request_free count nothing; 48 receives in flight at once all count; and the
// program's own statuses stay right.
#include "mpi_launch.hpp"
#include "mpi_profile.hpp"

#include "idb/profile.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

constexpr int kRanks = 4;
constexpr std::uint64_t kIterations = 5, kArrived = 40;

TEST(MpiRecv, NonBlockingReceivesCountWhatArrivedAtCompletion) {
  auto run = idb::test::mpi_run(kRanks, IDB_TEST_RECV_SIZES, {std::to_string(kIterations)});
  ASSERT_TRUE(run.ok()) << "a status the program checked was wrong, or the run failed\n"
                        << run.output;
  auto read = idb::profile::read_profile(run.profile);
  ASSERT_TRUE(read.profile) << read.error;
  const idb::profile::Profile &p = *read.profile;
  struct Expect {
    const char *path;
    std::uint64_t received; // per iteration
  };
  const Expect expected[] = {
      {"by_wait;MPI_Wait", kArrived},         {"by_wait;MPI_Irecv", 0},
      {"by_waitall;MPI_Waitall", kArrived},   {"by_waitall;MPI_Irecv", 0},
      {"by_waitany;MPI_Waitany", kArrived},   {"by_waitsome;MPI_Waitsome", kArrived},
      {"by_test;MPI_Test", kArrived},         {"by_test;MPI_Wait", 0},
      {"by_testall;MPI_Testall", kArrived},   {"by_testany;MPI_Testany", kArrived},
      {"by_testsome;MPI_Testsome", kArrived}, {"by_persistent;MPI_Wait", 3 * kArrived},
      {"by_cancel_and_free;MPI_Wait", 0},     {"by_cancel_and_free;MPI_Irecv", 0},
      {"by_cancel_and_free;MPI_Send", 0},     {"by_waitsome;MPI_Isend", 0},
  };
  for (int rank = 0; rank < kRanks; ++rank) {
    const auto *cfh = idb::test::rank_cfh(p, rank);
    ASSERT_NE(cfh, nullptr) << rank;
    for (const Expect &e : expected) {
      const auto *n = idb::test::node_at(p, *cfh, e.path);
      ASSERT_NE(n, nullptr) << "rank " << rank << ": no node " << e.path;
      EXPECT_EQ(n->stats.bytes_recv, e.received * kIterations) << "rank " << rank << " " << e.path;
    }
    const auto *sent = idb::test::node_at(p, *cfh, "by_waitsome;MPI_Isend");
    ASSERT_NE(sent, nullptr);
    EXPECT_EQ(sent->stats.bytes_sent, kArrived * kIterations) << "sends are unchanged";
    // The persistent send counts its bytes at each start: twice by MPI_Startall, once by
    // MPI_Start (which also started the receive: no bytes for that).
    const auto *startall = idb::test::node_at(p, *cfh, "by_persistent;MPI_Startall");
    const auto *start = idb::test::node_at(p, *cfh, "by_persistent;MPI_Start");
    ASSERT_TRUE(startall && start) << rank;
    EXPECT_EQ(startall->stats.count, 2 * kIterations);
    EXPECT_EQ(startall->stats.bytes_sent, 2 * kArrived * kIterations);
    EXPECT_EQ(start->stats.count, 2 * kIterations);
    EXPECT_EQ(start->stats.bytes_sent, kArrived * kIterations);
    EXPECT_EQ(start->stats.bytes_recv + startall->stats.bytes_recv, 0u);
    const auto *wait = idb::test::node_at(p, *cfh, "by_wait;MPI_Wait");
    EXPECT_EQ(wait->stats.count, 2 * kIterations) << "a receive's wait and a send's";
  }
}

} // namespace
