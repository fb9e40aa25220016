// Trees side by side, node by node: what changed between a baseline run and another, or
// between two groups of repeated runs, where Welch's test says which changes the runs'
// spread explains (`idb report RUN --diff OTHER`, the GUI's Diff tab). Pure functions of
// their arguments: thread-safe, no I/O, no throws except std::bad_alloc.
#pragma once

#include "idb/profile.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace idb::analysis {

// One node of either side. A side none of whose runs has the node has `in_a` (or `in_b`)
// false and zeros for its numbers. With a group of runs a side, its numbers are the means
// over its runs, a run without the node counting as zero (it spent no time there).
struct DiffRow {
  std::uint32_t parent = profile::kNoParent; // index into the rows; kNoParent for the root
  std::size_t depth = 0;
  std::string label; // node_label, of the baseline's node where both have it
  std::string path;  // the labels from the root down, joined by ';'
  bool in_a = false, in_b = false;
  double a = 0, b = 0;                    // corrected inclusive seconds (profile::node_times)
  double a_self = 0, b_self = 0;          // corrected exclusive seconds (never below zero)
  std::uint64_t count_a = 0, count_b = 0; // activations, timed or not (a mean, rounded)
  std::int32_t probe = 0;                 // the baseline's probe, else the other's
  // Over the runs of each side (with one run a side: NaN): the sample standard deviation
  // of the corrected inclusive time, and Welch's two-sided p of the difference of the
  // means. `significant`: p under the diff's alpha; with one run on either side, true
  // (nothing tells a change from the spread, so every change is shown).
  double sd_a = std::nan(""), sd_b = std::nan(""), p = std::nan("");
  bool significant = true;

  double difference() const { return b - a; }
  // b / a; NaN when the node is missing from either side or a is 0.
  double ratio() const;
};

// One run of a side: its profile and the tree compared (usually the run as a whole).
struct DiffRun {
  const profile::Profile *run = nullptr;
  const profile::Cfh *cfh = nullptr;
};

inline constexpr double kDiffAlpha = 0.05; // the significance level of the group diff

// The nodes of `ta` (of run `a`, the baseline) and `tb` (of run `b`) matched from the
// roots down by their labels, which name each probe's description and source location,
// so runs of two builds of a program (whose probe ids differ) still match; the roots always
// match each other. Where one parent has several children of one label, they pair in
// order. Depth first, parents before children; under each node first the children the
// baseline has (in its node order), then those only the other run has (in its order).
// Empty when both trees are.
std::vector<DiffRow> diff_trees(const profile::Profile &a, const profile::Cfh &ta,
                                const profile::Profile &b, const profile::Cfh &tb);

// The same over a group of runs a side (each side at least one run): the trees of every
// run matched as above, the baseline's runs first, in order; each row's numbers are means
// over its side's runs, with their spread and, where both sides have two runs or more,
// Welch's test at `alpha`. With one run a side, diff_trees' rows exactly; none when a side
// has no run.
std::vector<DiffRow> diff_groups(const std::vector<DiffRun> &a, const std::vector<DiffRun> &b,
                                 double alpha = kDiffAlpha);

// The runs one side of a diff names among `labels` (every stored run, in load order): the
// run labelled `name`; else, when `name` holds '*', '?' or '[', the runs it matches as a
// label pattern (fnmatch(3), as an .edf's [DBLIST] reads it), in load order. Empty when
// it names none.
std::vector<std::string> diff_side_labels(const std::vector<std::string> &labels,
                                          const std::string &name);
// The runs to read for that side: diff_side_labels, or `name` itself when it is no label
// pattern (reading it says why it names no run: it may also have been stored since
// `labels` were listed). Empty only for a pattern that matches no label; `location`
// names the database in `why`.
std::vector<std::string> diff_side_reads(const std::vector<std::string> &labels,
                                         const std::string &name, const std::string &location,
                                         std::string &why);

// Whether `name` is a label pattern: it holds '*', '?' or '[' (fnmatch(3)).
bool is_label_pattern(const std::string &name);

// How strongly a row stands out, from -1 (much faster in b) to 1 (much slower, or only in
// b): the log2 of its ratio clamped to ±1 (twice or half as long is the end of the scale;
// a node missing on one side is ±1), or 0 when its change is under `floor` of the larger
// root's corrected time (a 50% change of a node that holds nothing is not news) or is not
// significant over the groups' runs.
double diff_weight(const DiffRow &row, double root_a, double root_b, double floor = 0.005);

// A ratio as people read it: two decimals under 10, one under 100, none above ("1.50",
// "34.8", "123"); the front ends add their sign of times.
std::string ratio_text(double ratio);

// The columns of a diff export: path, in (a, b or both), a_s, b_s, difference_s, ratio,
// a_count, b_count, a_sd_s, b_sd_s, p, significant (seconds corrected inclusive, means
// over a group; ratio, the spreads and p empty where NaN; significant yes or no, empty
// without a test).
const std::vector<std::string> &diff_export_columns();
// The cells of one exported row, beside diff_export_columns(), numbers as number_text.
std::vector<std::string> diff_export_cells(const DiffRow &row);

} // namespace idb::analysis
