// `idb report`: the top-down tree of a stored run, read from the database rather than the
// profile file, printed by the reader's print_profile / print_tree so it matches `idb show`
// column for column. Every CFH in turn by default, one rank's with --rank, or with
// --aggregate the threads' CFHs merged by probe path, and each named CFH over its instances. A
// summary-mode run (one CFH for every rank, docs/mpi.md) says so above its trees, which carry each
// node's spread over the ranks; it has no rank to select, and its CFHs merge without their spreads.
// With --diff OTHER, the run as a whole set against OTHER's node by node, either side a run or
// a group of runs a label pattern names (analysis::diff_groups). With --flat, a flat profile:
// each probe's own time over every call path (analysis::flat_rows), the most first.
#include "args.hpp"
#include "commands.hpp"
#include "format.hpp"

#include "idb/analysis/diff.hpp"
#include "idb/analysis/trees.hpp"
#include "idb/store.hpp"
#include "idb/tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

namespace idb::cli {

namespace {

const char *kReportUsage =
    "usage: idb report RUN [--db URL] [--rank N | --aggregate | --diff OTHER] [--prune PERCENT]\n"
    "                      [--no-cpu] [--quantiles] [--format table|csv|json] [--wait SECONDS]\n"
    "       idb report RUN --flat [--top N] [--rank N] [--db URL] [--format table|csv|json]";
const char *kReportHelp =
    "Prints the stored run labelled RUN as indented trees, with the columns of 'idb show':\n"
    "count, inclusive, exclusive and noise-corrected seconds, % of the parent, mean and\n"
    "standard deviation per activation in microseconds, CPU seconds and noise. A node that\n"
    "runtime throttling stopped timing has an 'untimed' column: those of its activations\n"
    "that were only counted (count holds them too; its times hold the timed ones), and an\n"
    "'est s' column: the time of all its activations, each untimed one at the mean of the\n"
    "few timed as samples. --prune keeps a throttled node by that estimate.\n\n"
    "  --db URL         database: a path, sqlite:PATH, sqlite://PATH or postgresql://...\n"
    "                   (default idb.db)\n"
    "  --rank N         only the CFHs of MPI rank N (not on a summary-mode run, which\n"
    "                   keeps per node the spread over the ranks instead of their rows)\n"
    "  --aggregate      the threads' CFHs of every rank merged into one tree by probe path,\n"
    "                   and each named CFH (one per object) over its instances\n"
    "  --diff OTHER     RUN (the baseline) against the run OTHER, node by node: the threads'\n"
    "                   tree of each run as a whole, nodes matched by their probes' labels\n"
    "                   (description and source location, so two builds match), with both\n"
    "                   runs' corrected inclusive seconds (a throttled node's: its\n"
    "                   estimate, 'est s'), the difference, the ratio\n"
    "                   OTHER/RUN and both counts; '-' where a run lacks the node.\n"
    "                   RUN and OTHER may each be a label pattern ('pic-pow-*', quoted: '*',\n"
    "                   '?' or '[' as in an .edf's [DBLIST]) naming a group of repeated\n"
    "                   runs: each side then gives its runs' mean and standard deviation,\n"
    "                   and where both sides have two runs or more, Welch's t-test of each\n"
    "                   node's means (p; * where under 0.05). As csv or json: path, in (a, b\n"
    "                   or both), a_s, b_s, difference_s, ratio, a_count, b_count, a_sd_s,\n"
    "                   b_sd_s, p, significant; what idb-gui --view diff --export writes\n"
    "  --flat           a flat profile instead of the trees: per probe, its own time (its\n"
    "                   nodes' exclusive time without the probes' cost) and its inclusive\n"
    "                   time, summed over every call path that reached it (a recursive\n"
    "                   probe's inclusive time once), as % of the run's corrected time,\n"
    "                   with its activations, untimed ones and call paths; the most own\n"
    "                   time first. Of the run as a whole (its threads' CFHs merged, then\n"
    "                   each named CFH), or of rank N's CFHs with --rank. A throttled\n"
    "                   probe's times are its estimate (est s), which its callers' own time\n"
    "                   no longer holds. As csv or json: tree, probe, own_s, own_percent,\n"
    "                   inclusive_s, inclusive_percent, count, untimed, paths\n"
    "  --top N          with --flat, the first N probes of each tree (a table: 20 by\n"
    "                   default; 0: all)\n"
    "  --prune PERCENT  hide nodes below PERCENT of the root's inclusive time\n"
    "  --no-cpu         leave out the CPU columns\n"
    "  --quantiles      add the 50th, 90th and 99th percentile of each node's activations\n"
    "                   (microseconds, from its duration histogram; '-' for a node without\n"
    "                   one, as in a run from a profile older than format 1.3)\n"
    "  --format F       table (the indented trees, default), or csv or json: one row per\n"
    "                   node of every tree printed, with the tree's title, the probe path\n"
    "                   from the root (labels joined by ';'), count, inclusive, exclusive\n"
    "                   and corrected seconds, % of the parent, CPU and noise seconds,\n"
    "                   throttled activations, p50, p90 and p99 seconds;\n"
    "                   what idb-gui --export writes for the same tree\n" IDB_CLI_WAIT_HELP;

struct ReportArgs {
  std::string label, db = "idb.db";
  std::optional<int> rank;
  bool aggregate = false;
  std::string diff; // --diff OTHER
  bool flat = false;
  std::optional<std::size_t> top; // --top N; 0: every probe
  profile::TreeOptions tree;
  Format format = Format::table;
  double wait = store::kDefaultWaitSeconds;
};

// Fills `a` from the arguments; on a usage error prints it and returns false.
bool parse_args(int argc, char **argv, ReportArgs &a) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    bool valued = arg == "--db" || arg == "--rank" || arg == "--prune" || arg == "--format" ||
                  arg == "--wait" || arg == "--diff" || arg == "--top";
    if (valued && i + 1 >= argc) {
      std::cerr << "idb report: " << arg << " needs a value\n" << kReportUsage << "\n";
      return false;
    }
    if (arg == "--db") {
      a.db = argv[++i];
    } else if (arg == "--wait") {
      if (!parse_wait(argv[++i], a.wait)) {
        std::cerr << "idb report: --wait takes seconds, 0 or more\n";
        return false;
      }
    } else if (arg == "--rank") {
      a.rank = parse_rank(argv[++i]);
      if (!a.rank) {
        std::cerr << "idb report: --rank takes a rank, 0 or more\n";
        return false;
      }
    } else if (arg == "--prune") {
      if (!parse_percent(argv[++i], a.tree.prune_percent)) {
        std::cerr << "idb report: --prune takes a percentage, 0 or more\n";
        return false;
      }
    } else if (arg == "--format") {
      std::optional<Format> format = parse_format(argv[++i]);
      if (!format) {
        std::cerr << "idb report: --format takes table, csv or json\n";
        return false;
      }
      a.format = *format;
    } else if (arg == "--aggregate") {
      a.aggregate = true;
    } else if (arg == "--flat") {
      a.flat = true;
    } else if (arg == "--top") {
      std::optional<int> top = parse_rank(argv[++i]);
      if (!top) {
        std::cerr << "idb report: --top takes a number of probes, 0 (all) or more\n";
        return false;
      }
      a.top = std::size_t(*top);
    } else if (arg == "--diff") {
      a.diff = argv[++i];
    } else if (arg == "--no-cpu") {
      a.tree.show_cpu = false;
    } else if (arg == "--quantiles") {
      a.tree.show_quantiles = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << "idb report: unknown option " << arg << " (see 'idb report --help')\n";
      return false;
    } else if (a.label.empty()) {
      a.label = arg;
    } else {
      std::cerr << "idb report: one run at a time (got '" << a.label << "' and '" << arg << "')\n";
      return false;
    }
  }
  if (a.label.empty()) {
    std::cerr << "idb report: no run given\n" << kReportUsage << "\n";
    return false;
  }
  if (a.rank && a.aggregate) {
    std::cerr << "idb report: --rank and --aggregate exclude each other\n";
    return false;
  }
  if (a.top && !a.flat) {
    std::cerr << "idb report: --top goes with --flat\n";
    return false;
  }
  if (a.flat && (!a.diff.empty() || a.aggregate || a.tree.show_quantiles ||
                 a.tree.prune_percent > 0 || !a.tree.show_cpu)) {
    std::cerr << "idb report: --flat lists probes, of the run as a whole or of one rank: no "
                 "--diff, --aggregate, --quantiles, --prune or --no-cpu with it\n";
    return false;
  }
  if (!a.diff.empty() && (a.rank || a.aggregate || a.tree.show_quantiles)) {
    std::cerr << "idb report: --diff sets the runs as a whole against each other: no --rank, "
                 "--aggregate or --quantiles with it\n";
    return false;
  }
  return true;
}

bool is_summary(const profile::Profile &run) {
  return std::any_of(run.cfhs.begin(), run.cfhs.end(),
                     [](const profile::Cfh &h) { return h.summary; });
}

// The line a summary-mode run's report opens with, below the run's header.
std::string summary_note(const profile::Profile &run) {
  return "summary run: statistics merged over the " + run.get("nprocs", "?") +
         " ranks, no per-rank rows. Per node: the ranks that\n"
         "reached it, the smallest and largest per-rank inclusive time (rank min s, rank max\n"
         "s), the rank holding the largest (max@), max/mean. Per probe: idb query imbalance.\n";
}

// print_profile, with the summary note between the run's header and the first CFH.
void print_run(std::ostream &out, const profile::Profile &run, const profile::TreeOptions &tree) {
  if (!is_summary(run)) {
    profile::print_profile(out, run, tree);
    return;
  }
  std::ostringstream text;
  profile::print_profile(text, run, tree);
  std::string s = text.str();
  std::size_t first_cfh = s.find("\nCFH ");
  s.insert(first_cfh == std::string::npos ? s.size() : first_cfh, summary_note(run));
  out << s;
}

// The footer line of a merged tree: what was merged and its recording counters.
void print_merged_line(std::ostream &out, const std::string &what, const profile::Cfh &merged) {
  out << '\n' << what;
  if (merged.mismatches) out << "  mismatched stops " << merged.mismatches;
  if (merged.overflow) out << "  over node cap " << merged.overflow;
  if (merged.depth_overflow) out << "  over depth cap " << merged.depth_overflow;
  out << '\n';
}

// The run's header, then its trees as a whole (analysis::aggregate_trees): the threads'
// CFHs merged into one tree, and each named CFH merged over its instances. A summary run's
// single CFH is printed as it is; several lose their spreads in the merge (a rank's values
// in two CFHs cannot be added up from two spreads), and the report says so.
void print_aggregate(std::ostream &out, profile::Profile run, const profile::TreeOptions &tree) {
  std::vector<analysis::Tree> trees = analysis::aggregate_trees(run);
  if (trees.size() == 1 && !trees[0].merged) { // a summary run's one CFH, spread and all
    print_run(out, run, tree);
    return;
  }
  bool summary = is_summary(run);
  run.cfhs.clear();
  profile::print_profile(out, run, tree);
  bool noted = false;
  for (const analysis::Tree &t : trees) {
    print_merged_line(out, t.title, t.cfh);
    if (summary && !std::exchange(noted, true))
      out << "summary run: statistics merged over every rank; the spread over the ranks is per\n"
             "CFH and does not merge (see the report without --aggregate)\n";
    profile::print_tree(out, run, t.cfh, tree);
  }
}

// The trees' rows as CSV or JSON (analysis::tree_export_cells), nodes below --prune left
// out as in the tables.
void write_tree_rows(std::ostream &out, const profile::Profile &run,
                     const std::vector<analysis::Tree> &trees, const ReportArgs &a) {
  store::QueryResult table;
  table.columns = analysis::tree_export_columns();
  table.numeric.assign(table.columns.size(), true);
  table.numeric[0] = table.numeric[1] = false;
  for (const analysis::Tree &t : trees) {
    std::vector<analysis::TreeRow> rows = analysis::tree_rows(run, t.cfh);
    double root = rows.empty() ? 0.0 : rows[0].inclusive;
    for (const analysis::TreeRow &r : rows) {
      if (r.node != 0 && root > 0 && 100.0 * r.inclusive / root < a.tree.prune_percent) continue;
      std::vector<std::string> cells = analysis::tree_export_cells(t.title, r);
      table.rows.emplace_back(cells.begin(), cells.end());
    }
  }
  write_rows(out, table, a.format);
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// One side of --diff: the run RUN (or OTHER) names, or the group a label pattern matches,
// read, with the tree of each run as a whole.
struct DiffSide {
  std::string name;
  std::vector<profile::Profile> runs;
  std::vector<analysis::Tree> trees; // the first of each run's aggregate_trees, or none
  std::string title;                 // of the first run's tree

  std::vector<analysis::DiffRun> diff_runs() const {
    std::vector<analysis::DiffRun> out;
    for (std::size_t i = 0; i < runs.size(); ++i)
      out.push_back({&runs[i], &trees[i].cfh}); // an empty tree where the run has none
    return out;
  }
};

DiffSide read_side(store::Database &db, const std::vector<std::string> &labels,
                   const std::string &name) {
  DiffSide side;
  side.name = name;
  std::string why;
  std::vector<std::string> named = analysis::diff_side_reads(labels, name, db.location(), why);
  if (named.empty()) throw store::Error(why);
  side.runs.reserve(named.size());
  side.trees.reserve(named.size());
  for (const std::string &label : named) {
    side.runs.push_back(store::read_run(db, label));
    std::vector<analysis::Tree> trees = analysis::aggregate_trees(side.runs.back());
    side.trees.push_back(trees.empty() ? analysis::Tree{} : std::move(trees.front()));
    if (side.title.empty()) side.title = side.trees.back().title;
  }
  return side;
}

// What a side is called in the table's heading: its name, and its size when a group.
std::string side_heading(const DiffSide &side) {
  return side.runs.size() == 1 ? side.name
                               : side.name + " (" + std::to_string(side.runs.size()) + " runs)";
}

// RUN against OTHER node by node: a table for people (labels indented by depth, seconds
// to the microsecond, the ratio to three significant digits; over groups the spreads and
// Welch's verdict too), or the export rows.
void write_diff(std::ostream &out, const DiffSide &a, const DiffSide &b, const ReportArgs &args) {
  std::vector<analysis::DiffRow> rows = analysis::diff_groups(a.diff_runs(), b.diff_runs());
  const double root = rows.empty() ? 0.0 : std::max(rows[0].a, rows[0].b);
  auto pruned = [&](const analysis::DiffRow &r) {
    return r.parent != profile::kNoParent && root > 0 &&
           100.0 * std::max(r.a, r.b) / root < args.tree.prune_percent;
  };
  store::QueryResult table;
  if (args.format != Format::table) {
    table.columns = analysis::diff_export_columns();
    table.numeric.assign(table.columns.size(), true);
    table.numeric[0] = table.numeric[1] = table.numeric.back() = false; // path, in, significant
    for (const analysis::DiffRow &r : rows)
      if (!pruned(r)) {
        std::vector<std::string> cells = analysis::diff_export_cells(r);
        table.rows.emplace_back(cells.begin(), cells.end());
        for (std::size_t c = 0; c < cells.size(); ++c)
          if (cells[c].empty()) table.rows.back()[c] = std::nullopt; // NULL in JSON
      }
    write_rows(out, table, args.format);
    return;
  }
  const bool groups = a.runs.size() > 1 || b.runs.size() > 1;
  const bool tested = a.runs.size() > 1 && b.runs.size() > 1;
  out << "diff: " << side_heading(a) << " (baseline) against " << side_heading(b) << '\n';
  if (!a.title.empty() && !b.title.empty())
    out << "trees: " << a.title << (a.title == b.title ? std::string() : " against " + b.title)
        << '\n';
  out << "corrected inclusive seconds" << (groups ? ", means over each side's runs" : "")
      << "; nodes matched by their probes' labels; ratio = " << b.name << " / " << a.name << '\n';
  if (groups)
    out << "sd: the standard deviation over the runs"
        << (tested ? "; p: Welch's t-test of the means, significant under " +
                         fixed(analysis::kDiffAlpha, 2) + " (marked *)"
                   : "; no test: a side of one run has no spread to set a change against")
        << '\n';
  out << '\n';
  table.columns = {"probe", "baseline s", "other s", "difference s", "ratio"};
  if (groups) table.columns.insert(table.columns.begin() + 2, "baseline sd");
  if (groups) table.columns.insert(table.columns.begin() + 4, "other sd");
  if (tested) table.columns.push_back("p");
  table.columns.insert(table.columns.end(), {"baseline count", "other count"});
  table.numeric.assign(table.columns.size(), true);
  table.numeric[0] = false;
  auto sd = [](double v) { return std::isnan(v) ? std::string("-") : fixed(v, 6); };
  for (const analysis::DiffRow &r : rows) {
    if (pruned(r)) continue;
    const double ratio = r.ratio();
    std::vector<std::optional<std::string>> cells = {std::string(2 * r.depth, ' ') + r.label,
                                                     r.in_a ? fixed(r.a, 6) : "-"};
    if (groups) cells.emplace_back(sd(r.sd_a));
    cells.emplace_back(r.in_b ? fixed(r.b, 6) : "-");
    if (groups) cells.emplace_back(sd(r.sd_b));
    cells.emplace_back(fixed(r.difference(), 6));
    cells.emplace_back(std::isnan(ratio) ? "-" : analysis::ratio_text(ratio) + "x");
    if (tested) {
      char p[32];
      std::snprintf(p, sizeof p, "%.2g%s", r.p, r.significant ? " *" : "");
      cells.emplace_back(std::isnan(r.p) ? "-" : p);
    }
    cells.emplace_back(r.in_a ? std::to_string(r.count_a) : "-");
    cells.emplace_back(r.in_b ? std::to_string(r.count_b) : "-");
    table.rows.push_back(std::move(cells));
  }
  write_rows(out, table, Format::table);
}

// --flat: the run's header, then per tree its probes by own time (analysis::flat_rows), the
// first --top of them in a table; or their rows as CSV or JSON.
void write_flat(std::ostream &out, profile::Profile run, const std::vector<analysis::Tree> &trees,
                const ReportArgs &a) {
  store::QueryResult table;
  if (a.format != Format::table) {
    table.columns = {"tree",  "probe",   "own_s", "own_percent", "inclusive_s", "inclusive_percent",
                     "count", "untimed", "paths"};
    table.numeric.assign(table.columns.size(), true);
    table.numeric[0] = table.numeric[1] = false;
    for (const analysis::Tree &t : trees) {
      std::vector<analysis::FlatRow> rows = analysis::flat_rows(run, t.cfh);
      if (a.top && *a.top > 0 && rows.size() > *a.top) rows.resize(*a.top);
      for (const analysis::FlatRow &r : rows)
        table.rows.push_back(
            {t.title, r.label, analysis::number_text(r.own), analysis::number_text(r.own_percent),
             analysis::number_text(r.inclusive), analysis::number_text(r.inclusive_percent),
             std::to_string(r.count), std::to_string(r.untimed), std::to_string(r.paths)});
    }
    write_rows(out, table, a.format);
    return;
  }
  run.cfhs.clear();
  profile::print_profile(out, run); // the header alone
  out << "\nflat profiles: per probe, own s is its exclusive time without the probes' cost over\n"
         "every call path, incl s its inclusive time (a recursive probe's once), % of the\n"
         "tree's corrected time. A probe with untimed activations is timed by its samples\n"
         "(est s in the trees); its callers' own time is without them. \"<=\": the samples\n"
         "said more than its callers' time leaves, and it is given no more than that.\n";
  const std::size_t top = a.top.value_or(20);
  for (const analysis::Tree &t : trees) {
    std::vector<analysis::FlatRow> rows = analysis::flat_rows(run, t.cfh);
    out << "\n" << t.title << "\n";
    table = {};
    table.columns = {"probe", "own s", "own %", "incl s", "incl %", "count", "untimed", "paths"};
    table.numeric.assign(table.columns.size(), true);
    table.numeric[0] = false;
    std::size_t shown = top == 0 ? rows.size() : std::min(top, rows.size());
    for (std::size_t i = 0; i < shown; ++i) {
      const analysis::FlatRow &r = rows[i];
      const std::string at_most = r.capped ? "<=" : "";
      table.rows.push_back({r.label, at_most + fixed(r.own, 6), fixed(r.own_percent, 2),
                            at_most + fixed(r.inclusive, 6), fixed(r.inclusive_percent, 2),
                            std::to_string(r.count), r.untimed ? std::to_string(r.untimed) : "-",
                            std::to_string(r.paths)});
    }
    write_rows(out, table, Format::table);
    if (shown < rows.size())
      out << "... " << rows.size() - shown << " more probes (--top 0 lists them all)\n";
  }
}

// The run's mode from `runs`: "full" or "summary"; empty when there is no such run.
std::string run_mode(store::Database &db, const std::string &label) {
  store::QueryResult r =
      store::query(db, "SELECT profile_mode FROM runs WHERE label = :label", {{"label", label}});
  return r.rows.empty() || !r.rows[0][0] ? std::string() : *r.rows[0][0];
}

} // namespace

int report(int argc, char **argv) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kReportUsage << "\n\n" << kReportHelp;
      return 0;
    }
  }
  ReportArgs args;
  if (!parse_args(argc, argv, args)) return 2;
  try {
    auto database =
        store::open(args.db, {.create = false, .read_only = true, .wait_seconds = args.wait});
    if (args.rank && run_mode(*database, args.label) == "summary") {
      std::cerr << "idb report: run '" << args.label
                << "' is a summary-mode run (statistics merged over every rank, no per-rank "
                   "rows): --rank does not apply; its report names each node's slowest rank\n";
      return 1;
    }
    if (!args.diff.empty()) {
      std::vector<std::string> labels;
      for (const store::RunInfo &r : store::runs(*database))
        labels.push_back(r.label);
      write_diff(std::cout, read_side(*database, labels, args.label),
                 read_side(*database, labels, args.diff), args);
      return 0;
    }
    profile::Profile run = store::read_run(*database, args.label, args.rank);
    if (args.rank && run.cfhs.empty()) {
      std::cerr << "idb report: run '" << args.label << "' has no CFH of rank " << *args.rank
                << '\n';
      return 1;
    }
    if (args.flat) {
      std::vector<analysis::Tree> trees =
          args.rank ? analysis::cfh_trees(run, args.rank) : analysis::aggregate_trees(run);
      write_flat(std::cout, std::move(run), trees, args);
    } else if (args.format != Format::table)
      write_tree_rows(std::cout, run,
                      args.aggregate ? analysis::aggregate_trees(run)
                                     : analysis::cfh_trees(run, args.rank),
                      args);
    else if (args.aggregate)
      print_aggregate(std::cout, std::move(run), args.tree);
    else
      print_run(std::cout, run, args.tree);
    return 0;
  } catch (const store::Error &e) {
    std::cerr << "idb report: " << e.what() << '\n';
    return 1;
  }
}

} // namespace idb::cli
