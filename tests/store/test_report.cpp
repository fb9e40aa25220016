// `idb report` run as a subprocess against runs stored in SQLite or PostgreSQL (the same
// source in both test programs, test_database.hpp): the generator's real
// profile reported from the database prints exactly what `idb show` prints from the file
// (with and without --prune / --no-cpu), --rank keeps one rank's CFHs, --aggregate on a
// synthetic multi-rank run equals a merge computed here with idb_stats_merge, a
// summary-mode run says so above its trees (which carry the spread) and refuses --rank,
// and an unknown label, a rank without CFHs and usage errors give one line and their
// exit codes. `idb score` prints analysis::score's rows.
#include "store_support.hpp"
#include "summary_data.hpp"
#include "synthetic.hpp"
#include "test_database.hpp"

#include "idb/analysis/diff.hpp"
#include "idb/analysis/exports.hpp"
#include "idb/analysis/score.hpp"
#include "idb/analysis/trees.hpp"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace idb::test {
namespace {

std::string printed(const profile::Profile &p, const profile::TreeOptions &options = {}) {
  std::ostringstream out;
  profile::print_profile(out, p, options);
  return out.str();
}

class IdbReport : public ::testing::Test {
protected:
  void SetUp() override {
    write_file(file, generated_profile());
    RunResult r = idb({"load", "--db", db, "--label", "smoke", file});
    ASSERT_EQ(0, r.status) << r.err;
    auto opened = store::open(db);
    store::LoadOptions options;
    options.label = "synth";
    store::load(*opened, synthetic, options);
    options.label = "sum";
    store::load(*opened, summary, options);
  }

  TempDir dir;
  std::unique_ptr<TestDatabase> database = fresh_database();
  std::string file = dir.file("run.idbprof"), db = database->url();
  profile::Profile synthetic = synthetic_profile(3, 40);
  profile::Profile summary = summary_of(synthetic);
};

// What `idb report` prints for a summary run: the header, the note, the trees.
std::string summary_report(const profile::Profile &p) {
  std::string s = printed(p);
  s.insert(s.find("\nCFH "),
           "summary run: statistics merged over the 3 ranks, no per-rank rows. Per node: the "
           "ranks that\nreached it, the smallest and largest per-rank inclusive time (rank min "
           "s, rank max\ns), the rank holding the largest (max@), max/mean. Per probe: idb query "
           "imbalance.\n");
  return s;
}

TEST_F(IdbReport, RealRunPrintsWhatShowPrintsFromTheFile) {
  RunResult shown = idb({"show", file});
  ASSERT_EQ(0, shown.status) << shown.err;
  RunResult r = idb({"report", "smoke", "--db", db});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(shown.out, r.out);
  EXPECT_NE(std::string::npos, r.out.find("CFH \"solver[0]\" rank 0 thread 0")) << r.out;
}

// `idb export RUN --format folded`: the library's stacks of the threads' CFHs merged as
// `idb report --aggregate` merges them, and of a named CFH's instances without its root;
// `--format hatchet`: one tree per CFH (per merged tree with --aggregate) that Python's
// json module reads, every node with the same metrics, the ids unique.
TEST_F(IdbReport, ExportWritesARunsTreesAsFoldedStacksAndHatchetTrees) {
  RunResult folded = idb({"export", "synth", "--db", db, "--format", "folded"});
  ASSERT_EQ(0, folded.status) << folded.err;
  std::vector<analysis::Tree> trees = analysis::aggregate_trees(synthetic);
  ASSERT_FALSE(trees.empty());
  EXPECT_EQ(analysis::folded_stacks(synthetic, trees[0].cfh), folded.out);
  EXPECT_NE(std::string::npos, folded.out.find('\n'));
  RunResult named =
      idb({"export", "smoke", "--db", db, "--format", "folded", "--cfh", "solver[0]"});
  ASSERT_EQ(0, named.status) << named.err;
  std::istringstream lines(named.out);
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count)
    EXPECT_NE(std::string::npos, line.find(';')) << "the root's own line is left out: " << line;
  EXPECT_GT(count, 0u);
  std::string json = dir.file("run.json");
  for (const char *aggregate : {"", "--aggregate"}) {
    std::vector<std::string> args = {"export",   "smoke",   "--db",     db,
                                     "--format", "hatchet", "--output", json};
    if (*aggregate) args.emplace_back(aggregate);
    RunResult h = idb(args);
    ASSERT_EQ(0, h.status) << h.err;
    RunResult check =
        run({"/usr/bin/python3", "-c",
             "import json, sys\n"
             "roots = json.load(open(sys.argv[1]))\n"
             "keys, ids, nodes = set(roots[0]['metrics']), [], 0\n"
             "def walk(n, root):\n"
             "  global nodes\n"
             "  nodes += 1\n"
             "  m = dict(n['metrics'])\n"
             "  assert ('_hatchet_nid' in m) != root, n['frame']\n"
             "  if not root: ids.append(m.pop('_hatchet_nid'))\n"
             "  assert set(m) == keys and n['frame']['name'] and n['frame']['type'], n\n"
             "  for c in n.get('children', []): walk(c, False)\n"
             "for r in roots: walk(r, True)\n"
             "assert len(ids) == len(set(ids))\n"
             "assert len({r['frame']['name'] for r in roots}) == len(roots)\n"
             "print(len(roots), nodes)\n",
             json});
    ASSERT_EQ(0, check.status) << check.err;
    std::size_t cfhs = 0, nodes = 0;
    for (const analysis::Tree &t :
         *aggregate ? analysis::aggregate_trees(generated()) : analysis::cfh_trees(generated())) {
      ++cfhs;
      nodes += t.cfh.nodes.size();
    }
    EXPECT_EQ(std::to_string(cfhs) + " " + std::to_string(nodes) + "\n", check.out) << aggregate;
  }
  // Bad input: one line, the right exit code, nothing written.
  RunResult unknown = idb({"export", "smoke", "--db", db, "--format", "folded", "--cfh", "nope"});
  EXPECT_EQ(1, unknown.status);
  EXPECT_EQ("idb export: run 'smoke' has no CFH named 'nope'\n", unknown.err);
  RunResult missing = idb({"export", "nosuch", "--db", db, "--format", "hatchet"});
  EXPECT_EQ(1, missing.status);
  EXPECT_NE(std::string::npos, missing.err.find("no run labelled 'nosuch'")) << missing.err;
  RunResult mixed = idb({"export", "smoke", "--db", db, "--format", "hatchet", "--cfh", "x"});
  EXPECT_EQ(2, mixed.status);
  EXPECT_EQ("idb export: --cfh goes with --format folded (hatchet writes every CFH)\n", mixed.err);
  RunResult rank = idb({"export", "smoke", "--db", db, "--rank", "0"});
  EXPECT_EQ(2, rank.status);
  EXPECT_EQ("idb export: --rank, --cfh and --aggregate go with --format folded or hatchet\n",
            rank.err);
  RunResult badrank = idb({"export", "smoke", "--db", db, "--format", "folded", "--rank", "x"});
  EXPECT_EQ("idb export: --rank takes a rank number, 0 or more\n", badrank.err);
  RunResult param = idb({"export", "smoke", "--db", db, "--format", "folded", "--param", "a=b"});
  EXPECT_EQ("idb export: --param goes with a query, not with --format folded or hatchet\n",
            param.err);
  RunResult merged = idb({"export", "smoke", "--db", db, "--format", "folded", "--aggregate"});
  EXPECT_EQ(2, merged.status);
  EXPECT_NE(std::string::npos, merged.err.find("--aggregate goes with --format hatchet"));
  RunResult format = idb({"export", "smoke", "--db", db, "--format", "svg"});
  EXPECT_EQ("idb export: --format takes csv, json, folded or hatchet\n", format.err);
}

TEST_F(IdbReport, PruneAndNoCpuMatchShow) {
  RunResult shown = idb({"show", "--prune", "5", "--no-cpu", file});
  ASSERT_EQ(0, shown.status) << shown.err;
  RunResult r = idb({"report", "--db", db, "--prune", "5", "--no-cpu", "smoke"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(shown.out, r.out);
  EXPECT_EQ(std::string::npos, r.out.find("setup")) << "below 5 %: pruned\n" << r.out;
  EXPECT_EQ(std::string::npos, r.out.find("cpu s")) << r.out;
}

TEST_F(IdbReport, RankKeepsThatRanksCfhs) {
  profile::Profile one = synthetic;
  one.cfhs = {synthetic.cfhs[1]};
  RunResult r = idb({"report", "synth", "--db", db, "--rank", "1"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(printed(one), r.out);
  r = idb({"report", "synth", "--db", db});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(printed(synthetic), r.out) << "every CFH in turn, bit for bit";
  r = idb({"report", "synth", "--db", db, "--rank", "7"});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb report: run 'synth' has no CFH of rank 7\n", r.err);
}

TEST_F(IdbReport, AggregateEqualsAMergeByProbePath) {
  // Every rank of the synthetic run has the same tree, so merging by path is merging
  // node i of every CFH, in rank order.
  profile::Profile merged = synthetic;
  profile::Cfh all = synthetic.cfhs[0];
  for (profile::Node &n : all.nodes)
    idb_stats_clear(&n.stats);
  for (const profile::Cfh &h : synthetic.cfhs)
    for (std::size_t i = 0; i < h.nodes.size(); ++i)
      idb_stats_merge(&all.nodes[i].stats, &h.nodes[i].stats);
  merged.cfhs.clear();
  std::ostringstream expected;
  profile::print_profile(expected, merged);
  expected << "\nall 3 thread CFHs merged by probe path\n";
  profile::print_tree(expected, merged, all);
  RunResult r = idb({"report", "synth", "--db", db, "--aggregate"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(expected.str(), r.out);
}

// A run whose ranks each also have a named CFH (one per object): --aggregate merges the
// threads' CFHs into one tree and each named CFH over its instances into another, and the
// canned queries take the run's time from the threads' roots only, since a named root
// spans its object's life, which the threads' trees hold already.
TEST_F(IdbReport, NamedCfhsAggregateApartAndStayOutOfTheRunsTime) {
  profile::Profile objects = synthetic;
  for (const profile::Cfh &h : synthetic.cfhs) {
    profile::Cfh object = h;
    object.named = true;
    object.name = "electrons";
    objects.cfhs.push_back(object);
  }
  auto opened = store::open(db);
  store::LoadOptions options;
  options.label = "objects";
  store::load(*opened, objects, options);

  RunResult r = idb({"report", "objects", "--db", db, "--aggregate", "--no-cpu"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_NE(std::string::npos, r.out.find("all 3 thread CFHs merged by probe path")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("CFH \"electrons\": 3 instances merged by probe path"))
      << r.out;

  auto root_row = [&](const std::string &label) {
    RunResult q = idb({"query", "hottest_procedures", "--db", db, "--param", "run=" + label,
                       "--param", "limit=1000", "--format", "csv"});
    EXPECT_EQ(0, q.status) << q.err;
    std::size_t at = q.out.find("\n0,");
    return at == std::string::npos ? std::string()
                                   : q.out.substr(at, q.out.find('\n', at + 1) - at);
  };
  // The root's row: the threads' roots alone, as in the run without the objects (share 1).
  EXPECT_NE("", root_row("synth"));
  EXPECT_EQ(root_row("synth"), root_row("objects"));
}

TEST_F(IdbReport, AggregateMergesDifferentShapesByPath) {
  RunResult r = idb({"report", "smoke", "--db", db, "--aggregate", "--no-cpu"});
  ASSERT_EQ(0, r.status) << r.err;
  // worker appears under the root of two thread CFHs: one row, counts summed (4 + 4).
  EXPECT_NE(std::string::npos, r.out.find("\n  worker ")) << r.out;
  EXPECT_EQ(r.out.find("\n  worker "), r.out.rfind("\n  worker ")) << r.out;
  // The count on the row that starts with `label` (indented as printed), -1 without one.
  auto count_of = [&](const std::string &label) {
    std::size_t at = r.out.find('\n' + label + ' ');
    if (at == std::string::npos) return -1L;
    at += label.size() + 1;
    std::istringstream row(r.out.substr(at, r.out.find('\n', at) - at));
    long count = -1;
    row >> count;
    return count;
  };
  EXPECT_EQ(count_of("    compute"), 8) << r.out;
  // The workers' time outside their probes (the generator's threads spend some) is a row
  // of its own below the root, one activation a worker.
  EXPECT_EQ(count_of("  (worker threads outside their probes)"), 2) << r.out;
}

TEST_F(IdbReport, SummaryRunSaysSoAndShowsTheSpread) {
  RunResult r = idb({"report", "sum", "--db", db});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(summary_report(summary), r.out);
  EXPECT_NE(std::string::npos, r.out.find("CFH \"thread 0\" summary of every rank")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("max@  max/mean\n")) << r.out;
  r = idb({"report", "synth", "--db", db});
  EXPECT_EQ(std::string::npos, r.out.find("summary run")) << "a full run has no note";
}

TEST_F(IdbReport, RankOnASummaryRunIsAClearError) {
  RunResult r = idb({"report", "sum", "--db", db, "--rank", "1"});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb report: run 'sum' is a summary-mode run (statistics merged over every rank, "
            "no per-rank rows): --rank does not apply; its report names each node's slowest "
            "rank\n",
            r.err);
  EXPECT_EQ("", r.out);
}

TEST_F(IdbReport, AggregateOnASummaryRunKeepsOneCfhsSpreadAndSaysWhenItCannot) {
  RunResult r = idb({"report", "sum", "--db", db, "--aggregate"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(summary_report(summary), r.out) << "one CFH: nothing to merge";
  profile::Profile two = summary;
  two.cfhs.push_back(two.cfhs[0]);
  two.cfhs[1].thread = 1;
  two.cfhs[1].name = "thread 1";
  auto opened = store::open(db);
  store::LoadOptions options;
  options.label = "sum2";
  store::load(*opened, two, options);
  r = idb({"report", "sum2", "--db", db, "--aggregate"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_NE(std::string::npos, r.out.find("all 2 thread CFHs merged by probe path\nsummary run: "))
      << r.out;
  EXPECT_EQ(std::string::npos, r.out.find("max/mean")) << "no spread after a merge\n" << r.out;
}

// --format csv|json: one row per node of every tree printed (here rank 1's CFHs), titled,
// with the probe path from the root.
TEST_F(IdbReport, FormatCsvAndJsonWriteEveryNodeOfTheTreesPrinted) {
  RunResult r = idb({"report", "synth", "--db", db, "--rank", "1", "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  std::size_t nodes = 0;
  for (const profile::Cfh &h : synthetic.cfhs)
    if (h.rank == 1) nodes += h.nodes.size();
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(
      "tree,path,count,inclusive_s,exclusive_s,corrected_s,pct_parent,cpu_s,noise_s,throttled,"
      "p50_s,p90_s,p99_s,estimated_s",
      line);
  std::size_t rows = 0;
  while (std::getline(lines, line)) {
    ++rows;
    EXPECT_EQ(0u, line.find("\"CFH \"\"")) << line; // the title, quoted: it holds quotes
    EXPECT_NE(std::string::npos, line.find(" rank 1 thread ")) << line;
  }
  EXPECT_EQ(nodes, rows);
  r = idb({"report", "synth", "--db", db, "--rank", "1", "--format", "json"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(0u, r.out.find('[')) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("\"pct_parent\":")) << r.out;
}

// --flat: per tree, its probes by own time as analysis::flat_rows gives them for the stored
// run; --top cuts the table and says how many more there are.
TEST_F(IdbReport, FlatListsTheRunsProbesByOwnTime) {
  RunResult r = idb({"report", "synth", "--db", db, "--flat", "--top", "3"});
  ASSERT_EQ(0, r.status) << r.err;
  std::vector<analysis::Tree> trees = analysis::aggregate_trees(synthetic);
  ASSERT_FALSE(trees.empty());
  std::vector<analysis::FlatRow> rows = analysis::flat_rows(synthetic, trees[0].cfh);
  ASSERT_GT(rows.size(), 3u);
  EXPECT_NE(std::string::npos, r.out.find("flat profiles: per probe")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("\n" + trees[0].title + "\n")) << r.out;
  std::size_t first = r.out.find(rows[0].label), third = r.out.find(rows[2].label);
  EXPECT_NE(std::string::npos, first) << r.out;
  EXPECT_LT(first, third) << r.out;
  EXPECT_EQ(std::string::npos, r.out.find(rows[3].label + " ")) << "past --top 3: " << r.out;
  EXPECT_NE(std::string::npos,
            r.out.find("... " + std::to_string(rows.size() - 3) + " more probes (--top 0"))
      << r.out;
  r = idb({"report", "synth", "--db", db, "--flat", "--rank", "1", "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ("tree,probe,own_s,own_percent,inclusive_s,inclusive_percent,count,untimed,paths", line);
  std::size_t expected = 0;
  for (const analysis::Tree &t : analysis::cfh_trees(synthetic, 1))
    expected += analysis::flat_rows(synthetic, t.cfh).size();
  std::size_t csv_rows = 0;
  while (std::getline(lines, line)) {
    ++csv_rows;
    EXPECT_NE(std::string::npos, line.find(" rank 1 thread ")) << line;
  }
  EXPECT_EQ(expected, csv_rows) << "csv: every probe, no --top";
}

// --diff: the run as a whole against another's, node by node; as rows, the analysis
// library's diff of the two stored runs; the same run against itself changes nothing.
TEST_F(IdbReport, DiffSetsTwoRunsSideBySideNodeByNode) {
  profile::Profile slower = synthetic;
  for (profile::Cfh &h : slower.cfhs)
    for (profile::Node &n : h.nodes) {
      n.stats.sum *= 2;
      n.stats.mean *= 2;
    }
  store::LoadOptions options;
  options.label = "slower";
  store::load(*store::open(db), slower, options);
  RunResult r = idb({"report", "synth", "--db", db, "--diff", "slower", "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  auto opened = store::open(db);
  const profile::Profile a = store::read_run(*opened, "synth");
  const profile::Profile b = store::read_run(*opened, "slower");
  std::ostringstream expected;
  expected << "path,in,a_s,b_s,difference_s,ratio,a_count,b_count,a_sd_s,b_sd_s,p,significant\n";
  std::size_t rows = 0;
  for (const analysis::DiffRow &row : analysis::diff_trees(
           a, analysis::aggregate_trees(a)[0].cfh, b, analysis::aggregate_trees(b)[0].cfh)) {
    std::vector<std::string> cells = analysis::diff_export_cells(row);
    EXPECT_EQ("both", cells[1]) << cells[0];
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const bool quote = cells[i].find_first_of(",\"") != std::string::npos;
      expected << (i ? "," : "") << (quote ? "\"" + cells[i] + "\"" : cells[i]);
    }
    expected << '\n';
    ++rows;
  }
  EXPECT_GT(rows, 10u);
  EXPECT_EQ(expected.str(), r.out);
  // The table: a header naming both runs, then the indented tree.
  r = idb({"report", "synth", "--db", db, "--diff", "synth"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(0u, r.out.find("diff: synth (baseline) against synth\n")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("ratio = synth / synth")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("  1.00x ")) << r.out;
  // Against itself nothing changed: every difference is 0.
  r = idb({"report", "synth", "--db", db, "--diff", "synth", "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::size_t end = line.size();
    for (int k = 0; k < 8; ++k) { // the last eight cells, from significant to difference_s
      std::size_t comma = line.rfind(',', end - 1);
      cells.push_back(line.substr(comma + 1, end - comma - 1));
      end = comma;
    }
    EXPECT_EQ("0", cells[7]) << line;
    EXPECT_EQ("", cells[0]) << "no test between two runs: " << line;
  }
  r = idb({"report", "synth", "--db", db, "--diff", "nope"});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb report: no run labelled 'nope' in " + db + "\n", r.err);
}

// --diff between two groups of repeated runs named by label patterns: each side's mean
// and spread over its runs, Welch's p and verdict per node, as analysis::diff_groups gives
// them for the stored runs; a pattern that matches no run is one line.
TEST_F(IdbReport, DiffSetsTwoGroupsOfRunsSideBySideWithWelchsTest) {
  auto opened = store::open(db);
  const double scales[] = {1.0, 1.01, 0.99};
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < 3; ++i) {
      profile::Profile run = synthetic;
      const double k = (side + 1) * scales[i];
      for (profile::Cfh &h : run.cfhs)
        for (profile::Node &n : h.nodes) {
          n.stats.sum *= k;
          n.stats.mean *= k;
        }
      store::LoadOptions options;
      options.label = std::string(side ? "twice-" : "once-") + std::to_string(i + 1);
      store::load(*opened, run, options);
    }
  RunResult r = idb({"report", "once-*", "--db", db, "--diff", "twice-*", "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  std::vector<profile::Profile> runs;
  std::vector<analysis::Tree> trees;
  for (const char *label : {"once-1", "once-2", "once-3", "twice-1", "twice-2", "twice-3"}) {
    runs.push_back(store::read_run(*opened, label));
    trees.push_back(analysis::aggregate_trees(runs.back())[0]);
  }
  std::vector<analysis::DiffRun> a, b;
  for (std::size_t i = 0; i < 6; ++i)
    (i < 3 ? a : b).push_back({&runs[i], &trees[i].cfh});
  std::ostringstream expected;
  expected << "path,in,a_s,b_s,difference_s,ratio,a_count,b_count,a_sd_s,b_sd_s,p,significant\n";
  const std::vector<analysis::DiffRow> rows = analysis::diff_groups(a, b);
  ASSERT_GT(rows.size(), 10u);
  EXPECT_TRUE(rows[0].significant);
  EXPECT_LT(rows[0].p, 0.001);
  for (const analysis::DiffRow &row : rows) {
    std::vector<std::string> cells = analysis::diff_export_cells(row);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const bool quote = cells[i].find_first_of(",\"") != std::string::npos;
      expected << (i ? "," : "") << (quote ? "\"" + cells[i] + "\"" : cells[i]);
    }
    expected << '\n';
  }
  EXPECT_EQ(expected.str(), r.out);

  // The table names both groups and the test, and marks what is significant.
  r = idb({"report", "once-*", "--db", db, "--diff", "twice-*"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(0u, r.out.find("diff: once-* (3 runs) (baseline) against twice-* (3 runs)\n")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("p: Welch's t-test of the means")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find(" *  ")) << r.out;
  // A group against one run: spreads, no test.
  r = idb({"report", "once-*", "--db", db, "--diff", "twice-1"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_NE(std::string::npos, r.out.find("no test: a side of one run")) << r.out;
  r = idb({"report", "once-*", "--db", db, "--diff", "thrice-*"});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb report: no run label matches 'thrice-*' in " + db + "\n", r.err);
  // Without --diff a pattern names no run.
  r = idb({"report", "once-*", "--db", db});
  EXPECT_EQ(1, r.status);
  EXPECT_NE(std::string::npos, r.err.find("no run labelled 'once-*'")) << r.err;
}

TEST_F(IdbReport, MissingRunIsOneLineAndUsageErrorsExitTwo) {
  RunResult r = idb({"report", "nope", "--db", db});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb report: no run labelled 'nope' in " + db + "\n", r.err);
  EXPECT_EQ("", r.out);
  r = idb({"report", "smoke", "--db", dir.file("absent.db")});
  EXPECT_EQ(1, r.status) << "a missing database is not created";
  for (std::vector<std::string> bad :
       std::vector<std::vector<std::string>>{{"report"},
                                             {"report", "smoke", "--rank"},
                                             {"report", "smoke", "--rank", "-1"},
                                             {"report", "smoke", "--rank", "1", "--aggregate"},
                                             {"report", "smoke", "--prune", "x"},
                                             {"report", "smoke", "other"},
                                             {"report", "smoke", "--bogus"},
                                             {"report", "smoke", "--format", "xml"},
                                             {"report", "smoke", "--diff"},
                                             {"report", "smoke", "--diff", "x", "--rank", "0"},
                                             {"report", "smoke", "--top", "3"},
                                             {"report", "smoke", "--flat", "--top", "x"},
                                             {"report", "smoke", "--flat", "--aggregate"},
                                             {"report", "smoke", "--flat", "--prune", "1"},
                                             {"report", "smoke", "--format"}}) {
    bad.insert(bad.end(), {"--db", db});
    r = idb(bad);
    EXPECT_EQ(2, r.status) << bad[1] << ' ' << (bad.size() > 2 ? bad[2] : "");
    EXPECT_NE("", r.err);
  }
  r = idb({"report", "--help"});
  EXPECT_EQ(0, r.status);
  EXPECT_EQ(0u, r.out.find("usage: idb report RUN")) << r.out;
}

} // namespace
} // namespace idb::test

namespace idb::test {
namespace {

// `idb score`: the rows are analysis::score's for the stored run, in its order, the table
// the costliest --top of them under the run's totals, and bad input one line.
TEST_F(IdbReport, ScorePrintsEachProbesCostAndVerdict) {
  RunResult r = idb({"score", "synth", "--db", db, "--all", "--format", "csv"});
  ASSERT_EQ(0, r.status) << r.err;
  auto opened = store::open(db);
  analysis::Score expected = analysis::score(store::read_run(*opened, "synth"), 0.05);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ("probe_id,probe,activations,throttled,mean_s,own_s,noise_s,cost_share,run_share,"
            "verdict",
            line);
  std::size_t row = 0, throttled = 0;
  while (std::getline(lines, line)) {
    ASSERT_LT(row, expected.probes.size()) << line;
    const analysis::ProbeScore &p = expected.probes[row++];
    EXPECT_EQ(0u, line.find(std::to_string(p.probe) + ",")) << line;
    EXPECT_NE(std::string::npos, line.find("," + std::to_string(p.activations) + ",")) << line;
    std::string verdict(analysis::verdict_name(p.verdict));
    EXPECT_EQ(line.size() - verdict.size(), line.rfind("," + verdict) + 1) << line;
    throttled += p.verdict == analysis::Verdict::throttled;
  }
  EXPECT_EQ(expected.probes.size(), row);
  EXPECT_GT(throttled, 0u) << "the synthetic run has throttled nodes";

  r = idb({"score", "synth", "--db", db, "--top", "3"});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_EQ(0u, r.out.find("run synth: 3 rank(s), " + std::to_string(expected.probes.size()) +
                           " probes, "))
      << r.out;
  EXPECT_NE(std::string::npos, r.out.find("the 3 costliest below (--all for every probe)"))
      << r.out;
  std::size_t table = r.out.find("\n\nprobe ");
  ASSERT_NE(std::string::npos, table) << r.out;
  EXPECT_EQ(2 + 3, std::count(r.out.begin() + long(table) + 2, r.out.end(), '\n'))
      << "header, rule and three probes: " << r.out;
}

TEST_F(IdbReport, ScoreUsageErrorsExitTwoAndAMissingRunOne) {
  RunResult r = idb({"score", "nope", "--db", db});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb score: no run labelled 'nope' in " + db + "\n", r.err);
  for (std::vector<std::string> bad :
       std::vector<std::vector<std::string>>{{"score"},
                                             {"score", "synth", "--target", "0"},
                                             {"score", "synth", "--target", "abc"},
                                             {"score", "synth", "--top", "0"},
                                             {"score", "synth", "--format", "xml"},
                                             {"score", "synth", "other"},
                                             {"score", "synth", "--bogus"}}) {
    bad.insert(bad.end(), {"--db", db});
    RunResult u = idb(bad);
    EXPECT_EQ(2, u.status) << bad[1] << " " << (bad.size() > 2 ? bad[2] : "");
    EXPECT_EQ(0u, u.err.find("idb score: ")) << u.err;
  }
  r = idb({"score", "--help"});
  EXPECT_EQ(0, r.status);
  EXPECT_EQ(0u, r.out.find("usage: idb score RUN")) << r.out;
}

} // namespace
} // namespace idb::test
