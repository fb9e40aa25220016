// The flame graph's layout, search and tooltips, on the small profile the GUI tests know
// by heart (fixtures.hpp): widths by corrected inclusive time, widest first, children
// scaled into a parent they outgrow.
#include "fixtures.hpp"

#include "flame_data.hpp"

#include "idb/tree.hpp"

#include <gtest/gtest.h>

using namespace idb;

namespace {

gui::FlameGraph rank_graph(const profile::Profile &p, std::size_t cfh) {
  return gui::flame_graph(p, p.cfhs[cfh], "rank " + std::to_string(cfh));
}

std::vector<std::string> labels(const gui::FlameGraph &g) {
  std::vector<std::string> out;
  for (const gui::FlameFrame &f : g.frames)
    out.push_back(f.label);
  return out;
}

} // namespace

TEST(FlameData, LaysFramesOutByCorrectedInclusiveTimeWidestFirst) {
  const profile::Profile p = test::gui_profile();
  const gui::FlameGraph g = rank_graph(p, 0);
  EXPECT_EQ(g.title, "rank 0");
  EXPECT_EQ(g.depth, 4u);
  ASSERT_EQ(labels(g),
            (std::vector<std::string>{"program", "main()", "solve()", "exchange()", "output()"}));
  // program 10 s less every probe's charge below it (0.031 s); main 9 - 0.021; solve
  // 6 - 0.001; exchange and output 1 s each, nothing below them.
  const double width[] = {9.969, 8.979, 5.999, 1.0, 1.0};
  const double start[] = {0, 0, 0, 0, 5.999};
  const std::uint32_t parent[] = {gui::kFlameTop, 0, 1, 2, 1};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(g.frames[i].width, width[i], 1e-9) << g.frames[i].label;
    EXPECT_NEAR(g.frames[i].start, start[i], 1e-9) << g.frames[i].label;
    EXPECT_EQ(g.frames[i].parent, parent[i]) << g.frames[i].label;
    EXPECT_NEAR(g.frames[i].corrected, width[i], 1e-9) << "nothing scaled on rank 0";
  }
  EXPECT_EQ(g.frames[2].count, 3u);
  EXPECT_EQ(g.frames[2].probe, 2);
  EXPECT_NEAR(g.frames[1].self, 8.979 - 5.999 - 1.0, 1e-9);
  // The root is the widest frame; every frame lies within its parent.
  for (const gui::FlameFrame &f : g.frames) {
    EXPECT_LE(f.width, g.frames[0].width + 1e-12) << f.label;
    if (f.parent == gui::kFlameTop) continue;
    const gui::FlameFrame &up = g.frames[f.parent];
    EXPECT_GE(f.start, up.start - 1e-12) << f.label;
    EXPECT_LE(f.start + f.width, up.start + up.width + 1e-9) << f.label;
    EXPECT_EQ(f.depth, up.depth + 1) << f.label;
  }
}

TEST(FlameData, ScalesChildrenThatOutgrowTheirParentIntoIt) {
  // Rank 1 spends 12 s in solve() under a main() of 9 s: solve and output (13 s
  // corrected together) share main's width in proportion.
  const profile::Profile p = test::gui_profile();
  const gui::FlameGraph g = rank_graph(p, 1);
  ASSERT_EQ(labels(g),
            (std::vector<std::string>{"program", "main()", "solve()", "exchange()", "output()"}));
  const double main_width = profile::node_times(p.cfhs[1])[1].corrected;
  EXPECT_NEAR(g.frames[1].width, main_width, 1e-12);
  EXPECT_LT(main_width, 9.0);
  const double scale = main_width / (11.999 + 1.0);
  EXPECT_NEAR(g.frames[2].width, 11.999 * scale, 1e-9);
  EXPECT_NEAR(g.frames[2].corrected, 11.999, 1e-9) << "the node's own time is kept";
  EXPECT_NEAR(g.frames[4].start, 11.999 * scale, 1e-9);
  EXPECT_NEAR(g.frames[4].start + g.frames[4].width, main_width, 1e-9) << "ends with main()";
  EXPECT_NEAR(g.frames[3].width, 2.0, 1e-9) << "exchange() fits in solve() as it is";
}

TEST(FlameData, AnEmptyTreeHasNoFrames) {
  const profile::Profile p = test::gui_profile();
  const gui::FlameGraph g = gui::flame_graph(p, profile::Cfh{}, "none");
  EXPECT_TRUE(g.frames.empty());
  EXPECT_EQ(g.depth, 0u);
  EXPECT_EQ(gui::flame_search(g, "main").count, 0u);
  EXPECT_TRUE(gui::flame_tooltip(g, 0).isEmpty());
}

TEST(FlameData, SearchesLabelsIgnoringCaseAndCountsNestedMatchesOnce) {
  const profile::Profile p = test::gui_profile();
  const gui::FlameGraph g = rank_graph(p, 0);
  gui::FlameMatches m = gui::flame_search(g, "E()");
  EXPECT_EQ(m.matched, (std::vector<bool>{false, false, true, true, false}));
  EXPECT_EQ(m.count, 2u);
  EXPECT_NEAR(m.share, 5.999 / 9.969, 1e-9) << "exchange() lies inside solve()";
  m = gui::flame_search(g, "put");
  EXPECT_EQ(m.count, 1u);
  EXPECT_NEAR(m.share, 1.0 / 9.969, 1e-9);
  m = gui::flame_search(g, "O");
  EXPECT_EQ(m.count, 3u); // program, solve(), output()
  EXPECT_DOUBLE_EQ(m.share, 1.0);
  m = gui::flame_search(g, "");
  EXPECT_EQ(m.count, 0u);
  EXPECT_DOUBLE_EQ(m.share, 0.0);
  EXPECT_EQ(gui::flame_search(g, "nosuch").count, 0u);
}

TEST(FlameData, TooltipsSayPathCountsAndTimesInTheirUnits) {
  profile::Profile p = test::gui_profile();
  p.cfhs[0].nodes[3].stats.throttled = 1500;
  p.cfhs[0].nodes[3].stats.sampled = 10; // 0.1 ms each
  p.cfhs[0].nodes[3].stats.sampled_sum = 0.001;
  const gui::FlameGraph g = rank_graph(p, 0);
  const QString tip = gui::flame_tooltip(g, 3);
  EXPECT_TRUE(tip.startsWith("exchange()\nprogram → main() → solve() → exchange()\n"))
      << tip.toStdString();
  EXPECT_TRUE(tip.contains("activations: 1,502, 1,500 untimed")) << tip.toStdString();
  // Throttled, it is drawn by its estimate: 1 s timed and 1,500 activations at 0.1 ms.
  EXPECT_TRUE(tip.contains("estimated inclusive (the untimed activations at the samples' mean): "
                           "1.150 s (11.5%)"))
      << tip.toStdString();
  EXPECT_DOUBLE_EQ(g.frames[3].corrected, 1.0 + 1500 * 1e-4);
  EXPECT_TRUE(gui::flame_tooltip(g, 2).contains("corrected inclusive: "))
      << "a node timed throughout";
  EXPECT_TRUE(tip.contains("mean timed activation: 500.0 ms")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("probes' charge 1.000 ms")) << tip.toStdString();
}
