// The runtime's two containers (probe_lib/src/hash_map.h, byte_buffer.h), which the CFHs,
// the probe table, the MPI layer's merge and its request table all rest on: the hash
// table against std::unordered_map under random inserts and erases (erase moves entries
// back, so every key must stay findable), its growth, a fixed table's limit; the buffer's
// values, strings and hand-over.
#include "byte_buffer.h"
#include "hash_map.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <unordered_map>
#include <vector>

namespace idb::test {
namespace {

using Map = rt::HashMap<std::uint32_t>;

void expect_same(const Map &map, const std::unordered_map<std::uint64_t, std::uint32_t> &ref,
                 std::uint64_t range) {
  ASSERT_EQ(map.size(), ref.size());
  for (std::uint64_t k = 0; k < range; ++k) {
    const std::uint32_t *v = map.find(k);
    auto it = ref.find(k);
    ASSERT_EQ(v != nullptr, it != ref.end()) << "key " << k;
    if (v) {
      EXPECT_EQ(*v, it->second) << "key " << k;
    }
  }
}

TEST(HashMap, AgreesWithAStandardMapUnderInsertsAndErases) {
  Map map;
  ASSERT_TRUE(map.init(4));
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  std::mt19937_64 random(7);
  // Keys from a small range, so runs of neighbours form and erase must move them back.
  constexpr std::uint64_t kRange = 3000;
  for (std::uint32_t step = 0; step < 40000; ++step) {
    std::uint64_t key = random() % kRange;
    if (random() % 3 == 0) {
      EXPECT_EQ(map.erase(key), ref.erase(key) == 1);
    } else {
      bool added = false;
      std::uint32_t *v = map.insert(key, step, &added);
      ASSERT_TRUE(v);
      auto [it, fresh] = ref.try_emplace(key, step);
      EXPECT_EQ(added, fresh);
      EXPECT_EQ(*v, it->second); // an existing key keeps its value
    }
    if (step % 5000 == 0) expect_same(map, ref, kRange);
  }
  expect_same(map, ref, kRange);
  map.release();
  EXPECT_EQ(map.find(1), nullptr);
}

TEST(HashMap, KeysThatShareTheirLowBitsStillSpread) {
  Map map;
  ASSERT_TRUE(map.init(1));
  // The CFHs' keys: (parent << 32) | probe, many children of one parent.
  for (std::uint32_t probe = 0; probe < 10000; ++probe)
    ASSERT_TRUE(map.insert((std::uint64_t(7) << 32) | probe, probe));
  for (std::uint32_t probe = 0; probe < 10000; ++probe) {
    const std::uint32_t *v = map.find((std::uint64_t(7) << 32) | probe);
    ASSERT_TRUE(v);
    EXPECT_EQ(*v, probe);
  }
  EXPECT_EQ(map.find(std::uint64_t(8) << 32), nullptr);
  map.release();
}

TEST(HashMap, AFixedTableRefusesPastThreeQuartersAndTakesAgainAfterAnErase) {
  Map::Slot storage[16];
  Map map;
  map.init_fixed(storage, 16);
  for (std::uint64_t k = 0; k < 12; ++k)
    ASSERT_TRUE(map.insert(k * 1000, std::uint32_t(k))) << k;
  EXPECT_EQ(map.insert(99, 1), nullptr);
  EXPECT_TRUE(map.insert(5000, 0)); // present: found, not added
  EXPECT_TRUE(map.erase(3000));
  EXPECT_FALSE(map.erase(3000));
  EXPECT_TRUE(map.insert(99, 1));
  EXPECT_EQ(map.size(), 12u);
  map.release(); // leaves the caller's storage alone
}

TEST(ByteBuffer, HoldsValuesAndStringsAndHandsThemOver) {
  rt::ByteBuffer b;
  b.put(std::uint32_t(0x01020304));
  b.put_text("abc");
  b.put_text(nullptr);
  b.put(1.5);
  ASSERT_FALSE(b.failed);
  ASSERT_EQ(b.size, 4u + 4 + 3 + 4 + 8);
  std::uint32_t length = 0;
  std::memcpy(&length, b.data + 4, 4);
  EXPECT_EQ(length, 3u);
  EXPECT_EQ(0, std::memcmp(b.data + 8, "abc", 3));
  std::vector<unsigned char> big(100000, 7);
  b.put(big.data(), big.size()); // grows past its first 4 KiB
  EXPECT_EQ(b.size, 23u + big.size());
  EXPECT_EQ(b.data[b.size - 1], 7);
  std::size_t size = b.size;
  unsigned char *bytes = b.take();
  EXPECT_EQ(b.size, 0u);
  EXPECT_EQ(b.data, nullptr);
  EXPECT_EQ(bytes[size - 1], 7);
  std::free(bytes);
  b.put(std::uint8_t(1));
  b.clear();
  EXPECT_EQ(b.size, 0u);
}

} // namespace
} // namespace idb::test
