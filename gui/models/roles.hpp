// The data roles every GUI model answers beyond Qt's own: the raw number of a cell (for
// sorting, charts and tests) and the key of its row (the probe id, where there is one).
#pragma once

#include <Qt>

namespace idb::gui {

inline constexpr int kValueRole = Qt::UserRole;
inline constexpr int kKeyRole = Qt::UserRole + 1;

} // namespace idb::gui
