// mpi_run: the real mpirun through the shell, with the environment set on its command line.
#include "mpi_launch.hpp"

#include <cstdlib>
#include <sys/wait.h>

namespace idb::test {

namespace {

std::string quoted(const std::string &text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string with_dir(std::string value, const std::string &dir) {
  for (std::size_t at; (at = value.find("{dir}")) != std::string::npos;)
    value.replace(at, 5, dir);
  return value;
}

// Every command runs with MPI as root allowed, and without LeakSanitizer's exit check:
// under the asan preset Open MPI's processes end with allocations it never frees, in
// components it has unloaded by then, which LSan can neither name nor suppress. The
// MPI layer's own merge code is leak-checked without MPI (test_summary_core.cpp).
const char *kEnv = "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                   "ASAN_OPTIONS=detect_leaks=0";

int shell(const std::string &command, const std::string &log) {
  int rc = std::system((command + " > " + quoted(log) + " 2>&1").c_str());
  return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

} // namespace

CommandResult run_command(const TempDir &dir, const std::vector<std::string> &argv,
                          const Env &env) {
  std::string command = "cd " + quoted(dir.path()) + " && " + kEnv;
  for (const auto &[key, value] : env)
    command += " " + key + "=" + quoted(with_dir(value, dir.path()));
  for (const std::string &arg : argv)
    command += " " + quoted(arg);
  CommandResult result;
  std::string log = dir.file("command.log");
  result.status = shell(command, log);
  result.output = read_file(log);
  return result;
}

MpiRun mpi_run(int ranks, const std::string &program, const std::vector<std::string> &args,
               const Env &env) {
  MpiRun run;
  run.profile = run.dir.file("profile.idbprof");
  std::string command =
      "cd " + quoted(run.dir.path()) + " && " + kEnv + " IDB_OUT=" + quoted(run.profile);
  for (const auto &[key, value] : env)
    command += " " + key + "=" + quoted(with_dir(value, run.dir.path()));
  command += std::string(" ") + IDB_TEST_MPIEXEC + " -np " + std::to_string(ranks) +
             " --oversubscribe " + quoted(program);
  for (const std::string &arg : args)
    command += " " + quoted(arg);
  std::string log = run.dir.file("mpirun.log");
  run.status = shell(command, log);
  run.output = read_file(log);
  return run;
}

} // namespace idb::test
