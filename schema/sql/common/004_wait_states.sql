-- Version 4: wait states (profile format 1.4; idb/wait_states.h; docs/mpi.md). The replay
-- of a run's communication at MPI_Finalize tells how long each COMM node's activations
-- waited and why: node_wait holds, per node and pattern with time, the seconds waited and
-- the activations that waited; wait_patterns names the patterns.
CREATE TABLE wait_patterns (
  pattern @INT@ NOT NULL PRIMARY KEY CHECK (pattern >= 0),
  name    TEXT NOT NULL UNIQUE
)@NOROWID@;

INSERT INTO wait_patterns (pattern, name) VALUES
  (0, 'late sender'), (1, 'late receiver'), (2, 'wait at NxN'), (3, 'wait at barrier'),
  (4, 'late broadcast'), (5, 'early reduce');

CREATE TABLE node_wait (
  cfh_id    @INT@ NOT NULL,
  node      @INT@ NOT NULL,
  pattern   @INT@ NOT NULL REFERENCES wait_patterns (pattern),
  seconds   @REAL@ NOT NULL CHECK (seconds >= 0),
  instances @INT@ NOT NULL CHECK (instances > 0),
  PRIMARY KEY (cfh_id, node, pattern),
  FOREIGN KEY (cfh_id) REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
)@NOROWID@;

-- Per run, rank and probe, each pattern its nodes waited in: the seconds, the activations
-- that waited, and the share of the probe's wall time (its nodes' totals) spent waiting so.
-- rank is NULL on the rows of every rank merged. The root of a named CFH is left out, as
-- in the aggregates.
CREATE VIEW wait_states (label, rank, probe_id, description, pattern, seconds, instances, share,
                         run_id) AS
WITH member AS (
  SELECT h.run_id, CASE WHEN h.summary = 1 THEN -1 ELSE h.rank END AS grp, n.probe_id,
         s.cfh_id, s.node, s.total
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE NOT (h.named = 1 AND n.parent IS NULL)
), grouped AS (
  SELECT run_id, grp, probe_id, cfh_id, node, total FROM member WHERE grp >= 0
  UNION ALL
  SELECT run_id, -2, probe_id, cfh_id, node, total FROM member
), waits AS (
  SELECT g.run_id, g.grp, g.probe_id, w.pattern, sum(w.seconds) AS seconds,
         sum(w.instances) AS instances
  FROM grouped g
  JOIN node_wait w ON w.cfh_id = g.cfh_id AND w.node = g.node
  GROUP BY g.run_id, g.grp, g.probe_id, w.pattern
), totals AS (
  SELECT run_id, grp, probe_id, sum(total) AS total
  FROM grouped
  GROUP BY run_id, grp, probe_id
)
SELECT r.label, CASE WHEN w.grp = -2 THEN NULL ELSE w.grp END, w.probe_id, ps.description,
       p.name, w.seconds, w.instances,
       CASE WHEN t.total > 0 THEN w.seconds / t.total END, w.run_id
FROM waits w
JOIN totals t ON t.run_id = w.run_id AND t.grp = w.grp AND t.probe_id = w.probe_id
JOIN runs r ON r.run_id = w.run_id
JOIN wait_patterns p ON p.pattern = w.pattern
LEFT JOIN probe_sites ps ON ps.run_id = w.run_id AND ps.probe_id = w.probe_id;
