// COALESCE speed on SQLite (docs/PERFORMANCE.md, "Experiment definition files"): fills a
// database with RUNS synthetic runs of RANKS ranks x NODES nodes (tests/store/synthetic.hpp,
// each run's times scaled a little so the runs differ; default 100 x 16 x 500, 800k
// statistics rows), then times what `idb edf` does for a COALESCE over all of them with
// one label pattern: parse the .edf, resolve [DBLIST], read every run (one query per run,
// merged per probe and rank), compute COALESCE for every probe with all ranks merged.
// Prints wall time per phase and the process's CPU time (steadier on a shared machine).
// Loading is not timed; an existing database with the right runs is reused.
//   bench_edf_coalesce [--runs N] [--ranks N] [--nodes N] [--db PATH] [--repeat N]
//   (default /tmp/idb-bench-edf.db)
#include "idb/edf_analysis.hpp"
#include "synthetic.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

char label_buffer[32];
const char *label_of(int i) {
  std::snprintf(label_buffer, sizeof label_buffer, "bench-%03d", i);
  return label_buffer;
}

// Makes sure `path` holds exactly the runs bench-000 ... of this shape.
void fill(const std::string &path, int runs, int ranks, int nodes) {
  std::string shape =
      std::to_string(runs) + "x" + std::to_string(ranks) + "x" + std::to_string(nodes);
  if (std::filesystem::exists(path)) {
    auto db = idb::store::open(path);
    idb::store::QueryResult r = idb::store::query(
        *db, "SELECT count(*) FROM run_attributes WHERE key = 'shape' AND value = :s",
        {{"s", shape}});
    if (r.rows.at(0).at(0) == std::to_string(runs)) return;
    db.reset();
    std::filesystem::remove(path);
  }
  auto db = idb::store::open(path);
  idb::profile::Profile base = idb::test::synthetic_profile(ranks, nodes);
  for (int i = 0; i < runs; ++i) {
    idb::profile::Profile p = base;
    double scale = 1.0 + 0.001 * (i % 17);
    for (idb::profile::Cfh &h : p.cfhs)
      for (idb::profile::Node &n : h.nodes) {
        n.stats.sum *= scale;
        n.stats.mean *= scale;
      }
    idb::store::LoadOptions o;
    o.label = label_of(i);
    o.attributes = {{"shape", shape}};
    idb::store::load(*db, p, o);
  }
}

double coalesce_once(const std::string &edf_path, const std::string &db, std::size_t &rows) {
  auto start = Clock::now();
  std::clock_t cpu_start = std::clock();
  idb::edf::ParseResult parsed = idb::edf::read(edf_path);
  if (!parsed.document) throw idb::edf::Error(parsed.error);
  idb::edf::Connections c;
  auto resolved = idb::edf::resolve(parsed.experiment, {db, "", edf_path}, c);
  double resolve_s = since(start);
  auto data = idb::edf::read_entries(resolved);
  double read_s = since(start) - resolve_s;
  idb::edf::CoalesceResult r = idb::edf::coalesce(data, {});
  double total = since(start);
  rows = r.rows.size();
  double cpu = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::printf("  parse+resolve %.3f s  read %.3f s  coalesce %.3f s  total %.3f s  (CPU %.3f s)\n",
              resolve_s, read_s, total - resolve_s - read_s, total, cpu);
  return total;
}

} // namespace

int main(int argc, char **argv) {
  int runs = 100, ranks = 16, nodes = 500, repeat = 3;
  std::string path = "/tmp/idb-bench-edf.db";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "usage: bench_edf_coalesce [--runs N] [--ranks N] [--nodes N] "
                           "[--db PATH] [--repeat N]\n");
      return 2;
    }
    std::string value = argv[++i];
    if (arg == "--runs")
      runs = std::atoi(value.c_str());
    else if (arg == "--ranks")
      ranks = std::atoi(value.c_str());
    else if (arg == "--nodes")
      nodes = std::atoi(value.c_str());
    else if (arg == "--repeat")
      repeat = std::atoi(value.c_str());
    else if (arg == "--db")
      path = value;
  }
  try {
    auto start = Clock::now();
    fill(path, runs, ranks, nodes);
    std::printf("database %s: %d runs x %d ranks x %d nodes = %lld statistics rows (ready in "
                "%.1f s)\n",
                path.c_str(), runs, ranks, nodes, (long long)runs * ranks * nodes, since(start));
    std::string edf_path = path + ".edf";
    FILE *f = std::fopen(edf_path.c_str(), "w");
    if (!f) throw idb::edf::Error("cannot write " + edf_path);
    std::fputs("[PREAMBLE]\nMode COALESCE\n[DBLIST]\nbench-*  every run\n", f);
    std::fclose(f);
    double best = 1e300;
    std::size_t rows = 0;
    for (int i = 0; i < repeat; ++i)
      best = std::min(best, coalesce_once(edf_path, path, rows));
    std::printf("COALESCE of %d runs: %zu probe rows, best of %d: %.3f s\n", runs, rows, repeat,
                best);
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_edf_coalesce: %s\n", e.what());
    return 1;
  }
}
