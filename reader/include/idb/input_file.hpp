// Reading an input file whole, bounded: what every IDB reader of a named file (profiles,
// experiment definition files, selections) goes through, so that a FIFO, a device or a
// folder named by mistake is refused at once instead of blocking or reading without end.
#pragma once

#include <cstddef>
#include <string>

namespace idb::files {

// Reads the regular file at `path` into `text`. Refuses, without blocking and before
// reading, what is not a regular file (a folder, FIFO, device or socket) and a file of more
// than `limit` bytes. Returns "" or why not, for the caller to put after the path: "No such
// file or directory", "a folder, not a file", "a FIFO, not a regular file", "20000000
// bytes, over the limit of 16777216". Thread-safe.
std::string read_input_file(const std::string &path, std::size_t limit, std::string &text);

} // namespace idb::files
