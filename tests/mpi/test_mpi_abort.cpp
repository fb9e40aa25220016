// What a rank that aborts loses (docs/mpi.md): in the per-rank mode, only its own file;
// in the full mode, nothing when it aborts after MPI_Finalize (the merge is done by then).
#include "mpi_launch.hpp"

#include "idb/profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

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

} // namespace
