#!/usr/bin/env bash
# One golden case: instruments cases/NAME.{c,cpp} (with cases/NAME.sel if present, else the
# default selection), compares the output with cases/NAME.<ext>.expected, builds the
# pristine and the instrumented program with -Wall -Wextra -Werror, runs both, compares
# their output and exit status byte for byte, and compares the run's CFH with
# cases/NAME.cfh when present. cases/NAME.flags, when present, holds compiler flags (one
# line) for the parse and both builds, -fopenmp say. IDB_UPDATE_GOLDEN=1 rewrites the
# expected files instead.
# usage: run_case.sh SOURCE WORKDIR IDB_INSTRUMENT PROFILE_PATHS CC PROBE_INCLUDE PROBE_LIBDIR
#        [EXTRA_FLAGS...]
set -euo pipefail
source=$1 work=$2 instrument=$3 paths=$4 cc=$5 include=$6 libdir=$7
shift 7
name=$(basename "$source")
stem=${name%.*}
cases=$(dirname "$source")
rm -rf "$work" && mkdir -p "$work" && cp "$source" "$work/$name"
cd "$work"

sel=() own=()
[[ -f $cases/$stem.sel ]] && sel=(--selection "$cases/$stem.sel")
[[ -f $cases/$stem.flags ]] && read -r -a own <"$cases/$stem.flags"
"$instrument" apply "$name" --out out "${sel[@]}" -- "${own[@]}" 2>notes.txt ||
  { cat notes.txt; exit 1; }
if [[ ${IDB_UPDATE_GOLDEN:-0} == 1 ]]; then
  cp out/"$name" "$cases/$name.expected"
else
  diff -u "$cases/$name.expected" out/"$name"
fi

flags=(-Wall -Wextra -Werror -O1 "${own[@]}" "$@")
"$cc" "${flags[@]}" "$name" -o pristine -lm
"$cc" "${flags[@]}" -I"$include" out/"$name" -o instrumented -L"$libdir" -lidb_probe \
  -Wl,-rpath,"$libdir" -lm
set +e
./pristine >pristine.out 2>pristine.err
pristine_status=$?
IDB_OUT=run.idbprof ./instrumented >instrumented.out 2>instrumented.err
instrumented_status=$?
set -e
# The runtime's own report (lines starting "idb:") is the one difference allowed on stderr.
grep -v '^idb: ' instrumented.err >instrumented.err.user || true
cmp pristine.err instrumented.err.user || { diff -u pristine.err instrumented.err.user; exit 1; }
[[ $pristine_status == "$instrumented_status" ]] ||
  { echo "exit status differs: pristine $pristine_status, instrumented $instrumented_status"; exit 1; }
cmp pristine.out instrumented.out || { diff -u pristine.out instrumented.out; exit 1; }
"$paths" run.idbprof out/idb-manifest.tsv >cfh.txt
if [[ ${IDB_UPDATE_GOLDEN:-0} == 1 ]]; then
  cp cfh.txt "$cases/$stem.cfh"
elif [[ -f $cases/$stem.cfh ]]; then
  diff -u "$cases/$stem.cfh" cfh.txt
fi
echo "ok: $name ($(grep -c . out/idb-manifest.tsv) manifest lines, same output and status $pristine_status)"
