/* The one declaration of a CFH node's statistics record: every field with its type, the
 * unit the runtime keeps it in, its merge rule, the count of the samples it describes and
 * its column in the database. The record (idb/stats.h), its merge, the profile writer,
 * the MPI summary merge, the reader, the loader's column list and the read-back queries
 * all expand this table, so a new fixed-size field is one line here plus its tests (and a
 * schema migration for its column). Fields appear in the profile's node record in this
 * order; a new field goes at the end, where older readers skip it. Header-only C99. */
#ifndef IDB_STATS_FIELDS_H
#define IDB_STATS_FIELDS_H

/* X(field, type, unit, merge, group, column)
 *   type   U64 (an unsigned 64-bit integer) or F64 (a double), in memory and in the file
 *   unit   what the runtime keeps, which the writer turns into the profile's units:
 *          COUNT and BYTES as they are, TICKS into seconds, TICKS2 into seconds squared,
 *          NS (nanoseconds) into seconds
 *   merge  how two records combine (idb_stats_merge): ADD adds, SUM adds when
 *          the group has samples, MIN and MAX keep the extreme of the samples there are,
 *          MEAN and M2 combine by Chan's formulas (M2 pairs with the field `mean`)
 *   group  the count of the samples the field describes (count: wall-timed activations,
 *          cpu_count: CPU-timed ones, sampled: throttled activations timed as samples)
 *   Fields from `throttled` on were appended in format 1.2, `sampled` and `sampled_sum`
 *   in 1.7; a reader of an older profile's shorter record leaves them 0.
 *   column its column in node_stats (docs/schema.md) */
#define IDB_STATS_FIELDS(X)                                                                        \
  X(count, U64, COUNT, ADD, count, "count")                                                        \
  X(sum, F64, TICKS, SUM, count, "total")                                                          \
  X(min, F64, TICKS, MIN, count, "min")                                                            \
  X(max, F64, TICKS, MAX, count, "max")                                                            \
  X(mean, F64, TICKS, MEAN, count, "mean")                                                         \
  X(m2, F64, TICKS2, M2, count, "m2")                                                              \
  X(cpu_count, U64, COUNT, ADD, cpu_count, "cpu_count")                                            \
  X(cpu_sum, F64, NS, SUM, cpu_count, "cpu_total")                                                 \
  X(cpu_min, F64, NS, MIN, cpu_count, "cpu_min")                                                   \
  X(cpu_max, F64, NS, MAX, cpu_count, "cpu_max")                                                   \
  X(noise, F64, TICKS, ADD, count, "noise")                                                        \
  X(bytes_sent, U64, BYTES, ADD, count, "bytes_sent")                                              \
  X(bytes_recv, U64, BYTES, ADD, count, "bytes_recv")                                              \
  X(throttled, U64, COUNT, ADD, count, "throttled")                                                \
  X(sampled, U64, COUNT, ADD, sampled, "sampled")                                                  \
  X(sampled_sum, F64, TICKS, SUM, sampled, "sampled_total")

/* A field's `unit`, for code that converts it. */
enum idb_stats_unit {
  IDB_UNIT_COUNT,
  IDB_UNIT_BYTES,
  IDB_UNIT_TICKS,
  IDB_UNIT_TICKS2,
  IDB_UNIT_NS
};

/* The C type of a field's `type`. */
#define IDB_STATS_CTYPE_U64 uint64_t
#define IDB_STATS_CTYPE_F64 double
#define IDB_STATS_CTYPE(type) IDB_STATS_CTYPE_##type

/* The number of fields, and the bytes of the record in the profile (all fields are 8). */
/* `+1` per field after a 0: in parentheses it would read as a call of 0. */
/* NOLINTNEXTLINE(bugprone-macro-parentheses) */
#define IDB_STATS_COUNT_ONE(field, type, unit, merge, group, column) +1
#define IDB_STATS_FIELD_COUNT (0 IDB_STATS_FIELDS(IDB_STATS_COUNT_ONE))
#define IDB_STATS_RECORD_BYTES (8 * IDB_STATS_FIELD_COUNT)

/* One field's merge: a := o merged with b, where o is a's value before the merge. */
#define IDB_STATS_MERGE_ADD(a, o, b, f, g) (a)->f = (o)->f + (b)->f;
#define IDB_STATS_MERGE_SUM(a, o, b, f, g)                                                         \
  if ((b)->g > 0) (a)->f = (o)->f + (b)->f;
#define IDB_STATS_MERGE_MIN(a, o, b, f, g)                                                         \
  if ((b)->g > 0 && ((o)->g == 0 || (b)->f < (o)->f)) (a)->f = (b)->f;
#define IDB_STATS_MERGE_MAX(a, o, b, f, g)                                                         \
  if ((b)->g > 0 && ((o)->g == 0 || (b)->f > (o)->f)) (a)->f = (b)->f;
#define IDB_STATS_MERGE_MEAN(a, o, b, f, g)                                                        \
  if ((b)->g > 0)                                                                                  \
    (a)->f = (o)->g == 0 ? (b)->f                                                                  \
                         : (o)->f + ((b)->f - (o)->f) *                                            \
                                        ((double)(b)->g / ((double)(o)->g + (double)(b)->g));
#define IDB_STATS_MERGE_M2(a, o, b, f, g)                                                          \
  if ((b)->g > 0)                                                                                  \
    (a)->f = (o)->g == 0 ? (b)->f                                                                  \
                         : (o)->f + ((b)->f + ((b)->mean - (o)->mean) * ((b)->mean - (o)->mean) *  \
                                                  ((double)(o)->g * (double)(b)->g /               \
                                                   ((double)(o)->g + (double)(b)->g)));

#endif /* IDB_STATS_FIELDS_H */
