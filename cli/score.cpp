// `idb score`: what each probe of a stored run cost against what it measured
// (analysis::score), for the user who prunes a selection by hand: the probes by cost,
// each with its verdict against a target share.
#include "args.hpp"
#include "commands.hpp"
#include "format.hpp"

#include "idb/analysis/score.hpp"
#include "idb/store.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

namespace idb::cli {

namespace {

const char *kScoreUsage = "usage: idb score RUN [--db URL] [--target PERCENT] [--top N | --all]\n"
                          "                     [--format table|csv|json] [--wait SECONDS]";
const char *kScoreHelp =
    "Estimates what each probe of the stored run labelled RUN cost against what it\n"
    "measured, largest cost first. A probe's cost is its noise: the calibrated cost of each\n"
    "activation (timed or throttled) and what its slow paths measured. Its own time is its\n"
    "inclusive time, a throttled node's untimed activations counted at the mean of its\n"
    "sampled ones (of its timed ones when it has no samples), and a recursive probe's inner\n"
    "levels not again inside its outer ones. Every rank, thread and CFH of the run is\n"
    "summed.\n\n"
    "Columns: activations (timed and untimed), untimed (throttled), mean us (per timed\n"
    "activation), own s, noise s, cost % (noise over own time), run % (noise over the run's\n"
    "time, the threads' roots summed), verdict: prune when cost % is over the target, keep\n"
    "otherwise, throttled when the runtime stopped timing the probe somewhere. Above the\n"
    "table: the probes' cost over the run and the slow-down it implies.\n\n"
    "  --db URL          database: a path, sqlite:PATH, sqlite://PATH or postgresql://...\n"
    "                    (default idb.db)\n"
    "  --target PERCENT  the cost share above which a probe is to be pruned (default 5)\n"
    "  --top N           the N costliest probes (default 20)\n"
    "  --all             every probe\n"
    "  --format F        table (default), csv or json: the rows alone, every probe, with\n"
    "                    the probe id and times in seconds\n" IDB_CLI_WAIT_HELP;

struct ScoreArgs {
  std::string label, db = "idb.db";
  double target_percent = 5;
  std::optional<std::size_t> top = 20; // nullopt: every probe
  Format format = Format::table;
  double wait = store::kDefaultWaitSeconds;
};

std::optional<std::size_t> parse_count(const char *text) {
  char *end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (end == text || *end || value < 1) return std::nullopt;
  return std::size_t(value);
}

bool parse_args(int argc, char **argv, ScoreArgs &a) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    bool valued = arg == "--db" || arg == "--target" || arg == "--top" || arg == "--format" ||
                  arg == "--wait";
    if (valued && i + 1 >= argc) {
      std::cerr << "idb score: " << arg << " needs a value\n" << kScoreUsage << "\n";
      return false;
    }
    if (arg == "--db") {
      a.db = argv[++i];
    } else if (arg == "--wait") {
      if (!parse_wait(argv[++i], a.wait)) {
        std::cerr << "idb score: --wait takes seconds, 0 or more\n";
        return false;
      }
    } else if (arg == "--target") {
      if (!parse_percent(argv[++i], a.target_percent) || a.target_percent <= 0 ||
          a.target_percent > 100) {
        std::cerr << "idb score: --target takes a percentage above 0, at most 100\n";
        return false;
      }
    } else if (arg == "--top") {
      a.top = parse_count(argv[++i]);
      if (!a.top) {
        std::cerr << "idb score: --top takes a count, 1 or more\n";
        return false;
      }
    } else if (arg == "--all") {
      a.top.reset();
    } else if (arg == "--format") {
      std::optional<Format> format = parse_format(argv[++i]);
      if (!format) {
        std::cerr << "idb score: --format takes table, csv or json\n";
        return false;
      }
      a.format = *format;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << "idb score: unknown option " << arg << " (see 'idb score --help')\n";
      return false;
    } else if (a.label.empty()) {
      a.label = arg;
    } else {
      std::cerr << "idb score: one run at a time (got '" << a.label << "' and '" << arg << "')\n";
      return false;
    }
  }
  if (a.label.empty()) {
    std::cerr << "idb score: no run given\n" << kScoreUsage << "\n";
    return false;
  }
  return true;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// The scores as rows: for people, rounded and the costliest `top`; for scripts, every
// probe with its id and exact numbers.
store::QueryResult score_rows(const analysis::Score &s, const ScoreArgs &a) {
  bool people = a.format == Format::table;
  store::QueryResult t;
  t.columns = {"probe",   "activations", "untimed", "mean us", "own s",
               "noise s", "cost %",      "run %",   "verdict"};
  if (!people)
    t.columns = {"probe_id", "probe",   "activations", "throttled", "mean_s",
                 "own_s",    "noise_s", "cost_share",  "run_share", "verdict"};
  t.numeric.assign(t.columns.size(), true);
  t.numeric[people ? 0 : 1] = false;
  t.numeric.back() = false;
  std::size_t shown = people && a.top ? std::min(*a.top, s.probes.size()) : s.probes.size();
  for (std::size_t i = 0; i < shown; ++i) {
    const analysis::ProbeScore &p = s.probes[i];
    std::string verdict(analysis::verdict_name(p.verdict));
    if (people)
      t.rows.push_back({p.label, std::to_string(p.activations),
                        p.throttled ? std::to_string(p.throttled) : "-", fixed(p.mean * 1e6, 3),
                        fixed(p.own, 6), fixed(p.noise, 6), fixed(100 * p.cost_share, 2),
                        fixed(100 * p.run_share, 2), verdict});
    else
      t.rows.push_back({std::to_string(p.probe), p.label, std::to_string(p.activations),
                        std::to_string(p.throttled), fixed(p.mean, 12), fixed(p.own, 9),
                        fixed(p.noise, 9), fixed(p.cost_share, 6), fixed(p.run_share, 6), verdict});
  }
  return t;
}

void print_summary(std::ostream &out, const analysis::Score &s, const ScoreArgs &a,
                   const profile::Profile &run) {
  std::size_t prune = 0, throttled = 0;
  for (const analysis::ProbeScore &p : s.probes) {
    prune += p.verdict == analysis::Verdict::prune;
    throttled += p.verdict == analysis::Verdict::throttled;
  }
  out << "run " << a.label << ": " << run.get("nprocs", "1") << " rank(s), " << s.probes.size()
      << " probes, " << s.activations << " activations\n"
      << "the probes cost " << fixed(s.noise, 6) << " s of " << fixed(s.run_time, 6)
      << " s summed over the threads: an estimated slow-down of " << fixed(100 * s.dilation, 2)
      << "%\n"
      << "target " << fixed(a.target_percent, 2) << "% of a probe's own time: " << prune
      << " to prune, " << throttled << " throttled, " << s.probes.size() - prune - throttled
      << " to keep";
  if (a.top && *a.top < s.probes.size())
    out << "; the " << *a.top << " costliest below (--all for every probe)";
  out << "\n\n";
}

} // namespace

int score(int argc, char **argv) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kScoreUsage << "\n\n" << kScoreHelp;
      return 0;
    }
  }
  ScoreArgs args;
  if (!parse_args(argc, argv, args)) return 2;
  try {
    auto database =
        store::open(args.db, {.create = false, .read_only = true, .wait_seconds = args.wait});
    profile::Profile run = store::read_run(*database, args.label);
    analysis::Score s = analysis::score(run, args.target_percent / 100);
    if (args.format == Format::table) print_summary(std::cout, s, args, run);
    write_rows(std::cout, score_rows(s, args), args.format);
    return 0;
  } catch (const store::Error &e) {
    std::cerr << "idb score: " << e.what() << '\n';
    return 1;
  }
}

} // namespace idb::cli
