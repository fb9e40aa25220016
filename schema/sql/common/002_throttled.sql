-- Version 2: runtime throttling (docs/configuration.md). A node whose probe would cost more
-- than a set share of its own time stops timing after a number of activations; later
-- activations are only counted, in `throttled`, and their time stays in the parent's
-- interval. `count` and the time statistics describe the timed activations alone.
ALTER TABLE node_stats ADD COLUMN throttled @INT@ NOT NULL DEFAULT 0 CHECK (throttled >= 0);

-- Per run and probe, the probe's throttled nodes: how many, their activations timed before
-- throttling and counted after, and the mean of the timed ones (s).
CREATE VIEW throttled_probes (run_id, probe_id, nodes, timed, throttled, mean) AS
SELECT h.run_id, n.probe_id, count(*), sum(s.count), sum(s.throttled),
       sum(s.total) / sum(s.count)
FROM cfh_instances h
JOIN nodes n ON n.cfh_id = h.cfh_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
WHERE s.throttled > 0
GROUP BY h.run_id, n.probe_id;
