// The fork/wait harness of child.hpp and its lookup helpers. Between fork() and _exit()
// the child uses only what a single-threaded copy of the test process can: setenv, dup2,
// the scenario itself and the probe runtime.
#include "child.hpp"

#include "idb/probe.h"
#include "idb/tree.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace idb::test {

namespace {

void clear_idb_environment() {
  std::vector<std::string> names;
  for (char **e = environ; e && *e; ++e)
    if (std::strncmp(*e, "IDB_", 4) == 0) names.emplace_back(*e, std::strcspn(*e, "="));
  for (const std::string &name : names)
    unsetenv(name.c_str());
}

// `value` with every "{dir}" replaced by the child's directory.
std::string expand(std::string value, const TempDir &dir) {
  const std::string marker = "{dir}";
  for (std::size_t at; (at = value.find(marker)) != std::string::npos;)
    value.replace(at, marker.size(), dir.path());
  return value;
}

void redirect(int fd, const std::string &path) {
  int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (file < 0 || dup2(file, fd) < 0) _exit(4);
  close(file);
}

[[noreturn]] void be_child(const std::function<void()> &scenario, const Env &env,
                           const TempDir &dir, const std::string &path) {
  alarm(30);
  redirect(STDOUT_FILENO, dir.file("stdout.txt"));
  redirect(STDERR_FILENO, dir.file("stderr.txt"));
  clear_idb_environment();
  setenv("IDB_OUT", path.c_str(), 1);
  for (const auto &[name, value] : env)
    setenv(name.c_str(), expand(value, dir).c_str(), 1);
  try {
    scenario();
  } catch (...) {
    std::fflush(nullptr);
    _exit(3);
  }
  idb_finalize();
  std::fflush(nullptr);
  _exit(0);
}

} // namespace

bool Child::ok() const {
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::string Child::describe() const {
  std::string how = WIFEXITED(status)     ? "exit " + std::to_string(WEXITSTATUS(status))
                    : WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                          : "status " + std::to_string(status);
  return "child " + how + "; stderr:\n" + err;
}

idb::profile::ReadResult Child::read() const {
  return idb::profile::read_profile(path);
}

Child run_child(const std::function<void()> &scenario, const Env &env) {
  Child child;
  child.path = child.dir.file("profile.idbprof");
  std::fflush(nullptr); // nothing buffered may be written twice
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) be_child(scenario, env, child.dir, child.path);
  child.pid = pid;
  while (waitpid(pid, &child.status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  child.out = read_file(child.dir.file("stdout.txt"));
  child.err = read_file(child.dir.file("stderr.txt"));
  for (const auto &[name, value] : env)
    if (name == "IDB_OUT") child.path = expand(value, child.dir);
  return child;
}

const idb::profile::Cfh *find_cfh(const idb::profile::Profile &profile, const std::string &name) {
  for (const auto &cfh : profile.cfhs)
    if (cfh.name == name) return &cfh;
  return nullptr;
}

std::vector<const idb::profile::Cfh *> thread_cfhs(const idb::profile::Profile &profile) {
  std::vector<const idb::profile::Cfh *> threads;
  for (const auto &cfh : profile.cfhs)
    if (!cfh.named) threads.push_back(&cfh);
  return threads;
}

std::string tree_of(const idb::profile::Profile &profile, const std::string &name) {
  const idb::profile::Cfh *cfh = find_cfh(profile, name);
  return cfh ? idb::profile::paths_text(profile, *cfh) : "<no CFH named " + name + ">";
}

} // namespace idb::test
