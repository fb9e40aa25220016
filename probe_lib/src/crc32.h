// CRC-32 (IEEE 802.3, reflected, as zlib computes it) for the profile format's checksums;
// shared by the runtime's writer and the reader. Thread-safe, allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idb {

// Continues `crc` (0 to start) over `size` bytes.
std::uint32_t crc32(std::uint32_t crc, const void *data, std::size_t size);

} // namespace idb
