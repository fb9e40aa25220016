// A full-mode profile of RANKS ranks × NODES nodes, written by the runtime's own writer
// (serialize_cfhs per rank, then write_profile with the ranks' sections, as the MPI layer's
// full mode does at finalize), for the scale figures of docs/PERFORMANCE.md:
//   scale_profile_gen RANKS NODES OUT
// One thread CFH per rank: a tree of fan-out 8 over 64 probes (PROC, LOOP, CALL, COMM in
// turn), each node's statistics set per rank (counts and times that vary with the node
// and the rank, rank RANKS/3 slower than the others; bytes on COMM nodes; no CPU times),
// so that the imbalance and COALESCE have something to find.
#include "cfh.h"
#include "probes.h"
#include "writer.h"

#include "idb/probe.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace idb::rt;

constexpr int kProbes = 64;

// Every node's statistics on `rank`, in the runtime's units (ticks here are nanoseconds):
// a node's total is its own work plus its children's totals, so times nest as measured
// ones do.
void set_stats(Cfh &c, std::uint32_t count, int rank, int ranks, std::vector<double> &total) {
  double slow = rank == ranks / 3 ? 1.5 : 1.0 + 0.01 * double(rank % 13);
  for (std::uint32_t k = 0; k < count; ++k) {
    Node &n = c.nodes[k];
    idb_stats_clear(&n.stats);
    n.stats.count = k == 0 ? 1 : 1 + (std::uint64_t(k) * 7 + std::uint64_t(rank)) % 50;
    total[k] = 1000.0 * double(1 + k % 17) * slow * double(n.stats.count);
  }
  for (std::uint32_t k = count; k-- > 1;)
    total[c.nodes[k].parent] += total[k];
  for (std::uint32_t k = 0; k < count; ++k) {
    Node &n = c.nodes[k];
    n.stats.sum = total[k];
    n.stats.mean = total[k] / double(n.stats.count);
    n.stats.min = n.stats.count == 1 ? n.stats.mean : n.stats.mean * 0.5;
    n.stats.max = n.stats.count == 1 ? n.stats.mean : n.stats.mean * 2.0;
    n.stats.m2 = n.stats.mean * n.stats.mean * 0.01 * double(n.stats.count - 1);
    if (n.kind == IDB_COMM) n.stats.bytes_sent = n.stats.bytes_recv = 4096 * n.stats.count;
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: scale_profile_gen RANKS NODES OUT\n");
    return 2;
  }
  int ranks = std::atoi(argv[1]);
  long nodes = std::atol(argv[2]);
  if (ranks < 1 || nodes < 1 || nodes > (1L << 24)) {
    std::fprintf(stderr, "scale_profile_gen: RANKS and NODES must be 1 or more\n");
    return 2;
  }
  Limits limits{};
  limits.max_nodes = std::uint32_t(nodes);
  limits.max_depth = 64;
  limits.cpu_threshold = std::numeric_limits<double>::infinity();
  limits.throttle_after = std::numeric_limits<std::uint64_t>::max();
  limits.throttle_ticks = -std::numeric_limits<double>::infinity();
  Cfh *cfh = cfh_create("thread 0", false, 0, limits);
  if (!cfh) return 1;
  probe_seen(IDB_PROC, 0, "scale", nullptr, 0, nullptr);
  std::vector<std::string> names;
  for (int id = 1; id < kProbes; ++id)
    names.push_back("probe " + std::to_string(id));
  for (long i = 1; i < nodes; ++i) {
    int id = 1 + int(i % (kProbes - 1));
    cfh_add_node(*cfh, std::uint32_t((i - 1) / 8), 1 + id % 4, id,
                 names[std::size_t(id - 1)].c_str(), "scale.c", id, "f");
  }
  cfh_close_all(*cfh, 0);
  cfh->depth = 0; // nothing open: every node's record is what set_stats gives

  WriteJob job{};
  job.cfhs = cfh;
  job.ticks_per_second = 1e9;
  job.noise_ticks = 20;
  job.throttled_ticks = 5;
  std::vector<unsigned char> sections;
  std::vector<double> total(std::size_t(nodes), 0.0);
  for (int r = 0; r < ranks; ++r) {
    set_stats(*cfh, std::uint32_t(nodes), r, ranks, total);
    job.rank = r;
    Bytes one{};
    if (!serialize_cfhs(job, one)) return 1;
    sections.insert(sections.end(), one.data, one.data + one.size);
    std::free(one.data);
  }
  std::string nprocs = std::to_string(ranks), start = std::to_string(std::time(nullptr));
  std::string end = std::to_string(std::time(nullptr) + 60);
  const MetaEntry meta[] = {{"program", "scale", 5},
                            {"nprocs", nprocs.c_str(), nprocs.size()},
                            {"rank", "0", 1},
                            {"mpi_mode", "full", 4},
                            {"threads", "1", 1},
                            {"timer", "tsc", 3},
                            {"timer_hz", "1000000000", 10},
                            {"start_unix", start.c_str(), start.size()},
                            {"end_unix", end.c_str(), end.size()},
                            {"noise_per_activation_s", "2e-08", 5}};
  job.meta = meta;
  job.meta_count = sizeof meta / sizeof meta[0];
  job.sections = sections.data();
  job.sections_size = sections.size();
  job.section_count = std::uint32_t(ranks);
  char error[512];
  if (!write_profile(argv[3], job, error, sizeof error)) {
    std::fprintf(stderr, "scale_profile_gen: %s\n", error);
    return 1;
  }
  return 0;
}
