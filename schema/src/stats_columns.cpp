// The statistics record's columns (store.hpp), expanded from the one field table so that
// the loader, read_run and every reader of node_stats name and read them the same way.
#include "idb/store.hpp"

namespace idb::store {

namespace {

void read_field(const Row &row, std::size_t column, std::uint64_t &field) {
  field = std::uint64_t(row.integer(column));
}
void read_field(const Row &row, std::size_t column, double &field) {
  field = row.real(column);
}

} // namespace

const std::vector<std::string_view> &stats_column_names() {
  static const std::vector<std::string_view> names{
#define IDB_COLUMN_NAME(field, type, unit, merge, group, column) column,
      IDB_STATS_FIELDS(IDB_COLUMN_NAME)
#undef IDB_COLUMN_NAME
  };
  return names;
}

std::string stats_columns(std::string_view alias) {
  std::string list;
  for (std::string_view column : stats_column_names()) {
    if (!list.empty()) list += ", ";
    list.append(alias).append(".").append(column);
  }
  return list;
}

idb_stats_t read_stats(const Row &row, std::size_t first) {
  idb_stats_t s{};
  std::size_t column = first;
#define IDB_READ_FIELD(field, type, unit, merge, group, name) read_field(row, column++, s.field);
  IDB_STATS_FIELDS(IDB_READ_FIELD)
#undef IDB_READ_FIELD
  return s;
}

} // namespace idb::store
