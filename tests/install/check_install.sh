#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds a user's project against
# it twice: through find_package(idb) and through pkg-config, and runs both; with MPI,
# the same for an MPI program through idb::mpi and idb-mpi under mpirun; a program built
# through the installed one-word wrapper idb-gcc; and the two CMake routes of
# docs/instrumenter.md on a project using find_package(MPI) and MPI::MPI_C (the wrapper as
# the compiler, and as compiler and linker launcher over a plain gcc), each run on 4 ranks
# into one merged profile with the COMM nodes of every rank.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
here=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
cd "$work"

cmake -S "$here/consumer" -B consumer -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build consumer >/dev/null
IDB_OUT="$work/c.idbprof" consumer/consumer_c
IDB_OUT="$work/cxx.idbprof" consumer/consumer_cxx
test -s c.idbprof && test -s cxx.idbprof
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [[ -x consumer/consumer_mpi ]]; then
  IDB_OUT="$work/mpi.idbprof" mpirun -np 2 --oversubscribe consumer/consumer_mpi
  "$work/prefix/bin/idb" show mpi.idbprof | grep -q "MPI_Allreduce"
fi

libdir=$(find "$work/prefix" -name idb-probe.pc -printf '%h\n')
export PKG_CONFIG_PATH=$libdir
cc -std=c99 -Wall -Wextra -Werror "$here/consumer/app.c" -o pc_app $(pkg-config --cflags --libs idb-probe) \
  -Wl,-rpath,"$(pkg-config --variable=libdir idb-probe)"
IDB_OUT="$work/pc.idbprof" ./pc_app
test -s pc.idbprof
if [[ -x consumer/consumer_mpi ]]; then
  mpicc -std=c99 -Wall -Werror "$here/consumer/app_mpi.c" -o pc_mpi $(pkg-config --cflags --libs idb-mpi) \
    -Wl,-rpath,"$(pkg-config --variable=libdir idb-mpi)"
  IDB_OUT="$work/pc_mpi.idbprof" mpirun -np 2 --oversubscribe ./pc_mpi
  "$work/prefix/bin/idb" show pc_mpi.idbprof | grep -q "ranks 2"
fi
"$work/prefix/bin/idb" show pc.idbprof | grep -q "main"
# The installed one-word wrapper, as ./configure CC=idb-gcc would call it, finds the
# installed runtime beside itself. (Built only with the instrumenter.)
if [[ -x $work/prefix/bin/idb-cc ]]; then
  for name in idb-gcc idb-g++ idb-clang idb-clang++ idb-mpicc idb-mpicxx; do
    [[ -L $work/prefix/bin/$name ]] || { echo "missing $name"; exit 1; }
  done
  "$work/prefix/bin/idb-gcc" -std=c99 -O1 "$here/consumer/app.c" -o word_app
  IDB_OUT="$work/word.idbprof" ./word_app
  "$work/prefix/bin/idb" show word.idbprof | grep -q "main"
  if command -v mpicc >/dev/null; then
    ring=$here/../instrumenter/projects/mpiproj
    cmake -S "$ring" -B ring_compiler -G Ninja -DCMAKE_C_COMPILER="$work/prefix/bin/idb-gcc" >/dev/null
    cmake -S "$ring" -B ring_launcher -G Ninja -DCMAKE_C_COMPILER=gcc \
      -DCMAKE_C_COMPILER_LAUNCHER="$work/prefix/bin/idb-cc" \
      -DCMAKE_C_LINKER_LAUNCHER="$work/prefix/bin/idb-cc" >/dev/null
    for route in compiler launcher; do
      cmake --build ring_$route >/dev/null
      rm -f ring_$route-*.idbprof
      IDB_OUT="$work/ring_$route-%r.idbprof" mpirun -np 4 --oversubscribe ring_$route/ring >/dev/null
      profiles=(ring_$route-*.idbprof)
      [[ ${#profiles[@]} == 1 ]] || { echo "$route: expected one merged profile: ${profiles[*]}"; exit 1; }
      "$work/prefix/bin/idb" show "${profiles[0]}" >ring_$route.txt
      grep -q "ranks 4" ring_$route.txt || { echo "$route: not 4 ranks"; cat ring_$route.txt; exit 1; }
      for rank in 0 1 2 3; do
        awk -v r="rank $rank " 'index($0, "CFH") && index($0, r) {on = 1; next} on && /^$/ {exit} on' \
          ring_$route.txt | grep -q "MPI_Send(" || { echo "$route: rank $rank has no MPI_Send node"; cat ring_$route.txt; exit 1; }
      done
    done
  fi
fi
echo "install check passed"
