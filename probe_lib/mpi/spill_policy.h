// When a rank writes its own profile besides the merge (docs/mpi.md, IDB_MPI_SPILL): the
// spill before the merge at MPI_Finalize, and the rank's profile when it is killed by
// SIGTERM or calls MPI_Abort. Free of MPI, so the decision is unit-tested directly.
#pragma once

namespace idb::mpi {

// Jobs of at most this many ranks spill by default: their spills are at most this many
// files created and removed at once, which a parallel file system's metadata server
// absorbs; thousands at once in one folder are what the merge exists to avoid.
constexpr int kAutoSpillRanks = 256;

enum class SpillSetting { Auto, Off, On };

struct SpillChoice {
  SpillSetting setting = SpillSetting::Auto;
  bool valid = true; // false: `value` was not understood and Auto stands in for it
};

// IDB_MPI_SPILL's value: unset or empty, `auto`, `0` or `1`. Anything else is invalid.
SpillChoice parse_spill(const char *value);

// Whether a rank of a job of `size` ranks writes its own profile on SIGTERM and at
// MPI_Abort, and (outside the per-rank mode) spills before the merge. In the per-rank mode
// every rank writes its own file anyway, so `auto` means yes at any size.
bool spill_enabled(SpillSetting setting, bool per_rank_mode, int size);

} // namespace idb::mpi
