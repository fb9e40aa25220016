-- name: hottest_procedures
-- answers: the PROC probes with the most inclusive time in a run, summed over every node of the probe (all ranks, threads and call paths), with their share of the run's time (the sum of the roots' time).
-- parameters: :run text (run label), :limit integer (how many rows, e.g. 20)
-- A recursive procedure's nested nodes each add their own inclusive time, so its sum can
-- exceed its wall time; the share is then above what the procedure really took. The run's
-- time is the sum of the threads' roots: a named CFH's root spans its object's life, which
-- the threads' trees already hold, so it is neither counted there nor listed.
WITH run AS (
  SELECT run_id FROM runs WHERE label = :run
), run_time AS (
  SELECT sum(s.total) AS total
  FROM run
  JOIN cfh_instances h ON h.run_id = run.run_id
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE n.parent IS NULL AND h.named = 0
)
SELECT p.probe_id, p.description, sum(s.count + s.throttled) AS count, sum(s.total) AS inclusive,
       sum(s.total) / (SELECT nullif(total, 0) FROM run_time) AS share
FROM run
JOIN probe_sites p ON p.run_id = run.run_id AND p.kind = 'PROC'
JOIN cfh_instances h ON h.run_id = run.run_id
JOIN nodes n ON n.cfh_id = h.cfh_id AND n.probe_id = p.probe_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
WHERE n.parent IS NOT NULL OR h.named = 0
GROUP BY p.probe_id, p.description
ORDER BY inclusive DESC, p.probe_id
LIMIT CAST(:limit AS INTEGER)
