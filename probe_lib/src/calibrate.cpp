// Noise calibration. Rounds of back-to-back start/stop pairs give the cost of a pair
// when nothing overlaps it, timed and throttled; the runtime calibrates at initialisation
// and again at finalize, so a burst of load at either end does not decide the figure alone.
// docs/PERFORMANCE.md measures how this charge compares with what probes really add
// inside code of various grain.
#include "calibrate.h"

#include "idb/probe.h"
#include "probes.h"

namespace idb::rt {

void calibrate_noise(Calibration &cal, const Limits &limits, Cfh *&thread_cfh) {
  Limits quiet = limits;
  quiet.cpu_all = false;
  quiet.cpu_threshold = __builtin_huge_val();
  quiet.throttle_after = ~std::uint64_t(0);
  quiet.throttle_ticks = -__builtin_huge_val();
  Cfh *c = cfh_create("calibration", true, -1, quiet);
  if (!c) return;
  Cfh *saved = thread_cfh;
  thread_cfh = c;
  // Called through pointers, as a user's code calls them through the PLT, and the way the
  // scope macros do: the fast start, the full one when it declines (the first time).
  int (*volatile start_fast)(int) = idb_start_fast;
  void (*volatile start)(int, int, const char *) = idb_start;
  void (*volatile stop)(int) = idb_stop;
  constexpr int kRounds = 15, kPairs = 500;
  for (int r = -1; r < kRounds && cal.rounds < Calibration::kCapacity; ++r) {
    std::uint64_t t0 = now();
    for (int i = 0; i < kPairs; ++i) {
      if (!start_fast(kCalibrationProbe)) start(IDB_PROC, kCalibrationProbe, nullptr);
      stop(kCalibrationProbe);
    }
    std::uint64_t t1 = now();
    std::uint32_t node = cfh_find(*c, 0, kCalibrationProbe);
    if (node == kNoNode) break; // not recorded (out of memory): nothing to calibrate
    // The same node throttled: what an activation costs once it is only counted.
    c->nodes[node].mode = kModeThrottled;
    for (int i = 0; i < kPairs; ++i) {
      if (!start_fast(kCalibrationProbe)) start(IDB_PROC, kCalibrationProbe, nullptr);
      stop(kCalibrationProbe);
    }
    std::uint64_t t2 = now();
    c->nodes[node].mode = 0;
    c->children.find(child_key(0, kCalibrationProbe))->untimed = 0; // timed again
    if (r >= 0) {                                                   // round -1 warms up
      cal.per_pair[cal.rounds] = double(t1 - t0) / kPairs;
      cal.per_throttled[cal.rounds++] = double(t2 - t1) / kPairs;
    }
  }
  thread_cfh = saved;
  cfh_free(c);
}

namespace {

// The lower quartile of `rounds` values.
double lower_quartile(const double *values, int rounds) {
  if (rounds == 0) return 0.0;
  double v[Calibration::kCapacity];
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
  return lower_quartile(cal.per_pair, cal.rounds);
}

double noise_per_throttled_pair(const Calibration &cal) {
  return lower_quartile(cal.per_throttled, cal.rounds);
}

} // namespace idb::rt
