// The table of requests in flight (pending_requests.h): the runtime's hash table over a
// fixed 8,192 slots (filled to three quarters at most), all under one mutex. A request
// handle is a pointer (Open MPI) or an int (MPICH); its bytes, zero-extended, are the key.
#include "pending_requests.h"

#include "hash_map.h"

#include <pthread.h>

#include <cstring>

namespace idb::mpi {

std::atomic<std::uint32_t> pending_live{0};

namespace {

static_assert(sizeof(MPI_Request) <= sizeof(std::uint64_t), "a request handle fits 64 bits");

constexpr std::uint32_t kSlots = 8192; // the table holds 6,144 requests at most

struct Entry {
  std::uint64_t sent;  // a persistent send's bytes per start; 0 for a receive
  std::uint32_t event; // the wait event of the latest post, 0 for none
  Envelope where;      // a persistent request's
  bool persistent, send;
};
using Table = rt::HashMap<Entry>;

pthread_mutex_t lock_ = PTHREAD_MUTEX_INITIALIZER;
Table::Slot storage_[kSlots];
Table table_; // over storage_, set up at the first use; under lock_

std::uint64_t key_of(MPI_Request request) {
  std::uint64_t key = 0;
  // The handle's own bytes, whether it is a pointer (Open MPI) or an int (MPICH).
  std::memcpy(&key, &request, sizeof request); // NOLINT(bugprone-sizeof-expression)
  return key;
}

// The table, set up on first use (under lock_).
Table &table() {
  static bool ready = false;
  if (!ready) {
    table_.init_fixed(storage_, kSlots);
    ready = true;
  }
  return table_;
}

void publish() {
  pending_live.store(table_.size(), std::memory_order_relaxed);
}

class Guard {
public:
  Guard() { pthread_mutex_lock(&lock_); }
  ~Guard() { pthread_mutex_unlock(&lock_); }
  Guard(const Guard &) = delete;
  Guard &operator=(const Guard &) = delete;
};

// Puts `entry` in the table under `key`, over an entry with the same key.
bool put(std::uint64_t key, const Entry &entry) {
  Guard guard;
  Entry *at = table().insert(key, entry);
  if (!at) return false; // three quarters full
  *at = entry;
  publish();
  return true;
}

} // namespace

bool pending_add(MPI_Request request, bool persistent, std::uint32_t event, const Envelope &where) {
  if (request == MPI_REQUEST_NULL) return true;
  return put(key_of(request), {0, event, where, persistent, false});
}

bool pending_add_send(MPI_Request request, std::uint64_t bytes, const Envelope &where) {
  if (request == MPI_REQUEST_NULL) return true;
  return put(key_of(request), {bytes, 0, where, true, true});
}

void pending_add_ssend(MPI_Request request, std::uint32_t event) {
  if (request != MPI_REQUEST_NULL) put(key_of(request), {0, event, {}, false, true});
}

Started pending_started(MPI_Request request) {
  Started out;
  if (!pending_any() || request == MPI_REQUEST_NULL) return out;
  Guard guard;
  const Entry *e = table().find(key_of(request));
  if (!e || !e->persistent) return out;
  out.found = true;
  out.send = e->send;
  out.bytes = e->sent;
  out.where = e->where;
  return out;
}

void pending_mark(MPI_Request request, std::uint32_t event) {
  if (!pending_any() || request == MPI_REQUEST_NULL) return;
  Guard guard;
  if (Entry *e = table().find(key_of(request))) e->event = event;
}

void pending_forget(MPI_Request request) {
  if (!pending_any() || request == MPI_REQUEST_NULL) return;
  Guard guard;
  table().erase(key_of(request));
  publish();
}

Completed pending_completed(MPI_Request request, const MPI_Status &status) {
  Completed out;
  if (!pending_any() || request == MPI_REQUEST_NULL) return out;
  bool receive = false;
  {
    Guard guard;
    std::uint64_t key = key_of(request);
    Entry *e = table().find(key);
    if (!e) return out;
    receive = !e->send;
    out.event = e->event;
    e->event = 0; // a persistent request's next start posts anew
    if (!e->persistent) table().erase(key);
    publish();
  }
  int cancelled = 0, bytes = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  if (cancelled || (receive && status.MPI_SOURCE == MPI_PROC_NULL)) return {};
  if (!receive) return out;
  PMPI_Get_count(&status, MPI_BYTE, &bytes);
  out.bytes = bytes > 0 ? std::uint64_t(bytes) : 0;
  return out;
}

} // namespace idb::mpi
