#!/usr/bin/env bash
# The MPI examples as written (no IDB), at small sizes under real mpirun: each answer must
# not depend on what the run varies. smvp: 1 rank and 4 ranks give the same eigenvalue;
# balance: the three distributions give the same sum; pic: the pow and the multiply
# kernels give the same energies. The instrumented builds are checked against these
# same answers elsewhere.
#   pristine_examples.sh SMVP BALANCE PIC
set -euo pipefail
smvp=$1 balance=$2 pic=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI's own allocations outlive MPI_Finalize: LeakSanitizer would fail the examples in
# the sanitizer build for memory that is not theirs.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
mpi() { mpirun --oversubscribe -np "$@"; }

answer() { sed -n 's/.*\(lambda\|sum\|kinetic\) /\1 /p'; }

fail=0
check_same() { # WHAT FIRST SECOND
  if [[ -z $2 || $2 != "$3" ]]; then
    echo "FAIL: $1: '$2' vs '$3'" >&2
    fail=1
  else
    echo "ok: $1: $2"
  fi
}

one=$(mpi 1 "$smvp" 60 40 10 | answer)
four=$(mpi 4 "$smvp" 60 40 10 | answer)
check_same "smvp on 1 and 4 ranks" "$one" "$four"

equal=$(mpi 4 "$balance" equal 200 200 | answer)
master=$(mpi 4 "$balance" master 200 200 | answer)
skewed=$(mpi 4 "$balance" skewed 200 200 | answer)
check_same "balance equal and master" "$equal" "$master"
check_same "balance equal and skewed" "$equal" "$skewed"

mul=$(mpi 4 "$pic" --particles 20000 --steps 10 --kernel mul | answer)
pow=$(mpi 4 "$pic" --particles 20000 --steps 10 --kernel pow | answer)
check_same "pic mul and pow kernels" "$mul" "$pow"

status=0
mpi 2 "$balance" sideways >/dev/null 2>&1 || status=$?
check_same "balance refuses an unknown mode with exit status 2" 2 "$status"
exit $fail
