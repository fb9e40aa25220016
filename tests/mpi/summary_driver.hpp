// Drives the summary mode's merge code (probe_lib/mpi/summary_core.h) without MPI: every
// rank's structure merged into rank 0's union (the tree's P - 1 merges, in rank order),
// every rank's records against the union, the records combined, and rank 0's sections.
// Each rank's sections come from a callback (read twice: once for the structure, once for
// the records); besides them the driver holds the union and two record arrays, as rank 0
// of a real run does. For the tests and the merge benchmark.
#pragma once

#include "synthetic_ranks.hpp"

#include <functional>
#include <string>

namespace idb::test {

struct SummaryOutput {
  std::string sections; // the summary CFH and SUMMARY sections
  std::uint32_t count = 0;
  std::size_t record_bytes = 0; // one rank's records array
  std::string error;
};

using RankSource = std::function<const RankSections &(int rank)>;

SummaryOutput summarize(int ranks, const RankSource &source);

} // namespace idb::test
