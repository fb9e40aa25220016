// Helpers of the edf tests: small profiles built from activation samples (so expected
// numbers can be worked out by hand), loaded into real databases under chosen labels, and
// .edf files written into a test folder.
#pragma once

#include "idb/profile.hpp"
#include "idb/store.hpp"

#include <string>
#include <utility>
#include <vector>

namespace idb::test {

// One node: its parent's index (-1 for the root), its probe, the wall time of each
// activation, the CPU time of the CPU-timed ones, and its noise.
struct NodeSpec {
  NodeSpec(int parent_, std::int32_t probe_, std::vector<double> samples_, double noise_ = 0.0,
           std::vector<double> cpu_ = {})
      : parent(parent_), probe(probe_), samples(std::move(samples_)), noise(noise_),
        cpu(std::move(cpu_)) {}
  int parent = -1;
  std::int32_t probe = 0;
  std::vector<double> samples;
  double noise = 0.0;
  std::vector<double> cpu;
};

struct CfhSpec {
  int rank = 0;
  std::vector<NodeSpec> nodes; // nodes[0] is the root
};

// A profile of these CFHs, with probes 0..9 described as "probe N" (probe 0: "main"), and
// with `histograms` each node's duration histogram of its samples, as the runtime keeps it.
profile::Profile make_profile(const std::vector<CfhSpec> &cfhs, bool histograms = false);

// A profile where probe 1 (under the root) took `value` seconds on every rank 0..ranks-1
// (one activation), probe 2 took value/2, and the root value*2.
profile::Profile simple_run(double value, int ranks = 1, bool histograms = false);

// Loads `p` into the database at `url` as `label`.
void load_as(const std::string &url, const profile::Profile &p, const std::string &label);

} // namespace idb::test
