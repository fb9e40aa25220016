// `idb migrate`: brings a database's schema up to the version this idb knows, the step
// that commands which only read never take on their own.
#include "args.hpp"
#include "commands.hpp"

#include "idb/store.hpp"

#include <iostream>
#include <string>

namespace idb::cli {

namespace {

const char *kMigrateUsage = "usage: idb migrate [--db URL] [--wait SECONDS]";
const char *kMigrateHelp =
    "Brings the schema of the database up to the version this idb knows, in one\n"
    "transaction, keeping every run. Commands that only read (report, runs, query,\n"
    "export, score, edf, idb-gui) refuse an older database rather than change it; a load\n"
    "migrates too. A database newer than this idb is refused.\n\n"
    "  --db URL         database: a path, sqlite:PATH, sqlite://PATH or postgresql://...\n"
    "                   (default idb.db); it must exist\n" IDB_CLI_WAIT_HELP;

} // namespace

int migrate(int argc, char **argv) {
  std::string db = "idb.db";
  double wait = store::kDefaultWaitSeconds;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kMigrateUsage << "\n\n" << kMigrateHelp;
      return 0;
    }
    if ((arg == "--db" || arg == "--wait") && i + 1 >= argc) {
      std::cerr << "idb migrate: " << arg << " needs a value\n" << kMigrateUsage << "\n";
      return 2;
    }
    if (arg == "--db") {
      db = argv[++i];
    } else if (arg == "--wait") {
      if (!parse_wait(argv[++i], wait)) {
        std::cerr << "idb migrate: --wait takes seconds, 0 or more\n";
        return 2;
      }
    } else {
      std::cerr << "idb migrate: unexpected argument " << arg << " (see 'idb migrate --help')\n";
      return 2;
    }
  }
  try {
    auto database = store::open(db, {.create = false, .wait_seconds = wait});
    int before = database->version_at_open(), now = database->version();
    if (before == now)
      std::cout << database->location() << " is at schema version " << now << ": nothing to do\n";
    else
      std::cout << database->location() << ": schema version " << before << " -> " << now << '\n';
    return 0;
  } catch (const store::Error &e) {
    std::cerr << "idb migrate: " << e.what() << '\n';
    return 1;
  }
}

} // namespace idb::cli
