#!/usr/bin/env bash
# Sets up, builds and runs every test: the dev preset (warnings as errors), then the
# runtime and reader tests again under AddressSanitizer and UBSan, and the format check.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

bash scripts/setup.sh

echo "== format check (.clang-format)"
mapfile -t sources < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp')
clang-format --dry-run -Werror "${sources[@]}"

jobs=$(nproc)
for preset in dev asan; do
  echo "== $preset: configure, build, test"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  skip=()
  # Benchmarks and timing ratios mean nothing under the sanitizers' slowdown, and an
  # installed sanitized runtime would need the user's program built with them too.
  [[ $preset == asan ]] && skip=(--label-exclude 'bench-smoke|timing|install')
  ctest --preset "$preset" -j "$jobs" "${skip[@]}"
done
echo "== clang-tidy (.clang-tidy) on the project's own sources"
git ls-files 'probe_lib/*.cpp' 'reader/*.cpp' 'schema/*.cpp' 'cli/*.cpp' |
  xargs -P "$jobs" -n 4 clang-tidy -p build/dev --quiet 2>/dev/null
echo "== all tests passed in $((SECONDS - start)) s"
