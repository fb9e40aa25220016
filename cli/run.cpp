// `idb run`: launches a program (under mpirun with -n) with IDB_OUT pointing into a
// temporary folder, then loads the profile it leaves as one run, with the launch command
// and the user's attributes. Per-rank profiles (IDB_MPI_MODE=rank, the spills of a job
// that failed, or an MPI program without libidb_mpi) are combined into one run first; a
// run that lacks ranks, or whose program failed, says so in its attributes.
#include "commands.hpp"

#include "idb/combine.hpp"
#include "idb/profile.hpp"
#include "idb/store.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace idb::cli {

namespace {

const char *kRunUsage = "usage: idb run [-n N] [--label LABEL] [--attr KEY=VALUE]... [--db URL]\n"
                        "               [--mpirun-arg ARG]... -- PROGRAM [ARGS...]";
const char *kRunHelp =
    "Runs PROGRAM with its profile going to a temporary folder, then stores the profile\n"
    "as one run, with the launch command (attribute 'command') and the given attributes.\n"
    "The program's output passes through. The folder is removed once the run is stored;\n"
    "when storing fails it is kept, and named, so nothing is lost.\n\n"
    "  -n N              launch under mpirun with N ranks ($IDB_MPIRUN, default mpirun);\n"
    "                    the ranks merge into one profile (docs/mpi.md); per-rank\n"
    "                    profiles are combined into one run\n"
    "  --mpirun-arg ARG  pass ARG to mpirun before the program (repeatable), e.g.\n"
    "                    --mpirun-arg --oversubscribe\n"
    "  --label LABEL     the run's label (default PROGRAM-START-PID)\n"
    "  --attr KEY=VALUE  a run attribute (repeatable)\n"
    "  --db URL          database (default idb.db), as for 'idb load'\n\n"
    "When the program fails, what its ranks left is still stored: the run gets the\n"
    "attributes exit_status and, for ranks that left no profile (docs/mpi.md, \"What\n"
    "happens when a rank aborts\"), missing_ranks.\n\n"
    "Exit status: the program's when it failed (its profile is still stored if it left\n"
    "one), else 0 when the run was stored, 1 when not, 2 on a usage error.\n";

struct RunArgs {
  int ranks = 0; // 0: not under mpirun
  std::string db = "idb.db", label;
  store::KeyValues attributes;
  std::vector<std::string> mpirun_args, command;
};

int usage_error(const std::string &what) {
  std::cerr << "idb run: " << what << "\n" << kRunUsage << "\n";
  return 2;
}

bool parse_ranks(const std::string &text, int &ranks) {
  char *end = nullptr;
  errno = 0;
  long n = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end || errno || n < 1 || n > 1000000) return false;
  ranks = int(n);
  return true;
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
                 arg == "--mpirun-arg";
    if (!known) return usage_error("unknown option " + arg + " (the program goes after --)");
    if (i + 1 >= argc) return usage_error(arg + " needs a value");
    std::string value = argv[++i];
    if (arg == "-n" && !parse_ranks(value, args.ranks))
      return usage_error("-n takes a number of ranks, 1 or more, not '" + value + "'");
    if (arg == "--db") args.db = value;
    if (arg == "--label") args.label = value;
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

std::string joined(const std::vector<std::string> &line) {
  std::string text;
  for (const std::string &word : line)
    text += (text.empty() ? "" : " ") + word;
  return text;
}

// Runs `line` with IDB_OUT=folder/ and waits. Returns the exit status (128 + signal when
// it was killed), or 127 when it could not start (reported).
int launch(const std::vector<std::string> &line, const std::string &folder) {
  std::vector<char *> argv;
  argv.reserve(line.size() + 1);
  for (const std::string &word : line)
    argv.push_back(const_cast<char *>(word.c_str()));
  argv.push_back(nullptr);
  // Like system(): ^C reaches the program, and idb stays to store what it leaves.
  struct sigaction ignore {
  }, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  pid_t pid = fork();
  if (pid == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    setenv("IDB_OUT", (folder + "/").c_str(), 1);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "idb run: cannot start %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  if (pid > 0)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  if (pid < 0) {
    std::cerr << "idb run: cannot fork: " << std::strerror(errno) << '\n';
    return 127;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// What `idb run` found in the folder: one profile for the run, and the ranks that left
// nothing when it was combined from per-rank files.
struct Collected {
  std::optional<profile::Profile> profile;
  std::vector<int> missing; // ranks below nprocs without a profile, in order
};

// A profile the ranks merged at MPI_Finalize (full or summary mode), as opposed to one
// rank's own (per-rank mode, a spill, or a program without libidb_mpi).
bool is_merged(const profile::Profile &p) {
  std::string mode = p.get("mpi_mode");
  return mode == "full" || mode == "summary";
}

// Ranks from 0 to the largest nprocs the profiles claim that none of them is from.
std::vector<int> missing_ranks(const std::vector<profile::Profile> &found) {
  double nprocs = 1;
  std::set<int> present;
  for (const profile::Profile &p : found) {
    nprocs = std::max(nprocs, p.number("nprocs", 1));
    present.insert(int(p.number("rank", 0)));
  }
  std::vector<int> missing;
  for (int rank = 0; rank < int(nprocs); ++rank)
    if (!present.count(rank)) missing.push_back(rank);
  return missing;
}

// The profiles in `folder`, read; reports and returns false when one is unreadable.
bool read_folder(const std::string &folder, std::vector<profile::Profile> &found) {
  for (const auto &entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".idbprof") continue; // skips PATH.tmp.PID leftovers
    profile::ReadResult r = profile::read_profile(entry.path().string());
    if (!r.profile) {
      std::cerr << "idb run: " << r.error << '\n';
      return false;
    }
    found.push_back(std::move(*r.profile));
  }
  return true;
}

// The profile(s) in `folder` as one: the merged profile when the ranks' merge completed
// (spills a killed rank left beside it are ignored), else the per-rank profiles combined,
// with the ranks that left none. Reports and returns no profile when there is none or
// one is unreadable.
Collected collect(const std::string &folder) {
  std::vector<profile::Profile> found;
  if (!read_folder(folder, found)) return {};
  if (found.empty()) {
    std::cerr << "idb run: the program left no profile (is it instrumented, and did it "
                 "exit normally?)\n";
    return {};
  }
  auto merged = std::find_if(found.begin(), found.end(), is_merged);
  if (merged != found.end()) {
    if (found.size() > 1)
      std::cerr << "idb run: using the merged profile; " << found.size() - 1
                << " per-rank profile(s) beside it ignored\n";
    return {std::move(*merged), {}};
  }
  std::vector<int> missing = missing_ranks(found);
  profile::CombineResult c = profile::combine_ranks(std::move(found));
  if (!c.profile) std::cerr << "idb run: " << c.error << '\n';
  return {std::move(c.profile), std::move(missing)};
}

// "2" or "2, 5-7, 9": ranks in order as runs.
std::string rank_list(const std::vector<int> &ranks) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    text += (text.empty() ? "" : ", ") + std::to_string(ranks[i]);
    if (j > i) text += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

// Adds `key` unless the user gave it with --attr.
void add_attribute(store::KeyValues &attributes, const std::string &key, const std::string &value) {
  for (const auto &[k, v] : attributes)
    if (k == key) return;
  attributes.emplace_back(key, value);
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
    auto db = store::open(args.db);
    store::LoadResult result = store::load(*db, p, options);
    std::cout << "idb run: stored " << result.label << " (" << p.get("nprocs", "1") << " ranks, "
              << result.cfhs << " CFHs, " << result.nodes << " nodes) in " << db->location()
              << '\n';
    if (!found.missing.empty())
      std::cout << "idb run: the run is incomplete: rank" << (found.missing.size() > 1 ? "s " : " ")
                << rank_list(found.missing) << " left no profile (attribute missing_ranks)\n";
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
  int status = launch(line, folder);
  if (status != 0) std::cerr << "idb run: " << line[0] << " exited with status " << status << '\n';
  Collected found = status == 127 ? Collected{} : collect(folder);
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
