// COALESCE and COMPARE results as rows of text cells (store::QueryResult), the form the
// CLI prints as a table, CSV or JSON. Two shapes: `for_people` (a table on a terminal:
// fewer columns, numbers to 4 significant digits, COMPARE with one column group per
// entry) and for scripts (every column, numbers in their shortest exact form, COMPARE in
// long form with one row per probe, rank and entry). Pure functions; thread-safe.
#pragma once

#include "idb/edf_analysis.hpp"
#include "idb/store.hpp"

namespace idb::edf {

// Scripts: probe, name, rank, runs, min, q1, median, q3, max, lower_whisker,
// upper_whisker, outliers ("label=value;..."), mean, sdev, cv, pooled_count, pooled_mean,
// pooled_sdev, pooled_min, pooled_max. People: probe, name, rank, runs, min, q1, median,
// q3, max, cv, outliers. `rank` is "all" for every rank merged.
store::QueryResult coalesce_rows(const CoalesceResult &result, bool for_people);

// Scripts: probe, name, rank, entry, runs, value, sdev, diff, ratio, t, df, p,
// significant (1/0, empty without a test). People: probe, name, rank, then per entry its
// value, and after the first entry "ratio" and "p" (with '*' when significant).
store::QueryResult compare_rows(const CompareResult &result, bool for_people);

} // namespace idb::edf
