// `idb edf`: runs the experiment an .edf defines (COALESCE or COMPARE over the runs of its
// [DBLIST]) and prints the result as a table, CSV or JSON, or draws it as SVG;
// `idb edf new` writes a skeleton file to fill in. The work is the edf library's; this
// file reads the options, reports errors in one line and chooses the output.
#include "args.hpp"
#include "commands.hpp"
#include "format.hpp"

#include "idb/edf.hpp"
#include "idb/edf_analysis.hpp"
#include "idb/edf_svg.hpp"
#include "idb/edf_table.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace idb::cli {

namespace {

const char *kEdfUsage =
    "usage: idb edf FILE [--db URL] [--value V] [--rank N|all] [--probe ID|NAME]\n"
    "                    [--format table|csv|json|svg] [--output FILE] [--alpha A]\n"
    "                    [--wait SECONDS]\n"
    "       idb edf new FILE [--mode COALESCE|COMPARE]";
const char *kEdfHelp =
    "Runs the experiment defined in FILE over the runs its [DBLIST] names: COALESCE pools\n"
    "repeated runs (per probe: box of the per-run values, outliers, coefficient of\n"
    "variation, pooled statistics); COMPARE puts runs side by side (per probe and rank:\n"
    "each entry's value, ratio to the first entry, Welch's test for groups of runs).\n\n"
    "  --db URL         the experiment's database (overrides the file's Database)\n"
    "  --value V        total, cpu, range, sdev, count, noise, corrected, or p50, p90,\n"
    "                   p99 of the activations' durations (default: the file's Value,\n"
    "                   else total)\n"
    "  --rank N|all     one MPI rank, or all (COALESCE merges them, COMPARE shows each);\n"
    "                   default: the file's Rank, else all\n"
    "  --each-rank      COALESCE: one row per rank rather than the ranks merged\n"
    "  --probe ID|NAME  one probe: its ID, or text in its description\n"
    "  --format FORMAT  table (default), csv, json, or svg (box plot or grouped bars)\n"
    "  --output FILE    write there rather than to standard output\n"
    "  --alpha A        COMPARE's significance level (default 0.05)\n" IDB_CLI_WAIT_HELP "\n"
    "The databases are opened read-only. 'idb edf new FILE' writes a skeleton experiment\n"
    "to fill in (never over a file).\n";

enum class Output { table, csv, json, svg };

struct EdfArgs {
  std::string file, db, output, probe;
  std::optional<analysis::Metric> value;
  std::optional<edf::RankChoice> rank;
  bool each_rank = false;
  double alpha = 0.05;
  double wait = store::kDefaultWaitSeconds;
  Output format = Output::table;
};

bool usage_error(const std::string &message) {
  std::cerr << "idb edf: " << message << '\n';
  return false;
}

// Reports `message` and returns the exit code.
int fail(const std::string &message, int code) {
  usage_error(message);
  return code;
}

std::optional<Output> parse_output(const std::string &name) {
  if (name == "svg") return Output::svg;
  std::optional<Format> f = parse_format(name);
  if (!f) return std::nullopt;
  return *f == Format::csv ? Output::csv : *f == Format::json ? Output::json : Output::table;
}

// Reads one valued option into `a`; false on a bad value (already reported).
bool take_option(const std::string &arg, const std::string &value, EdfArgs &a) {
  if (arg == "--db") {
    a.db = value;
  } else if (arg == "--output") {
    a.output = value;
  } else if (arg == "--probe") {
    a.probe = value;
  } else if (arg == "--wait") {
    if (!parse_wait(value, a.wait)) return usage_error("--wait takes seconds, 0 or more");
  } else if (arg == "--value") {
    if (!(a.value = analysis::parse_metric(value)))
      return usage_error("--value takes " + analysis::metric_choices());
  } else if (arg == "--rank") {
    if (!(a.rank = edf::parse_rank(value)))
      return usage_error("--rank takes 'all' or a rank, 0 or more");
  } else if (arg == "--format") {
    std::optional<Output> f = parse_output(value);
    if (!f) return usage_error("--format takes table, csv, json or svg");
    a.format = *f;
  } else {
    char *end = nullptr;
    a.alpha = std::strtod(value.c_str(), &end);
    if (value.empty() || *end || !(a.alpha > 0 && a.alpha < 1))
      return usage_error("--alpha takes a level between 0 and 1, e.g. 0.05");
  }
  return true;
}

bool parse_args(int argc, char **argv, EdfArgs &a) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    bool valued = arg == "--db" || arg == "--value" || arg == "--rank" || arg == "--probe" ||
                  arg == "--format" || arg == "--output" || arg == "--alpha" || arg == "--wait";
    if (valued && i + 1 >= argc) return usage_error(arg + " needs a value");
    if (valued) {
      if (!take_option(arg, argv[++i], a)) return false;
    } else if (arg == "--each-rank") {
      a.each_rank = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return usage_error("unknown option " + arg + " (see 'idb edf --help')");
    } else if (a.file.empty()) {
      a.file = arg;
    } else {
      return usage_error("one experiment at a time (got '" + a.file + "' and '" + arg + "')");
    }
  }
  if (a.file.empty()) return usage_error(std::string("no experiment file given\n") + kEdfUsage);
  return true;
}

// `idb edf new FILE [--mode M]`.
int write_skeleton(int argc, char **argv) {
  std::string file;
  edf::Mode mode = edf::Mode::coalesce;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--mode" && i + 1 < argc) {
      std::string m = argv[++i];
      if (m != "COALESCE" && m != "COMPARE" && m != "coalesce" && m != "compare")
        return fail("--mode takes COALESCE or COMPARE", 2);
      mode = (m == "COMPARE" || m == "compare") ? edf::Mode::compare : edf::Mode::coalesce;
    } else if (file.empty() && !arg.empty() && arg[0] != '-') {
      file = arg;
    } else {
      return fail("usage: idb edf new FILE [--mode COALESCE|COMPARE]", 2);
    }
  }
  if (file.empty()) return fail("idb edf new needs a FILE to write", 2);
  if (std::filesystem::exists(file))
    return fail(file + " exists; idb edf new writes only new files", 1);
  if (std::string error = write_output_file(file, edf::skeleton(mode)); !error.empty())
    return fail(error, 1);
  std::cout << "wrote " << file << ": fill in [PREAMBLE] and [DBLIST], then 'idb edf " << file
            << "'\n";
  return 0;
}

// The rows' format for the CLI's writer (svg is drawn, not written as rows).
Format rows_format(Output format) {
  return format == Output::csv    ? Format::csv
         : format == Output::json ? Format::json
                                  : Format::table;
}

void print(std::ostream &out, const edf::Experiment &e, const std::vector<edf::EntryData> &data,
           const edf::AnalysisOptions &o, Output format, const std::string &title) {
  bool people = format == Output::table;
  if (e.mode == edf::Mode::coalesce) {
    edf::CoalesceResult r = edf::coalesce(data, o);
    if (format == Output::svg)
      out << edf::coalesce_svg(r, title);
    else
      write_rows(out, edf::coalesce_rows(r, people), rows_format(format));
    return;
  }
  edf::CompareResult r = edf::compare(data, o);
  if (format == Output::svg)
    out << edf::compare_svg(r, title);
  else
    write_rows(out, edf::compare_rows(r, people), rows_format(format));
}

// Progress on a terminal: "reading runs 37/100" on standard error, erased when done.
edf::ReadProgress progress_line() {
  if (!::isatty(STDERR_FILENO)) return {};
  return [](std::size_t done, std::size_t total) {
    if (total < 10) return;
    std::cerr << "\ridb edf: reading runs " << done << '/' << total << std::flush;
    if (done == total) std::cerr << "\r\033[K" << std::flush;
  };
}

int run(const EdfArgs &a) {
  edf::ParseResult parsed = edf::read(a.file);
  if (!parsed.document) {
    std::cerr << "idb edf: " << parsed.error << '\n';
    return 1;
  }
  for (const std::string &w : parsed.warnings)
    std::cerr << "idb edf: warning: " << w << '\n';
  const edf::Experiment &e = parsed.experiment;
  edf::AnalysisOptions o;
  o.value = a.value.value_or(e.value.value_or(analysis::Metric::total));
  o.rank = a.rank.value_or(e.rank.value_or(edf::RankChoice{}));
  o.each_rank = a.each_rank;
  o.probe = a.probe;
  o.alpha = a.alpha;
  edf::Connections connections(a.wait);
  std::string base = std::filesystem::path(a.file).parent_path().string();
  std::vector<edf::EntryData> data = edf::read_entries(
      edf::resolve(e, {edf::experiment_database(e, a.file, a.db), base, a.file}, connections),
      progress_line());
  if (!o.probe.empty() && edf::probes_of(data, o).empty())
    return fail("no probe with ID or description '" + o.probe + "' in these runs", 1);
  std::string title = e.title.empty() ? a.file : e.title;
  if (a.output.empty()) {
    print(std::cout, e, data, o, a.format, title);
    return 0;
  }
  std::ostringstream text; // written whole or not at all
  print(text, e, data, o, a.format, title);
  if (std::string error = write_output_file(a.output, text.str()); !error.empty())
    return fail(error, 1);
  return 0;
}

} // namespace

int edf_command(int argc, char **argv) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kEdfUsage << "\n\n" << kEdfHelp;
      return 0;
    }
  }
  if (argc > 0 && std::string(argv[0]) == "new") return write_skeleton(argc - 1, argv + 1);
  EdfArgs args;
  if (!parse_args(argc, argv, args)) return 2;
  try {
    return run(args);
  } catch (const std::runtime_error &e) { // edf::Error and store::Error
    std::cerr << "idb edf: " << e.what() << '\n';
    return 1;
  }
}

} // namespace idb::cli
