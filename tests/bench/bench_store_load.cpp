// Load throughput into SQLite or PostgreSQL (docs/PERFORMANCE.md, "The database"): builds
// a synthetic Profile in memory (tests/store/synthetic.hpp; default 256 ranks x 2,000
// nodes, 512k statistics rows), loads it with idb::store::load into a fresh SQLite file
// (or, for --db postgresql://..., into that database under a fresh label), and prints
// statistics rows per second of the load (open and schema creation excluded) and, for
// SQLite, the load's CPU time (rows per CPU second, the figure that a busy machine does
// not distort) and database bytes per statistics row after the load. --keep leaves the SQLite file
// in place (label "bench") for timing readers on it, e.g. `idb report bench --db PATH`.
// SQLite: the time and CPU of closing the file are printed apart ("close": in WAL mode,
// the checkpoint that copies the log into the file); --rollback loads with the rollback
// journal instead of WAL, for the side-by-side reference. --buckets N gives every node a
// duration histogram of N non-empty buckets (its count spread over them; fewer when its
// count is smaller), so a load with histograms compares with one without: the rows then
// counted are the statistics rows plus the histogram rows ("hist rows").
//   bench_store_load [--ranks N] [--nodes N] [--db PATH|URL] [--keep] [--rollback]
//                    [--buckets N]   (default /tmp/idb-bench.db, no histograms)
#include "idb/store.hpp"
#include "synthetic.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

// This process's CPU time: on a shared machine the wall time also counts other
// processes' turns on the cores, the CPU time only the load's own work.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

int main(int argc, char **argv) {
  int ranks = 256, nodes = 2000;
  std::string path = "/tmp/idb-bench.db";
  bool keep = false, rollback = false;
  int buckets = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--keep")
      keep = true;
    else if (arg == "--rollback")
      rollback = true;
    else if (arg == "--ranks" && i + 1 < argc)
      ranks = std::atoi(argv[++i]);
    else if (arg == "--nodes" && i + 1 < argc)
      nodes = std::atoi(argv[++i]);
    else if (arg == "--buckets" && i + 1 < argc)
      buckets = std::atoi(argv[++i]);
    else if (arg == "--db" && i + 1 < argc)
      path = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_store_load [--ranks N] [--nodes N] [--db PATH] [--keep] "
                           "[--rollback] [--buckets N]\n");
      return 2;
    }
  }
  idb::profile::Profile profile = idb::test::synthetic_profile(ranks, nodes);
  std::size_t hist_rows = 0;
  for (idb::profile::Cfh &h : profile.cfhs)
    for (idb::profile::Node &n : h.nodes) {
      std::uint64_t k = std::min<std::uint64_t>(std::uint64_t(buckets), n.stats.count);
      for (std::uint64_t b = 0; b < k; ++b) // buckets 300, 301, ...: about 5 us and up
        n.hist.buckets.push_back(
            {std::uint32_t(300 + b), n.stats.count / k + (b < n.stats.count % k)});
      hist_rows += k;
    }
  bool server = path.rfind("postgresql://", 0) == 0 || path.rfind("postgres://", 0) == 0;
  if (!server) std::filesystem::remove(path);
  try {
    auto db = idb::store::open(path);
    if (rollback && !server) idb::store::query(*db, "PRAGMA journal_mode = DELETE");
    idb::store::LoadOptions options;
    if (keep && !server) options.label = "bench";
    if (server) // a database that may hold earlier runs: a label of its own
      options.label =
          "bench-" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
    auto start = std::chrono::steady_clock::now();
    double cpu_start = cpu_seconds();
    idb::store::LoadResult r = idb::store::load(*db, profile, options);
    r.nodes += hist_rows; // the rows counted below: statistics and histogram rows
    double cpu = cpu_seconds() - cpu_start;
    double server_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (server) {
      std::printf("hist rows %zu\n", hist_rows);
      std::printf("ranks %d nodes %d rows %zu load %.3f s rows/s %.0f (PostgreSQL; client CPU "
                  "%.3f s)\n",
                  ranks, nodes, r.nodes, server_seconds, double(r.nodes) / server_seconds, cpu);
      return 0;
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto close_start = std::chrono::steady_clock::now();
    double close_cpu_start = cpu_seconds();
    db.reset();
    double close_cpu = cpu_seconds() - close_cpu_start;
    double close_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - close_start).count();
    auto bytes = double(std::filesystem::file_size(path));
    std::printf("hist rows %zu\n", hist_rows);
    std::printf("%s ranks %d nodes %d rows %zu load %.3f s rows/s %.0f cpu %.3f s rows/cpu-s "
                "%.0f close %.3f s cpu %.3f s bytes %.0f bytes/row %.1f\n",
                rollback ? "rollback" : "wal", ranks, nodes, r.nodes, seconds,
                double(r.nodes) / seconds, cpu, double(r.nodes) / cpu, close_seconds, close_cpu,
                bytes, bytes / double(r.nodes));
  } catch (const idb::store::Error &e) {
    std::fprintf(stderr, "bench_store_load: %s\n", e.what());
    return 1;
  }
  if (!keep) std::filesystem::remove(path);
  return 0;
}
