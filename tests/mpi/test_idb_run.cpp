// `idb run` end to end: a four-rank MPI run stored as one run with its rank count,
// command and attributes; the imbalance query naming the deliberately slow rank, in full
// and in summary mode; per-rank profiles combined into one run; a program without mpirun;
// and the failures (usage, a program that cannot start, a database that cannot be
// written, a job in which a rank died) that must lose nothing more than they must.
#include "mpi_launch.hpp"

#include "idb/store.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using idb::test::CommandResult;
using idb::test::run_command;
using idb::test::TempDir;

constexpr int kSlowRank = 2;

CommandResult idb_run(const TempDir &dir, const std::vector<std::string> &options,
                      const std::vector<std::string> &program, const idb::test::Env &env = {}) {
  std::vector<std::string> argv{IDB_TEST_CLI, "run", "--db", dir.file("runs.db")};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.emplace_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  return run_command(dir, argv, env);
}

std::string cell(const TempDir &dir, const std::string &sql) {
  auto db = idb::store::open(dir.file("runs.db"));
  auto result = idb::store::query(*db, sql);
  if (result.rows.empty() || !result.rows[0][0]) return "<none>";
  return *result.rows[0][0];
}

TEST(IdbRun, StoresAnMpiRunWithRanksCommandAndAttributes) {
  TempDir dir;
  CommandResult r = idb_run(
      dir, {"-n", "4", "--mpirun-arg", "--oversubscribe", "--label", "four", "--attr", "mesh=12"},
      {IDB_TEST_COMM_PATTERN, "10"});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("stored four (4 ranks, 4 CFHs"), std::string::npos) << r.output;
  EXPECT_EQ(cell(dir, "SELECT nprocs FROM runs WHERE label = 'four'"), "4");
  EXPECT_EQ(cell(dir, "SELECT count(*) FROM cfh_instances"), "4");
  EXPECT_EQ(cell(dir, "SELECT value FROM run_attributes WHERE key = 'mesh'"), "12");
  std::string command = cell(dir, "SELECT value FROM run_attributes WHERE key = 'command'");
  EXPECT_EQ(command.rfind("mpirun -np 4 --oversubscribe ", 0), 0u) << command;
  EXPECT_NE(command.find("idb_mpi_comm_pattern 10"), std::string::npos) << command;
  // The probes with the most own time are named, as the stored run's flat profile lists
  // them first.
  std::size_t named = r.output.find("idb run: most own time, without the probes' cost (idb "
                                    "report four --flat --db " +
                                    dir.file("runs.db") + "):\n");
  ASSERT_NE(named, std::string::npos) << r.output;
  CommandResult flat = run_command(dir, {IDB_TEST_CLI, "report", "four", "--flat", "--db",
                                         dir.file("runs.db"), "--format", "csv", "--top", "1"});
  ASSERT_EQ(flat.status, 0) << flat.output;
  std::istringstream rows(flat.output);
  std::string header, first;
  std::getline(rows, header);
  std::getline(rows, first);
  std::string probe = first.substr(first.find(',') + 1);
  probe = probe.substr(0, probe.find(','));
  ASSERT_FALSE(probe.empty()) << flat.output;
  std::size_t line_end = r.output.find('\n', r.output.find('\n', named) + 1);
  EXPECT_NE(r.output.substr(named, line_end - named).find("%  " + probe), std::string::npos)
      << r.output << "\nthe flat profile's first probe: " << probe;
}

// The `imbalance` query's row of `probe` in run `label`, by column name, through the CLI
// as a user runs it (CSV); empty when the query fails or has no such row.
std::map<std::string, std::string> imbalance_row(const TempDir &dir, const std::string &label,
                                                 const std::string &probe) {
  CommandResult q =
      run_command(dir, {IDB_TEST_CLI, "query", "imbalance", "--db", dir.file("runs.db"), "--param",
                        "run=" + label, "--format", "csv"});
  EXPECT_EQ(q.status, 0) << q.output;
  std::istringstream lines(q.output);
  std::vector<std::string> header;
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');)
      cells.push_back(cell);
    if (header.empty()) {
      header = cells;
    } else if (!cells.empty() && cells[0] == probe && cells.size() <= header.size()) {
      std::map<std::string, std::string> row;
      for (std::size_t i = 0; i < cells.size(); ++i)
        row[header[i]] = cells[i];
      return row;
    }
  }
  ADD_FAILURE() << "no row of probe " << probe << " in\n" << q.output;
  return {};
}

// LOOP probe 3 "compute", where kSlowRank spins five times longer, has one node per rank
// (under "step"), so both bases answer it exactly.
TEST(IdbRun, TheImbalanceQueryNamesTheSlowRank) {
  TempDir dir;
  CommandResult r = idb_run(dir, {"-n", "4", "--mpirun-arg", "--oversubscribe", "--label", "imb"},
                            {IDB_TEST_COMM_PATTERN, "20", std::to_string(kSlowRank)});
  ASSERT_EQ(r.status, 0) << r.output;
  auto row = imbalance_row(dir, "imb", "3");
  EXPECT_EQ(row["description"], "compute");
  EXPECT_EQ(row["rank_of_max"], std::to_string(kSlowRank));
  EXPECT_EQ(row["basis"], "ranks");
  EXPECT_EQ(row["ranks"], "4");
  EXPECT_GT(std::stod(row["imbalance"]), 1.2);
}

TEST(IdbRun, TheImbalanceQueryNamesTheSlowRankOfASummaryRun) {
  TempDir dir;
  CommandResult r = idb_run(dir, {"-n", "4", "--mpirun-arg", "--oversubscribe", "--label", "imb"},
                            {IDB_TEST_COMM_PATTERN, "20", std::to_string(kSlowRank)},
                            {{"IDB_MPI_MODE", "summary"}});
  ASSERT_EQ(r.status, 0) << r.output;
  ASSERT_EQ(cell(dir, "SELECT profile_mode FROM runs"), "summary");
  auto row = imbalance_row(dir, "imb", "3");
  EXPECT_EQ(row["description"], "compute");
  EXPECT_EQ(row["rank_of_max"], std::to_string(kSlowRank));
  EXPECT_EQ(row["basis"], "spread");
  EXPECT_EQ(row["nodes"], "1");
  EXPECT_EQ(row["ranks"], "4");
  EXPECT_EQ(row["ranks_reached"], "4");
  EXPECT_GT(std::stod(row["imbalance"]), 1.2);
  // The view answers the same.
  EXPECT_EQ(cell(dir, "SELECT rank_of_max || ' ' || basis FROM probe_imbalance WHERE "
                      "probe_id = 3"),
            std::to_string(kSlowRank) + " spread");
}

TEST(IdbRun, PerRankProfilesBecomeOneRun) {
  TempDir dir;
  CommandResult r = idb_run(dir, {"-n", "4", "--mpirun-arg", "--oversubscribe", "--label", "pr"},
                            {IDB_TEST_COMM_PATTERN, "5"}, {{"IDB_MPI_MODE", "rank"}});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(cell(dir, "SELECT nprocs FROM runs WHERE label = 'pr'"), "4");
  EXPECT_EQ(cell(dir, "SELECT count(DISTINCT rank) FROM cfh_instances"), "4");
}

TEST(IdbRun, RunsAProgramWithoutMpirun) {
  TempDir dir;
  CommandResult r = idb_run(dir, {"--label", "alone"}, {IDB_TEST_COMM_PATTERN, "3"});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(cell(dir, "SELECT nprocs FROM runs WHERE label = 'alone'"), "1");
}

TEST(IdbRun, UsageErrorsExitWithTwo) {
  TempDir dir;
  EXPECT_EQ(run_command(dir, {IDB_TEST_CLI, "run"}).status, 2);
  EXPECT_EQ(run_command(dir, {IDB_TEST_CLI, "run", "-n", "zero", "--", "true"}).status, 2);
  EXPECT_EQ(run_command(dir, {IDB_TEST_CLI, "run", "--attr", "novalue", "--", "true"}).status, 2);
  CommandResult r = run_command(dir, {IDB_TEST_CLI, "run", "--bogus", "--", "true"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("unknown option --bogus"), std::string::npos) << r.output;
}

TEST(IdbRun, AProgramThatCannotStartIsReported) {
  TempDir dir;
  CommandResult r = idb_run(dir, {}, {dir.file("no-such-program")});
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.output.find("cannot start"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.file("runs.db")));
}

TEST(IdbRun, AProfileThatCannotBeStoredIsKept) {
  TempDir dir;
  std::filesystem::create_directory(dir.file("runs.db")); // a folder: not a database
  CommandResult r = idb_run(dir, {"--label", "kept"}, {IDB_TEST_COMM_PATTERN, "2"});
  EXPECT_EQ(r.status, 1) << r.output;
  std::size_t at = r.output.find("the profile is kept in ");
  ASSERT_NE(at, std::string::npos) << r.output;
  std::string folder = r.output.substr(at + 23, r.output.find('\n', at) - at - 23);
  bool found = false;
  for (const auto &entry : std::filesystem::directory_iterator(folder))
    found = found || entry.path().extension() == ".idbprof";
  EXPECT_TRUE(found) << folder;
  std::filesystem::remove_all(folder);
}

} // namespace

namespace {

// A summary-mode run is stored as one CFH per thread for all ranks (rank -1), its mode
// recorded, every node's cross-rank spread in node_spread.
TEST(IdbRun, ASummaryProfileIsStoredWithItsSpread) {
  TempDir dir;
  CommandResult r = idb_run(dir, {"-n", "4", "--mpirun-arg", "--oversubscribe", "--label", "sum"},
                            {IDB_TEST_COMM_PATTERN, "3"}, {{"IDB_MPI_MODE", "summary"}});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(cell(dir, "SELECT nprocs FROM runs WHERE label = 'sum'"), "4");
  EXPECT_EQ(cell(dir, "SELECT profile_mode FROM runs WHERE label = 'sum'"), "summary");
  EXPECT_EQ(cell(dir, "SELECT min(rank) || ' ' || max(rank) || ' ' || min(summary) FROM "
                      "cfh_instances"),
            "-1 -1 1");
  EXPECT_EQ(cell(dir, "SELECT count(*) FROM node_spread WHERE quantity = 'total' AND ranks = 4 "
                      "AND node = 0"),
            cell(dir, "SELECT count(*) FROM cfh_instances"))
      << "every rank reached every root";
  EXPECT_EQ(cell(dir, "SELECT count(*) / 5 FROM node_spread"),
            cell(dir, "SELECT count(*) FROM nodes"));
}

} // namespace

namespace {

using idb::test::mpi_run;
using idb::test::MpiRun;

// Rank 2 of abort_pattern dies mid-run (test_mpi_abort.cpp): the other ranks' profiles are
// stored as one run that names the missing rank and keeps the program's exit status.
TEST(IdbRun, AJobWithADeadRankIsStoredWithoutItAndSaysSo) {
  TempDir dir;
  CommandResult r =
      idb_run(dir, {"-n", "4", "--mpirun-arg", "--oversubscribe", "--label", "died"},
              {IDB_TEST_ABORT_PATTERN, "abort"}, {{"OMPI_MCA_odls_base_sigkill_timeout", "3"}});
  EXPECT_EQ(r.status, 128 + 6) << r.output;
  EXPECT_NE(r.output.find("stored died (4 ranks, 3 CFHs"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the run is incomplete: rank 2 left no profile"), std::string::npos)
      << r.output;
  EXPECT_EQ(cell(dir, "SELECT nprocs FROM runs WHERE label = 'died'"), "4");
  EXPECT_EQ(cell(dir, "SELECT group_concat(rank, ',') FROM (SELECT rank FROM cfh_instances "
                      "ORDER BY rank)"),
            "0,1,3");
  EXPECT_EQ(cell(dir, "SELECT value FROM run_attributes WHERE key = 'missing_ranks'"), "2");
  EXPECT_EQ(cell(dir, "SELECT value FROM run_attributes WHERE key = 'exit_status'"), "134");
}

// A merged profile wins over per-rank files left beside it (a rank killed after its spill
// but before the merge's end removed it): the run is the merged one, complete.
TEST(IdbRun, AMergedProfileWinsOverSpillsBesideIt) {
  TempDir dir;
  MpiRun merged = mpi_run(4, IDB_TEST_COMM_PATTERN, {"2"});
  ASSERT_TRUE(merged.ok()) << merged.output;
  MpiRun ranks = mpi_run(4, IDB_TEST_COMM_PATTERN, {"2"},
                         {{"IDB_MPI_MODE", "rank"}, {"IDB_OUT", "{dir}/r-%r.idbprof"}});
  ASSERT_TRUE(ranks.ok()) << ranks.output;
  CommandResult r = idb_run(
      dir, {"--label", "both"},
      {"sh", "-c", "cp \"$0\" \"$1\" \"$IDB_OUT\"", merged.profile, ranks.dir.file("r-1.idbprof")});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("1 per-rank profile(s) beside it ignored"), std::string::npos)
      << r.output;
  EXPECT_EQ(cell(dir, "SELECT count(*) FROM cfh_instances"), "4");
  EXPECT_EQ(cell(dir, "SELECT count(*) FROM run_attributes WHERE key = 'missing_ranks'"), "0");
}

} // namespace
