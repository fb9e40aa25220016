// Writing what `apply` produced: the instrumented files (under an output folder, or over
// the originals with a backup beside each), and the manifest. Nothing is overwritten
// without a backup, and a failure leaves the originals as they were.
#pragma once

#include "candidate.hpp"

#include <string>
#include <vector>

namespace idb::instr {

// Where the output of `file` goes under `out_dir`: the same relative path when it stays
// below the current folder, else the base name.
std::string output_path(const std::string &out_dir, const std::string &file);

// Writes every result's output. `out_dir` empty means in place: each original is first
// copied to FILE.idb-orig (refused if that exists). The manifest goes to `manifest`, or
// OUT_DIR/idb-manifest.tsv, or ./idb-manifest.tsv in place. Returns "" or an error.
std::string write_outputs(const std::vector<FileResult> &results, const std::string &out_dir,
                          const std::string &manifest);

// Writes `text` to `path` through a temporary file and a rename. Returns "" or an error.
std::string write_file_atomically(const std::string &path, const std::string &text);

} // namespace idb::instr
