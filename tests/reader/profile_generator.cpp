// A small instrumented program whose profile has a fixed shape, run by the reader tests
// (support.cpp) to get real profiles: nested probes of every kind on the main thread, a
// named CFH with one mismatched stop and one probe left open, and two worker threads that
// hold their thread slots at the same time. Probe shapes and counts never depend on timing;
// the sleeps only make the nodes that `idb show --prune` must keep far heavier than the
// empty ones it must hide. The runtime writes the profile at exit (IDB_OUT).
#include <idb/probe.h>

#include <ctime>
#include <latch>
#include <thread>

namespace {

enum { P_MAIN = 1, P_SETUP, P_ITERATE, P_STEP };
enum { P_COMPUTE = 10, P_EXCHANGE };
enum { P_SOLVE = 20, P_RESIDUAL, P_PENDING, P_NEVER_OPENED };
enum { P_WORKER = 30 };

void pause_ms(int ms) {
  timespec t{0, long(ms) * 1000000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

void compute(int ms) {
  idb_start(IDB_PROC, P_COMPUTE, "not this description: the registered one wins");
  pause_ms(ms);
  idb_stop(P_COMPUTE);
}

void iterate() {
  idb_start(IDB_LOOP, P_ITERATE, "iterate");
  for (int step = 0; step < 3; ++step) {
    idb_start(IDB_LOOP, P_STEP, "step");
    compute(2);
    for (int k = 0; k < 2; ++k) {
      idb_start(IDB_COMM, P_EXCHANGE, "exchange");
      idb_stop(P_EXCHANGE);
    }
    idb_stop(P_STEP);
  }
  idb_stop(P_ITERATE);
}

void solve() {
  idb_cfh_t *solver = idb_cfh_create("solver[0]");
  idb_cfh_start_at(solver, IDB_PROC, P_SOLVE, "solve", "solver.c", 7, "solve");
  pause_ms(2);
  for (int k = 0; k < 2; ++k) {
    idb_cfh_start(solver, IDB_CALL, P_RESIDUAL, "residual");
    idb_cfh_stop(solver, P_RESIDUAL);
  }
  idb_cfh_stop(solver, P_SOLVE);
  idb_cfh_stop(solver, P_NEVER_OPENED);                  // counted as a mismatch
  idb_cfh_start(solver, IDB_PROC, P_PENDING, "pending"); // closed by destroy: unclosed
  idb_cfh_destroy(solver);
}

void worker(std::latch &both_started) {
  idb_start_at(IDB_PROC, P_WORKER, "worker", "profile_generator.cpp", 60, "worker");
  for (int k = 0; k < 4; ++k)
    compute(1);
  idb_stop(P_WORKER);
  // Neither thread ends, freeing its slot, before the other has claimed one.
  both_started.arrive_and_wait();
}

} // namespace

int main() {
  idb_init("profile_gen");
  idb_register_probe(IDB_PROC, P_COMPUTE, "compute", "kernels.c", 42, "compute");
  idb_start_at(IDB_PROC, P_MAIN, "main", "profile_generator.cpp", 100, "main");
  idb_start(IDB_PROC, P_SETUP, "setup");
  idb_stop(P_SETUP);
  iterate();
  solve();
  std::latch both_started(2);
  std::thread a(worker, std::ref(both_started)), b(worker, std::ref(both_started));
  a.join();
  b.join();
  idb_stop(P_MAIN);
  return 0;
}
