// The compiler wrappers `idb-cc` and `idb-cxx`: `idb-cc COMPILER ARGS...` instruments each
// C or C++ source of the command into a private temporary folder, compiles it with the
// original arguments (the original file name kept in diagnostics and debug information by
// `#line` and -ffile-prefix-map), and adds the runtime when the command links. Instrumented
// compiles (and Clang's parse before them) get -DIDB_INSTRUMENTED=1 and the runtime's
// header folder, so a code can mark its objects' CFHs in that build alone.
// IDB_INSTRUMENT=0 runs the compiler untouched; a file that cannot be instrumented fails
// the build with the reason.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace idb::instr {

// What a compiler command does, as far as the wrapper needs to know.
struct CompileLine {
  struct Source {
    size_t index = 0; // position in the argument list
    std::string path;
    bool cxx = false;
  };
  std::vector<Source> sources;
  bool links = true;                    // no -c, -S, -E, -fsyntax-only
  bool passthrough = false;             // run untouched: preprocessing only, no input files, ...
  std::vector<std::string> parse_flags; // what Clang needs to parse like the compiler
  std::string output;                   // -o
  std::string dep_file;                 // the dependency file -MD/-MMD/-MF write, or ""
  std::string error;                    // a command the wrapper cannot honour
};

// `args` excludes the compiler itself. Pure function.
// (The dependency file is found as GCC names it: -MF, else the -o name or the source's base
// name with .d, so the wrappers can put the original source names back into it.)
CompileLine parse_compile_line(const std::vector<std::string> &args);

// Where the runtime's header and library are for this wrapper binary.
struct RuntimePaths {
  std::string include_dir;
  std::string library_dir;
  std::string mpi_library_dir; // libidb_mpi: beside the runtime once installed
};

// Whether an argument names an MPI library: -lmpi..., or a path to libmpi*.so* or
// libmpi*.a (libmpich and libmpi_cxx included), as CMake's FindMPI passes them.
bool is_mpi_library(const std::string &arg);

// Where a link step's MPI layer goes: nullopt when it builds no MPI program; else the
// index in argv (argv[0] the compiler) of the first MPI library argument, which libidb_mpi
// must precede, or argv.size() when MPI comes from an MPI wrapper compiler (mpicc,
// mpicxx, mpic++, mpiCC, ...: it appends its libraries after every argument). IDB_MPI=0
// in the environment means no MPI program; IDB_MPI=1, one even with neither sign.
std::optional<std::size_t> mpi_layer_position(const std::vector<std::string> &argv);

RuntimePaths runtime_paths();

// The compiler under a one-word wrapper called `tool` (a file name: idb-gcc, idb-g++,
// idb-clang, idb-clang++, idb-mpicc, idb-mpicxx, ...): IDB_CC for a C compiler's name,
// IDB_CXX for a C++ one's, when set; else the name after "idb-". nullopt for the prefix
// forms idb-cc and idb-cxx, which take the compiler as their first argument.
std::optional<std::string> one_word_compiler(const std::string &tool);

// Runs the wrapper: `argv` is COMPILER ARGS... Returns the exit status to use; messages
// go to `err` prefixed with `tool` ("idb-cc").
int run_wrapper(const std::vector<std::string> &argv, const std::string &tool, std::ostream &err);

} // namespace idb::instr
