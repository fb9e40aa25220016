// Reads a stored run back from the database into the reader's plain structs (Profile, Cfh,
// Node with idb_stats_t), so that anything that prints or analyses a profile file can do
// the same for a run in the database: `idb report` today, the GUI and edf later. Portable
// SQL over the base tables only (runs, run_meta, probe_sites, cfh_instances, nodes,
// node_stats), so it works on SQLite and PostgreSQL alike.
#pragma once

#include "idb/profile.hpp"
#include "idb/store.hpp"

#include <optional>
#include <string>

namespace idb::cli {

// The run labelled `label` as a Profile: metadata from run_meta (verbatim, as loaded),
// probes from probe_sites, and every CFH in load order with its nodes and statistics, or
// only the CFHs of `rank` when given (possibly none). The statistics are bit for bit those
// of the loaded profile. Throws store::Error "no run labelled 'X' in LOCATION" for an
// unknown label, or the engine's error. Not thread-safe on one Database.
profile::Profile read_run(store::Database &db, const std::string &label,
                          std::optional<int> rank = std::nullopt);

} // namespace idb::cli
