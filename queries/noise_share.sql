-- name: noise_share
-- answers: per probe of a run, how much of its inclusive time is the probes' own cost: the noise of every node below its nodes over their inclusive time, largest share first.
-- parameters: :run text (run label)
-- The noise inside a node's interval is its descendants' noise (corrected = inclusive -
-- descendant_noise in node_stats), so that is what counts here. The root probe's row sums
-- the threads' roots only: a named CFH's root spans its object's life.
SELECT n.probe_id, p.description, sum(s.count + s.throttled) AS count, sum(s.total) AS inclusive,
       sum(s.descendant_noise) AS noise,
       CASE WHEN sum(s.total) > 0 THEN sum(s.descendant_noise) / sum(s.total) END AS share
FROM runs r
JOIN cfh_instances h ON h.run_id = r.run_id
JOIN nodes n ON n.cfh_id = h.cfh_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
LEFT JOIN probe_sites p ON p.run_id = r.run_id AND p.probe_id = n.probe_id
WHERE r.label = :run AND (n.parent IS NOT NULL OR h.named = 0)
GROUP BY n.probe_id, p.description
ORDER BY share DESC, n.probe_id
