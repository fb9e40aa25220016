// What opening a database means on both engines (open.cpp): which stored schema versions
// a connection may use as they are. Internal to the store library.
#pragma once

#include <string>

namespace idb::store::detail {

// Throws Error naming both versions when the database at `where` holds schema `stored`
// and this build knows `known`: a newer one always; an older one when `read_only` (a
// read-only connection never migrates; `idb migrate` or any load brings it up to date).
// 0 (no IDB tables) read-only is refused as "holds no IDB database".
void check_version(const std::string &where, int stored, int known, bool read_only);

} // namespace idb::store::detail
