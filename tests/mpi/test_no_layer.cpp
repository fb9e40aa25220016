// An MPI program that links the runtime but not libidb_mpi (the MPI layer is missing from
// its link line, as in a build that passes libmpi.so by full path), run under the real
// mpirun with IDB_OUT naming one file: every rank keeps its own profile instead of
// overwriting the others' (the launcher's rank variables tell the runtime it is one rank
// of several), rank 0 says so once, and `idb load --combine` stores the files as one run,
// or refuses them whole.
#include "mpi_launch.hpp"

#include "idb/profile.hpp"
#include "idb/store.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace idb::test {
namespace {

constexpr int kRanks = 4;

std::string rank_file(const MpiRun &run, int rank) {
  return run.profile + ".rank" + std::to_string(rank) + ".idbprof";
}

TEST(NoMpiLayer, EachRankKeepsItsOwnProfile) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_COMM_PATTERN_NO_LAYER, {"3"});
  ASSERT_TRUE(run.ok()) << run.output;
  EXPECT_FALSE(std::filesystem::exists(run.profile)) << "one file for every rank";
  for (int rank = 0; rank < kRanks; ++rank) {
    profile::ReadResult r = profile::read_profile(rank_file(run, rank));
    ASSERT_TRUE(r.profile) << r.error;
    EXPECT_EQ(r.profile->get("rank"), std::to_string(rank));
    EXPECT_EQ(r.profile->get("nprocs"), std::to_string(kRanks));
    ASSERT_FALSE(r.profile->cfhs.empty());
    EXPECT_EQ(r.profile->cfhs[0].rank, rank);
  }
  std::size_t said = 0;
  for (std::size_t at = 0;
       (at = run.output.find("each rank wrote its own", at)) != std::string::npos; ++at)
    ++said;
  EXPECT_EQ(said, 1u) << run.output; // rank 0, once
}

TEST(NoMpiLayer, LoadCombineStoresTheRanksAsOneRunOrNothing) {
  MpiRun run = mpi_run(kRanks, IDB_TEST_COMM_PATTERN_NO_LAYER, {"2"});
  ASSERT_TRUE(run.ok()) << run.output;
  std::vector<std::string> load{IDB_TEST_CLI, "load",    "--db", run.dir.file("runs.db"),
                                "--combine",  "--label", "ranks"};
  for (int rank = 0; rank < kRanks; ++rank)
    load.push_back(rank_file(run, rank));
  CommandResult r = run_command(run.dir, load);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("loaded 4 per-rank profiles as ranks"), std::string::npos) << r.output;
  auto db = store::open(run.dir.file("runs.db"));
  EXPECT_EQ(store::query(*db, "SELECT nprocs FROM runs WHERE label = 'ranks'").rows.at(0).at(0),
            "4");
  EXPECT_EQ(store::query(*db, "SELECT count(DISTINCT rank) FROM cfh_instances").rows.at(0).at(0),
            "4");

  // The same rank twice is not a run: refused whole.
  r = run_command(run.dir, {IDB_TEST_CLI, "load", "--db", run.dir.file("runs.db"), "--combine",
                            "--label", "twice", rank_file(run, 1), rank_file(run, 1)});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("cannot combine the files into one run"), std::string::npos) << r.output;
  EXPECT_TRUE(store::query(*db, "SELECT 1 FROM runs WHERE label = 'twice'").rows.empty());

  // A damaged rank file: nothing of the run is stored.
  std::ofstream(rank_file(run, 2), std::ios::binary | std::ios::trunc) << "not a profile";
  load[6] = "again";
  r = run_command(run.dir, load);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("nothing loaded"), std::string::npos) << r.output;
  EXPECT_TRUE(store::query(*db, "SELECT 1 FROM runs WHERE label = 'again'").rows.empty());
}

} // namespace
} // namespace idb::test
