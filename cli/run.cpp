// `idb run`: launches a program (under mpirun with -n) with IDB_OUT pointing into a
// temporary folder, then loads the profile it leaves as one run, with the launch command
// and the user's attributes. Per-rank profiles (IDB_MPI_MODE=rank, the spills of a job
// that failed, or an MPI program without libidb_mpi) are combined into one run first; a
// run that lacks ranks, or whose program failed, says so in its attributes. Once stored,
// the probes with the most own time are named, as `idb report RUN --flat` lists them.
#include "args.hpp"
#include "commands.hpp"
#include "launch.hpp"

#include "idb/analysis/trees.hpp"
#include "idb/profile.hpp"
#include "idb/store.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace idb::cli {

namespace {

const char *kRunUsage =
    "usage: idb run [-n N] [--label LABEL] [--attr KEY=VALUE]... [--db URL]\n"
    "               [--mpirun-arg ARG]... [--wait SECONDS] -- PROGRAM [ARGS...]";
const char *kRunHelp =
    "Runs PROGRAM with its profile going to a temporary folder, then stores the profile\n"
    "as one run, with the launch command (attribute 'command') and the given attributes,\n"
    "and names the three probes with the most own time ('idb report RUN --flat' lists\n"
    "them all).\n"
    "The program's output passes through. The folder is removed once the run is stored;\n"
    "when storing fails it is kept, and named, so nothing is lost.\n\n"
    "  -n N              launch under mpirun with N ranks ($IDB_MPIRUN, default mpirun);\n"
    "                    the ranks merge into one profile (docs/mpi.md); per-rank\n"
    "                    profiles are combined into one run\n"
    "  --mpirun-arg ARG  pass ARG to mpirun before the program (repeatable), e.g.\n"
    "                    --mpirun-arg --oversubscribe\n"
    "  --label LABEL     the run's label (default PROGRAM-START-PID)\n"
    "  --attr KEY=VALUE  a run attribute (repeatable)\n"
    "  --db URL          database (default idb.db), as for 'idb load'\n"
    "  --wait SECONDS    how long to wait while another process holds the database (600)\n\n"
    "When the program fails, what its ranks left is still stored: the run gets the\n"
    "attributes exit_status and, for ranks that left no profile (docs/mpi.md, \"What\n"
    "happens when a rank aborts\"), missing_ranks.\n\n"
    "Exit status: the program's when it failed (its profile is still stored if it left\n"
    "one), else 0 when the run was stored, 1 when not, 2 on a usage error.\n";

struct RunArgs {
  int ranks = 0; // 0: not under mpirun
  std::string db = "idb.db", label;
  double wait = store::kDefaultWaitSeconds;
  store::KeyValues attributes;
  std::vector<std::string> mpirun_args, command;
};

int usage_error(const std::string &what) {
  std::cerr << "idb run: " << what << "\n" << kRunUsage << "\n";
  return 2;
}

// 0 when parsed, 2 on a usage error (reported), -1 when help was printed.
int parse(int argc, char **argv, RunArgs &args) {
  int i = 0;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg == "--help" || arg == "-h") {
      std::cout << kRunUsage << "\n\n" << kRunHelp;
      return -1;
    }
    bool known = arg == "-n" || arg == "--db" || arg == "--label" || arg == "--attr" ||
                 arg == "--mpirun-arg" || arg == "--wait";
    if (!known) return usage_error("unknown option " + arg + " (the program goes after --)");
    if (i + 1 >= argc) return usage_error(arg + " needs a value");
    std::string value = argv[++i];
    if (arg == "-n" && !parse_count(value, 1, 1000000, args.ranks))
      return usage_error("-n takes a number of ranks, 1 or more, not '" + value + "'");
    if (arg == "--db") args.db = value;
    if (arg == "--wait" && !parse_wait(value, args.wait))
      return usage_error("--wait takes seconds, 0 or more, not '" + value + "'");
    if (arg == "--label") args.label = value;
    if (arg == "--label" && !store::label_problem(value).empty())
      return usage_error("--label '" + value + "': " + store::label_problem(value));
    if (arg == "--mpirun-arg") args.mpirun_args.push_back(value);
    if (arg == "--attr") {
      std::size_t eq = value.find('=');
      if (eq == std::string::npos || eq == 0)
        return usage_error("--attr takes KEY=VALUE, not '" + value + "'");
      args.attributes.emplace_back(value.substr(0, eq), value.substr(eq + 1));
    }
  }
  for (++i; i < argc; ++i)
    args.command.emplace_back(argv[i]);
  if (args.command.empty()) return usage_error("no program given after --");
  return 0;
}

// The command line to execute: the program, or mpirun with its arguments first.
std::vector<std::string> launch_line(const RunArgs &args) {
  if (args.ranks == 0) return args.command;
  const char *mpirun = std::getenv("IDB_MPIRUN");
  std::vector<std::string> line{mpirun && *mpirun ? mpirun : "mpirun", "-np",
                                std::to_string(args.ranks)};
  line.insert(line.end(), args.mpirun_args.begin(), args.mpirun_args.end());
  line.insert(line.end(), args.command.begin(), args.command.end());
  return line;
}

// Adds `key` unless the user gave it with --attr.
void add_attribute(store::KeyValues &attributes, const std::string &key, const std::string &value) {
  for (const auto &[k, v] : attributes)
    if (k == key) return;
  attributes.emplace_back(key, value);
}

// The first lines of the run's flat profile (analysis::flat_rows of the run as a whole):
// the probes with the most own time, each with its share, marked where the time is an
// estimate (untimed activations); the command that lists them all.
void print_most_own_time(const profile::Profile &p, const std::string &label, const RunArgs &args) {
  constexpr std::size_t kShown = 3;
  std::vector<analysis::Tree> trees = analysis::aggregate_trees(p);
  if (trees.empty()) return;
  std::vector<analysis::FlatRow> rows = analysis::flat_rows(p, trees.front().cfh);
  if (rows.empty()) return;
  std::cout << "idb run: most own time, without the probes' cost (idb report " << label << " --flat"
            << (args.db == "idb.db" ? "" : " --db " + args.db) << "):\n";
  for (std::size_t i = 0; i < rows.size() && i < kShown; ++i) {
    char share[32];
    std::snprintf(share, sizeof share, "%6.1f%%", rows[i].own_percent);
    std::cout << "  " << share << "  " << rows[i].label
              << (rows[i].untimed ? "  (estimated from samples)" : "") << '\n';
  }
}

// Stores the run; a failed program's status and the ranks missing from it go in as the
// attributes `exit_status` and `missing_ranks`, so the run says it is incomplete.
bool store_run(const RunArgs &args, const Collected &found, const std::string &command,
               int status) {
  const profile::Profile &p = *found.profile;
  store::LoadOptions options;
  options.label = args.label;
  options.attributes = args.attributes;
  options.attributes.emplace_back("command", command);
  if (status != 0) add_attribute(options.attributes, "exit_status", std::to_string(status));
  if (!found.missing.empty())
    add_attribute(options.attributes, "missing_ranks", rank_list(found.missing));
  try {
    auto db = store::open(args.db, {.wait_seconds = args.wait});
    store::LoadResult result = store::load(*db, p, options);
    std::cout << "idb run: stored " << result.label << " (" << p.get("nprocs", "1") << " ranks, "
              << result.cfhs << " CFHs, " << result.nodes << " nodes) in " << db->location()
              << '\n';
    if (!found.missing.empty())
      std::cout << "idb run: the run is incomplete: rank" << (found.missing.size() > 1 ? "s " : " ")
                << rank_list(found.missing) << " left no profile (attribute missing_ranks)\n";
    print_most_own_time(p, result.label, args);
    return true;
  } catch (const store::Error &e) {
    std::cerr << "idb run: " << e.what() << '\n';
    return false;
  }
}

} // namespace

int run(int argc, char **argv) {
  RunArgs args;
  if (int status = parse(argc, argv, args); status != 0) return status < 0 ? 0 : status;
  std::string pattern = (std::filesystem::temp_directory_path() / "idb-run-XXXXXX").string();
  if (!mkdtemp(pattern.data())) {
    std::cerr << "idb run: cannot create a temporary folder: " << std::strerror(errno) << '\n';
    return 1;
  }
  const std::string folder = pattern;
  std::vector<std::string> line = launch_line(args);
  int status = launch(line, {{"IDB_OUT", folder + "/"}}, "", "idb run");
  if (status != 0) std::cerr << "idb run: " << line[0] << " exited with status " << status << '\n';
  Collected found = status == 127 ? Collected{} : collect(folder, "idb run");
  bool stored = found.profile && store_run(args, found, joined(line), status);
  std::error_code ignored;
  if (stored || (!found.profile && std::filesystem::is_empty(folder, ignored)))
    std::filesystem::remove_all(folder, ignored);
  else
    std::cerr << "idb run: the profile is kept in " << folder << '\n';
  if (status != 0) return status;
  return stored ? 0 : 1;
}

} // namespace idb::cli
