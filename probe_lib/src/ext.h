/* The runtime's interface to its MPI layer (libidb_mpi, probe_lib/mpi): COMM probes that
 * carry bytes, the rank and size from MPI_Init, and a finalize split in two so the MPI
 * layer can combine the ranks' data before one of them writes the file. Exported from
 * libidb_probe (the idb_* names) but not installed: programs use idb/probe.h. */
#ifndef IDB_EXT_H
#define IDB_EXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define IDB_EXT_API_ __attribute__((visibility("default")))
#else
#define IDB_EXT_API_
#endif

/* Opens the COMM probe `id` (described by `name`) around an MPI call on the calling
 * thread, unless the innermost open probe is a COMM probe already (the instrumenter put
 * one around the call): then nothing opens and the bytes go to that probe. Returns 1 when
 * it opened a probe, 0 when it did not, -1 when probes do not record. Thread-safe. */
IDB_EXT_API_ int idb_ext_comm_begin(int id, const char *name);

/* Adds `sent` and `received` bytes to the calling thread's innermost open node, then
 * closes probe `id` when `opened` (the value idb_ext_comm_begin returned) is 1. */
IDB_EXT_API_ void idb_ext_comm_end(int opened, int id, uint64_t sent, uint64_t received);

/* Where a COMM activation was recorded: the calling thread's CFH and its node. */
typedef struct idb_ext_site {
  void *cfh;
  uint32_t node;
} idb_ext_site_t;

/* The site of the calling thread's innermost open recorded node when it is a COMM node
 * (inside idb_ext_comm_begin/end); returns 1 then, else 0 (*site untouched). */
IDB_EXT_API_ int idb_ext_comm_site(idb_ext_site_t *site);

/* Adds `seconds` over `instances` activations of waiting in `pattern`
 * (idb/wait_states.h) to the node at `site`, for the profile's WAIT section. Only between
 * idb_ext_stop and the first idb_ext_local_data or idb_ext_write. Returns 0, or -1 when
 * the site is unknown, the pattern, seconds or instances invalid, or memory exhausted. */

IDB_EXT_API_ int idb_ext_add_waits(idb_ext_site_t site, unsigned pattern, double seconds,
                                   uint64_t instances);

/* The wall clock's ticks now, and how many make a second (the runtime's timer). */
IDB_EXT_API_ uint64_t idb_ext_now(void);
IDB_EXT_API_ double idb_ext_ticks_per_second(void);

/* Adds metadata `key` = `value` to the profile this process writes (at most 8 keys; a key
 * given again replaces its value; longer texts are cut at 95 bytes). */
IDB_EXT_API_ void idb_ext_set_meta(const char *key, const char *value);

/* The MPI rank and size, as MPI_Init found them (the launcher's environment is only a
 * first guess). Starts the runtime if nobody has. */
IDB_EXT_API_ void idb_ext_set_rank(int rank, int nprocs);

/* A byte buffer the runtime allocated with malloc: the caller frees `data`. */
typedef struct idb_ext_bytes {
  unsigned char *data;
  size_t size;
  uint32_t count; /* items: probes, or sections */
} idb_ext_bytes_t;

/* The first half of idb_finalize: closes the calling thread's probes, takes the end time
 * and turns every probe off. Returns 1 when the runtime was recording (its data is then
 * ready for idb_ext_local_data), 0 when it had finished already, -1 when probes are off
 * (IDB_ENABLE=0). Call from one thread. */
IDB_EXT_API_ int idb_ext_stop(void);

/* This process's probe table (a PROBES payload: count in `count`) and its CFH sections
 * (complete sections with headers and checksums; their number in `count`), as
 * docs/profile-format.md lays them out; either may be NULL to skip it. Asking for the
 * sections also reports this process's warnings on stderr. Returns 0, or -1 when memory is
 * exhausted (a buffer is then empty). Only after idb_ext_stop returned 1. */
IDB_EXT_API_ int idb_ext_local_data(idb_ext_bytes_t *probes, idb_ext_bytes_t *sections);

/* The second half of idb_finalize: writes the profile with this process's metadata and
 * probe table (after idb_register_probe of every probe the other ranks saw) and
 * `sections` in place of its own CFHs, or its own CFHs when `sections` is NULL. `mode`
 * is stored as the metadata `mpi_mode` (NULL: none). Reports on stderr as idb_finalize
 * does. Returns 0 when the file was written, -1 otherwise. */
IDB_EXT_API_ int idb_ext_write(const idb_ext_bytes_t *sections, const char *mode);

/* This process's own profile, written before the ranks merge so that it survives a merge
 * that never completes (docs/mpi.md, IDB_MPI_SPILL): the expanded IDB_OUT path with
 * `suffix` appended, metadata `mpi_mode` `rank`. Its path goes to `path` (`size` bytes).
 * Returns 0 when written, -1 otherwise (reported). */
IDB_EXT_API_ int idb_ext_write_spill(const char *suffix, char *path, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* IDB_EXT_H */
