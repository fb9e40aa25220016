// The `idb` command: dispatches to one function per subcommand.
#include "commands.hpp"

#include <cstring>
#include <iostream>
#include <string>

namespace {

void usage(std::ostream &out) {
  out << "usage: idb <command> [options]\n\n"
         "commands:\n"
         "  show PROFILE...   print profiles as indented trees\n"
         "  load PROFILE...   store profiles as runs in a database (default idb.db)\n"
         "  report RUN        print a stored run as indented trees\n"
         "  score RUN         what each probe of a stored run cost against what it measured\n"
         "  dynamics RUN      how the iterations of a stored run's time step went\n"
         "  runs              list the runs in a database\n"
         "  migrate           bring a database's schema up to this idb's version\n"
         "  query SQL|NAME    run SQL or a canned query ('idb query --list') and print the rows\n"
         "  export SQL|NAME   write a query's rows as CSV or JSON to stdout or a file\n"
         "  edf FILE          run an experiment definition file (COALESCE or COMPARE)\n"
         "  run -- PROGRAM    run a program (under mpirun with -n N) and store its profile\n"
         "  tune              grow and prune the selection over your build and run, round by "
         "round\n\n"
         "'idb <command> --help' describes one command; 'idb --version' prints the version.\n";
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  std::string command = argv[1];
  if (command == "--version") {
    std::cout << "idb " IDB_VERSION "\n";
    return 0;
  }
  if (command == "show") return idb::cli::show(argc - 2, argv + 2);
  if (command == "load") return idb::cli::load(argc - 2, argv + 2);
  if (command == "runs") return idb::cli::runs(argc - 2, argv + 2);
  if (command == "query") return idb::cli::query(argc - 2, argv + 2);
  if (command == "export") return idb::cli::export_rows(argc - 2, argv + 2);
  if (command == "report") return idb::cli::report(argc - 2, argv + 2);
  if (command == "score") return idb::cli::score(argc - 2, argv + 2);
  if (command == "dynamics") return idb::cli::dynamics(argc - 2, argv + 2);
  if (command == "edf") return idb::cli::edf_command(argc - 2, argv + 2);
  if (command == "run") return idb::cli::run(argc - 2, argv + 2);
  if (command == "tune") return idb::cli::tune(argc - 2, argv + 2);
  if (command == "migrate") return idb::cli::migrate(argc - 2, argv + 2);
  std::cerr << "idb: unknown command '" << command << "' (see 'idb --help')\n";
  return 2;
}
