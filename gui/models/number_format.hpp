// Numbers as people read them in tables: a time column in one unit (s, ms, µs or ns)
// chosen by its largest value, at four significant digits for that value and the same
// decimals for the others; counts with thousands separators; nothing where nothing was
// measured. Pure functions.
#pragma once

#include <QString>

#include <vector>

namespace idb::gui {

struct TimeUnit {
  QString name = QStringLiteral("s"); // "s", "ms", "µs" or "ns"
  double per_second = 1;              // how many of the unit make a second
  int decimals = 3;                   // for the column's values in this unit
};

// The unit and decimals of a column whose values are `seconds` (NaN and infinite values
// ignored): the largest unit in which the largest magnitude is at least 1 (ns below
// that), and as many decimals (0 to 3) as give it four significant digits. A column
// without a number gets no name (its header names no unit).
TimeUnit time_unit(const std::vector<double> &seconds);

// `seconds` in `unit` with its decimals: "" for NaN, and "<0.001" (the unit's smallest
// step) for a value that is not 0 but would show as 0.
QString format_time(double seconds, const TimeUnit &unit);

// A whole number with a comma between each group of three digits ("1,234,567").
QString format_count(double count);

} // namespace idb::gui
