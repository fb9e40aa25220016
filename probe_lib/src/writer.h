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
  double throttled_ticks;  // calibrated cost of one throttled pair, charged per such activation
  std::uint64_t end_ticks; // the run's end: probes still open count until then
  // When set, these complete sections (the ranks' CFHs, combined by the MPI layer) are
  // written in place of `cfhs`.
  const unsigned char *sections = nullptr;
  std::size_t sections_size = 0;
  std::uint32_t section_count = 0;
};

// A malloc'd byte buffer handed to the MPI layer, which frees it.
struct Bytes {
  unsigned char *data;
  std::size_t size;
  std::uint32_t count;
};

// Writes the profile to `path`. Returns true, or false with the reason in `error`.
bool write_profile(const char *path, const WriteJob &job, char *error, std::size_t error_size);

// The probe table as a PROBES payload. Returns false when memory is exhausted.
bool serialize_probes(Bytes &probes);

// The CFHs of `job` as complete sections. Returns false when memory is exhausted.
bool serialize_cfhs(const WriteJob &job, Bytes &sections);

} // namespace idb::rt
