// Runs a program under the real mpirun for the MPI tests: a fresh temporary folder as the
// working folder and IDB_OUT, extra environment, stdout and stderr collected in files.
// Also any command (the `idb` CLI) the same way.
#pragma once

#include "files.hpp"

#include <string>
#include <utility>
#include <vector>

namespace idb::test {

using Env = std::vector<std::pair<std::string, std::string>>;

struct MpiRun {
  TempDir dir;         // working folder; the profile goes to dir/profile.idbprof
  int status = -1;     // mpirun's exit status (-1: did not run)
  std::string output;  // stdout and stderr of mpirun and the ranks
  std::string profile; // dir/profile.idbprof
  bool ok() const { return status == 0; }
};

// `mpirun -np ranks --oversubscribe program args...` with IDB_OUT=dir/profile.idbprof and
// `env` on top ("{dir}" in a value stands for the folder). Allows running as root.
MpiRun mpi_run(int ranks, const std::string &program, const std::vector<std::string> &args,
               const Env &env = {});

struct CommandResult {
  int status = -1;    // exit status (-1: did not exit normally)
  std::string output; // stdout and stderr together
};

// Runs `argv` through the shell in `dir`, with `env` added (and running MPI as root
// allowed), and waits for it.
CommandResult run_command(const TempDir &dir, const std::vector<std::string> &argv,
                          const Env &env = {});

} // namespace idb::test
