// From an experiment's [DBLIST] to numbers: each entry resolved to the stored runs it
// names (a run label or a label pattern in the experiment's database, or a SQLite file or
// PostgreSQL database that holds one run, mixed freely), and each run read into per-probe,
// per-rank statistics merged exactly from the fixed-size node records. Reads only through
// the store's public query(), with bound parameters, on SQLite and PostgreSQL alike.
// Failures throw idb::edf::Error with one line naming the entry (file:line:column) and the
// database; not thread-safe on one Connections.
#pragma once

#include "idb/analysis/probes.hpp"
#include "idb/edf.hpp"
#include "idb/store.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace idb::edf {

// The error of resolution and analysis: one line of text.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The databases an experiment reads, each opened once (never created) and shared by the
// entries that name it.
class Connections {
public:
  // Experiments only read: every database opens read-only, waiting `wait_seconds` for
  // another connection's lock.
  explicit Connections(double wait_seconds = store::kDefaultWaitSeconds)
      : wait_seconds_(wait_seconds) {}
  // The open database at `url` (a path, sqlite:PATH or postgresql://...). Throws
  // store::Error when it cannot be opened or is not an IDB database.
  store::Database &get(const std::string &url);

private:
  double wait_seconds_;
  std::map<std::string, std::unique_ptr<store::Database>> open_;
};

// One stored run.
struct RunRef {
  store::Database *db = nullptr; // owned by the Connections
  std::int64_t run_id = 0;
  std::string label;
  std::string location; // the database's location(), for messages
};

// What a [DBLIST] entry names. How the name is read, in this order: a name starting with
// postgresql://, postgres:// or sqlite: is a database; a name holding '/' or ending in
// .db, .sqlite or .sqlite3 is a SQLite file (relative to the .edf's folder); a name holding
// '*', '?' or '[' is a label pattern (fnmatch(3)) naming a group of repeated runs in the
// experiment's database; anything else is a run label there.
enum class EntryKind { label, pattern, database };

struct ResolvedEntry {
  DbEntry entry;
  EntryKind kind = EntryKind::label;
  std::vector<RunRef> runs; // one, or a pattern's matches in load order
};

struct ResolveOptions {
  std::string database; // the experiment's database URL; empty when there is none
  std::string base_dir; // folder that relative SQLite paths of the file are taken from
  std::string path;     // the .edf, for messages
};

// The experiment's database: `override` (--db) when given, else the file's Database with a
// relative SQLite path taken from the .edf's folder; "" when neither names one.
std::string experiment_database(const Experiment &e, const std::string &edf_path,
                                const std::string &override);

EntryKind classify(const std::string &name);

// Resolves every entry. Throws Error naming the first entry that cannot be resolved: an
// unknown label, a pattern that matches nothing, a database that is missing, not IDB's,
// or holds other than one run, a label with no experiment database, no entries at all, or
// one run named by two entries.
std::vector<ResolvedEntry> resolve(const Experiment &e, const ResolveOptions &options,
                                   Connections &connections);

// One probe on one rank of a run: its nodes in every CFH of the rank (every thread, every
// named CFH but its root) merged exactly, with their noise-corrected inclusive times
// summed (analysis/probes.hpp).
using analysis::ProbeRank;

struct RunData {
  RunRef run;
  std::vector<std::int32_t> ranks;           // ranks with a CFH in the run, ascending
  std::vector<ProbeRank> probes;             // sorted by (probe, rank)
  std::map<std::int32_t, std::string> names; // probe id → description, where described
};

// Reads one run. Throws store::Error on an engine failure.
RunData read_run_data(const RunRef &run);

} // namespace idb::edf
