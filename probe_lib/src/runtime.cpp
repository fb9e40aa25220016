// The C API of idb/probe.h: initialisation, the per-thread default CFHs, named CFHs and
// finalisation. The hot entry points (idb_start, idb_stop) only find the thread's current
// CFH (its default one, or the one it entered: context.cpp) and hand over to the inline
// start/stop of cfh.h.
#include "idb/probe.h"

#include "calibrate.h"
#include "context.h"
#include "dynamics.h"
#include "probes.h"
#include "runtime.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace idb::rt {

Runtime g_rt;

namespace {

void link_cfh(Cfh *c) {
  if (g_rt.last)
    g_rt.last->next = c;
  else
    g_rt.first = c;
  g_rt.last = c;
}

// Closes a finished thread's CFH and frees its slot for the next thread. Runs in the
// exiting thread, which forgets the CFH: destructors of keys created after the runtime's
// run later and may still probe; they claim a slot again (and this runs again) instead of
// writing into a CFH that another thread may already have reclaimed.
void on_thread_exit(void *data) {
  auto *c = static_cast<Cfh *>(data);
  set_cur_cfh(nullptr);
  context_forget();
  pthread_mutex_lock(&g_rt.lock);
  if (g_rt.state.load() == kRunning) {
    cfh_close_all(*c, now());
    c->in_use = false;
  }
  pthread_mutex_unlock(&g_rt.lock);
}

void finalize_at_exit() {
  idb_finalize();
}

// fork(): no lock may be inherited taken, and the child, a copy of the parent's CFHs,
// records nothing and writes nothing (the parent's profile holds what it ran before).
void before_fork() {
  pthread_mutex_lock(&g_rt.lock);
  probe_table_lock();
}

void after_fork_in_parent() {
  probe_table_unlock();
  pthread_mutex_unlock(&g_rt.lock);
}

void after_fork_in_child() {
  if (g_rt.state.load() == kRunning) g_rt.state.store(kFinished);
  idb_probes_off = 1;
  set_cur_cfh(nullptr);
  context_forget();
  probe_table_unlock();
  pthread_mutex_unlock(&g_rt.lock);
}

void detect_rank() {
  const char *rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
  const char *size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};
  for (const char *v : rank_vars)
    if (const char *s = std::getenv(v)) {
      g_rt.rank = std::atoi(s);
      break;
    }
  for (const char *v : size_vars)
    if (const char *s = std::getenv(v)) {
      g_rt.nprocs = std::atoi(s) > 0 ? std::atoi(s) : 1;
      break;
    }
  // The rank and the size come from different variables (a launcher may set one without
  // the other, or an outer allocation's size may linger): the profile's rank must lie
  // within its rank count, as the reader requires.
  if (g_rt.rank < 0) g_rt.rank = 0;
  if (g_rt.nprocs <= g_rt.rank) g_rt.nprocs = g_rt.rank + 1;
}

void set_program(const char *program) {
  if (program && *program) {
    std::snprintf(g_rt.program, sizeof g_rt.program, "%s", program);
    return;
  }
  // The name the program was started by, not /proc/self/comm (cut at 15 characters).
  const char *exe = program_invocation_short_name;
  std::snprintf(g_rt.program, sizeof g_rt.program, "%s", exe && *exe ? exe : "program");
}

void start_running(const char *program) {
  set_program(program);
  detect_rank();
  g_rt.ticks_per_second = timer_init(g_rt.config.timer);
  const Config &cfg = g_rt.config;
  g_rt.limits.max_nodes = cfg.max_nodes;
  g_rt.limits.max_depth = cfg.max_depth;
  g_rt.limits.cpu_all = cfg.cpu == CpuPolicy::All;
  // Durations go into histograms in nanoseconds, the one grid every rank and run shares.
  g_rt.limits.hist_mult =
      cfg.histogram ? std::uint64_t(1e9 / g_rt.ticks_per_second * 4294967296.0) : 0;
  g_rt.limits.cpu_read_ns = cfg.cpu == CpuPolicy::Off ? 0.0 : thread_cpu_read_cost_ns();
  // Four reads' worth, and never under 1 us: an honest read costs well under that.
  double read_ns = 4.0 * g_rt.limits.cpu_read_ns;
  g_rt.limits.cpu_read_cap_ticks =
      (read_ns > 1000.0 ? read_ns : 1000.0) * 1e-9 * g_rt.ticks_per_second;
  g_rt.limits.cpu_threshold = cfg.cpu == CpuPolicy::Off ? HUGE_VAL
                              : cfg.cpu == CpuPolicy::All
                                  ? 0.0
                                  : cfg.cpu_threshold_us * 1e-6 * g_rt.ticks_per_second;
  pthread_key_create(&g_rt.thread_key, on_thread_exit);
  g_rt.state.store(kRunning);
  calibrate_noise(g_rt.calibration, g_rt.limits);
  g_rt.noise_ticks = noise_per_pair(g_rt.calibration);
  g_rt.throttled_ticks = noise_per_throttled_pair(g_rt.calibration);
  g_rt.limits.noise_ticks = g_rt.noise_ticks;
  // A node whose mean is under this, the pair cost over the share, costs more than the
  // share of its own time: after `throttle_after` activations it is only counted.
  g_rt.limits.throttle_after = cfg.throttle ? cfg.throttle_after : ~std::uint64_t(0);
  g_rt.limits.throttle_ticks =
      cfg.throttle ? g_rt.noise_ticks * 100.0 / cfg.throttle_percent : -HUGE_VAL;
  // A node far under the threshold, its probe costing more than twice the share, is told
  // from a shorter sample: it stops timing after `throttle_early` activations (1,000 of
  // the 10,000 by default; docs/configuration.md, "Throttling").
  g_rt.limits.throttle_early_after =
      cfg.throttle ? std::min(cfg.throttle_early, cfg.throttle_after) : ~std::uint64_t(0);
  g_rt.limits.throttle_early_ticks = g_rt.limits.throttle_ticks / 2.0;
  g_rt.limits.throttle_sample = cfg.throttle ? cfg.throttle_sample : 0;
  probe_seen(IDB_PROC, 0, g_rt.program, nullptr, 0, nullptr);
  dyn_configure(cfg);
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  g_rt.start_unix = double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
  g_rt.start_pair = clock_pair();
  std::atexit(finalize_at_exit);
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

} // namespace

int ensure_init(const char *program) {
  int state = g_rt.state.load(std::memory_order_acquire);
  if (state != kUninitialised) return state;
  pthread_mutex_lock(&g_rt.lock);
  if (g_rt.state.load() == kUninitialised) {
    g_rt.config = read_config();
    if (g_rt.config.enabled)
      start_running(program);
    else
      g_rt.state.store(kOff);
    idb_probes_off = g_rt.state.load() != kRunning;
  }
  state = g_rt.state.load();
  pthread_mutex_unlock(&g_rt.lock);
  return state;
}

Cfh *claim_thread_cfh() {
  if (ensure_init(nullptr) != kRunning) return nullptr;
  pthread_mutex_lock(&g_rt.lock);
  Cfh *c = nullptr;
  if (g_rt.state.load() == kRunning) {
    for (Cfh *p = g_rt.first; p && !c; p = p->next)
      if (!p->named && !p->in_use) c = p;
    if (c) {
      cfh_reopen(*c);
    } else {
      char name[32];
      std::snprintf(name, sizeof name, "thread %d", g_rt.threads);
      c = cfh_create(name, false, g_rt.threads, g_rt.limits);
      if (c) {
        ++g_rt.threads;
        link_cfh(c);
      }
    }
    if (c) pthread_setspecific(g_rt.thread_key, c);
    set_cur_cfh(context_set_home(c)); // an entered CFH stays current
  }
  pthread_mutex_unlock(&g_rt.lock);
  return c;
}

// The body of idb_start and idb_start_at: the thread's CFH, claimed at its first probe.
__attribute__((always_inline)) inline void start_on_thread(int kind, int id,
                                                           const char *description,
                                                           const char *file, int line,
                                                           const char *function) {
  Cfh *c = cur_cfh();
  if (__builtin_expect(c == nullptr, 0)) {
    if (g_rt.state.load(std::memory_order_relaxed) > kRunning || !(c = claim_thread_cfh())) return;
  }
  cfh_start(*c, kind, id, description, file, line, function);
}

bool stop_recording() {
  if (g_rt.state.load() != kRunning) return false;
  g_rt.state.store(kFinished);
  idb_probes_off = 1;
  calibrate_noise(g_rt.calibration, g_rt.limits);
  g_rt.noise_ticks = noise_per_pair(g_rt.calibration);
  g_rt.throttled_ticks = noise_per_throttled_pair(g_rt.calibration);
  // Only the calling thread's CFHs (its default one and those it entered) are closed;
  // other threads may still be inside a probe, so the writer reads their open frames
  // without changing them.
  g_rt.end_ticks = now();
  context_close(g_rt.end_ticks);
  g_rt.ticks_per_second = ticks_per_second(g_rt.start_pair, clock_pair(), g_rt.ticks_per_second);
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  g_rt.end_unix = double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
  set_cur_cfh(nullptr);
  return true;
}

} // namespace idb::rt

using namespace idb::rt;

extern "C" {

int idb_probes_off = 0;
constinit __thread idb_hot_t *idb_hot_ __attribute__((tls_model("initial-exec"))) = nullptr;

void idb_init(const char *program) {
  ensure_init(program);
}

int idb_enabled(void) {
  return ensure_init(nullptr) == kRunning;
}

void idb_start(int kind, int id, const char *description) {
  start_on_thread(kind, id, description, nullptr, 0, nullptr);
}

void idb_start_at(int kind, int id, const char *description, const char *file, int line,
                  const char *function) {
  start_on_thread(kind, id, description, file, line, function);
}

int idb_start_fast(int id) {
  Cfh *c = cur_cfh();
  return c ? cfh_start_fast(*c, id) : 0;
}

void idb_stop(int id) {
  if (Cfh *c = cur_cfh()) cfh_stop(*c, id);
}

void idb_register_probe(int kind, int id, const char *description, const char *file, int line,
                        const char *function) {
  probe_seen(kind, id, description, file, line, function);
}

void idb_dynamic_probe(int id) {
  dyn_mark_probe(id);
}

idb_cfh_t *idb_thread_cfh(void) {
  Cfh *c = context_home() ? context_home() : claim_thread_cfh();
  return reinterpret_cast<idb_cfh_t *>(c);
}

idb_cfh_t *idb_cfh_create(const char *name) {
  Cfh *self = context_home() ? context_home() : claim_thread_cfh();
  if (!self) return nullptr;
  int thread = self->thread;
  pthread_mutex_lock(&g_rt.lock);
  Cfh *c = nullptr;
  if (g_rt.state.load() == kRunning) {
    for (Cfh *p = g_rt.first; p && !c; p = p->next)
      if (p->named && !p->in_use &&
          std::strncmp(p->name, name ? name : "", sizeof p->name - 1) == 0)
        c = p;
    if (c) {
      cfh_reopen(*c);
    } else if ((c = cfh_create(name, true, thread, g_rt.limits))) {
      link_cfh(c);
    }
  }
  pthread_mutex_unlock(&g_rt.lock);
  return reinterpret_cast<idb_cfh_t *>(c);
}

void idb_cfh_destroy(idb_cfh_t *handle) {
  auto *c = reinterpret_cast<Cfh *>(handle);
  if (!c || !c->named) return; // a thread's own CFH ends with the thread
  pthread_mutex_lock(&g_rt.lock);
  if (g_rt.state.load() == kRunning && c->in_use) {
    context_drop(c);
    cfh_close_all(*c, now());
    c->in_use = false;
  }
  pthread_mutex_unlock(&g_rt.lock);
}

void idb_cfh_start(idb_cfh_t *handle, int kind, int id, const char *description) {
  if (auto *c = reinterpret_cast<Cfh *>(handle))
    cfh_start(*c, kind, id, description, nullptr, 0, nullptr);
}

void idb_cfh_start_at(idb_cfh_t *handle, int kind, int id, const char *description,
                      const char *file, int line, const char *function) {
  if (auto *c = reinterpret_cast<Cfh *>(handle))
    cfh_start(*c, kind, id, description, file, line, function);
}

void idb_cfh_stop(idb_cfh_t *handle, int id) {
  if (auto *c = reinterpret_cast<Cfh *>(handle)) cfh_stop(*c, id);
}

const char *idb_cfh_name(const idb_cfh_t *handle) {
  const auto *c = reinterpret_cast<const Cfh *>(handle);
  return c ? c->name : "";
}

int idb_cfh_dump(const idb_cfh_t *handle, void *stream) {
  const auto *c = reinterpret_cast<const Cfh *>(handle);
  return c && stream ? cfh_dump(*c, stream) : -1;
}

void idb_finalize(void) {
  pthread_mutex_lock(&g_rt.lock);
  if (stop_recording()) write_run_profile();
  pthread_mutex_unlock(&g_rt.lock);
}

} // extern "C"
