// Test helpers shared by every suite: a temporary folder that cleans up after itself, and
// reading a whole file.
#pragma once

#include <string>
#include <utility>

namespace idb::test {

// A folder under $TMPDIR (or /tmp), removed with everything in it by the destructor.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(TempDir &&other) noexcept : path_(std::exchange(other.path_, {})) {}
  TempDir &operator=(TempDir &&) = delete;
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return path_; }
  // path()/name
  std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

// The whole content of a file; empty when it cannot be read.
std::string read_file(const std::string &path);

} // namespace idb::test
