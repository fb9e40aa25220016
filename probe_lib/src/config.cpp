// Parsing of the IDB_* environment variables.
#include "config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace idb::rt {

namespace {

void warn(const char *name, const char *value, const char *why) {
  std::fprintf(stderr, "idb: ignoring %s=%s (%s)\n", name, value, why);
}

void read_uint(const char *name, std::uint32_t low, std::uint32_t high, std::uint32_t &out) {
  const char *value = std::getenv(name);
  if (!value) return;
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(value, &end, 10);
  if (end == value || *end || errno || v < low || v > high) {
    char why[96];
    std::snprintf(why, sizeof why, "expected a whole number from %u to %u", low, high);
    warn(name, value, why);
    return;
  }
  out = std::uint32_t(v);
}

void read_bool(const char *name, bool &out) {
  const char *value = std::getenv(name);
  if (!value) return;
  if (!std::strcmp(value, "0") || !std::strcmp(value, "off") || !std::strcmp(value, "no"))
    out = false;
  else if (!std::strcmp(value, "1") || !std::strcmp(value, "on") || !std::strcmp(value, "yes"))
    out = true;
  else
    warn(name, value, "expected 0 or 1");
}

} // namespace

Config read_config() {
  Config c;
  read_bool("IDB_ENABLE", c.enabled);
  read_bool("IDB_VERBOSE", c.verbose);
  if (const char *out = std::getenv("IDB_OUT"); out && *out) c.out = out;
  c.dynamic = std::getenv("IDB_DYNAMIC");
  c.clusters = std::getenv("IDB_CLUSTERS");
  if (const char *cpu = std::getenv("IDB_CPU")) {
    if (!std::strcmp(cpu, "off"))
      c.cpu = CpuPolicy::Off;
    else if (!std::strcmp(cpu, "all"))
      c.cpu = CpuPolicy::All;
    else if (!std::strcmp(cpu, "auto"))
      c.cpu = CpuPolicy::Auto;
    else
      warn("IDB_CPU", cpu, "expected off, all or auto");
  }
  if (const char *v = std::getenv("IDB_CPU_THRESHOLD_US")) {
    char *end = nullptr;
    double us = std::strtod(v, &end);
    if (end == v || *end || !(us >= 0.0))
      warn("IDB_CPU_THRESHOLD_US", v, "expected microseconds, 0 or more");
    else
      c.cpu_threshold_us = us;
  }
  read_bool("IDB_THROTTLE", c.throttle);
  read_bool("IDB_HISTOGRAM", c.histogram);
  read_uint("IDB_THROTTLE_AFTER", 1, 0xFFFFFFFFu, c.throttle_after);
  read_uint("IDB_THROTTLE_EARLY", 1, 0xFFFFFFFFu, c.throttle_early);
  if (const char *v = std::getenv("IDB_THROTTLE_SAMPLE")) {
    std::uint32_t sample = c.throttle_sample;
    read_uint("IDB_THROTTLE_SAMPLE", 0, 1u << 24, sample);
    if (sample == 1 || (sample & (sample - 1)) != 0)
      warn("IDB_THROTTLE_SAMPLE", v, "expected 0 or a power of two from 2 to 16777216");
    else
      c.throttle_sample = sample;
  }
  if (const char *v = std::getenv("IDB_THROTTLE_PERCENT")) {
    char *end = nullptr;
    double percent = std::strtod(v, &end);
    if (end == v || *end || !(percent > 0.0 && percent <= 100.0))
      warn("IDB_THROTTLE_PERCENT", v, "expected a percentage above 0, at most 100");
    else
      c.throttle_percent = percent;
  }
  read_uint("IDB_MAX_NODES", 2, 1u << 26, c.max_nodes);
  read_uint("IDB_MAX_DEPTH", 2, 1u << 20, c.max_depth);
  if (const char *t = std::getenv("IDB_TIMER")) {
    if (!std::strcmp(t, "auto") || !std::strcmp(t, "tsc") || !std::strcmp(t, "monotonic"))
      c.timer = t;
    else
      warn("IDB_TIMER", t, "expected auto, tsc or monotonic");
  }
  return c;
}

const char *cpu_policy_name(CpuPolicy policy) {
  switch (policy) {
  case CpuPolicy::Off:
    return "off";
  case CpuPolicy::All:
    return "all";
  case CpuPolicy::Auto:
    break;
  }
  return "auto";
}

} // namespace idb::rt
