// A [DBLIST] that mixes a run label in the experiment's SQLite database, a SQLite file
// holding one run, and a PostgreSQL database holding one run, on the throwaway cluster of
// tests/pg/pg_cluster.sh (a CTest fixture; IDB_EDF_PG_DIR names its folder). Each test
// works in a PostgreSQL schema of its own. The same profile stored in both engines must
// read back as the same numbers, bit for bit.
#include "edf_support.hpp"
#include "files.hpp"
#include "idb/edf_analysis.hpp"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <unistd.h>

#include <atomic>
#include <cstdlib>

namespace idb::edf {
namespace {

std::string cluster_file(const char *name) {
  const char *dir = std::getenv("IDB_EDF_PG_DIR");
  if (!dir) throw std::runtime_error("IDB_EDF_PG_DIR is not set: run through ctest");
  std::string text = test::read_file(std::string(dir) + "/" + name);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.pop_back();
  return text;
}

class EdfMixed : public ::testing::Test {
protected:
  test::TempDir dir;
  std::string base, schema, url;

  void SetUp() override {
    base = cluster_file("url");
    ::setenv("PGPASSWORD", cluster_file("password").c_str(), 1);
    static std::atomic<int> serial{0};
    schema = "edf" + std::to_string(::getpid()) + "_" + std::to_string(serial++);
    pqxx::connection c(base);
    pqxx::nontransaction(c).exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " +
                                 schema);
    url = base + "?options=-csearch_path%3D" + schema;
  }
  void TearDown() override {
    pqxx::connection c(base);
    pqxx::nontransaction(c).exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }
};

TEST_F(EdfMixed, LabelsFilesAndPostgresInOneList) {
  std::string db = dir.file("exp.db");
  test::load_as(db, test::simple_run(1.0, 2), "local");
  test::load_as(dir.file("file.db"), test::simple_run(1.5, 2), "in-a-file");
  test::load_as(url, test::simple_run(1.0, 2), "on-the-server");
  std::string text = "[PREAMBLE]\nMode COMPARE\nDatabase exp.db\n[DBLIST]\nlocal\nfile.db\n" + url +
                     "  the server\n";
  ParseResult p = parse(text, dir.file("e.edf"));
  ASSERT_TRUE(p.document) << p.error;
  Connections connections;
  std::vector<ResolvedEntry> r = resolve(
      p.experiment,
      {experiment_database(p.experiment, dir.file("e.edf"), ""), dir.path(), dir.file("e.edf")},
      connections);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].runs.at(0).label, "local");
  EXPECT_EQ(r[1].runs.at(0).label, "in-a-file");
  EXPECT_EQ(r[2].runs.at(0).label, "on-the-server");
  EXPECT_EQ(r[2].runs.at(0).location.find("password"), std::string::npos);
  RunData local = read_run_data(r[0].runs[0]);
  RunData server = read_run_data(r[2].runs[0]);
  ASSERT_EQ(local.probes.size(), server.probes.size());
  EXPECT_EQ(server.ranks, (std::vector<std::int32_t>{0, 1}));
  for (std::size_t i = 0; i < local.probes.size(); ++i)
    for (Metric v : {Metric::total, Metric::count, Metric::sdev, Metric::corrected})
      EXPECT_EQ(analysis::value(local.probes[i], v), analysis::value(server.probes[i], v));
  EXPECT_EQ(server.names, local.names);
  EXPECT_EQ(analysis::value(read_run_data(r[1].runs[0]).probes.at(2), Metric::total), 1.5);
}

// The experiment's database on the server: labels and patterns resolve there, and
// COMPARE runs over them with the same numbers as on SQLite.
TEST_F(EdfMixed, ExperimentDatabaseOnTheServer) {
  for (int i = 1; i <= 3; ++i) {
    test::load_as(url, test::simple_run(1.0 + 0.1 * i), "base-" + std::to_string(i));
    test::load_as(url, test::simple_run(2.0 + 0.1 * i), "opt-" + std::to_string(i));
  }
  std::string text = "[PREAMBLE]\nMode COMPARE\nDatabase " + url + "\n[DBLIST]\nbase-*\nopt-*\n";
  ParseResult p = parse(text, "e.edf");
  ASSERT_TRUE(p.document) << p.error;
  EXPECT_EQ(experiment_database(p.experiment, dir.file("e.edf"), ""), url);
  Connections connections;
  std::vector<EntryData> data =
      read_entries(resolve(p.experiment, {url, dir.path(), "e.edf"}, connections));
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[1].runs.size(), 3u);
  AnalysisOptions o;
  o.probe = "1";
  CompareResult r = compare(data, o);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_NEAR(*r.rows[0].cells[1].diff, 1.0, 1e-12);
  EXPECT_TRUE(r.rows[0].cells[1].significant);
  p = parse("[PREAMBLE]\nMode COMPARE\n[DBLIST]\nbase-9\n", "e.edf");
  try {
    resolve(p.experiment, {url, "", "e.edf"}, connections);
    FAIL() << "resolved an unknown label";
  } catch (const Error &e) {
    std::string message = e.what();
    EXPECT_EQ(
        message.rfind("e.edf:4:1: [DBLIST] entry 'base-9': no run labelled so in postgresql://", 0),
        0u)
        << message;
  }
}

TEST_F(EdfMixed, ServerEntryMustHoldOneRun) {
  test::load_as(url, test::simple_run(1.0), "a");
  test::load_as(url, test::simple_run(2.0), "b");
  ParseResult p = parse("[PREAMBLE]\nMode COMPARE\n[DBLIST]\n" + url + "\n", "e.edf");
  ASSERT_TRUE(p.document) << p.error;
  Connections connections;
  try {
    resolve(p.experiment, {"", "", "e.edf"}, connections);
    FAIL() << "resolved a database holding two runs";
  } catch (const Error &e) {
    std::string message = e.what();
    EXPECT_EQ(message.rfind("e.edf:4:1: [DBLIST] entry 'postgresql://", 0), 0u) << message;
    EXPECT_NE(message.find("holds 2 runs"), std::string::npos) << message;
  }
}

} // namespace
} // namespace idb::edf
