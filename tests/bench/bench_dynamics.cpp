// Dynamics (docs/PERFORMANCE.md, "Dynamics"): a time-step loop whose iterations change
// shape (a slow wave, a step at 40%, a spike every 97th, noise from the machine) run with
// the loop dynamic at several cluster limits, each in its own process. Per limit:
//   - the reconstruction error of every iteration against what the program measured
//     around the same iteration itself, from before its start to before its stop (the
//     dynamic node and its compute child: mean and max relative error); IDB_CLUSTERS=all,
//     which keeps every iteration, is the reference: its error is what the probes and
//     clock reads inside the measured interval add;
//   - what the clustering costs an iteration (the noise the runtime charges the dynamic
//     node beyond its calibrated pair cost) and its share of the run;
//   - the memory the process gained (VmRSS) against the same loop without dynamics;
//   - the profile's size against the same loop without dynamics, and the map's runs.
//   bench_dynamics [--iterations N] [--us MICROSECONDS] [--clusters LIST] [--dir DIR]
#include "idb/probe.h"
#include "idb/profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr int kStep = 11, kCompute = 12, kSpike = 13;

double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

void spin(double seconds) {
  double end = now() + seconds;
  while (now() < end) {
  }
}

long rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

// The program: returns nothing; writes what it measured to `truth` (iteration, compute
// pairs) and its VmRSS gain to `truth`.rss.
void workload(int iterations, double us, bool dynamic, const std::string &truth) {
  if (dynamic) idb_dynamic_probe(kStep);
  idb_init(nullptr);
  long before = rss_kb();
  std::vector<double> measured;
  measured.reserve(2 * std::size_t(iterations));
  for (int it = 0; it < iterations; ++it) {
    double t0 = now();
    idb_start(IDB_LOOP, kStep, "step");
    idb_start(IDB_PROC, kCompute, "compute");
    double c0 = now();
    double wave = 1.0 + 0.3 * std::sin(it / 50.0), level = it < iterations * 2 / 5 ? 1.0 : 1.6;
    spin(us * 1e-6 * wave * level);
    double c1 = now();
    idb_stop(kCompute);
    if (it % 97 == 13) {
      idb_start(IDB_PROC, kSpike, "spike");
      spin(us * 4e-6);
      idb_stop(kSpike);
    }
    double t1 = now(); // before the stop, in which the iteration is clustered
    idb_stop(kStep);
    measured.push_back(t1 - t0);
    measured.push_back(c1 - c0);
  }
  long after = rss_kb();
  std::ofstream out(truth, std::ios::binary);
  out.write(reinterpret_cast<const char *>(measured.data()),
            std::streamsize(measured.size() * sizeof(double)));
  std::ofstream(truth + ".rss") << after - before << "\n";
}

struct Result {
  bool ok = false;
  double mean_step = 0, max_step = 0, mean_compute = 0, max_compute = 0;
  double cost_per_iteration = 0, run_share = 0;
  double step_noise = 0; // the dynamic probe's noise per activation, s
  long rss_kb = 0;
  std::uintmax_t bytes = 0;
  std::size_t clusters = 0, runs = 0;
};

// Runs the workload in a child with IDB_CLUSTERS=`clusters` ("" for no dynamics).
Result run(const std::string &dir, const std::string &clusters, int iterations, double us,
           const Result *off = nullptr) {
  Result r;
  std::string profile = dir + "/dyn-" + (clusters.empty() ? "off" : clusters) + ".idbprof";
  std::string truth = profile + ".truth";
  pid_t pid = fork();
  if (pid == 0) {
    setenv("IDB_OUT", profile.c_str(), 1);
    if (!clusters.empty()) setenv("IDB_CLUSTERS", clusters.c_str(), 1);
    workload(iterations, us, !clusters.empty(), truth);
    idb_finalize();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return r;
  idb::profile::ReadResult read = idb::profile::read_profile(profile);
  if (!read.profile) {
    std::fprintf(stderr, "%s\n", read.error.c_str());
    return r;
  }
  r.bytes = std::filesystem::file_size(profile);
  std::ifstream(truth + ".rss") >> r.rss_kb;
  std::vector<double> measured(2 * std::size_t(iterations));
  std::ifstream(truth, std::ios::binary)
      .read(reinterpret_cast<char *>(measured.data()),
            std::streamsize(measured.size() * sizeof(double)));
  const idb::profile::Cfh &cfh = read.profile->cfhs.at(0);
  r.ok = true;
  for (const idb::profile::Node &n : cfh.nodes)
    if (n.probe == kStep) r.step_noise = n.stats.noise / double(n.stats.count);
  if (cfh.dynamics.empty()) return r;
  const idb::profile::Dynamics &d = cfh.dynamics[0];
  std::uint32_t compute = idb::profile::Dynamics::kNoMember;
  for (std::uint32_t m = 0; m < d.members.size(); ++m)
    if (cfh.nodes[d.members[m]].probe == kCompute) compute = m;
  std::vector<double> step = d.series(0), work = d.series(compute);
  for (int i = 0; i < iterations; ++i) {
    double e1 = std::fabs(step[std::size_t(i)] - measured[2 * std::size_t(i)]) /
                measured[2 * std::size_t(i)];
    double e2 = std::fabs(work[std::size_t(i)] - measured[2 * std::size_t(i) + 1]) /
                measured[2 * std::size_t(i) + 1];
    r.mean_step += e1 / iterations;
    r.mean_compute += e2 / iterations;
    r.max_step = std::max(r.max_step, e1);
    r.max_compute = std::max(r.max_compute, e2);
  }
  r.clusters = d.clusters.size();
  // The clustering's cost: the dynamic probe's noise beyond what the same probe costs
  // without dynamics (CPU clock reads and the pair's charge included in both).
  if (off) {
    r.cost_per_iteration = r.step_noise - off->step_noise;
    r.run_share = r.cost_per_iteration * double(iterations) / cfh.nodes[0].stats.sum;
  }
  r.runs = d.runs.size();
  return r;
}

} // namespace

int main(int argc, char **argv) {
  int iterations = 2000;
  double us = 200;
  std::string dir = std::filesystem::temp_directory_path().string(), list = "16,64,256,all";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--iterations"))
      iterations = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--us"))
      us = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--clusters"))
      list = argv[i + 1];
    else if (!std::strcmp(argv[i], "--dir"))
      dir = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: bench_dynamics [--iterations N] [--us MICROSECONDS] "
                           "[--clusters LIST] [--dir DIR]\n");
      return 2;
    }
  }
  if (iterations < 10 || us <= 0) return 2;
  Result off = run(dir, "", iterations, us);
  if (!off.ok) return 1;
  std::printf("%d iterations of about %.0f us (a wave, a step, a spike every 97th)\n", iterations,
              us);
  std::printf("%-8s %9s %9s %9s %9s %11s %9s %9s %10s %9s\n", "clusters", "step mean", "step max",
              "comp mean", "comp max", "cost/iter", "run %", "rss KB", "profile B", "runs");
  std::printf("%-8s %9s %9s %9s %9s %11s %9s %9ld %10ju %9s\n", "off", "-", "-", "-", "-", "-", "-",
              off.rss_kb, off.bytes, "-");
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t comma = std::min(list.find(',', at), list.size());
    std::string clusters = list.substr(at, comma - at);
    at = comma + 1;
    Result r = run(dir, clusters, iterations, us, &off);
    if (!r.ok) return 1;
    std::printf("%-8s %8.3f%% %8.2f%% %8.3f%% %8.2f%% %8.2f us %8.3f%% %9ld %10ju %9zu\n",
                clusters.c_str(), 100 * r.mean_step, 100 * r.max_step, 100 * r.mean_compute,
                100 * r.max_compute, r.cost_per_iteration * 1e6, 100 * r.run_share, r.rss_kb,
                r.bytes, r.runs);
  }
  return 0;
}
