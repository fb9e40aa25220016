#include "index_cache.hpp"

#include "output_files.hpp"
#include "tool.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace idb::instr {

namespace fs = std::filesystem;

namespace {

constexpr const char *kCacheHead = "idb-index 2";

// The cache's bound when IDB_INDEX_MAX_MB does not set one, in megabytes of disk.
constexpr double kDefaultMaxMegabytes = 100;
// The cache is looked over at most this often (a stamp file's age says when it was last).
constexpr auto kTrimInterval = std::chrono::minutes(10);
// A cache over its bound keeps this share of it: the most recently used entries.
constexpr double kTrimKeeps = 0.8;
constexpr const char *kTrimStamp = ".trimmed";

// IDB_INDEX_MAX_MB as bytes: a number of megabytes over 0; anything else is reported (once
// per process) and the default kept.
std::uintmax_t max_cache_bytes() {
  static const std::uintmax_t bytes = [] {
    double megabytes = kDefaultMaxMegabytes;
    if (const char *text = std::getenv("IDB_INDEX_MAX_MB"); text && *text) {
      char *end = nullptr;
      errno = 0;
      double value = std::strtod(text, &end);
      if (errno == 0 && end && *end == '\0' && value > 0 && value < 1e9)
        megabytes = value;
      else
        std::fprintf(stderr,
                     "idb: IDB_INDEX_MAX_MB=%s is not a size in megabytes over 0; the program "
                     "index cache keeps its bound of %g MB\n",
                     text, kDefaultMaxMegabytes);
    }
    return std::uintmax_t(megabytes * 1024 * 1024);
  }();
  return bytes;
}

std::string cache_folder() {
  if (!program_index_wanted()) return "";
  max_cache_bytes(); // a bad bound is reported whenever the cache is used
  if (const char *dir = std::getenv("IDB_INDEX_DIR"); dir && *dir) return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/idb/index";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/idb/index";
  return "";
}

// A file's state as the cache compares it: modification time in nanoseconds and size.
std::string stamp(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "";
  return std::to_string(std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec) + "\t" +
         std::to_string(st.st_size);
}

// The running instrumenter: its executable's size and modification time. A rebuilt or
// reinstalled one may summarize differently while IDB_VERSION stays the same between
// releases, so each executable reads only the entries it wrote.
const std::string &tool_identity() {
  static const std::string identity = [] {
    struct stat st {};
    if (::stat("/proc/self/exe", &st) != 0) return std::string();
    return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec);
  }();
  return identity;
}

// The cache entry of `source` parsed with `flags` by this instrumenter: FNV-1a over its
// version and identity, the source and the flags (another version's analysis may
// summarize differently).
std::string entry_path(const std::string &folder, const std::string &source,
                       const std::vector<std::string> &flags) {
  std::uint64_t hash = 14695981039346656037ull;
  auto mix = [&](const std::string &text) {
    for (unsigned char c : text)
      hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xff) * 1099511628211ull; // a separator no argument holds
  };
  mix(IDB_VERSION);
  mix(tool_identity());
  mix(source);
  for (const std::string &flag : flags)
    mix(flag);
  std::ostringstream name;
  name << folder << '/' << std::hex << hash << ".sum";
  return name.str();
}

// The cached summary when every file it was made from is as it was then.
std::optional<UnitSummary> load(const std::string &entry) {
  std::ifstream in(entry, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line) || line != kCacheHead) return std::nullopt;
  std::ostringstream rest;
  while (std::getline(in, line)) {
    if (line.rfind("S\t", 0) != 0) {
      rest << line << '\n' << in.rdbuf();
      break;
    }
    std::size_t path_at = line.find('\t', line.find('\t', 2) + 1);
    if (path_at == std::string::npos) return std::nullopt;
    if (line.substr(2, path_at - 2) != stamp(line.substr(path_at + 1))) return std::nullopt;
  }
  UnitSummary summary;
  if (!parse_summary(rest.str(), summary)) return std::nullopt;
  return summary;
}

// Keeps the cache folder under its bound (max_cache_bytes): past it, removes the entries
// used least recently until it holds kTrimKeeps of it. An entry's last use is its access
// time, which the kernel sets at the first read after a write and then at most daily
// (relatime), or its modification time where that is later (a folder mounted noatime).
// Runs at most once per kTrimInterval per folder, after a new entry was written; a race
// with another compile's trim, or an entry it cannot remove, only leaves more.
void trim(const std::string &folder) {
  std::error_code ec;
  const fs::path stamp = fs::path(folder) / kTrimStamp;
  const auto now = fs::file_time_type::clock::now();
  if (auto last = fs::last_write_time(stamp, ec); !ec && now - last < kTrimInterval) return;
  write_file_atomically(stamp.string(), ""); // the next compiles skip the look
  struct Entry {
    std::int64_t used; // nanoseconds since the epoch
    std::uintmax_t bytes;
    std::string path;
  };
  std::vector<Entry> entries;
  std::uintmax_t total = 0;
  fs::directory_iterator it(folder, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".sum") continue;
    struct stat st {};
    if (stat(it->path().c_str(), &st) != 0) continue;
    auto ns = [](const timespec &t) { return std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec; };
    std::uintmax_t bytes = std::uintmax_t(st.st_blocks) * 512;
    entries.push_back({std::max(ns(st.st_atim), ns(st.st_mtim)), bytes, it->path().string()});
    total += bytes;
  }
  const std::uintmax_t bound = max_cache_bytes();
  if (total <= bound) return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  const auto keep = std::uintmax_t(double(bound) * kTrimKeeps);
  for (const Entry &e : entries) {
    if (total <= keep) break;
    if (fs::remove(e.path, ec)) total -= e.bytes;
  }
}

// Writes the entry unless it holds the same already (the compile of a file whose entry its
// folder's index made a moment ago, or a build that changed nothing); a new entry may make
// the folder trim itself.
void store(const std::string &entry, const std::string &source, const UnitSummary &summary) {
  std::string text = std::string(kCacheHead) + "\n";
  std::vector<std::string> inputs = summary.inputs;
  if (inputs.empty()) inputs.push_back(source); // a file that did not parse: until it changes
  for (const std::string &input : inputs) {
    std::string now = stamp(input);
    if (now.empty()) return; // gone already: nothing worth keeping
    text.append("S\t").append(now).append("\t").append(input).append("\n");
  }
  text += summary_text(summary);
  {
    std::ifstream in(entry, std::ios::binary);
    std::ostringstream old;
    old << in.rdbuf();
    if (in && old.str() == text) return;
  }
  std::error_code ec;
  const bool fresh = !fs::exists(entry, ec);
  fs::create_directories(fs::path(entry).parent_path(), ec);
  write_file_atomically(entry, text); // a cache: if it cannot be written, the next parses again
  if (fresh) trim(fs::path(entry).parent_path().string());
}

// Parses `source` in a child process that sends its summary back through a pipe, and
// keeps it as `entry`: a source that is not the build's to compile must not be able to end
// it, even by crashing Clang. A source that does not parse, or whose parse crashes, has an
// empty summary until it changes.
UnitSummary summarize_apart(const std::string &entry, const std::string &source,
                            const std::vector<std::string> &flags) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    close(pipe_fds[0]);
    std::optional<UnitSummary> parsed = summarize_file(source, flags);
    std::string text = parsed ? summary_text(*parsed) : "";
    for (std::size_t at = 0; at < text.size();) {
      ssize_t n = write(pipe_fds[1], text.data() + at, text.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(1);
      at += std::size_t(n);
    }
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string text;
  char buffer[65536];
  while (pid > 0) {
    ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
    if (n > 0)
      text.append(buffer, std::size_t(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  close(pipe_fds[0]);
  int status = 0;
  if (pid > 0)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  if (pid < 0) return {}; // no process to parse it in: unknown this time
  UnitSummary summary;
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) || !parse_summary(text, summary))
    summary = {};
  store(entry, source, summary);
  return summary;
}

bool language_source(const fs::path &path, bool cxx) {
  std::string ext = path.extension().string();
  if (!cxx) return ext == ".c";
  return ext == ".cc" || ext == ".cpp" || ext == ".cxx" || ext == ".C" || ext == ".c++";
}

} // namespace

std::optional<ProgramIndex> folder_index(const std::string &source, bool cxx,
                                         const std::vector<std::string> &flags) {
  std::string folder = cache_folder();
  if (folder.empty()) return std::nullopt;
  std::error_code ec;
  fs::path self = fs::absolute(source, ec).lexically_normal();
  if (ec) return std::nullopt;
  std::vector<std::string> siblings;
  fs::directory_iterator it(self.parent_path(), ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && language_source(it->path(), cxx) && it->path() != self)
      siblings.push_back(it->path().string());
  }
  if (ec || siblings.size() > kMaxIndexedSources) return std::nullopt;
  std::sort(siblings.begin(), siblings.end());
  // Begin after this source, so that the jobs of a parallel build parse different files
  // first; each looks in the cache again just before it parses.
  auto after = std::upper_bound(siblings.begin(), siblings.end(), self.string());
  std::rotate(siblings.begin(), after, siblings.end());
  ProgramIndex index;
  for (const std::string &sibling : siblings) {
    std::string entry = entry_path(folder, sibling, flags);
    std::optional<UnitSummary> summary = load(entry);
    if (!summary) summary = summarize_apart(entry, sibling, flags);
    index.add(*summary);
  }
  return index;
}

void keep_summary(const std::string &source, const std::vector<std::string> &flags,
                  const std::string &summary) {
  std::string folder = cache_folder();
  UnitSummary parsed;
  std::error_code ec;
  fs::path self = fs::absolute(source, ec).lexically_normal();
  if (folder.empty() || ec || !parse_summary(summary, parsed)) return;
  // The unit names its main file as the command did, perhaps relative to where the build
  // runs; the entry is read from other folders too.
  for (std::string &input : parsed.inputs)
    if (fs::path path(input); path.is_relative())
      input = fs::absolute(path, ec).lexically_normal().string();
  store(entry_path(folder, self.string(), flags), self.string(), parsed);
}

} // namespace idb::instr
