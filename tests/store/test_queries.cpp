// The canned queries of queries/ on SQLite: each one's answer on a known dataset checked
// against values computed in C++ (query_checks.hpp), every one run through the catalogue
// the CLI embeds, the portable imbalance query against the SQLite-only view it mirrors,
// and `idb query` / `idb export` run as programs: canned names, --list, parameters,
// formats, --output, and the usage errors.
#include "query_checks.hpp"

#include <gtest/gtest.h>

namespace idb::test {
namespace {

class Queries : public ::testing::Test {
protected:
  void SetUp() override {
    profile = queries::dataset();
    db = store::open(dir.file("idb.db"));
    queries::load_dataset(*db, profile);
  }
  TempDir dir;
  profile::Profile profile;
  std::unique_ptr<store::Database> db;
};

TEST_F(Queries, EveryCannedQueryRuns) {
  queries::check_every_query_runs(*db);
}
TEST_F(Queries, HottestProcedures) {
  queries::check_hottest_procedures(*db, profile);
}
TEST_F(Queries, CriticalPathFollowsTheHottestChild) {
  queries::check_critical_path(*db, profile);
}
TEST_F(Queries, ImbalanceFindsTheSlowRank) {
  queries::check_imbalance(*db, profile);
}
TEST_F(Queries, CpuWallGap) {
  queries::check_cpu_wall_gap(*db, profile);
}
TEST_F(Queries, NoiseShare) {
  queries::check_noise_share(*db, profile);
}
TEST_F(Queries, PruningCandidatesFindTheHotProbe) {
  queries::check_pruning_candidates(*db, profile);
}
TEST_F(Queries, ProbeAcrossRuns) {
  queries::check_probe_across_runs(*db, profile);
  queries::check_quantile(*db, profile);
  queries::check_wait_states(*db, profile);
  queries::check_dynamics(*db, profile);
}

TEST_F(Queries, ImbalanceEqualsTheSqliteView) {
  store::QueryResult portable = queries::canned(*db, "imbalance", {{"run", "syn"}});
  store::QueryResult view = store::query(
      *db, "SELECT i.probe_id, i.min, i.max, i.mean, i.imbalance, i.rank_of_max FROM "
           "probe_imbalance i JOIN runs r USING (run_id) WHERE r.label = 'syn' ORDER BY "
           "i.imbalance DESC, i.max DESC, i.probe_id");
  ASSERT_EQ(view.rows.size(), portable.rows.size());
  for (std::size_t row = 0; row < view.rows.size(); ++row)
    for (const char *c : {"probe_id", "min", "max", "mean", "imbalance", "rank_of_max"})
      EXPECT_EQ(view.rows[row][queries::column(view, c)],
                portable.rows[row][queries::column(portable, c)])
          << c << " row " << row;
}

TEST_F(Queries, CliRunsACannedQueryByName) {
  RunResult r = idb({"query", "hottest_procedures", "--db", dir.file("idb.db"), "--param",
                     "run=syn", "--param", "limit=3", "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(0u, r.out.find("probe_id,description,count,inclusive,share\n0,probe 0,")) << r.out;
  EXPECT_EQ(4, std::count(r.out.begin(), r.out.end(), '\n')) << r.out;
}

TEST_F(Queries, CliRunsSqlWithParameters) {
  RunResult r = idb({"query", "SELECT label FROM runs WHERE label = :l", "--db", dir.file("idb.db"),
                     "--param", "l=syn2", "--format", "json"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_NE(std::string::npos, r.out.find("\"label\": \"syn2\"")) << r.out;
}

TEST_F(Queries, CliListsTheCannedQueries) {
  RunResult r = idb({"query", "--list"});
  ASSERT_EQ(0, r.status) << r.err;
  for (const idb::queries::CannedQuery &q : idb::queries::canned_queries()) {
    EXPECT_NE(std::string::npos, r.out.find(q.name + "\n")) << q.name;
    EXPECT_NE(std::string::npos, r.out.find(q.answers)) << q.name;
  }
}

TEST_F(Queries, CliUnknownNameListsTheNames) {
  RunResult r = idb({"query", "hottest", "--db", dir.file("idb.db")});
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("idb query: no canned query named 'hottest'; the canned queries are: " +
                idb::queries::canned_query_names() + "\n",
            r.err);
}

TEST_F(Queries, CliBadParametersFail) {
  RunResult r = idb({"query", "imbalance", "--db", dir.file("idb.db"), "--param", "run"});
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("idb query: --param takes key=value, not 'run'\n", r.err);
  r = idb({"query", "imbalance", "--db", dir.file("idb.db")});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(1, std::count(r.err.begin(), r.err.end(), '\n')) << r.err;
  EXPECT_NE(std::string::npos, r.err.find(":run")) << r.err;
  r = idb(
      {"export", "imbalance", "--db", dir.file("idb.db"), "--param", "run=syn", "--param", "x=1"});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb export: the statement has no parameter named x\n", r.err);
  r = idb({"export", "imbalance", "--format", "table"});
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("idb export: --format takes csv, json, folded or hatchet\n", r.err);
}

// A canned query's parameters are typed in its header; a value of another type is refused
// before the database sees it (it would otherwise read as an empty answer).
TEST_F(Queries, CliRefusesAParameterOfTheWrongType) {
  auto type_name = [](idb::queries::ParamType t) {
    return t == idb::queries::ParamType::integer ? "integer"
           : t == idb::queries::ParamType::real  ? "real"
                                                 : "text";
  };
  for (const idb::queries::CannedQuery &q : idb::queries::canned_queries()) {
    EXPECT_FALSE(q.declared.empty()) << q.name;
    for (const idb::queries::Parameter &p : q.declared)
      EXPECT_NE(std::string::npos, q.parameters.find(":" + p.name + " " + type_name(p.type) + " ("))
          << q.name << ": :" << p.name << " declares no type";
  }
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"hottest_procedures", "--param", "run=syn", "--param", "limit='; DROP TABLE runs; --"},
       "parameter limit of hottest_procedures takes a whole number, not ''; DROP TABLE runs; --'"},
      {{"critical_path", "--param", "run=syn", "--param", "rank=1.5", "--param", "thread=0"},
       "parameter rank of critical_path takes a whole number, not '1.5'"},
      {{"cpu_wall_gap", "--param", "run=syn", "--param", "max_ratio=nan"},
       "parameter max_ratio of cpu_wall_gap takes a number, not 'nan'"},
      {{"pruning_candidates", "--param", "run=syn", "--param", "min_count=", "--param",
        "max_mean=1e-6"},
       "parameter min_count of pruning_candidates takes a whole number, not ''"}};
  for (const auto &[args, message] : cases)
    for (const char *command : {"query", "export"}) {
      std::vector<std::string> line = {command, "--db", dir.file("idb.db")};
      line.insert(line.end(), args.begin(), args.end());
      RunResult r = idb(line);
      EXPECT_EQ(2, r.status) << r.err;
      EXPECT_EQ(std::string("idb ") + command + ": " + message + "\n", r.err);
    }
  // Values of the right type run.
  RunResult r = idb({"query", "--db", dir.file("idb.db"), "critical_path", "--param", "run=syn",
                     "--param", "rank=+1", "--param", "thread=0"});
  EXPECT_EQ(0, r.status) << r.err;
}

// A typo in the run's label is an error, not an empty answer ("no imbalance").
TEST_F(Queries, CliRefusesARunThatIsNotStored) {
  for (const char *command : {"query", "export"}) {
    RunResult r = idb({command, "imbalance", "--db", dir.file("idb.db"), "--param", "run=nosuch"});
    EXPECT_EQ(1, r.status) << command;
    EXPECT_EQ("", r.out) << command;
    EXPECT_EQ(0u, r.err.find(std::string("idb ") + command + ": no run labelled 'nosuch' in "))
        << r.err;
  }
}

TEST_F(Queries, CliExportWritesCsvOrJsonToAFile) {
  std::vector<std::string> args = {"imbalance", "--db", dir.file("idb.db"), "--param", "run=syn"};
  std::vector<std::string> query = args, csv = args, json = args;
  query.insert(query.begin(), "query");
  query.insert(query.end(), {"--format", "csv"});
  csv.insert(csv.begin(), "export");
  csv.insert(csv.end(), {"--output", dir.file("out.csv")});
  json.insert(json.begin(), "export");
  json.insert(json.end(), {"--format", "json"});
  RunResult q = idb(query), c = idb(csv), j = idb(json);
  ASSERT_EQ(0, q.status) << q.err;
  ASSERT_EQ(0, c.status) << c.err;
  ASSERT_EQ(0, j.status) << j.err;
  EXPECT_EQ("", c.out);
  EXPECT_EQ(q.out, read_file(dir.file("out.csv")));
  EXPECT_EQ('[', j.out.at(0));
  EXPECT_NE(std::string::npos, j.out.find("\"rank_of_max\": 2")) << j.out;
}

TEST_F(Queries, CliHelpAndMissingArguments) {
  for (const char *command : {"query", "export"}) {
    RunResult r = idb({command, "--help"});
    EXPECT_EQ(0, r.status);
    EXPECT_EQ(0u, r.out.find(std::string("usage: idb ") + command)) << r.out;
    r = idb({command});
    EXPECT_EQ(2, r.status);
  }
}

} // namespace
} // namespace idb::test
