// posix_spawnp-based process helpers for the compiler wrappers.
#include "process.hpp"

#include <cerrno>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace idb::instr {

namespace {

std::vector<char *> c_argv(const std::vector<std::string> &argv) {
  std::vector<char *> out;
  out.reserve(argv.size() + 1);
  for (const auto &a : argv)
    out.push_back(const_cast<char *>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

} // namespace

int run_process(const std::vector<std::string> &argv) {
  auto args = c_argv(argv);
  pid_t pid = 0;
  if (posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) return -1;
  return wait_for(pid);
}

int run_capture(const std::vector<std::string> &argv, std::string &output) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  auto args = c_argv(argv);
  pid_t pid = 0;
  int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  char buf[4096];
  ssize_t n = 0;
  while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) output.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  return spawned != 0 ? -1 : wait_for(pid);
}

} // namespace idb::instr
