// Named CFHs entered under MPI (mpi_objects.c, real mpirun, 3 ranks): the MPI layer's
// COMM probes go to the CFH the rank has entered, and the ranks' CFHs of the same name
// merge at finalize as the threads' default CFHs do: kept per rank in `full` mode, one
// merged CFH per name in `summary` mode.
#include "files.hpp"

#include "idb/profile.hpp"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/wait.h>

namespace {

constexpr int kRanks = 3, kSteps = 5;

struct ObjectsRun {
  idb::test::TempDir dir;
  int status = -1;
  std::string output;
  idb::profile::ReadResult read;
};

ObjectsRun run_objects(const std::string &mode) {
  ObjectsRun run;
  std::string profile = run.dir.file("profile.idbprof"), log = run.dir.file("mpirun.log");
  // LeakSanitizer off: Open MPI's own allocations outlive MPI_Finalize.
  const std::string mpiexec = IDB_TEST_MPIEXEC, program = IDB_TEST_MPI_OBJECTS;
  std::string command = "cd '" + run.dir.path() +
                        "' && env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                        "ASAN_OPTIONS=detect_leaks=0 IDB_MPI_MODE=" +
                        mode + " IDB_OUT='" + profile + "' " + mpiexec + " -np " +
                        std::to_string(kRanks) + " --oversubscribe " + program + " " +
                        std::to_string(kSteps) + " >'" + log + "' 2>&1";
  int rc = std::system(command.c_str());
  run.status = rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  run.output = idb::test::read_file(log);
  run.read = idb::profile::read_profile(profile);
  return run;
}

const idb::profile::Cfh *cfh_of(const idb::profile::Profile &p, const std::string &name, int rank) {
  for (const auto &cfh : p.cfhs)
    if (cfh.name == name && cfh.rank == rank) return &cfh;
  return nullptr;
}

std::string tree(const idb::profile::Profile &p, const std::string &name, int rank) {
  const auto *cfh = cfh_of(p, name, rank);
  return cfh ? paths_text(p, *cfh) : "<no CFH " + name + " of rank " + std::to_string(rank) + ">";
}

std::string kicks(int count) {
  return "push " + std::to_string(kSteps) + "\npush;kick " + std::to_string(count) + "\n";
}

TEST(ContextMpi, FullModeKeepsEachRanksNamedCfhsWithTheirCommProbes) {
  ObjectsRun run = run_objects("full");
  ASSERT_EQ(0, run.status) << run.output;
  ASSERT_TRUE(run.read.profile) << run.read.error << "\n" << run.output;
  const auto &p = *run.read.profile;
  const std::string field =
      "solve " + std::to_string(kSteps) + "\nsolve;MPI_Allreduce " + std::to_string(kSteps) + "\n";
  for (int rank = 0; rank < kRanks; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    EXPECT_EQ(field, tree(p, "field", rank));
    EXPECT_EQ(kicks(kSteps * (rank + 1)), tree(p, "species", rank));
    EXPECT_EQ(std::string::npos, tree(p, "thread 0", rank).find("MPI_Allreduce"));
    const auto *f = cfh_of(p, "field", rank);
    ASSERT_TRUE(f);
    EXPECT_TRUE(f->named);
    EXPECT_EQ(0u, f->mismatches);
    EXPECT_EQ(8u * kSteps, f->nodes.back().stats.bytes_sent);
  }
}

TEST(ContextMpi, SummaryModeMergesTheRanksNamedCfhsByName) {
  ObjectsRun run = run_objects("summary");
  ASSERT_EQ(0, run.status) << run.output;
  ASSERT_TRUE(run.read.profile) << run.read.error << "\n" << run.output;
  const auto &p = *run.read.profile;
  int all = kSteps * kRanks;
  EXPECT_EQ("solve " + std::to_string(all) + "\nsolve;MPI_Allreduce " + std::to_string(all) + "\n",
            tree(p, "field", -1));
  EXPECT_EQ("push " + std::to_string(all) + "\npush;kick " +
                std::to_string(kSteps * kRanks * (kRanks + 1) / 2) + "\n",
            tree(p, "species", -1));
  const auto *species = cfh_of(p, "species", -1);
  ASSERT_TRUE(species);
  EXPECT_TRUE(species->summary);
  EXPECT_TRUE(species->named);
  ASSERT_EQ(species->nodes.size(), species->spread.size());
  const auto &kick = species->spread.back(); // push;kick, the last node
  EXPECT_EQ(std::uint32_t(kRanks), kick.ranks);
  EXPECT_EQ(double(kSteps), kick.count.min);
  EXPECT_EQ(double(kSteps * kRanks), kick.count.max);
  EXPECT_EQ(kRanks - 1, kick.count.rank_max);
  int named = 0;
  for (const auto &cfh : p.cfhs)
    named += cfh.named;
  EXPECT_EQ(2, named); // one per name, not one per rank
}

} // namespace
