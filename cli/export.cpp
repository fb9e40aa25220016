// `idb export`: runs one SQL statement or canned query (as `idb query` does) and writes
// every row as CSV or JSON to standard output or a file, for spreadsheets and scripts.
#include "args.hpp"
#include "commands.hpp"
#include "format.hpp"
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
                           "                  [--wait SECONDS]";
const char *kExportHelp =
    "Runs one SQL statement, or the canned query NAME ('idb query --list'), and writes the\n"
    "rows as CSV (a header line, then one line per row) or JSON (an array of objects).\n"
    "The database is opened read-only.\n\n"
    "  --db URL         database: a path, sqlite:PATH or postgresql://... (default idb.db)\n"
    "  --param K=V      value of the parameter :K (repeatable)\n"
    "  --format FORMAT  csv (default) or json\n"
    "  --output FILE    write to FILE instead of standard output (only once the query\n"
    "                   has succeeded)\n" IDB_CLI_WAIT_HELP;

struct Options {
  std::string text, db = "idb.db", output;
  store::KeyValues params;
  Format format = Format::csv;
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
                  arg == "--wait";
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
      std::optional<Format> f = parse_format(argv[++i]);
      if (!f || *f == Format::table) {
        std::cerr << "idb export: --format takes csv or json\n";
        return 2;
      }
      o.format = *f;
    } else if (o.text.empty() && (arg.empty() || arg[0] != '-')) {
      o.text = arg;
    } else {
      std::cerr << "idb export: unexpected argument " << arg << " (see 'idb export --help')\n";
      return 2;
    }
  }
  if (o.text.empty()) {
    std::cerr << "idb export: give SQL or a query name\n" << kExportUsage << "\n";
    return 2;
  }
  return -1;
}

} // namespace

int export_rows(int argc, char **argv) {
  Options o;
  if (int code = parse(argc, argv, o); code >= 0) return code;
  std::optional<std::string> sql = resolve_query_text("export", o.text, o.params);
  if (!sql) return 2;
  std::ostringstream text;
  try {
    auto database = store::open(o.db, {.create = false, .read_only = true, .wait_seconds = o.wait});
    check_run_parameter(*database, o.params);
    write_rows(text, store::query(*database, *sql, o.params), o.format);
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
