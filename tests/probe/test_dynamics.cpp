// Dynamics (probe_lib/src/dynamics.h): a dynamic loop probe's iterations clustered online,
// reconstructed from the profile and compared with what the program measured itself; the
// settings that cannot be used are reported and the run goes on without dynamics.
#include "child.hpp"

#include "idb/probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace {

using idb::profile::Cfh;
using idb::profile::Dynamics;
using idb::profile::Profile;
using idb::test::Child;
using idb::test::run_child;

constexpr int kStep = 101, kCompute = 102, kCheckpoint = 103, kInner = 104, kSetup = 105;
constexpr int kIterations = 600, kStepAt = 300, kEvery = 50, kFirstSpike = 7;

double seconds_now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

void spin(double seconds) {
  double end = seconds_now() + seconds;
  while (seconds_now() < end) {
  }
}

bool spike(int it) {
  return it % kEvery == kFirstSpike;
}

// The program: compute takes 100 us up to iteration 300 and 200 us from it on; every 50th
// iteration also checkpoints. Each compute's own duration goes to <profile>.truth.
void time_steps(int iterations) {
  std::vector<double> truth;
  for (int it = 0; it < iterations; ++it) {
    idb_start(IDB_LOOP, kStep, "step");
    idb_start(IDB_PROC, kCompute, "compute");
    double t0 = seconds_now();
    spin(it < kStepAt ? 100e-6 : 200e-6);
    truth.push_back(seconds_now() - t0);
    idb_stop(kCompute);
    if (spike(it)) {
      idb_start(IDB_PROC, kCheckpoint, "checkpoint");
      spin(300e-6);
      idb_stop(kCheckpoint);
    }
    idb_stop(kStep);
  }
  std::string path = std::string(std::getenv("IDB_OUT")) + ".truth";
  if (FILE *f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(truth.data(), sizeof(double), truth.size(), f);
    std::fclose(f);
  }
}

std::vector<double> read_truth(const Child &child) {
  std::vector<double> truth(kIterations);
  FILE *f = std::fopen((child.path + ".truth").c_str(), "rb");
  if (!f) return {};
  std::size_t n = std::fread(truth.data(), sizeof(double), truth.size(), f);
  std::fclose(f);
  truth.resize(n);
  return truth;
}

// The index of `probe`'s node in `cfh`, or -1.
int node_of(const Cfh &cfh, int probe) {
  for (std::size_t i = 0; i < cfh.nodes.size(); ++i)
    if (cfh.nodes[i].probe == probe) return int(i);
  return -1;
}

const Dynamics *dynamics_of(const Profile &p, int probe) {
  for (const Cfh &cfh : p.cfhs)
    for (const Dynamics &d : cfh.dynamics)
      if (cfh.nodes[d.node].probe == probe) return &d;
  return nullptr;
}

std::vector<double> series_of(const Profile &p, const Dynamics &d, int probe, bool seconds) {
  const Cfh &cfh = p.cfhs.at(0);
  std::uint32_t member = d.member_of(std::uint32_t(node_of(cfh, probe)));
  EXPECT_NE(member, Dynamics::kNoMember) << "probe " << probe;
  return member == Dynamics::kNoMember ? std::vector<double>{} : d.series(member, seconds);
}

// The split of `v` that puts most iterations on the right side of `level`: below it
// before, above it after (robust to the iterations a loaded machine interrupted).
int change_point(const std::vector<double> &v, double level) {
  std::size_t above = 0;
  for (double x : v)
    above += x > level;
  std::size_t right = above, best = above; // the split at 0: every iteration after
  int at = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    right += v[i] > level ? std::size_t(-1) : 1; // iteration i moves before the split
    if (right > best) {
      best = right;
      at = int(i + 1);
    }
  }
  return at;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

Profile read_ok(const Child &child) {
  EXPECT_TRUE(child.ok()) << child.describe();
  auto r = child.read();
  EXPECT_TRUE(r.profile) << r.error;
  return r.profile ? *r.profile : Profile{};
}

TEST(Dynamics, TheStepAndEverySpikeAreReconstructed) {
  for (const char *clusters : {"16", "64"}) {
    Child child = run_child(
        [] {
          idb_dynamic_probe(kStep);
          time_steps(kIterations);
        },
        {{"IDB_CLUSTERS", clusters}});
    Profile p = read_ok(child);
    const Dynamics *d = dynamics_of(p, kStep);
    ASSERT_TRUE(d) << clusters;
    EXPECT_EQ(d->iterations, std::uint64_t(kIterations));
    EXPECT_LE(d->clusters.size(), std::size_t(std::atoi(clusters)));
    EXPECT_EQ(d->dropped, 0u);
    EXPECT_EQ(d->mixed, 0u) << "a spike and a plain step are different call trees";
    // The call tree of every iteration is exact: a checkpoint where, and only where, the
    // program checkpointed.
    std::vector<double> checkpoints = series_of(p, *d, kCheckpoint, false);
    ASSERT_EQ(checkpoints.size(), std::size_t(kIterations));
    for (int it = 0; it < kIterations; ++it)
      ASSERT_EQ(checkpoints[std::size_t(it)], spike(it) ? 1.0 : 0.0)
          << "iteration " << it << ", " << clusters << " clusters";
    // The step lies where the program put it (between 100 and 200 us an iteration), and
    // the reconstruction stays close to what the program measured: the median relative
    // error (a loaded machine interrupts some iterations, whose cluster cannot hold them).
    std::vector<double> compute = series_of(p, *d, kCompute, true);
    EXPECT_NEAR(change_point(compute, 150e-6), kStepAt, 2) << clusters << " clusters";
    std::vector<double> truth = read_truth(child);
    ASSERT_EQ(truth.size(), std::size_t(kIterations));
    std::vector<double> errors;
    for (int it = 0; it < kIterations; ++it)
      errors.push_back(std::fabs(compute[std::size_t(it)] - truth[std::size_t(it)]) /
                       truth[std::size_t(it)]);
    EXPECT_LT(median(errors), 0.05) << clusters << " clusters";
    // The iterations' sums add up to the node's totals.
    const Cfh &cfh = p.cfhs.at(0);
    const auto &step = cfh.nodes[d->node].stats;
    std::vector<double> steps = series_of(p, *d, kStep, true);
    double sum = 0;
    for (double s : steps)
      sum += s;
    EXPECT_NEAR(sum, step.sum, 1e-9 * step.sum + 1e-12);
  }
}

TEST(Dynamics, KeepingEveryIterationReconstructsEachExactly) {
  Child child = run_child(
      [] {
        idb_dynamic_probe(kStep);
        time_steps(kIterations);
      },
      {{"IDB_CLUSTERS", "all"}});
  Profile p = read_ok(child);
  const Dynamics *d = dynamics_of(p, kStep);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->clusters.size(), std::size_t(kIterations));
  std::vector<double> compute = series_of(p, *d, kCompute, true);
  std::vector<double> truth = read_truth(child);
  ASSERT_EQ(truth.size(), compute.size());
  for (int it = 0; it < kIterations; ++it) // the probe's interval holds the program's
    ASSERT_GE(compute[std::size_t(it)], truth[std::size_t(it)] * (1 - 1e-3)) << it;
}

// A member that was only ever counted (first seen under a throttled helper) has no timed
// mean: its iterations' time comes from its samples, each iteration's throttled
// activations at the samples' mean as it stood then.
TEST(Dynamics, AMemberOnlyEverCountedIsTimedByItsSamples) {
  Child child = run_child(
      [] {
        idb_dynamic_probe(kStep);
        for (int it = 0; it < 1'000; ++it) {
          idb_start(IDB_LOOP, kStep, "step");
          for (int k = 0; k < 10; ++k) {
            idb_start(IDB_PROC, kCompute, "helper");
            if (it >= 500) {
              idb_start(IDB_PROC, kInner, "late");
              idb_stop(kInner);
            }
            idb_stop(kCompute);
          }
          idb_stop(kStep);
        }
      },
      {{"IDB_CLUSTERS", "all"}, {"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_SAMPLE", "16"}});
  Profile p = read_ok(child);
  const Dynamics *d = dynamics_of(p, kStep);
  ASSERT_TRUE(d);
  const Cfh &cfh = p.cfhs.at(0);
  const idb_stats_t &late = cfh.nodes[std::size_t(node_of(cfh, kInner))].stats;
  ASSERT_EQ(0u, late.count) << "first seen under the throttled helper";
  ASSERT_GT(late.sampled, 0u);
  std::vector<double> seconds = series_of(p, *d, kInner, true);
  ASSERT_EQ(seconds.size(), 1'000u);
  double before = 0, after = 0;
  for (std::size_t it = 0; it < seconds.size(); ++it)
    (it < 500 ? before : after) += seconds[it];
  EXPECT_EQ(0.0, before);
  EXPECT_GT(after, 0.0) << "its samples give it a time";
  std::vector<double> visits = series_of(p, *d, kInner, false);
  EXPECT_EQ(10.0, visits[999]) << "and its count stays exact";
}

TEST(Dynamics, MemoryAndProfileStayBoundedByTheClusters) {
  for (int iterations : {500, 5000}) {
    Child child = run_child(
        [iterations] {
          idb_dynamic_probe(kStep);
          for (int it = 0; it < iterations; ++it) {
            idb_start(IDB_LOOP, kStep, "step");
            idb_start(IDB_PROC, kCompute, "compute");
            spin(it % 2 ? 2e-6 : 20e-6); // two levels, alternating: two runs an iteration
            idb_stop(kCompute);
            idb_stop(kStep);
          }
        },
        {{"IDB_CLUSTERS", "8"}});
    Profile p = read_ok(child);
    const Dynamics *d = dynamics_of(p, kStep);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->iterations, std::uint64_t(iterations));
    EXPECT_LE(d->clusters.size(), 8u);
    for (const auto &k : d->clusters)
      EXPECT_EQ(k.visits.size(), d->members.size());
    EXPECT_LE(d->runs.size(), std::size_t(iterations));
  }
}

TEST(Dynamics, IdbDynamicNamesTheProbeByIdOrByFileAndLine) {
  auto program = [] {
    idb_register_probe(IDB_LOOP, kStep, "for loop in main [steps.c:12]", "src/steps.c", 12, "main");
    idb_register_probe(IDB_PROC, kSetup, "setup(...) [steps.c:4]", "src/steps.c", 4, "setup");
    time_steps(40);
  };
  for (const char *setting : {"101", "steps.c:12", "src/steps.c:12"}) {
    Child child = run_child(program, {{"IDB_DYNAMIC", setting}});
    Profile p = read_ok(child);
    const Dynamics *d = dynamics_of(p, kStep);
    ASSERT_TRUE(d) << setting << "\n" << child.err;
    EXPECT_EQ(d->iterations, 40u);
    EXPECT_EQ(child.err.find("idb:"), std::string::npos) << child.err;
  }
}

// Each setting that cannot be used is named on stderr once, at start or where the probe is
// first reached, and the run goes on: the program's own output and the profile are whole.
TEST(Dynamics, WhatCannotBeUsedIsReportedAndTheRunGoesOnWithoutIt) {
  struct Case {
    const char *name;
    idb::test::Env env;
    bool mark_proc, nest;
    const char *said;
  };
  const Case cases[] = {
      {"no clusters", {{"IDB_CLUSTERS", "0"}}, false, false, "IDB_CLUSTERS=0"},
      {"clusters not a number", {{"IDB_CLUSTERS", "many"}}, false, false, "IDB_CLUSTERS=many"},
      {"a PROC by id", {{"IDB_DYNAMIC", "105"}}, false, false, "is a PROC probe, not a loop"},
      {"a PROC by place", {{"IDB_DYNAMIC", "steps.c:4"}}, false, false, "is a PROC probe"},
      {"a PROC by the API", {}, true, false, "is a PROC probe, not a loop"},
      {"no such setting", {{"IDB_DYNAMIC", "steps.c"}}, false, false, "ignoring IDB_DYNAMIC"},
      {"nested", {}, false, true, "inside another dynamic probe"},
  };
  for (const Case &c : cases) {
    bool mark_proc = c.mark_proc, nest = c.nest;
    Child child = run_child(
        [mark_proc, nest] {
          idb_register_probe(IDB_PROC, kSetup, "setup(...) [steps.c:4]", "src/steps.c", 4, "setup");
          if (mark_proc) idb_dynamic_probe(kSetup);
          if (nest) {
            idb_dynamic_probe(kStep);
            idb_dynamic_probe(kInner);
          } else if (std::getenv("IDB_CLUSTERS")) {
            idb_dynamic_probe(kStep);
          }
          idb_start(IDB_PROC, kSetup, "setup");
          idb_stop(kSetup);
          for (int it = 0; it < 20; ++it) {
            idb_start(IDB_LOOP, kStep, "step");
            for (int k = 0; k < 3; ++k) {
              idb_start(IDB_LOOP, kInner, "inner");
              idb_stop(kInner);
            }
            idb_stop(kStep);
          }
          std::printf("done\n");
        },
        c.env);
    Profile p = read_ok(child);
    EXPECT_EQ(child.out, "done\n") << c.name;
    EXPECT_NE(child.err.find(c.said), std::string::npos) << c.name << ": " << child.err;
    EXPECT_NE(child.err.find("goes on without") == std::string::npos &&
                  child.err.find("only the outermost") == std::string::npos,
              true)
        << c.name << ": " << child.err;
    std::size_t first = child.err.find("idb:");
    EXPECT_EQ(child.err.find("idb:", first + 1), std::string::npos) << c.name << ": reported once\n"
                                                                    << child.err;
    EXPECT_FALSE(dynamics_of(p, kSetup)) << c.name;
    EXPECT_FALSE(dynamics_of(p, kInner)) << c.name;
    if (nest) {
      const Dynamics *d = dynamics_of(p, kStep);
      ASSERT_TRUE(d) << c.name;
      EXPECT_EQ(d->iterations, 20u);
    } else {
      EXPECT_FALSE(dynamics_of(p, kStep)) << c.name;
    }
  }
}

} // namespace
