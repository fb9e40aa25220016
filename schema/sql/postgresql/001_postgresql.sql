-- IDB schema version 1 for PostgreSQL, after 001_base.sql and 001_views.sql: the classic
-- IDB functions, and the keys of the two bulk tables checked per statement instead of per
-- row.

-- The classic functions, which the SQLite connection registers in C++
-- (schema/src/sqlite_functions.cpp) with the same meaning. Each takes a probe ID (lid) and
-- optionally a run_id (NULL or left out: every run). minprobe, maxprobe and maxnoise read
-- the probes view itself, so `max = maxprobe(:lid)` compares equal values; sdev pools
-- every node of the probe exactly. STABLE: within one statement the answer cannot change.

CREATE FUNCTION minprobe(probe BIGINT, run BIGINT DEFAULT NULL) RETURNS DOUBLE PRECISION
LANGUAGE sql STABLE AS $$
  SELECT min(min) FROM probes
  WHERE lid = probe AND count > 0 AND (run IS NULL OR run_id = run)
$$;

CREATE FUNCTION maxprobe(probe BIGINT, run BIGINT DEFAULT NULL) RETURNS DOUBLE PRECISION
LANGUAGE sql STABLE AS $$
  SELECT max(max) FROM probes
  WHERE lid = probe AND count > 0 AND (run IS NULL OR run_id = run)
$$;

CREATE FUNCTION maxnoise(probe BIGINT, run BIGINT DEFAULT NULL) RETURNS DOUBLE PRECISION
LANGUAGE sql STABLE AS $$
  SELECT max(noise) FROM probes WHERE lid = probe AND (run IS NULL OR run_id = run)
$$;

-- The sample standard deviation of every activation: sqrt(M2 / (count - 1)) over the
-- probe's nodes pooled (mean first, then M2 = sum(m2_i + c_i (mean_i - avg)^2)); 0 below
-- two activations; NULL for a probe without nodes.
CREATE FUNCTION sdev(probe BIGINT, run BIGINT DEFAULT NULL) RETURNS DOUBLE PRECISION
LANGUAGE sql STABLE AS $$
  WITH s AS (
    SELECT s.count, s.total, s.mean, s.m2
    FROM nodes n
    JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
    JOIN cfh_instances h ON h.cfh_id = n.cfh_id
    WHERE n.probe_id = probe AND (run IS NULL OR h.run_id = run)
  ), g AS (
    SELECT sum(count) AS n, sum(total) / nullif(sum(count), 0) AS avg FROM s
  )
  SELECT CASE WHEN g.n IS NULL THEN NULL
              WHEN g.n > 1 THEN sqrt(greatest(sum(s.m2 + s.count * (s.mean - g.avg)
                                                       * (s.mean - g.avg)), 0.0) / (g.n - 1))
              ELSE 0.0 END
  FROM g LEFT JOIN s ON true
  GROUP BY g.n, g.avg
$$;

-- nodes and node_stats take half a million rows per large run. A foreign key checks each
-- row with its own query (a trigger per row): two thirds of a load's time. Here the same
-- rules hold per statement instead, with transition tables: rows naming a cfh_id that is
-- not in cfh_instances are refused; deleting CFH instances (or, through their key, runs)
-- deletes their rows; changing a cfh_id that rows still name is refused. The loader writes
-- a run's CFH instances before their nodes in one transaction, so no other session can
-- delete them in between.
ALTER TABLE nodes DROP CONSTRAINT nodes_cfh_id_fkey;
ALTER TABLE node_stats DROP CONSTRAINT node_stats_cfh_id_fkey;

CREATE FUNCTION idb_check_cfh_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows r
             WHERE NOT EXISTS (SELECT 1 FROM cfh_instances h WHERE h.cfh_id = r.cfh_id)) THEN
    RAISE EXCEPTION USING ERRCODE = 'foreign_key_violation',
      MESSAGE = format('a row of %s names a cfh_id that is not in cfh_instances', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER nodes_cfh_key_insert AFTER INSERT ON nodes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION idb_check_cfh_keys();
CREATE TRIGGER nodes_cfh_key_update AFTER UPDATE ON nodes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION idb_check_cfh_keys();
CREATE TRIGGER node_stats_cfh_key_insert AFTER INSERT ON node_stats
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION idb_check_cfh_keys();
CREATE TRIGGER node_stats_cfh_key_update AFTER UPDATE ON node_stats
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION idb_check_cfh_keys();

CREATE FUNCTION idb_delete_cfh_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM node_stats WHERE cfh_id IN (SELECT cfh_id FROM old_rows);
  DELETE FROM nodes WHERE cfh_id IN (SELECT cfh_id FROM old_rows);
  RETURN NULL;
END $$;

CREATE TRIGGER cfh_instances_delete_rows AFTER DELETE ON cfh_instances
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION idb_delete_cfh_rows();

CREATE FUNCTION idb_refuse_named_cfh_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows o
             WHERE NOT EXISTS (SELECT 1 FROM cfh_instances h WHERE h.cfh_id = o.cfh_id)
               AND (EXISTS (SELECT 1 FROM nodes n WHERE n.cfh_id = o.cfh_id)
                    OR EXISTS (SELECT 1 FROM node_stats s WHERE s.cfh_id = o.cfh_id))) THEN
    RAISE EXCEPTION USING ERRCODE = 'foreign_key_violation',
      MESSAGE = 'a changed cfh_id is still named by rows of nodes or node_stats';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER cfh_instances_key_update AFTER UPDATE ON cfh_instances
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION idb_refuse_named_cfh_change();
