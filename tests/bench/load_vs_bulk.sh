#!/usr/bin/env bash
# IDB's load of a run against the raw bulk load of the very same rows into the same schema
# (docs/PERFORMANCE.md §7, "Against the raw bulk load"), side by side in one session:
#   load_vs_bulk.sh BUILD_DIR [ROUNDS] [--pg]
# SQLite: bench_store_load (256 ranks x 2,000 nodes) into a fresh file, then those rows
# exported as CSV and loaded by the sqlite3 shell's .import (one transaction, no key
# checks, no statement journal) into a fresh file of the same schema and page size, in WAL
# mode as IDB's. With --pg the same on a throwaway PostgreSQL cluster, the reference being
# psql's \copy of the CSV files in one transaction. Prints each round's wall and CPU
# seconds and the ratio raw/IDB (1 means as fast as the raw load; the goal is 0.8 or more).
set -euo pipefail
build=$(realpath "$1") rounds=${2:-3} pg=${3:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/idb-load-vs-bulk.XXXXXX)
chmod 755 "$work" # the PostgreSQL server (user postgres when run as root) reads the CSV files
trap 'rm -rf "$work"' EXIT
bench=$build/tests/bench/bench_store_load
tables=(runs run_attributes run_meta probe_sites cfh_instances nodes node_stats node_spread)

# Wall and CPU seconds (user + system) of a command; its output is dropped (the shell's
# .import reports each root node it cannot store: see the note in docs/PERFORMANCE.md).
timed() {
  /usr/bin/time -o "$work/time" -f "%e %U %S" "$@" >/dev/null 2>&1
  awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$work/time"
}

"$bench" --db "$work/idb.db" --keep >/dev/null
for t in "${tables[@]}"; do sqlite3 -csv "$work/idb.db" "SELECT * FROM $t" >"$work/$t.csv"; done
sqlite3 "$work/idb.db" .schema >"$work/schema.sql"
rows=$(wc -l <"$work/node_stats.csv")
echo "rows: $rows statistics rows, $(cat "$work"/*.csv | wc -l) in all"

import_script() {
  echo ".mode csv"
  echo "BEGIN;"
  for t in "${tables[@]}"; do echo ".import $work/$t.csv $t"; done
  echo "COMMIT;"
}
import_script >"$work/import.sql"

if [[ $pg != --pg ]]; then
  printf '%-6s %-28s %-28s %s\n' round "IDB load (wall cpu)" "sqlite3 .import (wall cpu)" raw/IDB
  for ((i = 1; i <= rounds; i++)); do
    rm -f "$work/a.db"
    idb=$("$bench" --db "$work/a.db" | sed -E 's/.* load ([0-9.]+) s .* cpu ([0-9.]+) s rows.*/\1 \2/')
    rm -f "$work/ref.db"*
    sqlite3 "$work/ref.db" "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL;" >/dev/null
    sqlite3 "$work/ref.db" <"$work/schema.sql"
    raw=$(timed sqlite3 "$work/ref.db" ".read $work/import.sql")
    stored=$(sqlite3 "$work/ref.db" "SELECT (SELECT count(*) FROM node_stats) || ' stats, ' ||
                                            (SELECT count(*) FROM nodes) || ' nodes'")
    awk -v r="$i" -v a="$idb" -v b="$raw" -v s="$stored" 'BEGIN { split(a, x, " ");
      split(b, y, " "); printf "%-6s %-28s %-28s %.2f   (.import stored %s)\n", r, a, b,
      y[1] / x[1], s }'
  done
  exit 0
fi

pgdir=$work/pg
"$src/tests/pg/pg_cluster.sh" start "$pgdir" >/dev/null
trap '"$src/tests/pg/pg_cluster.sh" stop "$pgdir" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
url=$(cat "$pgdir/url")
export PGPASSWORD=$(cat "$pgdir/password") PGOPTIONS="-c client_min_messages=warning"
copy_script() {
  echo "BEGIN;"
  for t in "${tables[@]}"; do echo "\\copy $t FROM '$work/$t.csv' CSV"; done
  echo "COMMIT;"
}
printf '%-6s %-28s %-28s %s\n' round "IDB load (wall client-cpu)" "psql \\copy (wall)" raw/IDB
for ((i = 1; i <= rounds; i++)); do
  psql -q "$url" -c "DROP SCHEMA IF EXISTS a$i CASCADE; CREATE SCHEMA a$i;
                     DROP SCHEMA IF EXISTS r$i CASCADE; CREATE SCHEMA r$i;" >/dev/null
  idb=$("$bench" --db "$url?options=-csearch_path%3Da$i" |
    sed -E 's/.* load ([0-9.]+) s .*client CPU ([0-9.]+) s.*/\1 \2/')
  # The reference schema: IDB's own tables, made by a tiny load, then emptied.
  "$bench" --ranks 1 --nodes 2 --db "$url?options=-csearch_path%3Dr$i" >/dev/null
  psql -q "$url" -c "TRUNCATE $(printf "r$i.%s, " "${tables[@]}" | sed 's/, $//')" >/dev/null
  copy_script >"$work/copy.sql"
  # In the schema's search path, as IDB's connection has it (its key triggers name tables).
  raw=$(timed psql -q -v ON_ERROR_STOP=1 "$url?options=-csearch_path%3Dr$i" -f "$work/copy.sql")
  stored=$(psql -qtA "$url" -c "SELECT (SELECT count(*) FROM r$i.node_stats) || ' stats, ' ||
                                       (SELECT count(*) FROM r$i.nodes) || ' nodes'")
  awk -v r="$i" -v a="$idb" -v b="$raw" -v s="$stored" 'BEGIN { split(a, x, " ");
    split(b, y, " "); printf "%-6s %-28s %-28s %.2f   (\\copy stored %s)\n", r, a, y[1],
    y[1] / x[1], s }'
done
