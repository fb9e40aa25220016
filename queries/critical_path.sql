-- name: critical_path
-- answers: the top-down critical path of one rank and thread of a run: from the root, the child with the most inclusive time at each level, down to a leaf.
-- parameters: :run text (run label), :rank integer (MPI rank, e.g. 0), :thread integer (thread slot, e.g. 0)
-- Ties go to the lower node index. Named CFHs of the rank and thread are walked too, one
-- path each (cfh_id tells them apart).
WITH RECURSIVE start AS (
  SELECT h.cfh_id
  FROM runs r JOIN cfh_instances h ON h.run_id = r.run_id
  WHERE r.label = :run AND h.rank = CAST(:rank AS INTEGER)
    AND h.thread = CAST(:thread AS INTEGER)
), path (cfh_id, node, parent_total) AS (
  SELECT n.cfh_id, n.node, s.total
  FROM start
  JOIN nodes n ON n.cfh_id = start.cfh_id AND n.parent IS NULL
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  UNION ALL
  SELECT c.cfh_id, c.node, s.total
  FROM path
  JOIN nodes c ON c.cfh_id = path.cfh_id AND c.parent = path.node
  JOIN node_stats s ON s.cfh_id = c.cfh_id AND s.node = c.node
  WHERE c.node = (SELECT c2.node
                  FROM nodes c2 JOIN node_stats s2 ON s2.cfh_id = c2.cfh_id AND s2.node = c2.node
                  WHERE c2.cfh_id = path.cfh_id AND c2.parent = path.node
                  ORDER BY s2.total DESC, c2.node LIMIT 1)
)
SELECT path.cfh_id, n.depth, n.node, n.probe_id, p.description, s.count + s.throttled AS count,
       s.total AS inclusive, s.exclusive, s.total - s.descendant_noise AS corrected,
       CASE WHEN parent.total > 0 THEN s.total / parent.total END AS share_of_parent
FROM path
JOIN nodes n ON n.cfh_id = path.cfh_id AND n.node = path.node
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
JOIN cfh_instances h ON h.cfh_id = n.cfh_id
LEFT JOIN node_stats parent ON parent.cfh_id = n.cfh_id AND parent.node = n.parent
LEFT JOIN probe_sites p ON p.run_id = h.run_id AND p.probe_id = n.probe_id
ORDER BY path.cfh_id, n.depth
