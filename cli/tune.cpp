// `idb tune`: the grow/prune loop over the user's own build and run. Round 0 builds
// without probes (IDB_INSTRUMENT=0) and times the run: the reference. Each round then
// builds with the current selection (IDB_SELECTION_FILE), the wrappers recording every
// candidate (IDB_CANDIDATES); runs; stores the run; and decides from its data
// (analysis::tune_step) what to prune and what to grow into. It stops when a round changes
// nothing, or after --rounds, and writes the selection and an experiment definition file
// holding it and the rounds' runs. It never edits a source: stopping it at any point leaves
// the user's sources as they were.
#include "args.hpp"
#include "commands.hpp"
#include "launch.hpp"

#include "idb/analysis/dynamics.hpp"
#include "idb/analysis/score.hpp"
#include "idb/analysis/tune.hpp"
#include "idb/edf.hpp"
#include "idb/input_file.hpp"
#include "idb/store.hpp"
#include "selection.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace idb::cli {

namespace {

namespace fs = std::filesystem;

// The most of a log or candidates file tune reads back (its own files).
constexpr std::size_t kMaxLog = std::size_t(1) << 30;

// How many probes tune tries without, one at a time, when the final selection measures
// over the target (each try builds and runs the program twice).
constexpr int kPresenceTries = 3;

const char *kTuneUsage =
    "usage: idb tune --build CMD --run CMD --output FILE.sel [--edf FILE.edf] [-n N]\n"
    "                [--mpirun-arg ARG]... [--db URL] [--target PERCENT] [--grow PERCENT]\n"
    "                [--rounds N] [--repeat N] [--from FILE.sel|FILE.edf] [--label PREFIX]\n"
    "                [--wait SECONDS] [--timeout SECONDS]";
const char *kTuneHelp =
    "Finds a selection of probes that shows where the program spends its time at a cost\n"
    "under the target, by building and running it round after round:\n\n"
    "  round 0  builds without probes (IDB_INSTRUMENT=0) and times the run: the reference;\n"
    "  round k  builds with the current selection (IDB_SELECTION_FILE), runs, stores the run\n"
    "           as PREFIX-k, then prunes the probes that cost more than the target share of\n"
    "           their own time (unless they cost under 1% of the target over the whole run)\n"
    "           or that the runtime throttled, and grows into the nodes\n"
    "           holding more than the grow share of the run as their own time: their loops,\n"
    "           the calls they make (a CALL probe, or the callee's PROC when it is one of\n"
    "           the sources), one level a round.\n\n"
    "It stops when a round changes nothing, or after --rounds (then the last round's prunes\n"
    "are built and run once more). It prints a table of the rounds: probes placed, estimated\n"
    "and measured slow-down against round 0, and the node with the most time of its own.\n"
    "Then it builds and runs the program without probes and with the final selection, one\n"
    "after the other, each run at least 3 times (the shortest kept), for the measured\n"
    "slow-down it reports (stored as PREFIX-final).\n"
    "When that is over the target, the probes' presence may cost more than their estimate\n"
    "(a function no longer inlined, values kept in memory across the calls): it tries the\n"
    "selection without the probe that ran most often (10,000 activations or more; one whose\n"
    "nodes hold the grow share of the run as their own time only when no other is left),\n"
    "built and measured the same way, and leaves it out when the slow-down falls by half\n"
    "its excess over the target or more; up to 3 probes, one at a time.\n"
    "It writes the selection to --output, and an experiment definition file holding it in\n"
    "[AUTOINST] and the rounds' runs in [DBLIST]. It never edits a source; the build tree\n"
    "is left built with the final selection.\n\n"
    "  --build CMD        the build command, run by /bin/sh. It must compile every source\n"
    "                     through the wrappers (idb-gcc, idb-cc gcc, ...) each time it\n"
    "                     runs, e.g. 'make -B CC=idb-gcc', or a clean first where -B\n"
    "                     never ends (a Makefile that includes a file it remakes):\n"
    "                     'rm -f *.o app && make CC=idb-gcc'\n"
    "  --run CMD          the run command, run by /bin/sh (under mpirun with -n)\n"
    "  --output FILE.sel  where the selection goes (checked writable before round 0)\n"
    "  --edf FILE.edf     where the experiment goes (default: --output with .edf)\n"
    "  -n N               run under mpirun with N ranks ($IDB_MPIRUN, default mpirun)\n"
    "  --mpirun-arg ARG   pass ARG to mpirun (repeatable)\n"
    "  --db URL           database for the rounds' runs (default idb.db)\n"
    "  --target PERCENT   the slow-down to stay under, and each probe's cost share (default 3)\n"
    "  --grow PERCENT     the share of the run as own time that a node is refined from\n"
    "                     (default 5)\n"
    "  --rounds N         at most N rounds after round 0 (default 6)\n"
    "  --repeat N         run each round N times and keep the shortest wall time (the\n"
    "                     first run's profile is stored); default 1\n"
    "  --from FILE        the selection to start from (a selection, or an .edf's [AUTOINST]);\n"
    "                     default: the default selection\n"
    "  --label PREFIX     the rounds' labels (default tune, or tune2, tune3, ... when taken)\n"
    "  --wait SECONDS     how long to wait while another process holds the database (600)\n"
    "  --timeout SECONDS  stop when a build or a run takes longer, ending everything it\n"
    "                     started (each command runs in a process group of its own, with\n"
    "                     no terminal input); default: no limit\n\n"
    "A build or run that fails stops tune with that command's output and the round it was\n"
    "in, and keeps the rounds' logs (their folder is named); on success they are removed.\n"
    "Exit status: 0 when the files were written, 1 when tune stopped, 2 on a usage error,\n"
    "130 when interrupted.\n";

struct TuneArgs {
  std::string build, run, output, edf, from, label, db = "idb.db";
  int ranks = 0;
  std::vector<std::string> mpirun_args;
  double target_percent = 3, grow_percent = 5, wait = store::kDefaultWaitSeconds;
  double timeout = 0; // seconds a build or run may take; 0: no limit
  int rounds = 6, repeat = 1;
};

int usage_error(const std::string &what) {
  std::cerr << "idb tune: " << what << "\n" << kTuneUsage << "\n";
  return 2;
}

// 0 when parsed, 2 on a usage error (reported), -1 when help was printed.
int parse(int argc, char **argv, TuneArgs &a) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kTuneUsage << "\n\n" << kTuneHelp;
      return -1;
    }
    const char *known[] = {"--build",      "--run",   "--output", "--edf",  "-n",
                           "--mpirun-arg", "--db",    "--target", "--grow", "--rounds",
                           "--from",       "--label", "--repeat", "--wait", "--timeout"};
    bool is_known = false;
    for (const char *k : known)
      is_known = is_known || arg == k;
    if (!is_known) return usage_error("unknown option '" + arg + "' (see 'idb tune --help')");
    if (i + 1 >= argc) return usage_error(arg + " needs a value");
    std::string value = argv[++i];
    if (arg == "--build") a.build = value;
    if (arg == "--run") a.run = value;
    if (arg == "--output") a.output = value;
    if (arg == "--edf") a.edf = value;
    if (arg == "--db") a.db = value;
    if (arg == "--wait" && !parse_wait(value, a.wait))
      return usage_error("--wait takes seconds, 0 or more, not '" + value + "'");
    if (arg == "--timeout" && (!parse_wait(value, a.timeout) || a.timeout <= 0 || a.timeout > 1e7))
      return usage_error("--timeout takes seconds above 0, at most 10000000, not '" + value + "'");
    if (arg == "--from") a.from = value;
    if (arg == "--label") { // the rounds' labels are PREFIX-1, ...: they must be good labels
      a.label = value;
      std::string problem = store::label_problem(value.empty() ? value : value + "-1");
      if (!problem.empty())
        return usage_error(std::string("--label '").append(value).append("': ").append(problem));
    }
    if (arg == "--mpirun-arg") a.mpirun_args.push_back(value);
    if (arg == "-n" && !parse_count(value, 1, 1000000, a.ranks))
      return usage_error("-n takes a number of ranks, 1 or more, not '" + value + "'");
    if (arg == "--repeat" && !parse_count(value, 1, 100, a.repeat))
      return usage_error("--repeat takes a count from 1 to 100, not '" + value + "'");
    if (arg == "--rounds" && !parse_count(value, 1, 100, a.rounds))
      return usage_error("--rounds takes a count from 1 to 100, not '" + value + "'");
    if (arg == "--target" || arg == "--grow") {
      double &percent = arg == "--target" ? a.target_percent : a.grow_percent;
      if (!parse_percent(value.c_str(), percent) || percent <= 0 || percent > 100)
        return usage_error(arg.append(" takes a percentage above 0, at most 100, not '")
                               .append(value)
                               .append("'"));
    }
  }
  if (a.build.empty()) return usage_error("no --build command given");
  if (a.run.empty()) return usage_error("no --run command given");
  if (a.output.empty()) return usage_error("no --output file given for the selection");
  if (a.edf.empty()) {
    fs::path edf = a.output;
    a.edf = edf.extension() == ".sel" ? edf.replace_extension(".edf").string() : a.output + ".edf";
  }
  if (fs::path(a.edf) == fs::path(a.output))
    return usage_error("--edf and --output name the same file");
  return 0;
}

// "" when a file can be written at `path` (a file made beside it and removed), else why not.
std::string check_writable(const std::string &path) {
  fs::path parent = fs::path(path).parent_path();
  std::string probe = (parent.empty() ? fs::path(".") : parent).string() + "/.idb-tune-XXXXXX";
  int fd = mkstemp(probe.data());
  if (fd < 0) return "cannot write " + path + ": " + std::strerror(errno);
  close(fd);
  unlink(probe.c_str());
  std::error_code ec;
  if (fs::is_directory(path, ec)) return "cannot write " + path + ": it is a folder";
  return "";
}

// The selection to start from: --from's, else the default. Reports and returns nullopt
// when it cannot be read or is not a valid selection.
std::optional<std::string> base_selection(const TuneArgs &a) {
  if (a.from.empty()) return std::string("default\n");
  std::string text, error;
  if (fs::path(a.from).extension() == ".edf") {
    std::optional<std::string> section = edf::read_autoinst(a.from, error);
    if (!section) {
      std::cerr << "idb tune: " << error << '\n';
      return std::nullopt;
    }
    text = section->find_first_not_of(" \t\r\n") == std::string::npos ? "default\n" : *section;
  } else if (std::string why = files::read_input_file(a.from, std::size_t(16) << 20, text);
             !why.empty()) {
    std::cerr << "idb tune: cannot read " << a.from << ": " << why << '\n';
    return std::nullopt;
  }
  instr::SelectionResult parsed = instr::parse_selection(text, a.from);
  if (!parsed.error.empty()) {
    std::cerr << "idb tune: " << parsed.error << '\n';
    return std::nullopt;
  }
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

// The label prefix: --label, else the first of tune, tune2, tune3, ... with no run
// labelled PREFIX-1. Reports and returns "" when --label's is taken.
std::string label_prefix(store::Database &db, const std::string &given) {
  std::vector<store::RunInfo> runs = store::runs(db);
  auto taken = [&](const std::string &prefix) {
    for (const store::RunInfo &r : runs)
      if (r.label.rfind(prefix + "-", 0) == 0) return true;
    return false;
  };
  if (!given.empty()) {
    if (!taken(given)) return given;
    std::cerr << "idb tune: " << db.location() << " already has runs labelled " << given
              << "-...; give another --label\n";
    return "";
  }
  for (int n = 1;; ++n) {
    std::string prefix = n == 1 ? "tune" : "tune" + std::to_string(n);
    if (!taken(prefix)) return prefix;
  }
}

const char *kind_word(const std::string &kind) {
  if (kind == "PROC") return "proc";
  if (kind == "LOOP") return "loop";
  if (kind == "CALL") return "call";
  return "all";
}

// One line of the selection for a change: `include loop id=N mode=blackbox  # why`.
struct RuleLine {
  std::int32_t probe = 0;
  std::string text;
};

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string percent(double share) {
  return fixed(100 * share, 1) + "%";
}

// What one round did.
struct Round {
  int number = 0;
  std::string label; // the stored run; "" for round 0
  std::size_t probes = 0;
  double wall = 0;      // s, the run command's
  double estimated = 0; // the run's slow-down by the probes' noise
  std::size_t pruned = 0, grown = 0;
  std::vector<analysis::HotNode> top;
};

class Tuner {
public:
  Tuner(TuneArgs args, std::string base, std::string work)
      : a_(std::move(args)), base_(std::move(base)), work_(std::move(work)) {}

  // Runs the loop and writes the files; the exit status.
  int run(store::Database &db, const std::string &prefix);

private:
  TuneArgs a_;
  std::string base_, work_;
  analysis::TuneState state_;
  std::vector<RuleLine> grown_, pruned_;
  std::vector<Round> rounds_;

  int failed_ = 1;              // the exit status of the command that failed
  double bare_ = 0, tuned_ = 0; // the final measurement: s without probes, with the selection
  // The widest spread of one stage's repeated runs (longest over shortest, less 1), and the
  // stage: more than twice the target, and the times move more than the probes can.
  double widest_spread_ = 0;
  std::string widest_stage_;
  std::string program_; // the program's name, from its first profile

  // The program built and run without probes, then with a selection, one after the other.
  struct Measurement {
    double bare = 0, tuned = 0;
    std::string folder; // the run with the selection left its profile here
    std::vector<analysis::TuneCandidate> candidates; // of the build with the selection
    double slowdown() const { return tuned / bare - 1; }
  };

  double measured() const { return tuned_ / bare_ - 1; }
  std::optional<Measurement> measure(const std::string &stage, const std::string &selection,
                                     const std::string &what);
  // The final measurement and the presence tries decide on differences of a point or two,
  // which one run each way cannot tell from the machine's noise (on a shared machine the
  // same build's runs spread by as much): each of their runs is the shortest of at least
  // this many.
  static constexpr int kDecisionRuns = 3;
  // What a presence try came to: no probe to try, the probe left out (the measurement
  // replaced by the try's), the probe put back, or a command that failed (reported).
  enum class Presence { none, pruned, put_back, failed };
  Presence try_presence(Measurement &m, std::set<std::int32_t> &tried, int attempt);
  double against_round_0(const Round &r) const { return r.wall / rounds_[0].wall - 1; }
  std::string selection_text() const;
  bool build(const std::string &stage, const std::string &what, const Environment &env);
  // Runs a build or run command line: under --timeout in a process group of its own.
  int command(const std::vector<std::string> &line, const Environment &env, const std::string &log,
              bool &timed_out) const {
    if (a_.timeout > 0) return launch_limited(line, env, log, "idb tune", a_.timeout, timed_out);
    timed_out = false;
    return launch(line, env, log, "idb tune");
  }
  // A command --timeout ended: what it was, and its output. Tune stops as on a failure.
  void report_timeout(const std::string &stage, const char *what, const std::string &line,
                      const std::string &log);
  std::optional<double> run_once(const std::string &stage, const std::string &folder,
                                 int at_least = 1);
  std::optional<profile::Profile> store_run(const std::string &stage, const std::string &folder,
                                            const std::string &label, double wall,
                                            store::Database &db);
  int stop(int status) const;
  void print_round(const Round &r) const;
  void print_table() const;
  std::string edf_text(double estimated, const std::string &estimated_from,
                       const std::string &final_label) const;
};

std::string Tuner::selection_text() const {
  std::string text = "# idb tune's selection (docs/user-guide.md, \"The loop automated\")\n";
  text += "# build: " + a_.build + "\n# run:   " + a_.run + "\n";
  text += base_;
  if (!grown_.empty()) text += "# grown by idb tune\n";
  for (const RuleLine &r : grown_)
    text += r.text + "\n";
  if (!pruned_.empty()) text += "# pruned by idb tune\n";
  for (const RuleLine &r : pruned_)
    text += r.text + "\n";
  return text;
}

// Shows a failed command's output (its last 200 lines) with what and where it was.
void show_log(const std::string &log) {
  std::string text;
  if (!files::read_input_file(log, kMaxLog, text).empty() || text.empty()) return;
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::size_t from = lines.size() > 200 ? lines.size() - 200 : 0;
  std::cerr << "---- its output" << (from ? " (the last 200 lines)" : "") << ":\n";
  for (std::size_t i = from; i < lines.size(); ++i)
    std::cerr << lines[i] << '\n';
  std::cerr << "----\n";
}

void Tuner::report_timeout(const std::string &stage, const char *what, const std::string &line,
                           const std::string &log) {
  failed_ = 1;
  std::cerr << "idb tune: " << stage << ": the " << what << " command took longer than "
            << a_.timeout << " s (--timeout), and was ended: " << line << '\n';
  show_log(log);
}

int Tuner::stop(int status) const {
  if (status == 130 || status == 128 + SIGTERM) {
    std::cerr << "idb tune: interrupted; no file written, the sources untouched\n";
    return 130;
  }
  std::cerr << "idb tune: stopped; no file written. The rounds' logs are in " << work_ << '\n';
  return 1;
}

// The candidates the wrappers recorded in `file` (none when nothing was compiled through
// them); nullopt after reporting a malformed file.
std::optional<std::vector<analysis::TuneCandidate>> read_candidates(const std::string &file) {
  std::string text;
  files::read_input_file(file, kMaxLog, text);
  analysis::CandidatesResult parsed = analysis::parse_candidates(text, file);
  if (!parsed.error.empty()) {
    std::cerr << "idb tune: " << parsed.error << '\n';
    return std::nullopt;
  }
  return std::move(parsed.candidates);
}

// A stage's name in its log files: "round 3" gives round-3.
std::string log_name(const std::string &stage) {
  std::string name = stage;
  for (char &c : name)
    if (c == ' ') c = '-';
  return name;
}

bool Tuner::build(const std::string &stage, const std::string &what, const Environment &env) {
  std::string log = work_ + "/" + log_name(stage) + ".build.log";
  std::cout << stage << ": building " << what << "..." << std::flush;
  bool timed_out = false;
  int status = command({"/bin/sh", "-c", a_.build}, env, log, timed_out);
  std::cout << (status == 0 ? " done" : timed_out ? " timed out" : " failed") << std::endl;
  if (status == 0) return true;
  if (timed_out) {
    report_timeout(stage, "build", a_.build, log);
    return false;
  }
  failed_ = status;
  if (status == 130) return false;
  std::cerr << "idb tune: " << stage << ": the build command failed (exit status " << status
            << "): " << a_.build << '\n';
  show_log(log);
  return false;
}

// Runs the program --repeat times, the first with its profile going to `folder` (the
// others' to folders removed at once); the shortest wall time, or nullopt after reporting a
// failure.
std::optional<double> Tuner::run_once(const std::string &stage, const std::string &folder,
                                      int at_least) {
  std::string log = work_ + "/" + log_name(stage) + ".run.log";
  std::vector<std::string> line = {"/bin/sh", "-c", a_.run};
  if (a_.ranks > 0) {
    const char *mpirun = std::getenv("IDB_MPIRUN");
    std::vector<std::string> mpi = {mpirun && *mpirun ? mpirun : "mpirun", "-np",
                                    std::to_string(a_.ranks)};
    mpi.insert(mpi.end(), a_.mpirun_args.begin(), a_.mpirun_args.end());
    line.insert(line.begin(), mpi.begin(), mpi.end());
  }
  std::cout << stage << ": running..." << std::flush;
  std::optional<double> shortest, longest;
  for (int i = 0, times = std::max(a_.repeat, at_least); i < times; ++i) {
    std::string out = i == 0 ? folder : work_ + "/repeat";
    fs::create_directories(out);
    auto start = std::chrono::steady_clock::now();
    bool timed_out = false;
    int status = command(line, {{"IDB_OUT", out + "/"}}, log, timed_out);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (i > 0) {
      std::error_code ignored;
      fs::remove_all(out, ignored);
    }
    if (timed_out) {
      std::cout << " timed out" << std::endl;
      report_timeout(stage, "run", a_.run, log);
      return std::nullopt;
    }
    if (status != 0) {
      std::cout << " failed" << std::endl;
      failed_ = status;
      if (status != 130) {
        std::cerr << "idb tune: " << stage << ": the run command failed (exit status " << status
                  << "): " << a_.run;
        if (a_.ranks > 0) std::cerr << " (under " << line[0] << " -np " << a_.ranks << ")";
        std::cerr << '\n';
        show_log(log);
      }
      return std::nullopt;
    }
    std::cout << ' ' << fixed(wall, 2) << " s" << std::flush;
    shortest = std::min(shortest.value_or(wall), wall);
    longest = std::max(longest.value_or(wall), wall);
  }
  double spread = *shortest > 0 ? *longest / *shortest - 1 : 0;
  if (spread > 2 * a_.target_percent / 100)
    std::cout << " (spread " << percent(spread) << ", over twice the target)";
  if (spread > widest_spread_) {
    widest_spread_ = spread;
    widest_stage_ = stage;
  }
  std::cout << std::endl;
  return shortest;
}

void Tuner::print_round(const Round &r) const {
  double measured = against_round_0(r);
  std::cout << "round " << r.number << ": " << r.probes << " probes, estimated "
            << percent(r.estimated) << ", measured " << percent(measured) << "; " << r.pruned
            << " to prune, " << r.grown << " to grow into\n";
  for (std::size_t i = 0; i < r.top.size() && i < 3; ++i)
    std::cout << "  " << percent(r.top[i].share) << " own  " << r.top[i].label << '\n';
}

void Tuner::print_table() const {
  std::cout << "\nround  run          probes  estimated  measured   wall s  pruned  grown  most "
               "time of its own\n";
  for (const Round &r : rounds_) {
    char line[256];
    std::string top = r.top.empty() ? "" : r.top[0].label + " (" + percent(r.top[0].share) + ")";
    if (r.number == 0)
      std::snprintf(line, sizeof line, "%-6s %-12s %6s %10s %9s %8.3f %7s %6s  %s", "0",
                    "(no probes)", "-", "-", "-", r.wall, "-", "-", "");
    else
      std::snprintf(line, sizeof line, "%-6d %-12s %6zu %10s %9s %8.3f %7zu %6zu  ", r.number,
                    r.label.c_str(), r.probes, percent(r.estimated).c_str(),
                    percent(against_round_0(r)).c_str(), r.wall, r.pruned, r.grown);
    std::cout << line << top << '\n';
  }
}

// The database as the .edf names it: a path relative to the .edf's folder.
std::string edf_database(const std::string &db, const std::string &edf) {
  bool url = db.find("://") != std::string::npos || db.rfind("sqlite:", 0) == 0 ||
             db.rfind("postgres", 0) == 0;
  if (url) return db;
  std::error_code ec;
  fs::path folder = fs::absolute(fs::path(edf), ec).parent_path();
  fs::path relative = fs::absolute(db, ec).lexically_relative(folder);
  return relative.empty() ? db : relative.string();
}

std::string Tuner::edf_text(double estimated, const std::string &estimated_from,
                            const std::string &final_label) const {
  std::string text = "# Written by idb tune: the selection it arrived at, and its rounds.\n";
  text += "[PREAMBLE]\n";
  text += "Experiment   idb tune of " + program_ + "\n";
  text += "Mode         COMPARE\n";
  text += "Application  " + program_ + "\n";
  text += "Database     " + edf_database(a_.db, a_.edf) + "\n";
  text += "[DESCR]\n";
  text += "idb tune --build '" + a_.build + "' --run '" + a_.run + "'";
  if (a_.ranks) text += " -n " + std::to_string(a_.ranks);
  text += " --target " + fixed(a_.target_percent, 1) + " --grow " + fixed(a_.grow_percent, 1) +
          " --repeat " + std::to_string(a_.repeat) + "\n";
  text += "Without probes the run took " + fixed(bare_, 3) + " s, with the final selection " +
          fixed(tuned_, 3) +
          " s (built and run one after the other at the end): " + percent(measured()) +
          " measured; the probes' cost estimated at " + percent(estimated) + " (" + estimated_from +
          ").\n";
  text += "[AUTOINST]\n" + selection_text();
  text += "[DBLIST]\n";
  for (const Round &r : rounds_)
    if (r.number > 0)
      text += r.label + "  round " + std::to_string(r.number) + ": " + std::to_string(r.probes) +
              " probes, estimated " + percent(r.estimated) + ", measured " +
              percent(against_round_0(r)) + " against round 0\n";
  text += final_label + "  the final selection: " + percent(measured()) +
          " measured against a build without probes run right before it\n";
  return text;
}

// Reads the profile the run left in `folder` and stores it as `label`; the profile, or
// nullopt after reporting why not.
std::optional<profile::Profile> Tuner::store_run(const std::string &stage,
                                                 const std::string &folder,
                                                 const std::string &label, double wall,
                                                 store::Database &db) {
  Collected found = collect(folder, "idb tune");
  if (!found.profile) return std::nullopt;
  store::LoadOptions options;
  options.label = label;
  options.attributes = {{"command", a_.run},
                        {"tune_stage", stage},
                        {"tune_build", a_.build},
                        {"wall_s", fixed(wall, 6)}};
  try {
    store::load(db, *found.profile, options);
  } catch (const store::Error &e) {
    std::cerr << "idb tune: " << stage << ": " << e.what() << '\n';
    return std::nullopt;
  }
  if (program_.empty()) program_ = found.profile->get("program", "?");
  return std::move(found.profile);
}

std::optional<Tuner::Measurement>
Tuner::measure(const std::string &stage, const std::string &selection, const std::string &what) {
  Measurement m;
  std::string bare_folder = work_ + "/" + log_name(stage) + "-bare";
  m.folder = work_ + "/" + log_name(stage) + "-tuned";
  std::string candidates_file = work_ + "/" + log_name(stage) + ".candidates";
  fs::create_directories(bare_folder);
  fs::create_directories(m.folder);
  if (!build(stage, "without probes", {{"IDB_INSTRUMENT", "0"}})) return std::nullopt;
  std::optional<double> bare = run_once(stage, bare_folder, kDecisionRuns);
  if (!bare) return std::nullopt;
  std::error_code ignored;
  fs::remove(candidates_file, ignored); // the wrappers append
  if (!build(stage, what, {{"IDB_SELECTION_FILE", selection}, {"IDB_CANDIDATES", candidates_file}}))
    return std::nullopt;
  std::optional<double> tuned = run_once(stage, m.folder, kDecisionRuns);
  if (!tuned) return std::nullopt;
  std::optional<std::vector<analysis::TuneCandidate>> candidates = read_candidates(candidates_file);
  if (!candidates) {
    failed_ = 1;
    return std::nullopt;
  }
  m.bare = *bare;
  m.tuned = *tuned;
  m.candidates = std::move(*candidates);
  return m;
}

// Tries the selection without the most frequent probe of `m`'s run (analysis::
// presence_suspect): leaves it out when the measured slow-down falls by at least half its
// excess over the target (`m` becomes the try's measurement), else puts it back (the tree
// then holds the try).
Tuner::Presence Tuner::try_presence(Measurement &m, std::set<std::int32_t> &tried, int attempt) {
  double target = a_.target_percent / 100;
  Collected found = collect(m.folder, "idb tune");
  if (!found.profile) return Presence::failed; // reported
  analysis::Score score = analysis::score(*found.profile, target);
  std::optional<analysis::TuneChange> suspect =
      analysis::presence_suspect(score, m.candidates, tried, a_.grow_percent / 100);
  if (!suspect) return Presence::none;
  tried.insert(suspect->probe);
  std::string stage = "presence " + std::to_string(attempt);
  std::cout << stage << ": measured " << percent(m.slowdown()) << ", over the target of "
            << percent(target) << "; trying without " << suspect->label << " (" << suspect->why
            << ")\n";
  std::size_t before = pruned_.size();
  pruned_.push_back({suspect->probe, "exclude all id=" + std::to_string(suspect->probe)});
  for (const analysis::TuneChange &loop : analysis::whole_work_loops(suspect->probe, m.candidates))
    pruned_.push_back({loop.probe, "exclude all id=" + std::to_string(loop.probe) + "  # " +
                                       loop.label + ": " + loop.why});
  std::string selection = work_ + "/" + log_name(stage) + ".sel";
  if (std::string e = write_output_file(selection, selection_text()); !e.empty()) {
    std::cerr << "idb tune: " << e << '\n';
    failed_ = 1;
    return Presence::failed;
  }
  std::optional<Measurement> next = measure(stage, selection, "without it");
  if (!next) return Presence::failed;
  bool leave_out = next->slowdown() <= m.slowdown() - (m.slowdown() - target) / 2;
  std::cout << stage << ": " << percent(m.slowdown()) << " with it, " << percent(next->slowdown())
            << " without: "
            << (leave_out ? "pruned" : "kept (the slow-down did not fall by half its excess)")
            << '\n';
  if (!leave_out) {
    pruned_.resize(before);
    return Presence::put_back;
  }
  pruned_[before].text += "  # measured " + percent(m.slowdown()) + " with it, " +
                          percent(next->slowdown()) + " without, " + suspect->label + ": " +
                          suspect->why;
  m = std::move(*next);
  return Presence::pruned;
}

int Tuner::run(store::Database &db, const std::string &prefix) {
  // Round 0: the program as it is.
  std::string none = work_ + "/round-0";
  fs::create_directories(none);
  if (!build("round 0", "without probes", {{"IDB_INSTRUMENT", "0"}})) return stop(failed_);
  std::optional<double> pristine = run_once("round 0", none);
  if (!pristine) return stop(failed_);
  rounds_.push_back({0, "", 0, *pristine, 0, 0, 0, {}});

  std::size_t sources = 0;
  std::size_t unmeasured = 0; // prunes the round after the last one found
  for (int k = 1;; ++k) {
    std::string selection = work_ + "/round-" + std::to_string(k) + ".sel";
    std::string candidates_file = work_ + "/round-" + std::to_string(k) + ".candidates";
    if (std::string e = write_output_file(selection, selection_text()); !e.empty()) {
      std::cerr << "idb tune: " << e << '\n';
      return stop(1);
    }
    Environment env = {{"IDB_SELECTION_FILE", selection}, {"IDB_CANDIDATES", candidates_file}};
    if (!build("round " + std::to_string(k),
               "with " + std::to_string(grown_.size()) + " grown and " +
                   std::to_string(pruned_.size()) + " pruned",
               env))
      return stop(failed_);
    // None when the build compiled nothing through the wrappers (reported below).
    std::optional<std::vector<analysis::TuneCandidate>> built = read_candidates(candidates_file);
    if (!built) return stop(1);
    std::set<std::string> files;
    for (const analysis::TuneCandidate &c : *built)
      files.insert(c.file);
    if (files.empty() || files.size() < sources) {
      std::cerr << "idb tune: round " << k << ": the build compiled "
                << (files.empty() ? "no source"
                                  : std::to_string(files.size()) + " of " +
                                        std::to_string(sources) + " sources")
                << " through the compiler wrappers; tune needs a build command that compiles "
                   "every source through them each time (make -B CC=idb-gcc, or a clean "
                   "first)\n";
      return stop(1);
    }
    sources = files.size();
    // What was grown and could not be placed is not tried again.
    std::size_t probes = 0;
    for (const analysis::TuneCandidate &c : *built) {
      probes += c.placed();
      if (!c.placed() && state_.grown.count(c.id)) state_.failed.insert(c.id);
    }

    std::string folder = work_ + "/round-" + std::to_string(k);
    fs::create_directories(folder);
    std::optional<double> wall = run_once("round " + std::to_string(k), folder);
    if (!wall) return stop(failed_);
    Round r;
    r.number = k;
    r.label = prefix + "-" + std::to_string(k);
    r.probes = probes;
    r.wall = *wall;
    std::optional<profile::Profile> run =
        store_run("round " + std::to_string(k), folder, r.label, *wall, db);
    if (!run) return stop(1);
    analysis::TuneOptions opt{a_.target_percent / 100, a_.grow_percent / 100,
                              std::max(0.0, against_round_0(r))};
    analysis::Score score = analysis::score(*run, opt.target);
    analysis::TuneStep step = analysis::tune_step(score, *built, state_, opt);
    // From the last round on, only prunes: the round after it measures them.
    if (k >= a_.rounds) step.grow.clear();
    r.estimated = step.estimated;
    r.pruned = step.prune.size();
    r.grown = step.grow.size();
    r.top.assign(step.hot.begin(),
                 step.hot.begin() + std::ptrdiff_t(std::min<std::size_t>(5, step.hot.size())));
    rounds_.push_back(r);
    print_round(r);
    for (const analysis::TuneChange &c : step.prune)
      std::cout << "  prune " << c.label << ": " << c.why << '\n';
    for (const analysis::TuneChange &c : step.grow)
      std::cout << "  grow  " << c.label << ": " << c.why << '\n';

    if (step.prune.empty() && step.grow.empty()) break;
    for (const analysis::TuneChange &c : step.prune) {
      state_.pruned.insert(c.probe);
      state_.grown.erase(c.probe);
      std::erase_if(grown_, [&](const RuleLine &g) { return g.probe == c.probe; });
      pruned_.push_back({c.probe, "exclude all id=" + std::to_string(c.probe) + "  # round " +
                                      std::to_string(k) + ", " + c.label + ": " + c.why});
    }
    if (k > a_.rounds) { // the round that measured the last prunes found more
      unmeasured = step.prune.size();
      break;
    }
    for (const analysis::TuneChange &c : step.grow) {
      state_.grown.insert(c.probe);
      std::string rule = std::string("include ") + kind_word(c.kind) +
                         " id=" + std::to_string(c.probe) +
                         (c.kind == "LOOP" ? " mode=blackbox" : "");
      grown_.push_back(
          {c.probe, rule + "  # round " + std::to_string(k) + ", " + c.label + ": " + c.why});
    }
  }

  const Round &last = rounds_.back();
  print_table();

  // The measurement: the program without probes and with the final selection, built and
  // run one after the other now, so that a change in the machine's load since round 0
  // weighs on both. The tree is left built with the final selection.
  std::string final_selection = work_ + "/final.sel";
  if (std::string e = write_output_file(final_selection, selection_text()); !e.empty()) {
    std::cerr << "idb tune: " << e << '\n';
    return stop(1);
  }
  std::cout << '\n';
  std::optional<Measurement> m = measure("measure", final_selection, "with the final selection");
  if (!m) return stop(failed_);
  // Over the target: the probes' presence may cost what their estimate does not hold. The
  // most frequent is tried without, and stays out if the measured slow-down falls.
  std::set<std::int32_t> tried;
  double target = a_.target_percent / 100;
  std::size_t presence_pruned = 0;
  Presence outcome = Presence::none;
  for (int attempt = 1; attempt <= kPresenceTries && m->slowdown() > target; ++attempt) {
    outcome = try_presence(*m, tried, attempt);
    if (outcome == Presence::failed) return stop(failed_);
    if (outcome == Presence::none && attempt == 1) // nothing was tried at all
      std::cout << "presence: measured " << percent(m->slowdown()) << ", over the target of "
                << percent(target) << ", but no probe left to try without ran "
                << analysis::kPresenceActivations << " times or more\n";
    if (outcome != Presence::pruned) break;
    ++presence_pruned;
  }
  // The last try was put back: the tree holds the try's build, so it is built again with
  // the final selection.
  if (outcome == Presence::put_back) {
    if (std::string e = write_output_file(final_selection, selection_text()); !e.empty()) {
      std::cerr << "idb tune: " << e << '\n';
      return stop(1);
    }
    std::string candidates_file = work_ + "/rebuild.candidates";
    if (!build("measure", "with the final selection again",
               {{"IDB_SELECTION_FILE", final_selection}, {"IDB_CANDIDATES", candidates_file}}))
      return stop(failed_);
  }
  std::string final_label = prefix + "-final";
  std::optional<profile::Profile> final_run =
      store_run("measure", m->folder, final_label, m->tuned, db);
  if (!final_run) return stop(1);
  bare_ = m->bare;
  tuned_ = m->tuned;
  auto probes = std::count_if(m->candidates.begin(), m->candidates.end(),
                              [](const analysis::TuneCandidate &c) { return c.placed(); });
  // The estimate of what the final selection costs: the last round's, or the final run's
  // once a probe was pruned after the rounds.
  double estimated = last.estimated;
  std::string estimated_from = last.label;
  if (presence_pruned) {
    estimated = analysis::score(*final_run, target).dilation;
    estimated_from = final_label;
  }

  std::string e = write_output_file(a_.output, selection_text());
  if (e.empty()) e = write_output_file(a_.edf, edf_text(estimated, estimated_from, final_label));
  if (!e.empty()) {
    std::cerr << "idb tune: " << e << '\n';
    return 1;
  }
  std::cout << "\nfinal selection: " << probes << " probes; measured slow-down "
            << percent(measured()) << " (" << fixed(tuned_, 3) << " s against " << fixed(bare_, 3)
            << " s without probes, built and run one after the other"
            << (a_.repeat > 1 ? ", best of " + std::to_string(a_.repeat) : "") << "), estimated "
            << percent(estimated) << " (" << estimated_from << ")\n";
  if (unmeasured)
    std::cout << "the selection also prunes the " << unmeasured << " probe(s) round " << last.number
              << " found after the last round; the measurement includes them\n";
  if (measured() > target)
    std::cout << "note: measured over the target of " << percent(target)
              << ". The probes' own cost is the estimate; the rest is what they change in the "
                 "code around them (inlining, registers, caches), or what any instrumented "
                 "build costs (the runtime's start and finalize), or the machine's other work "
                 "(--repeat N takes the best of N runs)\n";
  if (widest_spread_ > 2 * target)
    std::cout << "note: the same build's repeated runs spread up to " << percent(widest_spread_)
              << " (" << widest_stage_ << "), over twice the target of " << percent(target)
              << ": the machine's other work moved the times more than the probes can, so the "
                 "measured slow-downs above are not reliable. Tune again on a quieter machine, "
                 "with a longer run, or with a larger --repeat\n";
  std::cout << "wrote " << a_.output << " and " << a_.edf << " (runs " << prefix << "-1.." << prefix
            << "-" << last.number << " and " << final_label << " in " << db.location() << ")\n";
  // The loop to make dynamic, unless the selection has one already.
  profile::Profile stored = store::read_run(db, final_label);
  bool dynamic = std::any_of(stored.cfhs.begin(), stored.cfhs.end(),
                             [](const profile::Cfh &h) { return !h.dynamics.empty(); });
  std::optional<analysis::TimeStep> step = analysis::time_step_candidate(stored);
  if (step && !dynamic)
    std::cout << "the time step is likely " << step->label << " (id " << step->probe << ", "
              << percent(step->share) << " of the run): 'include loop id=" << step->probe
              << " mode=dynamic' in the selection keeps each of its iterations (idb dynamics)\n";
  return 0;
}

} // namespace

int tune(int argc, char **argv) {
  TuneArgs args;
  if (int status = parse(argc, argv, args); status != 0) return status < 0 ? 0 : status;
  for (const std::string &path : {args.output, args.edf})
    if (std::string why = check_writable(path); !why.empty()) {
      std::cerr << "idb tune: " << why << '\n';
      return 1;
    }
  std::optional<std::string> base = base_selection(args);
  if (!base) return 1;
  std::unique_ptr<store::Database> db;
  std::string prefix;
  try {
    db = store::open(args.db, {.wait_seconds = args.wait});
    prefix = label_prefix(*db, args.label);
  } catch (const store::Error &e) {
    std::cerr << "idb tune: " << e.what() << '\n';
    return 1;
  }
  if (prefix.empty()) return 1;
  std::string pattern = (fs::temp_directory_path() / "idb-tune-XXXXXX").string();
  if (!mkdtemp(pattern.data())) {
    std::cerr << "idb tune: cannot create a temporary folder: " << std::strerror(errno) << '\n';
    return 1;
  }
  Tuner tuner(args, *base, pattern);
  int status = tuner.run(*db, prefix);
  std::error_code ignored;
  if (status != 1) fs::remove_all(pattern, ignored);
  return status;
}

} // namespace idb::cli
