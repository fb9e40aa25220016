// The runtime side of the MPI layer's interface (ext.h): COMM probes that carry bytes and
// defer to an enclosing instrumenter-placed COMM probe, the rank from MPI_Init, and the
// two halves of finalize the ranks' merge goes between.
#include "ext.h"

#include "idb/probe.h"
#include "idb/wait_states.h"
#include "runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace idb::rt;

namespace {

Cfh *recording_cfh() {
  Cfh *c = cur_cfh();
  if (__builtin_expect(c == nullptr, 0)) {
    if (g_rt.state.load(std::memory_order_relaxed) > kRunning) return nullptr;
    c = claim_thread_cfh();
  }
  return c;
}

// The innermost open, recorded node of `c` other than the root (a throttled one the site
// cache counted, which has no frame, included); kNoNode when there is none (nothing open,
// activations past a cap on top).
std::uint32_t innermost_node(const Cfh &c) {
  if (c.uncounted || c.hot.top == 0) return kNoNode;
  return c.hot.top;
}

} // namespace

extern "C" {

int idb_ext_comm_begin(int id, const char *name) {
  Cfh *c = recording_cfh();
  if (!c || c->depth == 0) return -1;
  std::uint32_t top = innermost_node(*c);
  if (top != kNoNode && c->nodes[top].kind == IDB_COMM) return 0;
  cfh_start(*c, IDB_COMM, id, name, nullptr, 0, nullptr);
  return 1;
}

void idb_ext_comm_end(int opened, int id, uint64_t sent, uint64_t received) {
  Cfh *c = cur_cfh();
  if (opened < 0 || !c) return;
  std::uint32_t top = innermost_node(*c);
  if (top != kNoNode) {
    c->nodes[top].stats.bytes_sent += sent;
    c->nodes[top].stats.bytes_recv += received;
  }
  if (opened == 1) cfh_stop(*c, id);
}

int idb_ext_comm_site(idb_ext_site_t *site) {
  Cfh *c = cur_cfh();
  if (!c || !site) return 0;
  std::uint32_t top = innermost_node(*c);
  if (top == kNoNode || c->nodes[top].kind != IDB_COMM) return 0;
  site->cfh = c;
  site->node = top;
  return 1;
}

int idb_ext_add_waits(idb_ext_site_t site, unsigned pattern, double seconds, uint64_t instances) {
  if (pattern >= IDB_WAIT_PATTERN_COUNT || !(seconds >= 0) || seconds > 1e12 || instances == 0)
    return -1;
  pthread_mutex_lock(&g_rt.lock);
  int rc = -1;
  for (Cfh *c = g_rt.first; c; c = c->next)
    if (c == site.cfh && site.node < c->node_count.load(std::memory_order_acquire)) {
      rc = cfh_add_wait(*c, site.node, pattern, seconds, instances) ? 0 : -1;
      break;
    }
  pthread_mutex_unlock(&g_rt.lock);
  return rc;
}

uint64_t idb_ext_now(void) {
  return now();
}

double idb_ext_ticks_per_second(void) {
  return g_rt.ticks_per_second;
}

void idb_ext_set_meta(const char *key, const char *value) {
  if (!key || !value) return;
  pthread_mutex_lock(&g_rt.lock);
  int at = 0;
  while (at < g_rt.ext_meta_count && std::strcmp(g_rt.ext_meta[at][0], key) != 0)
    ++at;
  if (at < 8) {
    std::snprintf(g_rt.ext_meta[at][0], sizeof g_rt.ext_meta[at][0], "%s", key);
    std::snprintf(g_rt.ext_meta[at][1], sizeof g_rt.ext_meta[at][1], "%s", value);
    if (at == g_rt.ext_meta_count) ++g_rt.ext_meta_count;
  }
  pthread_mutex_unlock(&g_rt.lock);
}

void idb_ext_set_rank(int rank, int nprocs) {
  ensure_init(nullptr);
  pthread_mutex_lock(&g_rt.lock);
  g_rt.rank = rank;
  g_rt.nprocs = nprocs > 0 ? nprocs : 1;
  pthread_mutex_unlock(&g_rt.lock);
}

int idb_ext_stop(void) {
  if (ensure_init(nullptr) == kOff) return -1;
  pthread_mutex_lock(&g_rt.lock);
  bool stopped = stop_recording();
  pthread_mutex_unlock(&g_rt.lock);
  return stopped ? 1 : 0;
}

int idb_ext_local_data(idb_ext_bytes_t *probes, idb_ext_bytes_t *sections) {
  Bytes p{}, s{};
  pthread_mutex_lock(&g_rt.lock);
  bool ok = g_rt.state.load() == kFinished &&
            serialize_run(probes ? &p : nullptr, sections ? &s : nullptr);
  pthread_mutex_unlock(&g_rt.lock);
  if (probes) *probes = idb_ext_bytes_t{p.data, p.size, p.count};
  if (sections) *sections = idb_ext_bytes_t{s.data, s.size, s.count};
  return ok ? 0 : -1;
}

int idb_ext_write(const idb_ext_bytes_t *sections, const char *mode) {
  pthread_mutex_lock(&g_rt.lock);
  bool written = false;
  if (g_rt.state.load() == kFinished) {
    if (sections) {
      Bytes s{sections->data, sections->size, sections->count};
      written = write_run_profile(&s, mode);
    } else {
      written = write_run_profile(nullptr, mode);
    }
  }
  pthread_mutex_unlock(&g_rt.lock);
  return written ? 0 : -1;
}

int idb_ext_write_spill(const char *suffix, char *path, size_t size) {
  pthread_mutex_lock(&g_rt.lock);
  bool written =
      g_rt.state.load() == kFinished && write_run_profile(nullptr, "rank", suffix, path, size);
  pthread_mutex_unlock(&g_rt.lock);
  return written ? 0 : -1;
}

} // extern "C"
