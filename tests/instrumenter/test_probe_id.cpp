// Probe IDs: stable, positive, and different for different sites.
#include "probe_id.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace idb::instr;

TEST(ProbeId, DependsOnBaseNameNotFolder) {
  EXPECT_EQ(probe_id("a/b/solver.c", "solve int (int)", "PROC", ""),
            probe_id("/other/solver.c", "solve int (int)", "PROC", ""));
}

TEST(ProbeId, DiffersBetweenSites) {
  std::set<int> ids;
  for (const char *kind : {"PROC", "LOOP", "CALL"})
    for (const char *key : {"", "loop#1", "loop#2", "f#1", "f#2"})
      for (const char *fn : {"a", "b", "ab"})
        ids.insert(probe_id("x.c", fn, kind, key));
  EXPECT_EQ(3u * 5u * 3u, ids.size());
  // The parts are separated: ("ab", "") is not ("a", "b").
  EXPECT_NE(probe_id("x.c", "ab", "PROC", ""), probe_id("x.c", "a", "PROC", "b"));
}

TEST(ProbeId, PositiveAndKnownValue) {
  int id = probe_id("solver.c", "solve void (void)", "PROC", "");
  EXPECT_GT(id, 0);
  // Fixed by the documented hash: a change here renumbers every user's probes.
  EXPECT_EQ(559288307, id);
}
