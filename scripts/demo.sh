#!/usr/bin/env bash
# The demo: sets up, builds (release preset), runs the Jacobi example with hand-placed
# probes on two threads, prints its profile as a tree, loads it into a SQLite database
# and lists the runs stored there.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "setup"
bash scripts/setup.sh
step "configure and build (build/release)"
cmake --preset release >/dev/null
cmake --build --preset release

out=build/demo
mkdir -p "$out"
rm -f "$out"/*.idbprof "$out/idb.db"
step "run examples/jacobi (400x400 plate, 200 iterations, 2 threads)"
IDB_OUT="$out/jacobi.idbprof" IDB_ATTR_mesh=400x400 build/release/examples/jacobi 400 200 2
step "the profile: build/release/cli/idb show $out/jacobi.idbprof"
build/release/cli/idb show "$out/jacobi.idbprof"
step "load it into SQLite: idb load --db $out/idb.db --label jacobi-400 --attr case=demo"
build/release/cli/idb load --db "$out/idb.db" --label jacobi-400 --attr case=demo \
  "$out/jacobi.idbprof"
step "the runs in the database: idb runs --db $out/idb.db"
build/release/cli/idb runs --db "$out/idb.db"
step "ask it with SQL: the five nodes with the most inclusive time"
sqlite3 -header -column "$out/idb.db" "
  SELECT p.description AS probe, c.name AS cfh, s.count, round(s.total, 6) AS total_s
  FROM node_stats s
  JOIN nodes n USING (cfh_id, node)
  JOIN cfh_instances c USING (cfh_id)
  JOIN probe_sites p ON p.run_id = c.run_id AND p.probe_id = n.probe_id
  WHERE n.parent IS NOT NULL
  ORDER BY s.total DESC LIMIT 5;"
printf '\nThe profile is %s (%s bytes, docs/profile-format.md); the database is %s\n' \
  "$out/jacobi.idbprof" "$(stat -c %s "$out/jacobi.idbprof")" "$out/idb.db"
printf '(tables in docs/schema.md; open it with: sqlite3 %s).\n' "$out/idb.db"
