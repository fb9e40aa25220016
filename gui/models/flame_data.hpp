// A tree of a run as a flame graph drawn as an icicle: the root across the top, each
// node's children below it side by side, every frame as wide as its node's
// noise-corrected inclusive time. What the flame view draws, searches and zooms, as plain
// values: pure functions, thread-safe, no throws except std::bad_alloc.
#pragma once

#include "idb/profile.hpp"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace idb::gui {

inline constexpr std::uint32_t kFlameTop = 0xFFFFFFFFu;

struct FlameFrame {
  std::uint32_t node = 0;           // in the tree's CFH
  std::uint32_t parent = kFlameTop; // frame index; kFlameTop for the root
  std::uint32_t depth = 0;          // 0 for the root
  std::int32_t probe = 0;
  std::string label;               // analysis::node_label
  double start = 0;                // seconds from the root's left edge
  double width = 0;                // seconds: see flame_graph
  double corrected = 0;            // the node's corrected inclusive seconds
  double self = 0;                 // its corrected exclusive seconds (never below zero)
  double inclusive = 0, noise = 0; // wall inclusive and the probes' charge, seconds
  std::uint64_t count = 0, throttled = 0;
};

struct FlameGraph {
  std::string title;              // the tree's
  std::vector<FlameFrame> frames; // depth first, parents before children; frame 0 the root
  std::uint32_t depth = 0;        // rows: the deepest frame's depth + 1; 0 when empty
};

// The frames of `cfh` (a CFH of `run` or one of its trees as a whole), titled `title`: one
// per node, each child placed after its elder siblings, which
// are ordered widest first (the hot path runs down the left edge). A frame's width is
// its node's corrected inclusive time (profile::node_times), except that children whose
// widths add up to more than their parent's are scaled down together to fit in it (a
// node's children may hold more time than the node itself: threads summed under their
// master, or data from elsewhere), so a frame never reaches past its parent. A tree
// without nodes gives no frames.
FlameGraph flame_graph(const profile::Profile &run, const profile::Cfh &cfh, std::string title);

// The frames whose label contains `text`, ignoring case (none for empty text), and the
// share of the root's width they cover, a match inside another match counted once.
struct FlameMatches {
  std::vector<bool> matched; // per frame
  std::size_t count = 0;
  double share = 0; // 0 to 1
};
FlameMatches flame_search(const FlameGraph &graph, const std::string &text);

// What a frame's tooltip says, one fact per line: its label, its path from the root, its
// activations (and how many were untimed), corrected inclusive and exclusive time with
// their share of the root's, wall inclusive time and the probes' charge, and the mean
// timed activation; times in their own unit.
QString flame_tooltip(const FlameGraph &graph, std::uint32_t frame);

} // namespace idb::gui
