// `idb load` and `idb runs` run as subprocesses: loading real profiles with labels and
// attributes, listing them as a table, CSV (quoting) and JSON (parsed by python3), a
// truncated profile refused with its reason and the database untouched, and the usage
// errors (exit 2) and failures (exit 1, one line) beside the help (exit 0).
#include "store_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace idb::test {
namespace {

std::size_t line_count(const std::string &text) {
  return std::size_t(std::count(text.begin(), text.end(), '\n'));
}

class IdbLoad : public ::testing::Test {
protected:
  void SetUp() override { write_file(profile, generated_profile()); }

  TempDir dir;
  std::string profile = dir.file("run.idbprof"), db = dir.file("idb.db");
};

TEST_F(IdbLoad, LoadsWithLabelAndAttributesAndListsTheRun) {
  RunResult r = idb({"load", "--db", db, "--label", "smoke", "--attr", "mesh=256", "--attr",
                     "input=a=b", profile});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ("loaded " + profile + " as smoke (4 CFHs, 17 nodes) into " + db + "\n", r.out);
  EXPECT_EQ("", r.err) << "no progress line when stderr is not a terminal";
  auto database = store::open(db);
  EXPECT_EQ("256", scalar(*database, "SELECT value FROM run_attributes WHERE key = 'mesh'"));
  EXPECT_EQ("a=b", scalar(*database, "SELECT value FROM run_attributes WHERE key = 'input'"));
  r = idb({"runs", "--db", "sqlite:" + db});
  ASSERT_EQ(0, r.status) << r.err;
  ASSERT_EQ(3u, line_count(r.out)) << r.out;
  EXPECT_EQ(0u, r.out.find("label  program      nprocs  threads  start ")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("\nsmoke  profile_gen       1        3  20")) << r.out;
}

TEST_F(IdbLoad, ProgressOnRequestIsALinePerTenthWithoutATerminal) {
  RunResult r = idb({"load", "--db", db, "--progress", profile});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ("idb load: " + profile + " 0%\nidb load: " + profile + " 100%\n", r.err);
  r = idb({"load", "--db", db, "--label", "quiet", "--no-progress", profile});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ("", r.err);
}

TEST_F(IdbLoad, ProgressOnATerminalIsOneLineRewrittenThenCleared) {
  // script(1) runs the command on a pseudo-terminal and copies what it writes.
  RunResult r =
      run({"/usr/bin/script", "-qec",
           std::string(IDB_TEST_CLI) + " load --progress --db " + db + " " + profile, "/dev/null"});
  ASSERT_EQ(0, r.status) << r.err;
  std::string line = "\ridb load: " + profile + " 100%";
  EXPECT_NE(std::string::npos, r.out.find(line)) << r.out;
  EXPECT_NE(std::string::npos, r.out.find(line + "\r\033[Kloaded " + profile))
      << "cleared before the summary";
}

TEST_F(IdbLoad, CsvQuotesALabelWithACommaAndAQuote) {
  ASSERT_EQ(0, idb({"load", "--db", db, "--label", "a,\"b\"", profile}).status);
  RunResult r = idb({"runs", "--db", db, "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(0u, r.out.find("label,program,nprocs,threads,start,wall_s,attributes,nodes,mode\n"
                           "\"a,\"\"b\"\"\",profile_gen,1,3,20"))
      << r.out;
  EXPECT_EQ(",2,17,full\n", r.out.substr(r.out.size() - 11));
}

TEST_F(IdbLoad, JsonParsesAndKeepsTypes) {
  ASSERT_EQ(0, idb({"load", "--db", db, "--label", "it's; DROP TABLE runs; --", profile}).status);
  ASSERT_EQ(0, idb({"load", "--db", db, "--label", "tab\there \"q\" \\", profile}).status);
  RunResult r = idb({"runs", "--db", db, "--format", "json"});
  ASSERT_EQ(0, r.status) << r.err;
  write_file(dir.file("runs.json"), r.out);
  RunResult check = run(
      {"/usr/bin/env", "python3", "-c",
       "import json,sys; d=json.load(open(sys.argv[1])); "
       "assert [x['label'] for x in d] == [\"it's; DROP TABLE runs; --\", 'tab\\there \"q\" \\\\'],"
       " d; assert d[0]['nodes'] == 17 and d[0]['nprocs'] == 1 and d[0]['attributes'] == 2, d;"
       " assert isinstance(d[0]['wall_s'], float) and d[0]['program'] == 'profile_gen', d",
       dir.file("runs.json")});
  EXPECT_EQ(0, check.status) << check.err << r.out;
}

TEST_F(IdbLoad, SeveralFilesTakeNumberedLabels) {
  std::string second = dir.file("second.idbprof");
  write_file(second, generated_profile());
  RunResult r = idb({"load", "--db", db, "--label", "sweep", profile, second});
  ASSERT_EQ(0, r.status) << r.err;
  auto database = store::open(db);
  std::vector<store::RunInfo> list = store::runs(*database);
  ASSERT_EQ(2u, list.size());
  EXPECT_EQ("sweep-1", list[0].label);
  EXPECT_EQ("sweep-2", list[1].label);
}

TEST_F(IdbLoad, TruncatedProfileIsRefusedWithItsReasonAndTheDatabaseUntouched) {
  std::string truncated = dir.file("truncated.idbprof");
  write_file(truncated, generated_profile().substr(0, generated_profile().size() / 2));
  RunResult r = idb({"load", "--db", db, truncated});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(1u, line_count(r.err)) << r.err;
  EXPECT_EQ(0u, r.err.find("idb load: ")) << r.err;
  EXPECT_NE(std::string::npos, r.err.find("truncated")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db)) << "no database created for a refused profile";

  ASSERT_EQ(0, idb({"load", "--db", db, "--label", "good", profile}).status);
  FileState before = file_state(db);
  r = idb({"load", "--db", db, truncated});
  EXPECT_EQ(1, r.status);
  EXPECT_TRUE(before == file_state(db));
}

TEST_F(IdbLoad, DuplicateLabelFailsInOneLineAndGoodFilesStillLoad) {
  ASSERT_EQ(0, idb({"load", "--db", db, "--label", "x", profile}).status);
  FileState before = file_state(db);
  RunResult r = idb({"load", "--db", db, "--label", "x", profile});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb load: " + profile + ": a run labelled 'x' is already in " + db +
                ": choose another label\n",
            r.err);
  EXPECT_TRUE(before == file_state(db));
  r = idb({"load", "--db", db, dir.file("missing.idbprof"), profile});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(1u, line_count(r.err)) << r.err;
  EXPECT_EQ(1u, line_count(r.out)) << r.out;
}

TEST_F(IdbLoad, BadDatabaseUrlsFailInOneLine) {
  RunResult r = idb({"load", "--db", "mysql://h/db", profile});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb load: " + profile +
                ": unknown database URL scheme 'mysql': use a path, sqlite:PATH or sqlite://PATH\n",
            r.err);
  r = idb({"runs", "--db", "postgresql://u:secret@localhost/idb"});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(1u, line_count(r.err)) << r.err;
  EXPECT_EQ(0u, r.err.find("idb runs: cannot connect to PostgreSQL at localhost:")) << r.err;
  EXPECT_EQ(std::string::npos, r.err.find("secret"));
  r = idb({"runs", "--db", db});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb runs: no database at " + db + " (idb load creates one)\n", r.err);
}

TEST_F(IdbLoad, UsageErrorsExitTwoAndHelpExitsZero) {
  for (const std::vector<std::string> &args : {std::vector<std::string>{"load"},
                                               {"load", "--attr", "novalue", profile},
                                               {"load", "--attr", "=v", profile},
                                               {"load", "--bogus", profile},
                                               {"load", "--db"},
                                               {"load", "--label", "", profile},
                                               {"load", "--label", "-x", profile},
                                               {"runs", "--format", "xml"},
                                               {"runs", "extra"},
                                               {"runs", "--db"}}) {
    RunResult r = idb(args);
    EXPECT_EQ(2, r.status) << args.back();
    EXPECT_NE("", r.err) << args.back();
    EXPECT_EQ("", r.out) << args.back();
  }
  for (const char *command : {"load", "runs"}) {
    RunResult r = idb({command, "--help"});
    EXPECT_EQ(0, r.status);
    EXPECT_EQ(0u, r.out.find(std::string("usage: idb ") + command)) << r.out;
  }
  EXPECT_NE(std::string::npos, idb({"--help"}).out.find("  load PROFILE..."));
}

} // namespace
} // namespace idb::test
