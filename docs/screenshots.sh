#!/usr/bin/env bash
# Renders every view of idb-gui into docs/images/ (the pictures of docs/gui.md) from real
# runs: examples/jacobi five times on 2 threads and four times on 4, loaded into a fresh
# SQLite database, and two experiment files over them (COALESCE of the 2-thread runs,
# COMPARE of 2 against 4 threads); and examples/balance built through idb-cc and run once
# on 4 ranks under mpirun (the master distributing the tasks), for the tree's wait states;
# examples/smvp the same way, for the flame graph;
# and examples/heat built with its time-step loop dynamic (examples/heat/dynamic.sel) and
# run once on 4 ranks, for the Iterations view.
# Offscreen; needs the build's idb, jacobi, idb-cc and idb-gui, and mpicc.
#   docs/screenshots.sh [BUILD_DIR]   (default build/dev)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
images=docs/images
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/idb.db
export QT_QPA_PLATFORM=offscreen

run_jacobi() { # LABEL THREADS
  IDB_OUT="$work/$1.idbprof" IDB_ATTR_threads=$2 IDB_ATTR_mesh=300x300 \
    "$build/examples/jacobi" 300 300 "$2" >/dev/null
  "$build/cli/idb" load --no-progress --db "$db" --label "$1" "$work/$1.idbprof" >/dev/null
}
for i in 1 2 3 4 5; do run_jacobi "jacobi-2t-$i" 2; done
for i in 1 2 3 4; do run_jacobi "jacobi-4t-$i" 4; done

if [[ $(id -u) -eq 0 ]]; then # Open MPI refuses root unless told twice
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mkdir "$work/balance"
root=$PWD bin=$(cd "$build" && pwd)
(cd "$work/balance" && make -s -f "$root/examples/balance/Makefile" \
  CC="$bin/instrumenter/idb-cc mpicc" >/dev/null)
"$build/cli/idb" run -n 4 --mpirun-arg --oversubscribe --db "$db" --label balance-master \
  -- "$work/balance/balance" master 400 40000 >/dev/null

mkdir "$work/smvp"
(cd "$work/smvp" && make -s -f "$root/examples/smvp/Makefile" \
  CC="$bin/instrumenter/idb-cc mpicc" >/dev/null)
"$build/cli/idb" run -n 4 --mpirun-arg --oversubscribe --db "$db" --label smvp \
  -- "$work/smvp/smvp" 400 400 300 >/dev/null

mkdir "$work/heat"
(cd "$work/heat" && IDB_SELECTION_FILE=$root/examples/heat/dynamic.sel \
  make -s -f "$root/examples/heat/Makefile" CC="$bin/instrumenter/idb-cc mpicc" >/dev/null)
"$build/cli/idb" run -n 4 --mpirun-arg --oversubscribe --db "$db" --label heat \
  -- "$work/heat/heat" >/dev/null

cat >"$work/coalesce.edf" <<EDF
[PREAMBLE]
Experiment   Jacobi 300x300 on 2 threads, five runs
Mode         COALESCE
Database     $db
[DBLIST]
jacobi-2t-*  the same configuration, run five times
EDF
cat >"$work/compare.edf" <<EDF
[PREAMBLE]
Experiment   Jacobi 300x300: 2 threads against 4
Mode         COMPARE
Database     $db
[DBLIST]
jacobi-2t-*  2 threads (the baseline)
jacobi-4t-*  4 threads
EDF

mkdir -p "$images"
"$build/gui/idb-gui" --db "$db" --run balance-master --screenshot "$images/run.png" \
  --view run --node "worker(...)" 2>/dev/null
"$build/gui/idb-gui" --db "$db" --run balance-master --screenshot "$images/tree-waits.png" \
  --view tree --node MPI_Recv 2>/dev/null
"$build/gui/idb-gui" --db "$db" --run smvp --screenshot "$images/source.png" \
  --view source --node "multiply" 2>/dev/null
"$build/gui/idb-gui" --db "$db" --run smvp --screenshot "$images/flame.png" \
  --view flame --node "power_iteration" 2>/dev/null
"$build/gui/idb-gui" --db "$db" --run smvp --screenshot "$images/flat.png" \
  --view flat 2>/dev/null
"$build/gui/idb-gui" --db "$db" --run jacobi-2t-1 --screenshot "$images/diff.png" \
  --view diff --baseline 'jacobi-2t-*' --compare 'jacobi-4t-*' 2>/dev/null
"$build/gui/idb-gui" --db "$db" --run heat --screenshot "$images/iterations.png" \
  --view iterations --node "sweep(...)" 2>/dev/null
for view in runs chart tree sql; do
  "$build/gui/idb-gui" --db "$db" --run jacobi-4t-1 --screenshot "$images/$view.png" \
    --view "$view" 2>/dev/null
done
"$build/gui/idb-gui" --screenshot "$images/coalesce.png" --view coalesce "$work/coalesce.edf" 2>/dev/null
"$build/gui/idb-gui" --screenshot "$images/compare.png" --view compare "$work/compare.edf" 2>/dev/null
ls -l "$images"
