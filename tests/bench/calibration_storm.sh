#!/usr/bin/env bash
# The runtime's calibrated charges and throttling threshold, run after run, without
# interrupts and under a SIGALRM every 50 and every 20 us (bench_calibration_storm.c says
# how); docs/PERFORMANCE.md, section 5, "Calibration under interrupts". One line per
# period: each run's timed charge / throttled charge / threshold, in ns.
#
# Usage: tests/bench/calibration_storm.sh [BUILD_DIR [RUNS]]   (build/release, 10)
# With LD_LIBRARY_PATH naming another build's probe_lib folder, that runtime is measured.
# Takes about 20 seconds.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build/release}
runs=${2:-10}
exe=$build/tests/bench/bench_calibration_storm
idb=$build/cli/idb
for f in "$exe" "$idb"; do
  if [[ ! -x $f ]]; then
    echo "calibration_storm.sh: $f not found; build first:" >&2
    echo "  cmake --preset release && cmake --build --preset release" >&2
    exit 1
  fi
done
out=$(mktemp -d "${TMPDIR:-/tmp}/idb-storm.XXXXXX")
trap 'rm -rf "$out"' EXIT
unset IDB_ENABLE IDB_THROTTLE IDB_THROTTLE_PERCENT IDB_TIMER

sql="SELECT printf('%.1f/%.2f/%.0f',
  max(CASE WHEN key = 'noise_per_activation_s' THEN CAST(value AS REAL) END) * 1e9,
  max(CASE WHEN key = 'throttled_noise_per_activation_s' THEN CAST(value AS REAL) END) * 1e9,
  max(CASE WHEN key = 'throttle_below_s' THEN CAST(value AS REAL) END) * 1e9) FROM run_meta"
for period in 0 50 20; do
  line=""
  for ((i = 1; i <= runs; i++)); do
    rm -f "$out/s.db"
    IDB_OUT="$out/s.idbprof" "$exe" "$period" 2
    "$idb" load --db "$out/s.db" "$out/s.idbprof" >/dev/null
    line+=" $("$idb" query "$sql" --db "$out/s.db" --format csv | tail -1)"
  done
  printf 'every %3s us:%s\n' "$([[ $period == 0 ]] && echo - || echo "$period")" "$line"
done
