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

/* Opens probe `id` of `kind` in the calling thread's current CFH (see idb_cfh_enter).
 * `description` names the code (e.g. "solve(...) [solver.c:42]"); it is read only the
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

/* A probe's open and close in the thread's current CFH, as the scope macros (C and C++)
 * make them, and as idb-instrument writes them around a declaration whose initialiser it
 * probes (`T y = f(x);` cannot be put in a block of its own without hiding y): the fast
 * start first, and a load and a branch when probes are off. */
static IDB_INLINE_ void idb_open_(int kind, int id, const char *description, const char *file,
                                  int line, const char *function) {
  if (__builtin_expect(idb_probes_off, 0)) return;
  if (__builtin_expect(!idb_start_fast(id), 0))
    idb_start_at(kind, id, description, file, line, function);
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
typedef struct idb_scope_ {
  idb_cfh_t *cfh;
  int id;
} idb_scope_t;

static IDB_INLINE_ idb_scope_t idb_scope_open_(idb_cfh_t *cfh, int kind, int id,
                                               const char *description, const char *file, int line,
                                               const char *function) {
  idb_scope_t scope;
  scope.cfh = cfh;
  scope.id = id;
  if (!cfh)
    idb_open_(kind, id, description, file, line, function);
  else if (!__builtin_expect(idb_probes_off, 0))
    idb_cfh_start_at(cfh, kind, id, description, file, line, function);
  return scope;
}

static IDB_INLINE_ void idb_scope_close_(idb_scope_t *scope) {
  if (!scope->cfh)
    idb_close_(scope->id);
  else if (!__builtin_expect(idb_probes_off, 0))
    idb_cfh_stop(scope->cfh, scope->id);
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
