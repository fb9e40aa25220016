// Process-wide state of the probe runtime shared between its source files: the CFH list,
// the lock that guards it, initialisation and finalisation.
#pragma once

#include "calibrate.h"
#include "cfh.h"
#include "config.h"
#include "timer.h"
#include "writer.h"

#include <atomic>
#include <pthread.h>

namespace idb::rt {

enum State : int { kUninitialised = 0, kRunning = 1, kOff = 2, kFinished = 3 };

struct Runtime {
  std::atomic<int> state{kUninitialised};
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; // CFH list, thread slots, init, finalize
  Config config;
  Limits limits{};
  Cfh *first = nullptr, *last = nullptr; // every CFH, in creation order
  int threads = 0;                       // thread slots handed out
  double ticks_per_second = 1e9;
  Calibration calibration;      // rounds at initialisation and at finalize
  double noise_ticks = 0.0;     // the charge per activation drawn from them
  double throttled_ticks = 0.0; // and per throttled activation
  ClockPair start_pair{};
  double start_unix = 0.0, end_unix = 0.0;
  std::uint64_t end_ticks = 0; // wall clock at finalize
  char program[256] = "";
  int rank = 0, nprocs = 1;
  pthread_key_t thread_key{};
  // Metadata the MPI layer adds (idb_ext_set_meta): the wait-state replay's coverage.
  char ext_meta[8][2][96] = {};
  int ext_meta_count = 0;
};

extern Runtime g_rt;

// The calling thread's current CFH: its default one, or the named one it entered last
// (context.h). nullptr before its first probe, when probes are off and after finalize.
// Kept in idb_hot_ (idb/probe.h), which points at the CFH's head, so that the scope
// macros read it inline.
inline Cfh *cur_cfh() {
  return reinterpret_cast<Cfh *>(idb_hot_);
}
inline void set_cur_cfh(Cfh *c) {
  idb_hot_ = c ? &c->hot : nullptr;
}

// Starts the runtime if nobody has; returns the state after.
int ensure_init(const char *program);

// Creates or reclaims the calling thread's default CFH; nullptr when probes do not record.
Cfh *claim_thread_cfh();

// The first half of finalize, under `lock`: closes the calling thread's CFH, takes the
// end time and turns probes off. Returns false when the runtime was not recording.
bool stop_recording();

// Writes the profile (run_info.cpp): metadata, output path, warnings. With `sections`,
// those (the combined ranks' CFHs) replace this process's own and the warnings are left
// to each rank's serialize_run. `mode` (may be null) is stored as metadata `mpi_mode`.
// `suffix` (may be null) is appended to the expanded IDB_OUT path, and the path used is
// copied to `path` (`size` bytes; may be null). Returns true when the file was written.
bool write_run_profile(const Bytes *sections = nullptr, const char *mode = nullptr,
                       const char *suffix = nullptr, char *path = nullptr, std::size_t size = 0);

// This process's probe table, or its CFH sections (also reporting this process's warnings
// on stderr), for the MPI layer. Each is skipped when null. Returns false when memory is
// exhausted.
bool serialize_run(Bytes *probes, Bytes *sections);

} // namespace idb::rt
