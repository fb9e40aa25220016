// The data roles every GUI model answers beyond Qt's own: the raw number of a cell (for
// sorting, charts and tests), the key of its row (the probe id, where there is one), and
// what a CSV export writes where that is not what the cell shows (the exact number where
// the cell shows it rounded in a unit; the plain column name where the header adds the
// unit).
#pragma once

#include <Qt>

namespace idb::gui {

inline constexpr int kValueRole = Qt::UserRole;
inline constexpr int kKeyRole = Qt::UserRole + 1;
inline constexpr int kExportRole = Qt::UserRole + 2;

} // namespace idb::gui
