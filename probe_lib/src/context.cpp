// idb_cfh_enter and idb_cfh_leave: a per-thread stack of entered CFHs over the thread's
// default one. Entering and leaving only move the pointer to the current CFH (cur_cfh),
// which idb_start, idb_stop and the scope macros already read, so probes cost the same
// inside an enter as outside. Each thread owns its stack; a named CFH is used from one
// thread at a time (probe.h), so nothing here locks except what idb_cfh_destroy holds
// when it calls context_drop.
#include "context.h"

#include "idb/probe.h"
#include "runtime.h"

namespace idb::rt {

namespace {

struct Entry {
  Cfh *cfh;
  bool routes; // the enter made `cfh` current (false: destroyed, or not ours to record in)
};

struct Context {
  Cfh *home;            // the thread's default CFH, nullptr until its first probe
  std::uint32_t depth;  // entries in use
  std::uint32_t excess; // enters past kMaxEnters not made, whose leaves are still to come
  Entry entries[kMaxEnters];
};

constinit thread_local Context t_context{};

// Where the thread's probes go: the innermost entry that routes, else the default CFH.
Cfh *current() {
  for (std::uint32_t k = t_context.depth; k > 0; --k)
    if (t_context.entries[k - 1].routes) return t_context.entries[k - 1].cfh;
  return t_context.home;
}

bool recording() {
  return g_rt.state.load(std::memory_order_relaxed) == kRunning;
}

} // namespace

Cfh *context_home() {
  return t_context.home;
}

Cfh *context_set_home(Cfh *home) {
  t_context.home = home;
  return current();
}

void context_forget() {
  t_context.home = nullptr;
  t_context.depth = 0;
  t_context.excess = 0;
}

void context_close(std::uint64_t t) {
  if (t_context.home) cfh_close_all(*t_context.home, t);
  for (std::uint32_t k = 0; k < t_context.depth; ++k)
    if (t_context.entries[k].routes) cfh_close_all(*t_context.entries[k].cfh, t);
  context_forget();
}

void context_drop(Cfh *c) {
  for (std::uint32_t k = 0; k < t_context.depth; ++k) {
    Entry &e = t_context.entries[k];
    if (e.cfh != c || !e.routes) continue;
    e.routes = false;
    ++c->mismatches;
  }
  set_cur_cfh(current());
}

} // namespace idb::rt

using namespace idb::rt;

extern "C" {

void idb_cfh_enter(idb_cfh_t *handle) {
  auto *c = reinterpret_cast<Cfh *>(handle);
  if (!c || !recording()) return;
  Context &x = t_context;
  if (x.depth == kMaxEnters) {
    ++x.excess;
    ++c->mismatches;
    return;
  }
  // A destroyed CFH, or another thread's default one, takes no probes: the entry is kept
  // only so that its leave matches.
  bool routes = c->in_use && (c->named || c == x.home);
  if (!routes) ++c->mismatches;
  x.entries[x.depth++] = Entry{c, routes};
  if (routes) set_cur_cfh(c);
}

void idb_cfh_leave(idb_cfh_t *handle) {
  auto *c = reinterpret_cast<Cfh *>(handle);
  if (!c || !recording()) return;
  Context &x = t_context;
  if (x.excess) {
    --x.excess;
    return;
  }
  std::uint32_t k = x.depth;
  while (k > 0 && x.entries[k - 1].cfh != c)
    --k;
  if (k == 0) {
    ++c->mismatches; // not entered: ignored
    return;
  }
  if (k != x.depth) ++c->mismatches; // enters inside it were not left: they end here too
  x.depth = k - 1;
  set_cur_cfh(current());
}

} // extern "C"
