// Helpers of the store tests: the built `idb` run, the generator's profile parsed, a
// snapshot of a SQLite file and its side files (journal, WAL) for byte-for-byte
// comparisons, and one-value queries.
#pragma once

#include "idb/store.hpp"
#include "support.hpp"

#include <string>
#include <vector>

namespace idb::test {

// The generator's real profile (support.hpp), parsed once.
const profile::Profile &generated();

// A database file's bytes and which side files exist beside it.
struct FileState {
  std::string bytes;
  bool journal = false, wal = false, shm = false;
  bool operator==(const FileState &) const = default;
};
FileState file_state(const std::string &path);

// The first column of the first row of `sql`, "NULL" when NULL, "no row" when empty.
std::string scalar(store::Database &db, const std::string &sql,
                   const store::KeyValues &params = {});

// Runs the built `idb` with `args`.
RunResult idb(std::vector<std::string> args);

// Parses a cell written by store::query as a double.
double as_double(const store::Cell &cell);

} // namespace idb::test
