// Stable probe IDs. An ID is a hash of what names a probe site without its position:
// the file's base name, the enclosing function's signature, the kind, and a key (the
// callee and its ordinal among calls to it, or the loop's ordinal), so that editing other
// code of a file does not renumber its probes (DESIGN §4).
#pragma once

#include <string>

namespace idb::instr {

// A positive 31-bit ID (never 0, the root's). Pure function; thread-safe.
int probe_id(const std::string &file, const std::string &function, const char *kind,
             const std::string &key);

// The last component of a path ("a/b/c.c" -> "c.c").
std::string base_name(const std::string &path);

} // namespace idb::instr
