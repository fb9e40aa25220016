-- name: imbalance
-- answers: load imbalance across the ranks of a run, per probe: each rank's inclusive total of the probe, then their min, max, mean, imbalance (max/mean) and the rank holding the max.
-- parameters: :run (run label)
-- A rank that never reached the probe counts as 0 (min is then 0); ties for the max go to
-- the lower rank. Same numbers as the SQLite view probe_imbalance, over the base tables.
WITH run AS (
  SELECT run_id FROM runs WHERE label = :run
), per_rank AS (
  SELECT h.rank, n.probe_id, sum(s.total) AS total
  FROM run
  JOIN cfh_instances h ON h.run_id = run.run_id
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  GROUP BY h.rank, n.probe_id
), run_ranks AS (
  SELECT count(DISTINCT h.rank) AS ranks
  FROM run JOIN cfh_instances h ON h.run_id = run.run_id
), ranked AS (
  SELECT probe_id, rank, total,
         row_number() OVER (PARTITION BY probe_id ORDER BY total DESC, rank) AS place,
         min(total) OVER (PARTITION BY probe_id) AS least,
         sum(total) OVER (PARTITION BY probe_id) AS total_sum,
         count(*) OVER (PARTITION BY probe_id) AS reached
  FROM per_rank
)
SELECT k.probe_id, p.description, r.ranks, k.reached AS ranks_reached,
       CASE WHEN k.reached < r.ranks THEN 0.0 ELSE k.least END AS min,
       k.total AS max, k.total_sum / r.ranks AS mean,
       CASE WHEN k.total_sum > 0 THEN k.total / (k.total_sum / r.ranks) END AS imbalance,
       k.rank AS rank_of_max
FROM ranked k
CROSS JOIN run_ranks r
CROSS JOIN run
LEFT JOIN probe_sites p ON p.run_id = run.run_id AND p.probe_id = k.probe_id
WHERE k.place = 1
ORDER BY imbalance DESC, k.total DESC, k.probe_id
