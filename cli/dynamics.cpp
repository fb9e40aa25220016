// `idb dynamics`: a stored run's iterations of its dynamic probe (profile format 1.6),
// compactly: a sparkline per probe of the iteration's subtree, one per rank for the probe
// whose ranks differ most, and what stands out (a step, spikes, a drifting rank). For
// scripts, every iteration's rows.
#include "args.hpp"
#include "commands.hpp"
#include "format.hpp"

#include "idb/analysis/dynamics.hpp"
#include "idb/probe.h"
#include "idb/store.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

namespace idb::cli {

namespace {

const char *kDynamicsUsage =
    "usage: idb dynamics RUN [--db URL] [--probe ID] [--rank R] [--width N] [--top N]\n"
    "                        [--format table|csv|json] [--wait SECONDS]";
const char *kDynamicsHelp =
    "Prints how the iterations of the stored run labelled RUN went: the run's dynamic probe\n"
    "(a loop probe made dynamic with mode=dynamic, IDB_DYNAMIC or idb_dynamic_probe) kept\n"
    "every iteration's subtree, clustered as the program ran, and each iteration is\n"
    "reconstructed from its cluster.\n\n"
    "One line per probe of the iteration's subtree (the costliest first): its seconds per\n"
    "iteration, the mean over the ranks, as a sparkline in which each mark is the highest\n"
    "iteration of its span, with the least and most. Then one line per rank for the probe\n"
    "whose ranks grew most unlike each other (or --probe). Then what stands out: the shift\n"
    "of level that splits the iterations best, the iterations far above or below the 21\n"
    "around them (spikes), and the rank whose growth over the run differs from the others'.\n\n"
    "  --db URL         database: a path, sqlite:PATH, sqlite://PATH or postgresql://...\n"
    "                   (default idb.db)\n"
    "  --probe ID       the probe the per-rank lines, steps and spikes are of (default: as\n"
    "                   above, every probe's steps, and the dynamic probe's spikes)\n"
    "  --rank R         that rank's iterations only\n"
    "  --width N        marks in a sparkline (default 60)\n"
    "  --top N          spikes listed (default 10)\n"
    "  --format F       table (default), or csv or json: every iteration's rows (rank,\n"
    "                   thread, iteration, probe_id, probe, seconds, count)\n" IDB_CLI_WAIT_HELP;

struct DynamicsArgs {
  std::string label, db = "idb.db";
  std::optional<std::int32_t> probe;
  std::optional<int> rank;
  int width = 60, top = 10;
  Format format = Format::table;
  double wait = store::kDefaultWaitSeconds;
};

bool parse_args(int argc, char **argv, DynamicsArgs &a) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    bool valued = arg == "--db" || arg == "--probe" || arg == "--rank" || arg == "--width" ||
                  arg == "--top" || arg == "--format" || arg == "--wait";
    if (valued && i + 1 >= argc) {
      std::cerr << "idb dynamics: " << arg << " needs a value\n" << kDynamicsUsage << "\n";
      return false;
    }
    int value = 0;
    if (arg == "--db") {
      a.db = argv[++i];
    } else if (arg == "--wait") {
      if (!parse_wait(argv[++i], a.wait)) {
        std::cerr << "idb dynamics: --wait takes seconds, 0 or more\n";
        return false;
      }
    } else if (arg == "--probe") {
      if (!parse_count(argv[++i], -2147483647, 2147483647, value)) {
        std::cerr << "idb dynamics: --probe takes a probe id (idb report shows them)\n";
        return false;
      }
      a.probe = value;
    } else if (arg == "--rank") {
      if (!parse_count(argv[++i], 0, 1 << 30, value)) {
        std::cerr << "idb dynamics: --rank takes a rank, 0 or more\n";
        return false;
      }
      a.rank = value;
    } else if (arg == "--width" || arg == "--top") {
      if (!parse_count(argv[++i], 1, 100000, value)) {
        std::cerr << "idb dynamics: " << arg << " takes a count, 1 or more\n";
        return false;
      }
      (arg == "--width" ? a.width : a.top) = value;
    } else if (arg == "--format") {
      std::optional<Format> format = parse_format(argv[++i]);
      if (!format) {
        std::cerr << "idb dynamics: --format takes table, csv or json\n";
        return false;
      }
      a.format = *format;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << "idb dynamics: unknown option " << arg << " (see 'idb dynamics --help')\n";
      return false;
    } else if (a.label.empty()) {
      a.label = arg;
    } else {
      std::cerr << "idb dynamics: one run at a time (got '" << a.label << "' and '" << arg
                << "')\n";
      return false;
    }
  }
  if (a.label.empty()) {
    std::cerr << "idb dynamics: no run given\n" << kDynamicsUsage << "\n";
    return false;
  }
  return true;
}

// Seconds in the unit that suits them: "2.10 ms".
std::string duration(double seconds) {
  char text[48];
  double a = std::fabs(seconds);
  if (a >= 1 || a == 0)
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  else if (a >= 1e-3)
    std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.3g us", seconds * 1e6);
  return text;
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.0f%%", share * 100);
  return text;
}

// `text` cut to `width` characters (bytes; descriptions are ASCII) and padded.
std::string cell(const std::string &text, std::size_t width) {
  if (text.size() > width) return text.substr(0, width - 3) + "...";
  return text + std::string(width - text.size(), ' ');
}

// The series in `width` marks, each the highest iteration of its span, on the scale from
// the least to the most iteration.
std::string sparkline(const std::vector<double> &v, int width) {
  static const char *const kMarks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  if (v.empty()) return "";
  std::size_t n = v.size(), marks = std::min<std::size_t>(std::size_t(width), n);
  double low = *std::min_element(v.begin(), v.end()), high = *std::max_element(v.begin(), v.end());
  std::string out;
  for (std::size_t b = 0; b < marks; ++b) {
    std::size_t from = b * n / marks, to = (b + 1) * n / marks;
    double top =
        *std::max_element(v.begin() + std::ptrdiff_t(from), v.begin() + std::ptrdiff_t(to));
    int level = high > low ? int(std::lround((top - low) / (high - low) * 7)) : 0;
    out += kMarks[std::clamp(level, 0, 7)];
  }
  return out;
}

// Every iteration's rows, for scripts.
store::QueryResult series_rows(const analysis::RunDynamics &d) {
  store::QueryResult t;
  t.columns = {"rank", "thread", "iteration", "probe_id", "probe", "seconds", "count"};
  t.numeric = {true, true, true, true, false, true, true};
  char number[40];
  for (const analysis::RankSeries &s : d.series)
    for (std::int32_t probe : d.probes) {
      auto seconds = s.seconds.find(probe);
      if (seconds == s.seconds.end()) continue;
      const std::vector<double> &visits = s.visits.at(probe);
      for (std::size_t i = 0; i < seconds->second.size(); ++i) {
        std::vector<std::optional<std::string>> row = {std::to_string(s.rank),
                                                       std::to_string(s.thread), std::to_string(i),
                                                       std::to_string(probe), d.labels.at(probe)};
        std::snprintf(number, sizeof number, "%.9g", seconds->second[i]);
        row.emplace_back(number);
        std::snprintf(number, sizeof number, "%.6g", visits[i]);
        row.emplace_back(number);
        t.rows.push_back(std::move(row));
      }
    }
  return t;
}

std::vector<std::vector<double>> per_rank(const analysis::RunDynamics &d, std::int32_t probe) {
  std::vector<std::vector<double>> out;
  for (const analysis::RankSeries &s : d.series) {
    auto it = s.seconds.find(probe);
    out.push_back(it == s.seconds.end() ? std::vector<double>(d.iterations, 0.0) : it->second);
  }
  return out;
}

void print_table(std::ostream &out, const analysis::RunDynamics &d, const DynamicsArgs &a,
                 const profile::Profile &run) {
  const std::size_t kLabel = 36;
  bool threads = false;
  std::uint64_t least = ~std::uint64_t(0), most = 0;
  for (const analysis::RankSeries &s : d.series) {
    threads = threads || s.thread != 0;
    least = std::min(least, s.clusters);
    most = std::max(most, s.clusters);
  }
  out << "run " << a.label << ": " << run.get("nprocs", "1") << " rank(s); dynamic probe "
      << d.labels.at(d.probe) << " (id " << d.probe << "): " << d.iterations << " iterations, "
      << (least == most ? std::to_string(most)
                        : std::to_string(least) + " to " + std::to_string(most))
      << " clusters a " << (threads ? "thread" : "rank");
  if (a.rank) out << "; rank " << *a.rank << " only";
  out << "\n";
  if (d.dropped) out << "  " << d.dropped << " iterations past the reserve were not kept\n";
  if (d.mixed)
    out << "  " << d.mixed
        << " merges joined different call trees: those iterations' trees are averaged\n";
  if (!d.others.empty()) {
    out << "  other dynamic probes (--probe picks the lines; 'idb dynamics' shows the one with "
           "the most iterations):";
    for (std::int32_t id : d.others)
      out << " " << id;
    out << "\n";
  }
  std::size_t span = (d.iterations + std::size_t(a.width) - 1) / std::size_t(a.width);
  out << "\nseconds an iteration, the mean over the ranks";
  if (span > 1) out << " (a mark: the highest of its " << span << " iterations)";
  out << "\n";
  std::string axis = "iterations 0 to " + std::to_string(d.iterations ? d.iterations - 1 : 0);
  std::size_t marks = std::min<std::size_t>(std::size_t(a.width), d.iterations);
  out << cell("probe", kLabel) << "  " << cell(axis, std::max(marks, axis.size()))
      << "  least .. most\n";
  // The dynamic probe and the probes of its subtree that take 1% of its time or more,
  // the costliest 15.
  std::size_t lines = 0, left = 0;
  for (std::int32_t probe : d.probes) {
    bool enough = probe == d.probe || d.totals.at(probe) >= 0.01 * d.totals.at(d.probe);
    if (!enough || lines == 16) {
      ++left;
      continue;
    }
    ++lines;
    analysis::Spread s = analysis::spread_over_ranks(d, probe);
    if (s.mean.empty()) continue;
    double low = *std::min_element(s.mean.begin(), s.mean.end());
    double high = *std::max_element(s.mean.begin(), s.mean.end());
    std::string line = sparkline(s.mean, a.width);
    out << cell((probe == d.probe ? "" : "  ") + d.labels.at(probe), kLabel) << "  " << line
        << std::string(std::max(marks, axis.size()) - marks, ' ') << "  " << duration(low) << " .. "
        << duration(high) << "\n";
  }

  if (left)
    out << "  and " << left << " more probe" << (left > 1 ? "s" : "")
        << " under 1% of the iterations' time (--format csv has every one)\n";

  // The probe whose ranks differ most in how they grew (a rank's own work: MPI calls
  // take the others' drift as waiting), or the one asked for.
  std::int32_t ranked = a.probe ? *a.probe : d.probe;
  std::optional<analysis::Drift> drift;
  if (!a.probe)
    for (std::int32_t probe : d.probes) {
      if (d.kinds.at(probe) == IDB_COMM) continue;
      std::optional<analysis::Drift> found = analysis::drifting(per_rank(d, probe));
      if (found && (!drift || std::fabs(found->growth - found->others) >
                                  std::fabs(drift->growth - drift->others))) {
        drift = found;
        ranked = probe;
      }
    }
  else
    drift = analysis::drifting(per_rank(d, ranked));
  if (!d.labels.count(ranked)) {
    out << "\nprobe " << ranked << " is not in the dynamic probe's subtree\n";
    return;
  }
  if (d.series.size() > 1) {
    out << "\nper rank: " << d.labels.at(ranked) << "\n";
    std::vector<std::vector<double>> ranks = per_rank(d, ranked);
    for (std::size_t k = 0; k < ranks.size(); ++k) {
      const std::vector<double> &v = ranks[k];
      if (v.empty()) continue;
      out << cell(analysis::series_name(d, k), 16) << "  " << sparkline(v, a.width) << "  "
          << duration(*std::min_element(v.begin(), v.end())) << " .. "
          << duration(*std::max_element(v.begin(), v.end())) << ", grew "
          << percent(analysis::growth(v));
      if (drift && drift->at == k) out << "  <- drifts";
      out << "\n";
    }
  }

  out << "\nwhat stands out\n";
  bool any = false;
  std::int32_t spiky = a.probe ? *a.probe : d.probe;
  // Steps: each probe's best shift of level; per place (within 2% of the iterations of
  // each other), the probe that shifts by the largest factor, the three largest by time.
  struct Found {
    analysis::Step step;
    std::int32_t probe;
    double weight; // the shift's seconds over the shorter side
  };
  std::vector<Found> steps;
  for (std::int32_t probe : d.probes) {
    if (a.probe && probe != *a.probe) continue;
    analysis::Step s = analysis::level_shift(analysis::spread_over_ranks(d, probe).mean);
    if (!s.found || s.before <= 0 || s.after <= 0) continue;
    double shorter = double(std::min(s.iteration, d.iterations - s.iteration));
    Found f{s, probe, std::fabs(s.after - s.before) * shorter};
    auto near = std::find_if(steps.begin(), steps.end(), [&](const Found &g) {
      return std::max(g.step.iteration, s.iteration) - std::min(g.step.iteration, s.iteration) <=
             d.iterations / 50;
    });
    if (near == steps.end())
      steps.push_back(f);
    else if (std::fabs(std::log(s.after / s.before)) >
             std::fabs(std::log(near->step.after / near->step.before)))
      *near = f;
  }
  std::stable_sort(steps.begin(), steps.end(),
                   [](const Found &x, const Found &y) { return x.weight > y.weight; });
  if (steps.size() > 3) steps.resize(3);
  std::sort(steps.begin(), steps.end(),
            [](const Found &x, const Found &y) { return x.step.iteration < y.step.iteration; });
  for (const Found &f : steps) {
    any = true;
    out << "  a step at iteration " << f.step.iteration << ": " << d.labels.at(f.probe) << " took "
        << duration(f.step.before) << " an iteration before, " << duration(f.step.after)
        << " from it on (" << percent(f.step.after / f.step.before - 1) << ")\n";
  }
  analysis::Spread spiked = analysis::spread_over_ranks(d, spiky);
  std::vector<analysis::Outlier> spikes = analysis::outliers(spiked.max);
  if (!spikes.empty()) {
    any = true;
    out << "  " << spikes.size() << " iteration" << (spikes.size() > 1 ? "s" : "") << " of "
        << d.labels.at(spiky)
        << " far from the 21 around them (the rank that took most; x: over those around):\n";
    std::vector<analysis::Outlier> shown = spikes;
    std::stable_sort(shown.begin(), shown.end(), [](const auto &x, const auto &y) {
      return x.seconds / std::max(x.baseline, 1e-300) > y.seconds / std::max(y.baseline, 1e-300);
    });
    if (shown.size() > std::size_t(a.top)) shown.resize(std::size_t(a.top));
    std::sort(shown.begin(), shown.end(),
              [](const auto &x, const auto &y) { return x.iteration < y.iteration; });
    for (const analysis::Outlier &o : shown) {
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "x%.2f", o.baseline > 0 ? o.seconds / o.baseline : 0.0);
      out << "    iteration " << cell(std::to_string(o.iteration), 8) << " "
          << cell(duration(o.seconds), 10) << " " << cell(ratio, 7) << " "
          << analysis::series_name(d, spiked.max_at[o.iteration]) << "\n";
    }
    if (spikes.size() > shown.size())
      out << "    and " << spikes.size() - shown.size() << " more (--top N)\n";
  }
  if (drift && d.series.size() > 2) {
    any = true;
    out << "  " << analysis::series_name(d, drift->at) << " drifts: its " << d.labels.at(ranked)
        << " grew " << percent(drift->growth) << " over the run, the other ranks' "
        << percent(drift->others) << "\n";
  }
  if (!any) out << "  nothing: no step, spike or drifting rank\n";
}

} // namespace

int dynamics(int argc, char **argv) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kDynamicsUsage << "\n\n" << kDynamicsHelp;
      return 0;
    }
  }
  DynamicsArgs args;
  if (!parse_args(argc, argv, args)) return 2;
  try {
    auto database =
        store::open(args.db, {.create = false, .read_only = true, .wait_seconds = args.wait});
    profile::Profile run = store::read_run(*database, args.label, args.rank);
    analysis::RunDynamics d = analysis::run_dynamics(run);
    if (d.probe == 0) {
      std::cerr << "idb dynamics: run " << args.label
                << (args.rank ? " has no rank " + std::to_string(*args.rank) + " with" : " has no")
                << " dynamic probe: make the time-step loop dynamic (mode=dynamic in the "
                   "selection, IDB_DYNAMIC=FILE:LINE, or idb_dynamic_probe) and run it again\n";
      return 1;
    }
    if (args.format == Format::table)
      print_table(std::cout, d, args, run);
    else
      write_rows(std::cout, series_rows(d), args.format);
    return 0;
  } catch (const store::Error &e) {
    std::cerr << "idb dynamics: " << e.what() << '\n';
    return 1;
  }
}

} // namespace idb::cli
