// idb-instrument: lists the candidate probe sites of C and C++ sources and inserts probes
// at the selected ones (docs/instrumenter.md). Everything is in the instrumenter library.
#include "cli.hpp"

#include <iostream>

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return idb::instr::run_cli(args, std::cout, std::cerr);
}
