#!/usr/bin/env bash
# Builds the .edf parser's libFuzzer target with clang (the project's main build is GCC,
# which has no libFuzzer) and runs it for a bounded time on a copy of the seed corpus:
#   run_fuzzer.sh SOURCE_DIR BUILD_DIR SECONDS
# Exits 77 (CTest's skip code here) with a message when clang++-14 or its fuzzer runtime is
# absent, 0 when the run found nothing, non-zero with libFuzzer's report otherwise.
set -euo pipefail
src=$1 out=$2 seconds=$3
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [[ -z $cxx ]]; then
  echo "SKIP: no clang++ (install clang-14 and libclang-rt-14-dev: scripts/setup.sh)"
  exit 77
fi
mkdir -p "$out"
parser=(parse document experiment write skeleton)
sources=("$src/tests/edf/fuzz_edf_parse.cpp")
for f in "${parser[@]}"; do sources+=("$src/edf/src/$f.cpp"); done
sources+=("$src/analysis/src/metric.cpp")   # the Value key names a metric
sources+=("$src/reader/src/input_file.cpp") # read() goes through it
if ! "$cxx" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"$src/edf/include" -I"$src/edf/src" -I"$src/analysis/include" -I"$src/probe_lib/include" \
  -I"$src/reader/include" \
  "${sources[@]}" -o "$out/fuzz_edf_parse" 2>"$out/build.log"; then
  if grep -q 'libclang_rt.fuzzer\|fuzzer' "$out/build.log"; then
    echo "SKIP: clang has no libFuzzer runtime (install libclang-rt-14-dev)"
    cat "$out/build.log"
    exit 77
  fi
  cat "$out/build.log" >&2
  exit 1
fi
rm -rf "$out/corpus" && mkdir -p "$out/corpus"
cp "$src"/tests/edf/corpus/* "$out/corpus/"
"$out/fuzz_edf_parse" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -rss_limit_mb=1024 -print_final_stats=1 "$out/corpus" 2>&1 | tail -n 15
