// idb-cc and idb-cxx: prefix a compiler (`make CC="idb-cc mpicc"`) to build with probes.
// Everything is in the instrumenter library (wrapper.hpp).
#include "wrapper.hpp"

#include <iostream>

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return idb::instr::run_wrapper(args, IDB_WRAPPER_NAME, std::cerr);
}
