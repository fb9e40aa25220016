// Load throughput into SQLite or PostgreSQL (docs/PERFORMANCE.md, "The database"): builds
// a synthetic Profile in memory (tests/store/synthetic.hpp; default 256 ranks x 2,000
// nodes, 512k statistics rows), loads it with idb::store::load into a fresh SQLite file
// (or, for --db postgresql://..., into that database under a fresh label), and prints
// statistics rows per second of the load (open and schema creation excluded) and, for
// SQLite, database bytes per statistics row after the load. --keep leaves the SQLite file
// in place (label "bench") for timing readers on it, e.g. `idb report bench --db PATH`.
//   bench_store_load [--ranks N] [--nodes N] [--db PATH|URL] [--keep]
//   (default /tmp/idb-bench.db)
#include "idb/store.hpp"
#include "synthetic.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

int main(int argc, char **argv) {
  int ranks = 256, nodes = 2000;
  std::string path = "/tmp/idb-bench.db";
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--keep")
      keep = true;
    else if (arg == "--ranks" && i + 1 < argc)
      ranks = std::atoi(argv[++i]);
    else if (arg == "--nodes" && i + 1 < argc)
      nodes = std::atoi(argv[++i]);
    else if (arg == "--db" && i + 1 < argc)
      path = argv[++i];
    else {
      std::fprintf(stderr,
                   "usage: bench_store_load [--ranks N] [--nodes N] [--db PATH] [--keep]\n");
      return 2;
    }
  }
  idb::profile::Profile profile = idb::test::synthetic_profile(ranks, nodes);
  bool server = path.rfind("postgresql://", 0) == 0 || path.rfind("postgres://", 0) == 0;
  if (!server) std::filesystem::remove(path);
  try {
    auto db = idb::store::open(path);
    idb::store::LoadOptions options;
    if (keep && !server) options.label = "bench";
    if (server) // a database that may hold earlier runs: a label of its own
      options.label =
          "bench-" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
    auto start = std::chrono::steady_clock::now();
    idb::store::LoadResult r = idb::store::load(*db, profile, options);
    double server_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (server) {
      std::printf("ranks %d nodes %d rows %zu load %.3f s rows/s %.0f (PostgreSQL)\n", ranks, nodes,
                  r.nodes, server_seconds, double(r.nodes) / server_seconds);
      return 0;
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    db.reset();
    auto bytes = double(std::filesystem::file_size(path));
    std::printf("ranks %d nodes %d rows %zu load %.3f s rows/s %.0f bytes %.0f bytes/row %.1f\n",
                ranks, nodes, r.nodes, seconds, double(r.nodes) / seconds, bytes,
                bytes / double(r.nodes));
  } catch (const idb::store::Error &e) {
    std::fprintf(stderr, "bench_store_load: %s\n", e.what());
    return 1;
  }
  if (!keep) std::filesystem::remove(path);
  return 0;
}
