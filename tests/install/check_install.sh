#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds a user's project against
# it twice: through find_package(idb) and through pkg-config, and runs both.
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

libdir=$(find "$work/prefix" -name idb-probe.pc -printf '%h\n')
export PKG_CONFIG_PATH=$libdir
cc -std=c99 -Wall -Wextra -Werror "$here/consumer/app.c" -o pc_app $(pkg-config --cflags --libs idb-probe) \
  -Wl,-rpath,"$(pkg-config --variable=libdir idb-probe)"
IDB_OUT="$work/pc.idbprof" ./pc_app
test -s pc.idbprof
"$work/prefix/bin/idb" show pc.idbprof | grep -q "main"
echo "install check passed"
