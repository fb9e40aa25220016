// The one growable byte buffer of the runtime and the MPI layer: the profile writer's
// sections and the MPI layer's messages. malloc/realloc, no exceptions: once memory runs
// out the buffer stays `failed` and ignores further puts, so a writer checks once at the
// end. Values go in as their bytes (little-endian on the machines IDB supports); strings
// as a u32 length and their bytes (docs/profile-format.md). Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace idb::rt {

struct ByteBuffer {
  unsigned char *data = nullptr;
  std::size_t size = 0, capacity = 0;
  bool failed = false; // memory ran out: the content is incomplete

  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer &) = delete;
  ByteBuffer &operator=(const ByteBuffer &) = delete;
  ~ByteBuffer() { std::free(data); }

  // Room for `total` bytes in all; false (and failed) when memory ran out.
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
  // A string as its u32 length and bytes; nullptr as the empty string.
  void put_text(const char *text, std::size_t n) {
    put(std::uint32_t(n));
    put(text, n);
  }
  void put_text(const char *text) { put_text(text ? text : "", text ? std::strlen(text) : 0); }
  // Empty again, keeping the memory.
  void clear() { size = 0; }
  // Hands the bytes to the caller, who frees them; the buffer is empty again.
  unsigned char *take() {
    unsigned char *p = data;
    data = nullptr;
    size = capacity = 0;
    return p;
  }
};

} // namespace idb::rt
