// A growing byte buffer for the MPI layer's messages (malloc, no exceptions: the layer is
// linked as C like the runtime), with little-endian puts and a bounded reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace idb::mpi {

struct Blob {
  unsigned char *data = nullptr;
  std::size_t size = 0, capacity = 0;
  bool failed = false; // memory ran out: the content is incomplete

  Blob() = default;
  Blob(const Blob &) = delete;
  Blob &operator=(const Blob &) = delete;
  ~Blob() { std::free(data); }

  bool reserve(std::size_t total) {
    if (failed) return false;
    if (total <= capacity) return true;
    std::size_t cap = capacity ? capacity : 4096;
    while (cap < total)
      cap *= 2;
    auto *p = static_cast<unsigned char *>(std::realloc(data, cap));
    if (!p) return !(failed = true);
    data = p;
    capacity = cap;
    return true;
  }
  void put(const void *bytes, std::size_t n) {
    if (n == 0 || !reserve(size + n)) return;
    std::memcpy(data + size, bytes, n);
    size += n;
  }
  template <class T> void put(T value) { put(&value, sizeof value); }
  void clear() { size = 0; }
};

// Reads fixed-size values and strings from a byte range; `ok` turns false at the first
// read past the end and stays so.
struct Reader {
  const unsigned char *at;
  const unsigned char *end;
  bool ok = true;

  template <class T> T get() {
    T value{};
    if (!ok || std::size_t(end - at) < sizeof value) {
      ok = false;
      return value;
    }
    std::memcpy(&value, at, sizeof value);
    at += sizeof value;
    return value;
  }
  // A u32-length string copied into `out` (NUL-terminated, cut to `size` - 1 bytes).
  void text(char *out, std::size_t size) {
    auto n = get<std::uint32_t>();
    if (!ok || std::size_t(end - at) < n) {
      ok = false;
      out[0] = '\0';
      return;
    }
    std::size_t keep = n < size - 1 ? n : size - 1;
    std::memcpy(out, at, keep);
    out[keep] = '\0';
    at += n;
  }
  const unsigned char *skip(std::size_t n) {
    if (!ok || std::size_t(end - at) < n) {
      ok = false;
      return nullptr;
    }
    const unsigned char *p = at;
    at += n;
    return p;
  }
};

} // namespace idb::mpi
