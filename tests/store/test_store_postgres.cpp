// The store on a real PostgreSQL server: the throwaway cluster of tests/pg/pg_cluster.sh
// (a CTest fixture), each test in a schema of its own (test_database_postgres.cpp). Checked:
// migrating an empty database, a real profile's rows against the Profile structs, a taken label and
// a failing load leaving every row count unchanged, a label with quotes and semicolons, refused
// connections and bad passwords reported in one line without the password, and `idb load` / `idb
// runs` with --db postgresql://.
#include "query_checks.hpp"
#include "store_support.hpp"
#include "synthetic.hpp"
#include "test_database.hpp"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

namespace idb::test {
namespace {

// A port on 127.0.0.1 that nothing listens on (bound, then released).
int closed_port() {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof a;
  if (::bind(s, reinterpret_cast<sockaddr *>(&a), size) != 0 ||
      ::getsockname(s, reinterpret_cast<sockaddr *>(&a), &size) != 0)
    throw std::runtime_error("cannot find a free port");
  ::close(s);
  return ntohs(a.sin_port);
}

class StorePostgres : public ::testing::Test {
protected:
  void SetUp() override {
    database = fresh_database();
    url = database->url();
  }

  // "table=rows" for every base table, to compare before and after a failed load.
  static std::string counts(store::Database &db) {
    std::string text;
    for (const char *table : {"runs", "run_attributes", "run_meta", "probe_sites", "cfh_instances",
                              "nodes", "node_stats"})
      text +=
          std::string(table) + "=" + scalar(db, std::string("SELECT count(*) FROM ") + table) + " ";
    return text;
  }

  std::unique_ptr<TestDatabase> database;
  std::string url;
};

TEST_F(StorePostgres, OpensAndMigratesAnEmptyDatabase) {
  auto db = store::open(url);
  EXPECT_EQ("postgresql", db->engine());
  EXPECT_EQ(url, db->location());
  EXPECT_EQ(7, db->version());
  EXPECT_EQ("0", scalar(*db, "SELECT count(*) FROM runs"));
  db = store::open(url); // again: nothing to migrate
  EXPECT_EQ(7, db->version());
  EXPECT_TRUE(store::runs(*db).empty());
}

TEST_F(StorePostgres, LoadsARealProfileRowForRow) {
  auto db = store::open(url);
  store::LoadOptions options;
  options.label = "gen";
  options.attributes = {{"mesh", "128x128"}};
  store::LoadResult r = store::load(*db, generated(), options);
  const profile::Profile &p = generated();
  std::size_t nodes = 0;
  for (const profile::Cfh &h : p.cfhs)
    nodes += h.nodes.size();
  EXPECT_EQ(nodes, r.nodes);
  EXPECT_EQ(std::to_string(nodes), scalar(*db, "SELECT count(*) FROM node_stats"));
  EXPECT_EQ(std::to_string(nodes), scalar(*db, "SELECT count(*) FROM nodes"));
  EXPECT_EQ(std::to_string(p.cfhs.size()), scalar(*db, "SELECT count(*) FROM cfh_instances"));
  EXPECT_EQ(std::to_string(p.probes.size()), scalar(*db, "SELECT count(*) FROM probe_sites"));
  EXPECT_EQ("128x128",
            scalar(*db, "SELECT value FROM run_attributes WHERE key = :k", {{"k", "mesh"}}));
  EXPECT_EQ(p.get("host"), scalar(*db, "SELECT host FROM runs WHERE label = 'gen'"));
  EXPECT_EQ(p.number("start_unix"),
            as_double(store::query(*db, "SELECT start_time FROM runs").rows[0][0]));
  // Every statistic to the last bit, in CFH and node order.
  store::QueryResult stats = store::query(
      *db, "SELECT s.total, s.min, s.max, s.m2, s.count, n.parent FROM node_stats s JOIN nodes n "
           "USING (cfh_id, node) ORDER BY s.cfh_id, s.node");
  ASSERT_EQ(nodes, stats.rows.size());
  std::size_t row = 0;
  for (const profile::Cfh &h : p.cfhs)
    for (const profile::Node &n : h.nodes) {
      const auto &cells = stats.rows[row++];
      EXPECT_EQ(n.stats.sum, as_double(cells[0]));
      EXPECT_EQ(n.stats.min, as_double(cells[1]));
      EXPECT_EQ(n.stats.max, as_double(cells[2]));
      EXPECT_EQ(n.stats.m2, as_double(cells[3]));
      EXPECT_EQ(std::to_string(n.stats.count), cells[4]);
      EXPECT_EQ(n.parent == profile::kNoParent ? store::Cell() : std::to_string(n.parent),
                cells[5]);
    }
  EXPECT_TRUE(stats.numeric[0] && stats.numeric[4]);
  std::vector<store::RunInfo> list = store::runs(*db);
  ASSERT_EQ(1u, list.size());
  EXPECT_EQ("gen", list[0].label);
  EXPECT_EQ(std::int64_t(nodes), list[0].nodes);
}

TEST_F(StorePostgres, TakenLabelIsRefusedByNameAndNothingChanges) {
  auto db = store::open(url);
  store::LoadOptions options;
  options.label = "first";
  store::load(*db, generated(), options);
  std::string before = counts(*db);
  try {
    store::load(*db, generated(), options);
    FAIL() << "a taken label was accepted";
  } catch (const store::Error &e) {
    EXPECT_EQ("a run labelled 'first' is already in " + url + ": choose another label",
              std::string(e.what()));
  }
  EXPECT_EQ(before, counts(*db));
}

TEST_F(StorePostgres, ThrowingProgressRollsTheWholeRunBack) {
  auto db = store::open(url);
  store::LoadOptions options;
  options.label = "first";
  store::load(*db, generated(), options);
  std::string before = counts(*db);
  options.label = "second";
  options.progress = [](std::size_t done, std::size_t) {
    if (done > 0) throw store::Error("stopped at " + std::to_string(done));
  };
  EXPECT_THROW(store::load(*db, synthetic_profile(4, 20000), options), store::Error);
  EXPECT_EQ(before, counts(*db));
  options.progress = nullptr; // the connection is still usable
  EXPECT_EQ(std::size_t(80000), store::load(*db, synthetic_profile(4, 20000), options).nodes);
}

TEST_F(StorePostgres, LabelWithQuotesAndSemicolonsIsStoredIntact) {
  auto db = store::open(url);
  const std::string label = "it's; DROP TABLE runs; -- \"q\" \\ $1 :x\ttab";
  store::LoadOptions options;
  options.label = label;
  options.attributes = {{"k;'", "v\n\"2\""}};
  store::load(*db, generated(), options);
  EXPECT_EQ(label, store::runs(*db).at(0).label);
  EXPECT_EQ(label, scalar(*db, "SELECT label FROM runs WHERE label = :l", {{"l", label}}));
  EXPECT_EQ("v\n\"2\"",
            scalar(*db, "SELECT value FROM run_attributes WHERE key = $k", {{"k", "k;'"}}));
}

TEST_F(StorePostgres, QueryBindsNamedParametersAndRefusesSecondStatements) {
  auto db = store::open(url);
  EXPECT_EQ("7|a:b", scalar(*db,
                            "SELECT (:n::int + @n::int + 1)::text || '|' || 'a:b' || "
                            "/* :no */ '' -- :nope\n",
                            {{"n", "3"}}));
  EXPECT_THROW(store::query(*db, "SELECT 1; SELECT 2"), store::Error);
  EXPECT_THROW(store::query(*db, "SELECT :a"), store::Error);
  EXPECT_THROW(store::query(*db, "SELECT 1", {{"unused", "1"}}), store::Error);
  try {
    store::query(*db, "SELECT nonsense FROM runs");
    FAIL();
  } catch (const store::Error &e) {
    EXPECT_EQ(std::string::npos, std::string(e.what()).find('\n')) << e.what();
    EXPECT_NE(std::string::npos, std::string(e.what()).find("nonsense")) << e.what();
  }
}

TEST_F(StorePostgres, LargeResultsAndDataChangingStatementsBothRead) {
  auto db = store::open(url), watcher = store::open(url);
  std::string pid = scalar(*db, "SELECT pg_backend_pid()");
  // More rows than one cursor fetch, with a comment before the SELECT, all in order; the
  // other connection sees the reading one fetching from its cursor meanwhile.
  std::int64_t expected = 1, seen = 0;
  std::vector<std::string> columns = store::query_rows(
      *db, "-- numbers\n SELECT n, n * 0.5 AS half FROM generate_series(1, 25001) AS n", {},
      [&](const store::Row &row) {
        EXPECT_EQ(expected++, row.integer(0));
        EXPECT_EQ(store::Row::Kind::real, row.kind(1)) << "numeric 0.5 * n";
        if (++seen == 15000) {
          EXPECT_EQ("FETCH FORWARD 10000 FROM idb_rows",
                    scalar(*watcher,
                           "SELECT query FROM pg_stat_activity WHERE pid = "
                           "CAST(:pid AS INTEGER)",
                           {{"pid", pid}}));
        }
      });
  EXPECT_EQ(25001, seen);
  EXPECT_EQ((std::vector<std::string>{"n", "half"}), columns);
  // A WITH that writes cannot be walked by a cursor; it runs as a plain statement.
  store::QueryResult r = store::query(
      *db, "WITH changed AS (UPDATE idb_schema SET version = version RETURNING version) "
           "SELECT version FROM changed");
  ASSERT_EQ(1u, r.rows.size());
  EXPECT_EQ(std::to_string(store::schema_version()), r.rows[0][0]);
  EXPECT_EQ("1", scalar(*db, "SELECT count(*) FROM idb_schema"));
}

TEST_F(StorePostgres, RefusedConnectionIsOneLineWithoutThePassword) {
  int port = closed_port();
  try {
    store::open("postgresql://idb_test:s3cretPW@127.0.0.1:" + std::to_string(port) + "/idb_test");
    FAIL() << "connected to a closed port";
  } catch (const store::Error &e) {
    std::string message = e.what();
    EXPECT_EQ(0u, message.find("cannot connect to PostgreSQL at 127.0.0.1:" + std::to_string(port) +
                               ": Connection refused"))
        << message;
    EXPECT_EQ(std::string::npos, message.find('\n')) << message;
    EXPECT_EQ(std::string::npos, message.find("s3cretPW")) << message;
  }
}

TEST_F(StorePostgres, WrongPasswordIsOneLineWithoutThePassword) {
  std::string bad = url;
  bad.replace(bad.find("idb_test@"), 9, "idb_test:wr0ngPW@");
  std::string password = std::getenv("PGPASSWORD");
  ::unsetenv("PGPASSWORD");
  try {
    store::open(bad);
    FAIL() << "a wrong password was accepted";
  } catch (const store::Error &e) {
    std::string message = e.what();
    EXPECT_EQ(0u, message.find("cannot connect to PostgreSQL at 127.0.0.1:")) << message;
    EXPECT_NE(std::string::npos, message.find("password authentication failed")) << message;
    EXPECT_EQ(std::string::npos, message.find("wr0ngPW")) << message;
    EXPECT_EQ(std::string::npos, message.find('\n')) << message;
  }
  ::setenv("PGPASSWORD", password.c_str(), 1);
}

TEST_F(StorePostgres, IdbLoadAndRunsThroughTheCommand) {
  TempDir dir;
  std::string profile = dir.file("run.idbprof");
  write_file(profile, generated_profile());
  RunResult r = idb({"load", "--db", url, "--label", "smoke", "--attr", "mesh=256", profile});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ("loaded " + profile + " as smoke (4 CFHs, 17 nodes) into " + url + "\n", r.out);
  r = idb({"load", "--db", url, "--label", "smoke", profile});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb load: " + profile + ": a run labelled 'smoke' is already in " + url +
                ": choose another label\n",
            r.err);
  r = idb({"runs", "--db", url, "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(0u, r.out.find("label,program,nprocs,threads,start,wall_s,attributes,nodes,mode\n"
                           "smoke,profile_gen,1,3,20"))
      << r.out;
  EXPECT_EQ(",2,17,full\n", r.out.substr(r.out.size() - 11)) << r.out;
}

// The canned queries of queries/ unchanged on PostgreSQL: the same dataset and the same
// expected answers as on SQLite (test_queries.cpp), and `idb query` by name.
TEST_F(StorePostgres, CannedQueriesAnswerAsOnSqlite) {
  auto db = store::open(url);
  profile::Profile p = queries::dataset();
  queries::load_dataset(*db, p);
  queries::check_every_query_runs(*db);
  queries::check_hottest_procedures(*db, p);
  queries::check_critical_path(*db, p);
  queries::check_imbalance(*db, p);
  queries::check_cpu_wall_gap(*db, p);
  queries::check_noise_share(*db, p);
  queries::check_pruning_candidates(*db, p);
  queries::check_probe_across_runs(*db, p);
  queries::check_quantile(*db, p);
  queries::check_wait_states(*db, p);
  queries::check_dynamics(*db, p);
  RunResult r = idb({"query", "critical_path", "--db", url, "--param", "run=syn", "--param",
                     "rank=2", "--param", "thread=0", "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(0u, r.out.find("cfh_id,depth,node,probe_id,description,count,inclusive,exclusive,"
                           "corrected,share_of_parent\n"))
      << r.out;
}

} // namespace
} // namespace idb::test
