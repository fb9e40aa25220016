-- IDB schema version 1 for SQLite: the normalised base tables (docs/schema.md).
-- Executed by the store library (schema/src/open.cpp) inside the migration's
-- transaction; the library then sets idb_schema.version to 1. Then node_derived (filled by
-- the loader), the classic relations as views (probes, lookup, connections, cfh; their
-- functions sdev, minprobe, maxprobe, maxnoise are registered by the connection,
-- schema/src/sqlite_functions.cpp) and the derived views, at the end of the file.

CREATE TABLE idb_schema (
  version INTEGER NOT NULL
);
INSERT INTO idb_schema (version) VALUES (0);

-- One row per loaded profile. Times are Unix seconds; loaded_at is ISO-8601 UTC.
CREATE TABLE runs (
  run_id               INTEGER PRIMARY KEY,
  label                TEXT    NOT NULL UNIQUE,
  program              TEXT    NOT NULL,
  command_line         TEXT    NOT NULL,
  start_time           REAL,
  end_time             REAL,
  wall_seconds         REAL,
  nprocs               INTEGER NOT NULL CHECK (nprocs >= 1),
  threads              INTEGER NOT NULL CHECK (threads >= 0),
  host                 TEXT,
  os                   TEXT,
  arch                 TEXT,
  compiler             TEXT,
  flags                TEXT,
  idb_version          TEXT,
  timer                TEXT,
  timer_hz             REAL,
  noise_per_activation REAL,
  cpu_policy           TEXT,
  profile_mode         TEXT    NOT NULL DEFAULT 'full',
  loaded_at            TEXT    NOT NULL
);

-- The static facts that make a run an experiment: IDB_ATTR_* and idb load --attr.
CREATE TABLE run_attributes (
  run_id INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  key    TEXT    NOT NULL,
  value  TEXT    NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX run_attributes_key ON run_attributes (key, value);

-- The profile's META section as written, minus argv and attr.* (kept above).
CREATE TABLE run_meta (
  run_id INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  key    TEXT    NOT NULL,
  value  TEXT    NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

-- The static probe sites of a run's program.
CREATE TABLE probe_sites (
  run_id      INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  probe_id    INTEGER NOT NULL,
  kind        TEXT    NOT NULL CHECK (kind IN ('PROC', 'LOOP', 'CALL', 'COMM')),
  description TEXT    NOT NULL,
  file        TEXT,
  line        INTEGER,
  function    TEXT,
  PRIMARY KEY (run_id, probe_id)
) WITHOUT ROWID;

-- One row per (rank, thread, CFH instance) of a run, with its recording counters.
CREATE TABLE cfh_instances (
  cfh_id         INTEGER PRIMARY KEY,
  run_id         INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  rank           INTEGER NOT NULL CHECK (rank >= 0),
  thread         INTEGER NOT NULL CHECK (thread >= 0),
  name           TEXT    NOT NULL,
  named          INTEGER NOT NULL CHECK (named IN (0, 1)),
  overflow       INTEGER NOT NULL DEFAULT 0,
  mismatches     INTEGER NOT NULL DEFAULT 0,
  unclosed       INTEGER NOT NULL DEFAULT 0,
  depth_overflow INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX cfh_instances_run_rank ON cfh_instances (run_id, rank, thread);

-- The tree: node is the index in the CFH (0 is the root, parents precede children).
CREATE TABLE nodes (
  cfh_id   INTEGER NOT NULL REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE,
  node     INTEGER NOT NULL CHECK (node >= 0),
  parent   INTEGER CHECK (parent < node),
  probe_id INTEGER NOT NULL,
  depth    INTEGER NOT NULL CHECK (depth >= 0),
  PRIMARY KEY (cfh_id, node)
) WITHOUT ROWID;
CREATE INDEX nodes_probe ON nodes (probe_id);
CREATE INDEX nodes_parent ON nodes (cfh_id, parent);

-- Fixed-size statistics per node; times in seconds.
CREATE TABLE node_stats (
  cfh_id     INTEGER NOT NULL,
  node       INTEGER NOT NULL,
  count      INTEGER NOT NULL CHECK (count >= 0),
  total      REAL    NOT NULL,
  min        REAL    NOT NULL,
  max        REAL    NOT NULL,
  mean       REAL    NOT NULL,
  m2         REAL    NOT NULL,
  cpu_count  INTEGER NOT NULL CHECK (cpu_count >= 0),
  cpu_total  REAL    NOT NULL,
  cpu_min    REAL    NOT NULL,
  cpu_max    REAL    NOT NULL,
  noise      REAL    NOT NULL,
  bytes_sent INTEGER NOT NULL DEFAULT 0,
  bytes_recv INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (cfh_id, node),
  -- (cfh_id, node) is a node of `nodes`, inserted with it by the loader; the key points at
  -- the small cfh_instances table because checking it against nodes costs 8% of a load.
  FOREIGN KEY (cfh_id) REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Per node, what the tree gives and a view cannot compute cheaply: exclusive time (total
-- minus the children's totals) and the noise of every descendant. The loader fills it
-- from the profile (idb::profile::node_times) in the load's transaction; a recursive view
-- would walk every ancestor chain of the whole database on each query.
CREATE TABLE node_derived (
  cfh_id           INTEGER NOT NULL,
  node             INTEGER NOT NULL,
  exclusive        REAL    NOT NULL,
  descendant_noise REAL    NOT NULL,
  PRIMARY KEY (cfh_id, node),
  FOREIGN KEY (cfh_id) REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE
) WITHOUT ROWID;

-- The classic IDB relations (docs/schema.md, "Classic relations"). Classic columns come
-- first, in the classic order; IDB's extra columns follow.

-- One row per (CFH instance, probe): the probe's nodes in that CFH merged exactly. The
-- inner query puts the group's mean beside every node (a window over the group) for the
-- pooled M2 = sum(m2_i) + sum(c_i * (mean_i - avg)^2); run_id and rank are in the
-- partition so that a filter on them (or on cfh or lid) reaches the base tables.
CREATE VIEW probes (cfh, lid, id, min, max, avg, sdev, count, noise, type, proc, cpu_acc,
                    cpu_min, cpu_max, run_id, thread, total, cpu_count, bytes_sent,
                    bytes_recv, nodes) AS
SELECT g.cfh_id, g.probe_id, g.id, g.min, g.max, g.avg, g.sdev, g.count, g.noise, ps.kind,
       g.rank, g.cpu_total, g.cpu_min, g.cpu_max, g.run_id, g.thread, g.total, g.cpu_count,
       g.bytes_sent, g.bytes_recv, g.nodes
FROM (
  SELECT run_id, rank, thread, cfh_id, probe_id,
         (cfh_id << 32) + min(node) AS id,
         coalesce(min(CASE WHEN count > 0 THEN min END), 0.0) AS min,
         coalesce(max(CASE WHEN count > 0 THEN max END), 0.0) AS max,
         CASE WHEN sum(count) > 0 THEN sum(total) / sum(count) ELSE 0.0 END AS avg,
         CASE WHEN sum(count) > 1
              THEN sqrt(max(sum(m2 + count * (mean - group_avg) * (mean - group_avg)), 0.0)
                        / (sum(count) - 1))
              ELSE 0.0 END AS sdev,
         sum(count) AS count, sum(total) AS total, sum(noise) AS noise,
         sum(cpu_count) AS cpu_count,
         sum(CASE WHEN cpu_count > 0 THEN cpu_total ELSE 0.0 END) AS cpu_total,
         coalesce(min(CASE WHEN cpu_count > 0 THEN cpu_min END), 0.0) AS cpu_min,
         coalesce(max(CASE WHEN cpu_count > 0 THEN cpu_max END), 0.0) AS cpu_max,
         sum(bytes_sent) AS bytes_sent, sum(bytes_recv) AS bytes_recv, count(*) AS nodes
  FROM (
    SELECT h.run_id, h.rank, h.thread, n.cfh_id, n.node, n.probe_id, s.count, s.total,
           s.min, s.max, s.mean, s.m2, s.noise, s.cpu_count, s.cpu_total, s.cpu_min,
           s.cpu_max, s.bytes_sent, s.bytes_recv,
           sum(s.total) OVER w / nullif(sum(s.count) OVER w, 0) AS group_avg
    FROM cfh_instances h
    JOIN nodes n ON n.cfh_id = h.cfh_id
    JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
    WINDOW w AS (PARTITION BY h.run_id, h.rank, n.cfh_id, n.probe_id)
  )
  GROUP BY run_id, rank, cfh_id, probe_id
) g
LEFT JOIN probe_sites ps ON ps.run_id = g.run_id AND ps.probe_id = g.probe_id;

-- Probe descriptions by probe ID.
CREATE VIEW lookup (name, lid, run_id, kind, file, line, function) AS
SELECT description, probe_id, run_id, kind, file, line, function FROM probe_sites;

-- The probe-level call graph of each CFH: one row per (CFH, parent probe, child probe).
CREATE VIEW connections (cfh, proc, parent, child, run_id, thread, edges) AS
SELECT c.cfh_id, h.rank, CASE WHEN p.parent IS NULL THEN 0 ELSE p.probe_id END, c.probe_id,
       h.run_id, h.thread, count(*)
FROM nodes c
JOIN nodes p ON p.cfh_id = c.cfh_id AND p.node = c.parent
JOIN cfh_instances h ON h.cfh_id = c.cfh_id
GROUP BY c.cfh_id, CASE WHEN p.parent IS NULL THEN 0 ELSE p.probe_id END, c.probe_id;

-- The CFH instances by their classic names.
CREATE VIEW cfh (cfh, name, run_id, proc, thread, named) AS
SELECT cfh_id, name, run_id, rank, thread, named FROM cfh_instances;

-- Derived views (docs/schema.md, "Derived views").

-- Inclusive, exclusive and noise-corrected time of every node. CROSS JOIN keeps the small
-- cfh_instances table outermost, so a filter on rank or thread reads only those CFHs.
CREATE VIEW node_times (cfh_id, node, probe_id, inclusive, exclusive, descendant_noise,
                        corrected, run_id, rank, thread) AS
SELECT n.cfh_id, n.node, n.probe_id, s.total, d.exclusive, d.descendant_noise,
       s.total - d.descendant_noise, h.run_id, h.rank, h.thread
FROM cfh_instances h
CROSS JOIN nodes n ON n.cfh_id = h.cfh_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
JOIN node_derived d ON d.cfh_id = n.cfh_id AND d.node = n.node;

-- Per probe across the ranks of a run: each rank's inclusive total of the probe (every
-- node of the probe in every CFH of the rank), then their spread. A rank that never
-- reached the probe counts as 0.
CREATE VIEW probe_imbalance (run_id, probe_id, min, max, mean, imbalance, rank_of_max,
                             ranks, ranks_reached) AS
WITH per_rank AS (
  SELECT h.run_id, h.rank, n.probe_id, sum(s.total) AS total
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  GROUP BY h.run_id, h.rank, n.probe_id
), run_ranks AS (
  SELECT run_id, count(DISTINCT rank) AS ranks FROM cfh_instances GROUP BY run_id
), ranked AS (
  SELECT run_id, probe_id, rank, total,
         row_number() OVER (PARTITION BY run_id, probe_id ORDER BY total DESC, rank) AS place,
         min(total) OVER p AS least, sum(total) OVER p AS sum, count(*) OVER p AS reached
  FROM per_rank
  WINDOW p AS (PARTITION BY run_id, probe_id)
)
SELECT k.run_id, k.probe_id, CASE WHEN k.reached < r.ranks THEN 0.0 ELSE k.least END,
       k.total, k.sum / r.ranks,
       CASE WHEN k.sum > 0 THEN k.total / (k.sum / r.ranks) END,
       k.rank, r.ranks, k.reached
FROM ranked k
JOIN run_ranks r ON r.run_id = k.run_id
WHERE k.place = 1;

-- CPU time over wall time of every node with CPU-timed activations. The wall time of the
-- CPU-timed activations is the node's total when all were timed, else mean * cpu_count.
CREATE VIEW node_cpu_ratio (cfh_id, node, probe_id, cpu_count, cpu_total, wall, ratio,
                            run_id, rank, thread) AS
SELECT cfh_id, node, probe_id, cpu_count, cpu_total, wall,
       CASE WHEN wall > 0 THEN cpu_total / wall END, run_id, rank, thread
FROM (
  SELECT n.cfh_id, n.node, n.probe_id, s.cpu_count, s.cpu_total,
         CASE WHEN s.cpu_count = s.count THEN s.total ELSE s.mean * s.cpu_count END AS wall,
         h.run_id, h.rank, h.thread
  FROM cfh_instances h
  CROSS JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE s.cpu_count > 0
);
