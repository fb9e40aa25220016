#!/usr/bin/env bash
# Builds a small project under projects/ twice, plainly and through the compiler wrappers,
# runs both, compares their output byte for byte, and compares the instrumented run's CFH
# with projects/NAME.cfh (IDB_UPDATE_GOLDEN=1 rewrites it).
#   make-c:    make CC="idb-cc gcc"; also checks that diagnostics and debug information
#              name the original files
#   cmake-cxx: CMake with idb-cxx as compiler and linker launcher
#   make-mpi:  make CC="idb-cc mpicc", run with mpirun -np 3
#   make-mpi-word: make CC=idb-mpicc (the one-word wrapper beside IDB_CC), run the same way
#   cmake-mpi: CMake with FindMPI, gcc, and idb-cc as compiler and linker launcher (libmpi.so
#              by full path on the link line), run with mpirun -np 3
# usage: run_project.sh KIND NAME PROJECTS_DIR WORK_DIR IDB_CC PROFILE_PATHS [EXTRA_FLAGS...]
set -euo pipefail
kind=$1 name=$2 projects=$3 work=$4 idb_cc=$5 paths=$6
shift 6
extra="$*"
rm -rf "$work" && mkdir -p "$work"
cp -r "$projects/$name" "$work/pristine"
cp -r "$projects/$name" "$work/instrumented"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cflags="-O1 -g -Wall -Wextra -Werror $extra"

build() { # build DIR WRAPPER
  local dir=$1 wrap=$2
  case $kind in
  make-c) make -s -C "$dir" CC="$wrap${wrap:+ }gcc" CFLAGS="$cflags" ;;
  make-mpi) make -s -C "$dir" CC="$wrap${wrap:+ }mpicc" CFLAGS="$cflags" ;;
  make-mpi-word) make -s -C "$dir" CC="${wrap:+$(dirname "$wrap")/idb-}mpicc" CFLAGS="$cflags" ;;
  cmake-cxx)
    local launch=()
    [[ -n $wrap ]] && launch=(-DCMAKE_CXX_COMPILER_LAUNCHER="$wrap" -DCMAKE_CXX_LINKER_LAUNCHER="$wrap")
    cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_CXX_FLAGS="$extra" \
      -DCMAKE_EXE_LINKER_FLAGS="$extra" "${launch[@]}" >/dev/null
    cmake --build "$dir/build" >/dev/null
    ln -sf build/app "$dir/app" ;;
  cmake-mpi)
    local launch=()
    [[ -n $wrap ]] && launch=(-DCMAKE_C_COMPILER_LAUNCHER="$wrap" -DCMAKE_C_LINKER_LAUNCHER="$wrap")
    cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_C_COMPILER=gcc -DCMAKE_C_FLAGS="$extra" \
      -DCMAKE_EXE_LINKER_FLAGS="$extra" "${launch[@]}" >/dev/null
    cmake --build "$dir/build" >/dev/null
    ln -sf build/ring "$dir/ring" ;;
  esac
}

run() { # run DIR -> DIR/out.txt
  local dir=$1
  case $kind in
  # Open MPI's own allocations outlive MPI_Finalize: LeakSanitizer would fail even the
  # pristine program in the sanitizer build.
  *-mpi | *-mpi-word) (cd "$dir" && ASAN_OPTIONS=detect_leaks=0 IDB_OUT="$dir/run-%r.idbprof" mpirun -np 3 --oversubscribe ./ring >out.txt 2>err.txt) ;;
  *) (cd "$dir" && IDB_OUT="$dir/run-0.idbprof" ./app >out.txt 2>err.txt) ;;
  esac
}

build "$work/pristine" ""
build "$work/instrumented" "$idb_cc"
run "$work/pristine"
run "$work/instrumented"
cmp "$work/pristine/out.txt" "$work/instrumented/out.txt" ||
  { diff -u "$work/pristine/out.txt" "$work/instrumented/out.txt"; exit 1; }
if [[ $kind == *-mpi || $kind == *-mpi-word ]]; then
  # The wrapper linked libidb_mpi: the ranks merged into one profile, written by rank 0,
  # and the PMPI layer opened no node beside the instrumenter's COMM probes.
  profiles=("$work/instrumented"/run-*.idbprof)
  [[ ${#profiles[@]} == 1 ]] || { echo "expected one merged profile: ${profiles[*]}"; exit 1; }
fi
"$paths" "$work/instrumented/run-0.idbprof" >"$work/cfh.txt"
if [[ ${IDB_UPDATE_GOLDEN:-0} == 1 ]]; then
  cp "$work/cfh.txt" "$projects/$name.cfh"
else
  diff -u "$projects/$name.cfh" "$work/cfh.txt"
fi

if [[ $kind == make-c ]]; then
  # The user's file names, not the temporary copies, in debug information and warnings.
  objdump --dwarf=info "$work/instrumented/lib/stats.o" >"$work/dwarf.txt"
  grep -q 'DW_AT_name.*lib/stats.c' "$work/dwarf.txt" ||
    { echo "debug information does not name lib/stats.c"; exit 1; }
  if grep -q 'idb-cc-' "$work/dwarf.txt"; then
    echo "debug information names the temporary folder"; exit 1
  fi
  printf 'int f(void);\nint f(void) {\n  int unused = 3;\n  return 1;\n}\n' >"$work/warn.c"
  (cd "$work" && "$idb_cc" gcc -Wall -c warn.c -o warn.o 2>warn.txt)
  grep -q '^warn.c:3:7: warning: unused variable' "$work/warn.txt" ||
    { echo "the warning does not point at warn.c:3:7:"; cat "$work/warn.txt"; exit 1; }
  # Messages after a probe on the same line keep the user's line and column, and name the
  # user's header: what the wrapper prints is what the compiler alone prints, byte for byte.
  mkdir -p "$work/sub"
  # The header has a loop, so the source includes an instrumented copy of it.
  printf 'static int h(int n) { int unused_h; int s = 0; for (int i = 0; i < n; ++i) s += i; return s; }\n' >"$work/sub/warn2.h"
  printf '#include "warn2.h"\nint g(int n) { int s = 0; for (int i = 0; i < n; ++i) { int unused_i; s += i; } return s + h(n); }\n' >"$work/sub/warn2.c"
  (cd "$work" && gcc -Wall -c sub/warn2.c -o warn2.o 2>warn2.gcc.txt)
  (cd "$work" && IDB_CANDIDATES=warn2.tsv "$idb_cc" gcc -Wall -c sub/warn2.c -o warn2.o 2>warn2.txt)
  grep -q 'sub/warn2.c:2:61: warning: unused variable' "$work/warn2.gcc.txt"
  grep -q 'sub/warn2.h:1:27: warning: unused variable' "$work/warn2.gcc.txt"
  diff -u "$work/warn2.gcc.txt" "$work/warn2.txt"
  # A header beside a source in the working folder is `local3.h` to the compiler, not
  # `./local3.h`, in messages and in __FILE__.
  printf 'static const char *k(void) { int unused_k; return __FILE__; }\n' >"$work/local3.h"
  printf '#include "local3.h"\nconst char *m(void);\nconst char *m(void) { return k(); }\n' >"$work/cwd.c"
  (cd "$work" && gcc -Wall -c cwd.c -o cwd.o 2>cwd.gcc.txt && "$idb_cc" gcc -Wall -c cwd.c -o cwd.o 2>cwd.txt)
  grep -q '^local3.h:1:34: warning: unused variable' "$work/cwd.gcc.txt"
  diff -u "$work/cwd.gcc.txt" "$work/cwd.txt"
  grep -q $'\tPROC\tplaced\tsub/warn2.h\t1\th\t' "$work/warn2.tsv" ||
    { echo "warn2.h's function has no probe:"; cat "$work/warn2.tsv"; exit 1; }
  # Headers: the C inline definition with external linkage gets no probe (the build above
  # ran with -Werror); a header included through a macro stays original, its probes
  # skipped with the reason; the dependency file names the headers, not their copies.
  (cd "$work/pristine" && IDB_CANDIDATES=../hdr.tsv "$idb_cc" gcc -MMD -Ilib -c main.c -o hdr.o)
  grep -q $'\tPROC\tskipped: C inline function with external linkage\tlib/kern.h\t14\tcount_positive\t' "$work/hdr.tsv" ||
    { echo "hdr.tsv:"; cat "$work/hdr.tsv"; exit 1; }
  grep -q 'lib/kern.h' "$work/pristine/hdr.d" && grep -q 'lib/kern_detail.h' "$work/pristine/hdr.d" ||
    { echo "hdr.d:"; cat "$work/pristine/hdr.d"; exit 1; }
  if grep -q 'idb-cc-' "$work/pristine/hdr.d"; then echo "hdr.d names a copy"; exit 1; fi
  printf '#define KERN "kern.h"\n#include KERN\nint main(void) { double v[2] = {1, 2}; return sum_squares(v, 2) == 5 ? 0 : 1; }\n' >"$work/pristine/lib/macro.c"
  (cd "$work/pristine" && IDB_CANDIDATES=../macro.tsv "$idb_cc" gcc -Werror -c lib/macro.c -o macro.o)
  grep -q $'\tLOOP\tskipped: in a header that cannot be replaced: included through a macro\tlib/kern.h\t10\tsum_squares\t' "$work/macro.tsv" ||
    { echo "macro.tsv:"; cat "$work/macro.tsv"; exit 1; }
  # A copied header's quoted #include of a header that stays original (here: included
  # through a macro first) still finds it, `..` and all; a header with #include_next stays
  # original, since from a copy the search would start elsewhere.
  mkdir -p "$work/hdr/sub" "$work/hdr/common" "$work/hdr/sys/ov"
  printf '#ifndef C_H\n#define C_H\nstatic inline int twice(int x) { return 2 * x; }\n#endif\n' >"$work/hdr/common/c.h"
  printf '#include "../common/c.h"\nstatic inline int total(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++)\n    s += twice(i);\n  return s;\n}\n' >"$work/hdr/sub/a.h"
  printf '#include_next <stdlib.h>\nstatic inline int spread(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++)\n    s += abs(i - 3);\n  return s;\n}\n' >"$work/hdr/sys/ov/stdlib.h"
  printf '#define C_HEADER "common/c.h"\n#include C_HEADER\n#include "sub/a.h"\n#include <stdlib.h>\n#include <stdio.h>\nint main(void) {\n  printf("%%d %%d\\n", total(10), spread(7));\n  return 0;\n}\n' >"$work/hdr/m.c"
  (cd "$work/hdr" && gcc -Wall -Werror -Isys/ov m.c -o m_plain && ./m_plain >plain.txt)
  (cd "$work/hdr" && IDB_CANDIDATES=m.tsv "$idb_cc" gcc -Wall -Werror -Isys/ov m.c -o m_idb 2>m.err && IDB_OUT=m.idbprof ./m_idb >idb.txt) ||
    { echo "m.c:"; cat "$work/hdr/m.err"; exit 1; }
  cmp "$work/hdr/plain.txt" "$work/hdr/idb.txt"
  grep -q $'\tPROC\tplaced\tsub/a.h\t2\ttotal\t' "$work/hdr/m.tsv" &&
    grep -q $'\tLOOP\tskipped: in a header that cannot be replaced: uses #include_next\tsys/ov/stdlib.h\t4\tspread\t' "$work/hdr/m.tsv" ||
    { echo "m.tsv:"; cat "$work/hdr/m.tsv"; exit 1; }
  # A header that asks __has_include stays original too (from a copy, "x.h" beside it
  # would not be found).
  printf '#if __has_include("none.h")\n#endif\nstatic inline int cube(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++)\n    s += i * i * i;\n  return s;\n}\n' >"$work/hdr/sub/h.h"
  printf '#include "sub/h.h"\nint f(void);\nint f(void) { return cube(3); }\n' >"$work/hdr/h.c"
  (cd "$work/hdr" && IDB_CANDIDATES=h.tsv "$idb_cc" gcc -Wall -Werror -c h.c -o h.o)
  grep -q $'\tLOOP\tskipped: in a header that cannot be replaced: uses __has_include\tsub/h.h\t5\tcube\t' "$work/hdr/h.tsv" ||
    { echo "h.tsv:"; cat "$work/hdr/h.tsv"; exit 1; }
  "$paths" "$work/hdr/m.idbprof" | grep -qx 'main(...) \[m.c:6\];total(...) \[a.h:2\] 1' ||
    { echo "m's tree:"; "$paths" "$work/hdr/m.idbprof"; exit 1; }
  # A build that preprocesses a source itself and compiles the result (`cc -E x.c > x.2.c`,
  # then `cc -c x.2.c`): instrumented through x.c, with the same answer, and silently.
  printf '#include <stdio.h>\nstatic int work(int n) {\n  int s = 0;\n  for (int i = 0; i < n; ++i)\n    s += i * i;\n  return s;\n}\nint main(void) {\n  printf("%%d\\n", work(10));\n  return 0;\n}\n' >"$work/pp.c"
  (cd "$work" && gcc -E pp.c >pp.2.c && IDB_BUILD_RECORD=record.tsv "$idb_cc" gcc -c pp.2.c -o pp.o 2>pp.txt &&
    "$idb_cc" gcc pp.o -o pp)
  [[ ! -s $work/pp.txt ]] || { echo "pp.txt:"; cat "$work/pp.txt"; exit 1; }
  [[ $(cd "$work" && IDB_OUT=pp.idbprof ./pp) == 285 ]]
  "$paths" "$work/pp.idbprof" | grep -q 'work(...) \[pp.c:2\]' ||
    { echo "the preprocessed build has no probes:"; "$paths" "$work/pp.idbprof"; exit 1; }
  # A dependency file that is not a regular file (`-MF /dev/null`; here a FIFO this script
  # holds open, so nothing blocks) is left as it is: a rename over it would replace it.
  mkfifo "$work/dep.fifo"
  exec 3<>"$work/dep.fifo"
  (cd "$work" && timeout 60 "$idb_cc" gcc -MD -MF "$work/dep.fifo" -c pp.c -o dep.o)
  exec 3>&-
  [[ -p $work/dep.fifo ]] || { echo "the FIFO given to -MF was replaced"; exit 1; }
  # The same with OpenMP pragmas that a header's macros spell as pragma lines
  # (`#define OMP_FOR #pragma omp for`), which only such a build can compile; the
  # worksharing loop is probed around its whole construct, once in each thread's CFH.
  printf '#define OMP_PARALLEL #pragma omp parallel\n#define OMP_FOR #pragma omp for schedule(static)\n' >"$work/ompm.h"
  printf '#include <stdio.h>\n#include "ompm.h"\nstatic double sum(const double *a, int n) {\n  double s = 0;\n  OMP_PARALLEL\n  {\n    OMP_FOR\n    for (int i = 0; i < n; ++i) {\n      for (int k = 0; k < 3; ++k)\n        ((double *)a)[i] += k;\n    }\n  }\n  for (int i = 0; i < n; ++i)\n    s += a[i];\n  return s;\n}\nint main(void) {\n  double a[100] = {0};\n  printf("%%.1f\\n", sum(a, 100));\n  return 0;\n}\n' >"$work/ompm.c"
  (cd "$work" && gcc -fopenmp -E ompm.c >ompm.2.c && "$idb_cc" gcc -fopenmp -c ompm.2.c -o ompm.o 2>ompm.txt &&
    "$idb_cc" gcc -fopenmp ompm.o -o ompm)
  [[ ! -s $work/ompm.txt ]] || { echo "ompm.txt:"; cat "$work/ompm.txt"; exit 1; }
  [[ $(cd "$work" && OMP_NUM_THREADS=2 IDB_OUT=ompm.idbprof ./ompm) == 300.0 ]]
  "$paths" "$work/ompm.idbprof" >"$work/ompm.cfh"
  grep -q 'sum(...) \[ompm.c:3\];for loop in sum \[ompm.c:13\]' "$work/ompm.cfh" ||
    { echo "ompm's probes:"; cat "$work/ompm.cfh"; exit 1; }
  [[ $(grep -c '^for loop in sum \[ompm.c:8\] 1$\|;sum(...) \[ompm.c:3\];for loop in sum \[ompm.c:8\] 1$' "$work/ompm.cfh") == 2 ]] ||
    { echo "the worksharing loop, once per thread:"; cat "$work/ompm.cfh"; exit 1; }
  # Dependency files name the user's source, not the temporary copy.
  (cd "$work" && "$idb_cc" gcc -MMD -c warn.c -o deps.o 2>/dev/null)
  grep -q '^deps.o: warn.c' "$work/deps.d" || { echo "deps.d:"; cat "$work/deps.d"; exit 1; }
  # A file that does not compile fails the build with the real compiler's own error, after
  # one line saying it was not instrumented; IDB_STRICT=1 fails it before the compiler.
  printf 'int main(void) { return missing; }\n' >"$work/bad.c"
  if (cd "$work" && "$idb_cc" gcc -c bad.c 2>bad.txt); then echo "bad.c built"; exit 1; fi
  grep -q "^idb-cc: bad.c not instrumented: does not compile with Clang: bad.c:1:25: use of undeclared identifier 'missing'" "$work/bad.txt" ||
    { echo "bad.txt:"; cat "$work/bad.txt"; exit 1; }
  grep -q "^bad.c:1:25: error: .missing. undeclared" "$work/bad.txt"
  if (cd "$work" && IDB_STRICT=1 "$idb_cc" gcc -c bad.c 2>strict.txt); then exit 1; fi
  grep -q "^idb-cc: cannot instrument bad.c: bad.c does not compile with Clang" "$work/strict.txt"
  # Never break a build: what GCC builds and Clang cannot parse (a nested function, a GNU
  # C extension) is built as it is, with one line, and no Clang warning is shown.
  printf 'int f(int x) {\n  int g(int y) { return y + x; }\n  return g(1);\n}\n' >"$work/gnu.c"
  (cd "$work" && IDB_BUILD_RECORD=record.tsv "$idb_cc" gcc -c gnu.c -o gnu.o 2>gnu.txt) ||
    { cat "$work/gnu.txt"; exit 1; }
  [[ $(wc -l <"$work/gnu.txt") == 1 ]] || { echo "gnu.txt:"; cat "$work/gnu.txt"; exit 1; }
  grep -q "^idb-cc: gnu.c not instrumented: does not compile with Clang: gnu.c:2:" "$work/gnu.txt"
  # IDB_BUILD_RECORD: one line per source, its probes, and why one was not instrumented.
  printf 'pp.2.c\t2\tthrough pp.c\n' >"$work/record.expected"
  grep -q $'^gnu.c\t0\tnot instrumented: does not compile with Clang: gnu.c:2:' "$work/record.tsv" ||
    { echo "record.tsv:"; cat "$work/record.tsv"; exit 1; }
  head -1 "$work/record.tsv" | cmp - "$work/record.expected" || { cat "$work/record.tsv"; exit 1; }
  printf '#ifndef A_H\n#define B_H\nint h(void);\n#endif\nint h(void) { return 2; }\n' >"$work/guard.c"
  (cd "$work" && "$idb_cc" gcc -c guard.c -o guard.o 2>guard.txt)
  [[ ! -s $work/guard.txt ]] || { echo "Clang spoke:"; cat "$work/guard.txt"; exit 1; }
  # The selection from the environment: none selected, no probes; a bad one fails.
  (cd "$work/pristine" && IDB_SELECTION='exclude all' "$idb_cc" gcc -c main.c -Ilib -o none.o)
  nm "$work/pristine/none.o" >"$work/none.nm"
  if grep -q idb_ "$work/none.nm"; then echo "probes despite 'exclude all'"; exit 1; fi
  if (cd "$work/pristine" && IDB_SELECTION='include lops' "$idb_cc" gcc -c main.c -Ilib \
    -o bad.o 2>"$work/badsel.txt"); then echo "a bad selection built"; exit 1; fi
  grep -q "^idb-cc: IDB_SELECTION:1:9: unknown kind 'lops'" "$work/badsel.txt"
  # A compiler that does not exist is named.
  set +e
  (cd "$work" && "$idb_cc" no-such-compiler -c warn.c 2>nocc.txt)
  status=$?
  set -e
  [[ $status == 127 ]] && grep -q "cannot run the compiler 'no-such-compiler'" "$work/nocc.txt" ||
    { echo "missing compiler: status $status"; cat "$work/nocc.txt"; exit 1; }
  # Instrumented compiles define IDB_INSTRUMENTED and find <idb/probe.h>; plain ones do not.
  printf '#ifndef IDB_INSTRUMENTED\n#error IDB_INSTRUMENTED is not defined\n#endif\n#include <idb/probe.h>\nint f(void);\nint f(void) {\n  IDB_CFH_CONTEXT(idb_thread_cfh());\n  return IDB_INSTRUMENTED;\n}\n' >"$work/marked.c"
  (cd "$work" && "$idb_cc" gcc -Wall -Werror -c marked.c -o marked.o)
  if (cd "$work" && IDB_INSTRUMENT=0 "$idb_cc" gcc -c marked.c -o plain-marked.o 2>/dev/null); then
    echo "IDB_INSTRUMENTED defined without instrumenting"; exit 1
  fi
  # IDB_INSTRUMENT=0 passes straight through: no probe symbols.
  (cd "$work/pristine" && IDB_INSTRUMENT=0 "$idb_cc" gcc -c main.c -Ilib -o plain.o)
  nm "$work/pristine/plain.o" >"$work/plain.nm"
  if grep -q idb_ "$work/plain.nm"; then echo "IDB_INSTRUMENT=0 instrumented"; exit 1; fi
fi
echo "ok: $name built with $idb_cc, same output, CFH as expected"
