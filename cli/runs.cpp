// `idb runs`: lists the runs in a database, as a table or as CSV or JSON.
#include "args.hpp"
#include "commands.hpp"
#include "format.hpp"

#include "idb/store.hpp"

#include <cstdio>
#include <iostream>
#include <string>

namespace idb::cli {

namespace {

const char *kRunsUsage = "usage: idb runs [--db URL] [--format table|csv|json] [--wait SECONDS]";
const char *kRunsHelp =
    "Lists the runs in the database in load order: label, program, processes, threads,\n"
    "start (UTC), wall seconds, number of attributes and of CFH nodes, and the profile's\n"
    "mode: full (a CFH per rank) or summary (MPI summary mode, every rank in one CFH).\n\n"
    "  --db URL         database: a path, sqlite:PATH or sqlite://PATH (default idb.db)\n"
    "  --format FORMAT  table (default), csv or json\n" IDB_CLI_WAIT_HELP;

store::Cell seconds(const std::optional<double> &value) {
  if (!value) return std::nullopt;
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", *value);
  return std::string(text);
}

store::QueryResult as_rows(const std::vector<store::RunInfo> &runs) {
  store::QueryResult r;
  r.columns = {"label",  "program",    "nprocs", "threads", "start",
               "wall_s", "attributes", "nodes",  "mode"};
  r.numeric = {false, false, true, true, false, true, true, true, false};
  for (const store::RunInfo &run : runs) {
    store::Cell start;
    if (run.start_time) start = store::iso_utc(*run.start_time);
    r.rows.push_back({run.label, run.program, std::to_string(run.nprocs),
                      std::to_string(run.threads), start, seconds(run.wall_seconds),
                      std::to_string(run.attributes), std::to_string(run.nodes), run.mode});
  }
  return r;
}

} // namespace

int runs(int argc, char **argv) {
  std::string db = "idb.db";
  Format format = Format::table;
  double wait = store::kDefaultWaitSeconds;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kRunsUsage << "\n\n" << kRunsHelp;
      return 0;
    }
    if ((arg == "--db" || arg == "--format" || arg == "--wait") && i + 1 >= argc) {
      std::cerr << "idb runs: " << arg << " needs a value\n" << kRunsUsage << "\n";
      return 2;
    }
    if (arg == "--db") {
      db = argv[++i];
    } else if (arg == "--wait") {
      if (!parse_wait(argv[++i], wait)) {
        std::cerr << "idb runs: --wait takes seconds, 0 or more\n";
        return 2;
      }
    } else if (arg == "--format") {
      std::optional<Format> f = parse_format(argv[++i]);
      if (!f) {
        std::cerr << "idb runs: --format takes table, csv or json\n";
        return 2;
      }
      format = *f;
    } else {
      std::cerr << "idb runs: unexpected argument " << arg << " (see 'idb runs --help')\n";
      return 2;
    }
  }
  try {
    auto database = store::open(db, {.create = false, .read_only = true, .wait_seconds = wait});
    write_rows(std::cout, as_rows(store::runs(*database)), format);
    return 0;
  } catch (const store::Error &e) {
    std::cerr << "idb runs: " << e.what() << '\n';
    return 1;
  }
}

} // namespace idb::cli
