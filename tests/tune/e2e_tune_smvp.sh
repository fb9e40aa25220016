#!/usr/bin/env bash
# `idb tune` on examples/smvp under mpirun with two ranks, through the example's own
# Makefile: every round stores a two-rank run; the first build's throttled assembly
# helper (add_entry) is pruned; the .edf it writes runs; the tuned build computes what
# the program computes without probes. Timings are reported, never asserted.
#   e2e_tune_smvp.sh REPO IDB IDB_CC WORK_DIR
set -euo pipefail
source "$(dirname "$0")/tune_lib.sh"
tune_setup "$@"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
make=(make -B -s -f "$repo/examples/smvp/Makefile")
"$idb" tune --build "${make[*]} CC='$idbcc mpicc'" --run "./smvp 300 300 200" -n 2 \
  --mpirun-arg --oversubscribe --db tune.db --output smvp.sel >tune.out 2>&1 ||
  { cat tune.out; fail "idb tune"; }
cat tune.out
last=$(sed -n 's/^wrote smvp.sel and smvp.edf (runs tune-1..\(tune-[0-9]*\) and tune-final in .*/\1/p' tune.out)
[[ -n $last ]] || fail "no 'wrote' line"
rounds=${last#tune-}
"$idb" runs --db tune.db --format csv >runs.csv
[[ $(grep -c '^tune-[0-9]*,smvp,2,' runs.csv) == "$rounds" ]] || { cat runs.csv; fail "not every round stored two ranks"; }
"$idb" score tune-1 --db tune.db --all --format csv >score1.csv
add_entry=$(grep -E '^[0-9]+,add_entry\(\.\.\.\) ' score1.csv | cut -d, -f1)
[[ -n $add_entry ]] || { cat score1.csv; fail "no add_entry in round 1"; }
grep -q "^exclude all id=$add_entry  # round 1, add_entry(...)" smvp.sel || { cat smvp.sel; fail "add_entry not pruned"; }
"$idb" edf smvp.edf >edf.out 2>&1 || { cat edf.out; fail "idb edf smvp.edf"; }
mpirun -np 2 --oversubscribe env IDB_OUT="$work/check/" ./smvp 300 300 200 >tuned.txt
"${make[@]}" CC=mpicc
mpirun -np 2 --oversubscribe ./smvp 300 300 200 >pristine.txt
cmp pristine.txt tuned.txt || fail "the tuned build computes something else"
echo PASS
