// Calibration of noise: the time one start/stop pair adds to the interval around it.
#pragma once

#include "cfh.h"

namespace idb::rt {

struct Calibration {
  static constexpr int kCapacity = 32;
  double per_pair[kCapacity];      // ticks per pair, one entry per round
  double per_throttled[kCapacity]; // ticks per pair of a throttled node, one per round
  int rounds = 0;
};

// Times rounds of fenced pairs (calibrate.cpp says why) through the exported entry points
// on a private CFH installed as the calling thread's for the while, and appends them to
// `cal`.
void calibrate_noise(Calibration &cal, const Limits &limits);

// The charge per activation: the lower quartile of the rounds, so that rounds slowed by
// other work on the machine do not inflate it. 0 without rounds.
double noise_per_pair(const Calibration &cal);
// The same for an activation of a throttled node.
double noise_per_throttled_pair(const Calibration &cal);

} // namespace idb::rt
