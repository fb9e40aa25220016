-- name: quantile
-- answers: any quantile of each probe's activation durations in a run, per rank and every rank merged (rank empty), from the duration histograms (format 1.3): e.g. q=0.999 for the 99.9th percentile.
-- parameters: :run text (run label), :q real (the quantile, 0 to 1, e.g. 0.999)
-- The value is the estimate of the bucket holding the ceil(q n)-th shortest of the n timed
-- activations (within 3% at the finest level), kept within the shortest and longest; a
-- probe without histograms (an older profile, IDB_HISTOGRAM=0) has no row.
WITH h AS (
  SELECT b.run_id, b.rank, b.probe_id, b.total,
         min(CASE WHEN b.below >= :q * b.total THEN b.estimate END) AS value
  FROM probe_histograms b
  JOIN runs r ON r.run_id = b.run_id
  WHERE r.label = :run
  GROUP BY b.run_id, b.rank, b.probe_id, b.total
)
SELECT h.rank, h.probe_id, q.description, h.total AS count,
       CASE WHEN h.value > q.max THEN q.max ELSE h.value END AS quantile, q.max
FROM h
JOIN probe_quantiles q ON q.run_id = h.run_id AND q.probe_id = h.probe_id
                      AND coalesce(q.rank, -2) = coalesce(h.rank, -2)
ORDER BY h.rank IS NULL, h.rank, quantile DESC;
