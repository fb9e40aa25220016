// Launching a program and collecting what it leaves (launch.hpp).
#include "launch.hpp"

#include "idb/combine.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace idb::cli {

namespace {

// `line` as execvp takes it (pointing into `line`).
std::vector<char *> argv_of(const std::vector<std::string> &line) {
  std::vector<char *> argv;
  argv.reserve(line.size() + 1);
  for (const std::string &word : line)
    argv.push_back(const_cast<char *>(word.c_str()));
  argv.push_back(nullptr);
  return argv;
}

// A launched child's side, after fork: `env` added to its environment, its output into
// `log` (unless empty), then `argv` run in its place.
[[noreturn]] void exec_child(const std::vector<char *> &argv, const Environment &env,
                             const std::string &log, const char *who) {
  for (const auto &[key, value] : env)
    setenv(key.c_str(), value.c_str(), 1);
  if (!log.empty()) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      std::fprintf(stderr, "%s: cannot write %s: %s\n", who, log.c_str(), std::strerror(errno));
      _exit(127);
    }
    dup2(fd, 1);
    dup2(fd, 2);
  }
  execvp(argv[0], argv.data());
  std::fprintf(stderr, "%s: cannot start %s: %s\n", who, argv[0], std::strerror(errno));
  _exit(127);
}

} // namespace

int launch(const std::vector<std::string> &line, const Environment &env, const std::string &log,
           const char *who) {
  std::vector<char *> argv = argv_of(line);
  // Like system(): ^C reaches the program, and idb stays to store what it leaves.
  struct sigaction ignore {
  }, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  pid_t pid = fork();
  if (pid == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    exec_child(argv, env, log, who);
  }
  int status = 0;
  if (pid > 0)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  if (pid < 0) {
    std::cerr << who << ": cannot fork: " << std::strerror(errno) << '\n';
    return 127;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

namespace {

// The process group launch_limited is waiting for, for the signal handler to pass ^C on.
volatile sig_atomic_t child_group = 0;

void pass_on(int signal) {
  if (child_group > 0) kill(-pid_t(child_group), signal);
}

} // namespace

int launch_limited(const std::vector<std::string> &line, const Environment &env,
                   const std::string &log, const char *who, double timeout, bool &timed_out) {
  timed_out = false;
  std::vector<char *> argv = argv_of(line);
  // SIGCHLD stays blocked in idb while it waits, so that sigtimedwait wakes at the child's
  // end or at the deadline, whichever comes first.
  sigset_t chld, old_mask;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &old_mask);
  struct sigaction forward {
  }, old_int{}, old_quit{}, old_term{};
  forward.sa_handler = pass_on;
  sigemptyset(&forward.sa_mask);
  sigaction(SIGINT, &forward, &old_int);
  sigaction(SIGQUIT, &forward, &old_quit);
  sigaction(SIGTERM, &forward, &old_term);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (in >= 0) dup2(in, 0);
    exec_child(argv, env, log, who);
  }
  int status = 0;
  if (pid > 0) {
    setpgid(pid, pid); // also here: no signal may reach the group before it exists
    child_group = pid;
    using Clock = std::chrono::steady_clock;
    Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                    std::chrono::duration<double>(timeout));
    bool killed = false;
    for (;;) {
      pid_t done = waitpid(pid, &status, WNOHANG);
      if (done == pid || (done < 0 && errno != EINTR)) break;
      auto left = deadline - Clock::now();
      if (left <= Clock::duration::zero()) {
        if (killed) {
          kill(-pid, SIGKILL);
          deadline = Clock::time_point::max();
        } else { // the group first, then whatever ignored it
          timed_out = killed = true;
          kill(-pid, SIGTERM);
          deadline = Clock::now() + std::chrono::seconds(5);
        }
        continue;
      }
      auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
      timespec wait{time_t(ns / 1000000000), long(ns % 1000000000)};
      sigtimedwait(&chld, nullptr, &wait); // the child's end, the deadline or a signal
    }
    if (timed_out) kill(-pid, SIGKILL); // what outlived the shell that started it
    child_group = 0;
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  if (pid < 0) {
    std::cerr << who << ": cannot fork: " << std::strerror(errno) << '\n';
    return 127;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

namespace {

// A profile the ranks merged at MPI_Finalize (full or summary mode), as opposed to one
// rank's own (per-rank mode, a spill, or a program without libidb_mpi).
bool is_merged(const profile::Profile &p) {
  std::string mode = p.get("mpi_mode");
  return mode == "full" || mode == "summary";
}

// Ranks from 0 to the largest nprocs the profiles claim that none of them is from.
std::vector<int> missing_ranks(const std::vector<profile::Profile> &found) {
  double nprocs = 1;
  std::set<int> present;
  for (const profile::Profile &p : found) {
    nprocs = std::max(nprocs, p.number("nprocs", 1));
    present.insert(int(p.number("rank", 0)));
  }
  std::vector<int> missing;
  for (int rank = 0; rank < int(nprocs); ++rank)
    if (!present.count(rank)) missing.push_back(rank);
  return missing;
}

// The profiles in `folder`, read; reports and returns false when one is unreadable.
bool read_folder(const std::string &folder, std::vector<profile::Profile> &found, const char *who) {
  for (const auto &entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".idbprof") continue; // skips PATH.tmp.PID leftovers
    profile::ReadResult r = profile::read_profile(entry.path().string());
    if (!r.profile) {
      std::cerr << who << ": " << r.error << '\n';
      return false;
    }
    found.push_back(std::move(*r.profile));
  }
  return true;
}

} // namespace

Collected collect(const std::string &folder, const char *who) {
  std::vector<profile::Profile> found;
  if (!read_folder(folder, found, who)) return {};
  if (found.empty()) {
    std::cerr << who
              << ": the program left no profile (is it instrumented, and did it "
                 "exit normally?)\n";
    return {};
  }
  auto merged = std::find_if(found.begin(), found.end(), is_merged);
  if (merged != found.end()) {
    if (found.size() > 1)
      std::cerr << who << ": using the merged profile; " << found.size() - 1
                << " per-rank profile(s) beside it ignored\n";
    return {std::move(*merged), {}};
  }
  std::vector<int> missing = missing_ranks(found);
  profile::CombineResult c = profile::combine_ranks(std::move(found));
  if (!c.profile) std::cerr << who << ": " << c.error << '\n';
  return {std::move(c.profile), std::move(missing)};
}

std::string rank_list(const std::vector<int> &ranks) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    text += (text.empty() ? "" : ", ") + std::to_string(ranks[i]);
    if (j > i) text += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

std::string joined(const std::vector<std::string> &line) {
  std::string text;
  for (const std::string &word : line)
    text += (text.empty() ? "" : " ") + word;
  return text;
}

} // namespace idb::cli
