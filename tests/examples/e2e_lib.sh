# shellcheck shell=bash
# Shared by the examples' end-to-end tests (e2e_<example>.sh), sourced, not run: the way a
# user goes (build through the compiler wrappers, `idb run` under mpirun, `idb query`,
# `idb edf`), and small checks that print the numbers they compare, so a failure says what
# the profile held.
#   e2e_<example>.sh REPO IDB IDB_CC IDB_CXX WORK_DIR [EXTRA_FLAGS...]
# EXTRA_FLAGS go to the example's compile and link (the sanitizer build's runtime carries
# ASan, so the programs linking it must too).

e2e_setup() {
  # shellcheck disable=SC2034 # idb_cc and idb_cxx are for the sourcing scripts
  repo=$1 idb=$2 idb_cc=$3 idb_cxx=$4 work=$5
  shift 5
  extra_flags="$*"
  db=$work/idb.db
  fail=0
  rm -rf "$work" && mkdir -p "$work/build"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # Open MPI's own allocations outlive MPI_Finalize: LeakSanitizer would fail the programs
  # in the sanitizer build for memory that is not theirs.
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
}

# cpu_time_everywhere: CPU time on every activation, not only on the long ones
# (IDB_CPU=auto). Four ranks on a machine that may have two cores, shared with other
# tests: a rank's wall time then holds the time it waited for a core, CPU time the work
# itself. Only for programs whose probes run rarely enough that reading the CPU clock
# (a system call) each time costs nothing to speak of.
cpu_time_everywhere() {
  export IDB_CPU=all
}

# build_example NAME VARIABLE "WRAPPER COMPILER": the example's own Makefile, from the
# work folder, with the default selection (no IDB_SELECTION* or IDB_EDF in the way).
build_example() {
  local name=$1 var=$2 compiler=$3
  unset IDB_SELECTION IDB_SELECTION_FILE IDB_EDF
  (cd "$work/build" && make -s -f "$repo/examples/$name/Makefile" "$var=$compiler" \
    CFLAGS="-O2 -g $extra_flags" CXXFLAGS="-O2 -g $extra_flags" LDFLAGS="$extra_flags")
  echo "built $name through: $compiler"
}

# store_run LABEL PROGRAM ARGS...: one run on four ranks into the test's database; the
# program's output goes to WORK/LABEL.out.
store_run() {
  local label=$1 program=$2
  shift 2
  "$idb" run -n 4 --mpirun-arg --oversubscribe --db "$db" --label "$label" \
    --attr "args=$*" -- "$work/build/$program" "$@" >"$work/$label.out" 2>&1 ||
    { cat "$work/$label.out"; echo "FAIL: idb run $label"; exit 1; }
}

# CSV (RFC 4180, as `idb ... --format csv` writes it) to tab-separated fields, so that awk
# can split rows whose descriptions hold commas or quotes.
csv_to_tsv() {
  awk '{
    out = ""; field = ""; quoted = 0
    for (i = 1; i <= length($0); ++i) {
      c = substr($0, i, 1)
      if (quoted) {
        if (c == "\"" && substr($0, i + 1, 1) == "\"") { field = field c; ++i }
        else if (c == "\"") quoted = 0
        else field = field c
      } else if (c == "\"") quoted = 1
      else if (c == ",") { out = out field "\t"; field = "" }
      else field = field c
    }
    print out field
  }'
}

# query NAME|SQL [k=v...] -> the rows as TSV with a header line.
query() {
  local what=$1 params=()
  shift
  for p in "$@"; do params+=(--param "$p"); done
  "$idb" query "$what" --db "$db" --format csv "${params[@]}" | csv_to_tsv
}

# experiment EDF [OPTIONS...] -> `idb edf` on the test's database, as TSV.
experiment() {
  local file=$1
  shift
  "$idb" edf "$repo/examples/$file" --db "$db" --format csv "$@" | csv_to_tsv
}

# pick COLUMN [KEY_COLUMN REGEX]... < TSV: COLUMN of every row whose KEY_COLUMNs match
# their REGEXes (awk's extended regular expressions), one per line.
pick() {
  local conditions
  conditions=$(printf '%s\034' "${@:2}")
  awk -F'\t' -v want="$1" -v conditions="$conditions" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i
              n = split(conditions, cond, "\034") - 1
              if (!(want in col)) { print "pick: no column " want > "/dev/stderr"; exit 1 }
              next }
    { for (k = 1; k < n; k += 2) if ($(col[cond[k]]) !~ cond[k + 1]) next
      print $(col[want]) }'
}

# expect WHAT CONDITION: CONDITION is an awk expression over numbers already substituted,
# e.g. "$pow / $mul > 1.5"; an empty number makes it fail too.
expect() {
  if awk "BEGIN { exit !($2) }" 2>/dev/null; then
    echo "ok: $1 ($2)"
  else
    echo "FAIL: $1 ($2)"
    fail=1
  fi
}

# sum < NUMBERS, mean < NUMBERS, max < NUMBERS, min < NUMBERS
sum() { awk '{ s += $1 } END { printf "%.17g\n", s }'; }
mean() { awk '{ s += $1; ++n } END { if (n) printf "%.17g\n", s / n }'; }
max() { awk 'NR == 1 || $1 > m { m = $1 } END { if (NR) printf "%.17g\n", m }'; }
min() { awk 'NR == 1 || $1 < m { m = $1 } END { if (NR) printf "%.17g\n", m }'; }

# gui_matches_report: for every run of the test's database, the GUI's tree export
# (`idb-gui --view tree --export`, the rows its tree view shows) and `idb report
# --aggregate --format csv` hold the same bytes. Skipped without IDB_GUI_EXE (a build
# without the Qt front end).
gui_matches_report() {
  [[ -n ${IDB_GUI_EXE:-} ]] || { echo "skip: GUI = CLI (no idb-gui in this build)"; return; }
  local label
  while IFS= read -r label; do
    "$idb" report "$label" --db "$db" --aggregate --format csv >"$work/report.csv"
    QT_QPA_PLATFORM=offscreen "$IDB_GUI_EXE" --db "$db" --run "$label" --view tree \
      --export "$work/gui.csv" 2>"$work/gui.err" || cat "$work/gui.err"
    if cmp -s "$work/report.csv" "$work/gui.csv"; then
      echo "ok: GUI tree export = idb report --aggregate --format csv for $label" \
        "($(($(wc -l <"$work/report.csv") - 1)) rows)"
    else
      echo "FAIL: GUI tree export differs from idb report for $label:"
      diff "$work/report.csv" "$work/gui.csv" | head -n 10
      fail=1
    fi
  done < <("$idb" runs --db "$db" --format csv | csv_to_tsv | pick label)
}

e2e_finish() {
  gui_matches_report
  if ((fail)); then echo "some checks failed; the database is $db"; fi
  exit "$fail"
}
