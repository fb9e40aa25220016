-- IDB schema version 1 for SQLite: the normalised base tables (docs/schema.md).
-- Executed by the store library (schema/src/migrate.cpp) inside the migration's
-- transaction; the library then sets idb_schema.version to 1. Later views take the names
-- probes, lookup, connections and cfh, so no table here uses them.

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
