// The full mode's messages, without MPI (so the merge benchmark drives them directly): a
// rank's CFH sections and those of its subtree, framed as u32 section count, u64 bytes,
// the sections verbatim. A parent appends each child's sections after its own, so rank 0
// ends with every rank's, in rank order.
#pragma once

#include "blob.h"

#include <cstdint>

namespace idb::mpi {

void put_sections(ByteBuffer &out, const ByteBuffer &sections, std::uint32_t count);

// Appends the framed sections read from `in` to `sections`; false when malformed or out
// of memory.
bool take_sections(Reader &in, ByteBuffer &sections, std::uint32_t &count);

} // namespace idb::mpi
