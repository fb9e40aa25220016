// The profile as the runtime writes it, read back through the reader: the run's metadata
// (program, argv, host, pid, timer, noise, threads, start and end), IDB_ATTR_* variables
// as attributes, the probe table (kind, description, file, line, function from
// idb_start_at and idb_register_probe; the first description wins), and node statistics
// that agree with each other.
#include "child.hpp"

#include "idb/probe.h"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <ctime>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using idb::test::Child;
using idb::test::Env;
using idb::test::run_child;

void scenario() {
  idb_register_probe(IDB_LOOP, 7, "loop [x.c:3]", "x.c", 3, "fn");
  idb_register_probe(IDB_LOOP, 7, "replacement", "z.c", 99, "other"); // ignored: known
  idb_start_at(IDB_CALL, 8, "call [y.c:9]", "y.c", 9, "g");
  idb_start(IDB_PROC, 9, "plain");
  idb_stop(9);
  idb_stop(8);
  for (int i = 0; i < 100; ++i) {
    idb_start(IDB_COMM, 8, "a later description"); // ignored: known
    idb_stop(8);
  }
}

idb::profile::Profile read_back(const Env &env = {}) {
  Child child = run_child(scenario, env);
  EXPECT_TRUE(child.ok()) << child.describe();
  auto result = child.read();
  EXPECT_TRUE(result.profile) << result.error;
  if (!result.profile) return {};
  // The pid is only known here; keep it where the tests can compare it.
  result.profile->meta["test.child_pid"] = std::to_string(child.pid);
  return *result.profile;
}

std::vector<std::string> own_argv() {
  std::string all = idb::test::read_file("/proc/self/cmdline");
  std::vector<std::string> args;
  for (std::size_t from = 0; from < all.size();) {
    std::size_t end = all.find('\0', from);
    if (end == std::string::npos) end = all.size();
    args.push_back(all.substr(from, end - from));
    from = end + 1;
  }
  return args;
}

TEST(Profile, MetadataDescribesTheRun) {
  double before = double(std::time(nullptr));
  auto profile = read_back();
  double after = double(std::time(nullptr));
  for (const char *key :
       {"program", "argv", "host", "pid", "rank", "nprocs", "threads", "start_unix", "end_unix",
        "timer", "timer_hz", "noise_per_activation_s", "cpu_policy", "cpu_threshold_us",
        "max_nodes", "max_depth", "idb_version"})
    EXPECT_TRUE(profile.meta.count(key)) << "missing metadata " << key;
  EXPECT_EQ(1, profile.version_major);
  EXPECT_EQ("idb_probe_tests", profile.get("program")); // the executable, as the kernel names it
  EXPECT_EQ(own_argv(), profile.argv);
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  EXPECT_EQ(host, profile.get("host"));
  EXPECT_EQ(profile.get("test.child_pid"), profile.get("pid"));
  EXPECT_EQ("0", profile.get("rank"));
  EXPECT_EQ("1", profile.get("nprocs"));
  EXPECT_EQ("1", profile.get("threads"));
  EXPECT_TRUE(profile.get("timer") == "tsc" || profile.get("timer") == "monotonic")
      << profile.get("timer");
  EXPECT_GT(profile.number("timer_hz"), 1e6);
  EXPECT_GT(profile.number("noise_per_activation_s"), 0.0);
  EXPECT_LT(profile.number("noise_per_activation_s"), 1e-3);
  double start = profile.number("start_unix"), end = profile.number("end_unix");
  EXPECT_LE(start, end);
  EXPECT_LE(before - 1, start);
  EXPECT_LE(end, after + 1);
  EXPECT_TRUE(profile.attributes.empty());
}

TEST(Profile, AttributeVariablesBecomeAttributes) {
  auto profile =
      read_back(Env{{"IDB_ATTR_mesh", "2430"}, {"IDB_ATTR_solver", "conjugate gradient"}});
  EXPECT_EQ("2430", profile.attributes["mesh"]);
  EXPECT_EQ("conjugate gradient", profile.attributes["solver"]);
  EXPECT_EQ(2u, profile.attributes.size());
  EXPECT_EQ("2430", profile.get("attr.mesh"));
}

TEST(Profile, ProbeTableHoldsWhatProbesAndRegistrationsSaid) {
  auto profile = read_back();
  struct Expected {
    int id, kind;
    const char *description, *file;
    int line;
    const char *function;
  };
  for (const Expected &e : {Expected{7, IDB_LOOP, "loop [x.c:3]", "x.c", 3, "fn"},
                            Expected{8, IDB_CALL, "call [y.c:9]", "y.c", 9, "g"},
                            Expected{9, IDB_PROC, "plain", "", 0, ""}}) {
    const idb::profile::Probe *p = profile.probe(e.id);
    ASSERT_TRUE(p) << "probe " << e.id;
    EXPECT_EQ(e.kind, p->kind) << e.id;
    EXPECT_EQ(e.description, p->description) << e.id;
    EXPECT_EQ(e.file, p->file) << e.id;
    EXPECT_EQ(e.line, p->line) << e.id;
    EXPECT_EQ(e.function, p->function) << e.id;
  }
  const idb::profile::Probe *root = profile.probe(0);
  ASSERT_TRUE(root);
  EXPECT_EQ(IDB_PROC, root->kind);
  EXPECT_EQ(profile.get("program"), root->description);
  EXPECT_FALSE(profile.probe(INT_MIN)) << "the runtime's calibration probe leaked";
  std::set<int> ids;
  for (const auto &p : profile.probes)
    EXPECT_TRUE(ids.insert(p.id).second) << "twice: " << p.id;
  EXPECT_EQ(4u, profile.probes.size());
}

TEST(Profile, NodeStatisticsAreConsistent) {
  auto profile = read_back();
  const auto *cfh = idb::test::find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(0, cfh->rank);
  EXPECT_EQ(0, cfh->thread);
  EXPECT_EQ(idb::profile::kNoParent, cfh->nodes[0].parent);
  EXPECT_EQ(0, cfh->nodes[0].probe);
  EXPECT_EQ("call [y.c:9] 101\ncall [y.c:9];plain 1\n", idb::profile::paths_text(profile, *cfh));
  for (const auto &node : cfh->nodes) {
    const idb_stats_t &s = node.stats;
    SCOPED_TRACE("probe " + std::to_string(node.probe));
    ASSERT_GT(s.count, 0u);
    EXPECT_LE(s.min, s.mean);
    EXPECT_LE(s.mean, s.max);
    EXPECT_NEAR(s.sum, s.mean * double(s.count), 1e-9 * s.sum);
    EXPECT_GE(s.m2, 0.0);
    EXPECT_GE(s.noise, 0.0);
  }
  // The root spans the run: at least as long as its children together.
  EXPECT_GE(cfh->nodes[0].stats.sum, cfh->nodes[1].stats.sum);
}

} // namespace
