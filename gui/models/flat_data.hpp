// The flat profile of a tree as the Flat tab shows it: analysis::flat_rows (what `idb
// report --flat` prints) as a table, one row per probe, the most own time first, with each
// column's format. What a row says is the analysis library's; this only lays it out.
#pragma once

#include "tree_model.hpp"

#include "idb/profile.hpp"
#include "idb/store.hpp"

#include <optional>
#include <vector>

namespace idb::gui {

struct FlatTable {
  // probe (its label), own, own %, inclusive (seconds), inclusive %, activations, untimed (NULL
  // where none), capped ("at most" where an estimate of the probe was capped at what its
  // parent's time leaves, analysis::FlatRow::capped; NULL elsewhere), paths, probe id (the
  // key a click shows the rows of)
  store::QueryResult table;
  std::vector<std::optional<Format>> formats; // per column, for TableModel::setTable
};

FlatTable flat_table(const profile::Profile &run, const profile::Cfh &cfh);

// The column holding the probe's id (not shown).
inline constexpr int kFlatProbeIdColumn = 9;

} // namespace idb::gui
