#!/usr/bin/env bash
# The demo, the README's first command: sets up, builds the tools (release preset),
# instruments the three MPI examples (smvp, pic, balance) through the compiler wrappers
# with the default selection (no probe placed by hand), runs each several times under
# mpirun with four ranks (repeats, and the variants its experiments compare) into one
# SQLite database, and asks it: where the time goes, what pow() costs against a multiply,
# how the work is shared out among the ranks, how regular the runs are. The experiments
# are the examples' own .edf files; their tables are printed and their SVG plots written
# next to the database, build/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

step() { printf '\n== [%3d s] %s\n' "$((SECONDS - start))" "$*"; }

step "setup (scripts/setup.sh)"
bash scripts/setup.sh
step "configure and build the tools (build/release)"
cmake --preset release >/dev/null
mkdir -p build/release
if ! cmake --build --preset release --target idb idb-cc idb-cxx idb-instrument \
  idb_probe_shared idb_mpi >build/release/demo-build.log 2>&1; then
  tail -40 build/release/demo-build.log
  exit 1
fi
tail -1 build/release/demo-build.log

root=$PWD
bin=$root/build/release
idb=$bin/cli/idb
out=$root/build/demo
db=$out/idb.db
rm -rf "$out" && mkdir -p "$out"/{smvp,pic,balance,heat}
if [[ $(id -u) -eq 0 ]]; then # Open MPI refuses root unless told twice
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# The default selection, whatever the caller's environment says.
unset IDB_SELECTION IDB_SELECTION_FILE IDB_EDF

# probes_of FILE FLAGS...: what the default selection places in FILE, by kind.
probes_of() {
  "$bin/instrumenter/idb-instrument" list "$@" 2>/dev/null |
    awk '$NF ~ /^(yes|blackbox|whitebox|dynamic)$/ { ++n[$2]; ++all }
         END { printf "%d probes:", all
               split("PROC LOOP CALL COMM", kinds, " ")
               for (k = 1; k <= 4; ++k) if (n[kinds[k]]) printf " %d %s", n[kinds[k]], kinds[k]
               print "" }'
}

step "instrument and build the examples through the compiler wrappers (default selection)"
cc="$bin/instrumenter/idb-cc mpicc" cxx="$bin/instrumenter/idb-cxx mpicxx"
(cd "$out/smvp" && make -s -f "$root/examples/smvp/Makefile" CC="$cc")
(cd "$out/balance" && make -s -f "$root/examples/balance/Makefile" CC="$cc")
(cd "$out/pic" && make -s -f "$root/examples/pic/Makefile" CXX="$cxx")
(cd "$out/heat" && IDB_SELECTION_FILE=$root/examples/heat/dynamic.sel \
  make -s -f "$root/examples/heat/Makefile" CC="$cc")
mpi_c=$(mpicc --showme:compile) mpi_cxx=$(mpicxx --showme:compile)
# shellcheck disable=SC2086 # the MPI flags are words
{
  echo "  smvp     make CC=\"idb-cc mpicc\"     $(probes_of examples/smvp/smvp.c -- $mpi_c)"
  echo "  balance  make CC=\"idb-cc mpicc\"     $(probes_of examples/balance/balance.c -- $mpi_c)"
  echo "  pic      make CXX=\"idb-cxx mpicxx\"  $(probes_of examples/pic/pic.cpp -- $mpi_cxx \
    -DOMPI_SKIP_MPICXX=1)"
  echo "  heat     make CC=\"idb-cc mpicc\"     $(probes_of examples/heat/heat.c --selection \
    examples/heat/dynamic.sel -- $mpi_c), the time-step loop dynamic"
}

# store LABEL PROGRAM ARGS...: one run on four ranks, stored under LABEL; prints one line
# (the label, the wall time, the program's own answer).
store() {
  local label=$1 program=$2 t0=$SECONDS
  shift 2
  if ! "$idb" run -n 4 --mpirun-arg --oversubscribe --db "$db" --label "$label" \
    --attr "args=$*" -- "$out/$program/$program" "$@" >"$out/$label.log" 2>&1; then
    cat "$out/$label.log"
    exit 1
  fi
  printf '  %-18s %3d s   %s\n' "$label" "$((SECONDS - t0))" \
    "$(grep -m1 "^$program:" "$out/$label.log" | sed 's/^[a-z]*: //')"
}

step "run smvp under mpirun -np 4: small, medium and large meshes, 3 runs each"
declare -A mesh=([small]="100 100" [medium]="200 200" [large]="400 400")
for i in 1 2 3; do
  for m in small medium large; do
    # shellcheck disable=SC2086 # the mesh is two words on purpose
    store "smvp-$m-$i" smvp ${mesh[$m]} 300
  done
done
step "run pic under mpirun -np 4: --kernel pow and --kernel mul, 3 runs each"
for i in 1 2 3; do
  for k in pow mul; do
    store "pic-$k-$i" pic --kernel $k --particles 200000 --steps 40
  done
done
step "run balance under mpirun -np 4: equal, master and skewed distributions, 3 runs each"
for i in 1 2 3; do
  for d in equal master skewed; do
    store "balance-$d-$i" balance $d 400 40000
  done
done

# edf_rows FILE REGEX [OPTIONS...]: an experiment's table, its header and the rows whose
# text matches REGEX; the whole table goes to build/demo/<example>-<experiment>.txt.
edf_rows() {
  local file=$1 regex=$2 name
  shift 2
  name=$(basename "$(dirname "$file")")-$(basename "$file" .edf)
  "$idb" edf "$file" "$@" >"$out/$name.txt"
  awk -v re="$regex" 'NR <= 2 || $0 ~ re' "$out/$name.txt"
}

step "where the time goes in pic-pow-1: the top-down tree, all ranks merged, below 2% pruned"
"$idb" report pic-pow-1 --db "$db" --aggregate --prune 2 --no-cpu
step "which code spends it: pic-pow-1's probes by their own time over every call path (--flat)"
"$idb" report pic-pow-1 --db "$db" --flat --top 6
step "what pow() costs: examples/pic/compare-kernel.edf (COMPARE), the push loop and main"
edf_rows examples/pic/compare-kernel.edf 'push|main'

step "balance, skewed partition: the most imbalanced probes (SQL on the view probe_imbalance)"
"$idb" query "SELECT p.description, printf('%.3f', i.min) AS min_s, printf('%.3f', i.max) AS max_s,
                     printf('%.3f', i.mean) AS mean_s, printf('%.2f', i.imbalance) AS imbalance,
                     i.rank_of_max
              FROM probe_imbalance i JOIN probe_sites p USING (run_id, probe_id)
              WHERE i.run_id = (SELECT run_id FROM runs WHERE label = :run) AND i.mean > 0.01
              ORDER BY i.imbalance DESC LIMIT 5" --db "$db" --param run=balance-skewed-1
step "balance, master/worker: rank 0's critical path (idb query critical_path)"
"$idb" query critical_path --db "$db" --param run=balance-master-1 --param rank=0 \
  --param thread=0 --format csv |
  awk -F, 'NR > 1 { printf "  %*s%s  %.3f s", 2 * $2, "", $5, $7
                    if ($10 != "") printf ", %.0f%% of its parent", 100 * $10
                    print "" }'
step "balance, master/worker: time lost waiting for another rank, and why (idb query wait_states)"
"$idb" query wait_states --db "$db" --param run=balance-master-1 --format csv |
  awk -F, 'NR > 1 { printf "  %-30s %-16s %7.3f s, %3.0f%% of its time, %d waits; most on rank %s\n",
                           $2, $3, $4, 100 * $6, $5, $7 }'
step "who does the work: examples/balance/compare-distribution.edf (COMPARE, CPU time)"
edf_rows examples/balance/compare-distribution.edf 'run_task\('

step "run heat under mpirun -np 4: 600 time steps, each kept apart (its loop is dynamic)"
store heat-1 heat
step "heat: how its 600 time steps went (idb dynamics): the refined step, the checkpoints, the drift"
"$idb" dynamics heat-1 --db "$db" --width 50 --top 4

step "smvp: the hottest procedures of smvp-medium-1 (idb query hottest_procedures)"
"$idb" query hottest_procedures --db "$db" --param run=smvp-medium-1 --param limit=6
step "smvp: how the phases grow with the mesh: examples/smvp/compare-mesh.edf (COMPARE)"
edf_rows examples/smvp/compare-mesh.edf 'multiply\(|assemble\('

step "regularity of the repeated runs: each example's coalesce-repeats.edf (COALESCE)"
edf_rows examples/pic/coalesce-repeats.edf 'push|deposit|main|MPI_Allreduce'
edf_rows examples/balance/coalesce-repeats.edf 'run_task\(|MPI_Reduce|main'
edf_rows examples/smvp/coalesce-repeats.edf 'multiply\(|assemble\(|dot\(|main'

step "plots: every experiment as SVG, and each comparison's key probe on its own"
for file in examples/{smvp,pic,balance}/*.edf; do
  name=$(basename "$(dirname "$file")")-$(basename "$file" .edf)
  "$idb" edf "$file" --format svg --output "$out/$name.svg"
  echo "  $out/$name.svg   (table: $name.txt)"
done
for focus in "smvp-compare-mesh multiply(" "pic-compare-kernel push" \
  "balance-compare-distribution run_task("; do
  name=${focus%% *} probe=${focus#* }
  file=examples/${name%%-*}/${name#*-}.edf
  "$idb" edf "$file" --probe "$probe" --format svg --output "$out/$name-${probe//[:(]/}.svg"
  echo "  $out/$name-${probe//[:(]/}.svg"
done

step "done in $((SECONDS - start)) s"
cat <<TEXT
The database is $db: $("$idb" runs --db "$db" --format csv | tail -n +2 | wc -l) runs
(tables and views: docs/schema.md). Ask it with
  $idb runs --db $db
  $idb query --list
  $idb edf examples/pic/compare-kernel.edf --probe push --value cpu
  sqlite3 $db 'SELECT * FROM probes LIMIT 5'
The plots are the .svg files in $out (open them in a browser).
The GUI's richest view: the master-worker run in three linked panes (metric, call tree,
ranks; choose "wait time" to see where the ranks waited). Build it and open it with
  cmake --build --preset release --target idb-gui &&
  $bin/gui/idb-gui --db $db --run balance-master-1 --view run
TEXT
