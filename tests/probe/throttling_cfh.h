// A CFH for the runtime's internal tests: nothing CPU-timed, and every node throttles once
// it has `throttle_after` timed activations, whatever its mean; one throttled activation
// in about `sample` (a power of two) is timed as a sample, none when 0.
#pragma once

#include "cfh.h"

#include <cstdint>

namespace idb::rt {

inline Cfh *throttling_cfh(const char *name, std::uint32_t max_nodes, std::uint64_t throttle_after,
                           std::uint32_t sample = 0) {
  Limits limits{};
  limits.max_nodes = max_nodes;
  limits.max_depth = 8;
  limits.cpu_threshold = __builtin_huge_val();
  limits.throttle_after = throttle_after;
  limits.throttle_ticks = __builtin_huge_val(); // every mean is short enough
  limits.throttle_early_after = throttle_after;
  limits.throttle_early_ticks = __builtin_huge_val();
  limits.throttle_sample = sample;
  return cfh_create(name, true, 0, limits);
}

} // namespace idb::rt
