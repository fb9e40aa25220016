// The text around the instrumented code: the prelude that includes the probe header and
// keeps diagnostics on the original file and lines, the constructor that registers the
// file's probes with the runtime (so their names reach the profile without any runtime
// change), and the manifest file that `apply` writes beside its output.
#pragma once

#include "candidate.hpp"

#include <string>
#include <vector>

namespace idb::instr {

// The first line of every instrumented file; a file that starts with it is refused.
extern const char *const kInstrumentedMarker;

// Marker, `#include <idb/probe.h>` and `#line 1 "file"`.
std::string prelude(const std::string &file);

// A static constructor calling idb_register_probe for each placed probe; "" for none.
std::string registration(const std::vector<Candidate> &candidates);

// True for a candidate that got a probe.
inline bool placed(const Candidate &c) {
  return c.selected && c.skipped.empty();
}

// Tab-separated: a header line, then per placed probe id, kind, description, file, line,
// function.
std::string manifest_tsv(const std::vector<FileResult> &results);

// The candidates of one source as the wrappers record them for IDB_CANDIDATES
// (docs/instrumenter.md): per candidate, tab-separated, id, kind, status (`placed`, `-`
// when not selected, `skipped: REASON`), file, line, function, callee, depth, parent (the
// ID of the loop holding it, 0 for none), size (Candidate::size, `-` when unknown),
// description. No header line.
std::string candidate_lines(const std::vector<Candidate> &candidates);

} // namespace idb::instr
