// Internal to the analysis: which probes and ranks make the rows, and one run's record for
// a (probe, rank) row.
#pragma once

#include "idb/edf_analysis.hpp"

namespace idb::edf {

// The probe's description in the first run that has one, else "probe N".
std::string name_of(const std::vector<EntryData> &entries, std::int32_t probe);
// The rank keys of the rows: kAllRanks, one rank, or (each) every rank of any run.
std::vector<std::int32_t> rank_keys(const std::vector<EntryData> &entries,
                                    const AnalysisOptions &options, bool each);
// The run's record for (probe, rank key): every rank merged for kAllRanks; an empty record
// when the run has the rank but never reached the probe; nullopt when it lacks the rank.
std::optional<ProbeRank> pick(const RunData &run, std::int32_t probe, std::int32_t rank);

} // namespace idb::edf
