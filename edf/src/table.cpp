// COALESCE and COMPARE as rows of text cells (edf_table.hpp).
#include "idb/edf_table.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace idb::edf {

namespace {

using store::Cell;

// Shortest text that reads back as the same double; 4 significant digits for people.
Cell number(double v, bool for_people) {
  if (!std::isfinite(v)) return std::string(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
  char text[40];
  if (for_people) {
    std::snprintf(text, sizeof text, "%.4g", v);
    return std::string(text);
  }
  auto [end, ec] = std::to_chars(text, text + sizeof text, v);
  return std::string(text, end);
}

Cell maybe(const std::optional<double> &v, bool for_people) {
  return v ? number(*v, for_people) : Cell{};
}

std::string rank_text(std::int32_t rank) {
  return rank == kAllRanks ? "all" : std::to_string(rank);
}

std::string outliers_text(const CoalesceRow &row, bool for_people) {
  std::string text;
  for (const Outlier &o : row.outliers)
    text += (text.empty() ? "" : ";") + o.run + "=" + *number(o.value, for_people);
  return text;
}

void header(store::QueryResult &r, std::initializer_list<std::pair<const char *, bool>> columns) {
  for (const auto &[name, numeric] : columns) {
    r.columns.emplace_back(name);
    r.numeric.push_back(numeric);
  }
}

std::vector<Cell> coalesce_cells(const CoalesceRow &row, bool people) {
  const Box &b = row.box;
  std::vector<Cell> cells{std::to_string(row.probe), row.name,
                          rank_text(row.rank),       std::to_string(row.runs.size()),
                          number(b.min, people),     number(b.q1, people),
                          number(b.median, people),  number(b.q3, people),
                          number(b.max, people)};
  if (people) {
    cells.push_back(maybe(row.cv, people));
    cells.emplace_back(outliers_text(row, people));
    return cells;
  }
  const Pooled &p = row.pooled;
  for (Cell c :
       {number(b.lower_whisker, people), number(b.upper_whisker, people),
        Cell(outliers_text(row, people)), number(row.mean, people), number(row.sdev, people),
        maybe(row.cv, people), Cell(std::to_string(p.count)), number(p.mean, people),
        number(p.sdev, people), number(p.min, people), number(p.max, people), maybe(p.p50, people),
        maybe(p.p90, people), maybe(p.p99, people)})
    cells.push_back(std::move(c));
  return cells;
}

} // namespace

store::QueryResult coalesce_rows(const CoalesceResult &result, bool people) {
  store::QueryResult r;
  header(r, {{"probe", true},
             {"name", false},
             {"rank", true},
             {"runs", true},
             {"min", true},
             {"q1", true},
             {"median", true},
             {"q3", true},
             {"max", true}});
  if (people)
    header(r, {{"cv", true}, {"outliers", false}});
  else
    header(r, {{"lower_whisker", true},
               {"upper_whisker", true},
               {"outliers", false},
               {"mean", true},
               {"sdev", true},
               {"cv", true},
               {"pooled_count", true},
               {"pooled_mean", true},
               {"pooled_sdev", true},
               {"pooled_min", true},
               {"pooled_max", true},
               {"pooled_p50", true},
               {"pooled_p90", true},
               {"pooled_p99", true}});
  for (const CoalesceRow &row : result.rows)
    r.rows.push_back(coalesce_cells(row, people));
  return r;
}

namespace {

store::QueryResult compare_long(const CompareResult &result) {
  store::QueryResult r;
  header(r, {{"probe", true},
             {"name", false},
             {"rank", true},
             {"entry", false},
             {"runs", true},
             {"value", true},
             {"sdev", true},
             {"diff", true},
             {"ratio", true},
             {"t", true},
             {"df", true},
             {"p", true},
             {"significant", true}});
  for (const CompareRow &row : result.rows)
    for (std::size_t e = 0; e < row.cells.size(); ++e) {
      const CompareCell &c = row.cells[e];
      std::optional<TTest> t = c.test;
      r.rows.push_back({std::to_string(row.probe), row.name, rank_text(row.rank), result.entries[e],
                        std::to_string(c.runs), maybe(c.value, false),
                        c.value ? number(c.sdev, false) : Cell{}, maybe(c.diff, false),
                        maybe(c.ratio, false), t ? number(t->t, false) : Cell{},
                        t ? number(t->df, false) : Cell{}, t ? number(t->p, false) : Cell{},
                        t ? Cell(c.significant ? "1" : "0") : Cell{}});
    }
  return r;
}

store::QueryResult compare_wide(const CompareResult &result) {
  store::QueryResult r;
  header(r, {{"probe", true}, {"name", false}, {"rank", true}});
  for (std::size_t e = 0; e < result.entries.size(); ++e) {
    r.columns.push_back(result.entries[e]);
    r.numeric.push_back(true);
    if (e == 0) continue;
    header(r, {{"ratio", true}, {"p", true}});
  }
  for (const CompareRow &row : result.rows) {
    std::vector<Cell> cells{std::to_string(row.probe), row.name, rank_text(row.rank)};
    for (std::size_t e = 0; e < row.cells.size(); ++e) {
      const CompareCell &c = row.cells[e];
      cells.push_back(maybe(c.value, true));
      if (e == 0) continue;
      cells.push_back(maybe(c.ratio, true));
      Cell p;
      if (c.test) p = *number(c.test->p, true) + (c.significant ? " *" : "");
      cells.push_back(p);
    }
    r.rows.push_back(std::move(cells));
  }
  return r;
}

} // namespace

store::QueryResult compare_rows(const CompareResult &result, bool for_people) {
  return for_people ? compare_wide(result) : compare_long(result);
}

} // namespace idb::edf
