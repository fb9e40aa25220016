// The one hash table of the runtime and the MPI layer: 64-bit keys to small trivially
// copyable values, open addressing with linear probing and no tombstones (erase moves
// back the entries that follow), so a table never silts up. A table owns malloc'd slots
// and grows to stay at most half full, or works in caller-given storage of fixed size and
// refuses entries past three quarters. No exceptions, no C++ runtime, nothing allocated
// but on growth; find is inline for the probes' hot path. Not thread-safe: one owner, or
// the owner's lock.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <type_traits>

namespace idb::rt {

template <class Value> class HashMap {
  static_assert(std::is_trivially_copyable_v<Value>, "slots are copied as bytes");

public:
  static constexpr std::uint64_t kFree = ~std::uint64_t(0); // the one key that cannot be used

  struct Slot {
    std::uint64_t key; // kFree when the slot is free
    Value value;
  };

  // An owning table with room for `count` keys. False when memory ran out.
  bool init(std::uint32_t count) {
    std::uint32_t size = 16;
    while (size / 2 < count)
      size *= 2;
    return rehash(size);
  }
  // A fixed table over `size` slots (a power of two) of storage the caller keeps.
  void init_fixed(Slot *storage, std::uint32_t size) {
    slots_ = storage;
    mask_ = size - 1;
    used_ = 0;
    fixed_ = true;
    for (std::uint32_t i = 0; i < size; ++i)
      slots_[i].key = kFree;
  }
  // Frees an owning table's slots; the table is then empty and must be init'ed again.
  void release() {
    if (!fixed_) std::free(slots_);
    slots_ = nullptr;
    mask_ = used_ = 0;
  }

  // The value of `key`, or nullptr.
  Value *find(std::uint64_t key) const {
    if (!slots_) return nullptr;
    for (std::uint32_t i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == kFree) return nullptr;
    }
  }

  // The value of `key`, added as `value` when absent (`*added` says which). nullptr when
  // the table is full: memory ran out, or a fixed table is three quarters full.
  Value *insert(std::uint64_t key, const Value &value, bool *added = nullptr) {
    if (added) *added = false;
    if (Value *v = find(key)) return v;
    if (!room_for(used_ + 1)) return nullptr;
    std::uint32_t i = home(key);
    while (slots_[i].key != kFree)
      i = (i + 1) & mask_;
    slots_[i] = Slot{key, value};
    ++used_;
    if (added) *added = true;
    return &slots_[i].value;
  }

  // Removes `key`; false when it was absent.
  bool erase(std::uint64_t key) {
    if (!slots_) return false;
    std::uint32_t s = home(key);
    while (slots_[s].key != key) {
      if (slots_[s].key == kFree) return false;
      s = (s + 1) & mask_;
    }
    slots_[s].key = kFree;
    for (std::uint32_t next = (s + 1) & mask_; slots_[next].key != kFree;
         next = (next + 1) & mask_) {
      std::uint32_t h = home(slots_[next].key);
      // The entry stays when its home lies cyclically in (s, next].
      bool stays = s <= next ? (s < h && h <= next) : (s < h || h <= next);
      if (stays) continue;
      slots_[s] = slots_[next];
      slots_[next].key = kFree;
      s = next;
    }
    --used_;
    return true;
  }

  std::uint32_t size() const { return used_; }
  // Where the entries are: they move when the table grows.
  const void *slots() const { return slots_; }

private:
  // Fibonacci hashing: the product's high bits, which every key bit reaches.
  std::uint32_t home(std::uint64_t key) const {
    return std::uint32_t((key * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }
  bool room_for(std::uint32_t count) {
    std::uint32_t size = slots_ ? mask_ + 1 : 0;
    if (fixed_) return std::uint64_t(count) * 4 <= std::uint64_t(size) * 3;
    if (std::uint64_t(count) * 2 <= size) return true;
    return size < 0x80000000u && rehash(size ? size * 2 : 16);
  }
  bool rehash(std::uint32_t size) {
    auto *fresh = static_cast<Slot *>(std::malloc(sizeof(Slot) * size));
    if (!fresh) return false;
    for (std::uint32_t i = 0; i < size; ++i)
      fresh[i].key = kFree;
    Slot *old = slots_;
    std::uint32_t old_size = old ? mask_ + 1 : 0;
    slots_ = fresh;
    mask_ = size - 1;
    for (std::uint32_t i = 0; i < old_size; ++i) {
      if (old[i].key == kFree) continue;
      std::uint32_t j = home(old[i].key);
      while (slots_[j].key != kFree)
        j = (j + 1) & mask_;
      slots_[j] = old[i];
    }
    std::free(old);
    return true;
  }

  Slot *slots_ = nullptr;
  std::uint32_t mask_ = 0;
  std::uint32_t used_ = 0;
  bool fixed_ = false;
};

} // namespace idb::rt
