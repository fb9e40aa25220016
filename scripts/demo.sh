#!/usr/bin/env bash
# The demo: sets up, builds (release preset), runs the Jacobi example with hand-placed
# probes on two threads, and prints its profile as a tree.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "setup"
bash scripts/setup.sh
step "configure and build (build/release)"
cmake --preset release >/dev/null
cmake --build --preset release

out=build/demo
mkdir -p "$out"
rm -f "$out"/*.idbprof
step "run examples/jacobi (400x400 plate, 200 iterations, 2 threads)"
IDB_OUT="$out/jacobi.idbprof" IDB_ATTR_mesh=400x400 build/release/examples/jacobi 400 200 2
step "the profile: build/release/cli/idb show $out/jacobi.idbprof"
build/release/cli/idb show "$out/jacobi.idbprof"
printf '\nThe profile is %s (%s bytes); docs/profile-format.md describes it.\n' \
  "$out/jacobi.idbprof" "$(stat -c %s "$out/jacobi.idbprof")"
