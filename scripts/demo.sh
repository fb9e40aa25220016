#!/usr/bin/env bash
# The demo: sets up, builds the tools (release preset), instruments the MPI example
# examples/smvp through the compiler wrapper with the default selection (no probe placed
# by hand), runs it twice under mpirun with four ranks, storing each run in a SQLite
# database, and asks the database: the top-down tree, the hottest procedures, the load
# imbalance across the ranks, and the run-to-run regularity (a COALESCE experiment).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

step() { printf '\n== [%3d s] %s\n' "$((SECONDS - start))" "$*"; }

step "setup (scripts/setup.sh)"
bash scripts/setup.sh
step "configure and build the tools (build/release)"
cmake --preset release >/dev/null
cmake --build --preset release --target idb idb-cc idb-instrument idb_probe_shared idb_mpi

root=$PWD
bin=$root/build/release
idb=$bin/cli/idb
out=$PWD/build/demo
rm -rf "$out" && mkdir -p "$out/smvp"
if [[ $(id -u) -eq 0 ]]; then # Open MPI refuses root unless told twice
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

step "instrument and build examples/smvp: make CC=\"idb-cc mpicc\""
(cd "$out/smvp" && make -s -f "$root/examples/smvp/Makefile" CC="$bin/instrumenter/idb-cc mpicc")
"$bin/instrumenter/idb-instrument" list examples/smvp/smvp.c -- $(mpicc --showme:compile) |
  awk 'NR == 1 || / yes| blackbox| whitebox/' | head -20

for i in 1 2; do
  step "run $i under mpirun -np 4 and store it: idb run -n 4 --label smvp-$i"
  "$idb" run -n 4 --mpirun-arg --oversubscribe --db "$out/idb.db" --label "smvp-$i" \
    --attr mesh=300x300 -- "$out/smvp/smvp" 300 300 150
done

step "the runs: idb runs"
"$idb" runs --db "$out/idb.db"
step "the top-down tree of smvp-1, all ranks merged, below 1% pruned"
"$idb" report smvp-1 --db "$out/idb.db" --aggregate --prune 1 --no-cpu
step "the hottest procedures: idb query hottest_procedures"
"$idb" query hottest_procedures --db "$out/idb.db" --param run=smvp-1 --param limit=6
step "load imbalance across the ranks: the probes over 10 ms per rank, most imbalanced first"
"$idb" query "SELECT i.probe_id, l.name AS probe, i.max, i.mean, i.imbalance, i.rank_of_max
              FROM probe_imbalance i JOIN lookup l ON l.lid = i.probe_id AND l.run_id = i.run_id
              WHERE i.run_id = (SELECT run_id FROM runs WHERE label = :run) AND i.mean > 0.01
              ORDER BY imbalance DESC LIMIT 5" --db "$out/idb.db" --param run=smvp-1
step "regularity of the two runs: idb edf (COALESCE)"
cat >"$out/smvp.edf" <<EDF
[PREAMBLE]
Experiment   smvp on 4 ranks, 300x300 mesh, repeated
Mode         COALESCE
Application  smvp
Database     idb.db
[DBLIST]
smvp-*       the demo's runs
EDF
"$idb" edf "$out/smvp.edf" --format table >"$out/smvp-coalesce.txt"
head -12 "$out/smvp-coalesce.txt"
echo "... (all $(($(wc -l <"$out/smvp-coalesce.txt") - 2)) probes in $out/smvp-coalesce.txt)"
"$idb" edf "$out/smvp.edf" --format svg --output "$out/smvp-coalesce.svg"

step "done in $((SECONDS - start)) s"
cat <<TEXT
The database is $out/idb.db (tables and views: docs/schema.md). Ask it with
  $idb query --list
  sqlite3 $out/idb.db 'SELECT * FROM probes LIMIT 5'
The COALESCE box plot is $out/smvp-coalesce.svg (open it in a browser). To look at it all
in the GUI: cmake --build --preset release --target idb-gui &&
  $bin/gui/idb-gui --db $out/idb.db $out/smvp.edf
TEXT
