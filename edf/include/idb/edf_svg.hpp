// Charts of COALESCE and COMPARE results as standalone SVG documents that a browser opens:
// a horizontal box plot per probe (and rank) for COALESCE, grouped bars per probe (and
// rank) with one bar per [DBLIST] entry for COMPARE. Pure functions: thread-safe, no I/O.
#pragma once

#include "idb/edf_analysis.hpp"

#include <string>

namespace idb::edf {

// The box plot: per row the box from Q1 to Q3, the median, whiskers at 1.5 IQR, the
// outliers as circles; `title` heads the chart. A result without rows gives a chart that
// says so.
std::string coalesce_svg(const CoalesceResult &result, const std::string &title);

// The grouped bars: per row one bar per entry (its mean), a line of ± one deviation for
// groups, and '*' beside a bar whose difference to the first entry is significant.
std::string compare_svg(const CompareResult &result, const std::string &title);

} // namespace idb::edf
