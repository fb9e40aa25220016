-- IDB schema version 1, after 001_base.sql, on both engines: the classic relations as
-- views (probes, lookup, connections, cfh) and the derived views (docs/schema.md). Two
-- more dialect words: GREATEST, the larger of two values (max / greatest), and
-- ORDERED_JOIN, a join whose left side the planner must keep outermost (SQLite's CROSS
-- JOIN; a plain JOIN on PostgreSQL, whose planner orders by statistics). The classic
-- functions sdev, minprobe, maxprobe and maxnoise are registered by the SQLite connection
-- (schema/src/sqlite_functions.cpp) and defined in sql/postgresql/001_postgresql.sql.

-- The classic IDB relations (docs/schema.md, "Classic relations"). Classic columns come
-- first, in the classic order; IDB's extra columns follow.

-- One row per (CFH instance, probe): the probe's nodes in that CFH merged exactly. The
-- inner query puts the group's mean beside every node (a window over the group) for the
-- pooled M2 = sum(m2_i) + sum(c_i * (mean_i - avg)^2); run_id and rank are in the
-- partition so that a filter on them (or on cfh or lid) reaches the base tables.
CREATE VIEW probes (cfh, lid, id, min, max, avg, sdev, count, noise, type, proc, cpu_acc,
                    cpu_min, cpu_max, run_id, thread, total, cpu_count, bytes_sent,
                    bytes_recv, nodes) AS
SELECT g.cfh_id, g.probe_id, g.id, g.min, g.max, g.avg, g.sdev, g.count, g.noise, ps.kind,
       g.rank, g.cpu_total, g.cpu_min, g.cpu_max, g.run_id, g.thread, g.total, g.cpu_count,
       g.bytes_sent, g.bytes_recv, g.nodes
FROM (
  SELECT run_id, rank, thread, cfh_id, probe_id,
         (cfh_id << 32) + min(node) AS id,
         coalesce(min(CASE WHEN count > 0 THEN min END), 0.0) AS min,
         coalesce(max(CASE WHEN count > 0 THEN max END), 0.0) AS max,
         CASE WHEN sum(count) > 0 THEN sum(total) / sum(count) ELSE 0.0 END AS avg,
         CASE WHEN sum(count) > 1
              THEN sqrt(@GREATEST@(sum(m2 + count * (mean - group_avg) * (mean - group_avg)), 0.0)
                        / (sum(count) - 1))
              ELSE 0.0 END AS sdev,
         sum(count) AS count, sum(total) AS total, sum(noise) AS noise,
         sum(cpu_count) AS cpu_count,
         sum(CASE WHEN cpu_count > 0 THEN cpu_total ELSE 0.0 END) AS cpu_total,
         coalesce(min(CASE WHEN cpu_count > 0 THEN cpu_min END), 0.0) AS cpu_min,
         coalesce(max(CASE WHEN cpu_count > 0 THEN cpu_max END), 0.0) AS cpu_max,
         sum(bytes_sent) AS bytes_sent, sum(bytes_recv) AS bytes_recv, count(*) AS nodes
  FROM (
    SELECT h.run_id, h.rank, h.thread, n.cfh_id, n.node, n.probe_id, s.count, s.total,
           s.min, s.max, s.mean, s.m2, s.noise, s.cpu_count, s.cpu_total, s.cpu_min,
           s.cpu_max, s.bytes_sent, s.bytes_recv,
           sum(s.total) OVER w / nullif(sum(s.count) OVER w, 0) AS group_avg
    FROM cfh_instances h
    JOIN nodes n ON n.cfh_id = h.cfh_id
    JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
    WINDOW w AS (PARTITION BY h.run_id, h.rank, n.cfh_id, n.probe_id)
  ) AS per_node
  GROUP BY run_id, rank, thread, cfh_id, probe_id
) AS g
LEFT JOIN probe_sites ps ON ps.run_id = g.run_id AND ps.probe_id = g.probe_id;

-- Probe descriptions by probe ID.
CREATE VIEW lookup (name, lid, run_id, kind, file, line, function) AS
SELECT description, probe_id, run_id, kind, file, line, function FROM probe_sites;

-- The probe-level call graph of each CFH: one row per (CFH, parent probe, child probe).
CREATE VIEW connections (cfh, proc, parent, child, run_id, thread, edges) AS
SELECT h.cfh_id, h.rank, CASE WHEN p.parent IS NULL THEN 0 ELSE p.probe_id END, c.probe_id,
       h.run_id, h.thread, count(*)
FROM nodes c
JOIN nodes p ON p.cfh_id = c.cfh_id AND p.node = c.parent
JOIN cfh_instances h ON h.cfh_id = c.cfh_id
GROUP BY h.cfh_id, CASE WHEN p.parent IS NULL THEN 0 ELSE p.probe_id END, c.probe_id;

-- The CFH instances by their classic names.
CREATE VIEW cfh (cfh, name, run_id, proc, thread, named) AS
SELECT cfh_id, name, run_id, rank, thread, named FROM cfh_instances;

-- Derived views (docs/schema.md, "Derived views").

-- Inclusive, exclusive and noise-corrected time of every node. The small cfh_instances
-- table stays outermost, so a filter on rank or thread reads only those CFHs.
CREATE VIEW node_times (cfh_id, node, probe_id, inclusive, exclusive, descendant_noise,
                        corrected, run_id, rank, thread) AS
SELECT n.cfh_id, n.node, n.probe_id, s.total, s.exclusive, s.descendant_noise,
       s.total - s.descendant_noise, h.run_id, h.rank, h.thread
FROM cfh_instances h
@ORDERED_JOIN@ nodes n ON n.cfh_id = h.cfh_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node;

-- Per probe across the ranks of a run, on two bases (column basis). 'ranks', a run with a
-- CFH per rank: each rank's inclusive total of the probe (every node of the probe in every
-- CFH of the rank), then their spread; a rank that never reached the probe counts as 0.
-- 'spread', a summary-mode run (one CFH for all ranks): the per-rank sums of a probe with
-- several nodes cannot be rebuilt from each node's spread, so the row is the spread of the
-- probe's heaviest node (largest total over the ranks; then lowest cfh_id, node) and
-- `nodes` says how many it has: with 1 the row is what the 'ranks' basis would give.
CREATE VIEW probe_imbalance (run_id, probe_id, min, max, mean, imbalance, rank_of_max,
                             ranks, ranks_reached, basis, nodes) AS
WITH per_rank AS (
  SELECT h.run_id, h.rank, n.probe_id, sum(s.total) AS total
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE h.summary = 0
  GROUP BY h.run_id, h.rank, n.probe_id
), run_ranks AS (
  SELECT run_id, count(DISTINCT rank) AS ranks FROM cfh_instances WHERE summary = 0
  GROUP BY run_id
), ranked AS (
  SELECT run_id, probe_id, rank, total,
         row_number() OVER (PARTITION BY run_id, probe_id ORDER BY total DESC, rank) AS place,
         min(total) OVER p AS least, sum(total) OVER p AS sum, count(*) OVER p AS reached
  FROM per_rank
  WINDOW p AS (PARTITION BY run_id, probe_id)
), heaviest AS (
  SELECT h.run_id, n.probe_id, d.ranks, d.min, d.max, d.mean, d.rank_max,
         row_number() OVER (PARTITION BY h.run_id, n.probe_id
                            ORDER BY s.total DESC, h.cfh_id, n.node) AS place,
         count(*) OVER (PARTITION BY h.run_id, n.probe_id) AS nodes
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  JOIN node_spread d ON d.cfh_id = n.cfh_id AND d.node = n.node AND d.quantity = 'total'
  WHERE h.summary = 1
)
SELECT k.run_id, k.probe_id, CASE WHEN k.reached < r.ranks THEN 0.0 ELSE k.least END,
       k.total, k.sum / r.ranks,
       CASE WHEN k.sum > 0 THEN k.total / (k.sum / r.ranks) END,
       k.rank, r.ranks, k.reached, 'ranks', NULL
FROM ranked k
JOIN run_ranks r ON r.run_id = k.run_id
WHERE k.place = 1
UNION ALL
SELECT k.run_id, k.probe_id, CASE WHEN k.ranks < r.nprocs THEN 0.0 ELSE k.min END,
       k.max, k.mean * k.ranks / r.nprocs,
       CASE WHEN k.mean > 0 THEN k.max / (k.mean * k.ranks / r.nprocs) END,
       k.rank_max, r.nprocs, k.ranks, 'spread', k.nodes
FROM heaviest k
JOIN runs r ON r.run_id = k.run_id
WHERE k.place = 1;

-- CPU time over wall time of every node with CPU-timed activations. The wall time of the
-- CPU-timed activations is the node's total when all were timed, else mean * cpu_count.
CREATE VIEW node_cpu_ratio (cfh_id, node, probe_id, cpu_count, cpu_total, wall, ratio,
                            run_id, rank, thread) AS
SELECT cfh_id, node, probe_id, cpu_count, cpu_total, wall,
       CASE WHEN wall > 0 THEN cpu_total / wall END, run_id, rank, thread
FROM (
  SELECT n.cfh_id, n.node, n.probe_id, s.cpu_count, s.cpu_total,
         CASE WHEN s.cpu_count = s.count THEN s.total ELSE s.mean * s.cpu_count END AS wall,
         h.run_id, h.rank, h.thread
  FROM cfh_instances h
  @ORDERED_JOIN@ nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE s.cpu_count > 0
) AS timed;
