#!/usr/bin/env bash
# examples/balance end to end: built through idb-cc with the default selection, run with
# each distribution (equal, master, skewed; two runs each, interleaved) under
# `idb run -n 4`, then checked against what the code implies. The skewed partition gives
# the last rank three shares in six, so the imbalance query names rank 3 with about twice
# the mean work; equal blocks are balanced; with master/worker rank 0 runs no task and its
# critical path ends in the master's MPI_Recv, where it spends most of the run waiting.
# The experiments in examples/balance/ read the same runs and say the same.
#   e2e_balance.sh REPO IDB IDB_CC IDB_CXX WORK_DIR [EXTRA_FLAGS...]
set -euo pipefail
source "$(dirname "$0")/e2e_lib.sh"
e2e_setup "$@"
cpu_time_everywhere # the COMPARE checks read CPU time

tasks=240 size=40000 ranks=4
build_example balance CC "$idb_cc mpicc"
for i in 1 2; do
  for mode in equal master skewed; do
    store_run "balance-$mode-$i" balance "$mode" $tasks $size
  done
done

# Every distribution computes the same sum.
answer() { sed -n 's/.* sum /sum /p' "$work/$1.out"; }
expect "equal, master and skewed print the same sum: '$(answer balance-equal-1)'" \
  "\"$(answer balance-equal-1)\" != \"\" &&
   \"$(answer balance-equal-1)\" == \"$(answer balance-master-1)\" &&
   \"$(answer balance-equal-1)\" == \"$(answer balance-skewed-1)\""

# The imbalance query (wall time) on the work, run_task: the skewed partition's is the
# last rank's, and larger than the equal blocks'. (With a core per rank it would be 2;
# with four ranks on two cores rank 3 runs alone at the end, which brings it to about 1.6,
# and a busy machine lower still: one run's figure has measured as low as 1.2 with an
# equal run at 1.17, so the check takes the mean of both runs of each. For the same reason
# the wall time has named rank 1 once in a run beside other tests: the query must name the
# last rank in one of the two runs at least, and in both the last rank must hold the most
# CPU time in run_task, the work it was given.)
task_row() { query imbalance "run=$1" | awk -F'\t' 'NR == 1 || $2 ~ /^run_task\(/'; }
cpu_rank() {
  query "SELECT h.rank AS rank FROM node_stats s JOIN nodes n USING (cfh_id, node)
         JOIN cfh_instances h USING (cfh_id) JOIN runs r USING (run_id)
         JOIN probe_sites p ON p.run_id = r.run_id AND p.probe_id = n.probe_id
         WHERE r.label = '$1' AND p.description LIKE 'run_task(%'
         GROUP BY h.rank ORDER BY sum(s.cpu_total) DESC, h.rank LIMIT 1" | pick rank
}
skews=() equals=() named=0
for i in 1 2; do
  task_row "balance-skewed-$i" >"$work/skewed-$i.tsv"
  task_row "balance-equal-$i" >"$work/equal-$i.tsv"
  skews+=("$(pick imbalance <"$work/skewed-$i.tsv")")
  equals+=("$(pick imbalance <"$work/equal-$i.tsv")")
  rank_of_max=$(pick rank_of_max <"$work/skewed-$i.tsv")
  echo "skewed run $i: the imbalance query names rank $rank_of_max"
  ((rank_of_max == ranks - 1)) && named=$((named + 1))
  expect "skewed run $i: the last rank holds the most CPU time in run_task" \
    "$(cpu_rank "balance-skewed-$i") == $ranks - 1"
done
expect "skewed: the imbalance query names the last rank in one run at least" "$named >= 1"
skew=$(printf '%s\n' "${skews[@]}" | mean)
equal=$(printf '%s\n' "${equals[@]}" | mean)
expect "skewed: its work is imbalanced, more than equal blocks' (means of both runs)" \
  "$skew > 1.1 && $skew > $equal"

# run_task runs once per task whatever the distribution.
count=$(query noise_share run=balance-master-1 | pick count description '^run_task\(')
expect "master: run_task runs once per task" "$count == $tasks"

# Master/worker: rank 0 runs master() alone and spends it waiting in the master's
# MPI_Recv (the one call site only rank 0 reaches) for the workers' results.
query imbalance run=balance-master-1 >"$work/master.tsv"
master_time=$(pick max description '^master\(' rank_of_max '^0$' ranks_reached '^1$' <"$work/master.tsv")
wait_time=$(pick max description '^MPI_Recv\(' rank_of_max '^0$' ranks_reached '^1$' <"$work/master.tsv")
expect "master: only rank 0 runs master(), and waits in its MPI_Recv most of it" \
  "$wait_time / $master_time > 0.8"
# ...and the replay says why: the workers' results come late (late sender), a good part
# of the time the master spends in that MPI_Recv. Not all of it: with more ranks than
# cores, the master, polling in MPI_Recv, shares a core with the workers, and the time it
# waits for the core after a result has been sent is no late sender's (0.47 of it in one
# CI run beside other tests, 0.5 and more when the machine is quiet).
query wait_states run=balance-master-1 >"$work/waits.tsv"
late=$(pick seconds description '^MPI_Recv\(' pattern '^late sender$' worst_rank '^0$' <"$work/waits.tsv")
expect "master: its MPI_Recv waits as a late sender a good part of the time it spends there" \
  "$late / $wait_time > 0.3"

# COALESCE of the equal runs: both runs; the tasks of both pooled.
experiment balance/coalesce-repeats.edf --probe 'run_task(' >"$work/coalesce.tsv"
expect "COALESCE pools the 2 equal runs" "$(pick runs <"$work/coalesce.tsv") == 2"
expect "COALESCE's pooled run_task activations are both runs' tasks" \
  "$(pick pooled_count <"$work/coalesce.tsv") == 2 * $tasks"

# COMPARE equal (first entry), master, skewed, per rank, in CPU time: the work each rank
# was given. (Wall time would add the time a rank waited for a core, since the test runs
# more ranks than the machine may have cores.) Runs taken at different moments of a busy
# machine differ in CPU time for the same work too: in a virtual machine the time the host
# takes a virtual core away still counts as the guest thread's CPU time, and with other
# tests beside them one rank's ratio between runs measured 0.46 and another's 1.05 where
# 2/3 was due. So the bounds across runs only say that COMPARE pairs each rank with a
# value of the same order, and the shape is checked within the skewed run, whose ranks
# ran side by side: rank 3 has three times the work of each other rank (measured 2.2 to
# 3.0 under load).
experiment balance/compare-distribution.edf --probe 'run_task(' --value cpu >"$work/compare.tsv"
ratio() { pick ratio entry "^balance-$1-" rank "^$2\$" <"$work/compare.tsv"; }
master0=$(pick value entry '^balance-master-' rank '^0$' <"$work/compare.tsv")
workers=$( (ratio master 1; ratio master 2; ratio master 3) | mean)
others=$( (ratio skewed 0; ratio skewed 1; ratio skewed 2) | mean)
expect "COMPARE: with master/worker rank 0 runs no task" "$master0 == 0"
expect "COMPARE: the 3 workers get about 4/3 of an equal share each (mean ratio; wide)" \
  "$workers > 0.5 && $workers < 3"
expect "COMPARE: skewed gives rank 3 about twice its equal share (wide)" \
  "$(ratio skewed 3) > 1 && $(ratio skewed 3) < 4"
for r in 0 1 2; do
  expect "COMPARE: skewed gives rank $r about 2/3 of its equal share (wide)" \
    "$(ratio skewed $r) > 0.25 && $(ratio skewed $r) < 1.5"
done
expect "COMPARE: in the skewed runs rank 3's share is about 3 times each other rank's" \
  "$(ratio skewed 3) / $others > 1.6 && $(ratio skewed 3) / $others < 5"
e2e_finish
