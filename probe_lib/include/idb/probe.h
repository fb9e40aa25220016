/* IDB probe runtime, C API.
 *
 * The contract between instrumented code (hand-placed or written by idb-instrument) and
 * the runtime. Each probe updates fixed-size statistics of its node in the calling
 * thread's current control-flow hierarchy (CFH): the thread's own, or a named one it has
 * entered (idb_cfh_enter); at exit one profile file is written. Compiles as
 * C99 and as C++11 or later. Probes never print, throw or fail: problems are counted and
 * reported once at finalize. Configuration is by environment (docs/configuration.md). */
#ifndef IDB_PROBE_H
#define IDB_PROBE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Probe kinds. */
#define IDB_PROC 1 /* a procedure (function body) */
#define IDB_LOOP 2 /* a loop: black box (whole loop) or white box (one iteration) */
#define IDB_CALL 3 /* a call site */
#define IDB_COMM 4 /* a communication call */

#if defined(__GNUC__)
#define IDB_API_ __attribute__((visibility("default")))
/* The scope macros' open and close, inlined at every probe whatever the compiler's
 * heuristics decide: out of line, a probe would cost one more call, even switched off. */
#define IDB_INLINE_ __attribute__((always_inline)) inline
#else
#define IDB_API_
#define IDB_INLINE_ inline
#endif

/* Starts the runtime for `program` (NULL: the executable's name). Optional: the first
 * probe starts it implicitly. Idempotent and thread-safe; after idb_finalize it does
 * nothing. */
IDB_API_ void idb_init(const char *program);

/* Opens probe `id` of `kind` in the calling thread's current CFH (see idb_cfh_enter): any
 * `id` but INT_MIN, which reports keep for the time worker threads spend outside their
 * probes. `description` names the code (e.g. "solve(...) [solver.c:42]"); it is read only the
 * first time the probe is seen, so it must stay valid until then. Thread-safe (each thread
 * has its own current CFH); not signal-safe. Never fails: overflow of the node cap or
 * depth cap is counted. */
IDB_API_ void idb_start(int kind, int id, const char *description);

/* Like idb_start, also naming the source location (any of them may be NULL / 0). */
IDB_API_ void idb_start_at(int kind, int id, const char *description, const char *file, int line,
                           const char *function);

/* The common case of idb_start_at, for the scope macros: opens probe `id` when the calling
 * thread's current CFH already has its node under the innermost open probe and that node
 * is timed plainly or throttled, and returns 1; otherwise returns 0 having done nothing,
 * and the caller calls idb_start_at. Taking the ID alone, the call costs the caller no
 * argument set-up and the runtime no saved register. Thread-safe; never fails. */
IDB_API_ int idb_start_fast(int id);

/* Closes probe `id`, the innermost open one of the calling thread. A stop that does not
 * match is counted; if `id` is open further out, the probes above it are closed too. A
 * stop on a thread that has never started a probe is ignored. Thread-safe; never fails. */
IDB_API_ void idb_stop(int id);

/* Records a probe's static description ahead of use (the instrumenter's manifest does
 * this from a constructor). A later registration of the same id does not replace it.
 * Thread-safe. */
IDB_API_ void idb_register_probe(int kind, int id, const char *description, const char *file,
                                 int line, const char *function);

/* Makes the LOOP probe `id` the dynamic probe: each activation of its nodes is one
 * iteration (of a time-step loop, say: a white-box probe, opened at the top of the body),
 * and the profile keeps how every iteration's subtree went, clustered in bounded memory
 * (IDB_CLUSTERS; docs/configuration.md, "Dynamics"). Call before the probe first runs;
 * idb-instrument's `mode=dynamic` does it from the file's registration. A probe that turns
 * out not to be a loop, or runs inside another dynamic probe, is reported on stderr and
 * is not dynamic. Thread-safe. */
IDB_API_ void idb_dynamic_probe(int id);

/* Closes every open probe, writes the profile and turns every probe into a no-op.
 * Called implicitly at normal exit; calling it again does nothing. Failures to write are
 * reported on stderr. Call from one thread, when other threads no longer run probes. */
IDB_API_ void idb_finalize(void);

/* Nonzero when probes record (IDB_ENABLE is not 0 and finalize has not run). */
IDB_API_ int idb_enabled(void);

/* Nonzero once probes are known not to record: the runtime started with IDB_ENABLE=0, or
 * finalize has run; 0 before the first probe. The scope macros test it before calling in,
 * so a switched-off probe costs a load and a branch. Read it; never write it. */
IDB_API_ extern int idb_probes_off;

/* A named CFH instance, e.g. one per simulation object. Not thread-safe: use one from one
 * thread at a time. Its data stays until the profile is written, even after
 * idb_cfh_destroy; creating one with the name of a destroyed one continues it. */
typedef struct idb_cfh idb_cfh_t;

/* Returns the CFH named `name` (copied, truncated to 63 bytes), or NULL when probes are
 * off or memory is exhausted. The other idb_cfh_* calls accept NULL and do nothing. */
IDB_API_ idb_cfh_t *idb_cfh_create(const char *name);
/* Closes a named CFH's open probes; its data stays. A thread's default CFH
 * (idb_thread_cfh) is left alone: it ends with its thread. */
IDB_API_ void idb_cfh_destroy(idb_cfh_t *cfh);
IDB_API_ void idb_cfh_start(idb_cfh_t *cfh, int kind, int id, const char *description);
IDB_API_ void idb_cfh_start_at(idb_cfh_t *cfh, int kind, int id, const char *description,
                               const char *file, int line, const char *function);
IDB_API_ void idb_cfh_stop(idb_cfh_t *cfh, int id);
/* The CFH's name; "" for NULL. */
IDB_API_ const char *idb_cfh_name(const idb_cfh_t *cfh);
/* Writes the CFH as text, one line per node: the path of probe descriptions joined by
 * ';' and the node's activation count. `stream` is a FILE*. Returns 0, or -1 on a write
 * error or NULL arguments. */
IDB_API_ int idb_cfh_dump(const idb_cfh_t *cfh, void *stream);
/* The calling thread's default CFH (created on first use), or NULL when probes are off. */
IDB_API_ idb_cfh_t *idb_thread_cfh(void);

/* Makes `cfh` the calling thread's current CFH until the matching idb_cfh_leave:
 * idb_start, idb_stop, the scope macros without a CFH (those idb-instrument writes) and
 * the MPI layer's COMM probes record in it instead of the thread's default CFH. Enters
 * nest; leaving one makes current again the CFH that was current before it. Probes opened
 * inside an enter should close before its leave (each CFH has its own open probes).
 * Enters deeper than 32 are not made; entering a destroyed CFH or another thread's
 * default one makes nothing current; both count as a mismatch of `cfh`. NULL, or probes
 * off: does nothing. Only the calling thread's state changes; the named CFH itself must
 * be used from one thread at a time. Not signal-safe. */
IDB_API_ void idb_cfh_enter(idb_cfh_t *cfh);
/* Ends the innermost enter of `cfh` by the calling thread. Enters made inside it and not
 * left end with it, and a leave of a CFH that is not entered is ignored: both count as a
 * mismatch of `cfh`. NULL, or probes off: does nothing. Never fails. */
IDB_API_ void idb_cfh_leave(idb_cfh_t *cfh);

/* A probe's open and close in the thread's current CFH, as idb-instrument writes them
 * around a declaration whose initialiser it probes (`T y = f(x);` cannot be put in a block
 * of its own without hiding y): the fast start first, and a load and a branch when probes
 * are off. The scope macros close with idb_close_ what they opened through the runtime. */
static IDB_INLINE_ void idb_open_(int kind, int id, const char *description, const char *file,
                                  int line, const char *function) {
  if (__builtin_expect(idb_probes_off, 0)) return;
  if (__builtin_expect(!idb_start_fast(id), 0))
    idb_start_at(kind, id, description, file, line, function);
}

/* ---- Internal to the runtime and the scope macros; the layout changes with the runtime.
 * The head of the calling thread's current CFH, which the scope macros read inline: the
 * node of the innermost open activation (the parent of the next), and the CFH's site
 * cache, IDB_SITES_ entries each naming a throttled node by its (parent, probe) key and
 * pointing at the count of activations it may still count so. A scope whose probe and
 * parent the cache holds is counted right there, with no call into the runtime: its open
 * takes one from the count and makes the node the parent of what opens inside it, and its
 * close makes the parent the innermost again. At 0 the runtime takes over (the activation
 * it times as a sample, and the next run of them). The runtime fills an entry whenever it opens a
 * throttled activation, and empties the cache whenever an entry could be stale. A free entry's key
 * is all ones, which no (parent, probe) pair has. */
#ifdef __cplusplus
#define IDB_NULL_ nullptr
#else
#define IDB_NULL_ ((void *)0)
#endif
typedef struct idb_site_ {
  unsigned long long key; /* parent node << 32 | probe ID */
  unsigned int *count;    /* the run left, high bit set; count[-1] is the node */
} idb_site_t;
#define IDB_SITES_ 64
typedef struct idb_hot_ {
  unsigned int top;
  unsigned int reserved_;
  idb_site_t *sites;
} idb_hot_t;
/* The calling thread's current CFH, or NULL before its first probe and after finalize. */
IDB_API_ extern __thread idb_hot_t *idb_hot_ __attribute__((tls_model("initial-exec")));

/* Counts an activation of probe `id` when `hot`'s site cache holds the probe under the
 * innermost node: makes its node the innermost (`*saved` the one before) and returns
 * `hot`; returns NULL, having changed nothing, when the cache does not hold it, or when
 * its run is used up, which the runtime then renews. */
static IDB_INLINE_ idb_hot_t *idb_count_site_(idb_hot_t *hot, int id, unsigned int *saved) {
  unsigned int top = hot->top;
  const idb_site_t *site = &hot->sites[(unsigned int)id & (IDB_SITES_ - 1)];
  unsigned int *count = site->count;
  if (site->key != (((unsigned long long)top << 32) | (unsigned int)id) || *count <= 0x80000000u)
    return IDB_NULL_;
  *saved = top;
  hot->top = count[-1];
  --*count;
  return hot;
}

/* The scope macros' open: a throttled activation the site cache holds is counted inline,
 * and the CFH returned, whose close then makes `*saved` the innermost node again;
 * anything else opens through the runtime (the fast start, then the full one), and NULL
 * is returned. */
static IDB_INLINE_ idb_hot_t *idb_open_scope_(int kind, int id, const char *description,
                                              const char *file, int line, const char *function,
                                              unsigned int *saved) {
  idb_hot_t *hot;
  if (__builtin_expect(idb_probes_off, 0)) return IDB_NULL_;
  hot = idb_hot_;
  if (__builtin_expect(hot != IDB_NULL_, 1) && idb_count_site_(hot, id, saved)) return hot;
  if (__builtin_expect(!idb_start_fast(id), 0))
    idb_start_at(kind, id, description, file, line, function);
  return IDB_NULL_;
}

static IDB_INLINE_ void idb_close_(int id) {
  if (__builtin_expect(idb_probes_off, 0)) return;
  idb_stop(id);
}

/* ---- Scope macros for C: the probe closes on every way out of the enclosing block
 * (return, break, continue, goto, falling off the end), through the cleanup attribute
 * of GCC and Clang. In C++ the same macros use an RAII object and also close on
 * exceptions. */

#define IDB_CAT2_(a, b) a##b
#define IDB_CAT_(a, b) IDB_CAT2_(a, b)

#ifndef __cplusplus
/* A scope's state: plain fields, which the compiler keeps in registers or drops where
 * constant. In a function that calls setjmp GCC warns that a longjmp may clobber them
 * (-Wclobbered, in -Wextra); there idb-instrument declares the scope volatile
 * (`volatile idb_scope_t`, closed by idb_scope_close_volatile_), and so may a hand-placed
 * one. Every field volatile everywhere made CoMD's force loop 7% slower with the probes
 * off (docs/PERFORMANCE.md, 1d). */
struct idb_scope_ {
  idb_cfh_t *cfh;
  idb_hot_t *hot; /* counted inline (idb_open_scope_) */
  int id;
  unsigned int saved;
};
typedef struct idb_scope_ idb_scope_t;

static IDB_INLINE_ idb_scope_t idb_scope_open_(idb_cfh_t *cfh, int kind, int id,
                                               const char *description, const char *file, int line,
                                               const char *function) {
  idb_scope_t scope;
  scope.cfh = cfh;
  scope.id = id;
  scope.saved = 0;
  if (!cfh) {
    scope.hot = idb_open_scope_(kind, id, description, file, line, function, &scope.saved);
  } else {
    scope.hot = IDB_NULL_;
    if (!__builtin_expect(idb_probes_off, 0))
      idb_cfh_start_at(cfh, kind, id, description, file, line, function);
  }
  return scope;
}

static IDB_INLINE_ void idb_scope_end_(idb_cfh_t *cfh, idb_hot_t *hot, int id, unsigned int saved) {
  if (hot)
    hot->top = saved; /* counted inline: the node before is innermost again */
  else if (!cfh)
    idb_close_(id);
  else if (!__builtin_expect(idb_probes_off, 0))
    idb_cfh_stop(cfh, id);
}

static IDB_INLINE_ void idb_scope_close_(idb_scope_t *scope) {
  idb_scope_end_(scope->cfh, scope->hot, scope->id, scope->saved);
}

static IDB_INLINE_ void idb_scope_close_volatile_(volatile idb_scope_t *scope) {
  idb_scope_end_(scope->cfh, scope->hot, scope->id, scope->saved);
}

/* `unused`: Clang's -Wunused-variable does not count the cleanup as a use. */
#define IDB_CFH_SCOPE(cfh, kind, id, description)                                                  \
  idb_scope_t IDB_CAT_(idb_scope_, __LINE__) __attribute__((cleanup(idb_scope_close_), unused)) =  \
      idb_scope_open_((cfh), (kind), (id), (description), __FILE__, __LINE__, __func__)

static inline idb_cfh_t *idb_context_open_(idb_cfh_t *cfh) {
  if (__builtin_expect(idb_probes_off, 0) || !cfh) return 0;
  idb_cfh_enter(cfh);
  return cfh;
}

static inline void idb_context_close_(idb_cfh_t **cfh) {
  if (*cfh) idb_cfh_leave(*cfh);
}

#define IDB_CFH_CONTEXT(cfh)                                                                       \
  idb_cfh_t *IDB_CAT_(idb_context_, __LINE__)                                                      \
      __attribute__((cleanup(idb_context_close_), unused)) = idb_context_open_(cfh)
#endif /* !__cplusplus */

#ifdef __cplusplus
} /* extern "C" */
#endif

#ifdef __cplusplus
#include "idb/probe.hpp"
#endif

/* IDB_CFH_CONTEXT(cfh): `cfh` (an idb_cfh_t*; in C++ also an idb::Cfh) is the calling
 * thread's current CFH until the end of the enclosing block (idb_cfh_enter, then
 * idb_cfh_leave on every way out). */
/* A probe of `kind` open until the end of the enclosing block. */
#define IDB_SCOPE(kind, id, description) IDB_CFH_SCOPE(0, kind, id, description)
/* The enclosing function as a PROC probe, described by its name. */
#define IDB_PROC_SCOPE(id) IDB_SCOPE(IDB_PROC, id, __func__)
#define IDB_LOOP_SCOPE(id, description) IDB_SCOPE(IDB_LOOP, id, description)
#define IDB_CALL_SCOPE(id, description) IDB_SCOPE(IDB_CALL, id, description)
#define IDB_COMM_SCOPE(id, description) IDB_SCOPE(IDB_COMM, id, description)

#endif /* IDB_PROBE_H */
