#!/usr/bin/env bash
# Renders every view of idb-gui into docs/images/ (the pictures of docs/gui.md) from real
# runs: examples/jacobi five times on 2 threads and four times on 4, loaded into a fresh
# SQLite database, and two experiment files over them (COALESCE of the 2-thread runs,
# COMPARE of 2 against 4 threads). Offscreen; needs the build's idb, jacobi and idb-gui.
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
for view in runs chart tree sql; do
  "$build/gui/idb-gui" --db "$db" --run jacobi-4t-1 --screenshot "$images/$view.png" \
    --view "$view" 2>/dev/null
done
"$build/gui/idb-gui" --screenshot "$images/coalesce.png" --view coalesce "$work/coalesce.edf" 2>/dev/null
"$build/gui/idb-gui" --screenshot "$images/compare.png" --view compare "$work/compare.edf" 2>/dev/null
ls -l "$images"
