// The section framing of docs/profile-format.md (type, count, length, CRC-32 of header and
// body), written once for every writer of profile sections: the runtime's writer and the
// MPI layer's merge. `Buf` is a growable byte buffer with `data`, `size`, `failed` and
// `put(const void *, std::size_t)`. Neither call allocates beyond the buffer's own growth.
#pragma once

#include "crc32.h"
#include "idb/profile_format.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace idb::rt {

// Opens a section; returns the offset of its header, for end_section.
template <typename Buf> std::size_t begin_section(Buf &b, std::uint32_t type, std::uint32_t count) {
  std::size_t at = b.size;
  unsigned char header[IDB_SECTION_HEADER_SIZE] = {};
  std::memcpy(header, &type, 4);
  std::memcpy(header + 4, &count, 4);
  b.put(header, sizeof header);
  return at;
}

// Closes the section opened at `at`: its length and checksum go into its header. Does
// nothing to a buffer that failed to grow.
template <typename Buf> void end_section(Buf &b, std::size_t at) {
  if (b.failed) return;
  unsigned char *header = b.data + at;
  std::uint64_t length = b.size - at - IDB_SECTION_HEADER_SIZE;
  std::memcpy(header + 8, &length, 8);
  std::uint32_t crc = crc32(0, header, IDB_SECTION_HEADER_SIZE);
  crc = crc32(crc, header + IDB_SECTION_HEADER_SIZE, length);
  std::memcpy(header + 16, &crc, 4);
}

// Closes it with its item count, known only now.
template <typename Buf> void end_section(Buf &b, std::size_t at, std::uint32_t count) {
  if (b.failed) return;
  std::memcpy(b.data + at + 4, &count, 4);
  end_section(b, at);
}

} // namespace idb::rt
