// The PMPI layer under a real mpirun with four ranks: one profile holding every rank, COMM
// nodes with exact counts and bytes for the known patterns of comm_pattern.c (C) and
// collectives.cpp (C++) and every other wrapped function (more_calls.c), the rule that an
// instrumenter-placed COMM probe takes the bytes of the MPI call inside it, and the
// per-rank fallback mode.
#include "mpi_launch.hpp"
#include "mpi_profile.hpp"

#include "idb/profile.hpp"
#include "idb/profile_format.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using idb::profile::Profile;
using idb::test::mpi_run;
using idb::test::MpiRun;
using idb::test::node_at;
using idb::test::rank_cfh;

constexpr int kRanks = 4;
constexpr std::uint64_t kIterations = 10;

Profile read_ok(const std::string &path) {
  auto r = idb::profile::read_profile(path);
  EXPECT_TRUE(r.profile) << r.error;
  return r.profile ? *r.profile : Profile{};
}

struct Expect {
  const char *path;
  std::uint64_t count, sent, received;
};

// Checks count and bytes of the node at each path of `rank`'s CFH.
void expect_nodes(const Profile &p, int rank, std::initializer_list<Expect> expected) {
  const auto *cfh = rank_cfh(p, rank);
  ASSERT_NE(cfh, nullptr) << "no CFH of rank " << rank;
  for (const Expect &e : expected) {
    const auto *n = node_at(p, *cfh, e.path);
    ASSERT_NE(n, nullptr) << "rank " << rank << ": no node " << e.path;
    EXPECT_EQ(n->stats.count, e.count) << "rank " << rank << " " << e.path;
    EXPECT_EQ(n->stats.bytes_sent, e.sent) << "rank " << rank << " " << e.path;
    EXPECT_EQ(n->stats.bytes_recv, e.received) << "rank " << rank << " " << e.path;
  }
}

TEST(MpiProfile, OneProfileHoldsEveryRank) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_COMM_PATTERN, {"10"});
  ASSERT_TRUE(run.ok()) << run.output;
  Profile p = read_ok(run.profile);
  EXPECT_EQ(p.get("nprocs"), "4");
  EXPECT_EQ(p.get("mpi_mode"), "full");
  std::multiset<int> ranks;
  for (const auto &cfh : p.cfhs)
    ranks.insert(cfh.rank);
  EXPECT_EQ(ranks, (std::multiset<int>{0, 1, 2, 3}));
  const auto *sendrecv = p.probe(-1012); // docs/mpi.md lists the ids
  ASSERT_NE(sendrecv, nullptr);
  EXPECT_EQ(sendrecv->description, "MPI_Sendrecv");
  EXPECT_EQ(sendrecv->kind, 4);
}

TEST(MpiComm, CountsAndBytesOfTheCProgramAreExact) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_COMM_PATTERN, {"10"});
  ASSERT_TRUE(run.ok()) << run.output;
  Profile p = read_ok(run.profile);
  const std::uint64_t n = kIterations;
  for (int rank = 0; rank < kRanks; ++rank) {
    expect_nodes(p, rank,
                 {{"MPI_Init", 1, 0, 0},
                  {"MPI_Comm_dup", 1, 0, 0},
                  {"MPI_Barrier", 1, 0, 0},
                  {"MPI_Comm_free", 1, 0, 0},
                  {"step", n, 0, 0},
                  {"step;MPI_Sendrecv", n, 64 * n, 64 * n},
                  {"step;MPI_Irecv", n, 0, 0},
                  {"step;MPI_Isend", n, 64 * n, 0},
                  {"step;MPI_Waitall", n, 0, 64 * n},
                  {"step;MPI_Allreduce", n, 24 * n, 24 * n},
                  {"step;MPI_Bcast", n, rank == 0 ? 40 * n : 0, rank == 0 ? 0 : 40 * n},
                  {"step;MPI_Gather", n, 8 * n, rank == 0 ? 32 * n : 0},
                  {"step;compute", n, 0, 0}});
  }
}

TEST(MpiComm, AnEnclosingCommProbeTakesTheBytesAndNoNodeOpens) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_COMM_PATTERN, {"10"});
  ASSERT_TRUE(run.ok()) << run.output;
  Profile p = read_ok(run.profile);
  for (int rank = 0; rank < kRanks; ++rank) {
    expect_nodes(p, rank,
                 {{"step;halo allreduce", kIterations, 20 * kIterations, 20 * kIterations}});
    const auto *cfh = rank_cfh(p, rank);
    ASSERT_NE(cfh, nullptr);
    EXPECT_EQ(idb::test::child_count(p, *cfh, "step;halo allreduce"), 0);
  }
}

TEST(MpiComm, CountsAndBytesOfTheCxxProgramAreExact) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_COLLECTIVES, {"10"});
  ASSERT_TRUE(run.ok()) << run.output;
  Profile p = read_ok(run.profile);
  const std::uint64_t n = kIterations;
  for (int rank = 0; rank < kRanks; ++rank) {
    std::uint64_t r = std::uint64_t(rank);
    expect_nodes(p, rank,
                 {{"round;MPI_Alltoall", n, 32 * n, 32 * n},
                  {"round;MPI_Reduce", n, 32 * n, rank == 1 ? 32 * n : 0},
                  {"round;MPI_Scatter", n, rank == 0 ? 48 * n : 0, 12 * n},
                  {"round;MPI_Allgatherv", n, 4 * (r + 1) * n, 40 * n},
                  {"round;MPI_Scan", n, 8 * n, 8 * n},
                  {"round;MPI_Reduce_scatter_block", n, 32 * n, 8 * n},
                  {"round;MPI_Barrier", n, 0, 0}});
    if (rank % 2 == 0)
      expect_nodes(p, rank, {{"round;MPI_Send", n, 6 * n, 0}});
    else
      expect_nodes(p, rank, {{"round;MPI_Recv", n, 0, 6 * n}});
  }
}

TEST(MpiComm, CountsAndBytesOfEveryOtherWrappedCallAreExact) {
  constexpr std::uint64_t n = 3;
  MpiRun run = mpi_run(kRanks, IDB_TEST_MORE_CALLS, {std::to_string(n)});
  ASSERT_TRUE(run.ok()) << run.output;
  Profile p = read_ok(run.profile);
  for (int rank = 0; rank < kRanks; ++rank) {
    const std::uint64_t r1 = std::uint64_t(rank) + 1, root = rank == 0;
    expect_nodes(p, rank,
                 {{"sends;MPI_Ssend", n, 12 * n, 0},
                  {"sends;MPI_Bsend", n, 20 * n, 0},
                  {"sends;MPI_Recv", 2 * n, 0, 32 * n},
                  {"sends;MPI_Irecv", 4 * n, 0, 0},
                  {"sends;MPI_Rsend", n, 28 * n, 0},
                  {"sends;MPI_Wait", n, 0, 28 * n},
                  {"sends;MPI_Ibsend", n, 8 * n, 0},
                  {"sends;MPI_Issend", n, 8 * n, 0},
                  {"sends;MPI_Irsend", n, 8 * n, 0},
                  {"sends;MPI_Waitall", n, 0, 24 * n},
                  {"sends;MPI_Sendrecv_replace", n, 24 * n, 24 * n},
                  {"probes;MPI_Isend", 2 * n, 32 * n, 0},
                  {"probes;MPI_Probe", n, 0, 0},
                  {"probes;MPI_Recv", 2 * n, 0, 32 * n},
                  {"probes;MPI_Wait", 2 * n, 0, 0},
                  {"collectives;MPI_Gatherv", n, 4 * r1 * n, root * 40 * n},
                  {"collectives;MPI_Gather", n, 8 * n, root * 32 * n},
                  {"collectives;MPI_Scatterv", n, root * 40 * n, 4 * r1 * n},
                  {"collectives;MPI_Scatter", n, root * 32 * n, 8 * n},
                  {"collectives;MPI_Allgather", n, 12 * n, 48 * n},
                  {"collectives;MPI_Alltoallv", n, 40 * n, 16 * r1 * n},
                  {"collectives;MPI_Reduce_scatter", n, 40 * n, 4 * r1 * n},
                  {"collectives;MPI_Exscan", n, 16 * n, 16 * n},
                  {"collectives;MPI_Allreduce", n, 40 * n, 40 * n},
                  {"comms;MPI_Comm_split", n, 0, 0},
                  {"comms;MPI_Comm_create", n, 0, 0},
                  {"comms;MPI_Comm_split_type", n, 0, 0},
                  {"comms;MPI_Cart_create", n, 0, 0},
                  {"comms;MPI_Comm_free", 4 * n, 0, 0}});
    const auto *cfh = rank_cfh(p, rank);
    ASSERT_NE(cfh, nullptr);
    const auto *iprobe = node_at(p, *cfh, "probes;MPI_Iprobe");
    ASSERT_NE(iprobe, nullptr) << rank;
    EXPECT_GE(iprobe->stats.count, n) << "until it finds the message";
    EXPECT_EQ(iprobe->stats.bytes_recv, 0u);
  }
}

TEST(MpiFallback, RankModeWritesOneFilePerRank) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_COMM_PATTERN, {"10"},
                       {{"IDB_MPI_MODE", "rank"}, {"IDB_OUT", "{dir}/rank-%r.idbprof"}});
  ASSERT_TRUE(run.ok()) << run.output;
  for (int rank = 0; rank < kRanks; ++rank) {
    Profile p = read_ok(run.dir.file("rank-" + std::to_string(rank) + ".idbprof"));
    EXPECT_EQ(p.get("mpi_mode"), "rank");
    EXPECT_EQ(p.get("rank"), std::to_string(rank));
    EXPECT_EQ(p.get("nprocs"), "4");
    ASSERT_EQ(p.cfhs.size(), 1u);
    EXPECT_EQ(p.cfhs[0].rank, rank);
    expect_nodes(p, rank, {{"step;MPI_Sendrecv", kIterations, 64 * kIterations, 64 * kIterations}});
  }
}

TEST(MpiProfile, TenTimesTheIterationsGiveTheSameSize) {
  // "010" and "100": the same argument length, so only the metadata's numbers (times,
  // pid, clock rate) may differ in length; every other section must match to the byte.
  MpiRun shorter = mpi_run(kRanks, IDB_TEST_COMM_PATTERN, {"010"});
  MpiRun longer = mpi_run(kRanks, IDB_TEST_COMM_PATTERN, {"100"});
  ASSERT_TRUE(shorter.ok()) << shorter.output;
  ASSERT_TRUE(longer.ok()) << longer.output;
  auto a = idb::test::section_bytes(shorter.profile);
  auto b = idb::test::section_bytes(longer.profile);
  a.erase(1); // META
  b.erase(1);
  // The histograms hold the durations seen, within a bound the structure sets.
  ASSERT_GT(a[IDB_SECTION_HIST], 0u);
  EXPECT_LE(a[IDB_SECTION_HIST], idb::test::hist_bound(shorter.profile));
  EXPECT_LE(b[IDB_SECTION_HIST], idb::test::hist_bound(longer.profile));
  a.erase(IDB_SECTION_HIST);
  b.erase(IDB_SECTION_HIST);
  // So do the wait states: the patterns the calls happened to wait in.
  EXPECT_LE(a[IDB_SECTION_WAIT], idb::test::wait_bound(shorter.profile));
  EXPECT_LE(b[IDB_SECTION_WAIT], idb::test::wait_bound(longer.profile));
  a.erase(IDB_SECTION_WAIT);
  b.erase(IDB_SECTION_WAIT);
  EXPECT_EQ(a, b);
  EXPECT_EQ(read_ok(longer.profile).cfhs.size(), 4u);
}

} // namespace
