#!/usr/bin/env bash
# The archive at scale (docs/PERFORMANCE.md §7, "4,096 ranks"): a full-mode profile of RANKS
# ranks × NODES nodes written by the runtime's own writer (scale_profile_gen), then
# `idb load`, `idb report --aggregate`, the imbalance view and a COALESCE over the run,
# each timed (wall seconds and peak memory), with the database's bytes per node row:
#   scale.sh BUILD_DIR RANKS NODES            SQLite, a file in a temporary folder
#   scale.sh BUILD_DIR RANKS NODES --pg       PostgreSQL, a throwaway cluster
# Every step must succeed and the load must store RANKS × NODES nodes; the suite runs it
# small (tests/bench/CMakeLists.txt), the documented figure is 4,096 × 1,000.
set -euo pipefail
build=$(realpath "$1") ranks=$2 nodes=$3 pg=${4:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
idb=$build/cli/idb
work=$(mktemp -d /tmp/idb-scale.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

# Runs a command, its output to a file; prints "STEP wall s, peak MB".
step() {
  local name=$1
  shift
  if ! /usr/bin/time -o "$work/time" -f "%e %M" "$@" >"$work/out" 2>"$work/err"; then
    echo "scale.sh: $name failed:" >&2
    cat "$work/err" >&2
    exit 1
  fi
  awk -v n="$name" '{ printf "%-34s %8.2f s  %7.0f MB peak\n", n, $1, $2 / 1024 }' "$work/time"
}

db=$work/idb.db
if [[ $pg == --pg ]]; then
  "$src/tests/pg/pg_cluster.sh" start "$work/pg" >/dev/null
  trap '"$src/tests/pg/pg_cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
  db=$(cat "$work/pg/url")
  export PGPASSWORD=$(cat "$work/pg/password")
fi
profile=$work/scale.idbprof
step "write the profile" "$build/tests/bench/scale_profile_gen" "$ranks" "$nodes" "$profile"
echo "profile: $(stat -c %s "$profile") bytes, $((ranks * nodes)) nodes"
step "idb load" "$idb" load --db "$db" --label scale --no-progress "$profile"
expected="(${ranks} CFHs, $((ranks * nodes)) nodes)"
grep -qF "$expected" "$work/out" || {
  echo "scale.sh: the load did not store $expected: $(cat "$work/out")" >&2
  exit 1
}
if [[ $pg == --pg ]]; then
  bytes=$(psql -qtA "$db" -c "SELECT pg_database_size(current_database())")
  echo "database: $bytes bytes, $(awk -v b="$bytes" -v n=$((ranks * nodes)) \
    'BEGIN { printf "%.1f", b / n }') bytes per node (the database as a whole)"
  # What storing the empty CPU and byte fields sparsely (as NULL) would save: the bytes
  # those six columns take in the rows where all of them are 0, against the whole row.
  psql -qtA -F ' ' "$db" -c "SELECT round(avg(pg_column_size(s.*)), 1),
      round(avg(pg_column_size(s.cpu_count) + pg_column_size(s.cpu_total) +
                pg_column_size(s.cpu_min) + pg_column_size(s.cpu_max) +
                pg_column_size(s.bytes_sent) + pg_column_size(s.bytes_recv)), 1),
      round(100.0 * count(*) FILTER (WHERE s.cpu_count = 0 AND s.bytes_sent = 0 AND
                                           s.bytes_recv = 0) / count(*), 1)
      FROM node_stats s" |
    awk '{ printf "node_stats: %s bytes per row; the six CPU and byte columns %s of them, all 0 in %s%% of rows\n", $1, $2, $3 }'
else
  bytes=$(stat -c %s "$db")
  echo "database: $bytes bytes, $(awk -v b="$bytes" -v n=$((ranks * nodes)) \
    'BEGIN { printf "%.1f", b / n }') bytes per node"
fi
step "idb report --aggregate" "$idb" report scale --db "$db" --aggregate
step "imbalance view (every probe)" "$idb" query --db "$db" --format csv \
  "SELECT i.* FROM probe_imbalance i JOIN runs r USING (run_id) WHERE r.label = 'scale'"
probes=$(($(wc -l <"$work/out") - 1))
((probes > 0)) || { echo "scale.sh: the imbalance view is empty" >&2; exit 1; }
step "canned query imbalance" "$idb" query imbalance --db "$db" --param run=scale --format csv
cat >"$work/scale.edf" <<EDF
[PREAMBLE]
Experiment  COALESCE at scale
Mode        COALESCE
[DBLIST]
scale
EDF
step "idb edf COALESCE (ranks merged)" "$idb" edf "$work/scale.edf" --db "$db" --format csv
echo "imbalance: $probes probes; COALESCE: $(($(wc -l <"$work/out") - 1)) rows"
