// File output of `apply` (see output_files.hpp).
#include "output_files.hpp"

#include "manifest.hpp"

#include "idb/output_file.hpp"

#include <filesystem>

namespace idb::instr {

namespace fs = std::filesystem;

std::string output_path(const std::string &out_dir, const std::string &file) {
  fs::path rel = fs::path(file).lexically_normal();
  bool below = rel.is_relative() && !rel.empty() && *rel.begin() != "..";
  return (fs::path(out_dir) / (below ? rel : rel.filename())).string();
}

std::string write_file_atomically(const std::string &path, const std::string &text) {
  std::error_code ec;
  fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) return "cannot create folder " + target.parent_path().string() + ": " + ec.message();
  return files::write_output_file(path, text);
}

namespace {

std::string backup(const std::string &file) {
  std::string saved = file + ".idb-orig";
  if (fs::exists(saved))
    return "backup " + saved + " exists already; restore or remove it first (nothing written)";
  std::error_code ec;
  fs::copy_file(file, saved, ec);
  return ec ? "cannot back up " + file + " to " + saved + ": " + ec.message() : "";
}

} // namespace

std::string write_outputs(const std::vector<FileResult> &results, const std::string &out_dir,
                          const std::string &manifest) {
  bool in_place = out_dir.empty();
  if (in_place)
    for (const auto &r : results)
      if (fs::exists(r.file + ".idb-orig"))
        return "backup " + r.file +
               ".idb-orig exists already; restore or remove it first "
               "(nothing written)";
  for (const auto &r : results) {
    if (in_place)
      if (auto error = backup(r.file); !error.empty()) return error;
    std::string path = in_place ? r.file : output_path(out_dir, r.file);
    if (auto error = write_file_atomically(path, r.output); !error.empty()) return error;
  }
  std::string where = !manifest.empty() ? manifest
                      : in_place        ? std::string("idb-manifest.tsv")
                                        : (fs::path(out_dir) / "idb-manifest.tsv").string();
  return write_file_atomically(where, manifest_tsv(results));
}

} // namespace idb::instr
