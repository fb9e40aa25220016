// Bytes per CFH node, in memory and in the profile file. In memory: sizeof(idb::rt::Node)
// and the node's share of the (parent, probe) hash table, which is kept at most half full
// and doubles (probe_lib/src/cfh.h, cfh.cpp); plus the resident-set growth measured while
// 10,000 nodes are created. In the file: IDB_NODE_RECORD_SIZE, and the measured growth of
// a profile between runs with 10 and 10,000 distinct nodes (the same 100 registered
// probes in both, so only nodes differ), and for comparison with 10 and 10,000 distinct
// probes, one node each (node plus probe-table entry). Each profile is written by a
// forked child, since a process writes one profile. Prints "key value" lines.
#include "cfh.h"
#include "idb/probe.h"
#include "idb/profile_format.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr int kProbes = 100;
constexpr int kFirstFlatProbe = 1000;

long resident_bytes() {
  long pages = 0, resident = 0;
  if (FILE *f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * sysconf(_SC_PAGESIZE);
}

// `nodes` nodes below the root from 100 probes: probe p under the root, then probe q
// under p, for p, q in 1..100, in that order, until there are enough.
void make_tree(int nodes) {
  static char names[kProbes + 1][16];
  for (int p = 1; p <= kProbes; ++p) {
    std::snprintf(names[p], sizeof names[p], "probe %03d", p);
    idb_register_probe(IDB_PROC, p, names[p], nullptr, 0, nullptr);
  }
  int made = 0;
  for (int p = 1; p <= kProbes && made < nodes; ++p) {
    idb_start(IDB_PROC, p, names[p]);
    ++made;
    for (int q = 1; q <= kProbes && made < nodes; ++q, ++made) {
      idb_start(IDB_PROC, q, names[q]);
      idb_stop(q);
    }
    idb_stop(p);
  }
}

// `nodes` distinct probes under the root, one node each.
void make_flat(int nodes) {
  for (int i = 0; i < nodes; ++i) {
    char name[24];
    std::snprintf(name, sizeof name, "probe %05d", i);
    idb_start(IDB_PROC, kFirstFlatProbe + i, name);
    idb_stop(kFirstFlatProbe + i);
  }
}

// In a child: records `nodes` nodes, writes the profile to `path`; the parent gets the
// file size, and the resident-set growth through `rss_growth`.
long write_profile(const std::string &path, int nodes, bool flat, long *rss_growth) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    setenv("IDB_OUT", path.c_str(), 1);
    setenv("IDB_ENABLE", "1", 1);
    idb_init("bench_node_bytes");
    idb_thread_cfh();
    long before = resident_bytes();
    flat ? make_flat(nodes) : make_tree(nodes);
    long growth = resident_bytes() - before;
    idb_finalize();
    ssize_t n = write(fds[1], &growth, sizeof growth);
    _exit(n == ssize_t(sizeof growth) ? 0 : 1);
  }
  close(fds[1]);
  long growth = 0;
  bool got = read(fds[0], &growth, sizeof growth) == ssize_t(sizeof growth);
  close(fds[0]);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0 || !got)
    return -1;
  if (rss_growth) *rss_growth = growth;
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? long(st.st_size) : -1;
}

// Hash slots for `nodes` nodes (the root included, which has none) under the table's
// growth rule: 64 at first, doubled to stay at most half full.
unsigned slots_for(unsigned nodes) {
  unsigned size = 64;
  while (2ull * (nodes - 1) > size)
    size *= 2;
  return size;
}

constexpr int kSmall = 10, kLarge = 10000;

struct Figures {
  long tree_small = -1, tree_large = -1, flat_small = -1, flat_large = -1; // file bytes
  long rss_small = 0, rss_large = 0, rss_flat = 0; // resident-set growth, bytes
};

bool measure(const std::string &dir, bool remove, Figures &f) {
  f.tree_small = write_profile(dir + "/tree-10.idbprof", kSmall, false, &f.rss_small);
  f.tree_large = write_profile(dir + "/tree-10000.idbprof", kLarge, false, &f.rss_large);
  f.flat_small = write_profile(dir + "/flat-10.idbprof", kSmall, true, nullptr);
  f.flat_large = write_profile(dir + "/flat-10000.idbprof", kLarge, true, &f.rss_flat);
  if (remove) {
    for (const char *name : {"tree-10", "tree-10000", "flat-10", "flat-10000"})
      unlink((dir + "/" + name + ".idbprof").c_str());
    rmdir(dir.c_str());
  }
  return f.tree_small >= 0 && f.tree_large >= 0 && f.flat_small >= 0 && f.flat_large >= 0;
}

void print(const Figures &f) {
  unsigned slots = slots_for(kLarge + 1);
  std::printf("node_sizeof %zu\n", sizeof(idb::rt::Node));
  std::printf("slot_sizeof %zu\n", sizeof(idb::rt::ChildTable::Slot));
  std::printf("slots_at_10000 %u\n", slots);
  std::printf("slot_bytes_per_node_at_10000 %.1f\n",
              double(slots) * sizeof(idb::rt::ChildTable::Slot) / double(kLarge + 1));
  std::printf("rss_growth_per_node_at_10000 %.1f\n", double(f.rss_large) / kLarge);
  std::printf("rss_growth_at_10 %ld\n", f.rss_small);
  std::printf("file_record_size %d\n", IDB_NODE_RECORD_SIZE);
  std::printf("file_bytes_tree_10 %ld\nfile_bytes_tree_10000 %ld\n", f.tree_small, f.tree_large);
  std::printf("file_bytes_per_node %.2f\n",
              double(f.tree_large - f.tree_small) / (kLarge - kSmall));
  std::printf("file_bytes_flat_10 %ld\nfile_bytes_flat_10000 %ld\n", f.flat_small, f.flat_large);
  std::printf("file_bytes_per_node_and_probe %.2f\n",
              double(f.flat_large - f.flat_small) / (kLarge - kSmall));
  std::printf("rss_growth_per_node_and_probe_at_10000 %.1f\n", double(f.rss_flat) / kLarge);
}

} // namespace

int main(int argc, char **argv) {
  std::string dir;
  for (int i = 1; i < argc; ++i) // --benchmark_* flags (the smoke test's) are ignored
    if (!std::strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
  char temp[] = "/tmp/idb-node-bytes-XXXXXX";
  bool own_dir = dir.empty();
  if (own_dir) {
    if (!mkdtemp(temp)) return 1;
    dir = temp;
  }
  Figures figures;
  if (!measure(dir, own_dir, figures)) {
    std::fprintf(stderr, "bench_node_bytes: a child failed to write its profile\n");
    return 1;
  }
  print(figures);
  return 0;
}
