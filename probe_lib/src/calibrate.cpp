// Noise calibration: what one start/stop pair adds to the code around it, timed and
// throttled. The runtime calibrates at initialisation and again at finalize, so a burst of
// load at either end does not decide the figure alone.
//
// Back-to-back pairs do not measure it. Timed ones are bound by their two clock reads,
// which real work overlaps: between calls of 190-290 ns a timed pair added 14-15 ns where
// back-to-back pairs took 18. Throttled ones read no clock, so each overlaps the next,
// which real work does not allow: they added 9-10 ns between those calls and took 3.4 back
// to back. What matched both (docs/PERFORMANCE.md, section 5, "A fenced calibration") is
// the pair's latency: each pair behind a fence that lets nothing after it start before
// everything before it is done, less the same fence alone; for a timed pair, less two
// fenced clock reads too, the part real work hides.
//
// The charges are differences of small figures, so what interrupts the measurement must
// not reach them. Interrupts only add time: each kind is timed in short batches and a
// round keeps its fastest batch, and the charges subtract each kind's lower quartile over
// the rounds, not round by round, where an interrupted subtrahend made a round's charge
// zero (docs/PERFORMANCE.md, section 5, "Calibration under interrupts").
#include "calibrate.h"

#include "idb/probe.h"
#include "probes.h"
#include "runtime.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace idb::rt {

namespace {

// Waits until every earlier instruction has completed before any later one starts. Off x86
// the runtime has no such instruction and calibrates back to back, which over-charges
// timed pairs and under-charges throttled ones.
#if defined(__x86_64__) || defined(__i386__)
constexpr bool kFenced = true;
inline void fence() {
  _mm_lfence();
}
#else
constexpr bool kFenced = false;
inline void fence() {}
#endif

// Each kind is timed in kBatches batches of kBatch iterations, about 0.1-1 us each, so a
// batch seldom holds an interrupt; the fastest batch is the round's figure.
constexpr int kBatches = 16;
constexpr int kBatch = 32;

// Ticks per iteration of `body` behind a fence: the fastest of kBatches batches.
template <class Body> double fenced(Body body) {
  double best = __builtin_huge_val();
  for (int b = 0; b < kBatches; ++b) {
    std::uint64_t t0 = now();
    for (int i = 0; i < kBatch; ++i) {
      fence();
      body();
    }
    double ticks = double(now() - t0) / kBatch;
    if (ticks < best) best = ticks;
  }
  return best;
}

} // namespace

void calibrate_noise(Calibration &cal, const Limits &limits) {
  Limits quiet = limits;
  quiet.cpu_all = false;
  quiet.cpu_threshold = __builtin_huge_val();
  quiet.throttle_after = ~std::uint64_t(0);
  quiet.throttle_ticks = -__builtin_huge_val();
  quiet.throttle_early_after = ~std::uint64_t(0);
  quiet.throttle_early_ticks = -__builtin_huge_val();
  quiet.throttle_sample = 0; // the throttled round below counts and never samples
  Cfh *c = cfh_create("calibration", true, -1, quiet);
  if (!c) return;
  Cfh *saved = cur_cfh();
  set_cur_cfh(c);
  // Called through pointers, as a user's code calls them through the PLT, and the way the
  // scope macros do: the fast start, the full one when it declines (the first time).
  int (*volatile start_fast)(int) = idb_start_fast;
  void (*volatile start)(int, int, const char *) = idb_start;
  void (*volatile stop)(int) = idb_stop;
  auto pair = [&] {
    if (!start_fast(kCalibrationProbe)) start(IDB_PROC, kCalibrationProbe, nullptr);
    stop(kCalibrationProbe);
  };
  // A throttled activation as the scope macros count it once the site cache holds it
  // (idb/probe.h): inline, with no call. What they test first, idb_probes_off, is already
  // set at finalize, so a flag of the same kind stands in for it.
  volatile int off = 0;
  auto counted = [&off] {
    if (__builtin_expect(off, 0)) return;
    unsigned int top = 0;
    idb_hot_t *hot = idb_hot_;
    if (hot && idb_count_site_(hot, kCalibrationProbe, &top)) hot->top = top;
  };
  volatile std::uint64_t sink = 0;
  constexpr int kRounds = 15;
  for (int r = -1; r < kRounds && cal.rounds < Calibration::kCapacity; ++r) {
    double timed = fenced(pair);
    Child *entry = c->children.find(child_key(0, kCalibrationProbe));
    if (!entry) break; // not recorded (out of memory): nothing to calibrate
    // The same node throttled: what an activation costs once it is only counted. Its first
    // activation since goes through the runtime, which puts the node in the site cache.
    c->nodes[entry->node].mode = kModeThrottled;
    pair();
    const idb_site_t &site = c->sites[kCalibrationProbe & (IDB_SITES_ - 1)];
    double throttled = site.key == child_key(0, kCalibrationProbe) ? fenced(counted) : fenced(pair);
    c->nodes[entry->node].mode = 0;
    entry->untimed = 0; // unmarked and uncounted: timed again, a timed child of its parent
    ++c->timed_children[c->nodes[entry->node].parent];
    cfh_sites_clear(*c);
    double alone = kFenced ? fenced([] {}) : 0.0;
    double reads = kFenced ? fenced([&sink] {
      sink = now();
      sink = now();
    })
                           : 0.0;
    if (r >= 0) { // round -1 warms up
      cal.timed[cal.rounds] = timed;
      cal.reads[cal.rounds] = reads;
      cal.throttled[cal.rounds] = throttled;
      cal.alone[cal.rounds++] = alone;
    }
  }
  set_cur_cfh(saved);
  cfh_free(c);
}

namespace {

// The lower quartile of `rounds` values.
double lower_quartile(const double *values, int rounds) {
  if (rounds == 0) return 0.0;
  double v[Calibration::kCapacity] = {};
  for (int i = 0; i < rounds; ++i) { // insertion sort: a few dozen values
    int j = i;
    for (; j > 0 && v[j - 1] > values[i]; --j)
      v[j] = v[j - 1];
    v[j] = values[i];
  }
  return v[rounds / 4];
}

} // namespace

double noise_per_pair(const Calibration &cal) {
  if (cal.rounds == 0) return 0.0;
  double pair = lower_quartile(cal.timed, cal.rounds);
  double beyond = pair - lower_quartile(cal.reads, cal.rounds);
  // A fenced timed pair holds its two fenced reads, so only a measurement that interrupts
  // spoilt in most rounds leaves nothing beyond them: charge the pair's whole latency.
  return beyond > 0.0 ? beyond : pair - lower_quartile(cal.alone, cal.rounds);
}

double noise_per_throttled_pair(const Calibration &cal) {
  if (cal.rounds == 0) return 0.0;
  double counted = lower_quartile(cal.throttled, cal.rounds);
  double beyond = counted - lower_quartile(cal.alone, cal.rounds);
  return beyond > 0.0 ? beyond : counted;
}

} // namespace idb::rt
