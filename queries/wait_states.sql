-- name: wait_states
-- answers: where a run's ranks lost time waiting in communication, and why: per probe and pattern (late sender, late receiver, wait at NxN, wait at barrier, late broadcast, early reduce) with every rank merged, the seconds waited, the activations that waited, the share of the probe's time, and the rank that waited most there; the largest first.
-- parameters: :run text (run label)
-- From the replay of the run's communication at MPI_Finalize (profile format 1.4, IDB_WAIT
-- on); a run without it has no rows.
WITH merged AS (
  SELECT w.run_id, w.probe_id, w.description, w.pattern, w.seconds, w.instances, w.share
  FROM wait_states w
  JOIN runs r ON r.run_id = w.run_id
  WHERE r.label = :run AND w.rank IS NULL
), ranked AS (
  SELECT w.probe_id, w.pattern, w.rank, w.seconds,
         row_number() OVER (PARTITION BY w.probe_id, w.pattern
                            ORDER BY w.seconds DESC, w.rank) AS place
  FROM wait_states w
  JOIN runs r ON r.run_id = w.run_id
  WHERE r.label = :run AND w.rank IS NOT NULL
)
SELECT m.probe_id, m.description, m.pattern, m.seconds, m.instances, m.share,
       k.rank AS worst_rank, k.seconds AS worst_rank_seconds
FROM merged m
LEFT JOIN ranked k ON k.probe_id = m.probe_id AND k.pattern = m.pattern AND k.place = 1
ORDER BY m.seconds DESC, m.probe_id, m.pattern;
