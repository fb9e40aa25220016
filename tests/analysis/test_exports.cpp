// The tree exports (analysis/exports.hpp) on CFHs written as text: collapsed stacks weigh
// each node by its own time without the probes' cost, in whole microseconds, and leave
// out what rounds to nothing and, when asked, the root; Hatchet's literal format keeps
// one tree per CFH, the same metric keys on every node, and ids that keep equal frames
// apart; JSON strings are escaped.
#include "cfh_text.hpp"
#include "idb/analysis/exports.hpp"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

namespace idb::test {
namespace {

using profile::Cfh;
using profile::Profile;

TEST(Exports, FoldedStacksWeighOwnCorrectedTimeInMicroseconds) {
  Profile p;
  // main: 0.010 s with children 0.004 + 0.003 (noise 0.0005 charged to main); the probe
  // labelled "a;b" keeps one frame; tiny: 0.4 us, which rounds to nothing.
  Cfh c = build_cfh(p, 0.0125,
                    "main 1 0.010\nmain;solve 2 0.004 0.0005\nmain;ab 1 0.003\n"
                    "main;ab;tiny 1 0.0000004\n");
  for (profile::Probe &probe : p.probes)
    if (probe.description == "ab") probe.description = "a;b";
  EXPECT_EQ("prog 2500\n"
            "prog;main 2500\n"
            "prog;main;solve 4000\n"
            "prog;main;a,b 3000\n",
            analysis::folded_stacks(p, c));
  Cfh named = c; // a named CFH's root spans its object's life: no line of its own
  named.named = true;
  named.name = "field";
  EXPECT_EQ(analysis::folded_stacks(p, c).substr(10), analysis::folded_stacks(p, named));
  EXPECT_EQ("", analysis::folded_stacks(p, Cfh{}));
  std::vector<double> own = analysis::corrected_exclusive(c);
  ASSERT_EQ(own.size(), 5u);
  EXPECT_NEAR(own[1], 0.0025, 1e-12); // 0.010 - 0.004 - 0.003 - 0.0005 of probes
}

// A throttled node's inclusive time holds its timed activations alone; the exports weigh
// it by its estimate, and its parent's own time no longer holds its untimed ones.
TEST(Exports, AThrottledNodeIsWeighedByItsEstimate) {
  Profile p;
  Cfh c = sampled_helper_cfh(p); // helper: 0.0041 s estimated, 0.0001 s timed
  EXPECT_EQ("prog 2500\nprog;main 5900\nprog;main;helper 4100\n", analysis::folded_stacks(p, c));
  std::vector<profile::NodeTimes> times = profile::node_times(c);
  EXPECT_NEAR(times[2].corrected_all, 0.0041, 1e-12);
  EXPECT_NEAR(times[2].inclusive, 0.0001, 1e-12) << "the measured tree is left as it is";
  EXPECT_NEAR(times[1].corrected_all, times[1].corrected, 1e-15) << "main is timed";
}

TEST(Exports, HatchetLiteralKeepsEachTreeAndEveryNodeApart) {
  Profile p;
  Cfh c = build_cfh(p, 1, "main 1 0.5\nmain;x 2 0.25\nmain;loop 4 0.125\nmain;loop;x 8 0.0625\n");
  for (profile::Probe &probe : p.probes)
    if (probe.description == "loop")
      probe = {probe.id, 2, "for loop in main [m.c:3]", "m.c", 3, "main"};
  std::vector<analysis::Tree> trees = {{"CFH \"thread 0\" rank 0 thread 0", c, false},
                                       {"CFH \"thread 1\" rank 0 thread 1", c, false}};
  std::string json = analysis::hatchet_literal(p, trees);
  EXPECT_EQ(0u,
            json.find("[{\"frame\": {\"name\": \"prog [CFH \\\"thread 0\\\" rank 0 thread 0]\", "
                      "\"type\": \"program\"}, \"metrics\": {\"time (inc)\": 1, \"time\": 0.5, "
                      "\"corrected (inc)\": 1, \"corrected\": 0.5, \"noise\": 0, \"count\": 1}, "
                      "\"children\": [{\"frame\": {\"name\": \"main\", \"type\": \"function\"}"))
      << json;
  EXPECT_NE(std::string::npos,
            json.find("{\"frame\": {\"name\": \"for loop in main [m.c:3]\", \"type\": \"loop\", "
                      "\"file\": \"m.c\", \"line\": 3}, \"metrics\": {\"time (inc)\": 0.125, "
                      "\"time\": 0.0625, \"corrected (inc)\": 0.125, \"corrected\": 0.0625, "
                      "\"noise\": 0, \"count\": 4, \"_hatchet_nid\": 3}"))
      << json;
  // Two trees of four nodes below their roots: ids 1 to 8, each once; the second root
  // has no id, like the first.
  EXPECT_NE(std::string::npos, json.find("\"_hatchet_nid\": 8}"));
  EXPECT_EQ(std::string::npos, json.find("\"_hatchet_nid\": 9}"));
  EXPECT_NE(std::string::npos, json.find("]}]},\n{\"frame\": {\"name\": \"prog [CFH \\\"thread 1"));
  EXPECT_EQ("[]\n", analysis::hatchet_literal(p, {}));
}

TEST(Exports, JsonStringsAreEscaped) {
  EXPECT_EQ("\"a\\\"b\\\\c\\n\\t\\u0001\"", analysis::json_string("a\"b\\c\n\t\x01"));
}

} // namespace
} // namespace idb::test
