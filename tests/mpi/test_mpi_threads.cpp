// The PMPI layer with MPI_THREAD_MULTIPLE: each thread's MPI calls are COMM nodes in that
// thread's own CFH, with its own bytes, on every rank of the merged profile.
#include "mpi_launch.hpp"
#include "mpi_profile.hpp"

#include "idb/profile.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

constexpr std::uint64_t kIterations = 20;

TEST(MpiThreads, EachThreadsCallsAreInItsOwnCfh) {
  idb::test::MpiRun run =
      idb::test::mpi_run(4, IDB_TEST_THREADS_COMM, {std::to_string(kIterations)});
  ASSERT_TRUE(run.ok()) << run.output;
  if (run.output.find("single") != std::string::npos)
    GTEST_SKIP() << "the MPI library does not provide MPI_THREAD_MULTIPLE";
  auto r = idb::profile::read_profile(run.profile);
  ASSERT_TRUE(r.profile) << r.error;
  const idb::profile::Profile &p = *r.profile;
  for (int rank = 0; rank < 4; ++rank) {
    std::multiset<std::uint64_t> sent;
    for (const auto &cfh : p.cfhs) {
      if (cfh.rank != rank) continue;
      const auto *n = idb::test::node_at(p, cfh, "worker;MPI_Sendrecv");
      if (!n) continue;
      EXPECT_EQ(n->stats.count, kIterations) << "rank " << rank << " " << cfh.name;
      EXPECT_EQ(n->stats.bytes_sent, n->stats.bytes_recv) << "rank " << rank;
      sent.insert(n->stats.bytes_sent);
    }
    EXPECT_EQ(sent, (std::multiset<std::uint64_t>{32 * kIterations, 64 * kIterations}))
        << "rank " << rank;
  }
}

} // namespace
