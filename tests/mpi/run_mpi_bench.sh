#!/usr/bin/env bash
# Runs the MPI layer's benchmarks (docs/PERFORMANCE.md, "MPI") against a build tree and
# prints their tables: the PMPI wrapper's cost per call (probes on and off), MPI_Finalize
# on rank 0 for 16 ranks x ~5,000 nodes in each mode with the profile's size, and the
# merge code's growth with synthetic ranks up to 4,096.
# Usage: tests/mpi/run_mpi_bench.sh BUILD_DIR   (e.g. build/release)
set -euo pipefail
build=$(cd "$1" && pwd)
bin=$build/tests/mpi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== PMPI wrapper cost per call (1 rank)"
mpirun -np 1 "$bin/bench_pmpi_call" 200000
IDB_ENABLE=0 mpirun -np 1 "$bin/bench_pmpi_call" 200000

echo "== MPI_Finalize on rank 0, 16 ranks (oversubscribed on $(nproc) cores), ~5,000 nodes each"
printf "%-10s %12s %14s\n" mode finalize_s profile_bytes
for mode in off rank full summary full+spill; do
  best=""
  for round in 1 2 3; do
    rm -f "$work"/*.idbprof
    if [[ $mode == off ]]; then
      line=$(IDB_ENABLE=0 mpirun -np 16 --oversubscribe "$bin/bench_finalize_merge" 5000)
    elif [[ $mode == full+spill ]]; then # the default at 16 ranks (IDB_MPI_SPILL=auto)
      line=$(IDB_MPI_MODE=full IDB_MPI_SPILL=1 IDB_OUT="$work/p-%r.idbprof" \
        mpirun -np 16 --oversubscribe "$bin/bench_finalize_merge" 5000)
    else
      line=$(IDB_MPI_MODE=$mode IDB_MPI_SPILL=0 IDB_OUT="$work/p-%r.idbprof" \
        mpirun -np 16 --oversubscribe "$bin/bench_finalize_merge" 5000)
    fi
    s=$(echo "$line" | awk '{print $2}')
    if [[ -z $best ]] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
  done
  bytes=$(find "$work" -name '*.idbprof' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
  printf "%-10s %12s %14s\n" "$mode" "$best" "$bytes"
done

echo "== merge code with synthetic ranks, 1,000 nodes per rank"
"$bin/bench_merge_growth" 1000 4096
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
