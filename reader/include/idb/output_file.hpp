// Writing an output file whole: what every IDB writer of a named file (the CLI's outputs,
// the instrumenter's files, the wrappers' dependency files) goes through.
#pragma once

#include <string>

namespace idb::files {

// Writes `text` to `path`: into a temporary file beside it, then renamed over it, so that a
// reader never sees half a file and a failed write leaves the old one as it was. A path
// that names something other than a regular file (`/dev/null`, a FIFO, a terminal) is
// written in place instead: renaming over it would replace the device with a file, which
// as root breaks the whole machine's /dev/null. Returns "" or why not ("cannot write PATH:
// REASON"). Thread-safe for distinct paths.
std::string write_output_file(const std::string &path, const std::string &text);

} // namespace idb::files
