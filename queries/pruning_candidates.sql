-- name: pruning_candidates
-- answers: probes of a run called very often for very little time each (at least :min_count activations over the run, mean time per activation at most :max_mean seconds): candidates to remove, since their bookkeeping may cost more than they tell.
-- parameters: :run text (run label), :min_count integer (e.g. 100000), :max_mean real (seconds, e.g. 0.000001)
-- count is every activation, timed or throttled (node_stats.throttled: counted after
-- runtime throttling stopped timing the node); mean is over the timed ones. noise_estimate
-- charges each timed activation the run's calibrated cost of one start/stop pair and each
-- throttled one that of a throttled pair (run_meta throttled_noise_per_activation_s).
SELECT n.probe_id, p.kind, p.description, sum(s.count + s.throttled) AS count,
       sum(s.total) AS total, sum(s.total) / sum(s.count) AS mean,
       sum(s.count) * max(r.noise_per_activation) +
         sum(s.throttled) * coalesce(max(t.charge), 0) AS noise_estimate
FROM runs r
JOIN cfh_instances h ON h.run_id = r.run_id
JOIN nodes n ON n.cfh_id = h.cfh_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
LEFT JOIN probe_sites p ON p.run_id = r.run_id AND p.probe_id = n.probe_id
LEFT JOIN (SELECT run_id, CAST(value AS DOUBLE PRECISION) AS charge FROM run_meta
           WHERE key = 'throttled_noise_per_activation_s') t ON t.run_id = r.run_id
WHERE r.label = :run AND n.parent IS NOT NULL
GROUP BY n.probe_id, p.kind, p.description
HAVING sum(s.count + s.throttled) >= CAST(:min_count AS BIGINT)
   AND sum(s.total) <= CAST(:max_mean AS DOUBLE PRECISION) * sum(s.count)
ORDER BY count DESC, n.probe_id
