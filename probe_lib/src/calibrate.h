// Calibration of noise: the time one start/stop pair adds to the interval around it.
#pragma once

#include "cfh.h"

namespace idb::rt {

// Per round, the fastest batch of each kind, in ticks per iteration, each behind a fence
// (calibrate.cpp); off x86, back to back with `reads` and `alone` 0.
struct Calibration {
  static constexpr int kCapacity = 32;
  double timed[kCapacity];     // a timed pair
  double reads[kCapacity];     // two clock reads
  double throttled[kCapacity]; // a throttled activation, counted the way the scope macros do
  double alone[kCapacity];     // the fence alone
  int rounds = 0;
};

// Times rounds of each kind through the exported entry points on a private CFH installed
// as the calling thread's for the while, and appends them to `cal`.
void calibrate_noise(Calibration &cal, const Limits &limits);

// The charge per timed activation: the lower quartile of the timed pairs less that of the
// clock reads, so that rounds slowed by other work on the machine decide neither; where
// that leaves nothing, which only a measurement spoilt by interrupts does, the pair less
// the fence. 0 without rounds.
double noise_per_pair(const Calibration &cal);
// The same for an activation of a throttled node: less the fence, or else the whole of it.
double noise_per_throttled_pair(const Calibration &cal);

} // namespace idb::rt
