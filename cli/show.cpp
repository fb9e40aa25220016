// `idb show`: prints profiles straight from their files as indented trees.
#include "commands.hpp"

#include "args.hpp"

#include "idb/profile.hpp"
#include "idb/tree.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace idb::cli {

namespace {

const char *kShowUsage = "usage: idb show [--prune PERCENT] [--no-cpu] [--quantiles] PROFILE...";
const char *kShowHelp =
    "Prints each profile's run metadata and every CFH as an indented tree: count,\n"
    "inclusive, exclusive and noise-corrected seconds, % of the parent, mean and\n"
    "standard deviation per activation in microseconds, CPU seconds and noise. Nodes\n"
    "deeper than 40 levels (a recursion's) stop indenting and say their depth: '[41] f'.\n\n"
    "  --prune PERCENT  hide nodes below PERCENT of the root's inclusive time\n"
    "  --no-cpu         leave out the CPU columns\n"
    "  --quantiles      add the 50th, 90th and 99th percentile of each node's activations\n"
    "                   (microseconds, from its duration histogram; '-' without one)\n";

} // namespace

int show(int argc, char **argv) {
  profile::TreeOptions options;
  std::vector<std::string> files;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kShowUsage << "\n\n" << kShowHelp;
      return 0;
    }
    if (arg == "--no-cpu") {
      options.show_cpu = false;
    } else if (arg == "--quantiles") {
      options.show_quantiles = true;
    } else if (arg == "--prune") {
      if (i + 1 >= argc || !parse_percent(argv[i + 1], options.prune_percent)) {
        std::cerr << "idb show: --prune takes a percentage, 0 or more\n";
        return 2;
      }
      ++i;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << "idb show: unknown option " << arg << " (see 'idb show --help')\n";
      return 2;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::cerr << "idb show: no profile given\n" << kShowUsage << "\n";
    return 2;
  }
  int status = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    profile::ReadResult r = profile::read_profile(files[i]);
    if (!r.profile) {
      std::cerr << "idb show: " << r.error << '\n';
      status = 1;
      continue;
    }
    if (i) std::cout << '\n';
    profile::print_profile(std::cout, *r.profile, options);
  }
  return status;
}

} // namespace idb::cli
