#!/usr/bin/env bash
# Sets up, builds and runs every test: the format check, the dev preset's tests (warnings
# as errors), the same tests under AddressSanitizer and UBSan (all but the instrumenter's
# and the GUI's unless IDB_ASAN_ALL=1), and clang-tidy on the C++ files the newest commit
# changed (IDB_TIDY_ALL=1: on every file). The release build is
# the demo's (scripts/demo.sh); building it here too made the suite a third longer. Both
# builds keep line tables only (IDB_LINE_TABLES_ONLY, -g1): enough for backtraces and the
# sanitizers' reports, and a fifth less compile time than full debug information.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

bash scripts/setup.sh

echo "== format check (.clang-format)"
mapfile -t sources < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp')
clang-format --dry-run -Werror "${sources[@]}"

jobs=$(nproc)
for preset in dev asan; do
  echo "== $preset: configure, build, test ($((SECONDS - start)) s so far)"
  # The sanitizer build leaves out the Clang instrumenter and the Qt front end (and their
  # tests) unless IDB_ASAN_ALL=1: their translation units were over half of the suite's
  # time, and the parts that read untrusted input and run inside the user's program
  # (runtime, MPI layer, reader, store, .edf parser, CLI) are all still sanitized.
  options=()
  if [[ $preset == asan && ${IDB_ASAN_ALL:-0} != 1 ]]; then
    options=(-DIDB_BUILD_INSTRUMENTER=OFF -DIDB_BUILD_GUI=OFF)
  else
    options=(-DIDB_BUILD_INSTRUMENTER=ON -DIDB_BUILD_GUI=ON)
  fi
  cmake --preset "$preset" "${options[@]}" -DIDB_LINE_TABLES_ONLY=ON >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  skip=()
  # Benchmarks and timing ratios mean nothing under the sanitizers' slowdown, an installed
  # sanitized runtime would need the user's program built with them too, and the fuzz
  # targets build themselves with ASan and UBSan in either stage.
  [[ $preset == asan ]] && skip=(--label-exclude 'bench-smoke|timing|install|fuzz')
  ctest --preset "$preset" -j "$jobs" "${skip[@]}"
done
echo "== clang-tidy (.clang-tidy) ($((SECONDS - start)) s so far)"
patterns=('probe_lib/*.cpp' 'reader/*.cpp' 'schema/*.cpp' 'analysis/*.cpp' 'queries/*.cpp'
  'edf/*.cpp' 'cli/*.cpp' 'instrumenter/*.cpp' 'gui/*.cpp')
if [[ ${IDB_TIDY_ALL:-0} == 1 ]] || ! git rev-parse -q --verify HEAD~1 >/dev/null; then
  mapfile -t tidy < <(git ls-files "${patterns[@]}")
else # the files the newest commit changed (a merge: what it brought in)
  mapfile -t tidy < <(git diff --name-only --diff-filter=d HEAD~1 HEAD -- "${patterns[@]}")
fi
echo "${#tidy[@]} files"
# The compile commands are GCC's; clang does not know some of its warning flags.
if ((${#tidy[@]})); then
  printf '%s\n' "${tidy[@]}" |
    xargs -P "$jobs" -n 4 clang-tidy -p build/dev --quiet --extra-arg=-Wno-unknown-warning-option 2>/dev/null
fi
echo "== all tests passed in $((SECONDS - start)) s"
