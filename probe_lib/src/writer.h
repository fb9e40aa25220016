// The profile writer (docs/profile-format.md): serialises the run's metadata, the probe
// table and every CFH into one buffer, then writes it to a temporary file and renames it,
// so a crash never leaves a file that reads as valid. Runs at finalize only.
#pragma once

#include "cfh.h"

#include <cstddef>
#include <cstdint>

namespace idb::rt {

struct MetaEntry {
  const char *key;
  const char *value;
  std::size_t size; // value bytes (values may hold NULs, e.g. the argument vector)
};

struct WriteJob {
  const MetaEntry *meta;
  std::size_t meta_count;
  const Cfh *cfhs; // linked through Cfh::next
  int rank;
  double ticks_per_second;
  double noise_ticks;      // calibrated cost of one start/stop pair, charged per activation
  std::uint64_t end_ticks; // the run's end: probes still open count until then
};

// Writes the profile to `path`. Returns true, or false with the reason in `error`.
bool write_profile(const char *path, const WriteJob &job, char *error, std::size_t error_size);

} // namespace idb::rt
