/* The wait-state patterns of communication, declared once: the replay at MPI_Finalize
 * (probe_lib/mpi) computes them, the profile's WAIT section numbers them, the reader and
 * the database name them (docs/mpi.md, "Wait states"). X(key, name): a new pattern goes at
 * the end, so numbers never change. Header-only C99.
 *   late_sender     a receive waited for a send that began later
 *   late_receiver   a synchronous send waited for a receive that began later
 *   wait_nxn        an N-to-N collective waited for the last rank to arrive
 *   wait_barrier    a barrier waited for the last rank to arrive
 *   late_broadcast  a rank of a 1-to-N collective waited for the root to arrive
 *   early_reduce    the root of an N-to-1 collective waited for the first other rank */
#ifndef IDB_WAIT_STATES_H
#define IDB_WAIT_STATES_H

#define IDB_WAIT_PATTERNS(X)                                                                       \
  X(late_sender, "late sender")                                                                    \
  X(late_receiver, "late receiver")                                                                \
  X(wait_nxn, "wait at NxN")                                                                       \
  X(wait_barrier, "wait at barrier")                                                               \
  X(late_broadcast, "late broadcast")                                                              \
  X(early_reduce, "early reduce")

enum idb_wait_pattern {
#define IDB_WAIT_ENUM_(key, name) IDB_WAIT_##key,
  IDB_WAIT_PATTERNS(IDB_WAIT_ENUM_)
#undef IDB_WAIT_ENUM_
      IDB_WAIT_PATTERN_COUNT
};

/* The pattern's name ("late sender"); "" for a number past the last. */
static inline const char *idb_wait_pattern_name(unsigned pattern) {
  static const char *const names[] = {
#define IDB_WAIT_NAME_(key, name) name,
      IDB_WAIT_PATTERNS(IDB_WAIT_NAME_)
#undef IDB_WAIT_NAME_
          ""};
  return names[pattern < IDB_WAIT_PATTERN_COUNT ? pattern : (unsigned)IDB_WAIT_PATTERN_COUNT];
}

#endif /* IDB_WAIT_STATES_H */
