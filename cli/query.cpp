// `idb query`: runs one SQL statement, or a canned query of queries/ by name, with named
// parameters bound from --param, and prints the rows as a table, CSV or JSON.
#include "args.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "idb/queries.hpp"

#include "idb/store.hpp"

#include <iostream>
#include <string>

namespace idb::cli {

namespace {

const char *kQueryUsage = "usage: idb query (SQL | NAME) [--db URL] [--param k=v]... "
                          "[--format table|csv|json]\n"
                          "                 [--write] [--wait SECONDS]\n"
                          "       idb query --list";
const char *kQueryHelp =
    "Runs one SQL statement, or the canned query NAME, on the database and prints the rows.\n"
    "Named parameters (:name) in the statement take their values from --param; every one\n"
    "must be given, of the type a canned query declares; a parameter `run` must name a\n"
    "stored run. Canned queries run unchanged on SQLite and PostgreSQL. The database is\n"
    "opened read-only: a statement that would change it is refused unless --write.\n\n"
    "  --db URL         database: a path, sqlite:PATH or postgresql://... (default idb.db)\n"
    "  --param K=V      value of the parameter :K (repeatable)\n"
    "  --format FORMAT  table (default), csv or json\n"
    "  --write          allow the statement to change the database\n" IDB_CLI_WAIT_HELP
    "  --list           list the canned queries, their parameters and what they answer\n";

struct Options {
  std::string text, db = "idb.db";
  store::KeyValues params;
  Format format = Format::table;
  bool list = false, write = false;
  double wait = store::kDefaultWaitSeconds;
};

void print_list(std::ostream &out) {
  for (const queries::CannedQuery &q : queries::canned_queries())
    out << q.name << "\n    " << q.answers << "\n    parameters: " << q.parameters << "\n";
}

// Parses the arguments into `o`; returns -1 to go on, else the exit code.
int parse(int argc, char **argv, Options &o) {
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kQueryUsage << "\n\n" << kQueryHelp;
      return 0;
    }
    bool valued = arg == "--db" || arg == "--param" || arg == "--format" || arg == "--wait";
    if (valued && i + 1 >= argc) {
      std::cerr << "idb query: " << arg << " needs a value\n";
      return 2;
    }
    if (arg == "--list") {
      o.list = true;
    } else if (arg == "--write") {
      o.write = true;
    } else if (arg == "--db") {
      o.db = argv[++i];
    } else if (arg == "--wait") {
      if (!parse_wait(argv[++i], o.wait)) {
        std::cerr << "idb query: --wait takes seconds, 0 or more\n";
        return 2;
      }
    } else if (arg == "--param") {
      auto kv = queries::parse_param(argv[++i]);
      if (!kv) {
        std::cerr << "idb query: --param takes key=value, not '" << argv[i] << "'\n";
        return 2;
      }
      o.params.push_back(*kv);
    } else if (arg == "--format") {
      std::optional<Format> f = parse_format(argv[++i]);
      if (!f) {
        std::cerr << "idb query: --format takes table, csv or json\n";
        return 2;
      }
      o.format = *f;
    } else if (o.text.empty() && (arg.empty() || arg[0] != '-')) {
      o.text = arg;
    } else {
      std::cerr << "idb query: unexpected argument " << arg << " (see 'idb query --help')\n";
      return 2;
    }
  }
  if (!o.list && o.text.empty()) {
    std::cerr << "idb query: give SQL or a query name\n" << kQueryUsage << "\n";
    return 2;
  }
  return -1;
}

} // namespace

int query(int argc, char **argv) {
  Options o;
  if (int code = parse(argc, argv, o); code >= 0) return code;
  if (o.list) {
    print_list(std::cout);
    return 0;
  }
  std::optional<std::string> sql = resolve_query_text("query", o.text, o.params);
  if (!sql) return 2;
  try {
    auto database =
        store::open(o.db, {.create = false, .read_only = !o.write, .wait_seconds = o.wait});
    check_run_parameter(*database, o.params);
    write_rows(std::cout, store::query(*database, *sql, o.params), o.format);
    return 0;
  } catch (const store::ReadOnlyError &e) {
    // Opened read-only by this command, --write helps; a read-only file or server does not.
    std::cerr << "idb query: " << e.what() << (o.write ? "" : " (--write allows it)") << '\n';
    return 1;
  } catch (const store::Error &e) {
    std::cerr << "idb query: " << e.what() << '\n';
    return 1;
  }
}

} // namespace idb::cli
