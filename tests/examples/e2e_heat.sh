#!/usr/bin/env bash
# examples/heat end to end with dynamics: built through idb-cc with examples/heat/
# dynamic.sel (the default selection, the time-step loop of simulate() made dynamic), run
# under `idb run -n 4` and read back with `idb dynamics`, the iteration_series view and the
# canned query iteration_outliers. The program refines its time step from step 300 on
# (twice the sweeps), checkpoints every 50th step (rank 0 gathers and checksums the field)
# and grows a hot spot on rank 2: the reconstruction must put the step at iteration 300,
# the checkpoints where they were, and name rank 2 as the one that drifts. The answer
# must be the one the program prints without IDB.
#   e2e_heat.sh REPO IDB IDB_CC IDB_CXX WORK_DIR [EXTRA_FLAGS...]
set -euo pipefail
source "$(dirname "$0")/e2e_lib.sh"
e2e_setup "$@"

mkdir -p "$work/plain"
(cd "$work/plain" && make -s -f "$repo/examples/heat/Makefile" CC=mpicc \
  CFLAGS="-O2 -g $extra_flags" LDFLAGS="$extra_flags")
build_example heat CC "$idb_cc mpicc" # the default selection: no dynamic probe
mv "$work/build/heat" "$work/build/heat-default"
rm -f "$work/build/heat.o"
IDB_SELECTION_FILE=$repo/examples/heat/dynamic.sel \
  make -s -C "$work/build" -f "$repo/examples/heat/Makefile" CC="$idb_cc mpicc" \
  CFLAGS="-O2 -g $extra_flags" LDFLAGS="$extra_flags"
echo "built heat through: $idb_cc mpicc, with examples/heat/dynamic.sel"

store_run heat-1 heat
store_run heat-default heat-default --steps 100
plain=$(mpirun --oversubscribe -np 4 "$work/plain/heat" | sed -n 's/^heat: //p')
traced=$(sed -n 's/^heat: //p' "$work/heat-1.out")
expect "the dynamic build prints what the plain one does: '$plain'" \
  "\"$plain\" != \"\" && \"$plain\" == \"$traced\""

"$idb" dynamics heat-1 --db "$db" --top 100 >"$work/dynamics.txt"
cat "$work/dynamics.txt"
"$idb" dynamics heat-1 --db "$db" --format csv | csv_to_tsv >"$work/series.tsv"

# Every rank's 600 iterations, reconstructed.
iterations=$(awk -F'\t' 'NR > 1 && $5 ~ /^for loop in simulate/ { ++n } END { print n + 0 }' \
  "$work/series.tsv")
expect "every rank's 600 iterations are there" "$iterations == 2400"

# The step: where the sweeps doubled, in sweep's own time (its loop is its whole work).
sweep=$(awk -F'\t' 'NR > 1 && $5 ~ /^sweep\(/ { print $4; exit }' "$work/series.tsv")
"$idb" dynamics heat-1 --db "$db" --probe "$sweep" >"$work/sweep.txt"
at=$(sed -n 's/.*a step at iteration \([0-9]*\): sweep(.*/\1/p' "$work/sweep.txt")
expect "the step of the sweeps is found at iteration 300: '${at:-none}'" \
  "\"$at\" != \"\" && $at >= 298 && $at <= 302"

# The checkpoints: the call tree of every iteration is exact, so rank 0 checkpointed in
# exactly the iterations 49, 99, ..., 599; and each one stands out.
checkpoints=$(awk -F'\t' 'NR > 1 && $1 == 0 && $5 ~ /^checkpoint\(/ && $7 > 0 { printf "%s ", $3 }' \
  "$work/series.tsv")
expected=$(seq 49 50 599 | tr '\n' ' ')
expect "rank 0 checkpointed in iterations $expected (reconstructed: $checkpoints)" \
  "\"$checkpoints\" == \"$expected\""
missed=0
for i in $(seq 49 50 599); do
  grep -q "^    iteration $i " "$work/dynamics.txt" || missed=$((missed + 1))
done
expect "every checkpoint stands out among the spikes ($missed missed)" "$missed == 0"

# The drift: rank 2's hot spot.
expect "idb dynamics names rank 2 as drifting" \
  "$(grep -c '^  rank 2 drifts' "$work/dynamics.txt") == 1"

# The view and the canned query say the same.
rows=$(query "SELECT count(*) AS n FROM iteration_series WHERE label = 'heat-1' AND rank = 0
              AND probe_id = dynamic_probe_id" | pick n)
expect "iteration_series holds rank 0's 600 iterations" "$rows == 600"
query iteration_outliers run=heat-1 limit=40 >"$work/outliers.tsv"
expect "iteration_outliers lists rank 0's checkpoints among the 40 farthest" \
  "$(awk -F'\t' 'NR > 1 && $1 == 0 && ($4 + 1) % 50 == 0 { ++n } END { print n + 0 }' \
     "$work/outliers.tsv") >= 6"

# The summary mode keeps no iterations (they would grow with the ranks), and the run is
# whole without them.
IDB_MPI_MODE=summary store_run heat-summary heat --steps 100
summary=$(sed -n 's/^heat: //p' "$work/heat-summary.out")
expect "summary mode: the run completes and prints its answer" "\"$summary\" != \"\""
steps=$(query "SELECT sum(s.count) AS n FROM node_stats s JOIN nodes n USING (cfh_id, node)
               JOIN cfh_instances h USING (cfh_id) JOIN runs r USING (run_id)
               JOIN probe_sites p ON p.run_id = r.run_id AND p.probe_id = n.probe_id
               WHERE r.label = 'heat-summary' AND p.description LIKE 'for loop in simulate%'" |
  pick n)
expect "summary mode: the time-step loop ran 100 times on each of 4 ranks" "$steps == 400"

# A run without a dynamic probe says so.
if "$idb" dynamics heat-default --db "$db" >"$work/none.out" 2>&1; then
  expect "idb dynamics fails on a run without a dynamic probe" "0 == 1"
else
  expect "idb dynamics says a run has no dynamic probe" \
    "$(grep -c 'has no dynamic probe' "$work/none.out") == 1"
fi
e2e_finish
