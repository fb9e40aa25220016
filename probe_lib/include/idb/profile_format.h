/* Constants of the profile file format (docs/profile-format.md), shared by the runtime's
 * writer and the reader library. All integers and doubles are little-endian. */
#ifndef IDB_PROFILE_FORMAT_H
#define IDB_PROFILE_FORMAT_H

/* File header, 16 bytes: magic (8), version major (u16), minor (u16), CRC-32 of the
 * first 12 bytes (u32). A reader refuses a major version it does not know; a minor
 * version only adds sections or appends fields that older readers skip. */
#define IDB_PROFILE_MAGIC "IDBPROF\x1a"
#define IDB_PROFILE_MAGIC_SIZE 8
#define IDB_PROFILE_VERSION_MAJOR 1
#define IDB_PROFILE_VERSION_MINOR 7
#define IDB_PROFILE_HEADER_SIZE 16

/* Section header, 24 bytes: type (u32), item count (u32), payload length (u64), CRC-32
 * (u32) of the header with this field as zero followed by the payload, reserved (u32, 0). */
#define IDB_SECTION_HEADER_SIZE 24

#define IDB_SECTION_META 1          /* key/value strings: run metadata */
#define IDB_SECTION_PROBES 2        /* the probe table */
#define IDB_SECTION_CFH 3           /* one CFH instance and its nodes */
#define IDB_SECTION_SUMMARY 4       /* 1.1: cross-rank spread per node of the CFH before it */
#define IDB_SECTION_HIST 5          /* 1.3: duration histograms of nodes of the CFH before it */
#define IDB_SECTION_WAIT 6          /* 1.4: wait states of COMM nodes of the CFH before it */
#define IDB_SECTION_WAIT_SPREAD 7   /* 1.5: cross-rank spread of a summary CFH's waits */
#define IDB_SECTION_DYN 8           /* 1.6: a dynamic node's iterations, clustered */
#define IDB_SECTION_END 0x00444E45u /* "END": last section; payload: file length (u64) */

/* CFH section payload: rank (i32), thread (i32), flags (u32), node record size (u32),
 * overflow, mismatches, unclosed, depth overflow (u64 each), name (u32 length + bytes),
 * then the node records. */
#define IDB_CFH_FLAG_NAMED 1u   /* a named instance, not a thread's default CFH */
#define IDB_CFH_FLAG_SUMMARY 2u /* 1.1: every rank merged (rank -1); a SUMMARY section follows */
#define IDB_CFH_FIXED_SIZE 48

/* Node record: parent index (u32, IDB_NO_PARENT for the root), probe id (i32), then
 * idb_stats_t field by field with times in seconds: 112 bytes in versions 1.0 and 1.1,
 * 120 from 1.2 (`throttled` appended), 136 from 1.7 (`sampled`, `sampled_sum`). A reader
 * takes records of at least the 1.0 size and leaves the fields a shorter record lacks
 * at 0. */
#define IDB_NODE_RECORD_SIZE 136
#define IDB_NODE_RECORD_SIZE_1_0 112
#define IDB_NO_PARENT 0xFFFFFFFFu

/* SUMMARY section payload: record size (u32), reserved (u32, 0), then one record per node
 * of the CFH before it: ranks that reached the node (u32), reserved (u32), and for wall
 * total, count, CPU total, bytes sent, bytes received: min, max, mean, M2 (f64 each), the
 * ranks of min and max (i32 each). */
#define IDB_SUMMARY_RECORD_SIZE 208
#define IDB_SUMMARY_QUANTITIES 5

/* HIST section payload (1.3): bucket scheme (u32, IDB_HIST_SUB_BITS: 4), unit (u32,
 * IDB_HIST_UNIT_NS), then one histogram per node that has one (the item count), in
 * increasing node order: node index (u32), level (u32, 0 to IDB_HIST_MAX_LEVEL), bucket
 * count n (u32, 1 or more), then n pairs of bucket index (u32, increasing, of that level)
 * and count (u64, 1 or more). A node's counts add up to its `count` (timed activations).
 * The section follows its CFH section (and that CFH's SUMMARY section, if any). */
#define IDB_HIST_UNIT_NS 1u
#define IDB_HIST_FIXED_SIZE 8
#define IDB_HIST_PAIR_SIZE 12

/* WAIT section payload (1.4): one item per node and pattern with waiting time (the item
 * count), in increasing (node, pattern) order: node index (u32), pattern (u32, an
 * idb_wait_pattern of idb/wait_states.h), seconds (f64, 0 or more, at most the node's wall
 * total), instances (u64: activations that waited, at most the node's count). The section
 * follows its CFH section (and that CFH's SUMMARY and HIST sections, if any). */
#define IDB_WAIT_ITEM_SIZE 24

/* WAIT_SPREAD section payload (1.5): follows the WAIT section of a summary CFH, one item
 * per WAIT item and in the same order: node index (u32), pattern (u32), ranks that reached
 * the node (u32; those that did not wait there count as 0 s), reserved (u32, 0), then the
 * seconds' spread over those ranks: min, max, mean, M2 (f64 each), the ranks of min and
 * max (i32 each; the lowest on ties). */
#define IDB_WAIT_SPREAD_ITEM_SIZE 56
/* DYN section payload (1.6): one per dynamic node of the CFH before it (after that CFH's
 * other sections); the item count is the cluster count. Dynamic node index (u32), members
 * m (u32), clusters k (u32), runs r (u32), iterations clustered (u64, numbered from 0),
 * iterations dropped past the reserve (u64), subtree nodes not followed (u64), merges of
 * clusters of different call-tree classes (u64); then m member node indexes (u32; the
 * dynamic node first, then nodes of its subtree); then k clusters, numbered by their first
 * iteration: iterations (u64, 1 or more) and per member its activations and wall seconds
 * summed over those iterations (f64 each); then r runs of the iteration-to-cluster map,
 * in iteration order: length (u32, 1 or more), cluster (u32). */
#define IDB_DYN_FIXED_SIZE 48
#define IDB_DYN_ENTRY_SIZE 16
#define IDB_DYN_RUN_SIZE 8

#endif /* IDB_PROFILE_FORMAT_H */
