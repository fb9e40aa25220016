-- name: wait_states
-- answers: where a run's ranks lost time waiting in communication, and why: per probe and pattern (late sender, late receiver, wait at NxN, wait at barrier, late broadcast, early reduce) with every rank merged, the seconds waited, the activations that waited, the share of the probe's time, the rank that waited most there and how unevenly the ranks waited (max / mean); the largest first.
-- parameters: :run text (run label)
-- From the replay of the run's communication at MPI_Finalize (profile format 1.4, IDB_WAIT
-- on); a run without it has no rows. The worst rank and the imbalance come from the
-- wait_spread view: of every rank's CFHs, or of a summary run's spread (format 1.5).
WITH merged AS (
  SELECT w.run_id, w.probe_id, w.description, w.pattern, w.seconds, w.instances, w.share
  FROM wait_states w
  JOIN runs r ON r.run_id = w.run_id
  WHERE r.label = :run AND w.rank IS NULL
)
SELECT m.probe_id, m.description, m.pattern, m.seconds, m.instances, m.share,
       s.rank_of_max AS worst_rank, s.max AS worst_rank_seconds, s.imbalance
FROM merged m
LEFT JOIN wait_spread s ON s.run_id = m.run_id AND s.probe_id = m.probe_id
                       AND s.pattern = m.pattern
ORDER BY m.seconds DESC, m.probe_id, m.pattern;
