// The selection: which candidates get probes. Its text form (docs/instrumenter.md) is
// what an experiment definition file's [AUTOINST] section holds: `include` and `exclude`
// rules over kind, file, function, callee, loop depth and ID (the last matching rule
// wins), and settings for the thresholds that keep small functions free of probes.
#pragma once

#include "candidate.hpp"

#include <optional>
#include <string>
#include <vector>

namespace idb::instr {

struct Rule {
  bool include = true;
  std::vector<Kind> kinds;                // empty: every kind
  std::string file = "*";                 // glob on the path as given or its base name
  std::string function = "*";             // glob on the qualified function name
  std::string callee = "*";               // glob on the called name (CALL, COMM)
  int min_depth = 0, max_depth = 1 << 30; // LOOP nesting depth range
  std::optional<int> id;                  // one probe ID
  LoopMode mode = LoopMode::blackbox;     // LOOP
  unsigned line = 0;                      // where the rule was written
};

struct Selection {
  std::vector<Rule> rules;
  // PROC and LOOP: skip loop-free functions and short loops weighing less (FunctionScan's
  // weight: statements and calls through the whole body); main is never skipped.
  unsigned min_statements = 8;
  // PROC and LOOP: skip functions whose work per call is bounded (BoundedWork: no open-ended
  // loop, calls only bounded code) weighing less, and their loops; 0 turns the rule off.
  unsigned bounded_weight = 128;
  bool skip_inline = false; // PROC: also skip every function declared inline or defined in a class
  bool comm = true;         // COMM probes at all
};

struct SelectionResult {
  Selection selection;
  std::string error; // "name:line:column: message", "" when the text is valid
};

// Parses the text form; `name` prefixes error messages.
SelectionResult parse_selection(const std::string &text, const std::string &name);

// The default: every function definition of the user's files, outermost loops as black
// boxes, MPI calls as COMM, no CALL probes; loop-free functions and short loops weighing
// under 8 skipped, and so are bounded functions weighing under 128.
const char *default_selection_text();
Selection default_selection();

// How the size rule's skip reasons begin (the rules add the figures after them); the
// classifiers below and `idb tune` read them back.
inline constexpr const char *kSmallReason = "small function";
inline constexpr const char *kShortLoopReason = "short loop";
inline constexpr const char *kInlineReason = "inline function";
inline constexpr const char *kBoundedReason = "bounded function";
inline constexpr const char *kInBoundedReason = "in a bounded function";
inline constexpr const char *kNestedReason = "called in nested loops";
inline constexpr const char *kInNestedReason = "in a function called in nested loops";

// Whether `reason`, a candidate's skip reason as the rules give it, is the size rule's: a
// small or bounded function, a function called in nested loops, a loop of one of those, a
// short loop, an inline function under skip-inline. An `id=` include places such a
// candidate anyway (`idb tune` grows this way).
bool skipped_by_size_rule(const std::string &reason);

// The skip reason of a loop that is its function's whole work (docs/instrumenter.md, "The
// size rule"): its function's PROC measures the same interval. It is the size rule's, but
// nothing gains by placing it: `idb tune` grows into what the loop holds instead.
inline constexpr const char *kWholeWorkReason =
    "its function's whole work, which the PROC measures";
// Appended inside a size-rule reason's parentheses when the program index decided it.
inline constexpr const char *kThroughIndex = "; through the program index";
bool skipped_as_whole_work(const std::string &reason);

// Whether the bounded rule left out a PROC: its work per call is bounded by its text, or its
// own work is and it runs in nested loops (either way short: a few hundred ns at most under
// the rule's weight). Inside a loop a probe there costs more than `idb tune`'s target of
// that time, so tune grows such a callee only outside loops.
bool skipped_as_bounded(const std::string &reason);

// Sets `selected` and `loop_mode` of a candidate by the last rule that matches it.
void select(const Selection &selection, Candidate &candidate);

} // namespace idb::instr
