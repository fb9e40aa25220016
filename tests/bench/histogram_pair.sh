#!/usr/bin/env bash
# The start/stop pair with duration histograms on and off (IDB_HISTOGRAM), side by side
# with the reference of bench_probe_pair (two TSC reads and one idb_stats_add) measured in
# the same processes: ROUNDS rounds (default 3), each running both settings of both
# libraries one after the other, 5 interleaved repetitions per benchmark. Prints one table
# of the median over the rounds of each benchmark's ns per pair and of its ratio to the
# reference of its own process. Builds nothing; throttling off, so every pair is timed.
#
# Usage: tests/bench/histogram_pair.sh [BUILD_DIR] [ROUNDS]  (default build/release, 3)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build/release}
rounds=${2:-3}
bin=$build/tests/bench
for exe in bench_probe_pair bench_probe_pair_static; do
  [[ -x $bin/$exe ]] || {
    echo "histogram_pair.sh: $bin/$exe not found; build first:" >&2
    echo "  cmake --preset release && cmake --build --preset release --target $exe" >&2
    exit 1
  }
done
out=$(mktemp -d "${TMPDIR:-/tmp}/idb-hist-pair.XXXXXX")
trap 'rm -rf "$out"' EXIT
unset IDB_ENABLE IDB_CPU IDB_CPU_THRESHOLD_US IDB_TIMER IDB_MAX_NODES IDB_MAX_DEPTH IDB_OUT \
  IDB_THROTTLE IDB_THROTTLE_AFTER IDB_THROTTLE_PERCENT IDB_HISTOGRAM
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; ++r)); do
  for hist in 1 0; do
    for exe in bench_probe_pair bench_probe_pair_static; do
      IDB_HISTOGRAM=$hist IDB_THROTTLE=0 IDB_OUT="$out/p.idbprof" "$bin/$exe" \
        --benchmark_repetitions=5 --benchmark_min_time=0.1 \
        --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
        2>/dev/null | awk -v r="$r" -v h="$hist" -v e="$exe" \
        '$1 ~ /_median$/ { sub(/_median$/, "", $1); print r, h, e, $1, $2 }' >>"$out/all.txt"
    done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| library | benchmark | histograms on: ns | ratio | off: ns | ratio |"
echo "|---|---|---:|---:|---:|---:|"
awk '
  function median(list, n,   a, i, j, t) { # n values, space-separated
    split(list, a, " ")
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { ns[$1, $2, $3, $4] = $5; if ($4 == "BM_Reference") ref[$1, $2, $3] = $5
    names[$4] = 1; rounds[$1] = 1 }
  END {
    split("BM_Flat BM_Nested3 BM_Siblings100 BM_ScopeMacro BM_Reference", order, " ")
    for (l = 1; l <= 2; ++l) {
      exe = l == 1 ? "bench_probe_pair" : "bench_probe_pair_static"
      for (k = 1; k <= 5; ++k) {
        b = order[k]; line = "| " (l == 1 ? "shared" : "static") " | " b
        for (h = 1; h >= 0; --h) {
          v = ""; q = ""; n = 0
          for (r in rounds) {
            per = b == "BM_Nested3" ? 3 : b == "BM_Siblings100" ? 100 : 1
            v = v " " ns[r, h, exe, b] / per; q = q " " ns[r, h, exe, b] / per / ref[r, h, exe]; ++n
          }
          line = line sprintf(" | %.2f | %.2f", median(v, n), median(q, n))
        }
        print line " |"
      }
    }
  }' "$out/all.txt"
