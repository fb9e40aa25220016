// The flat profile's table (flat_data.hpp).
#include "flat_data.hpp"

#include "idb/analysis/trees.hpp"

#include <string>

namespace idb::gui {

FlatTable flat_table(const profile::Profile &run, const profile::Cfh &cfh) {
  FlatTable out;
  out.table.columns = {"probe",       "own",     "own %",  "inclusive", "inclusive %",
                       "activations", "untimed", "capped", "paths",     "probe id"};
  out.table.numeric = {false, true, true, true, true, true, true, false, true, true};
  out.formats = {std::nullopt,    Format::seconds, Format::percent, Format::seconds,
                 Format::percent, Format::integer, Format::integer, std::nullopt,
                 Format::integer, std::nullopt};
  for (const analysis::FlatRow &r : analysis::flat_rows(run, cfh)) {
    std::vector<store::Cell> row = {r.label,
                                    analysis::number_text(r.own),
                                    analysis::number_text(r.own_percent),
                                    analysis::number_text(r.inclusive),
                                    analysis::number_text(r.inclusive_percent),
                                    std::to_string(r.count),
                                    std::nullopt,
                                    std::nullopt,
                                    std::to_string(r.paths),
                                    std::to_string(r.probe)};
    if (r.untimed) row[6] = std::to_string(r.untimed);
    if (r.capped) row[7] = "at most";
    out.table.rows.push_back(std::move(row));
  }
  return out;
}

} // namespace idb::gui
