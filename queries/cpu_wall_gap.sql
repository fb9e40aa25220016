-- name: cpu_wall_gap
-- answers: nodes whose CPU-timed activations spent much less CPU time than wall time (CPU/wall ratio below a bound): suspects for blocking, waiting and synchronisation, largest off-CPU time first.
-- parameters: :run text (run label), :max_ratio real (report ratios below this, e.g. 0.5)
-- The wall time of the CPU-timed activations is the node's total when all were timed,
-- else mean * cpu_count (as in the SQLite view node_cpu_ratio).
WITH timed AS (
  SELECT h.rank, h.thread, h.run_id, n.cfh_id, n.node, n.probe_id, s.count, s.cpu_count,
         s.cpu_total,
         CASE WHEN s.cpu_count = s.count THEN s.total ELSE s.mean * s.cpu_count END AS wall
  FROM runs r
  JOIN cfh_instances h ON h.run_id = r.run_id
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE r.label = :run AND s.cpu_count > 0
)
SELECT t.rank, t.thread, t.node, t.probe_id, p.description, t.count, t.cpu_count, t.wall,
       t.cpu_total, t.cpu_total / t.wall AS ratio, t.wall - t.cpu_total AS off_cpu
FROM timed t
LEFT JOIN probe_sites p ON p.run_id = t.run_id AND p.probe_id = t.probe_id
WHERE t.wall > 0 AND t.cpu_total / t.wall < CAST(:max_ratio AS DOUBLE PRECISION)
ORDER BY off_cpu DESC, t.rank, t.thread, t.node
