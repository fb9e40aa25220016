#!/usr/bin/env bash
# examples/pic built through idb-cxx, as a user would: `make CXX="idb-cxx mpicxx"`. The
# wrapper defines IDB_INSTRUMENTED, so each simulation object enters a CFH of its own.
# Runs the pristine and the instrumented build under mpirun -np 4 (same answer), stores
# the instrumented run with `idb run`, and checks in `idb report` that every rank has the
# objects' CFHs with the push loop under each species and the field's MPI_Allreduce
# under the field.
#   run_pic_objects.sh PIC_SOURCE_DIR WORK_DIR IDB_CXX IDB [EXTRA_FLAGS...]
set -euo pipefail
src=$1 work=$2 idb_cxx=$3 idb=$4
shift 4
extra="$*"
rm -rf "$work" && mkdir -p "$work/pristine" "$work/instrumented"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI's own allocations outlive MPI_Finalize: LeakSanitizer would fail even the
# pristine program in the sanitizer build.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
args=(--particles 8000 --steps 4 --kernel pow)

make -s -C "$work/pristine" -f "$src/Makefile" CXXFLAGS="-O1 -g $extra" LDFLAGS="$extra"
make -s -C "$work/instrumented" -f "$src/Makefile" CXX="$idb_cxx mpicxx" \
  CXXFLAGS="-O1 -g $extra" LDFLAGS="$extra"
mpirun --oversubscribe -np 4 "$work/pristine/pic" "${args[@]}" >"$work/pristine.txt"
(cd "$work" && "$idb" run -n 4 --mpirun-arg --oversubscribe --db "$work/pic.db" \
  --label objects -- "$work/instrumented/pic" "${args[@]}" >"$work/instrumented.txt")
grep -q '^pic: ' "$work/pristine.txt"
# `idb run` adds its own line after the program's output.
grep '^pic: ' "$work/instrumented.txt" | cmp - "$work/pristine.txt" ||
  { echo "the instrumented answer differs:"; cat "$work/pristine.txt" "$work/instrumented.txt"; exit 1; }

"$idb" report objects --db "$work/pic.db" --no-cpu >"$work/report.txt"
# The lines of one CFH's table: from its heading to the blank line after it.
block() { awk -v head="CFH \"$1\" rank $2 " 'index($0, head) == 1 {on = 1; next} on && /^$/ {exit} on' "$work/report.txt"; }
fail=0
for rank in 0 1 2 3; do
  for species in electrons ions; do
    block "$species" "$rank" | grep -q '^  for loop in Species::push ' ||
      { echo "rank $rank: no push loop under CFH \"$species\""; fail=1; }
  done
  block field "$rank" | grep -q '^  MPI_Allreduce' ||
    { echo "rank $rank: no MPI_Allreduce under CFH \"field\""; fail=1; }
  if block "thread 0" "$rank" | grep -q 'for loop in Species::push'; then
    echo "rank $rank: the push loop is in the thread's CFH"; fail=1
  fi
done
[[ $fail == 0 ]] || { cat "$work/report.txt"; exit 1; }
echo "ok: pic through idb-cxx, same answer, one CFH per object on each of 4 ranks"
