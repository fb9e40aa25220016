// What a rank that aborts loses (docs/mpi.md): in the per-rank mode, only its own file;
// in the full mode, nothing when it aborts after MPI_Finalize (the merge is done by then),
// and with IDB_MPI_SPILL=1 only its own data when it aborts before, while a run that ends
// well leaves the one merged file.
#include "mpi_launch.hpp"

#include "idb/profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

using idb::test::mpi_run;
using idb::test::MpiRun;

TEST(MpiAbort, InRankModeTheAbortingRankLosesOnlyItsOwnFile) {
  // The aborting rank waits for the others' files; the folder is only known inside
  // mpi_run, so the files are named through {dir}.
  MpiRun run =
      mpi_run(4, IDB_TEST_ABORT_RANK, {"before", "r-0.idbprof", "r-1.idbprof", "r-2.idbprof"},
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
  MpiRun run = mpi_run(4, IDB_TEST_ABORT_RANK, {"after", "profile.idbprof"});
  EXPECT_NE(run.status, 0) << "the job should fail: a rank aborted";
  auto r = idb::profile::read_profile(run.profile);
  ASSERT_TRUE(r.profile) << r.error << "\n" << run.output;
  EXPECT_EQ(r.profile->cfhs.size(), 4u);
}

TEST(MpiAbort, WithSpillsTheAbortingRankLosesOnlyItsOwnDataInFullMode) {
  MpiRun run = mpi_run(4, IDB_TEST_ABORT_RANK,
                       {"before", "profile.idbprof.rank0.idbprof", "profile.idbprof.rank1.idbprof",
                        "profile.idbprof.rank2.idbprof"},
                       {{"IDB_MPI_SPILL", "1"}});
  EXPECT_NE(run.status, 0) << "the job should fail: a rank aborted";
  for (int rank = 0; rank < 3; ++rank) {
    auto r = idb::profile::read_profile(run.profile + ".rank" + std::to_string(rank) + ".idbprof");
    ASSERT_TRUE(r.profile) << r.error << "\n" << run.output;
    EXPECT_EQ(r.profile->cfhs.at(0).rank, rank);
    EXPECT_EQ(r.profile->get("mpi_mode"), "rank");
  }
  EXPECT_FALSE(std::filesystem::exists(run.profile + ".rank3.idbprof"));
  EXPECT_FALSE(std::filesystem::exists(run.profile)); // the merge never completed
}

TEST(MpiAbort, WithSpillsARunThatEndsWellLeavesOnlyTheMergedProfile) {
  for (const char *mode : {"full", "summary"}) {
    MpiRun run =
        mpi_run(4, IDB_TEST_COMM_PATTERN, {"3"}, {{"IDB_MPI_SPILL", "1"}, {"IDB_MPI_MODE", mode}});
    ASSERT_TRUE(run.ok()) << run.output;
    std::vector<std::string> profiles;
    for (const auto &entry : std::filesystem::directory_iterator(run.dir.path()))
      if (entry.path().extension() == ".idbprof") profiles.push_back(entry.path().filename());
    EXPECT_EQ(profiles, std::vector<std::string>{"profile.idbprof"}) << mode;
  }
}

} // namespace
