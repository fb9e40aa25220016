// `idb load`: reads profiles and stores each as one run (one transaction per file) in the
// database, with a label and attributes from the command line; with --combine, the files
// are the ranks of one run and are stored as that run.
#include "args.hpp"
#include "commands.hpp"

#include "idb/combine.hpp"
#include "idb/profile.hpp"
#include "idb/store.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace idb::cli {

namespace {

const char *kLoadUsage =
    "usage: idb load [--db URL] [--label LABEL] [--attr KEY=VALUE]... [--progress|--no-progress]\n"
    "                [--combine] [--wait SECONDS] PROFILE...";
const char *kLoadHelp =
    "Stores each profile as one run: its metadata, attributes, probes, CFHs, nodes and\n"
    "statistics. A file loads whole or not at all; a label already in the database is\n"
    "refused. Files are loaded one by one: a bad one is reported and the rest still load.\n\n"
    "  --db URL          database: a path, sqlite:PATH, sqlite://PATH or postgresql://...\n"
    "                    (default idb.db); a SQLite file is created when missing\n"
    "  --label LABEL     the run's label; with several files, LABEL-1, LABEL-2, ... in\n"
    "                    order. Default: PROGRAM-START-PID, e.g. jacobi-2026-11-22T05:01:02Z-4242\n"
    "  --attr KEY=VALUE  a run attribute (repeatable); wins over the profile's IDB_ATTR_KEY\n"
    "  --progress        always show progress: on a terminal one line that updates, else a\n"
    "                    line per tenth (default: on a terminal, once a load takes 0.5 s)\n"
    "  --no-progress     never show progress\n"
    "  --combine         the files are the ranks of one run (each rank's own profile, as an\n"
    "                    MPI program without libidb_mpi or IDB_MPI_MODE=rank leaves them):\n"
    "                    store them as that one run, all or nothing\n"
    "  --wait SECONDS    how long to wait while another process holds the database (600):\n"
    "                    loads into one database take turns, and never fail for it sooner\n\n"
    "Exit status: 0 when every file loaded, 1 when one failed, 2 on a usage error.\n";

enum class ShowProgress { automatic, always, never };

struct LoadArgs {
  ShowProgress progress = ShowProgress::automatic;
  bool combine = false;
  std::string db = "idb.db", label;
  double wait = store::kDefaultWaitSeconds;
  store::KeyValues attributes;
  std::vector<std::string> files;
};

// 0 when parsed, 2 on a usage error (reported), -1 when help was printed.
int parse(int argc, char **argv, LoadArgs &args) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kLoadUsage << "\n\n" << kLoadHelp;
      return -1;
    }
    bool takes_value = arg == "--db" || arg == "--label" || arg == "--attr" || arg == "--wait";
    if (takes_value && i + 1 >= argc) {
      std::cerr << "idb load: " << arg << " needs a value\n" << kLoadUsage << "\n";
      return 2;
    }
    if (arg == "--progress") {
      args.progress = ShowProgress::always;
    } else if (arg == "--no-progress") {
      args.progress = ShowProgress::never;
    } else if (arg == "--combine") {
      args.combine = true;
    } else if (arg == "--db") {
      args.db = argv[++i];
    } else if (arg == "--wait") {
      if (!parse_wait(argv[++i], args.wait)) {
        std::cerr << "idb load: --wait takes seconds, 0 or more\n";
        return 2;
      }
    } else if (arg == "--label") {
      args.label = argv[++i];
      if (std::string problem = store::label_problem(args.label); !problem.empty()) {
        std::cerr << "idb load: --label '" << args.label << "': " << problem << '\n';
        return 2;
      }
    } else if (arg == "--attr") {
      std::string kv = argv[++i];
      std::size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::cerr << "idb load: --attr takes KEY=VALUE, not '" << kv << "'\n";
        return 2;
      }
      args.attributes.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << "idb load: unknown option " << arg << " (see 'idb load --help')\n";
      return 2;
    } else {
      args.files.push_back(arg);
    }
  }
  if (args.files.empty()) {
    std::cerr << "idb load: no profile given\n" << kLoadUsage << "\n";
    return 2;
  }
  return 0;
}

// Progress of one load on standard error. On a terminal one line rewritten in place (by
// default only once the load has taken half a second), cleared at the end; elsewhere,
// with --progress, a line per tenth.
class ProgressLine {
public:
  ProgressLine(std::string file, ShowProgress mode)
      : file_(std::move(file)), mode_(mode), terminal_(isatty(STDERR_FILENO) != 0) {}
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  // Wipes a terminal's progress line, so what is printed next starts a clean line.
  void clear() {
    if (shown_ && terminal_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

  // Whether this load shows progress at all.
  bool wanted() const {
    return mode_ == ShowProgress::always || (mode_ == ShowProgress::automatic && terminal_);
  }

  void operator()(std::size_t done, std::size_t total) {
    if (total == 0) return;
    auto elapsed = std::chrono::steady_clock::now() - start_;
    if (mode_ == ShowProgress::automatic && elapsed < std::chrono::milliseconds(500)) return;
    int percent = int(100.0 * double(done) / double(total));
    if (terminal_) {
      std::fprintf(stderr, "\ridb load: %s %3d%%", file_.c_str(), percent);
    } else if (percent / 10 != last_tenth_) {
      last_tenth_ = percent / 10;
      std::fprintf(stderr, "idb load: %s %d%%\n", file_.c_str(), percent);
    }
    shown_ = true;
    std::fflush(stderr);
  }

private:
  std::string file_;
  ShowProgress mode_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool shown_ = false;
  int last_tenth_ = -1;
};

// Stores `profile` (read from `what`) under `label`; false (reported) when it failed.
bool store_profile(std::unique_ptr<store::Database> &db, const LoadArgs &args,
                   const profile::Profile &profile, const std::string &what,
                   const std::string &label) {
  store::LoadOptions options;
  options.attributes = args.attributes;
  options.label = label;
  ProgressLine line(what, args.progress);
  if (line.wanted()) options.progress = std::ref(line);
  try {
    if (!db) db = store::open(args.db, {.wait_seconds = args.wait});
    store::LoadResult result = store::load(*db, profile, options);
    line.clear();
    std::cout << "loaded " << what << " as " << result.label << " (" << result.cfhs << " CFHs, "
              << result.nodes << " nodes) into " << db->location() << '\n';
    return true;
  } catch (const store::Error &e) {
    std::cerr << "idb load: " << what << ": " << e.what() << '\n';
    return false;
  }
}

// Loads one file; false (reported) when it failed.
bool load_file(std::unique_ptr<store::Database> &db, const LoadArgs &args, std::size_t index) {
  const std::string &file = args.files[index];
  profile::ReadResult r = profile::read_profile(file);
  if (!r.profile) {
    std::cerr << "idb load: " << r.error << '\n';
    return false;
  }
  std::string label = args.label;
  if (!label.empty() && args.files.size() > 1)
    label.append("-").append(std::to_string(index + 1)); // GCC 12 -O3 -Wrestrict
  return store_profile(db, args, *r.profile, file, label);
}

// --combine: every file is one rank of the same run; all of them load as one run, or none.
bool load_combined(std::unique_ptr<store::Database> &db, const LoadArgs &args) {
  std::vector<profile::Profile> ranks;
  for (const std::string &file : args.files) {
    profile::ReadResult r = profile::read_profile(file);
    if (!r.profile) {
      std::cerr << "idb load: " << r.error << " (nothing loaded)\n";
      return false;
    }
    ranks.push_back(std::move(*r.profile));
  }
  profile::CombineResult c = profile::combine_ranks(std::move(ranks));
  if (!c.profile) {
    std::cerr << "idb load: cannot combine the files into one run: " << c.error
              << " (nothing loaded)\n";
    return false;
  }
  std::string what = std::to_string(args.files.size()) + " per-rank profiles";
  return store_profile(db, args, *c.profile, what, args.label);
}

} // namespace

int load(int argc, char **argv) {
  LoadArgs args;
  if (int status = parse(argc, argv, args); status != 0) return status < 0 ? 0 : status;
  std::unique_ptr<store::Database> db;
  if (args.combine) return load_combined(db, args) ? 0 : 1;
  int status = 0;
  for (std::size_t i = 0; i < args.files.size(); ++i)
    if (!load_file(db, args, i)) status = 1;
  return status;
}

} // namespace idb::cli
