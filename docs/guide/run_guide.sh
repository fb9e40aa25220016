#!/usr/bin/env bash
# Runs every step of the user guide (docs/user-guide.md) on the examples pic and balance
# and writes each command, with its output, into a file of its own, so that every
# command, SQL statement and output the guide shows can be regenerated and checked:
#
#   bash docs/guide/run_guide.sh BUILD_DIR [--work DIR] [--mpirun-arg ARG]...
#
# BUILD_DIR is a configured and built IDB build folder (build/release: the targets idb,
# idb-cc, idb-cxx, idb-instrument, idb_probe_shared, idb_mpi and, for the last step,
# idb-gui); this script builds no part of IDB. The work happens in DIR (default: a new
# temporary folder): the instrumented builds of the examples, the database idb.db, the
# experiment files, the plots, and out/NN-name.txt, one file per command, each opening
# with the command as typed after '$ '. --mpirun-arg passes an option to mpirun through
# 'idb run' (--oversubscribe on a machine with fewer than four cores). Takes a few
# minutes; the grown instrumentation of step 3 is by far the slowest part, on purpose.
set -euo pipefail

usage() {
  echo "usage: run_guide.sh BUILD_DIR [--work DIR] [--mpirun-arg ARG]..." >&2
  exit 2
}

[[ $# -ge 1 ]] || usage
build=$(cd "$1" && pwd) || usage
shift
work="" mpirun_text="" mpirun_raw=""
while [[ $# -gt 0 ]]; do
  case $1 in
  --work) [[ $# -ge 2 ]] || usage; work=$2; shift 2 ;;
  --mpirun-arg) [[ $# -ge 2 ]] || usage; mpirun_text+=" --mpirun-arg $2"; mpirun_raw+=" $2"; shift 2 ;;
  *) usage ;;
  esac
done
for tool in cli/idb instrumenter/idb-instrument instrumenter/idb-cc instrumenter/idb-cxx; do
  [[ -x $build/$tool ]] || { echo "run_guide.sh: $build/$tool is missing; build it first" >&2; exit 1; }
done

IDB_SRC=$(cd "$(dirname "$0")/../.." && pwd)
guide=$IDB_SRC/docs/guide
if [[ -z $work ]]; then
  work=$(mktemp -d /tmp/idb-guide.XXXXXX)
else
  mkdir -p "$work" && work=$(cd "$work" && pwd)
fi
out=$work/out
# A work folder used before starts clean: make would keep a build of another selection.
for old in out idb.db pic-top pic-grow pic-ref pic-ref-src pristine balance; do
  rm -rf "${work:?}/$old"
done
mkdir -p "$out"
export IDB_SRC PATH=$build/cli:$build/instrumenter:$build/gui:$PATH
if [[ $(id -u) -eq 0 ]]; then # Open MPI refuses root unless told twice
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
start=$SECONDS

# step NAME COMMAND: runs COMMAND (one line of shell, as the guide shows it) in the work
# folder and writes "$ COMMAND" and everything it prints into out/NAME.txt. A failing
# command stops the script with its output shown.
step() {
  local name=$1 command=$2 status=0
  printf '[%4d s] %s\n' "$((SECONDS - start))" "$name"
  { printf '$ %s\n' "$command"; (cd "$work" && eval "$command") 2>&1; } >"$out/$name.txt" ||
    status=$?
  if [[ $status -ne 0 ]]; then
    cat "$out/$name.txt" >&2
    echo "run_guide.sh: step $name failed (exit $status)" >&2
    exit 1
  fi
}

# The compiler flags stay unexpanded: the command shows them as the reader types them.
# shellcheck disable=SC2016
pic_flags='-- $(mpicxx --showme:compile) -DOMPI_SKIP_MPICXX=1'
cp "$guide"/pic-top.sel "$guide"/pic-grow.sel "$guide"/pic-reference.sel "$work"/

# --- 1. the top level ---------------------------------------------------------------
step 00-copy "cp \$IDB_SRC/examples/pic/pic.cpp ."
step 01-list-default "idb-instrument list pic.cpp $pic_flags"
step 02-top-sel "cat pic-top.sel"
step 03-top-list "idb-instrument list pic.cpp --selection pic-top.sel $pic_flags | grep -E 'SELECTED|yes\$'"
step 04-top-build "mkdir -p pic-top && IDB_SELECTION_FILE=\$PWD/pic-top.sel make -C pic-top -f \$IDB_SRC/examples/pic/Makefile CXX=\"idb-cxx mpicxx\""

# --- 2. run under MPI, find the hot branch ----------------------------------------------
step 05-top-run "idb run -n 4$mpirun_text --label pic-top --attr kernel=pow -- pic-top/pic --kernel pow"
step 06-top-report "idb report pic-top --rank 0 --no-cpu"
# The same run over every rank: the threads' CFHs merged into one tree, each object's
# CFHs into a tree of its own.
step 06b-top-aggregate "idb report pic-top --aggregate --no-cpu"
# The same run as a flat profile: each probe's own time over every call path.
step 06d-top-flat "idb report pic-top --flat --top 8"
step 06c-top-quantiles "idb query \"SELECT description, count, round(p50 * 1e6, 1) AS p50_us, round(p90 * 1e6, 1) AS p90_us, round(p99 * 1e6, 1) AS p99_us, round(max * 1e6, 1) AS max_us FROM probe_quantiles WHERE label = 'pic-top' AND rank IS NULL AND count >= 100 ORDER BY p99 DESC\""
step 07-top-hottest "idb query hottest_procedures --param run=pic-top --param limit=5"
step 08-top-critical "idb query critical_path --param run=pic-top --param rank=0 --param thread=0"
# A probe summed over every CFH of the run: MPI_Allreduce per CFH name, then in all.
step 09-top-sum "idb query \"SELECT h.name AS cfh, count(DISTINCT h.rank) AS ranks, sum(s.count) AS calls,
       sum(s.total) AS seconds
FROM runs r JOIN cfh_instances h ON h.run_id = r.run_id
JOIN nodes n ON n.cfh_id = h.cfh_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
JOIN probe_sites p ON p.run_id = r.run_id AND p.probe_id = n.probe_id
WHERE r.label = 'pic-top' AND p.description = 'MPI_Allreduce'
GROUP BY h.name
UNION ALL
SELECT 'all CFHs', count(DISTINCT h.rank), sum(s.count), sum(s.total)
FROM runs r JOIN cfh_instances h ON h.run_id = r.run_id
JOIN nodes n ON n.cfh_id = h.cfh_id
JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node
JOIN probe_sites p ON p.run_id = r.run_id AND p.probe_id = n.probe_id
WHERE r.label = 'pic-top' AND p.description = 'MPI_Allreduce'\""
# Per rank: step's time, the part of it the objects spent in MPI_Allreduce (their CFHs of
# that rank), and step's CPU time over wall time.
step 09a-top-sql "idb query \"SELECT t.rank, t.inclusive AS step,
       (SELECT sum(o.inclusive) FROM node_times o
        JOIN cfh_instances h ON h.cfh_id = o.cfh_id AND h.named = 1
        JOIN probe_sites q ON q.run_id = o.run_id AND q.probe_id = o.probe_id
        WHERE o.run_id = t.run_id AND o.rank = t.rank
          AND q.description = 'MPI_Allreduce') AS in_allreduce,
       c.cpu_total / c.wall AS cpu_per_wall
FROM node_times t
JOIN probe_sites p ON p.run_id = t.run_id AND p.probe_id = t.probe_id
LEFT JOIN node_cpu_ratio c ON c.cfh_id = t.cfh_id AND c.node = t.node
WHERE t.run_id = (SELECT run_id FROM runs WHERE label = 'pic-top')
  AND p.function = 'Simulation::step' AND p.kind = 'PROC'
ORDER BY t.rank\""
# Run's exclusive time above (between two steps) is where a rank waits for a core after
# the CPU clock read; the same run without CPU timing shows where that wait goes instead.
step 09b-top-nocpu-run "IDB_CPU=off idb run -n 4$mpirun_text --label pic-top-nocpu --attr kernel=pow -- pic-top/pic --kernel pow"
step 09c-top-nocpu-report "idb report pic-top-nocpu --rank 0 --no-cpu"

# From here on, as the guide says, every run goes without CPU timing: with more ranks
# than cores, each CPU clock read is where the kernel hands the core to another rank, and
# the wait gathers at the CPU-timed probes.
export IDB_CPU=off

# --- 3. grow the tree under the hot branch ----------------------------------------------
step 10-grow-sel "cat pic-grow.sel"
step 11-grow-list "idb-instrument list pic.cpp --selection pic-grow.sel $pic_flags | grep -c -E '(yes|blackbox)\$'"
step 12-grow-build "mkdir -p pic-grow && IDB_SELECTION_FILE=\$PWD/pic-grow.sel make -C pic-grow -f \$IDB_SRC/examples/pic/Makefile CXX=\"idb-cxx mpicxx\""
# Timed throughout (IDB_THROTTLE=0), so that step 4 sees what every probe costs.
step 13-grow-run "IDB_THROTTLE=0 idb run -n 4$mpirun_text --label pic-grow --attr kernel=pow -- pic-grow/pic --kernel pow"
step 14-grow-report "idb report pic-grow --rank 0 --prune 2 --no-cpu"
step 15-grow-critical "idb query critical_path --param run=pic-grow --param rank=0 --param thread=0"

# --- 4. prune cold probes ------------------------------------------------------------
step 16-pruning "idb query pruning_candidates --param run=pic-grow --param min_count=1000000 --param max_mean=1e-6"
step 17-noise-share "idb query noise_share --param run=pic-grow"
step 18-reference-sel "cat pic-reference.sel"

# --- 5. the reference instrumentation, recorded in its experiment ------------------------
cat >"$work/pic-reference.edf" <<'EDF'
# pic's reference instrumentation and the regularity of its runs (docs/user-guide.md)
[PREAMBLE]
Experiment   pic, pow kernel, 4 ranks, 400000 particles per species, 512 cells, 100 steps
Mode         COALESCE
Application  pic
Database     idb.db
[DESCR]
Five runs of pic with the pow kernel under the reference instrumentation, to see how
regular the runs are before comparing anything with them.
[DBLIST]
pic-pow-*    the reference runs
EDF
step 19-edf-before "cat pic-reference.edf"
step 20-apply "idb-instrument apply pic.cpp --out pic-ref-src --edf pic-reference.edf --selection pic-reference.sel $pic_flags"
step 21-edf-after "cat pic-reference.edf"
step 22-ref-build "mkdir -p pic-ref && IDB_EDF=\$PWD/pic-reference.edf make -C pic-ref -f \$IDB_SRC/examples/pic/Makefile CXX=\"idb-cxx mpicxx\""
step 23-pow-runs "for i in 1 2 3 4 5; do idb run -n 4$mpirun_text --label pic-pow-\$i --attr kernel=pow -- pic-ref/pic --kernel pow; done"
step 24-ref-report "idb report pic-pow-1 --rank 0 --no-cpu --prune 1"
step 24b-ref-aggregate "idb report pic-pow-1 --aggregate --no-cpu --prune 1"
step 25-savings "idb query \"SELECT r.label, r.wall_seconds AS wall,
  (SELECT count(*) FROM probe_sites p WHERE p.run_id = r.run_id AND p.probe_id > 0) AS probes,
  (SELECT sum(s.count) FROM cfh_instances h JOIN node_stats s ON s.cfh_id = h.cfh_id
   WHERE h.run_id = r.run_id) AS activations,
  (SELECT sum(s.noise) FROM cfh_instances h JOIN node_stats s ON s.cfh_id = h.cfh_id
   WHERE h.run_id = r.run_id)
  / (SELECT sum(t.inclusive) FROM node_times t JOIN cfh_instances h ON h.cfh_id = t.cfh_id
     WHERE t.run_id = r.run_id AND t.node = 0 AND h.named = 0) AS noise_share
FROM runs r WHERE r.label IN ('pic-top-nocpu', 'pic-grow', 'pic-pow-1') ORDER BY r.run_id\""
step 26-pristine-build "mkdir -p pristine && make -C pristine -f \$IDB_SRC/examples/pic/Makefile"
step 26b-pristine-time "time mpirun -np 4$mpirun_raw pristine/pic --kernel pow"
step 26c-ref-time "time IDB_OUT=ref.idbprof mpirun -np 4$mpirun_raw pic-ref/pic --kernel pow"
step 27-coalesce "idb edf pic-reference.edf"
step 28-coalesce-svg "idb edf pic-reference.edf --format svg --output pic-reference.svg"

# --- 6. COMPARE an optimisation against the reference -----------------------------------
step 29-mul-runs "for i in 1 2 3 4 5; do idb run -n 4$mpirun_text --label pic-mul-\$i --attr kernel=mul -- pic-ref/pic --kernel mul; done"
cat >"$work/pic-kernels.edf" <<'EDF'
# pic's pow kernel against the multiplying one, under the reference instrumentation
[PREAMBLE]
Experiment   pic kernels, 4 ranks, 400000 particles per species, 512 cells, 100 steps
Mode         COMPARE
Application  pic
Database     idb.db
Rank         all
[DESCR]
Species::push raises |v/c| to the power 2 with std::pow; the optimisation multiplies
instead. Five runs of each on the same machine, the pow runs first.
[DBLIST]
pic-pow-*    std::pow (the reference)
pic-mul-*    u * u
EDF
step 30-compare-edf "cat pic-kernels.edf"
step 31-compare "idb edf pic-kernels.edf --probe 'Species::push'"
step 32-compare-step "idb edf pic-kernels.edf --probe 'Simulation::step'"
step 33-compare-svg "idb edf pic-kernels.edf --probe 'Species::push' --format svg --output pic-kernels.svg"
# The loop of push per species, over the runs of both kernels: its fastest and slowest rank.
step 33b-push-species "idb query \"SELECT r.label, h.name AS cfh, min(t.inclusive) AS fastest_rank,
       max(t.inclusive) AS slowest_rank
FROM node_times t JOIN runs r ON r.run_id = t.run_id
JOIN cfh_instances h ON h.cfh_id = t.cfh_id
JOIN probe_sites p ON p.run_id = t.run_id AND p.probe_id = t.probe_id
WHERE (r.label LIKE 'pic-pow-%' OR r.label LIKE 'pic-mul-%')
  AND p.description LIKE 'for loop in Species::push%'
GROUP BY r.run_id, h.name ORDER BY r.run_id, h.name\""

# --- 6b. load imbalance: balance's skewed distribution ----------------------------------
step 34-balance-build "mkdir -p balance && make -C balance -f \$IDB_SRC/examples/balance/Makefile CC=\"idb-cc mpicc\""
for mode in equal skewed; do
  step 35-balance-run-$mode "idb run -n 4$mpirun_text --label balance-$mode --attr mode=$mode -- balance/balance $mode"
done
step 36-imbalance-skewed "idb query imbalance --param run=balance-skewed"
step 37-imbalance-view "idb query \"SELECT r.label, l.name AS probe, i.max, i.mean, i.imbalance, i.rank_of_max
FROM probe_imbalance i JOIN runs r ON r.run_id = i.run_id
JOIN lookup l ON l.run_id = i.run_id AND l.lid = i.probe_id
WHERE r.label LIKE 'balance-%' AND i.mean > 0.01
ORDER BY r.label, i.imbalance DESC\""
step 38-balance-ranks "idb query \"SELECT t.rank, p.description, t.inclusive
FROM node_times t JOIN probe_sites p ON p.run_id = t.run_id AND p.probe_id = t.probe_id
WHERE t.run_id = (SELECT run_id FROM runs WHERE label = 'balance-skewed')
  AND (p.description LIKE 'run_block%' OR p.description LIKE 'MPI_Reduce%')
ORDER BY p.description, t.rank\""

# --- 7. where to go next ------------------------------------------------------------
step 39-summary-run "IDB_MPI_MODE=summary idb run -n 4$mpirun_text --label balance-skewed-summary -- balance/balance skewed"
step 40-summary-report "idb report balance-skewed-summary --no-cpu --prune 1"
if [[ -x $build/gui/idb-gui ]]; then
  step 41-gui "QT_QPA_PLATFORM=offscreen idb-gui --db idb.db pic-kernels.edf --view compare --screenshot pic-kernels.png"
fi
step 42-runs "idb runs"

printf '[%4d s] done: the outputs are in %s\n' "$((SECONDS - start))" "$out"
