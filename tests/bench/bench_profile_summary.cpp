// Helper of the benchmarks, not a benchmark: reads a profile through the reader library
// (idb::profile::read_profile, node_times) and prints, as one JSON object, the first
// CFH's root times (inclusive and noise-corrected, seconds), the calibrated noise per
// activation, and per node its probe, description, count (timed activations), throttled
// (activations only counted), mean, CPU-timed count and noise. run_probe_bench.sh uses it for the
// accuracy figures and to check which activations each CPU policy timed.
#include "idb/profile.hpp"
#include "idb/tree.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20) out += ch;
  }
  return out + '"';
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PROFILE\n", argv[0]);
    return 2;
  }
  idb::profile::ReadResult result = idb::profile::read_profile(argv[1]);
  if (!result.profile) {
    std::fprintf(stderr, "%s: %s\n", argv[1], result.error.c_str());
    return 1;
  }
  const idb::profile::Profile &profile = *result.profile;
  if (profile.cfhs.empty()) {
    std::fprintf(stderr, "%s: no CFH\n", argv[1]);
    return 1;
  }
  const idb::profile::Cfh &cfh = profile.cfhs.front();
  std::vector<idb::profile::NodeTimes> times = idb::profile::node_times(cfh);
  std::printf("{\"root_inclusive_s\": %.9g, \"root_corrected_s\": %.9g, "
              "\"noise_per_activation_s\": %.9g, \"throttled_noise_per_activation_s\": %.9g, "
              "\"cfhs\": %zu, \"nodes\": [",
              times[0].inclusive, times[0].corrected, profile.number("noise_per_activation_s"),
              profile.number("throttled_noise_per_activation_s", 0), profile.cfhs.size());
  for (std::size_t i = 0; i < cfh.nodes.size(); ++i) {
    const idb::profile::Node &n = cfh.nodes[i];
    std::printf("%s\n {\"probe\": %d, \"label\": %s, \"count\": %llu, \"throttled\": %llu, "
                "\"mean_s\": %.9g, \"cpu_count\": %llu, \"noise_s\": %.9g, \"corrected_s\": %.9g}",
                i ? "," : "", n.probe, quoted(idb::profile::probe_label(profile, n.probe)).c_str(),
                (unsigned long long)n.stats.count, (unsigned long long)n.stats.throttled,
                n.stats.mean, (unsigned long long)n.stats.cpu_count, n.stats.noise,
                times[i].corrected);
  }
  std::printf("]}\n");
  return 0;
}
