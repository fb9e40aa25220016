-- Version 6: dynamics (profile format 1.6; docs/ARCHITECTURE.md, "Dynamics"). A dynamic
-- node's iterations were clustered online as the program ran: dyn_series says which node
-- and how many iterations; dyn_clusters how many iterations each cluster holds;
-- dyn_cluster_nodes, per cluster and member node (the dynamic node and its subtree), the
-- activations and wall seconds summed over the cluster's iterations; dyn_runs maps the
-- iterations to their clusters, run by run (iterations first to first + length - 1). An
-- iteration is its cluster's sums over the cluster's iteration count.
CREATE TABLE dyn_series (
  cfh_id     @INT@ NOT NULL,
  node       @INT@ NOT NULL CHECK (node >= 0),
  iterations @INT@ NOT NULL CHECK (iterations >= 0),
  clusters   @INT@ NOT NULL CHECK (clusters >= 0 AND clusters <= iterations),
  dropped    @INT@ NOT NULL DEFAULT 0 CHECK (dropped >= 0),   -- past the reserve
  untracked  @INT@ NOT NULL DEFAULT 0 CHECK (untracked >= 0), -- subtree nodes not followed
  mixed      @INT@ NOT NULL DEFAULT 0 CHECK (mixed >= 0),     -- merges across call trees
  PRIMARY KEY (cfh_id, node),
  FOREIGN KEY (cfh_id) REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
)@NOROWID@;

CREATE TABLE dyn_clusters (
  cfh_id     @INT@ NOT NULL,
  series     @INT@ NOT NULL, -- the dynamic node
  cluster    @INT@ NOT NULL CHECK (cluster >= 0),
  iterations @INT@ NOT NULL CHECK (iterations > 0),
  PRIMARY KEY (cfh_id, series, cluster),
  FOREIGN KEY (cfh_id) REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
)@NOROWID@;

CREATE TABLE dyn_cluster_nodes (
  cfh_id  @INT@ NOT NULL,
  series  @INT@ NOT NULL,
  cluster @INT@ NOT NULL,
  node    @INT@ NOT NULL CHECK (node >= 0),
  visits  @REAL@ NOT NULL CHECK (visits >= 0),
  seconds @REAL@ NOT NULL CHECK (seconds >= 0),
  PRIMARY KEY (cfh_id, series, cluster, node),
  FOREIGN KEY (cfh_id) REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
)@NOROWID@;

CREATE TABLE dyn_runs (
  cfh_id  @INT@ NOT NULL,
  series  @INT@ NOT NULL,
  first   @INT@ NOT NULL CHECK (first >= 0),
  length  @INT@ NOT NULL CHECK (length > 0),
  cluster @INT@ NOT NULL CHECK (cluster >= 0),
  PRIMARY KEY (cfh_id, series, first),
  FOREIGN KEY (cfh_id) REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
)@NOROWID@;

-- Every iteration reconstructed: per run, rank, thread, dynamic probe and iteration (from
-- 0), each probe of the iteration's subtree with its wall seconds and activations (its
-- cluster's sums over the cluster's iterations; the nodes of one probe added). The
-- dynamic probe's own row is the iteration's whole time. Expands the runs, so a filter
-- on label and rank before anything else keeps it quick.
CREATE VIEW iteration_series (label, rank, thread, dynamic_probe_id, iteration, probe_id,
                              seconds, count, run_id) AS
WITH RECURSIVE expanded (cfh_id, series, cluster, iteration, last) AS (
  SELECT cfh_id, series, cluster, first, first + length - 1 FROM dyn_runs
  UNION ALL
  SELECT cfh_id, series, cluster, iteration + 1, last FROM expanded WHERE iteration < last
)
SELECT r.label, h.rank, h.thread, d.probe_id, e.iteration, n.probe_id,
       sum(cn.seconds / c.iterations), sum(cn.visits / c.iterations), h.run_id
FROM expanded e
JOIN dyn_clusters c ON c.cfh_id = e.cfh_id AND c.series = e.series AND c.cluster = e.cluster
JOIN dyn_cluster_nodes cn ON cn.cfh_id = e.cfh_id AND cn.series = e.series
                         AND cn.cluster = e.cluster
JOIN nodes n ON n.cfh_id = cn.cfh_id AND n.node = cn.node
JOIN nodes d ON d.cfh_id = e.cfh_id AND d.node = e.series
JOIN cfh_instances h ON h.cfh_id = e.cfh_id
JOIN runs r ON r.run_id = h.run_id
GROUP BY r.label, h.rank, h.thread, d.probe_id, e.iteration, n.probe_id, h.run_id;
