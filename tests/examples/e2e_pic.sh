#!/usr/bin/env bash
# examples/pic end to end: built through idb-cxx with the default selection, run with the
# pow and the multiply kernel (three runs each, interleaved) under `idb run -n 4`, then
# checked against what the code implies. With --kernel pow the hottest loop that runs
# more than once per rank is the particle push loop (the loop that calls
# std::pow); the multiply kernel makes it much cheaper; the answers are the same; the
# experiments in examples/pic/ (COALESCE of the pow runs, COMPARE of pow against mul)
# read the same runs and say the same. Every sum is by probe over all CFH instances, so
# the checks hold whether the push loop sits in a thread's CFH or in an object's own.
#   e2e_pic.sh REPO IDB IDB_CC IDB_CXX WORK_DIR [EXTRA_FLAGS...]
set -euo pipefail
source "$(dirname "$0")/e2e_lib.sh"
e2e_setup "$@"
cpu_time_everywhere # the COMPARE checks read CPU time

steps=30 particles=40000 ranks=4
build_example pic CXX "$idb_cxx mpicxx"
for i in 1 2 3; do
  for kernel in pow mul; do
    store_run "pic-$kernel-$i" pic --kernel "$kernel" --particles $particles --steps $steps
  done
done

# The physics does not depend on the kernel (up to the last bits of pow, which %.6e hides).
answer() { sed -n 's/.*kinetic /kinetic /p' "$work/$1.out"; }
pow_answer=$(answer pic-pow-1) mul_answer=$(answer pic-mul-1)
expect "pow and mul runs print the same energies: '$pow_answer'" \
  "\"$pow_answer\" != \"\" && \"$pow_answer\" == \"$mul_answer\""

# The hottest loop (not MPI, whose waiting on an oversubscribed machine says more about the
# scheduler than about the code, nor a procedure such as Simulation::step, which holds
# every phase) among those activated more than once per rank: the loop over the steps,
# which holds everything, is not; nor are the CFHs' roots (probe 0), one per object and
# rank, which span the whole run.
query noise_share run=pic-pow-1 >"$work/noise_share.tsv"
hottest=$(awk -F'\t' -v ranks=$ranks 'NR > 1 && $1 != 0 && $3 > ranks && $2 ~ / loop in /' \
  "$work/noise_share.tsv" | sort -t$'\t' -k4,4gr | head -1)
echo "hottest repeated probe of pic-pow-1: $hottest"
push_id=$(cut -f1 <<<"$hottest")
push_name=$(cut -f2 <<<"$hottest")
expect "it is the particle push: '$push_name'" "\"$push_name\" ~ /push/"

# Its count is exact: two species, every step, every rank.
push_count=$(pick count probe_id "^$push_id\$" <"$work/noise_share.tsv")
expect "push loop activations = 2 species x $steps steps x $ranks ranks" \
  "$push_count == 2 * $steps * $ranks"

# pow against mul in wall time, each run measured against itself: the push loop over the
# deposit loop, which runs beside it every step and does not change with the kernel, so
# whatever slowed the machine down during a run slows both. The median run of each kernel.
# (About 2.1 at rest on two cores; 1.45 once with the suite's other job beside the four
# ranks, hence a bound of 1.3: still far from the 1 of two equal kernels.)
push_over_deposit() { # LABEL -> push / deposit inclusive time in that run
  query noise_share "run=$1" | awk -F'\t' '$2 ~ /loop in .*push/ { p += $4 }
    $2 ~ /loop in .*deposit/ { d += $4 } END { if (p > 0 && d > 0) printf "%.17g\n", p / d }'
}
median3() { sort -g | sed -n 2p; }
pow=$(for i in 1 2 3; do push_over_deposit "pic-pow-$i"; done | median3)
mul=$(for i in 1 2 3; do push_over_deposit "pic-mul-$i"; done | median3)
expect "push over deposit time, median run: pow's is far above mul's" "$pow / $mul > 1.3"

# COALESCE of the pow runs: all three, and the pooled activations of all. (The probe is
# named by its description, as a user would name it.)
query probe_across_runs "probe=$push_id" >"$work/push_across_runs.tsv"
experiment pic/coalesce-repeats.edf --probe "$push_name" >"$work/coalesce.tsv"
runs=$(pick runs <"$work/coalesce.tsv")
pooled=$(pick pooled_count <"$work/coalesce.tsv")
median=$(pick median <"$work/coalesce.tsv")
expect "COALESCE pools the 3 pow runs" "$runs == 3"
expect "COALESCE's pooled activations are all runs'" "$pooled == 3 * $push_count"
pow_median=$(pick inclusive label '^pic-pow-' <"$work/push_across_runs.tsv" | median3)
expect "COALESCE's median is the middle run's push time" \
  "($median - $pow_median) ^ 2 < (1e-9 * $pow_median) ^ 2"

# COMPARE pow (first entry) with mul in CPU time: the push loop's ratio is below 1 on
# every rank and about a half on average (runs of one kernel under two labels give 0.8 to
# 1.2 here). Welch's test runs on every rank, but with 3 runs against 3 on a shared
# machine its 5% verdict is not stable (docs/edf.md), so only its presence is checked.
experiment pic/compare-kernel.edf --probe "$push_name" --value cpu >"$work/compare.tsv"
ranks_shown=$(pick rank entry '^pic-mul-' <"$work/compare.tsv" | sort -u | wc -l)
worst=$(pick ratio entry '^pic-mul-' <"$work/compare.tsv" | max)
average=$(pick ratio entry '^pic-mul-' <"$work/compare.tsv" | mean)
tested=$(pick p entry '^pic-mul-' <"$work/compare.tsv" | grep -c . || true)
expect "COMPARE shows the mul runs on every rank" "$ranks_shown == $ranks"
expect "COMPARE: the push loop with mul is faster than with pow on every rank" "$worst < 1"
expect "COMPARE: and takes about half the time, on average over the ranks" "$average < 0.7"
expect "COMPARE: Welch's test ran on every rank (groups of 3 runs)" "$tested == $ranks"
e2e_finish
