// Synthetic per-rank data for the summary merge's tests and benchmarks: the CFH sections a
// rank's writer would hand the MPI layer, for trees that overlap between ranks but are not
// equal (every rank leaves out some nodes, named CFHs exist on even ranks only), with
// statistics drawn from a seeded generator, so any rank count can be made without MPI.
#pragma once

#include <cstdint>
#include <string>

namespace idb::test {

struct SyntheticShape {
  std::uint32_t nodes = 100; // nodes of the global tree each rank draws from (root included)
  bool named_cfh = true;     // even ranks also have a named CFH "solver"
};

// The CFH sections of `rank` (complete sections, checksums included) and their number.
struct RankSections {
  std::string bytes;
  std::uint32_t count = 0;
};

RankSections synthetic_rank(int rank, const SyntheticShape &shape);

// A whole profile file: a META section (program "synthetic", nprocs, mpi_mode), a PROBES
// section naming every probe id of `shape` (0 to nodes - 1, the node's global index), and
// `sections` as they are, with the header and END section around them.
std::string profile_file(const std::string &sections, std::uint32_t count, int nprocs,
                         const char *mode, const SyntheticShape &shape = {});

} // namespace idb::test
