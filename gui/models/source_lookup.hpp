// Where a probe's source file is on this machine: the path the instrumenter recorded (a
// relative one taken from the run's working directory), else under a source root the user
// chose (the recorded path's tails tried from the longest down, as a debugger's source
// path maps a build tree onto a checkout elsewhere). Every path tried is kept, so "not
// found" can say where it looked.
#pragma once

#include <string>
#include <vector>

namespace idb::gui {

struct SourceLookup {
  std::string found;              // empty when no candidate is a readable regular file
  std::vector<std::string> tried; // every candidate, in the order tried
};

// `file` as recorded for a probe; `cwd` the run's working directory (its `cwd` metadata;
// may be empty); `root` the source root (may be empty). Touches the file system only to
// test candidates.
SourceLookup find_source(const std::string &file, const std::string &cwd, const std::string &root);

// The text of `path` when it is at most `limit` bytes and holds no NUL byte; else empty
// with `error` saying why.
std::string read_source(const std::string &path, std::string &error, std::size_t limit = 16u << 20);

} // namespace idb::gui
