// Finding and reading a probe's source file (source_lookup.hpp).
#include "source_lookup.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace idb::gui {

namespace fs = std::filesystem;

namespace {

bool readable_file(const fs::path &p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return false;
  std::ifstream in(p, std::ios::binary);
  return bool(in);
}

} // namespace

SourceLookup find_source(const std::string &file, const std::string &cwd, const std::string &root) {
  SourceLookup lookup;
  if (file.empty()) return lookup;
  auto attempt = [&lookup](const fs::path &candidate) {
    const std::string text = candidate.lexically_normal().string();
    for (const std::string &t : lookup.tried)
      if (t == text) return false;
    lookup.tried.push_back(text);
    if (!readable_file(candidate)) return false;
    lookup.found = text;
    return true;
  };
  const fs::path recorded(file);
  if (recorded.is_absolute()) {
    if (attempt(recorded)) return lookup;
  } else if (!cwd.empty()) {
    if (attempt(fs::path(cwd) / recorded)) return lookup;
  } else if (attempt(recorded)) {
    return lookup;
  }
  if (root.empty()) return lookup;
  // Under the root: the recorded path (made absolute by the run's directory) without its
  // first component, then without two, ... down to the file name alone.
  fs::path full = recorded.is_absolute() || cwd.empty() ? recorded : fs::path(cwd) / recorded;
  std::vector<fs::path> parts;
  for (const fs::path &part : full.relative_path().lexically_normal())
    parts.push_back(part);
  for (std::size_t skip = 0; skip < parts.size(); ++skip) {
    fs::path tail;
    for (std::size_t i = skip; i < parts.size(); ++i)
      tail /= parts[i];
    if (attempt(fs::path(root) / tail)) return lookup;
  }
  return lookup;
}

std::string read_source(const std::string &path, std::string &error, std::size_t limit) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) {
    error = "cannot read " + path + ": " + ec.message();
    return {};
  }
  if (size > limit) {
    error = path + " is " + std::to_string(size) + " bytes, more than a source file's " +
            std::to_string(limit) + " shown";
    return {};
  }
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    error = "cannot read " + path;
    return {};
  }
  if (text.find('\0') != std::string::npos) {
    error = path + " is not a text file";
    return {};
  }
  return text;
}

} // namespace idb::gui
