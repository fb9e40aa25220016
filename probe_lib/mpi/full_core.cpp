// The full mode's message framing.
#include "full_core.h"

namespace idb::mpi {

void put_sections(ByteBuffer &out, const ByteBuffer &sections, std::uint32_t count) {
  out.put(count);
  out.put(std::uint64_t(sections.size));
  out.put(sections.data, sections.size);
}

bool take_sections(Reader &in, ByteBuffer &sections, std::uint32_t &count) {
  auto n = in.get<std::uint32_t>();
  auto bytes = in.get<std::uint64_t>();
  const unsigned char *payload = in.skip(bytes);
  if (!in.ok) return false;
  sections.put(payload, bytes);
  count += n;
  return !sections.failed;
}

} // namespace idb::mpi
