// Wait-state recording and replay (wait_states.h). Linked without the C++ runtime: plain
// arrays from malloc and mmap, qsort, no exceptions.
#include "wait_states.h"

#include "ext.h"
#include "idb/wait_states.h"
#include "own_profile.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

namespace idb::mpi {

namespace {

// One call (or one request a wait or test completed): 48 bytes.
struct Event {
  std::uint64_t enter, exit; // ticks of this process's wall clock
  void *cfh;                 // the COMM node that timed the call (idb_ext_site_t)
  std::uint32_t node;
  std::uint8_t kind; // WaitKind
  std::uint8_t last; // 0 when the next event belongs to the same completing call
  std::int32_t comm; // index into the shadow table
  // Destination or source (rank in comm), root for rooted collectives; a posted receive's
  // is -1 until a completion says which message it matched.
  std::int32_t peer;
  std::int32_t tag;
  // completed: the index of its post. A post: its ordinal among the posts (the replay's).
  std::uint32_t link;
};
static_assert(sizeof(Event) == 48, "an event is 48 bytes");

bool is_send(WaitKind k) {
  return k == WaitKind::send || k == WaitKind::ssend || k == WaitKind::posted_ssend;
}

bool is_collective(WaitKind k) {
  return k >= WaitKind::barrier && k <= WaitKind::reduce;
}

// A communicator the program used, duplicated twice for the replay (forward messages and
// the answers of synchronous receives), with the world ranks of its members.
struct Shadow {
  std::atomic<MPI_Comm> user; // MPI_COMM_NULL once freed
  MPI_Comm forward, back;
  std::uint64_t id; // the same on every member: (world rank of its rank 0) << 32 | serial
  int rank, size;
  int *world; // world rank of each member
};

constexpr int kMaxComms = 1024;
constexpr int kClockTag = 7354;
constexpr std::uint64_t kDefaultBuffer = 64ull << 20;
constexpr std::uint64_t kMaxEvents = 0xfffffffeull; // an event's handle, index + 1, is 32 bits

Shadow g_comms[kMaxComms];
std::atomic<int> g_comm_count{0};
std::uint32_t g_serial = 0; // communicators this rank was rank 0 of

Event *g_events = nullptr;
std::uint64_t g_capacity = 0;
std::atomic<std::uint64_t> g_next{0};
std::atomic<bool> g_on{false};
std::atomic<int> g_threads{0};        // threads that recorded events
thread_local bool t_recorded = false; // this thread is one of them
bool g_synchronised = false;          // this rank maps its clock by ping-pong

// Rank 0's clock: time 0 and ticks per second; this rank's ticks at the two
// synchronisations and rank 0's ticks at the same instants.
double g_zero = 0, g_rate0 = 1e9;
double g_local[2] = {0, 0}, g_remote[2] = {0, 0};

std::uint64_t buffer_bytes() {
  const char *v = std::getenv("IDB_WAIT_BUFFER");
  if (!v || !*v) return kDefaultBuffer;
  char *end = nullptr;
  double n = std::strtod(v, &end);
  double unit = 1;
  if (end && (*end == 'k' || *end == 'K')) unit = 1024.0;
  if (end && (*end == 'm' || *end == 'M')) unit = 1024.0 * 1024;
  if (end && (*end == 'g' || *end == 'G')) unit = 1024.0 * 1024 * 1024;
  if (!(n >= 0) || n * unit > 1e15) {
    std::fprintf(stderr, "idb: ignoring IDB_WAIT_BUFFER=%s (bytes, with K, M or G)\n", v);
    return kDefaultBuffer;
  }
  return std::uint64_t(n * unit);
}

int shadow_of(MPI_Comm comm) {
  int n = g_comm_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    if (g_comms[i].user.load(std::memory_order_relaxed) == comm) return i;
  return -1;
}

// Reserves `n` consecutive events; the first one's index (at or past g_capacity: none).
std::uint64_t reserve(std::uint64_t n) {
  if (!t_recorded) {
    t_recorded = true;
    g_threads.fetch_add(1, std::memory_order_relaxed);
  }
  std::uint64_t at = g_next.fetch_add(n, std::memory_order_relaxed);
  if (at + n <= g_capacity) return at;
  for (std::uint64_t k = at; k < g_capacity; ++k) // the part that fits stays unused
    g_events[k].kind = std::uint8_t(WaitKind::skipped);
  return g_capacity;
}

// Appends `e`; its handle (index + 1), 0 when the buffer is full.
std::uint32_t append(const Event &e) {
  std::uint64_t at = reserve(1);
  if (at >= g_capacity) return 0;
  g_events[at] = e;
  return std::uint32_t(at + 1);
}

// Rank 0's seconds at this rank's tick `t`.
double common_seconds(double t) {
  double t0 = t;
  if (g_synchronised) {
    double span = g_local[1] - g_local[0];
    double slope = span > 0 ? (g_remote[1] - g_remote[0]) / span : 1.0;
    t0 = g_remote[0] + (t - g_local[0]) * slope;
  }
  return (t0 - g_zero) / g_rate0;
}

// Ping-pong between rank 0 and each synchronised rank: the pair of ticks (this rank's,
// rank 0's at the same instant) of the round trip that took least, into slot `phase`.
void take_offsets(MPI_Comm comm, int rank, int size, const int *synchronised, int phase) {
  constexpr int kRounds = 10;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      if (!synchronised[r]) continue;
      double best = 1e300, pair[2] = {0, 0};
      for (int k = 0; k < kRounds; ++k) {
        double sent = double(idb_ext_now()), theirs = 0;
        PMPI_Send(&sent, 1, MPI_DOUBLE, r, kClockTag, comm);
        PMPI_Recv(&theirs, 1, MPI_DOUBLE, r, kClockTag, comm, MPI_STATUS_IGNORE);
        double back = double(idb_ext_now());
        if (back - sent < best) {
          best = back - sent;
          pair[0] = theirs;
          pair[1] = (sent + back) / 2;
        }
      }
      PMPI_Send(pair, 2, MPI_DOUBLE, r, kClockTag, comm);
    }
    return;
  }
  if (!synchronised[rank]) return;
  for (int k = 0; k < kRounds; ++k) {
    double ping = 0;
    PMPI_Recv(&ping, 1, MPI_DOUBLE, 0, kClockTag, comm, MPI_STATUS_IGNORE);
    double mine = double(idb_ext_now());
    PMPI_Send(&mine, 1, MPI_DOUBLE, 0, kClockTag, comm);
  }
  double pair[2];
  PMPI_Recv(pair, 2, MPI_DOUBLE, 0, kClockTag, comm, MPI_STATUS_IGNORE);
  g_local[phase] = pair[0];
  g_remote[phase] = pair[1];
  if (phase == 0) { // until finalize: the same rate as rank 0's
    g_local[1] = g_local[0] + g_rate0;
    g_remote[1] = g_remote[0] + g_rate0;
  }
}

// Which ranks map their clock by ping-pong: those off rank 0's host, or every rank but
// 0 with IDB_WAIT_CLOCK=sync (which tests the path on one host). An array of `size`.
int *synchronised_ranks(int rank, int size) {
  MPI_Comm host;
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
  int leader = rank;
  PMPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, host);
  PMPI_Comm_free(&host);
  const char *force = std::getenv("IDB_WAIT_CLOCK");
  int mine = rank != 0 && (leader != 0 || (force && !std::strcmp(force, "sync"))) ? 1 : 0;
  auto *all = static_cast<int *>(std::calloc(std::size_t(size), sizeof(int)));
  if (!all) return nullptr;
  PMPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
  return all;
}

// Duplicates `comm` twice and agrees on its id (collective over it).
void add_shadow(MPI_Comm comm) {
  int at = g_comm_count.load(std::memory_order_relaxed);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return;                  // not replayed: its calls are not recorded
  int full = at >= kMaxComms ? 1 : 0; // decided alike on every member
  PMPI_Allreduce(MPI_IN_PLACE, &full, 1, MPI_INT, MPI_LOR, comm);
  if (full) return;
  Shadow &s = g_comms[at];
  PMPI_Comm_dup(comm, &s.forward);
  PMPI_Comm_dup(comm, &s.back);
  PMPI_Comm_rank(comm, &s.rank);
  PMPI_Comm_size(comm, &s.size);
  int world = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &world);
  std::uint64_t id = s.rank == 0 ? (std::uint64_t(world) << 32) | g_serial++ : 0;
  PMPI_Bcast(&id, 1, MPI_UINT64_T, 0, comm);
  s.id = id;
  s.world = static_cast<int *>(std::malloc(sizeof(int) * std::size_t(s.size)));
  if (s.world) PMPI_Allgather(&world, 1, MPI_INT, s.world, 1, MPI_INT, comm);
  s.user.store(comm, std::memory_order_relaxed);
  g_comm_count.store(at + 1, std::memory_order_release);
}

// ---- The replay ----

// A point-to-point stream: (communicator id, the other rank's world rank, tag).
struct Key {
  std::uint64_t comm;
  std::int32_t peer, tag;
  std::uint64_t count;
  std::uint64_t synchronous; // some send of the stream waits for its receive
};

// Whether event `e` sends (true) or receives (false) on a stream; false for both when it
// does neither (collectives, completions, a post no completion resolved).
bool sends_on_stream(const Event &e) {
  return is_send(WaitKind(e.kind));
}
bool receives_on_stream(const Event &e) {
  auto k = WaitKind(e.kind);
  return k == WaitKind::recv || (k == WaitKind::posted_recv && e.peer >= 0);
}

// The stream of a point-to-point event.
Key key_of(const Event &e) {
  const Shadow &s = g_comms[e.comm];
  return {s.id, s.world && e.peer >= 0 ? s.world[e.peer] : -1, e.tag, 1, 0};
}

int by_key(const void *a, const void *b) {
  const Key &x = *static_cast<const Key *>(a), &y = *static_cast<const Key *>(b);
  if (x.peer != y.peer) return x.peer < y.peer ? -1 : 1;
  if (x.comm != y.comm) return x.comm < y.comm ? -1 : 1;
  if (x.tag != y.tag) return x.tag < y.tag ? -1 : 1;
  return 0;
}

// The streams of this rank's events in one direction (sends or receives), counted and
// sorted by (peer, comm, tag). *n gets their number.
Key *streams(std::uint64_t events, bool sends, std::uint64_t *n) {
  auto *keys = static_cast<Key *>(std::malloc(sizeof(Key) * (events ? events : 1)));
  *n = 0;
  if (!keys) return nullptr;
  for (std::uint64_t i = 0; i < events; ++i) {
    const Event &e = g_events[i];
    if (sends ? !sends_on_stream(e) : !receives_on_stream(e)) continue;
    keys[*n] = key_of(e);
    auto k = WaitKind(e.kind);
    keys[(*n)++].synchronous = k == WaitKind::ssend || k == WaitKind::posted_ssend ? 1 : 0;
  }
  std::qsort(keys, *n, sizeof(Key), by_key);
  std::uint64_t out = 0;
  for (std::uint64_t i = 0; i < *n; ++i) {
    if (out > 0 && by_key(&keys[out - 1], &keys[i]) == 0) {
      ++keys[out - 1].count;
      keys[out - 1].synchronous |= keys[i].synchronous;
    } else {
      keys[out++] = keys[i];
    }
  }
  *n = out;
  return keys;
}

bool contains(const Key *keys, std::uint64_t n, const Key &k) {
  return n > 0 && std::bsearch(&k, keys, n, sizeof(Key), by_key) != nullptr;
}

// A growable array of keys.
struct Keys {
  Key *items = nullptr;
  std::uint64_t count = 0, cap = 0;
  bool failed = false;

  void push(const Key &k) {
    if (count == cap) {
      std::uint64_t grown = cap ? 2 * cap : 64;
      auto *more = static_cast<Key *>(std::realloc(items, sizeof(Key) * grown));
      if (!more) {
        failed = true;
        return;
      }
      items = more;
      cap = grown;
    }
    items[count++] = k;
  }
};

// Exchanges each stream's count between its two ends (all-to-alls over `comm`, the
// world's forward duplicate) and gives the streams this rank must leave out of the replay
// because the ends disagree (`bad`), and those whose receiver answers every message
// because some of their sends are synchronous (`answered`), both sorted. A key names the
// other rank and so stands for both directions between the two, alike at both ends.
// Every rank takes part in every collective whatever its memory; false on every rank when
// one of them ran out (then nothing is replayed).
bool unmatched_streams(MPI_Comm comm, int size, std::uint64_t events, Keys &bad, Keys &answered) {
  std::uint64_t ns = 0, nr = 0;
  Key *sent = streams(events, true, &ns), *recv = streams(events, false, &nr);
  auto *counts = static_cast<int *>(std::calloc(4 * std::size_t(size), sizeof(int)));
  int ok = sent && recv && counts ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
  if (!ok) {
    std::free(sent), std::free(recv), std::free(counts);
    return false;
  }
  const auto n = std::size_t(size);
  int *send_n = counts, *recv_n = counts + n, *send_at = counts + 2 * n, *recv_at = counts + 3 * n;
  // Each sender's streams go to their receiver (byte counts of Key records).
  for (std::uint64_t i = 0; i < ns; ++i)
    if (sent[i].peer >= 0) send_n[sent[i].peer] += int(sizeof(Key));
  for (int r = 1; r < size; ++r)
    send_at[r] = send_at[r - 1] + send_n[r - 1];
  PMPI_Alltoall(send_n, 1, MPI_INT, recv_n, 1, MPI_INT, comm);
  std::uint64_t total_in = 0;
  for (int r = 0; r < size; ++r) {
    if (r > 0) recv_at[r] = recv_at[r - 1] + recv_n[r - 1];
    total_in += std::uint64_t(recv_n[r]) / sizeof(Key);
  }
  auto *incoming = static_cast<Key *>(std::malloc(sizeof(Key) * (total_in + 1)));
  auto *answer = static_cast<Key *>(std::malloc(sizeof(Key) * (total_in + nr + 1)));
  ok = incoming && answer ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
  if (!ok) {
    std::free(sent), std::free(recv), std::free(counts), std::free(incoming), std::free(answer);
    return false;
  }
  PMPI_Alltoallv(sent, send_n, send_at, MPI_BYTE, incoming, recv_n, recv_at, MPI_BYTE, comm);
  // Incoming from sender r: (comm, peer = this rank, tag, count). Compared with this
  // rank's receives from r; each sender hears which of its streams to leave out.
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  std::uint64_t nanswer = 0;
  std::memset(send_n, 0, sizeof(int) * std::size_t(size));
  std::uint64_t u = 0; // this rank's receive streams, sorted by peer first
  while (u < nr && recv[u].peer < 0)
    bad.push(recv[u++]); // no world rank to name the sender by (out of memory)
  for (int r = 0; r < size; ++r) {
    std::uint64_t from = std::uint64_t(recv_at[r]) / sizeof(Key);
    std::uint64_t to = from + std::uint64_t(recv_n[r]) / sizeof(Key);
    for (std::uint64_t i = from; i < to; ++i) {
      Key mine = incoming[i];
      mine.peer = r;
      auto *found = static_cast<Key *>(std::bsearch(&mine, recv, nr, sizeof(Key), by_key));
      if (found && found->count == incoming[i].count) {
        if (mine.synchronous) answered.push(mine);
        continue;
      }
      bad.push(mine); // this rank's receives from r on it
      answer[nanswer] = incoming[i];
      answer[nanswer++].peer = me;
      send_n[r] += int(sizeof(Key));
    }
    // Receives from r on streams r did not announce: left out here, and r hears of them,
    // since a key stands for both directions (r's receives from this rank on it too).
    for (; u < nr && recv[u].peer == r; ++u) {
      bool announced = false;
      for (std::uint64_t j = from; j < to && !announced; ++j)
        announced = incoming[j].comm == recv[u].comm && incoming[j].tag == recv[u].tag;
      if (announced) continue;
      bad.push(recv[u]);
      answer[nanswer] = recv[u];
      answer[nanswer++].peer = me;
      send_n[r] += int(sizeof(Key));
    }
  }
  for (int r = 1; r < size; ++r)
    send_at[r] = send_at[r - 1] + send_n[r - 1];
  PMPI_Alltoall(send_n, 1, MPI_INT, recv_n, 1, MPI_INT, comm);
  std::uint64_t total_back = 0;
  for (int r = 0; r < size; ++r) {
    recv_at[r] = r > 0 ? recv_at[r - 1] + recv_n[r - 1] : 0;
    total_back += std::uint64_t(recv_n[r]) / sizeof(Key);
  }
  auto *returned = static_cast<Key *>(std::malloc(sizeof(Key) * (total_back + 1)));
  ok = returned ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
  if (ok) {
    PMPI_Alltoallv(answer, send_n, send_at, MPI_BYTE, returned, recv_n, recv_at, MPI_BYTE, comm);
    for (std::uint64_t i = 0; i < total_back; ++i)
      bad.push(returned[i]); // (comm, the other rank, tag): both directions between the two
  }
  for (std::uint64_t i = 0; i < ns; ++i)
    if (sent[i].synchronous) answered.push(sent[i]);
  std::free(sent), std::free(recv), std::free(counts), std::free(incoming), std::free(answer),
      std::free(returned);
  ok = ok && !bad.failed && !answered.failed ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
  if (ok) {
    std::qsort(bad.items, bad.count, sizeof(Key), by_key);
    std::qsort(answered.items, answered.count, sizeof(Key), by_key);
  }
  return ok != 0;
}

// What a sender tells its receiver, and a receiver answers on a stream with synchronous
// sends.
struct Message {
  double enter, exit;
};

// Waits summed per (site, pattern) before they go to the runtime.
struct Sum {
  void *cfh;
  std::uint32_t node, pattern;
  double seconds;
  std::uint64_t instances;
};

struct Sums {
  Sum *items = nullptr;
  std::uint64_t count = 0, cap = 0;

  void add(const Event &e, int pattern, double seconds) {
    if (!(seconds > 0) || !e.cfh) return;
    for (std::uint64_t i = count; i-- > 0;) // the same site recurs: search from the end
      if (items[i].cfh == e.cfh && items[i].node == e.node &&
          items[i].pattern == unsigned(pattern)) {
        items[i].seconds += seconds;
        ++items[i].instances;
        return;
      }
    if (count == cap) {
      std::uint64_t grown = cap ? 2 * cap : 64;
      auto *more = static_cast<Sum *>(std::realloc(items, sizeof(Sum) * grown));
      if (!more) return;
      items = more;
      cap = grown;
    }
    items[count++] = {e.cfh, e.node, std::uint32_t(pattern), seconds, 1};
  }
};

// The part of [enter, exit] spent before `arrival` (all in rank 0's seconds).
double waited(double enter, double exit, double arrival) {
  double w = arrival - enter, span = exit - enter;
  return w <= 0 ? 0 : (w < span ? w : span);
}

// Pending requests of the replay, compacted now and then so that their number stays small.
struct Requests {
  MPI_Request *items = nullptr;
  std::uint64_t count = 0, cap = 0, next = 4096;

  // Room for `n` requests up front, so that add() never needs memory it may not get (a
  // request dropped while active would leave MPI writing into freed memory).
  bool reserve(std::uint64_t n) {
    items = static_cast<MPI_Request *>(std::malloc(sizeof(MPI_Request) * (n + 1)));
    cap = items ? n + 1 : 0;
    return items != nullptr;
  }

  bool add(MPI_Request r) {
    if (count >= next) { // keeps the requests in flight few
      compact();
      next = count + 4096;
    }
    if (count == cap) return false; // not reached: reserve() took what the replay adds
    items[count++] = r;
    return true;
  }
  void compact() {
    std::uint64_t kept = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      int done = 0;
      PMPI_Test(&items[i], &done, MPI_STATUS_IGNORE);
      if (!done) items[kept++] = items[i];
    }
    count = kept;
  }
  void finish() {
    for (std::uint64_t i = 0; i < count; ++i)
      PMPI_Wait(&items[i], MPI_STATUS_IGNORE);
    std::free(items);
  }
};

} // namespace

bool wait_recording() {
  return g_on.load(std::memory_order_relaxed);
}

WaitEvent::WaitEvent(const Call &call) : on_(call.on() && wait_recording()) {
  if (on_) enter_ = idb_ext_now();
}

void WaitEvent::send(bool synchronous, MPI_Comm comm, int dest, int tag) {
  if (!on_ || dest == MPI_PROC_NULL || dest < 0) return;
  int c = shadow_of(comm);
  idb_ext_site_t site{}; // without one (a node cap), the event still pairs with its peer's
  if (c < 0 || dest >= g_comms[c].size) return;
  idb_ext_comm_site(&site);
  auto kind = synchronous ? WaitKind::ssend : WaitKind::send;
  append({enter_, idb_ext_now(), site.cfh, site.node, std::uint8_t(kind), 1, c, dest, tag, 0});
}

void WaitEvent::received(MPI_Comm comm, const MPI_Status &status) {
  if (!on_ || status.MPI_SOURCE == MPI_PROC_NULL || status.MPI_SOURCE < 0) return;
  int c = shadow_of(comm);
  idb_ext_site_t site{};
  if (c < 0 || status.MPI_SOURCE >= g_comms[c].size) return;
  idb_ext_comm_site(&site);
  append({enter_, idb_ext_now(), site.cfh, site.node, std::uint8_t(WaitKind::recv), 1, c,
          status.MPI_SOURCE, status.MPI_TAG, 0});
}

void WaitEvent::collective(WaitKind kind, MPI_Comm comm, int root) {
  if (!on_) return;
  int c = shadow_of(comm);
  idb_ext_site_t site{};
  if (c < 0 || root < 0 || root >= g_comms[c].size) return;
  idb_ext_comm_site(&site);
  append({enter_, idb_ext_now(), site.cfh, site.node, std::uint8_t(kind), 1, c, root, 0, 0});
}

std::uint32_t WaitEvent::posted_recv(MPI_Comm comm, int source, int tag) {
  if (!on_ || source == MPI_PROC_NULL) return 0;
  int c = shadow_of(comm);
  idb_ext_site_t site{};
  if (c < 0) return 0;
  idb_ext_comm_site(&site);
  return append({enter_, idb_ext_now(), site.cfh, site.node, std::uint8_t(WaitKind::posted_recv), 1,
                 c, -1, tag, 0});
}

std::uint32_t WaitEvent::posted_ssend(MPI_Comm comm, int dest, int tag) {
  if (!on_ || dest == MPI_PROC_NULL || dest < 0) return 0;
  int c = shadow_of(comm);
  idb_ext_site_t site{};
  if (c < 0 || dest >= g_comms[c].size) return 0;
  idb_ext_comm_site(&site);
  return append({enter_, idb_ext_now(), site.cfh, site.node, std::uint8_t(WaitKind::posted_ssend),
                 1, c, dest, tag, 0});
}

void WaitEvent::completed(const Finished *done, int n) {
  if (!on_ || n <= 0) return;
  std::uint64_t exit = idb_ext_now();
  int joined = 0;
  for (int k = 0; k < n; ++k) {
    if (done[k].event == 0) continue;
    Event &p = g_events[done[k].event - 1]; // an event this rank appended before
    ++joined;
    if (WaitKind(p.kind) != WaitKind::posted_recv) continue;
    // Which message the post matched: its stream counts even when the completion finds
    // the buffer full.
    bool fits = done[k].source >= 0 && done[k].source < g_comms[p.comm].size;
    p.peer = fits ? done[k].source : -1;
    p.tag = done[k].tag;
  }
  std::uint64_t at = joined ? reserve(std::uint64_t(joined)) : g_capacity;
  if (at >= g_capacity) return;
  idb_ext_site_t site{};
  idb_ext_comm_site(&site);
  for (int k = 0; k < n; ++k) {
    if (done[k].event == 0) continue;
    std::uint32_t post = done[k].event - 1;
    const Event &p = g_events[post];
    g_events[at++] = {enter_,
                      exit,
                      site.cfh,
                      site.node,
                      std::uint8_t(WaitKind::completed),
                      --joined == 0 ? std::uint8_t(1) : std::uint8_t(0),
                      p.comm,
                      p.peer,
                      p.tag,
                      post};
  }
}

void wait_init() {
  const char *v = std::getenv("IDB_WAIT");
  int size = 1, rank = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Every rank decides alike (the environment and the mode are the job's), since what
  // follows is collective.
  if ((v && !std::strcmp(v, "0")) || size < 2 || run_mode() == Mode::Rank) {
    idb_ext_set_meta("wait", "off");
    return;
  }
  g_capacity = buffer_bytes() / sizeof(Event);
  if (g_capacity > kMaxEvents) g_capacity = kMaxEvents;
  if (g_capacity > 0) {
    void *p = mmap(nullptr, g_capacity * sizeof(Event), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    g_events = p == MAP_FAILED ? nullptr : static_cast<Event *>(p);
    if (!g_events) g_capacity = 0;
    // Huge pages where the kernel offers them: a page fault per 2 MiB of events rather
    // than per 4 KiB (85 events), which costs a recorded call some 180 ns on a VM.
    if (g_events) madvise(p, g_capacity * sizeof(Event), MADV_HUGEPAGE);
  }
  add_shadow(MPI_COMM_WORLD);
  int *sync = synchronised_ranks(rank, size);
  double zero[2] = {double(idb_ext_now()), idb_ext_ticks_per_second()};
  PMPI_Bcast(zero, 2, MPI_DOUBLE, 0, g_comms[0].forward);
  g_zero = zero[0];
  g_rate0 = zero[1];
  g_synchronised = sync && sync[rank];
  if (sync) take_offsets(g_comms[0].forward, rank, size, sync, 0);
  std::free(sync);
  g_on.store(true, std::memory_order_relaxed);
}

void wait_comm_created(MPI_Comm comm) {
  if (wait_recording() && comm != MPI_COMM_NULL) add_shadow(comm);
}

void wait_comm_freed(MPI_Comm comm) {
  int c = shadow_of(comm);
  if (c >= 0) g_comms[c].user.store(MPI_COMM_NULL, std::memory_order_relaxed);
}

void wait_replay() {
  if (!wait_recording() || g_comm_count.load() == 0) return;
  g_on.store(false, std::memory_order_relaxed);
  MPI_Comm world = g_comms[0].forward;
  int rank = 0, size = 1;
  PMPI_Comm_rank(world, &rank);
  PMPI_Comm_size(world, &size);
  int *sync = static_cast<int *>(std::calloc(std::size_t(size), sizeof(int)));
  int mine = g_synchronised ? 1 : 0;
  if (sync) {
    PMPI_Allgather(&mine, 1, MPI_INT, sync, 1, MPI_INT, world);
    take_offsets(world, rank, size, sync, 1);
  }
  std::free(sync);

  std::uint64_t recorded = g_next.load(), events = recorded < g_capacity ? recorded : g_capacity;
  Keys bad, answered;
  bool p2p = unmatched_streams(world, size, events, bad, answered);

  // Each communicator's collectives, up to the count every member recorded.
  int comms = g_comm_count.load();
  auto *limit =
      static_cast<std::uint64_t *>(std::calloc(std::size_t(comms), sizeof(std::uint64_t)));
  auto *seen = static_cast<std::uint64_t *>(std::calloc(std::size_t(comms), sizeof(std::uint64_t)));
  for (std::uint64_t i = 0; limit && i < events; ++i)
    if (is_collective(WaitKind(g_events[i].kind))) ++limit[g_events[i].comm];
  for (int c = 0; c < comms; ++c) {
    std::uint64_t n = limit && seen ? limit[c] : 0; // without memory: none, on every member
    PMPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_UINT64_T, MPI_MIN, g_comms[c].forward);
    if (limit) limit[c] = n;
  }

  Sums sums;
  Requests pending;
  std::uint64_t skipped = 0, np2p = 0, nposts = 0;
  for (std::uint64_t i = 0; i < events; ++i) {
    auto kind = WaitKind(g_events[i].kind);
    if (kind == WaitKind::posted_recv || kind == WaitKind::posted_ssend)
      g_events[i].link = std::uint32_t(nposts++);
    if (kind <= WaitKind::recv || kind == WaitKind::posted_recv || kind == WaitKind::posted_ssend)
      ++np2p;
  }
  // Messages out (sends, and the answers of receivers), the answers blocking sends await,
  // and each post's message (a receive's) or answer (a synchronous send's) and request.
  auto *out = static_cast<Message *>(std::malloc(sizeof(Message) * (np2p + 1)));
  auto *answers = static_cast<Message *>(std::malloc(sizeof(Message) * (np2p + 1)));
  auto *awaiting = static_cast<std::uint64_t *>(std::malloc(sizeof(std::uint64_t) * (np2p + 1)));
  auto *post_msg = static_cast<Message *>(std::malloc(sizeof(Message) * (nposts + 1)));
  auto *post_req = static_cast<MPI_Request *>(std::malloc(sizeof(MPI_Request) * (nposts + 1)));
  for (std::uint64_t k = 0; post_req && k < nposts; ++k)
    post_req[k] = MPI_REQUEST_NULL;
  Requests replies; // the answers blocking sends wait for, beside `awaiting`
  std::uint64_t nout = 0, nreplies = 0;
  // At most one request a point-to-point event in each list.
  bool room = pending.reserve(np2p) && replies.reserve(np2p);
  int ready = out && answers && awaiting && post_msg && post_req && limit && seen && room ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &ready, 1, MPI_INT, MPI_LAND, world);
  if (!ready) p2p = false; // on every rank alike
  // A receive answers its sender when the stream has synchronous sends.
  auto answer = [&](const Event &e, const Shadow &s, double enter, double exit) {
    Message &a = out[nout++];
    a = {enter, exit};
    MPI_Request r;
    PMPI_Isend(&a, int(sizeof a), MPI_BYTE, e.peer, e.tag, s.back, &r);
    pending.add(r);
  };
  // Whether a post and the completions joined to it are replayed.
  auto replayed = [&](const Event &post) {
    return p2p && post.peer >= 0 && !contains(bad.items, bad.count, key_of(post));
  };
  // The call that completes receives waited for the latest of their senders (late sender).
  double latest_sender = -HUGE_VAL;
  // Events of several threads are in the order the calls ended, not the order they
  // began: a receive may come before the send another thread began earlier. Then every
  // send goes out first, and collectives (whose order between communicators threads
  // leave open) are not replayed.
  int threads = g_threads.load() > 1 ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &threads, 1, MPI_INT, MPI_LOR, world);
  for (std::uint64_t step = 0; step < (threads ? 2 * events : events); ++step) {
    // With several threads: first every send (steps below `events`), then the rest.
    bool first_pass = threads && step < events;
    std::uint64_t i = threads && !first_pass ? step - events : step;
    const Event &e = g_events[i];
    auto kind = WaitKind(e.kind);
    if (threads && first_pass != is_send(kind)) continue;
    if (kind == WaitKind::skipped) continue;
    const Shadow &s = g_comms[e.comm];
    double enter = common_seconds(double(e.enter)), exit = common_seconds(double(e.exit));
    if (kind == WaitKind::completed) {
      // A receive completes here; a synchronous send's answer is awaited after the walk,
      // since with several threads its receiver may answer only after this rank's later
      // events (the order of the buffer is the order calls ended).
      const Event &post = g_events[e.link];
      bool receive = WaitKind(post.kind) == WaitKind::posted_recv;
      if (!replayed(post)) {
        ++skipped;
      } else if (receive) {
        PMPI_Wait(&post_req[post.link], MPI_STATUS_IGNORE);
        latest_sender = std::fmax(latest_sender, post_msg[post.link].enter);
      }
      if (e.last) {
        sums.add(e, IDB_WAIT_late_sender, waited(enter, exit, latest_sender));
        latest_sender = -HUGE_VAL;
      }
      continue;
    }
    if (!is_collective(kind)) {
      Key k = key_of(e);
      if (!p2p || e.peer < 0 || contains(bad.items, bad.count, k)) {
        if (kind != WaitKind::posted_recv || e.peer >= 0) ++skipped; // not an unmatched post
        continue;
      }
      bool answers_each = contains(answered.items, answered.count, k);
      MPI_Request r;
      if (is_send(kind)) {
        Message &m = out[nout++];
        m = {enter, exit};
        PMPI_Isend(&m, int(sizeof m), MPI_BYTE, e.peer, e.tag, s.forward, &r);
        pending.add(r);
        if (kind == WaitKind::posted_ssend) { // awaited where the program completed it
          PMPI_Irecv(&post_msg[e.link], int(sizeof(Message)), MPI_BYTE, e.peer, e.tag, s.back,
                     &post_req[e.link]);
        } else if (answers_each) {
          PMPI_Irecv(&answers[nreplies], int(sizeof(Message)), MPI_BYTE, e.peer, e.tag, s.back, &r);
          awaiting[nreplies++] = i;
          replies.add(r);
        }
      } else if (kind == WaitKind::posted_recv) { // completed where the program completed it
        PMPI_Irecv(&post_msg[e.link], int(sizeof(Message)), MPI_BYTE, e.peer, e.tag, s.forward,
                   &post_req[e.link]);
        if (answers_each) answer(e, s, enter, exit); // the receive started at its post
      } else {
        Message m{};
        PMPI_Recv(&m, int(sizeof m), MPI_BYTE, e.peer, e.tag, s.forward, MPI_STATUS_IGNORE);
        sums.add(e, IDB_WAIT_late_sender, waited(enter, exit, m.enter));
        if (answers_each) answer(e, s, enter, exit);
      }
      continue;
    }
    if (threads || !limit || !seen || seen[e.comm]++ >= limit[e.comm]) {
      ++skipped;
      continue;
    }
    if (kind == WaitKind::barrier || kind == WaitKind::nxn) {
      double last = enter;
      PMPI_Allreduce(&enter, &last, 1, MPI_DOUBLE, MPI_MAX, s.forward);
      sums.add(e, kind == WaitKind::barrier ? IDB_WAIT_wait_barrier : IDB_WAIT_wait_nxn,
               waited(enter, exit, last));
    } else if (kind == WaitKind::broadcast) {
      double root = enter;
      PMPI_Bcast(&root, 1, MPI_DOUBLE, e.peer, s.forward);
      if (s.rank != e.peer) sums.add(e, IDB_WAIT_late_broadcast, waited(enter, exit, root));
    } else {
      double first = s.rank == e.peer ? HUGE_VAL : enter, earliest = first;
      PMPI_Reduce(&first, &earliest, 1, MPI_DOUBLE, MPI_MIN, e.peer, s.forward);
      if (s.rank == e.peer && s.size > 1)
        sums.add(e, IDB_WAIT_early_reduce, waited(enter, exit, earliest));
    }
  }
  replies.finish(); // every answer is in, in the order posted
  for (std::uint64_t k = 0; k < nreplies; ++k) {
    const Event &e = g_events[awaiting[k]];
    if (WaitKind(e.kind) != WaitKind::ssend) continue; // a standard send of the stream
    sums.add(
        e, IDB_WAIT_late_receiver,
        waited(common_seconds(double(e.enter)), common_seconds(double(e.exit)), answers[k].enter));
  }
  // The calls that completed synchronous sends waited for the latest of their receivers
  // (late receiver); every answer comes, as every receiver has walked all its events.
  double latest_receiver = -HUGE_VAL;
  for (std::uint64_t i = 0; ready && i < events; ++i) {
    const Event &e = g_events[i];
    if (WaitKind(e.kind) != WaitKind::completed) continue;
    const Event &post = g_events[e.link];
    if (WaitKind(post.kind) == WaitKind::posted_ssend && replayed(post)) {
      PMPI_Wait(&post_req[post.link], MPI_STATUS_IGNORE);
      latest_receiver = std::fmax(latest_receiver, post_msg[post.link].enter);
    }
    if (e.last) {
      sums.add(
          e, IDB_WAIT_late_receiver,
          waited(common_seconds(double(e.enter)), common_seconds(double(e.exit)), latest_receiver));
      latest_receiver = -HUGE_VAL;
    }
  }
  // Posts whose completion the buffer did not hold: their messages are matched all the same.
  for (std::uint64_t k = 0; ready && k < nposts; ++k)
    PMPI_Wait(&post_req[k], MPI_STATUS_IGNORE);
  pending.finish();
  for (std::uint64_t k = 0; k < sums.count; ++k) {
    const Sum &w = sums.items[k];
    idb_ext_add_waits({w.cfh, w.node}, w.pattern, w.seconds, w.instances);
  }
  std::free(sums.items), std::free(out), std::free(answers), std::free(awaiting),
      std::free(post_msg), std::free(post_req), std::free(bad.items), std::free(answered.items),
      std::free(limit), std::free(seen);

  // The coverage, summed over the ranks, for rank 0's metadata.
  std::uint64_t local[4] = {events, recorded - events, skipped, g_synchronised ? 1u : 0u}, all[4];
  PMPI_Reduce(local, all, 4, MPI_UINT64_T, MPI_SUM, 0, world);
  if (rank != 0) return;
  char text[64];
  idb_ext_set_meta("wait", "on");
  std::snprintf(text, sizeof text, "%llu", (unsigned long long)all[0]);
  idb_ext_set_meta("wait_events", text);
  std::snprintf(text, sizeof text, "%llu", (unsigned long long)all[1]);
  idb_ext_set_meta("wait_dropped", text);
  std::snprintf(text, sizeof text, "%llu", (unsigned long long)all[2]);
  idb_ext_set_meta("wait_unreplayed", text);
  idb_ext_set_meta("wait_clock",
                   all[3] ? "synchronised by ping-pong" : "shared time-stamp counter");
}

} // namespace idb::mpi
