// IDB_MPI_SPILL's reading and the rank-count rule of its `auto` default.
#include "spill_policy.h"

#include <cstring>

namespace idb::mpi {

SpillChoice parse_spill(const char *value) {
  if (!value || !*value || std::strcmp(value, "auto") == 0) return {SpillSetting::Auto, true};
  if (std::strcmp(value, "0") == 0) return {SpillSetting::Off, true};
  if (std::strcmp(value, "1") == 0) return {SpillSetting::On, true};
  return {SpillSetting::Auto, false};
}

bool spill_enabled(SpillSetting setting, bool per_rank_mode, int size) {
  switch (setting) {
  case SpillSetting::Off:
    return false;
  case SpillSetting::On:
    return true;
  case SpillSetting::Auto:
    break;
  }
  return per_rank_mode || size <= kAutoSpillRanks;
}

} // namespace idb::mpi
