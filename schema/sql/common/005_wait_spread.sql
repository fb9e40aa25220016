-- Version 5: the spread over the ranks of a summary run's waits (profile format 1.5;
-- docs/mpi.md, "Wait states"). On a summary CFH's node_wait rows, the seconds' spread over
-- the ranks that reached the node (those that did not wait there count as 0 s): how many,
-- min, max, mean, M2 and the ranks holding min and max. NULL on the rows of a rank's own
-- CFH, whose rank is known.
ALTER TABLE node_wait ADD COLUMN ranks @INT@ CHECK (ranks IS NULL OR ranks > 0);
ALTER TABLE node_wait ADD COLUMN min @REAL@;
ALTER TABLE node_wait ADD COLUMN max @REAL@;
ALTER TABLE node_wait ADD COLUMN mean @REAL@;
ALTER TABLE node_wait ADD COLUMN m2 @REAL@;
ALTER TABLE node_wait ADD COLUMN rank_min @INT@;
ALTER TABLE node_wait ADD COLUMN rank_max @INT@;

-- Per run, probe and pattern, how the waiting spreads over the ranks that reached the
-- probe (a rank that reached it without waiting so counts as 0 s), on two bases (column
-- basis), as probe_imbalance does for time. 'ranks', a run with a CFH per rank: each
-- rank's seconds over every node of the probe in every CFH of the rank. 'spread', a
-- summary-mode run: the spread of the probe's node that waited most in the pattern, over
-- the ranks that reached that node; `nodes` says how many of the probe's nodes waited so
-- (with 1, the row is what the 'ranks' basis would give). imbalance: max / mean.
CREATE VIEW wait_spread (label, probe_id, description, pattern, ranks, min, max, mean, imbalance,
                         rank_of_max, basis, nodes, run_id) AS
WITH reached AS (
  SELECT h.run_id, n.probe_id, count(DISTINCT h.rank) AS ranks
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  WHERE h.summary = 0 AND NOT (h.named = 1 AND n.parent IS NULL)
  GROUP BY h.run_id, n.probe_id
), per_rank AS (
  SELECT h.run_id, h.rank, n.probe_id, w.pattern, sum(w.seconds) AS seconds
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_wait w ON w.cfh_id = n.cfh_id AND w.node = n.node
  WHERE h.summary = 0 AND NOT (h.named = 1 AND n.parent IS NULL)
  GROUP BY h.run_id, h.rank, n.probe_id, w.pattern
), ranked AS (
  SELECT run_id, probe_id, pattern, rank, seconds,
         row_number() OVER (PARTITION BY run_id, probe_id, pattern
                            ORDER BY seconds DESC, rank) AS place,
         min(seconds) OVER p AS least, sum(seconds) OVER p AS total, count(*) OVER p AS waited
  FROM per_rank
  WINDOW p AS (PARTITION BY run_id, probe_id, pattern)
), heaviest AS (
  SELECT h.run_id, n.probe_id, w.pattern, w.ranks, w.min, w.max, w.mean, w.rank_max,
         row_number() OVER (PARTITION BY h.run_id, n.probe_id, w.pattern
                            ORDER BY w.seconds DESC, h.cfh_id, n.node) AS place,
         count(*) OVER (PARTITION BY h.run_id, n.probe_id, w.pattern) AS nodes
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_wait w ON w.cfh_id = n.cfh_id AND w.node = n.node
  WHERE h.summary = 1 AND w.ranks IS NOT NULL AND NOT (h.named = 1 AND n.parent IS NULL)
), rows AS (
  SELECT k.run_id, k.probe_id, k.pattern, e.ranks,
         CASE WHEN k.waited < e.ranks THEN 0.0 ELSE k.least END AS min, k.seconds AS max,
         k.total / e.ranks AS mean, k.rank AS rank_of_max, 'ranks' AS basis, NULL AS nodes
  FROM ranked k
  JOIN reached e ON e.run_id = k.run_id AND e.probe_id = k.probe_id
  WHERE k.place = 1
  UNION ALL
  SELECT run_id, probe_id, pattern, ranks, min, max, mean, rank_max, 'spread', nodes
  FROM heaviest
  WHERE place = 1
)
SELECT r.label, k.probe_id, ps.description, p.name, k.ranks, k.min, k.max, k.mean,
       CASE WHEN k.mean > 0 THEN k.max / k.mean END, k.rank_of_max, k.basis, k.nodes, k.run_id
FROM rows k
JOIN runs r ON r.run_id = k.run_id
JOIN wait_patterns p ON p.pattern = k.pattern
LEFT JOIN probe_sites ps ON ps.run_id = k.run_id AND ps.probe_id = k.probe_id;
