#!/usr/bin/env bash
# Runs the probe runtime benchmarks of tests/bench/ against an existing build and prints
# the figures that docs/PERFORMANCE.md quotes. Builds nothing. Every configuration that
# the runtime reads from the environment at initialisation (IDB_ENABLE, IDB_CPU,
# IDB_THROTTLE...) runs in
# its own process; probe_bench_report.py turns the raw output into tables.
#
# Usage: tests/bench/run_probe_bench.sh [BUILD_DIR]    (default: <repository>/build/release)
# Takes about two minutes on the 2-core machine of docs/PERFORMANCE.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build/release} # the default is the repository's, from anywhere
bin=$build/tests/bench
for exe in bench_probe_pair bench_probe_pair_static bench_cpu_policy bench_node_bytes \
  bench_accuracy_pristine bench_accuracy_instrumented bench_profile_summary; do
  if [[ ! -x $bin/$exe ]]; then
    echo "run_probe_bench.sh: $bin/$exe not found; build first:" >&2
    echo "  cmake --preset release && cmake --build --preset release" >&2
    exit 1
  fi
done

out=$(mktemp -d "${TMPDIR:-/tmp}/idb-probe-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
# The user's own settings must not leak into a configuration.
unset IDB_ENABLE IDB_CPU IDB_CPU_THRESHOLD_US IDB_TIMER IDB_MAX_NODES IDB_MAX_DEPTH IDB_OUT \
  IDB_THROTTLE IDB_THROTTLE_AFTER IDB_THROTTLE_PERCENT IDB_THROTTLE_EARLY IDB_THROTTLE_SAMPLE

# run NAME EXE [VAR=VALUE...] -- [ARGS...]: one process; its profile is summarised.
run() {
  local name=$1 exe=$2
  shift 2
  local vars=()
  while [[ $1 != -- ]]; do
    vars+=("$1")
    shift
  done
  shift
  env "${vars[@]}" IDB_OUT="$out/$name.idbprof" "$bin/$exe" "$@" >"$out/$name.out"
  if [[ -f $out/$name.idbprof ]]; then
    "$bin/bench_profile_summary" "$out/$name.idbprof" >"$out/$name.profile.json"
    rm -f "$out/$name.idbprof"
  fi
}

# Other work on the machine shows up in every figure: say how busy it was.
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >"$out/load.txt"

pair_args=(--benchmark_format=json --benchmark_min_time=0.1 --benchmark_repetitions=5
  --benchmark_enable_random_interleaving=true)

echo "== start/stop pairs (5 interleaved repetitions per benchmark and configuration)" >&2
for lib in shared static; do
  exe=bench_probe_pair
  [[ $lib == static ]] && exe=bench_probe_pair_static
  # Timed pairs: throttling off, or the benchmarks' empty probes would stop timing.
  run "pair-$lib-auto" "$exe" IDB_CPU=auto IDB_THROTTLE=0 -- "${pair_args[@]}"
  # Throttled pairs: every node stops timing after its first activation.
  run "pair-$lib-throttled" "$exe" IDB_THROTTLE_AFTER=1 -- "${pair_args[@]}"
  run "pair-$lib-disabled" "$exe" IDB_ENABLE=0 -- "${pair_args[@]}"
done
for policy in off all; do
  run "pair-shared-$policy" bench_probe_pair IDB_CPU=$policy IDB_THROTTLE=0 -- "${pair_args[@]}"
done

echo "== long activations per CPU policy" >&2
for policy in off all auto; do
  run "long-$policy" bench_cpu_policy IDB_CPU=$policy -- --benchmark_format=json \
    --benchmark_min_time=1.5
done

echo "== bytes per node" >&2
run node-bytes bench_node_bytes --

echo "== accuracy (best of 5 processes per build, configuration and grain)" >&2
for grain in 2000 400 50 44 35 10 2; do
  for i in 1 2 3 4 5; do
    run "accuracy-$grain-pristine-$i" bench_accuracy_pristine -- --grain "$grain"
    run "accuracy-$grain-instrumented-$i" bench_accuracy_instrumented -- --grain "$grain"
    run "accuracy-$grain-timed-$i" bench_accuracy_instrumented IDB_THROTTLE=0 -- --grain "$grain"
    run "accuracy-$grain-off-$i" bench_accuracy_instrumented IDB_ENABLE=0 -- --grain "$grain"
  done
done

echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
echo "== machine" >&2
{
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core)' || true
  uname -srm
  cat "$out/load.txt"
} >"$out/machine.txt"

python3 "$here/probe_bench_report.py" "$out"
