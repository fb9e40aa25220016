// A run's trees in other tools' formats: collapsed stacks (flamegraph.pl, inferno,
// speedscope) and Hatchet's literal tree format (GraphFrame.from_literal). Pure functions
// of their arguments: thread-safe, no I/O.
#pragma once

#include "idb/analysis/trees.hpp"
#include "idb/profile.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace idb::analysis {

// `text` as a JSON string literal, quotes included: `"` and `\` escaped, control
// characters as \n, \r, \t or \u00XX.
std::string json_string(std::string_view text);

// Each node's own time without the probes' cost: its corrected time less its children's
// (profile::node_times), never below zero, a throttled node's time being its estimate
// (NodeTimes::corrected_all). One entry per node of `cfh`.
std::vector<double> corrected_exclusive(const profile::Cfh &cfh);

// Collapsed stacks of `cfh`: per node whose corrected exclusive time is at least half a
// microsecond, one line "root;child;...;node WEIGHT", the frames the nodes' labels from
// the root down (a ';' in a label becomes ','), WEIGHT that time in whole microseconds;
// depth first in node order. A named CFH's root has no line of its own: it spans its
// object's life, which is not time the program spent there.
std::string folded_stacks(const profile::Profile &run, const profile::Cfh &cfh);

// Hatchet's literal format: a JSON array with one tree per entry of `trees`. Each node is
// {"frame": {"name", "type", "file", "line"}, "metrics": {...}, "children": [...]}: type
// "program" for a root, else "function", "loop", "call" or "comm" by the probe's kind;
// file and line only when the probe has them. Metrics, the same keys on every node, in
// seconds: "time (inc)" and "time" (inclusive and exclusive), "corrected (inc)" and
// "corrected" (without the probes' cost; a throttled node's estimate, NodeTimes::
// corrected_all), "noise", and "count" (every activation).
// A root's name is its label followed by the tree's title in brackets, so trees stay
// apart; other nodes carry a "_hatchet_nid" metric, unique in the document, since Hatchet
// otherwise takes nodes with equal frames for one node.
std::string hatchet_literal(const profile::Profile &run, const std::vector<Tree> &trees);

} // namespace idb::analysis
