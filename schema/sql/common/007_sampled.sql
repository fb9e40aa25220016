-- Version 7: samples of throttled activations (docs/configuration.md, "Throttling"). Of a
-- throttled node's activations (`throttled`), one in about IDB_THROTTLE_SAMPLE is timed
-- all the same, at random: `sampled` of them, taking `sampled_total` seconds in all. Their
-- mean stands for every throttled activation's; their time, like the others', lies in the
-- parent's interval, and `count` and the time statistics still describe the activations
-- timed before the node throttled.
ALTER TABLE node_stats ADD COLUMN sampled @INT@ NOT NULL DEFAULT 0 CHECK (sampled >= 0);
ALTER TABLE node_stats ADD COLUMN sampled_total @REAL@ NOT NULL DEFAULT 0
  CHECK (sampled_total >= 0);

-- Per run and probe, the probe's throttled nodes: how many; their activations timed before
-- throttling, counted after, and sampled among those; the mean of the timed ones and of
-- the samples (s; NULL without samples); and the estimated time of every activation (s):
-- the timed ones' and each throttled one at its node's sampled mean (or timed mean, for a
-- node without samples).
DROP VIEW throttled_probes;
CREATE VIEW throttled_probes (run_id, probe_id, nodes, timed, throttled, mean, sampled,
                              sampled_mean, estimated) AS
SELECT h.run_id, n.probe_id, count(*), sum(s.count), sum(s.throttled),
       sum(s.total) / sum(s.count), sum(s.sampled),
       sum(s.sampled_total) / CASE WHEN sum(s.sampled) > 0 THEN sum(s.sampled) END,
       sum(s.total + s.throttled * CASE WHEN s.sampled > 0 THEN s.sampled_total / s.sampled
                                        ELSE s.mean END)
FROM cfh_instances h
JOIN nodes n ON n.cfh_id = h.cfh_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
WHERE s.throttled > 0
GROUP BY h.run_id, n.probe_id;
