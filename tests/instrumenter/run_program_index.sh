#!/usr/bin/env bash
# The compiler wrappers' program index (docs/instrumenter.md, "The program index"): a C
# program of four files compiled one at a time through idb-cc, as make does. A helper whose
# callee is in one file and whose callers' loops are in another loses its probe; the
# program computes what its pristine build computes; the next build reads the cache and
# rewrites none of it, nor does a compile from another folder, while another executable of
# the same version writes its own; an edit to the callee reaches the helper's next compile; a source
# beside them that does not compile, and a cache folder that cannot be written, change
# nothing else; the cache keeps to its bound (IDB_INDEX_MAX_MB), the least recently used
# entries going first; IDB_INDEX=0 turns the index off.
# usage: run_program_index.sh WORK_DIR IDB_CC [EXTRA_FLAGS...]
set -euo pipefail
work=$1 idb_cc=$2
shift 2
extra=("$@")
rm -rf "$work" && mkdir -p "$work/src"
cd "$work/src"
cat >leaf.c <<'EOF'
double leaf(const double *t, int i) { return t[i] * 2.0 + 1.0; }
EOF
cat >sum.c <<'EOF'
double sum(const double *t, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += t[i];
  return s;
}
EOF
cat >helpers.c <<'EOF'
double leaf(const double *t, int i);
double sum(const double *t, int n);
double cell(const double *t, int i, int j) {
  double a = t[i], b = leaf(t, j), c = a * b;
  if (c > 10.0) c = 10.0;
  double d = c - a;
  d = d * d;
  a = a + d;
  return a + b + c + d;
}
double row(const double *t, int i, int j) {
  double a = t[i], b = sum(t, j), c = a * b;
  if (c > 10.0) c = 10.0;
  double d = c - a;
  d = d * d;
  a = a + d;
  return a + b + c + d;
}
EOF
cat >main.c <<'EOF'
#include <stdio.h>
double cell(const double *t, int i, int j);
double row(const double *t, int i, int j);
static double sweep(const double *t) {
  double s = 0;
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 100; ++j) s += cell(t, i, j) + row(t, i, j % 4);
  return s;
}
int main(void) {
  double t[100], s = 0;
  for (int i = 0; i < 100; ++i) t[i] = i * 0.01;
  for (int step = 0; step < 10; ++step) s += sweep(t);
  printf("%.6f\n", s);
  return 0;
}
EOF
# Not part of the program, and not compilable with its flags.
printf '#error "built with -DOTHER only"\nint other;\n' >other.c

export IDB_INDEX_DIR=$work/index
gcc -O2 "${extra[@]}" leaf.c sum.c helpers.c main.c -o "$work/pristine"
"$work/pristine" >"$work/pristine.txt"

build() { # build OUT_DIR [VAR=VALUE...]: each file compiled apart, then linked
  local out=$1
  shift
  mkdir -p "$out"
  rm -f "$out/candidates.txt"
  for f in leaf sum helpers main; do
    env "$@" IDB_CANDIDATES="$out/candidates.txt" "$idb_cc" gcc -O2 -Wall -Werror "${extra[@]}" \
      -c $f.c -o "$out/$f.o"
  done
  "$idb_cc" gcc "${extra[@]}" "$out"/*.o -o "$out/app"
}
verdict() { # verdict OUT_DIR FUNCTION: its PROC's status in the candidates
  awk -F'\t' -v f="$2" '$2 == "PROC" && $6 == f { print $3 }' "$1/candidates.txt"
}
expect() { # expect OUT_DIR FUNCTION PREFIX
  local got
  got=$(verdict "$1" "$2")
  [[ $got == "$3"* ]] || { echo "$1: $2's PROC: expected '$3...', got '$got'"; exit 1; }
}

build "$work/first"
expect "$work/first" cell "skipped: bounded function"
expect "$work/first" row "skipped: called in nested loops"
expect "$work/first" sweep placed
IDB_OUT="$work/first/run.idbprof" "$work/first/app" >"$work/first/out.txt"
cmp "$work/pristine.txt" "$work/first/out.txt"
# One entry per source that parses and one for other.c, which is not parsed again.
[[ $(ls "$IDB_INDEX_DIR" | wc -l) == 5 ]] || { ls -l "$IDB_INDEX_DIR"; exit 1; }

# The next build reads the entries and writes none.
ls -l --time-style=full-iso "$IDB_INDEX_DIR" >"$work/entries-before.txt"
sleep 0.05
build "$work/second"
ls -l --time-style=full-iso "$IDB_INDEX_DIR" >"$work/entries-after.txt"
diff "$work/entries-before.txt" "$work/entries-after.txt"
expect "$work/second" cell "skipped: bounded function"
# From another folder (as a CMake build names its sources): the entries are read as well.
(cd "$work" && "$idb_cc" gcc -O2 -Wall -Werror "${extra[@]}" -c src/helpers.c -o "$work/second/again.o")
ls -l --time-style=full-iso "$IDB_INDEX_DIR" >"$work/entries-again.txt"
diff "$work/entries-before.txt" "$work/entries-again.txt"

# Another executable of the same version (a rebuilt or reinstalled wrapper, here a copy)
# reads none of these entries, since its analysis may differ: it writes its own.
mkdir -p "$work/copy"
cp "$idb_cc" "$work/copy/idb-cc"
count=$(ls "$IDB_INDEX_DIR" | wc -l)
IDB_CANDIDATES="$work/copy/candidates.txt" "$work/copy/idb-cc" gcc -O2 -Wall -Werror \
  "${extra[@]}" -c helpers.c -o "$work/copy/helpers.o"
(($(ls "$IDB_INDEX_DIR" | wc -l) > count)) || {
  ls -l "$IDB_INDEX_DIR"
  echo "a copy of the wrapper read the entries of the one it copies"
  exit 1
}
expect "$work/copy" cell "skipped: bounded function"

# leaf gets a loop: its entry is stale, and at cell's next compile leaf is no longer
# bounded but measured apart (its loop keeps a probe): cell is left out as a helper called
# in nested loops instead.
cat >leaf.c <<'EOF'
double leaf(const double *t, int i) {
  double s = 0;
  for (int k = 0; k < i; ++k) s += t[k];
  return s * 2.0 + 1.0;
}
EOF
gcc -O2 "${extra[@]}" leaf.c sum.c helpers.c main.c -o "$work/pristine"
"$work/pristine" >"$work/pristine.txt"
build "$work/edited"
expect "$work/edited" cell "skipped: called in nested loops"
expect "$work/edited" leaf placed
expect "$work/edited" row "skipped: called in nested loops"
"$work/edited/app" >"$work/edited/out.txt"
cmp "$work/pristine.txt" "$work/edited/out.txt"

# A cache folder that cannot be made: the same verdicts, from the sources parsed again.
build "$work/nowhere" IDB_INDEX_DIR=/dev/null/index
expect "$work/nowhere" row "skipped: called in nested loops"

# The cache keeps to its bound (IDB_INDEX_MAX_MB): a compile that writes a new entry
# removes the least recently used ones past it, keeping 80% of it; the folder is looked
# over at most every ten minutes. Forty entries of another build, 64 KB each and two
# days old, in a folder of 1 MB: the oldest go, this build's stay.
trimmed=$work/trimmed
mkdir -p "$trimmed"
for i in $(seq 10 49); do
  head -c 65536 /dev/zero >"$trimmed/old$i.sum"
  touch -d "2 days ago $i minutes ago" "$trimmed/old$i.sum"
done
build "$work/bounded" IDB_INDEX_DIR="$trimmed" IDB_INDEX_MAX_MB=1
expect "$work/bounded" row "skipped: called in nested loops"
kb=$(du -sk --apparent-size "$trimmed" | cut -f1)
((kb <= 1024)) || { ls -l "$trimmed"; echo "the cache holds $kb KB over its bound of 1 MB"; exit 1; }
[[ -e $trimmed/old10.sum && ! -e $trimmed/old49.sum ]] || {
  ls -l "$trimmed"
  echo "not the least recently used entries removed"
  exit 1
}
[[ $(ls "$trimmed" | grep -vc '^old') == 5 ]] || { ls -l "$trimmed"; exit 1; }
# Within ten minutes of that, new entries leave the folder as it is.
for i in 50 51 52 53 54 55 56 57; do head -c 65536 /dev/zero >"$trimmed/old$i.sum"; done
echo 'double extra(double x) { return x; }' >extra.c
IDB_INDEX_DIR="$trimmed" IDB_INDEX_MAX_MB=1 "$idb_cc" gcc -O2 "${extra[@]}" -c extra.c \
  -o "$work/bounded/extra.o"
[[ -e $trimmed/old57.sum ]] || { echo "trimmed again within ten minutes"; exit 1; }
rm extra.c
# A bound that is not one is said, and the build goes on under the default.
IDB_INDEX_DIR="$trimmed" IDB_INDEX_MAX_MB=lots "$idb_cc" gcc -O2 "${extra[@]}" -c leaf.c \
  -o "$work/bounded/leaf.o" 2>"$work/bounded/err.txt"
grep -q "IDB_INDEX_MAX_MB=lots is not a size in megabytes" "$work/bounded/err.txt" ||
  { cat "$work/bounded/err.txt"; exit 1; }

# Off: each file alone.
build "$work/off" IDB_INDEX=0
expect "$work/off" cell placed
expect "$work/off" row placed
"$work/off/app" >"$work/off/out.txt"
cmp "$work/pristine.txt" "$work/off/out.txt"
echo "program index: ok"
