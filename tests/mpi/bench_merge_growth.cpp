// Benchmark: how the finalize merge grows with the rank count, without MPI: the merge code
// of libidb_mpi (idb_mpi_core: the full mode's message framing, the summary mode's union
// and records) driven with synthetic per-rank CFHs of NODES nodes (tests/mpi/
// synthetic_ranks.hpp), for 16 to MAX_RANKS ranks. Full mode: the binomial tree's P - 1
// messages built and absorbed, as the ranks would; what rank 0 ends with is the file's CFH
// sections. Summary mode: the P - 1 structure merges, P record fills and P - 1 record
// merges rank 0's reduction does, and the summary sections. Prints per rank count and
// mode the seconds (generation of the synthetic data excluded), the bytes rank 0 holds at
// its peak, and the bytes of CFH data written.
// Usage: bench_merge_growth [NODES] [MAX_RANKS]
#include "full_core.h"
#include "summary_driver.hpp"
#include "synthetic_ranks.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

using idb::mpi::ByteBuffer;
using idb::test::RankSections;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Result {
  double seconds = 0;
  std::size_t peak = 0, written = 0;
};

// Every rank's blob starts as its own sections; in round k rank r absorbs r + 2^k's.
Result full_merge(const std::vector<RankSections> &ranks) {
  auto t0 = std::chrono::steady_clock::now();
  std::size_t size = ranks.size(), peak = 0;
  std::vector<std::unique_ptr<ByteBuffer>> blobs(size);
  std::vector<std::uint32_t> counts(size);
  for (std::size_t r = 0; r < size; ++r) {
    blobs[r] = std::make_unique<ByteBuffer>();
    blobs[r]->put(ranks[r].bytes.data(), ranks[r].bytes.size());
    counts[r] = ranks[r].count;
  }
  for (std::size_t mask = 1; mask < size; mask <<= 1)
    for (std::size_t r = 0; r + mask < size; r += 2 * mask) {
      ByteBuffer message;
      idb::mpi::put_sections(message, *blobs[r + mask], counts[r + mask]);
      blobs[r + mask].reset();
      idb::mpi::Reader in{message.data, message.data + message.size};
      if (!idb::mpi::take_sections(in, *blobs[r], counts[r])) std::abort();
      if (r == 0) peak = std::max(peak, blobs[0]->capacity + message.capacity);
    }
  return {seconds_since(t0), peak, blobs[0]->size};
}

Result summary_merge(const std::vector<RankSections> &ranks) {
  auto t0 = std::chrono::steady_clock::now();
  auto out = idb::test::summarize(
      int(ranks.size()), [&](int r) -> const RankSections & { return ranks[std::size_t(r)]; });
  if (!out.error.empty()) std::abort();
  // Rank 0 holds the union (small beside the records), two record arrays and the output.
  return {seconds_since(t0), 2 * out.record_bytes + out.sections.size(), out.sections.size()};
}

} // namespace

int main(int argc, char **argv) {
  idb::test::SyntheticShape shape;
  shape.nodes = argc > 1 ? std::uint32_t(std::atoi(argv[1])) : 1000;
  shape.named_cfh = false;
  int max_ranks = argc > 2 ? std::atoi(argv[2]) : 4096;
  std::printf("%6s %8s %10s %14s %14s\n", "ranks", "mode", "seconds", "rank0 peak MB",
              "written MB");
  for (int ranks = 16; ranks <= max_ranks; ranks *= 4) {
    std::vector<RankSections> data;
    data.reserve(std::size_t(ranks));
    for (int r = 0; r < ranks; ++r)
      data.push_back(idb::test::synthetic_rank(r, shape));
    for (int summary = 0; summary < 2; ++summary) {
      Result res = summary ? summary_merge(data) : full_merge(data);
      std::printf("%6d %8s %10.3f %14.2f %14.2f\n", ranks, summary ? "summary" : "full",
                  res.seconds, double(res.peak) / 1e6, double(res.written) / 1e6);
      std::fflush(stdout);
    }
  }
  return 0;
}
