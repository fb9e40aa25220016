-- name: probe_across_runs
-- answers: one probe, named by its ID or its exact description, in every run of the database: the run's label and attributes, the probe's activations, inclusive time, time per activation and share of the run's time.
-- parameters: :probe text (probe ID or description)
-- attributes are "key=value" pairs in key order, joined with ", " (built by a recursive
-- CTE, since SQLite and PostgreSQL name their string aggregates differently). The run's
-- time, and the root probe's rows, come from the threads' CFHs: a named CFH's root spans
-- its object's life, which the threads' trees already hold.
WITH RECURSIVE numbered AS (
  SELECT run_id, key, value,
         row_number() OVER (PARTITION BY run_id ORDER BY key) AS place
  FROM run_attributes
), joined (run_id, place, text) AS (
  SELECT run_id, place, key || '=' || value FROM numbered WHERE place = 1
  UNION ALL
  SELECT j.run_id, a.place, j.text || ', ' || a.key || '=' || a.value
  FROM joined j JOIN numbered a ON a.run_id = j.run_id AND a.place = j.place + 1
), attributes AS (
  SELECT j.run_id, j.text
  FROM joined j
  WHERE j.place = (SELECT max(place) FROM numbered m WHERE m.run_id = j.run_id)
), run_time AS (
  SELECT h.run_id, sum(s.total) AS total
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE n.parent IS NULL AND h.named = 0
  GROUP BY h.run_id
)
SELECT r.label, a.text AS attributes, p.probe_id, p.description,
       sum(s.count + s.throttled) AS count,
       sum(s.total) AS inclusive,
       CASE WHEN sum(s.count) > 0 THEN sum(s.total) / sum(s.count) END AS per_call,
       sum(s.total) / nullif(max(t.total), 0) AS share
FROM runs r
JOIN probe_sites p ON p.run_id = r.run_id
JOIN cfh_instances h ON h.run_id = r.run_id
JOIN nodes n ON n.cfh_id = h.cfh_id AND n.probe_id = p.probe_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
LEFT JOIN attributes a ON a.run_id = r.run_id
LEFT JOIN run_time t ON t.run_id = r.run_id
WHERE (n.parent IS NOT NULL OR h.named = 0) AND (CAST(p.probe_id AS TEXT) = CAST(:probe AS TEXT) OR p.description = CAST(:probe AS TEXT))
GROUP BY r.run_id, r.label, a.text, p.probe_id, p.description
ORDER BY r.run_id, p.probe_id
