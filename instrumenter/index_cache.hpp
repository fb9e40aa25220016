// The compiler wrappers' program index (program_index.hpp): the summaries of the sources
// beside the one being compiled, each parsed once per change of what it reads and kept in
// a cache folder (IDB_INDEX_DIR, else $XDG_CACHE_HOME/idb/index or ~/.cache/idb/index).
// IDB_INDEX=0 turns it off. Only advice: a source that does not parse, a cache that cannot
// be written, leave the size rule where one file takes it.
#pragma once

#include "program_index.hpp"

#include <optional>
#include <string>
#include <vector>

namespace idb::instr {

// More sources than this in one folder and the index is not built: parsing them all would
// cost the first build more than it saves.
constexpr std::size_t kMaxIndexedSources = 400;

// The index of the sources of `source`'s folder written in its language (C: .c; C++:
// .cc, .cpp, .cxx, .C, .c++), except `source` itself, as `flags` (what the unit's own
// parse is given) parse them; none when turned off, past kMaxIndexedSources, or without
// a cache folder.
std::optional<ProgramIndex> folder_index(const std::string &source, bool cxx,
                                         const std::vector<std::string> &flags);

// Keeps `summary` (summary_text) as `source`'s under `flags`, for the next unit's index.
void keep_summary(const std::string &source, const std::vector<std::string> &flags,
                  const std::string &summary);

} // namespace idb::instr
