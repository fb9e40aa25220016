// The file system behind pragma_macros.hpp: a proxy that reads each file once, keeps the
// ones it respells in memory, and passes every other request through.
#include "pragma_macros.hpp"

#include "edits.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Chrono.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <cctype>
#include <map>
#include <mutex>

namespace idb::instr {

namespace {

std::size_t skip_blanks(const std::string &s, std::size_t i, std::size_t end) {
  while (i < end && (s[i] == ' ' || s[i] == '\t'))
    ++i;
  return i;
}

bool word_at(const std::string &s, std::size_t i, std::size_t end, const char *word) {
  std::size_t n = std::char_traits<char>::length(word);
  return i + n <= end && s.compare(i, n, word) == 0 &&
         (i + n == end || !(std::isalnum(static_cast<unsigned char>(s[i + n])) || s[i + n] == '_'));
}

// The respelled line [begin, end) when it is `#define NAME #pragma REST`, else "".
std::string respell(const std::string &s, std::size_t begin, std::size_t end) {
  if (end > begin && s[end - 1] == '\\') return ""; // continued: left alone
  std::size_t i = skip_blanks(s, begin, end);
  if (i == end || s[i] != '#') return "";
  i = skip_blanks(s, i + 1, end);
  if (!word_at(s, i, end, "define")) return "";
  i = skip_blanks(s, i + 6, end);
  std::size_t name = i;
  while (i < end && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_'))
    ++i;
  if (i == name || i == end || (s[i] != ' ' && s[i] != '\t')) return ""; // function-like
  std::string head = s.substr(begin, i - begin);
  i = skip_blanks(s, i, end);
  if (i == end || s[i] != '#') return "";
  i = skip_blanks(s, i + 1, end);
  if (!word_at(s, i, end, "pragma")) return "";
  std::size_t rest = skip_blanks(s, i + 6, end);
  std::size_t stop = end;
  while (stop > rest && (s[stop - 1] == ' ' || s[stop - 1] == '\t' || s[stop - 1] == '\r'))
    --stop;
  return head + " _Pragma(\"" + c_string(s.substr(rest, stop - rest)) + "\")";
}

class PragmaMacroFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  PragmaMacroFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                        const std::vector<std::string> &sources)
      : ProxyFileSystem(std::move(base)), memory_(new llvm::vfs::InMemoryFileSystem) {
    for (const std::string &source : sources)
      seen_[source] = false;
  }

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override {
    std::string key;
    if (respelled(path, key)) return memory_->status(key);
    return ProxyFileSystem::status(path);
  }

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &path) override {
    std::string key;
    if (respelled(path, key)) return memory_->openFileForRead(key);
    return ProxyFileSystem::openFileForRead(path);
  }

private:
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory_;
  std::map<std::string, bool> seen_;
  std::mutex mutex_;

  // Whether `path` reads respelled, from memory_ under `key`: decided once per path.
  bool respelled(const llvm::Twine &path, std::string &key) {
    llvm::SmallString<256> absolute;
    path.toVector(absolute);
    if (!llvm::sys::path::is_absolute(absolute)) {
      auto cwd = getCurrentWorkingDirectory();
      if (cwd) llvm::sys::fs::make_absolute(*cwd, absolute);
    }
    llvm::sys::path::remove_dots(absolute, true);
    key = std::string(absolute.str());
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = seen_.find(key); it != seen_.end()) return it->second;
    bool changed = false;
    auto file = ProxyFileSystem::openFileForRead(path);
    if (file) {
      auto buffer = (*file)->getBuffer(key);
      if (buffer) {
        std::string text = (*buffer)->getBuffer().str();
        if (text.find("pragma") != std::string::npos) {
          std::string spelled = spell_pragma_macros(text);
          if (spelled != text) {
            auto st = (*file)->status();
            memory_->addFile(key, st ? llvm::sys::toTimeT(st->getLastModificationTime()) : 0,
                             llvm::MemoryBuffer::getMemBufferCopy(spelled, key));
            changed = true;
          }
        }
      }
    }
    seen_[key] = changed;
    return changed;
  }
};

} // namespace

std::string spell_pragma_macros(const std::string &text) {
  std::string out;
  std::size_t begin = 0;
  bool changed = false;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = respell(text, begin, end);
    if (line.empty()) {
      out.append(text, begin, end - begin);
    } else {
      out += line;
      changed = true;
    }
    if (end < text.size()) out += '\n';
    begin = end + 1;
  }
  return changed ? out : text;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
pragma_macro_filesystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                        const std::vector<std::string> &sources) {
  return new PragmaMacroFileSystem(std::move(base), sources);
}

} // namespace idb::instr
