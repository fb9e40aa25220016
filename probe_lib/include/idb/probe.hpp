// IDB probe runtime, C++ API: thin non-copyable RAII classes over the C API of
// idb/probe.h. Compiles as C++11 or later, so instrumented code keeps its own standard.
// Nothing here throws or allocates beyond what the C API does.
#ifndef IDB_PROBE_HPP
#define IDB_PROBE_HPP

#include "idb/probe.h"

#include <cstdio>

namespace idb {

// A named CFH instance (DESIGN §4), e.g. `idb::Cfh solver{"solver[3]"};` for one object of
// an object-oriented code. Use it from one thread at a time. Its data outlives it: the
// profile written at exit holds it. When probes are off every call does nothing.
class Cfh {
public:
  explicit Cfh(const char *name) : cfh_(idb_cfh_create(name)) {}
  ~Cfh() { idb_cfh_destroy(cfh_); }
  Cfh(const Cfh &) = delete;
  Cfh &operator=(const Cfh &) = delete;

  void start(int kind, int id, const char *description) {
    idb_cfh_start(cfh_, kind, id, description);
  }
  void stop(int id) { idb_cfh_stop(cfh_, id); }
  // The name given at construction ("" when probes are off).
  const char *name() const { return idb_cfh_name(cfh_); }
  // Writes the tree as text (see idb_cfh_dump). Returns false on a write error.
  bool dump(std::FILE *stream) const { return idb_cfh_dump(cfh_, stream) == 0; }
  // The C handle, NULL when probes are off.
  idb_cfh_t *get() const { return cfh_; }
  // idb_cfh_enter / idb_cfh_leave; CfhContext pairs them for a scope.
  void enter() { idb_cfh_enter(cfh_); }
  void leave() { idb_cfh_leave(cfh_); }

private:
  idb_cfh_t *cfh_;
};

// Opens a probe for the lifetime of the object: closes on every way out of the scope,
// exceptions included. Without a CFH it uses the calling thread's default one.
class Scope {
public:
  IDB_INLINE_ Scope(int kind, int id, const char *description, const char *file = nullptr,
                    int line = 0, const char *function = nullptr)
      : Scope(static_cast<idb_cfh_t *>(nullptr), kind, id, description, file, line, function) {}
  IDB_INLINE_ Scope(idb_cfh_t *cfh, int kind, int id, const char *description,
                    const char *file = nullptr, int line = 0, const char *function = nullptr)
      : cfh_(cfh), id_(id) {
    unsigned int saved = 0;
    if (!cfh_) {
      hot_ = idb_open_scope_(kind, id, description, file, line, function, &saved);
    } else {
      hot_ = nullptr;
      if (!__builtin_expect(idb_probes_off, 0))
        idb_cfh_start_at(cfh_, kind, id, description, file, line, function);
    }
    saved_ = saved;
  }
  // A null handle (probes off, or no memory for the CFH) falls back to the thread's CFH.
  IDB_INLINE_ Scope(Cfh &cfh, int kind, int id, const char *description, const char *file = nullptr,
                    int line = 0, const char *function = nullptr)
      : Scope(cfh.get(), kind, id, description, file, line, function) {}
  IDB_INLINE_ ~Scope() {
    if (idb_hot_t *hot = hot_)
      hot->top = saved_; // counted inline: the node before is innermost again
    else if (!cfh_)
      idb_close_(id_);
    else if (!__builtin_expect(idb_probes_off, 0))
      idb_cfh_stop(cfh_, id_);
  }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;

private:
  idb_cfh_t *cfh_;
  // Counted inline (idb_open_scope_): the CFH and the node innermost before. Volatile:
  // held in registers, they made GCC compile miniFE's CG solve so that its sparse product
  // ran 35% slower even with the probes off (docs/PERFORMANCE.md, 1d); C's scope keeps
  // them plain, which CoMD needed. The constructor and destructor spell out what C's
  // idb_scope_open_ and idb_scope_end_ do: written through shared functions, miniFE's
  // program ran 1.2-1.6 points slower in two sets of eleven interleaved rounds.
  idb_hot_t *volatile hot_;
  int id_;
  volatile unsigned int saved_;
};

// Makes a named CFH the calling thread's current one for the lifetime of the object, so
// that the probes idb-instrument wrote (and the MPI layer's COMM probes) record in it:
// `idb::CfhContext in{solver};`. Leaves on every way out of the scope, exceptions
// included. A null handle (probes off) does nothing.
class CfhContext {
public:
  explicit CfhContext(idb_cfh_t *cfh) : cfh_(idb_probes_off ? nullptr : cfh) {
    if (cfh_) idb_cfh_enter(cfh_);
  }
  explicit CfhContext(Cfh &cfh) : CfhContext(cfh.get()) {}
  ~CfhContext() {
    if (cfh_) idb_cfh_leave(cfh_);
  }
  CfhContext(const CfhContext &) = delete;
  CfhContext &operator=(const CfhContext &) = delete;

private:
  idb_cfh_t *cfh_;
};

} // namespace idb

#define IDB_CFH_SCOPE(cfh, kind, id, description)                                                  \
  ::idb::Scope IDB_CAT_(idb_scope_, __LINE__)((cfh), (kind), (id), (description), __FILE__,        \
                                              __LINE__, __func__)

#define IDB_CFH_CONTEXT(cfh) ::idb::CfhContext IDB_CAT_(idb_context_, __LINE__)((cfh))

#endif // IDB_PROBE_HPP
