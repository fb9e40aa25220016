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
         "  runs              list the runs in a database\n\n"
         "'idb <command> --help' describes one command.\n";
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  std::string command = argv[1];
  if (command == "show") return idb::cli::show(argc - 2, argv + 2);
  if (command == "load") return idb::cli::load(argc - 2, argv + 2);
  if (command == "runs") return idb::cli::runs(argc - 2, argv + 2);
  std::cerr << "idb: unknown command '" << command << "' (see 'idb --help')\n";
  return 2;
}
