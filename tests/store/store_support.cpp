// Helpers of the store tests (see store_support.hpp).
#include "store_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace idb::test {

const profile::Profile &generated() {
  static const profile::Profile p = [] {
    profile::ReadResult r = profile::parse_profile(generated_profile());
    if (!r.profile) throw std::runtime_error("generated profile unreadable: " + r.error);
    return *r.profile;
  }();
  return p;
}

FileState file_state(const std::string &path) {
  FileState s;
  s.bytes = read_file(path);
  s.journal = std::filesystem::exists(path + "-journal");
  s.wal = std::filesystem::exists(path + "-wal");
  s.shm = std::filesystem::exists(path + "-shm");
  return s;
}

RunResult idb(std::vector<std::string> args) {
  args.insert(args.begin(), IDB_TEST_CLI);
  return run(args);
}

std::string scalar(store::Database &db, const std::string &sql, const store::KeyValues &params) {
  store::QueryResult r = store::query(db, sql, params);
  if (r.rows.empty()) return "no row";
  return r.rows[0][0].value_or("NULL");
}

double as_double(const store::Cell &cell) {
  if (!cell) throw std::runtime_error("NULL where a number was expected");
  char *end = nullptr;
  double v = std::strtod(cell->c_str(), &end);
  if (*end) throw std::runtime_error("not a number: " + *cell);
  return v;
}

} // namespace idb::test
