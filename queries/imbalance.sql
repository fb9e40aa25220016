-- name: imbalance
-- answers: load imbalance across the ranks of a run, per probe: each rank's inclusive total of the probe, then their min, max, mean, imbalance (max/mean) and the rank holding the max; on a summary-mode run, the spread of the probe's heaviest node (basis, nodes).
-- parameters: :run text (run label)
-- basis 'ranks' (a CFH per rank): a rank that never reached the probe counts as 0 (min is
-- then 0); ties for the max go to the lower rank. basis 'spread' (summary mode, one CFH for
-- every rank): per-rank sums over several nodes cannot be rebuilt from each node's spread,
-- so the row is the cross-rank spread of the probe's heaviest node (largest total; then
-- lowest cfh_id, node), and nodes says how many nodes the probe has: with 1 the row equals
-- what basis 'ranks' would give. Same numbers as the view probe_imbalance, over the base
-- tables.
WITH run AS (
  SELECT run_id, nprocs FROM runs WHERE label = :run
), per_rank AS (
  SELECT h.rank, n.probe_id, sum(s.total) AS total
  FROM run
  JOIN cfh_instances h ON h.run_id = run.run_id
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE h.summary = 0
  GROUP BY h.rank, n.probe_id
), run_ranks AS (
  SELECT count(DISTINCT h.rank) AS ranks
  FROM run JOIN cfh_instances h ON h.run_id = run.run_id
  WHERE h.summary = 0
), ranked AS (
  SELECT probe_id, rank, total,
         row_number() OVER (PARTITION BY probe_id ORDER BY total DESC, rank) AS place,
         min(total) OVER (PARTITION BY probe_id) AS least,
         sum(total) OVER (PARTITION BY probe_id) AS total_sum,
         count(*) OVER (PARTITION BY probe_id) AS reached
  FROM per_rank
), heaviest AS (
  SELECT n.probe_id, d.ranks, d.min, d.max, d.mean, d.rank_max,
         row_number() OVER (PARTITION BY n.probe_id ORDER BY s.total DESC, h.cfh_id, n.node)
           AS place,
         count(*) OVER (PARTITION BY n.probe_id) AS nodes
  FROM run
  JOIN cfh_instances h ON h.run_id = run.run_id
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  JOIN node_spread d ON d.cfh_id = n.cfh_id AND d.node = n.node AND d.quantity = 'total'
  WHERE h.summary = 1
), answer AS (
  SELECT k.probe_id, r.ranks, k.reached AS ranks_reached,
         CASE WHEN k.reached < r.ranks THEN 0.0 ELSE k.least END AS min,
         k.total AS max, k.total_sum / r.ranks AS mean,
         CASE WHEN k.total_sum > 0 THEN k.total / (k.total_sum / r.ranks) END AS imbalance,
         k.rank AS rank_of_max, 'ranks' AS basis, NULL AS nodes
  FROM ranked k
  CROSS JOIN run_ranks r
  WHERE k.place = 1
  UNION ALL
  SELECT k.probe_id, run.nprocs, k.ranks,
         CASE WHEN k.ranks < run.nprocs THEN 0.0 ELSE k.min END,
         k.max, k.mean * k.ranks / run.nprocs,
         CASE WHEN k.mean > 0 THEN k.max / (k.mean * k.ranks / run.nprocs) END,
         k.rank_max, 'spread', k.nodes
  FROM heaviest k
  CROSS JOIN run
  WHERE k.place = 1
)
SELECT a.probe_id, p.description, a.ranks, a.ranks_reached, a.min, a.max, a.mean,
       a.imbalance, a.rank_of_max, a.basis, a.nodes
FROM answer a
CROSS JOIN run
LEFT JOIN probe_sites p ON p.run_id = run.run_id AND p.probe_id = a.probe_id
ORDER BY a.imbalance DESC, a.max DESC, a.probe_id
