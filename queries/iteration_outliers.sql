-- name: iteration_outliers
-- answers: which iterations of a run's time step (its dynamic probe, docs/configuration.md "Dynamics") stand out: per rank, each stretch of consecutive iterations that one cluster holds, with the seconds each of them took, the rank's mean iteration and how far from it (deviation: seconds / mean - 1); the farthest first.
-- parameters: :run text (run label), :limit integer (rows)
-- From the clusters the runtime kept (profile format 1.6); a run without a dynamic probe
-- has no rows. A stretch's iterations share one cluster, so they took alike: the seconds
-- are the cluster's mean, and a lone spike is a stretch of one.
WITH series AS (
  SELECT d.cfh_id, d.node, h.rank, h.thread, n.probe_id,
         (SELECT sum(cn.seconds) FROM dyn_cluster_nodes cn
          WHERE cn.cfh_id = d.cfh_id AND cn.series = d.node AND cn.node = d.node)
           / d.iterations AS mean
  FROM dyn_series d
  JOIN cfh_instances h ON h.cfh_id = d.cfh_id
  JOIN runs r ON r.run_id = h.run_id
  JOIN nodes n ON n.cfh_id = d.cfh_id AND n.node = d.node
  WHERE r.label = :run AND d.iterations > 0
), per_cluster AS (
  SELECT c.cfh_id, c.series, c.cluster, cn.seconds / c.iterations AS seconds
  FROM series s
  JOIN dyn_clusters c ON c.cfh_id = s.cfh_id AND c.series = s.node
  JOIN dyn_cluster_nodes cn ON cn.cfh_id = c.cfh_id AND cn.series = c.series
                           AND cn.cluster = c.cluster AND cn.node = c.series
)
SELECT s.rank, s.thread, s.probe_id AS dynamic_probe_id, u.first AS first_iteration,
       u.first + u.length - 1 AS last_iteration, u.length AS iterations, k.seconds,
       s.mean AS rank_mean, k.seconds / s.mean - 1 AS deviation
FROM series s
JOIN dyn_runs u ON u.cfh_id = s.cfh_id AND u.series = s.node
JOIN per_cluster k ON k.cfh_id = u.cfh_id AND k.series = u.series AND k.cluster = u.cluster
WHERE s.mean > 0
ORDER BY abs(k.seconds / s.mean - 1) DESC, s.rank, s.thread, u.first
LIMIT CAST(:limit AS INTEGER);
