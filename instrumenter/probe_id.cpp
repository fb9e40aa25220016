// FNV-1a over the site's name parts, folded to 31 bits.
#include "probe_id.hpp"

#include <cstdint>

namespace idb::instr {

namespace {
void mix(std::uint64_t &hash, const std::string &text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  // A separator no name contains, so ("ab","c") and ("a","bc") differ.
  hash ^= 0xffU;
  hash *= 1099511628211ULL;
}
} // namespace

int probe_id(const std::string &file, const std::string &function, const char *kind,
             const std::string &key) {
  std::uint64_t hash = 14695981039346656037ULL;
  mix(hash, base_name(file));
  mix(hash, function);
  mix(hash, kind);
  mix(hash, key);
  auto folded = static_cast<std::uint32_t>((hash >> 31) ^ hash) & 0x7fffffffU;
  return folded == 0 ? 1 : static_cast<int>(folded);
}

std::string base_name(const std::string &path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace idb::instr
