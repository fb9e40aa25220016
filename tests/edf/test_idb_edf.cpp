// `idb edf` as a user runs it: the built command on real SQLite databases, each output
// format, the options, `idb edf new`, and one-line errors with non-zero exits. The SVG is
// rasterised with rsvg-convert to show that a renderer accepts it.
#include "edf_support.hpp"
#include "files.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sys/wait.h>

namespace idb::test {
namespace {

struct Result {
  int status = -1;
  std::string out, err;
};

std::string quoted(const std::string &word) {
  std::string q = "'";
  for (char c : word)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a command line of words through the shell, capturing both streams in `dir`.
Result shell(const TempDir &dir, const std::vector<std::string> &words) {
  std::string line;
  for (const std::string &w : words)
    line += quoted(w) + " ";
  line += ">" + quoted(dir.file("out.txt")) + " 2>" + quoted(dir.file("err.txt"));
  int status = std::system(line.c_str());
  Result r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(dir.file("out.txt"));
  r.err = read_file(dir.file("err.txt"));
  return r;
}

class IdbEdf : public ::testing::Test {
protected:
  TempDir dir;
  std::string db = dir.file("exp.db");

  void SetUp() override {
    load_as(db, simple_run(1.0, 2), "base-1");
    load_as(db, simple_run(1.2, 2), "base-2");
    load_as(db, simple_run(1.1, 2), "base-3");
    load_as(db, simple_run(2.0, 2), "opt-1");
    load_as(db, simple_run(2.2, 2), "opt-2");
    load_as(db, simple_run(2.1, 2), "opt-3");
    load_as(db, simple_run(2.0, 2), "single");
  }

  std::string edf(const std::string &mode, const std::string &dblist) {
    std::string path = dir.file(mode + ".edf");
    write_text(path, "[PREAMBLE]\nExperiment  test <&> run\nMode " + mode +
                         "\nDatabase exp.db\n[DBLIST]\n" + dblist);
    return path;
  }

  static void write_text(const std::string &path, const std::string &text) {
    FILE *f = std::fopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }

  Result idb(std::vector<std::string> args) {
    args.insert(args.begin(), {IDB_TEST_CLI, "edf"});
    return shell(dir, args);
  }
};

TEST_F(IdbEdf, CoalesceTable) {
  Result r = idb({edf("COALESCE", "base-*\n"), "--probe", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "probe  name     rank  runs  min   q1  median   q3  max       cv  outliers\n"
                   "-----  -------  ----  ----  ---  ---  ------  ---  ---  -------  --------\n"
                   "    1  probe 1   all     3    2  2.1     2.2  2.3  2.4  0.09091  \n");
}

TEST_F(IdbEdf, CoalesceCsvAndJsonHaveEveryColumn) {
  std::string file = edf("COALESCE", "base-*\n");
  Result csv = idb({file, "--probe", "probe 2", "--rank", "1", "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "probe,name,rank,runs,min,q1,median,q3,max,lower_whisker,upper_whisker,outliers,mean,"
            "sdev,cv,pooled_count,pooled_mean,pooled_sdev,pooled_min,pooled_max,pooled_p50,"
            "pooled_p90,pooled_p99");
  EXPECT_NE(csv.out.find("\n2,probe 2,1,3,0.5,0.525,0.55,0.575,0.6,0.5,0.6,,0.55,"),
            std::string::npos)
      << csv.out;
  Result json = idb({file, "--probe", "2", "--format", "json", "--value", "count"});
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find("\"probe\": 2, \"name\": \"probe 2\", \"rank\": \"all\", \"runs\": 3, "
                          "\"min\": 2,"),
            std::string::npos)
      << json.out;
}

TEST_F(IdbEdf, CompareTableAndLongForm) {
  std::string file = edf("COMPARE", "base-*\nopt-*\nsingle  one run\n");
  Result table = idb({file, "--probe", "1", "--rank", "0"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(
      table.out.find("probe  name     rank  base-*  opt-*  ratio            p  single  ratio  p"),
      std::string::npos)
      << table.out;
  EXPECT_NE(
      table.out.find("    1  probe 1     0     1.1    2.1  1.909  0.0002552 *       2  1.818"),
      std::string::npos)
      << table.out;
  Result csv = idb({file, "--probe", "1", "--rank", "0", "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("1,probe 1,0,single,1,2,0,0.8999999999999999,1.8181818181818181,,,,\n"),
            std::string::npos)
      << csv.out;
}

// p50 and p99 as the value: the runs with histograms give theirs (one activation per rank:
// exactly its duration), a run without has no value and is left out, not counted as 0;
// COALESCE pools the histograms of the runs it takes.
TEST_F(IdbEdf, QuantilesAsTheValue) {
  load_as(db, simple_run(1.0, 2, true), "hist-1");
  load_as(db, simple_run(3.0, 2, true), "hist-2");
  Result c = idb(
      {edf("COALESCE", "hist-*\nbase-1\n"), "--probe", "1", "--value", "p50", "--format", "csv"});
  ASSERT_EQ(c.status, 0) << c.err;
  std::string row = c.out.substr(c.out.find('\n') + 1);
  EXPECT_EQ(row.rfind("1,probe 1,all,2,1,1.5,2,2.5,3,1,3,,2,", 0), 0u) << c.out;
  // The pooled p50, p90 and p99 of {1, 1, 3, 3} s: the 2nd, 4th and 4th smallest.
  std::vector<double> pooled;
  for (std::size_t at = row.size() - 1, n = 0; n < 3; ++n) {
    std::size_t comma = row.rfind(',', at - 1);
    pooled.insert(pooled.begin(), std::stod(row.substr(comma + 1, at - comma)));
    at = comma;
  }
  EXPECT_NEAR(pooled[0], 1.0, 1.0 / 33);
  EXPECT_DOUBLE_EQ(pooled[1], 3.0); // the estimate, held within the pooled max
  EXPECT_DOUBLE_EQ(pooled[2], 3.0);

  Result t = idb({edf("COMPARE", "base-1\nhist-2\n"), "--probe", "2", "--rank", "1", "--value",
                  "p99", "--format", "csv"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("\n2,probe 2,1,base-1,0,,,,,,,,\n2,probe 2,1,hist-2,1,1.5,0,,,,,,\n"),
            std::string::npos)
      << t.out;
  // Pooled quantiles stay blank while a run without histograms is pooled.
  Result b = idb({edf("COALESCE", "base-*\n"), "--probe", "1", "--format", "csv"});
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.out.find(",,,\n"), std::string::npos) << b.out;
}

TEST_F(IdbEdf, SvgRendersInBothModes) {
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "rsvg-convert is not installed (scripts/setup.sh installs librsvg2-bin)";
  for (std::string mode : {"COALESCE", "COMPARE"}) {
    std::string file = edf(mode, "base-*  the baseline\nopt-*\n");
    std::string svg = dir.file(mode + ".svg"), png = dir.file(mode + ".png");
    Result r = idb({file, "--format", "svg", "--output", svg});
    ASSERT_EQ(r.status, 0) << r.err;
    std::string text = read_file(svg);
    EXPECT_NE(text.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
    EXPECT_NE(text.find("test &lt;&amp;&gt; run"), std::string::npos); // the title, escaped
    if (mode == "COMPARE") {
      EXPECT_NE(text.find(">base-*: the baseline</text>"), std::string::npos);
    }
    Result raster = shell(dir, {"rsvg-convert", "--format", "png", "--output", png, svg});
    ASSERT_EQ(raster.status, 0) << raster.err;
    std::string bytes = read_file(png);
    ASSERT_GT(bytes.size(), 24u);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    // The IHDR width is the SVG's 960 px.
    unsigned width = (unsigned(static_cast<unsigned char>(bytes[18])) << 8) |
                     static_cast<unsigned char>(bytes[19]);
    EXPECT_EQ(width, 960u);
  }
}

TEST_F(IdbEdf, NewWritesASkeletonOnce) {
  std::string path = dir.file("new.edf");
  Result r = idb({"new", path, "--mode", "COMPARE"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(read_file(path).find("Mode         COMPARE"), std::string::npos);
  r = idb({"new", path});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "idb edf: " + path + " exists; idb edf new writes only new files\n");
  // The skeleton runs, and says which placeholder run is missing.
  r = idb({path, "--db", db});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "idb edf: " + path +
                       ":19:1: [DBLIST] entry 'baseline-*': no run label matches "
                       "it in " +
                       db + "\n");
}

TEST_F(IdbEdf, ErrorsAreOneLine) {
  std::string bad = dir.file("bad.edf");
  write_text(bad, "[PREAMBLE]\nMode SPLIT\n[DBLIST]\n");
  Result r = idb({bad});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "idb edf: " + bad + ":2:6: unknown mode 'SPLIT' (COALESCE or COMPARE)\n");
  r = idb({edf("COALESCE", "base-1\n"), "--value", "wall"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "idb edf: --value takes total, cpu, range, sdev, count, noise, corrected, "
                   "p50, p90 or p99\n");
  r = idb({edf("COALESCE", "base-1\n"), "--db", dir.file("none.db")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "idb edf: " + dir.file("COALESCE.edf") + ":6:1: [DBLIST] entry 'base-1': no " +
                       "database at " + dir.file("none.db") + " (idb load creates one)\n");
  r = idb({edf("COALESCE", "base-1\n"), "--probe", "no such probe"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "idb edf: no probe with ID or description 'no such probe' in these runs\n");
  r = idb({dir.file("missing.edf")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "idb edf: " + dir.file("missing.edf") + ": cannot read: No such file or directory\n");
}

} // namespace
} // namespace idb::test

namespace idb::test {
namespace {

// Real profiles: the reader tests' generator program run three times under the real
// runtime, each profile stored with `idb load`. Its activation counts do not depend on
// timing, so COALESCE of `count` must find every probe perfectly regular, while its times
// vary from run to run.
TEST(IdbEdfReal, CoalesceOfRealRuns) {
  TempDir dir;
  std::string db = dir.file("real.db");
  for (int i = 1; i <= 3; ++i) {
    std::string profile = dir.file("p" + std::to_string(i) + ".idbprof");
    Result run = shell(dir, {"env", "IDB_OUT=" + profile, IDB_TEST_GENERATOR});
    ASSERT_EQ(run.status, 0) << run.err;
    Result load = shell(
        dir, {IDB_TEST_CLI, "load", profile, "--db", db, "--label", "real-" + std::to_string(i)});
    ASSERT_EQ(load.status, 0) << load.err;
  }
  std::string edf = dir.file("real.edf");
  Result made = shell(dir, {IDB_TEST_CLI, "edf", "new", edf});
  ASSERT_EQ(made.status, 0) << made.err;
  std::string text = read_file(edf);
  text = text.substr(0, text.find("run-1")) + "real-*  three runs of the generator\n";
  FILE *f = std::fopen(edf.c_str(), "wb");
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  Result counts =
      shell(dir, {IDB_TEST_CLI, "edf", edf, "--db", db, "--value", "count", "--format", "csv"});
  ASSERT_EQ(counts.status, 0) << counts.err;
  // probe,name,rank,runs,min,q1,median,q3,max,...,cv is column 15.
  int rows = 0;
  bool saw_solve = false;
  std::size_t at = counts.out.find('\n') + 1;
  while (at < counts.out.size()) {
    std::string line = counts.out.substr(at, counts.out.find('\n', at) - at);
    at += line.size() + 1;
    std::vector<std::string> cells;
    for (std::size_t from = 0, comma; from <= line.size(); from = comma + 1) {
      comma = std::min(line.find(',', from), line.size());
      cells.push_back(line.substr(from, comma - from));
    }
    ASSERT_GE(cells.size(), 15u) << line;
    EXPECT_EQ(cells[3], "3") << line;
    EXPECT_EQ(cells[4], cells[8]) << line; // min == max
    EXPECT_EQ(cells[14], "0") << line;     // cv
    saw_solve = saw_solve || cells[1] == "solve";
    ++rows;
  }
  EXPECT_GE(rows, 8);
  EXPECT_TRUE(saw_solve) << counts.out;
  Result times = shell(dir, {IDB_TEST_CLI, "edf", edf, "--db", db, "--probe", "main"});
  ASSERT_EQ(times.status, 0) << times.err;
  EXPECT_NE(times.out.find("main"), std::string::npos) << times.out;
}

} // namespace
} // namespace idb::test
