#!/usr/bin/env bash
# How much IDB's instrumentation slows the MPI examples down (dilation), how well the
# noise-corrected root time recovers the uninstrumented run time, and how big a run's
# profile and database are. Builds nothing of IDB; builds the examples itself.
#
# For each example (smvp; pic with the pow kernel; balance skewed, and balance
# master/worker) it builds, with -O2 through the examples' own Makefiles, four executables:
#   pristine   mpicc / mpicxx as written, no IDB at all;
#   main       through idb-cc / idb-cxx with only main's PROC probe (and the PMPI layer's
#              COMM nodes): the program's own time from main's start to MPI_Finalize,
#              measured with next to no probe cost, which the wall time cannot give
#              (it includes mpirun's start-up and the processes' exit);
#   default    through the wrappers with the instrumenter's default selection;
#   timed      the default build run with IDB_THROTTLE=0: every activation timed, as
#              before runtime throttling (not a build of its own);
#   reference  through the wrappers with examples/<name>/reference.sel.
# Each runs five times under `mpirun -np 2` (the machine this was written for has 2 cores,
# so 2 ranks use all of them), the four configurations interleaved in every round and in
# a rotating order, so slow drift in the machine's speed hits all of them alike. Every
# run's answer line must equal the pristine one (instrumentation must not change what the
# program computes).
#
# Reported, per example and configuration: best-of-five wall time and its ratio to
# pristine; the root's inclusive and noise-corrected time (largest over the ranks,
# smallest over the five runs; corrected = the thread's root less the noise of every probe
# of the rank, in all its CFHs) against main's root; the same less MPI_Init, whose 0.3 to
# 0.6 s (Open MPI starting up) vary from run to run by more than the 1% asked of the
# correction; activations, nodes per rank, profile and database bytes (each profile loaded
# into a fresh SQLite file). Then, for default and reference, one run ten times as long
# (ten times the iterations, steps or tasks), whose profile must be the same size: the
# profile's META section (text: pid, times, ...) varies by a few bytes from run to run, so
# the check is on the bytes after it, and the short runs' counts are written zero-padded
# ("0300" beside "3000") so that both command lines, stored in META, have one length. Last,
# where each instrumented configuration's probe cost goes: its costliest probes by noise.
#
# Usage: tests/bench/examples_dilation.sh [--smoke] [--keep] [--no-long] [--flags FLAGS]
#                                         [BUILD_DIR]
#   BUILD_DIR  a configured and built IDB tree (default <repository>/build/release) with
#              idb, idb-cc, idb-cxx, libidb_probe and libidb_mpi:
#              cmake --preset release && cmake --build build/release -j2 --target idb \
#                idb-cc idb-cxx idb-instrument idb_probe_shared idb_mpi
#   --smoke    smvp alone, tiny, one round: checks that everything runs (ctest bench-smoke)
#   --keep     keep the work folder (builds, profiles, one database per run) and say where
#   --no-long  leave out the runs ten times as long (they take half the time)
#   --flags F  added to the examples' compile and link flags (the sanitizer build's runtime
#              needs -fsanitize=address,undefined in the programs that link it)
# Prints a markdown report on standard output and progress on standard error. About ten
# minutes on the 2-core machine of docs/PERFORMANCE.md; measure when the machine is quiet.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage="usage: examples_dilation.sh [--smoke] [--keep] [--no-long] [--flags FLAGS] [BUILD_DIR]"
smoke=0 keep=0 long=1 extra_flags=
build=$root/build/release
while (($#)); do
  case $1 in
  --smoke) smoke=1 ;;
  --keep) keep=1 ;;
  --no-long) long=0 ;;
  --flags)
    (($# > 1)) || {
      echo "examples_dilation.sh: --flags takes a value ($usage)" >&2
      exit 2
    }
    extra_flags=$2
    shift
    ;;
  -*)
    echo "examples_dilation.sh: unknown option $1 ($usage)" >&2
    exit 2
    ;;
  *)
    build=$(cd "$1" 2>/dev/null && pwd) || {
      echo "examples_dilation.sh: no such folder $1" >&2
      exit 2
    }
    ;;
  esac
  shift
done
idb=$build/cli/idb
idbcc=$build/instrumenter/idb-cc
idbcxx=$build/instrumenter/idb-cxx
for tool in "$idb" "$idbcc" "$idbcxx"; do
  if [[ ! -x $tool ]]; then
    echo "examples_dilation.sh: $tool not found; build first (see the header of $0)" >&2
    exit 1
  fi
done
for tool in mpicc mpicxx mpirun make; do
  command -v "$tool" >/dev/null || {
    echo "examples_dilation.sh: $tool is not on the PATH" >&2
    exit 1
  }
done

# The cases: an example (its folder under examples/) with the arguments of the timed run
# (2-5 s pristine on 2 cores) and of one ten times as long. balance runs twice, skewed and
# master/worker: its reference selection probes them differently.
cases=(smvp pic balance balance-master)
declare -A example=([smvp]=smvp [pic]=pic [balance]=balance [balance-master]=balance)
declare -A lang=([smvp]=c [pic]=cxx [balance]=c)
declare -A short_args long_args
if ((smoke)); then # smvp alone: all three examples take about a minute even this small
  rounds=1
  cases=(smvp)
  short_args=([smvp]="60 40 02" [pic]="--kernel pow --particles 4000 --steps 02"
    [balance]="skewed 020 200" [balance-master]="master 020 200")
  long_args=([smvp]="60 40 20" [pic]="--kernel pow --particles 4000 --steps 20"
    [balance]="skewed 200 200" [balance-master]="master 200 200")
else
  rounds=5
  short_args=([smvp]="700 700 0900" [pic]="--kernel pow --particles 250000 --steps 0300"
    [balance]="skewed 015000 5000" [balance-master]="master 012000 5000")
  long_args=([smvp]="700 700 9000" [pic]="--kernel pow --particles 250000 --steps 3000"
    [balance]="skewed 150000 5000" [balance-master]="master 120000 5000")
fi
configs=(pristine main default timed reference)

work=$(mktemp -d "${TMPDIR:-/tmp}/idb-dilation.XXXXXX")
if ((keep)); then
  trap 'echo "examples_dilation.sh: kept $work" >&2' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/build" "$work/prof" "$work/db" "$work/out"
# The user's own settings must not leak into a configuration.
unset IDB_ENABLE IDB_CPU IDB_CPU_THRESHOLD_US IDB_TIMER IDB_MAX_NODES IDB_MAX_DEPTH IDB_OUT \
  IDB_THROTTLE IDB_THROTTLE_AFTER IDB_THROTTLE_PERCENT IDB_MPI_MODE IDB_MPI_SPILL IDB_SELECTION IDB_SELECTION_FILE IDB_EDF IDB_INSTRUMENT IDB_MPI
if [[ $(id -u) -eq 0 ]]; then # Open MPI refuses root unless told twice
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Open MPI's own allocations outlive MPI_Finalize: in a sanitizer build LeakSanitizer would
# fail even the pristine program for memory that is not the example's.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

say() { echo "examples_dilation.sh: $*" >&2; }

# build EXAMPLE CONFIG: the example's Makefile, in a folder of its own, -O2.
build_one() {
  local name=$1 config=$2 dir=$work/build/$1-$2
  local flags=("CFLAGS=-O2 $extra_flags") compiler=CC wrapper=$idbcc mpi=mpicc
  if [[ ${lang[$name]} == cxx ]]; then
    flags=("CXXFLAGS=-O2 $extra_flags") compiler=CXX wrapper=$idbcxx mpi=mpicxx
  fi
  flags+=("LDFLAGS=$extra_flags")
  mkdir -p "$dir"
  local env=()
  case $config in
  pristine) ;;
  main) env=(IDB_SELECTION=$'include proc function=main\nset comm off') ;;
  default) ;;
  reference) env=(IDB_SELECTION_FILE="$root/examples/$name/reference.sel") ;;
  esac
  local make_args=(-s -C "$dir" -f "$root/examples/$name/Makefile" "${flags[@]}")
  [[ $config != pristine ]] && make_args+=("$compiler=$wrapper $mpi")
  if ! env "${env[@]}" make "${make_args[@]}" >"$dir/build.log" 2>&1; then
    say "building $name ($config) failed:"
    cat "$dir/build.log" >&2
    exit 1
  fi
}

# run CASE CONFIG NAME ARGS...: one timed mpirun; wall nanoseconds to out/NAME.ns. A
# short run must print what the pristine build printed in round 1 (where it runs first).
run_one() {
  local case=$1 config=$2 name=$3
  shift 3
  local build=$config throttle=1
  [[ $config == timed ]] && build=default throttle=0
  local exe=$work/build/${example[$case]}-$build/${example[$case]} t0 t1
  t0=$(date +%s%N)
  if ! IDB_OUT="$work/prof/$name.idbprof" IDB_THROTTLE=$throttle mpirun -np 2 "$exe" "$@" \
    >"$work/out/$name.txt" 2>"$work/out/$name.err"; then
    say "$name failed:"
    cat "$work/out/$name.err" >&2
    exit 1
  fi
  t1=$(date +%s%N)
  echo $((t1 - t0)) >"$work/out/$name.ns"
  [[ $name == *-long || $name == "$case-pristine-1" ]] && return 0
  if ! cmp -s "$work/out/$case-pristine-1.txt" "$work/out/$name.txt"; then
    say "$name printed a different answer from the pristine build:"
    cat "$work/out/$case-pristine-1.txt" "$work/out/$name.txt" >&2
    exit 1
  fi
}

# sql DB SQL: one row of CSV without its header (name every column: one line each).
sql() { "$idb" query "$2" --db "$1" --format csv | tail -n +2; }

# Bytes of a profile after its META section (file header 16 bytes, section header 24),
# without its HIST and WAIT sections: a duration histogram holds the buckets its durations
# reached, and a WAIT section the patterns its COMM nodes waited in, which a longer run may
# add to (up to a bound the structure sets: tests/mpi, docs/profile-format.md).
data_bytes() {
  local size at=16 type length hist=0 meta
  size=$(stat -c %s "$1")
  meta=$(od -An -t u8 -j 24 -N 8 "$1" | tr -d ' ')
  while ((at + 24 <= size)); do
    type=$(od -An -t u4 -j "$at" -N 4 "$1" | tr -d ' ')
    length=$(od -An -t u8 -j $((at + 8)) -N 8 "$1" | tr -d ' ')
    ((type == 5 || type == 6)) && hist=$((hist + 24 + length))
    at=$((at + 24 + length))
  done
  echo $((size - 40 - meta - hist))
}

# measure NAME: loads the profile into a fresh database; writes to out/NAME.csv the root's
# inclusive and corrected time, MPI_Init's time, the corrected root less MPI_Init (each the
# largest over the ranks), nodes per rank, activations and noise (all ranks), profile
# bytes, bytes after META and database bytes.
measure() {
  local prof=$work/prof/$1.idbprof db=$work/db/$1.db
  [[ -f $prof ]] || {
    say "no profile from $1"
    exit 1
  }
  "$idb" load --db "$db" --no-progress "$prof" >/dev/null
  local row
  # Per rank: the thread's root (the program), the noise of every node of the rank's
  # CFHs (pic's objects have CFHs of their own, whose probes run inside the thread's
  # root; node_times' corrected root subtracts its own CFH's noise only), MPI_Init's node
  # (the instrumenter's COMM probe around the call or, main only, the PMPI layer's own:
  # either way its description starts with the name), nodes and activations.
  local row
  row=$(sql "$db" "WITH per_rank AS (
      SELECT h.rank, max(CASE WHEN h.named = 0 AND t.probe_id = 0 THEN t.inclusive END) AS root,
        sum(s.noise) AS noise,
        sum(CASE WHEN p.description LIKE 'MPI_Init%' THEN t.inclusive ELSE 0 END) AS init,
        count(*) AS nodes,
        sum(CASE WHEN n.parent IS NULL THEN 0 ELSE s.count + s.throttled END) AS acts
      FROM node_times t JOIN cfh_instances h USING (cfh_id)
      JOIN nodes n USING (cfh_id, node) JOIN node_stats s USING (cfh_id, node)
      LEFT JOIN probe_sites p ON p.run_id = h.run_id AND p.probe_id = t.probe_id
      GROUP BY h.rank)
    SELECT max(root) AS root, max(root - noise) AS corrected, max(init) AS init,
      max(root - noise - init) AS after_init, max(nodes) AS nodes, sum(acts) AS activations,
      sum(noise) AS noise FROM per_rank")
  echo "$row,$(stat -c %s "$prof"),$(data_bytes "$prof"),$(stat -c %s "$db")" >"$work/out/$1.csv"
}

say "load before: $(uptime)"
load_before=$(uptime)
for name in $(printf '%s\n' "${cases[@]}" | while read -r c; do echo "${example[$c]}"; done |
  uniq); do
  for config in "${configs[@]}"; do
    [[ $config == timed ]] && continue # the default build, run otherwise
    say "building $name ($config)"
    build_one "$name" "$config"
  done
done

# Timed rounds: every configuration once per round, the order rotating each round.
for ((round = 1; round <= rounds; ++round)); do
  for case in "${cases[@]}"; do
    for ((k = 0; k < ${#configs[@]}; ++k)); do
      config=${configs[$(((k + round - 1) % ${#configs[@]}))]}
      say "round $round: $case ($config)"
      # shellcheck disable=SC2086 # the arguments are words
      run_one "$case" "$config" "$case-$config-$round" ${short_args[$case]}
    done
  done
done
for case in "${cases[@]}"; do
  ((long)) || break
  for config in default reference; do
    say "ten times as long: $case ($config)"
    # shellcheck disable=SC2086
    run_one "$case" "$config" "$case-$config-long" ${long_args[$case]}
  done
done
load_after=$(uptime)
say "load after: $load_after"
for prof in "$work"/prof/*.idbprof; do
  name=${prof##*/}
  measure "${name%.idbprof}"
done

smaller() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.9f\n", (b < a ? b : a) }'; }

# Per case and configuration: best wall, root figures over the rounds, sizes of round 1.
declare -A wall rootinc corr init after nodes acts noise pbytes dbytes dbbytes
for case in "${cases[@]}"; do
  for config in "${configs[@]}"; do
    key=$case-$config
    best=
    for ((round = 1; round <= rounds; ++round)); do
      ns=$(<"$work/out/$key-$round.ns")
      [[ -z $best || $ns -lt $best ]] && best=$ns
      [[ $config == pristine ]] && continue
      IFS=, read -r inc cor ini aft n a z p d b <"$work/out/$key-$round.csv"
      if [[ $round -eq 1 ]]; then
        rootinc[$key]=$inc corr[$key]=$cor init[$key]=$ini after[$key]=$aft nodes[$key]=$n
        acts[$key]=$a noise[$key]=$z pbytes[$key]=$p dbytes[$key]=$d dbbytes[$key]=$b
      else
        rootinc[$key]=$(smaller "${rootinc[$key]}" "$inc")
        corr[$key]=$(smaller "${corr[$key]}" "$cor")
        init[$key]=$(smaller "${init[$key]}" "$ini")
        after[$key]=$(smaller "${after[$key]}" "$aft")
      fi
    done
    wall[$key]=$best
  done
done

echo "## Instrumentation dilation of the examples"
echo
echo "mpirun -np 2, best of $rounds interleaved runs; $(nproc) cores, $(lscpu | sed -n \
  's/^Model name: *//p' | head -1); load before: ${load_before#*load average: }, after: \
${load_after#*load average: }"
echo
echo "| example | arguments | configuration | wall s | ÷ pristine | root s | corrected s |" \
  "÷ main's root | MPI_Init s | corrected after MPI_Init s | ÷ main's | activations |" \
  "nodes/rank | noise s | profile B | database B |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for case in "${cases[@]}"; do
  for config in "${configs[@]}"; do
    key=$case-$config
    awk -v c="$case" -v a="${short_args[$case]}" -v cfg="$config" -v w="${wall[$key]}" \
      -v p="${wall[$case-pristine]}" -v inc="${rootinc[$key]:-}" -v cor="${corr[$key]:-}" \
      -v m="${rootinc[$case-main]}" -v ini="${init[$key]:-}" -v aft="${after[$key]:-}" \
      -v mw="${after[$case-main]}" -v n="${nodes[$key]:-}" -v act="${acts[$key]:-}" \
      -v z="${noise[$key]:-}" -v pb="${pbytes[$key]:-}" -v db="${dbbytes[$key]:-}" 'BEGIN {
        line = sprintf("| %s | `%s` | %s | %.3f | %.4f |", c, a, cfg, w / 1e9, w / p)
        if (inc == "") { print line " | | | | | | | | | | |"; exit }
        printf "%s %.3f | %.3f | %.4f | %.3f | %.3f | %.4f | %d | %d | %.4f | %d | %d |\n",
          line, inc, cor, cor / m, ini, aft, aft / mw, act, n, z, pb, db
      }'
  done
done
status=0
if ((long)); then
  echo
  echo "Ten times the iterations (one run each): the profile's bytes after its META section"
  echo "(its duration histograms and wait states aside) must equal the short run's."
  echo
  echo "| example | arguments | configuration | wall s | nodes/rank | profile B | bytes after META |" \
    "short run's | same | database B |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---|---:|"
  for case in "${cases[@]}"; do
    for config in default reference; do
      key=$case-$config
      IFS=, read -r _ _ _ _ n _ _ p d b <"$work/out/$key-long.csv"
      same=yes
      if [[ $d != "${dbytes[$key]}" || $n != "${nodes[$key]}" ]]; then
        same=NO
        status=1
      fi
      # shellcheck disable=SC2016 # the backquotes are markdown
      printf '| %s | `%s` | %s | %.3f | %d | %d | %d | %d | %s | %d |\n' "$case" \
        "${long_args[$case]}" "$config" "$(awk -v w="$(<"$work/out/$key-long.ns")" \
          'BEGIN { print w / 1e9 }')" "$n" "$p" "$d" "${dbytes[$key]}" "$same" "$b"
    done
  done
fi
echo
echo "Where the probes' cost goes (round 1, both ranks): the costliest probes by noise."
echo
echo "| example | configuration | probe | activations | noise s | share of the ranks' root time |"
echo "|---|---|---|---:|---:|---:|"
for case in "${cases[@]}"; do
  for config in default timed reference; do
    "$idb" query "SELECT COALESCE(p.description, 'probe ' || n.probe_id) AS probe,
        sum(s.count + s.throttled) AS activations, sum(s.noise) AS noise,
        sum(s.noise) / (SELECT sum(t.inclusive) FROM node_times t JOIN cfh_instances c
          USING (cfh_id) WHERE t.probe_id = 0 AND c.named = 0) AS share
      FROM nodes n JOIN node_stats s USING (cfh_id, node)
      JOIN cfh_instances h USING (cfh_id)
      LEFT JOIN probe_sites p ON p.run_id = h.run_id AND p.probe_id = n.probe_id
      WHERE n.parent IS NOT NULL GROUP BY n.probe_id ORDER BY noise DESC LIMIT 4" \
      --db "$work/db/$case-$config-1.db" --format csv | tail -n +2 |
      while IFS= read -r line; do
        # the description may hold commas (CSV-quoted); the three numbers never do
        awk -v c="$case" -v cfg="$config" -v l="$line" 'BEGIN {
          n = split(l, f, ","); d = f[1]; for (i = 2; i <= n - 3; ++i) d = d "," f[i]
          gsub(/"/, "", d); gsub(/\|/, "\\|", d)
          printf "| %s | %s | %s | %d | %.4f | %.2f%% |\n", c, cfg, d, f[n - 2], f[n - 1],
            100 * f[n]
        }'
      done
  done
done
exit "$status"
