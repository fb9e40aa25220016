// What a rank that aborts loses (docs/mpi.md): in the per-rank mode, only its own file;
// in the full mode, nothing when it aborts after MPI_Finalize (the merge is done by then),
// and, with spilling on (the default at this size), only its own data when it dies
// before: the ranks the launcher ends with SIGTERM write theirs first, wherever they are
// (blocked in communication or computing), and a rank that calls MPI_Abort writes its
// own; none is written twice. A program with its own SIGTERM handler keeps it. A run that
// ends well leaves the one merged file.
#include "mpi_launch.hpp"
#include "mpi_profile.hpp"

#include "idb/profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

using idb::profile::Profile;
using idb::test::mpi_run;
using idb::test::MpiRun;
using idb::test::node_at;
using idb::test::rank_cfh;

// Open MPI's grace between SIGTERM and SIGKILL (1 s by default), generous for a loaded
// machine: the ranks write in milliseconds, but may wait long for a core.
const idb::test::Env kGrace = {{"OMPI_MCA_odls_base_sigkill_timeout", "3"}};

idb::test::Env with_grace(idb::test::Env env) {
  env.insert(env.end(), kGrace.begin(), kGrace.end());
  return env;
}

// abort_rank.c, whose last rank waits for `files` (named in `args`) before it aborts:
// they must come without its waiting out its 30 s.
MpiRun abort_rank(const std::vector<std::string> &args, const idb::test::Env &env = {}) {
  MpiRun run = mpi_run(4, IDB_TEST_ABORT_RANK, args, env);
  EXPECT_EQ(run.output.find("never appeared"), std::string::npos) << run.output;
  return run;
}

std::string spill_path(const MpiRun &run, int rank) {
  return run.profile + ".rank" + std::to_string(rank) + ".idbprof";
}

std::vector<std::string> profiles_in(const MpiRun &run) {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(run.dir.path()))
    if (entry.path().extension() == ".idbprof") names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// The count of the node at `path` of `rank`'s CFH, or -1 when there is no such node.
long long count_at(const Profile &p, int rank, const std::string &path) {
  const auto *cfh = rank_cfh(p, rank);
  const auto *node = cfh ? node_at(p, *cfh, path) : nullptr;
  return node ? (long long)node->stats.count : -1;
}

// abort_pattern.c: every rank's setup, exactly.
void expect_setup(const Profile &p, int rank) {
  EXPECT_EQ(count_at(p, rank, "MPI_Init"), 1) << "rank " << rank;
  EXPECT_EQ(count_at(p, rank, "setup"), 1) << "rank " << rank;
  EXPECT_EQ(count_at(p, rank, "setup;MPI_Barrier"), 10) << "rank " << rank;
}

// Ranks 0 and 1 were blocked in their MPI_Ssend, rank 3 inside "compute".
void expect_survivor(const Profile &p, int rank) {
  expect_setup(p, rank);
  if (rank == 3) {
    EXPECT_EQ(count_at(p, rank, "compute"), 1);
    EXPECT_EQ(count_at(p, rank, "compute;MPI_Send"), 1);
    EXPECT_GE(count_at(p, rank, "compute;step"), 1);
  } else {
    EXPECT_EQ(count_at(p, rank, "MPI_Ssend"), 1) << "rank " << rank;
  }
}

std::optional<Profile> read_spill(const MpiRun &run, int rank) {
  auto r = idb::profile::read_profile(spill_path(run, rank));
  EXPECT_TRUE(r.profile) << r.error << "\n" << run.output;
  return std::move(r.profile);
}

TEST(MpiAbort, InRankModeTheAbortingRankLosesOnlyItsOwnFile) {
  // The aborting rank waits for the others' files; the folder is only known inside
  // mpi_run, so the files are named through {dir}.
  MpiRun run = abort_rank({"before", "r-0.idbprof", "r-1.idbprof", "r-2.idbprof"},
                          {{"IDB_MPI_MODE", "rank"}, {"IDB_OUT", "{dir}/r-%r.idbprof"}});
  EXPECT_NE(run.status, 0) << "the job should fail: a rank aborted";
  for (int rank = 0; rank < 3; ++rank) {
    auto r = idb::profile::read_profile(run.dir.file("r-" + std::to_string(rank) + ".idbprof"));
    ASSERT_TRUE(r.profile) << r.error << "\n" << run.output;
    EXPECT_EQ(r.profile->cfhs.at(0).rank, rank);
  }
  EXPECT_FALSE(std::filesystem::exists(run.dir.file("r-3.idbprof")));
}

TEST(MpiAbort, InFullModeARankThatAbortsAfterFinalizeLosesNothing) {
  MpiRun run = abort_rank({"after", "profile.idbprof"});
  EXPECT_NE(run.status, 0) << "the job should fail: a rank aborted";
  auto r = idb::profile::read_profile(run.profile);
  ASSERT_TRUE(r.profile) << r.error << "\n" << run.output;
  EXPECT_EQ(r.profile->cfhs.size(), 4u);
}

TEST(MpiAbort, WithSpillsTheAbortingRankLosesOnlyItsOwnDataInFullMode) {
  MpiRun run = abort_rank({"before", "profile.idbprof.rank0.idbprof",
                           "profile.idbprof.rank1.idbprof", "profile.idbprof.rank2.idbprof"},
                          {{"IDB_MPI_SPILL", "1"}});
  EXPECT_NE(run.status, 0) << "the job should fail: a rank aborted";
  for (int rank = 0; rank < 3; ++rank) {
    auto r = idb::profile::read_profile(spill_path(run, rank));
    ASSERT_TRUE(r.profile) << r.error << "\n" << run.output;
    EXPECT_EQ(r.profile->cfhs.at(0).rank, rank);
    EXPECT_EQ(r.profile->get("mpi_mode"), "rank");
  }
  EXPECT_FALSE(std::filesystem::exists(spill_path(run, 3)));
  EXPECT_FALSE(std::filesystem::exists(run.profile)); // the merge never completed
}

// Ranks 0 to 2 wrote their spills in MPI_Finalize and wait in the merge when rank 3
// aborts; the launcher's SIGTERM finds them written and they are not written again.
TEST(MpiAbort, ARankInTheMergeIsNotWrittenTwiceOnSigterm) {
  MpiRun run = abort_rank({"before", "profile.idbprof.rank0.idbprof",
                           "profile.idbprof.rank1.idbprof", "profile.idbprof.rank2.idbprof"},
                          with_grace({{"IDB_VERBOSE", "1"}}));
  EXPECT_NE(run.status, 0) << run.output;
  for (int rank = 0; rank < 3; ++rank) {
    const std::string said = "rank " + std::to_string(rank) + "'s profile written to";
    std::size_t at = run.output.find(said);
    EXPECT_NE(at, std::string::npos) << run.output;
    EXPECT_EQ(run.output.find(said, at + 1), std::string::npos) << "written twice\n" << run.output;
    EXPECT_TRUE(read_spill(run, rank));
  }
}

TEST(MpiAbort, WithSpillsARunThatEndsWellLeavesOnlyTheMergedProfile) {
  for (const char *mode : {"full", "summary"}) {
    MpiRun run =
        mpi_run(4, IDB_TEST_COMM_PATTERN, {"3"}, {{"IDB_MPI_SPILL", "1"}, {"IDB_MPI_MODE", mode}});
    ASSERT_TRUE(run.ok()) << run.output;
    EXPECT_EQ(profiles_in(run), std::vector<std::string>{"profile.idbprof"}) << mode;
  }
}

TEST(MpiAbort, ARankThatDiesMidRunLosesOnlyItsOwnDataByDefault) {
  for (const char *mode : {"full", "summary"}) {
    MpiRun run =
        mpi_run(4, IDB_TEST_ABORT_PATTERN, {"abort"}, with_grace({{"IDB_MPI_MODE", mode}}));
    EXPECT_EQ(run.status, 128 + 6) << "mpirun reports the rank that died of SIGABRT\n"
                                   << run.output;
    for (int rank : {0, 1, 3}) {
      std::optional<Profile> p = read_spill(run, rank);
      ASSERT_TRUE(p) << mode;
      EXPECT_EQ(p->get("mpi_mode"), "rank");
      EXPECT_EQ(p->get("nprocs"), "4");
      expect_survivor(*p, rank);
    }
    EXPECT_FALSE(std::filesystem::exists(spill_path(run, 2))) << mode;
    EXPECT_FALSE(std::filesystem::exists(run.profile)) << mode;
  }
}

TEST(MpiAbort, ARankThatCallsMpiAbortKeepsItsOwnDataToo) {
  MpiRun run = mpi_run(4, IDB_TEST_ABORT_PATTERN, {"mpi_abort"}, kGrace);
  EXPECT_EQ(run.status, 3) << "MPI_Abort's error code\n" << run.output;
  for (int rank : {0, 1, 3}) {
    std::optional<Profile> p = read_spill(run, rank);
    ASSERT_TRUE(p);
    expect_survivor(*p, rank);
  }
  std::optional<Profile> aborted = read_spill(run, 2);
  ASSERT_TRUE(aborted);
  expect_setup(*aborted, 2);
  EXPECT_EQ(count_at(*aborted, 2, "MPI_Probe"), 2);
  EXPECT_EQ(count_at(*aborted, 2, "MPI_Recv"), 1);
}

TEST(MpiAbort, InRankModeRanksEndedBySigtermWriteTheirFiles) {
  MpiRun run = mpi_run(4, IDB_TEST_ABORT_PATTERN, {"abort"},
                       with_grace({{"IDB_MPI_MODE", "rank"}, {"IDB_OUT", "{dir}/r-%r.idbprof"}}));
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_EQ(profiles_in(run),
            (std::vector<std::string>{"r-0.idbprof", "r-1.idbprof", "r-3.idbprof"}))
      << run.output;
  for (int rank : {0, 1, 3}) {
    auto r = idb::profile::read_profile(run.dir.file("r-" + std::to_string(rank) + ".idbprof"));
    ASSERT_TRUE(r.profile) << r.error;
    expect_survivor(*r.profile, rank);
  }
}

TEST(MpiAbort, WithoutSpillsRanksEndedBySigtermWriteNothing) {
  MpiRun run = mpi_run(4, IDB_TEST_ABORT_PATTERN, {"abort"}, with_grace({{"IDB_MPI_SPILL", "0"}}));
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_EQ(profiles_in(run), std::vector<std::string>{}) << run.output;
}

TEST(MpiAbort, AProgramsOwnSigtermHandlerIsKept) {
  MpiRun run = mpi_run(4, IDB_TEST_ABORT_PATTERN, {"handler"}, kGrace); // markers in the run folder
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_EQ(run.output.find("handler replaced"), std::string::npos) << run.output;
  for (int rank : {0, 1, 3})
    EXPECT_TRUE(std::filesystem::exists(run.dir.file("handled." + std::to_string(rank))))
        << "rank " << rank << "'s own handler did not run\n"
        << run.output;
  EXPECT_EQ(profiles_in(run), std::vector<std::string>{}) << "the program's handler decides";
}

TEST(MpiAbort, AnInvalidSpillSettingIsReportedOnceAndReadAsAuto) {
  MpiRun run = mpi_run(4, IDB_TEST_COMM_PATTERN, {"2"}, {{"IDB_MPI_SPILL", "yes"}});
  ASSERT_TRUE(run.ok()) << run.output;
  const std::string warning = "ignoring IDB_MPI_SPILL=yes (expected auto, 0 or 1)";
  std::size_t at = run.output.find(warning);
  ASSERT_NE(at, std::string::npos) << run.output;
  EXPECT_EQ(run.output.find(warning, at + 1), std::string::npos) << "said more than once";
  EXPECT_EQ(profiles_in(run), std::vector<std::string>{"profile.idbprof"});
}

} // namespace
