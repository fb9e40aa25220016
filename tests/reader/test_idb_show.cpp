// The `idb` command run as a subprocess: `idb show` on a real profile (tree, pruning, the
// CPU columns), on damaged and missing files (exit 1, one error line naming the file), and
// the usage errors (exit 2) beside the help (exit 0).
#include "support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace idb::test {
namespace {

RunResult idb(std::vector<std::string> args) {
  args.insert(args.begin(), IDB_TEST_CLI);
  return run(args);
}

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// The rows of `report` whose label, after its indentation, is `label`.
std::vector<std::string> rows(const std::string &report, const std::string &label) {
  std::vector<std::string> found;
  for (const std::string &line : lines_of(report)) {
    std::size_t start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, label.size() + 1, label + " ") == 0)
      found.push_back(line);
  }
  return found;
}

// The indented labels of the rows under the line starting with `title`, up to a blank line.
std::string label_tree(const std::string &report, const std::string &title) {
  std::vector<std::string> lines = lines_of(report);
  auto at = std::find_if(lines.begin(), lines.end(),
                         [&](const std::string &l) { return l.rfind(title, 0) == 0; });
  if (at == lines.end() || ++at == lines.end()) return "no " + title;
  std::string tree;
  while (++at != lines.end() && !at->empty()) // the first line after the title is the header
    tree += at->substr(0, at->find(' ', at->find_first_not_of(' '))) + '\n';
  return tree;
}

class IdbShow : public ::testing::Test {
protected:
  void SetUp() override { write_file(good, generated_profile()); }

  TempDir dir;
  std::string good = dir.file("good.idbprof");
};

TEST_F(IdbShow, PrintsTheRunAndEveryCfhAsAnIndentedTree) {
  RunResult r = idb({"show", good});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ("", r.err);
  std::vector<std::string> lines = lines_of(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(0u, lines[0].find("program profile_gen  host ")) << lines[0];
  for (const char *cfh :
       {"CFH \"thread 0\" rank 0 thread 0", "CFH \"solver[0]\" rank 0 thread 0  mismatched stops 1",
        "CFH \"thread 1\" rank 0 thread 1", "CFH \"thread 2\" rank 0 thread 2"})
    EXPECT_EQ(1, std::count(lines.begin(), lines.end(), cfh)) << cfh << "\n" << r.out;
  std::vector<std::string> headers = rows(r.out, "probe");
  ASSERT_EQ(4u, headers.size()) << r.out;
  for (const char *column : {"count", "incl s", "excl s", "corr s", "%par", "mean us", "sdev us",
                             "cpu s", "cpu n", "noise s"})
    EXPECT_NE(std::string::npos, headers[0].find(column)) << column;
  EXPECT_EQ("profile_gen\n"
            "  main\n"
            "    setup\n"
            "    iterate\n"
            "      step\n"
            "        compute\n"
            "        exchange\n",
            label_tree(r.out, "CFH \"thread 0\""));
  EXPECT_EQ("profile_gen\n  solve\n    residual\n  pending\n",
            label_tree(r.out, "CFH \"solver[0]\""));
  EXPECT_EQ("profile_gen\n  worker\n    compute\n", label_tree(r.out, "CFH \"thread 2\""));
  EXPECT_EQ(4u, rows(r.out, "profile_gen").size()); // every CFH's root
  EXPECT_EQ(3u, rows(r.out, "compute").size());     // main thread and both workers
  EXPECT_EQ(2u, rows(r.out, "worker").size());
}

TEST_F(IdbShow, HidesNodesBelowThePruneShare) {
  RunResult all = idb({"show", good});
  RunResult pruned = idb({"show", "--prune", "50", good});
  ASSERT_EQ(0, pruned.status) << pruned.err;
  EXPECT_LT(lines_of(pruned.out).size(), lines_of(all.out).size());
  // Empty probes are far below half of any root; "main" and "solve" hold nearly all of theirs.
  for (const char *hidden : {"setup", "exchange", "residual"})
    EXPECT_TRUE(rows(pruned.out, hidden).empty()) << hidden << "\n" << pruned.out;
  for (const char *kept : {"main", "solve"})
    EXPECT_EQ(1u, rows(pruned.out, kept).size()) << kept << "\n" << pruned.out;
  EXPECT_EQ(4u, rows(pruned.out, "profile_gen").size());
}

TEST_F(IdbShow, LeavesOutTheCpuColumns) {
  RunResult with = idb({"show", good});
  RunResult without = idb({"show", "--no-cpu", good});
  ASSERT_EQ(0, without.status) << without.err;
  EXPECT_EQ(std::string::npos, without.out.find("cpu s"));
  EXPECT_EQ(std::string::npos, without.out.find("cpu n"));
  EXPECT_NE(std::string::npos, without.out.find("cpu policy")); // the run header keeps it
  auto words = [](const std::string &line) {
    std::istringstream in(line);
    std::size_t n = 0;
    for (std::string w; in >> w;)
      ++n;
    return n;
  };
  std::string row_with = rows(with.out, "main").at(0),
              row_without = rows(without.out, "main").at(0);
  EXPECT_EQ(words(row_with) - 2, words(row_without)) << row_with << "\n" << row_without;
}

TEST_F(IdbShow, AddsEachNodesQuantilesFromItsHistogram) {
  RunResult r = idb({"show", "--quantiles", "--no-cpu", good});
  ASSERT_EQ(0, r.status) << r.err;
  std::istringstream header(rows(r.out, "probe").at(0));
  std::vector<std::string> titles;
  for (std::string w; header >> w;)
    titles.push_back(w);
  // probe count incl s excl s corr s %par mean us sdev us p50 us p90 us p99 us noise s
  ASSERT_GE(titles.size(), 19u);
  EXPECT_EQ("p50", titles[13]);
  EXPECT_EQ("p99", titles[17]);
  for (const std::string &row : rows(r.out, "compute")) {
    std::istringstream in(row);
    std::vector<std::string> cell;
    for (std::string w; in >> w;)
      cell.push_back(w);
    ASSERT_GE(cell.size(), 11u) << row;
    // label, count, incl, excl, corr, %par, mean, sdev, p50, p90, p99: each a number, in order
    double p50 = std::stod(cell[8]), p90 = std::stod(cell[9]), p99 = std::stod(cell[10]);
    EXPECT_GT(p50, 0) << row;
    EXPECT_LE(p50, p90) << row;
    EXPECT_LE(p90, p99) << row;
  }
}

TEST_F(IdbShow, RefusesADamagedFileWithOneLineNamingIt) {
  std::string bytes = generated_profile();
  bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x10);
  std::string bad = dir.file("bad.idbprof");
  write_file(bad, bytes);
  RunResult r = idb({"show", bad});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("", r.out);
  ASSERT_EQ(1u, lines_of(r.err).size()) << r.err;
  EXPECT_EQ(0u, r.err.find("idb show: " + bad + ": checksum mismatch in section of type "))
      << r.err;
  EXPECT_EQ('\n', r.err.back());
}

TEST_F(IdbShow, PrintsTheGoodFilesAndFailsForTheBadOne) {
  std::string truncated = dir.file("truncated.idbprof");
  write_file(truncated, generated_profile().substr(0, 100));
  RunResult r = idb({"show", good, truncated, good});
  EXPECT_EQ(1, r.status);
  ASSERT_EQ(1u, lines_of(r.err).size()) << r.err;
  EXPECT_EQ(0u, r.err.find("idb show: " + truncated + ": truncated")) << r.err;
  EXPECT_EQ(8u, rows(r.out, "profile_gen").size()); // two profiles of four CFHs
}

TEST_F(IdbShow, RefusesAMissingFileNamingIt) {
  std::string missing = dir.file("missing.idbprof");
  RunResult r = idb({"show", missing});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb show: cannot open " + missing + ": No such file or directory\n", r.err);
}

TEST(Idb, PrintsItsVersion) {
  RunResult r = idb({"--version"});
  EXPECT_EQ(0, r.status);
  EXPECT_EQ("idb " IDB_VERSION "\n", r.out);
}

TEST(Idb, PrintsUsageWithoutACommand) {
  RunResult r = idb({});
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("", r.out);
  EXPECT_EQ(0u, r.err.find("usage: idb <command>")) << r.err;
}

TEST(Idb, PrintsHelpOnRequest) {
  for (const char *flag : {"--help", "-h"}) {
    RunResult r = idb({flag});
    EXPECT_EQ(0, r.status) << flag;
    EXPECT_EQ("", r.err);
    EXPECT_EQ(0u, r.out.find("usage: idb <command>")) << r.out;
    EXPECT_NE(std::string::npos, r.out.find("show PROFILE...")) << r.out;
  }
  RunResult show = idb({"show", "--help"});
  EXPECT_EQ(0, show.status);
  EXPECT_EQ(
      0u, show.out.find("usage: idb show [--prune PERCENT] [--no-cpu] [--quantiles] PROFILE...\n"))
      << show.out;
}

TEST(Idb, RefusesAnUnknownCommand) {
  RunResult r = idb({"frobnicate", "x.idbprof"});
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("", r.out);
  EXPECT_EQ("idb: unknown command 'frobnicate' (see 'idb --help')\n", r.err);
}

TEST(Idb, RefusesShowWithoutAProfile) {
  RunResult r = idb({"show"});
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("", r.out);
  EXPECT_NE(std::string::npos, r.err.find("usage: idb show")) << r.err;
  EXPECT_NE(std::string::npos, r.err.find("no profile given")) << r.err;
}

TEST(Idb, RefusesAnUnknownShowOption) {
  RunResult r = idb({"show", "--bogus", "x.idbprof"});
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("", r.out);
  EXPECT_EQ("idb show: unknown option --bogus (see 'idb show --help')\n", r.err);
}

TEST(Idb, AcceptsAPrunePercentageAndRefusesAnythingElse) {
  TempDir dir;
  write_file(dir.file("good.idbprof"), generated_profile());
  for (const char *ok : {"0", "12.5", "100"}) {
    RunResult r = idb({"show", "--prune", ok, dir.file("good.idbprof")});
    EXPECT_EQ(0, r.status) << ok << ": " << r.err;
  }
  for (const char *bad : {"", "abc", "-5", "5%", "nan", "inf"}) {
    RunResult r = idb({"show", "--prune", bad, dir.file("good.idbprof")});
    EXPECT_EQ(2, r.status) << "'" << bad << "'";
    EXPECT_EQ("idb show: --prune takes a percentage, 0 or more\n", r.err) << "'" << bad << "'";
  }
  RunResult missing = idb({"show", "--prune"});
  EXPECT_EQ(2, missing.status);
  EXPECT_EQ("idb show: --prune takes a percentage, 0 or more\n", missing.err);
}

} // namespace
} // namespace idb::test
