// Reading, the same way on both engines: query() collects the rows of query_rows() as text
// cells, and runs() is one portable statement over the base tables.
#include "sqlite.hpp"

#include <array>
#include <charconv>

namespace idb::store {

namespace detail {

std::string number_text(double value) {
  std::array<char, 32> text{};
  auto [end, ec] = std::to_chars(text.data(), text.data() + text.size(), value);
  return std::string(text.data(), ec == std::errc() ? end : text.data());
}

} // namespace detail

std::vector<std::string> query_rows(Database &db, const std::string &sql, const KeyValues &params,
                                    const RowCallback &each) {
  return db.for_each_row(sql, params, each);
}

QueryResult query(Database &db, const std::string &sql, const KeyValues &params) {
  QueryResult result;
  result.columns = db.for_each_row(sql, params, [&](const Row &row) {
    if (result.numeric.empty()) result.numeric.assign(row.size(), true);
    std::vector<Cell> cells(row.size());
    for (std::size_t i = 0; i < row.size(); ++i) {
      Row::Kind kind = row.kind(i);
      if (kind == Row::Kind::null) continue;
      if (kind == Row::Kind::text) result.numeric[i] = false;
      cells[i] = row.text(i);
    }
    result.rows.push_back(std::move(cells));
  });
  result.numeric.resize(result.columns.size(), true);
  return result;
}

std::vector<RunInfo> runs(Database &db) {
  std::vector<RunInfo> list;
  auto optional_real = [](const Row &row, std::size_t column) {
    return row.is_null(column) ? std::nullopt : std::optional<double>(row.real(column));
  };
  query_rows(db,
             "SELECT r.run_id, r.label, r.program, r.nprocs, r.threads, r.start_time, "
             "r.wall_seconds, (SELECT count(*) FROM run_attributes a WHERE a.run_id = r.run_id), "
             "(SELECT count(*) FROM cfh_instances h JOIN nodes n ON n.cfh_id = h.cfh_id "
             "WHERE h.run_id = r.run_id), r.profile_mode FROM runs r ORDER BY r.run_id",
             {}, [&](const Row &row) {
               RunInfo r;
               r.run_id = row.integer(0);
               r.label = row.text(1);
               r.program = row.text(2);
               r.nprocs = int(row.integer(3));
               r.threads = int(row.integer(4));
               r.start_time = optional_real(row, 5);
               r.wall_seconds = optional_real(row, 6);
               r.attributes = row.integer(7);
               r.nodes = row.integer(8);
               r.mode = row.text(9);
               list.push_back(std::move(r));
             });
  return list;
}

} // namespace idb::store
