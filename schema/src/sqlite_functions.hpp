// The classic IDB SQL functions on a SQLite connection: sdev(id), minprobe(id),
// maxprobe(id) and maxnoise(id), each optionally with a run_id second argument
// (docs/schema.md, "Functions"). Internal to the store library.
#pragma once

struct sqlite3;

namespace idb::store::detail {

// Registers the functions on `db`. Throws Error when SQLite refuses one.
void register_functions(sqlite3 *db);

} // namespace idb::store::detail
