// Reading the MPI layer's messages: a bounded reader of fixed-size values and strings
// (malloc-free, no exceptions: the layer is linked as C like the runtime). They are
// written with the runtime's ByteBuffer.
#pragma once

#include "byte_buffer.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace idb::mpi {

// The runtime's growable buffer carries the layer's messages too.
using rt::ByteBuffer;

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
