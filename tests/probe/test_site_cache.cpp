// The site cache (idb/probe.h, probe_lib/src/cfh.h): once a node throttles, the scope
// macros count its activations inline, with no frame and no call into the runtime, by
// making the node the innermost one until the scope closes. Driven here on a CFH installed
// as the thread's current one: the counts stay exact, what opens inside such an
// activation hangs under its node, and no entry outlives what it points at (the child
// table moving, a reopened CFH) or counts past its run.
#include "cfh.h"
#include "runtime.h"
#include "throttling_cfh.h"

#include "idb/probe.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace idb::rt {
namespace {

// A CFH whose nodes throttle after `throttle_after` timed activations, current on the
// calling thread for the test's lifetime.
struct Current {
  Cfh *cfh = nullptr;
  Cfh *before = nullptr;
  explicit Current(std::uint64_t throttle_after, std::uint32_t sample = 0)
      : cfh(throttling_cfh("sites", 512, throttle_after, sample)), before(cur_cfh()) {
    set_cur_cfh(cfh);
  }
  ~Current() {
    set_cur_cfh(before);
    cfh_free(cfh);
  }
  Current(const Current &) = delete;
  Current &operator=(const Current &) = delete;

  std::uint32_t node(std::uint32_t parent, int id) const { return cfh_find(*cfh, parent, id); }
  std::uint64_t activations(std::uint32_t node) const {
    return cfh->nodes[node].stats.count + cfh_untimed(*cfh, node);
  }
  const idb_site_t &site(int id) const { return cfh->sites[std::uint32_t(id) & (IDB_SITES_ - 1)]; }
};

void scope(int id) {
  idb::Scope s(IDB_PROC, id, "site");
}

TEST(SiteCache, AThrottledScopeIsCountedInlineWithNoFrameAndExactly) {
  Current t(2);
  for (int i = 0; i < 1000; ++i)
    scope(7);
  std::uint32_t seven = t.node(0, 7);
  ASSERT_NE(kNoNode, seven);
  EXPECT_EQ(2u, t.cfh->nodes[seven].stats.count);
  EXPECT_EQ(1000u, t.activations(seven));
  EXPECT_EQ(child_key(0, 7), t.site(7).key) << "the first throttled activation filled the entry";
  {
    idb::Scope s(IDB_PROC, 7, "site");
    EXPECT_EQ(1u, t.cfh->depth) << "no frame: only the root's";
    EXPECT_EQ(seven, t.cfh->hot.top) << "the node is the innermost while it runs";
  }
  EXPECT_EQ(0u, t.cfh->hot.top);
  EXPECT_EQ(1001u, t.activations(seven));
}

TEST(SiteCache, WhatOpensInsideACountedActivationHangsUnderItsNode) {
  Current t(2);
  for (int i = 0; i < 100; ++i) {
    idb::Scope helper(IDB_PROC, 7, "helper");
    scope(8); // two children in turn: the second finds its parent after the first closed
    scope(9);
  }
  std::uint32_t seven = t.node(0, 7);
  ASSERT_NE(kNoNode, seven);
  EXPECT_EQ(kNoNode, t.node(0, 8)) << "nothing of the helper's hangs under the root";
  EXPECT_EQ(kNoNode, t.node(0, 9));
  EXPECT_EQ(100u, t.activations(seven));
  EXPECT_EQ(100u, t.activations(t.node(seven, 8)));
  EXPECT_EQ(100u, t.activations(t.node(seven, 9)));
  EXPECT_EQ(1u, t.cfh->depth);
  EXPECT_EQ(0u, t.cfh->hot.top);
  EXPECT_EQ(0u, t.cfh->mismatches);
}

TEST(SiteCache, NoEntryOutlivesTheChildTableMoving) {
  Current t(2);
  for (int i = 0; i < 10; ++i)
    scope(7);
  ASSERT_EQ(child_key(0, 7), t.site(7).key);
  const void *slots = t.cfh->children.slots();
  int id = 1000;
  while (t.cfh->children.slots() == slots) // new nodes until the table grows
    scope(id++);
  EXPECT_EQ(~0ull, t.site(7).key) << "the entries pointed into the old table";
  for (int i = 0; i < 10; ++i)
    scope(7); // counted in the moved entry: the sanitizer run finds any write to the old
  EXPECT_EQ(20u, t.activations(t.node(0, 7)));
  EXPECT_EQ(child_key(0, 7), t.site(7).key) << "filled again";
}

TEST(SiteCache, AUsedUpRunGoesToTheRuntimeWhichTimesASampleAndRenewsIt) {
  Current t(2, 64);
  for (int i = 0; i < 64002; ++i)
    scope(7);
  Child *entry = t.cfh->children.find(child_key(0, 7));
  ASSERT_NE(nullptr, entry);
  const idb_stats_t &s = t.cfh->nodes[entry->node].stats;
  EXPECT_EQ(64002u, t.activations(entry->node)) << "counted exactly, inline or not";
  EXPECT_EQ(2u, s.count);
  // Runs of 32 to 95 activations, 64 on average: about a thousand of them, each begun by
  // the runtime with a sample.
  EXPECT_GE(s.sampled, 64000u / 95);
  EXPECT_LE(s.sampled, 64000u / 32 + 1);
  EXPECT_EQ(child_key(0, 7), t.site(7).key) << "each renewal fills the entry again";
  EXPECT_EQ(1u, t.cfh->depth);
}

TEST(SiteCache, AReopenedCfhHoldsNoEntry) {
  Current t(2);
  for (int i = 0; i < 10; ++i)
    scope(7);
  ASSERT_EQ(child_key(0, 7), t.site(7).key);
  cfh_close_all(*t.cfh, now());
  cfh_reopen(*t.cfh);
  EXPECT_EQ(~0ull, t.site(7).key);
}

} // namespace
} // namespace idb::rt
