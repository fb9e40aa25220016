// Runtime configuration from the environment (docs/configuration.md). Read once at
// initialisation; a value that does not parse is reported on stderr and replaced by its
// default.
#pragma once

#include <cstdint>

namespace idb::rt {

enum class CpuPolicy { Off, All, Auto };

struct Config {
  bool enabled = true;                  // IDB_ENABLE
  const char *out = "%n-%p.idbprof";    // IDB_OUT: path pattern
  CpuPolicy cpu = CpuPolicy::Auto;      // IDB_CPU
  double cpu_threshold_us = 200.0;      // IDB_CPU_THRESHOLD_US
  bool throttle = true;                 // IDB_THROTTLE
  std::uint32_t throttle_after = 10000; // IDB_THROTTLE_AFTER: timed activations first
  // IDB_THROTTLE_EARLY: timed activations first for a node under half the threshold
  std::uint32_t throttle_early = 1000;
  double throttle_percent = 5.0; // IDB_THROTTLE_PERCENT: probe cost share that throttles
  // IDB_THROTTLE_SAMPLE: one throttled activation in about this many is timed; 0: none
  std::uint32_t throttle_sample = 256;
  bool histogram = true;           // IDB_HISTOGRAM: a duration histogram per node
  std::uint32_t max_nodes = 65536; // IDB_MAX_NODES, per CFH
  std::uint32_t max_depth = 4096;  // IDB_MAX_DEPTH, open probes per CFH
  const char *timer = "auto";      // IDB_TIMER: auto|tsc|monotonic
  bool verbose = false;            // IDB_VERBOSE
  const char *dynamic = nullptr;   // IDB_DYNAMIC: probe id or FILE:LINE (dynamics.h)
  const char *clusters = nullptr;  // IDB_CLUSTERS: clusters kept per dynamic node
};

Config read_config();

const char *cpu_policy_name(CpuPolicy policy);

} // namespace idb::rt
