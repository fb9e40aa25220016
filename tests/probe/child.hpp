// Runs a probe scenario in a forked child process and hands its profile to the test.
// The runtime's state is process-global (it starts at the first probe and writes one
// profile at exit), so every scenario that records gets a fresh process: the child gets
// its own temporary directory, a clean IDB_* environment with IDB_OUT pointing into that
// directory, and its stdout and stderr redirected to files there. The test process itself
// never calls a probe. Also small helpers to look up CFHs and read files.
#pragma once

#include "files.hpp"
#include "idb/profile.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace idb::test {

using Env = std::vector<std::pair<std::string, std::string>>;

struct Child {
  TempDir dir;      // the child's temporary directory
  pid_t pid = 0;    // the child's process id, as %p expands in it
  int status = 0;   // as waitpid reports it
  std::string out;  // what the child wrote to stdout
  std::string err;  // what the child wrote to stderr
  std::string path; // the profile path given in IDB_OUT (unless `env` replaced it)

  // True when the child exited normally with status 0.
  bool ok() const;
  // "exit 3" or "signal 11", and the child's stderr: for failure messages.
  std::string describe() const;
  // Reads the profile at `path`.
  idb::profile::ReadResult read() const;
};

// Forks; the child clears every inherited IDB_* variable, sets IDB_OUT to
// <dir>/profile.idbprof, then each of `env` (so an entry may replace IDB_OUT; "{dir}" in a
// value stands for the child's directory), redirects
// stdout and stderr, runs `scenario`, calls idb_finalize() and leaves with _exit(0). A
// scenario may end the process itself (exit(), abort()). An exception escaping the
// scenario ends the child with status 3; a child still running after 30 s is killed by
// SIGALRM. The parent waits and collects the results.
Child run_child(const std::function<void()> &scenario, const Env &env = {});

// The first CFH of `profile` with this name, or nullptr.
const idb::profile::Cfh *find_cfh(const idb::profile::Profile &profile, const std::string &name);

// Every thread's default CFH (the unnamed ones), in file order.
std::vector<const idb::profile::Cfh *> thread_cfhs(const idb::profile::Profile &profile);

// paths_text() of the CFH named `name`, or "<no CFH named ...>" so that a comparison
// against the expected tree fails readably.
std::string tree_of(const idb::profile::Profile &profile, const std::string &name);

} // namespace idb::test
