-- Version 3: duration histograms (profile format 1.3; idb/histogram.h). A node's histogram
-- is its non-empty buckets of one level: node_stats.hist_level says which (NULL: the node
-- has none, as in every run loaded from an older profile) and node_hist holds the counts,
-- which add up to node_stats.count. hist_buckets gives every bucket of every level its
-- bounds and the value that stands for it, in seconds.
ALTER TABLE node_stats ADD COLUMN hist_level @INT@ CHECK (hist_level BETWEEN 0 AND 2);

CREATE TABLE node_hist (
  cfh_id @INT@ NOT NULL,
  node   @INT@ NOT NULL,
  bucket @INT@ NOT NULL CHECK (bucket >= 0),
  count  @INT@ NOT NULL CHECK (count > 0),
  PRIMARY KEY (cfh_id, node, bucket),
  FOREIGN KEY (cfh_id) REFERENCES cfh_instances (cfh_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
)@NOROWID@;

CREATE TABLE hist_buckets (
  level    @INT@ NOT NULL CHECK (level BETWEEN 0 AND 2),
  bucket   @INT@ NOT NULL CHECK (bucket >= 0),
  lower    @REAL@ NOT NULL, -- s; the bucket holds durations from lower up to upper
  upper    @REAL@ NOT NULL,
  estimate @REAL@ NOT NULL, -- within 1/33 (level 0), 1/17 (1) or 1/9 (2) of each of them
  PRIMARY KEY (level, bucket)
)@NOROWID@;

-- Level 0 in nanoseconds: buckets 0 to 31 hold one value each; from 32 on, bucket 16g + s
-- (g 2 to 60, s 0 to 15) holds [(16 + s) 2^(g-1), (17 + s) 2^(g-1)). Level L's bucket b
-- joins level 0's buckets b * 2^L to b * 2^L + 2^L - 1.
WITH RECURSIVE octaves (g, w) AS (
  SELECT 2, 2.0
  UNION ALL
  SELECT g + 1, w * 2 FROM octaves WHERE g < 60
), subs (s) AS (
  SELECT 0
  UNION ALL
  SELECT s + 1 FROM subs WHERE s < 15
), fine (bucket, lower, upper) AS (
  SELECT s, s * 1.0, s + 1.0 FROM subs
  UNION ALL
  SELECT s + 16, s + 16.0, s + 17.0 FROM subs
  UNION ALL
  SELECT 16 * g + s, (16 + s) * w, (17 + s) * w FROM octaves CROSS JOIN subs
), joined (level, bucket, lower, upper) AS (
  SELECT l.level, f.bucket >> l.level, min(f.lower), max(f.upper)
  FROM fine f CROSS JOIN (SELECT 0 AS level UNION ALL SELECT 1 UNION ALL SELECT 2) l
  GROUP BY l.level, f.bucket >> l.level
)
INSERT INTO hist_buckets (level, bucket, lower, upper, estimate)
SELECT level, bucket, lower * 1e-9, upper * 1e-9,
       CASE WHEN upper - lower <= 1 THEN lower ELSE 2 * lower * upper / (lower + upper) END * 1e-9
FROM joined;

-- Per run, rank and probe: the durations of the probe's timed activations, its nodes'
-- histograms merged on the coarsest level among them, one row per non-empty bucket with
-- the activations up to and including it (below) and in all (total). rank is NULL on the
-- rows of every rank merged (the ranks' CFHs, or a summary-mode run's summary CFH). A
-- group has rows only when each of its nodes with timed activations has a histogram. The
-- root of a named CFH, which spans its object's life, is left out as in the aggregates.
CREATE VIEW probe_histograms (run_id, rank, probe_id, level, bucket, lower, upper, estimate,
                              count, below, total) AS
WITH member AS (
  SELECT h.run_id, CASE WHEN h.summary = 1 THEN -1 ELSE h.rank END AS grp, n.probe_id,
         s.cfh_id, s.node, s.count, s.hist_level
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE s.count > 0 AND NOT (h.named = 1 AND n.parent IS NULL)
), grouped AS (
  SELECT run_id, grp, probe_id, cfh_id, node, count, hist_level FROM member WHERE grp >= 0
  UNION ALL
  SELECT run_id, -2, probe_id, cfh_id, node, count, hist_level FROM member
), complete AS (
  SELECT run_id, grp, probe_id, max(hist_level) AS level, sum(count) AS total
  FROM grouped
  GROUP BY run_id, grp, probe_id
  HAVING count(hist_level) = count(*)
), merged AS (
  SELECT c.run_id, c.grp, c.probe_id, c.level, nh.bucket >> CAST(c.level - g.hist_level AS INTEGER) AS bucket,
         sum(nh.count) AS count, c.total
  FROM complete c
  JOIN grouped g ON g.run_id = c.run_id AND g.grp = c.grp AND g.probe_id = c.probe_id
  JOIN node_hist nh ON nh.cfh_id = g.cfh_id AND nh.node = g.node
  GROUP BY c.run_id, c.grp, c.probe_id, c.level, nh.bucket >> CAST(c.level - g.hist_level AS INTEGER), c.total
)
SELECT m.run_id, CASE WHEN m.grp = -2 THEN NULL ELSE m.grp END, m.probe_id, m.level, m.bucket,
       b.lower, b.upper, b.estimate, m.count,
       sum(m.count) OVER (PARTITION BY m.run_id, m.grp, m.probe_id ORDER BY m.bucket), m.total
FROM merged m
JOIN hist_buckets b ON b.level = m.level AND b.bucket = m.bucket;

-- Per run, rank and probe: its timed activations and the quantiles of their durations (s),
-- each the estimate of the bucket that holds the ceil(q n)-th shortest of n, kept within
-- the probe's shortest and longest activation; max is the longest, exact. rank is NULL
-- on the row of every rank merged. The quantiles are NULL where probe_histograms has no
-- rows (a run from an older profile, or histograms off).
CREATE VIEW probe_quantiles (label, rank, probe_id, description, count, p50, p90, p95, p99,
                             max, run_id) AS
WITH member AS (
  SELECT h.run_id, CASE WHEN h.summary = 1 THEN -1 ELSE h.rank END AS grp, n.probe_id,
         s.count, s.min, s.max
  FROM cfh_instances h
  JOIN nodes n ON n.cfh_id = h.cfh_id
  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
  WHERE s.count > 0 AND NOT (h.named = 1 AND n.parent IS NULL)
), groups AS (
  SELECT run_id, grp, probe_id, sum(count) AS count, min(min) AS least, max(max) AS most
  FROM member WHERE grp >= 0 GROUP BY run_id, grp, probe_id
  UNION ALL
  SELECT run_id, -2, probe_id, sum(count), min(min), max(max)
  FROM member GROUP BY run_id, probe_id
), q AS (
  SELECT run_id, coalesce(rank, -2) AS grp, probe_id,
         min(CASE WHEN below >= 0.50 * total THEN estimate END) AS p50,
         min(CASE WHEN below >= 0.90 * total THEN estimate END) AS p90,
         min(CASE WHEN below >= 0.95 * total THEN estimate END) AS p95,
         min(CASE WHEN below >= 0.99 * total THEN estimate END) AS p99
  FROM probe_histograms
  GROUP BY run_id, coalesce(rank, -2), probe_id
), within AS (
  SELECT g.run_id, g.grp, g.probe_id, g.count, g.most, g.least, q.p50, q.p90, q.p95, q.p99
  FROM groups g
  LEFT JOIN q ON q.run_id = g.run_id AND q.grp = g.grp AND q.probe_id = g.probe_id
)
SELECT r.label, CASE WHEN w.grp = -2 THEN NULL ELSE w.grp END, w.probe_id, ps.description,
       w.count,
       CASE WHEN w.p50 > w.most THEN w.most WHEN w.p50 < w.least THEN w.least ELSE w.p50 END,
       CASE WHEN w.p90 > w.most THEN w.most WHEN w.p90 < w.least THEN w.least ELSE w.p90 END,
       CASE WHEN w.p95 > w.most THEN w.most WHEN w.p95 < w.least THEN w.least ELSE w.p95 END,
       CASE WHEN w.p99 > w.most THEN w.most WHEN w.p99 < w.least THEN w.least ELSE w.p99 END,
       w.most, w.run_id
FROM within w
JOIN runs r ON r.run_id = w.run_id
LEFT JOIN probe_sites ps ON ps.run_id = w.run_id AND ps.probe_id = w.probe_id;
