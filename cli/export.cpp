// `idb export`: runs one SQL statement or canned query (as `idb query` does) and writes
// every row as CSV or JSON to standard output or a file, for spreadsheets and scripts; or
// writes a stored run's trees as collapsed stacks or in Hatchet's literal format, for
// flame graph tools and Python.
#include "args.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "idb/analysis/exports.hpp"
#include "idb/queries.hpp"

#include "idb/store.hpp"

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace idb::cli {

namespace {

const char *kExportUsage = "usage: idb export (SQL | NAME) [--db URL] [--param k=v]... "
                           "[--format csv|json] [--output FILE]\n"
                           "                  [--wait SECONDS]\n"
                           "       idb export RUN --format folded|hatchet [--db URL] [--rank N] "
                           "[--cfh NAME]\n"
                           "                  [--aggregate] [--output FILE] [--wait SECONDS]";
const char *kExportHelp =
    "Runs one SQL statement, or the canned query NAME ('idb query --list'), and writes the\n"
    "rows as CSV (a header line, then one line per row) or JSON (an array of objects).\n"
    "With --format folded or hatchet, writes the stored run RUN's trees instead:\n"
    "  folded   collapsed stacks for flamegraph.pl, inferno and speedscope: one line\n"
    "           'root;...;node MICROSECONDS' per node, weighted by its own time without\n"
    "           the probes' cost (corrected exclusive; a throttled node's time is its\n"
    "           estimate, as 'idb report' prints it in 'est s'), of the threads' CFHs\n"
    "           merged by probe path as 'idb report --aggregate' merges them (--cfh NAME:\n"
    "           the named CFH NAME's instances instead, without its root's own time)\n"
    "  hatchet  Hatchet's literal tree format (GraphFrame.from_literal), one tree per\n"
    "           CFH, or per merged tree with --aggregate; times in seconds\n"
    "The database is opened read-only.\n\n"
    "  --db URL         database: a path, sqlite:PATH or postgresql://... (default idb.db)\n"
    "  --param K=V      value of the parameter :K (repeatable; queries only)\n"
    "  --format FORMAT  csv (default), json, folded or hatchet\n"
    "  --rank N         folded, hatchet: rank N's CFHs only\n"
    "  --cfh NAME       folded: the named CFH NAME\n"
    "  --aggregate      hatchet: the trees of 'idb report --aggregate'\n"
    "  --output FILE    write to FILE instead of standard output (only once the query\n"
    "                   has succeeded)\n" IDB_CLI_WAIT_HELP;

// What --format asks for: rows of a query, or a run's trees.
enum class TreeFormat { none, folded, hatchet };

struct Options {
  std::string text, db = "idb.db", output, cfh;
  store::KeyValues params;
  Format format = Format::csv;
  TreeFormat trees = TreeFormat::none;
  std::optional<int> rank;
  bool aggregate = false;
  double wait = store::kDefaultWaitSeconds;
};

// Parses the arguments into `o`; returns -1 to go on, else the exit code.
int parse(int argc, char **argv, Options &o) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kExportUsage << "\n\n" << kExportHelp;
      return 0;
    }
    bool valued = arg == "--db" || arg == "--param" || arg == "--format" || arg == "--output" ||
                  arg == "--wait" || arg == "--rank" || arg == "--cfh";
    if (valued && i + 1 >= argc) {
      std::cerr << "idb export: " << arg << " needs a value\n";
      return 2;
    }
    if (arg == "--db") {
      o.db = argv[++i];
    } else if (arg == "--wait") {
      if (!parse_wait(argv[++i], o.wait)) {
        std::cerr << "idb export: --wait takes seconds, 0 or more\n";
        return 2;
      }
    } else if (arg == "--output") {
      o.output = argv[++i];
    } else if (arg == "--param") {
      auto kv = queries::parse_param(argv[++i]);
      if (!kv) {
        std::cerr << "idb export: --param takes key=value, not '" << argv[i] << "'\n";
        return 2;
      }
      o.params.push_back(*kv);
    } else if (arg == "--format") {
      std::string name = argv[++i];
      std::optional<Format> f = parse_format(name);
      if (name == "folded" || name == "hatchet") {
        o.trees = name == "folded" ? TreeFormat::folded : TreeFormat::hatchet;
      } else if (!f || *f == Format::table) {
        std::cerr << "idb export: --format takes csv, json, folded or hatchet\n";
        return 2;
      } else {
        o.format = *f;
      }
    } else if (arg == "--rank") {
      std::optional<int> rank = parse_rank(argv[++i]);
      if (!rank) {
        std::cerr << "idb export: --rank takes a rank number, 0 or more\n";
        return 2;
      }
      o.rank = rank;
    } else if (arg == "--cfh") {
      o.cfh = argv[++i];
    } else if (arg == "--aggregate") {
      o.aggregate = true;
    } else if (o.text.empty() && (arg.empty() || arg[0] != '-')) {
      o.text = arg;
    } else {
      std::cerr << "idb export: unexpected argument " << arg << " (see 'idb export --help')\n";
      return 2;
    }
  }
  if (o.text.empty()) {
    std::cerr << "idb export: give SQL or a query name, or a run with --format folded or "
                 "hatchet\n"
              << kExportUsage << "\n";
    return 2;
  }
  const char *misplaced = nullptr;
  if (o.trees == TreeFormat::none && (o.rank || !o.cfh.empty() || o.aggregate))
    misplaced = "--rank, --cfh and --aggregate go with --format folded or hatchet";
  else if (o.trees != TreeFormat::none && !o.params.empty())
    misplaced = "--param goes with a query, not with --format folded or hatchet";
  else if (o.trees == TreeFormat::hatchet && !o.cfh.empty())
    misplaced = "--cfh goes with --format folded (hatchet writes every CFH)";
  else if (o.trees == TreeFormat::folded && o.aggregate)
    misplaced = "--aggregate goes with --format hatchet (folded stacks are always merged)";
  if (misplaced) {
    std::cerr << "idb export: " << misplaced << "\n";
    return 2;
  }
  return -1;
}

// The text of the run's trees in the format `o` asks for; "" with `error` set when the run
// has nothing to export there.
std::string tree_text(const profile::Profile &run, const Options &o, std::string &error) {
  if (o.trees == TreeFormat::hatchet) {
    std::vector<analysis::Tree> trees =
        o.aggregate ? analysis::aggregate_trees(run) : analysis::cfh_trees(run, o.rank);
    if (trees.empty()) error = "run '" + o.text + "' has no CFH to export";
    return error.empty() ? analysis::hatchet_literal(run, trees) : "";
  }
  // The threads' tree or the named CFH's of the run as a whole, without a named root's own
  // time (its object's life).
  for (const analysis::Tree &tree : analysis::aggregate_trees(run))
    if (o.cfh.empty() ? !tree.cfh.named : tree.cfh.named && tree.cfh.name == o.cfh)
      return analysis::folded_stacks(run, tree.cfh);
  error = o.cfh.empty() ? "run '" + o.text + "' has no thread CFH to export"
                        : "run '" + o.text + "' has no CFH named '" + o.cfh + "'";
  return "";
}

} // namespace

int export_rows(int argc, char **argv) {
  Options o;
  if (int code = parse(argc, argv, o); code >= 0) return code;
  std::optional<std::string> sql;
  if (o.trees == TreeFormat::none) {
    sql = resolve_query_text("export", o.text, o.params);
    if (!sql) return 2;
  }
  std::ostringstream text;
  try {
    auto database = store::open(o.db, {.create = false, .read_only = true, .wait_seconds = o.wait});
    if (o.trees != TreeFormat::none) {
      std::string error;
      text << tree_text(store::read_run(*database, o.text, o.rank), o, error);
      if (!error.empty()) {
        std::cerr << "idb export: " << error << '\n';
        return 1;
      }
    } else {
      check_run_parameter(*database, o.params);
      write_rows(text, store::query(*database, *sql, o.params), o.format);
    }
  } catch (const store::Error &e) {
    std::cerr << "idb export: " << e.what() << '\n';
    return 1;
  }
  if (o.output.empty()) {
    std::cout << text.str();
    return 0;
  }
  if (std::string error = write_output_file(o.output, text.str()); !error.empty()) {
    std::cerr << "idb export: " << error << '\n';
    return 1;
  }
  return 0;
}

} // namespace idb::cli
