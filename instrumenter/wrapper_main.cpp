// The compiler wrappers: idb-cc and idb-cxx prefix a compiler (`make CC="idb-cc mpicc"`);
// the one-word forms idb-gcc, idb-g++, idb-clang, idb-clang++, idb-mpicc, idb-mpicxx
// (links to this program) name theirs (`make CC=idb-mpicc`), for builds that need a
// compiler of one word. Everything else is in the instrumenter library (wrapper.hpp).
#include "wrapper.hpp"

#include <filesystem>
#include <iostream>

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string tool = argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "";
  std::optional<std::string> compiler = idb::instr::one_word_compiler(tool);
  // IDB's version: `--idb-version`, or `idb-cc --version` with no compiler named. A
  // compiler's `--version` (`idb-gcc --version`, `idb-cc gcc --version`) stays the
  // compiler's: build systems identify compilers by it.
  if (args.size() == 1 && (args[0] == "--idb-version" || (!compiler && args[0] == "--version"))) {
    std::cout << (compiler ? tool : IDB_WRAPPER_NAME) << " (IDB) " IDB_VERSION "\n";
    return 0;
  }
  if (compiler) args.insert(args.begin(), *compiler);
  return idb::instr::run_wrapper(args, compiler ? tool : IDB_WRAPPER_NAME, std::cerr);
}
