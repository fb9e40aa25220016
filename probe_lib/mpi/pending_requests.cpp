// The table of receives in flight (pending_requests.h): 8,192 slots of linear probing, filled
// to three quarters at most, deletion by shifting the entries that follow back (no
// tombstones, so the table never silts up), all under one mutex. A request handle is a
// pointer (Open MPI) or an int (MPICH); its bytes, zero-extended, are the key.
#include "pending_requests.h"

#include <pthread.h>

#include <cstring>

namespace idb::mpi {

std::atomic<std::uint32_t> pending_live{0};

namespace {

static_assert(sizeof(MPI_Request) <= sizeof(std::uint64_t), "a request handle fits 64 bits");

constexpr std::uint32_t kSlots = 8192, kMask = kSlots - 1, kMaxUsed = kSlots / 4 * 3;

struct Slot {
  std::uint64_t key;
  std::uint64_t sent; // a persistent send's bytes per start; 0 for a receive
  bool used, persistent, send;
};

pthread_mutex_t lock_ = PTHREAD_MUTEX_INITIALIZER;
Slot slots_[kSlots];
std::uint32_t used_ = 0; // under lock_; pending_live mirrors it

std::uint64_t key_of(MPI_Request request) {
  std::uint64_t key = 0;
  // The handle's own bytes, whether it is a pointer (Open MPI) or an int (MPICH).
  std::memcpy(&key, &request, sizeof request); // NOLINT(bugprone-sizeof-expression)
  return key;
}

std::uint32_t home(std::uint64_t key) {
  return std::uint32_t((key * 0x9E3779B97F4A7C15ull) >> 51) & kMask;
}

// The slot holding `key`, or the free slot where it would go.
std::uint32_t find(std::uint64_t key) {
  std::uint32_t s = home(key);
  while (slots_[s].used && slots_[s].key != key)
    s = (s + 1) & kMask;
  return s;
}

// Empties slot `s` and moves back the entries of its run that would no longer be found.
void erase(std::uint32_t s) {
  slots_[s].used = false;
  for (std::uint32_t next = (s + 1) & kMask; slots_[next].used; next = (next + 1) & kMask) {
    std::uint32_t h = home(slots_[next].key);
    // Leave the entry where it is when its home lies cyclically in (s, next].
    bool stays = s <= next ? (s < h && h <= next) : (s < h || h <= next);
    if (stays) continue;
    slots_[s] = slots_[next];
    slots_[next].used = false;
    s = next;
  }
  --used_;
  pending_live.store(used_, std::memory_order_relaxed);
}

class Guard {
public:
  Guard() { pthread_mutex_lock(&lock_); }
  ~Guard() { pthread_mutex_unlock(&lock_); }
  Guard(const Guard &) = delete;
  Guard &operator=(const Guard &) = delete;
};

// Puts `slot` (its key set) in the table, over an entry with the same key.
bool put(const Slot &slot) {
  Guard guard;
  std::uint32_t s = find(slot.key);
  if (!slots_[s].used) {
    if (used_ >= kMaxUsed) return false;
    ++used_;
    pending_live.store(used_, std::memory_order_relaxed);
  }
  slots_[s] = slot;
  return true;
}

} // namespace

bool pending_add(MPI_Request request, bool persistent) {
  if (request == MPI_REQUEST_NULL) return true;
  return put({key_of(request), 0, true, persistent, false});
}

bool pending_add_send(MPI_Request request, std::uint64_t bytes) {
  if (request == MPI_REQUEST_NULL) return true;
  return put({key_of(request), bytes, true, true, true});
}

std::uint64_t pending_started(MPI_Request request) {
  if (!pending_any() || request == MPI_REQUEST_NULL) return 0;
  Guard guard;
  std::uint32_t s = find(key_of(request));
  return slots_[s].used && slots_[s].send ? slots_[s].sent : 0;
}

bool pending_take(MPI_Request request) {
  if (!pending_any() || request == MPI_REQUEST_NULL) return false;
  Guard guard;
  std::uint32_t s = find(key_of(request));
  if (!slots_[s].used || slots_[s].send) return false;
  if (!slots_[s].persistent) erase(s);
  return true;
}

void pending_forget(MPI_Request request) {
  if (!pending_any() || request == MPI_REQUEST_NULL) return;
  Guard guard;
  std::uint32_t s = find(key_of(request));
  if (slots_[s].used) erase(s);
}

std::uint64_t pending_completed(MPI_Request request, const MPI_Status &status) {
  if (!pending_take(request)) return 0;
  int cancelled = 0, bytes = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  if (cancelled || status.MPI_SOURCE == MPI_PROC_NULL) return 0;
  PMPI_Get_count(&status, MPI_BYTE, &bytes);
  return bytes > 0 ? std::uint64_t(bytes) : 0;
}

} // namespace idb::mpi
