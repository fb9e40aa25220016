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

} // namespace

MpiRun mpi_run(int ranks, const std::string &program, const std::vector<std::string> &args,
               const Env &env) {
  MpiRun run;
  run.profile = run.dir.file("profile.idbprof");
  std::string command = "cd " + quoted(run.dir.path()) +
                        " && env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
                        "IDB_OUT=" + quoted(run.profile);
  for (const auto &[key, value] : env)
    command += " " + key + "=" + quoted(with_dir(value, run.dir.path()));
  command += std::string(" ") + IDB_TEST_MPIEXEC + " -np " + std::to_string(ranks) +
             " --oversubscribe " + quoted(program);
  for (const std::string &arg : args)
    command += " " + quoted(arg);
  std::string log = run.dir.file("mpirun.log");
  command += " > " + quoted(log) + " 2>&1";
  int rc = std::system(command.c_str());
  run.status = rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  run.output = read_file(log);
  return run;
}

} // namespace idb::test
