#!/usr/bin/env bash
# Builds one of the project's libFuzzer targets with clang (the project's main build is GCC,
# which has no libFuzzer) and runs it for a bounded time on a copy of its seed corpus:
#   run_fuzzer.sh SOURCE_DIR BUILD_DIR SECONDS edf
#   run_fuzzer.sh SOURCE_DIR BUILD_DIR SECONDS profile GENERATOR
# edf: the .edf parser (tests/edf/fuzz_edf_parse.cpp, seeds tests/edf/corpus).
# profile: the profile reader's semantic layer (tests/reader/fuzz_profile_parse.cpp), seeded
# with the profile GENERATOR (a program run with IDB_OUT) writes.
# Exits 77 (CTest's skip code here) with a message when clang++-14 or its fuzzer runtime is
# absent, 0 when the run found nothing, non-zero with libFuzzer's report otherwise.
set -euo pipefail
src=$1 out=$2 seconds=$3 target=$4
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [[ -z $cxx ]]; then
  echo "SKIP: no clang++ (install clang-14 and libclang-rt-14-dev: scripts/setup.sh)"
  exit 77
fi
mkdir -p "$out"
rm -rf "$out/corpus" && mkdir -p "$out/corpus"
case $target in
edf)
  sources=("$src/tests/edf/fuzz_edf_parse.cpp")
  for f in parse document experiment write skeleton; do sources+=("$src/edf/src/$f.cpp"); done
  sources+=("$src/analysis/src/metric.cpp")   # the Value key names a metric
  sources+=("$src/reader/src/histogram.cpp")  # which the quantile metrics use
  sources+=("$src/reader/src/input_file.cpp") # read() goes through it
  sources+=("$src/reader/src/output_file.cpp") # and save() through this
  includes=(-I"$src/edf/include" -I"$src/edf/src" -I"$src/analysis/include")
  cp "$src"/tests/edf/corpus/* "$out/corpus/"
  max_len=4096
  ;;
profile)
  sources=("$src/tests/reader/fuzz_profile_parse.cpp" "$src/reader/src/reader.cpp"
    "$src/reader/src/input_file.cpp" "$src/probe_lib/src/crc32.cpp")
  includes=(-I"$src/probe_lib/src")
  IDB_OUT="$out/corpus/generated.idbprof" "$5" >/dev/null 2>&1
  max_len=16384 # the generator's profile is about 3 KB
  ;;
*)
  echo "run_fuzzer.sh: unknown target '$target' (edf or profile)" >&2
  exit 2
  ;;
esac
if ! "$cxx" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  "${includes[@]}" -I"$src/probe_lib/include" -I"$src/reader/include" \
  "${sources[@]}" -o "$out/fuzz_$target" 2>"$out/build.log"; then
  if grep -q 'libclang_rt\.fuzzer' "$out/build.log"; then
    echo "SKIP: clang has no libFuzzer runtime (install libclang-rt-14-dev)"
    cat "$out/build.log"
    exit 77
  fi
  cat "$out/build.log" >&2
  exit 1
fi
"$out/fuzz_$target" -max_total_time="$seconds" -max_len=$max_len -timeout=10 \
  -rss_limit_mb=1024 -print_final_stats=1 "$out/corpus" 2>&1 | tail -n 15
