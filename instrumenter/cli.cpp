// Argument parsing and the `list` and `apply` commands of idb-instrument.
#include "cli.hpp"

#include "manifest.hpp"
#include "output_files.hpp"
#include "selection.hpp"
#include "tool.hpp"

#include "idb/edf.hpp"
#include "idb/input_file.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

namespace idb::instr {

namespace {

const char *const kUsage =
    "usage: idb-instrument list FILES... [--json] [--selection FILE|-] [--edf FILE.edf]\n"
    "                    [-p BUILD_DIR] [-- FLAGS]\n"
    "       idb-instrument apply FILES... (--out DIR | --in-place) [--selection FILE|-]\n"
    "                    [--edf FILE.edf] [--manifest FILE] [-p BUILD_DIR] [-- FLAGS]\n"
    "       idb-instrument default-selection\n"
    "       idb-instrument --version\n"
    "--edf FILE.edf alone takes the selection from the experiment's [AUTOINST] section;\n"
    "with --selection, apply uses that selection and records it in [AUTOINST].\n"
    "Several FILES are one program: the size rule of each knows the others' functions and\n"
    "calls (IDB_INDEX=0: each alone; the compiler wrappers read the sources of a file's\n"
    "folder instead; docs/instrumenter.md, \"The program index\").\n";

struct Args {
  std::string command;
  ToolOptions tool;
  bool json = false, in_place = false, have_flags = false;
  std::string selection_file, out_dir, manifest, edf;
  std::string selection_text; // the selection as read, for writing back into the .edf
  std::string note;           // said on standard error before the work
};

// Returns "" or an error message.
std::string parse_args(const std::vector<std::string> &args, Args &a) {
  if (args.empty()) return "missing command";
  a.command = args[0];
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string &arg = args[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    if (arg == "--") {
      a.tool.flags.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      a.have_flags = true;
      break;
    }
    if (arg == "--json")
      a.json = true;
    else if (arg == "--in-place")
      a.in_place = true;
    else if (arg == "--selection") {
      if (!value(a.selection_file)) return "--selection needs a file (or -)";
    } else if (arg == "--edf") {
      if (!value(a.edf)) return "--edf needs an experiment definition file";
    } else if (arg == "--out") {
      if (!value(a.out_dir)) return "--out needs a folder";
    } else if (arg == "--manifest") {
      if (!value(a.manifest)) return "--manifest needs a file";
    } else if (arg == "-p") {
      if (!value(a.tool.build_dir)) return "-p needs a build folder";
    } else if (arg.rfind("-p", 0) == 0 && arg.size() > 2)
      a.tool.build_dir = arg.substr(2);
    else if (!arg.empty() && arg[0] == '-')
      return "unknown option " + arg;
    else
      a.tool.files.push_back(arg);
  }
  if (a.tool.files.empty()) return "no source files given";
  if (a.have_flags && !a.tool.build_dir.empty())
    return "give either -p or flags after --, not both";
  return "";
}

// The selection from --selection, else from the .edf's [AUTOINST], else the default.
std::string load_selection(Args &a, Selection &sel) {
  std::string text, error, name;
  if (!a.selection_file.empty()) {
    if (!read_selection_file(a.selection_file, text, error)) return error;
    name = a.selection_file == "-" ? "<stdin>" : a.selection_file;
  } else if (!a.edf.empty()) {
    std::optional<std::string> autoinst = edf::read_autoinst(a.edf, error);
    if (!autoinst) return error;
    if (autoinst->find_first_not_of(" \t\r\n") == std::string::npos) {
      a.note = "note: " + a.edf + " has no selection in [AUTOINST]: using the default selection";
      sel = default_selection();
      return "";
    }
    text = *autoinst;
    name = a.edf + " [AUTOINST]";
  } else {
    sel = default_selection();
    return "";
  }
  auto parsed = parse_selection(text, name);
  sel = parsed.selection;
  a.selection_text = text;
  return parsed.error;
}

// First error among the results, or "".
std::string first_error(const std::vector<FileResult> &results) {
  for (const auto &r : results)
    if (!r.error.empty()) return r.error;
  return "";
}

// One note per selected candidate left alone, except those the size thresholds skip on
// purpose (there can be hundreds): they are counted in one line.
void report_skipped(const std::vector<FileResult> &results, std::ostream &err) {
  size_t by_threshold = 0;
  for (const auto &r : results)
    for (const auto &c : r.candidates) {
      if (!c.selected || c.skipped.empty()) continue;
      if (skipped_by_size_rule(c.skipped)) {
        ++by_threshold;
        continue;
      }
      err << "idb-instrument: note: " << c.file << ":" << c.line << ": " << kind_name(c.kind) << " "
          << c.description << " skipped: " << c.skipped << "\n";
    }
  if (by_threshold > 0)
    err << "idb-instrument: note: " << by_threshold
        << " small or bounded functions, short loops or loops their function's PROC measures "
           "left without probes by the size rule (see 'list'; 'set min-statements' and 'set "
           "bounded-weight' in the selection)\n";
}

int apply(Args &a, std::ostream &err) {
  if (a.in_place == !a.out_dir.empty()) {
    err << "idb-instrument: apply needs exactly one of --out DIR and --in-place\n";
    return 2;
  }
  auto results = run_tool(a.tool);
  if (auto error = first_error(results); !error.empty()) {
    err << "idb-instrument: " << error << " (nothing written)\n";
    return 1;
  }
  report_skipped(results, err);
  std::string error = write_outputs(results, a.out_dir, a.manifest);
  // A new selection applied for an experiment is recorded in it: the grow-and-prune step
  // stays with the experiment.
  if (error.empty() && !a.edf.empty() && !a.selection_file.empty())
    error = edf::update_autoinst(a.edf, a.selection_text);
  if (!error.empty()) {
    err << "idb-instrument: " << error << "\n";
    return 1;
  }
  return 0;
}

} // namespace

bool read_selection_file(const std::string &path, std::string &text, std::string &error) {
  if (path == "-") {
    std::ostringstream data;
    data << std::cin.rdbuf();
    text = data.str();
    return true;
  }
  // A selection is a few dozen lines: 16 MiB, as for an experiment definition file.
  std::string why = files::read_input_file(path, std::size_t(16) << 20, text);
  if (!why.empty()) error = "cannot read selection file " + path + ": " + why;
  return why.empty();
}

int run_cli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
  if (!args.empty() && args[0] == "default-selection") {
    out << default_selection_text();
    return 0;
  }
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << kUsage;
    return 0;
  }
  if (!args.empty() && args[0] == "--version") {
    out << "idb-instrument " IDB_VERSION "\n";
    return 0;
  }
  Args a;
  std::string error = parse_args(args, a);
  if (error.empty() && a.command != "list" && a.command != "apply")
    error = "unknown command '" + a.command + "'";
  if (error.empty()) error = load_selection(a, a.tool.selection);
  if (!error.empty()) {
    err << "idb-instrument: " << error << "\n" << kUsage;
    return 2;
  }
  if (!a.note.empty()) err << "idb-instrument: " << a.note << "\n";
  if (a.command == "apply") {
    a.tool.apply = true;
    return apply(a, err);
  }
  auto results = run_tool(a.tool);
  if (auto failed = first_error(results); !failed.empty()) {
    err << "idb-instrument: " << failed << "\n";
    return 1;
  }
  if (a.json) {
    print_json(results, out);
    return 0;
  }
  print_table(results, out);
  const Candidate *step = dynamic_candidate(results);
  if (step && step->loop_mode != LoopMode::dynamic)
    err << "idb-instrument: note: the time step is likely " << step->description << " (id "
        << step->id << "), the outermost loop over MPI calls that reaches most of the program; "
        << "to keep each of its iterations (idb dynamics), select it with 'include loop id="
        << step->id << " mode=dynamic'\n";
  return 0;
}

} // namespace idb::instr
