// A rank's own profile: the settings that decide it, the claim that keeps it from being
// written twice, and the SIGTERM watcher. The handler only writes a byte to a pipe (the
// one async-signal-safe step it needs); the watcher thread, blocked on that pipe, does the
// writing with the runtime's ordinary locks and allocation, then restores the default
// disposition and raises SIGTERM again, so the rank dies of it as it would have.
#include "own_profile.h"

#include "ext.h"
#include "spill_policy.h"

#include "idb/probe.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace idb::mpi {

namespace {

struct Settings {
  bool ready = false;
  Mode mode = Mode::Full;
  bool spill = false;
  int rank = 0;
};

Settings g_settings;

enum : int { kNotWritten, kWriting, kWritten };
std::atomic<int> g_own{kNotWritten};

int g_pipe[2] = {-1, -1};
int g_linger = 2; // seconds a rank that has written on SIGTERM waits before dying of it
pid_t g_pid = 0;  // the process that installed the handler (a forked child is another)

void read_settings(int rank, int size) {
  g_settings.mode = read_mode();
  const char *value = std::getenv("IDB_MPI_SPILL");
  SpillChoice choice = parse_spill(value);
  if (!choice.valid && rank == 0)
    std::fprintf(stderr, "idb: ignoring IDB_MPI_SPILL=%s (expected auto, 0 or 1): using auto\n",
                 value);
  g_settings.spill = spill_enabled(choice.setting, g_settings.mode == Mode::Rank, size);
  g_settings.rank = rank;
  g_settings.ready = true;
}

const Settings &settings() {
  if (!g_settings.ready) { // MPI started without the MPI_Init wrappers (PMPI_Init)
    int rank = 0, size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    read_settings(rank, size);
  }
  return g_settings;
}

void write_spill(int rank, char *path, std::size_t size) {
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".rank%d.idbprof", rank);
  char used[4096];
  if (idb_ext_write_spill(suffix, used, sizeof used) != 0) used[0] = '\0';
  if (path && size) std::snprintf(path, size, "%s", used);
}

void on_sigterm(int) {
  int saved = errno;
  if (getpid() != g_pid) { // a forked child: no watcher there, so behave as without one
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTERM, &dfl, nullptr);
    raise(SIGTERM); // delivered once this handler returns and unblocks it
  } else {
    char byte = 1;
    ssize_t n = write(g_pipe[1], &byte, 1); // a full pipe means the watcher is awake already
    (void)n;
  }
  errno = saved;
}

// Open MPI's mpirun sends SIGTERM, then SIGKILL odls_base_sigkill_timeout seconds later
// (default 1), or as soon as one of the ranks exits: so a rank that has written its
// profile stays until then, lest its exit cut short the others' writing. The wait ends
// with the launcher's SIGKILL, or a second after its timeout under another launcher.
int linger_seconds() {
  const char *v = std::getenv("OMPI_MCA_odls_base_sigkill_timeout");
  int timeout = v ? std::atoi(v) : 1;
  return (timeout > 1 ? timeout : 1) + 1;
}

void linger(struct timespec since) {
  struct timespec until = since;
  until.tv_sec += g_linger;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}

void *watch(void *) {
  char byte = 0;
  for (;;) {
    ssize_t n = read(g_pipe[0], &byte, 1);
    if (n == 1) break;
    if (n < 0 && errno == EINTR) continue;
    return nullptr; // the pipe failed: nothing left to watch
  }
  struct timespec woke {};
  clock_gettime(CLOCK_MONOTONIC, &woke);
  save_own_profile(nullptr, 0);
  linger(woke);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGTERM, &dfl, nullptr);
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &term, nullptr);
  raise(SIGTERM);
  return nullptr;
}

// Starts the watcher with every signal blocked, so the program's signals keep going to
// the program's threads. Returns false (reported) when it cannot.
bool start_watcher() {
  if (pipe2(g_pipe, O_CLOEXEC) != 0 || fcntl(g_pipe[1], F_SETFL, O_NONBLOCK) != 0) {
    std::perror("idb: warning: a rank ended by SIGTERM will lose its data: pipe");
    return false;
  }
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_t thread;
  int rc = pthread_create(&thread, &attr, watch, nullptr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    errno = rc;
    std::perror("idb: warning: a rank ended by SIGTERM will lose its data: thread");
    close(g_pipe[0]);
    close(g_pipe[1]);
    return false;
  }
  pthread_setname_np(thread, "idb-sigterm");
  return true;
}

// The handler goes in only where SIGTERM has its default action: a program that handles
// or ignores SIGTERM keeps what it chose.
void watch_sigterm() {
  struct sigaction current {};
  if (sigaction(SIGTERM, nullptr, &current) != 0) return;
  if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) return;
  g_linger = linger_seconds();
  if (!start_watcher()) return;
  g_pid = getpid();
  struct sigaction act {};
  act.sa_handler = on_sigterm;
  sigemptyset(&act.sa_mask);
  act.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &act, nullptr);
}

} // namespace

void setup_own_profile(int rank, int size) {
  static bool done = false;
  if (done) return;
  done = true;
  read_settings(rank, size);
  if (g_settings.spill && idb_enabled()) watch_sigterm();
}

Mode run_mode() {
  return settings().mode;
}

bool spill_on() {
  return settings().spill;
}

bool save_own_profile(char *path, std::size_t size) {
  if (path && size) path[0] = '\0';
  int expected = kNotWritten;
  if (!g_own.compare_exchange_strong(expected, kWriting)) {
    while (g_own.load() == kWriting) {
      struct timespec pause = {0, 1000000L};
      nanosleep(&pause, nullptr);
    }
    return false;
  }
  const Settings &s = settings();
  if (idb_ext_stop() >= 0) { // -1: probes are off, there is nothing to write
    if (s.mode == Mode::Rank)
      idb_ext_write(nullptr, "rank");
    else
      write_spill(s.rank, path, size);
  }
  g_own.store(kWritten);
  return true;
}

} // namespace idb::mpi
