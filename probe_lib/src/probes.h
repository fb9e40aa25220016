// The process-wide probe table: the static description of every probe seen (kind,
// description, file, line, function), filled when a CFH first creates a node for a probe
// or when the instrumenter's manifest registers it. Guarded by one mutex; never touched
// on the steady-state path.
#pragma once

#include <cstddef>

namespace idb::rt {

// The probe id the runtime's own calibration uses; never recorded in the table.
constexpr int kCalibrationProbe = -2147483647 - 1;

struct ProbeInfo {
  int id;
  int kind;
  int line;
  const char *description; // owned copies; never freed while the process runs
  const char *file;
  const char *function;
};

// Records a probe unless its id is known already. Thread-safe.
void probe_seen(int kind, int id, const char *description, const char *file, int line,
                const char *function);

// The probe's description; `fallback` filled with "#id" when it has none. Thread-safe.
const char *probe_description(int id, char *fallback, std::size_t size);

// Copies probe `id`'s entry to `info` (its texts stay valid); false when it is not in the
// table. Thread-safe.
bool probe_info(int id, ProbeInfo &info);

// The table's lock, held across fork() so that the child never inherits it taken.
void probe_table_lock();
void probe_table_unlock();

// Calls `visit(info, context)` for every probe, in registration order, under the lock.
void probe_visit(void (*visit)(const ProbeInfo &, void *), void *context);

} // namespace idb::rt
