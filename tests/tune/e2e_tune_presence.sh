#!/usr/bin/env bash
# `idb tune`'s presence check end to end on presence_case.c: when the final selection
# measures over the target although its probes' estimated cost is under it, tune tries the
# selection without the probe that runs most often (update's PROC) and keeps it out when
# the measured slow-down falls; when it does not fall, the probe is put back and the tree
# is built with the final selection again. The build command stands in for a presence cost
# no estimate holds: while update's PROC is in the build (the wrappers' IDB_CANDIDATES
# says so), the run command sleeps a second after the program, which itself takes tens of
# milliseconds. So the decisions do not depend on the machine's speed. Last, a run where no
# probe runs often enough to suspect, and one whose presence try cannot be built.
#   e2e_tune_presence.sh REPO IDB IDB_CC WORK_DIR [EXTRA_FLAGS...]
set -euo pipefail
source "$(dirname "$0")/tune_lib.sh"
tune_setup "$@"
src=$repo/tests/tune/presence_case.c

# slow_while KIND FUNCTION: a build command that marks the tree slow while a probe of KIND
# in FUNCTION is placed.
slow_while() {
  echo "$idbcc gcc $flags -o app $src && if awk -F'\\t' '\$2 == \"$1\" && \$3 == \"placed\" && \$6 == \"$2\" { f = 1 } END { exit !f }' \"\${IDB_CANDIDATES:-/dev/null}\"; then touch slow; else rm -f slow; fi"
}
run='./app 5000 && if [ -e slow ]; then sleep 1; fi'

# update's PROC costs a second while it is there: tune prunes it by measurement.
"$idb" tune --build "$(slow_while PROC update)" --run "$run" --db tune.db --label pres \
  --output app.sel >pres.out 2>&1 || { cat pres.out; fail "idb tune"; }
cat pres.out
grep -Eq '^presence 1: measured [0-9.]+%, over the target of 3\.0%; trying without update\(\.\.\.\) \[presence_case\.c:[0-9]+\] \(15000 activations, estimated at [0-9.]+% of the run\)$' pres.out ||
  fail "update was not tried without"
grep -Eq '^presence 1: [0-9.]+% with it, -?[0-9.]+% without: pruned$' pres.out || fail "update not pruned"
grep -Eq '^exclude all id=[0-9]+  # measured [0-9.]+% with it, -?[0-9.]+% without, update\(\.\.\.\) ' app.sel ||
  { cat app.sel; fail "the selection does not exclude update"; }
grep -Eq '^final selection: [0-9]+ probes; measured slow-down -?[0-9.]+% .*, estimated [0-9.]+% \(pres-final\)$' pres.out ||
  fail "the final line does not give the final run's estimate"
[[ ! -e slow ]] || fail "the tree is not built with the final selection"
"$idb" score pres-final --db tune.db --all --format csv >final.csv
! grep -q 'update' final.csv || { cat final.csv; fail "update still probed in pres-final"; }
grep -q 'update' <("$idb" score pres-1 --db tune.db --all --format csv) || fail "round 1 had no update"
grep -q 'measured' app.edf || { cat app.edf; fail "the .edf's selection lacks the measured prune"; }
IDB_OUT=$work/check.idbprof ./app 5000 >tuned.txt
gcc $flags -o pristine "$src"
./pristine 5000 >pristine.txt
cmp pristine.txt tuned.txt || fail "the tuned build computes something else"

# main's PROC costs the second: leaving update out does not help, so it is put back and
# the tree is built with the final selection again (main's PROC in it: slow).
"$idb" tune --build "$(slow_while PROC main)" --run "$run" --db tune.db --label back \
  --output back.sel >back.out 2>&1 || { cat back.out; fail "idb tune (put back)"; }
cat back.out
grep -Eq '^presence 1: [0-9.]+% with it, [0-9.]+% without: kept \(the slow-down did not fall by half its excess\)$' back.out ||
  fail "update not kept"
! grep -q '^presence 2' back.out || fail "a second probe was tried after one that did not help"
! grep -q 'measured' back.sel || { cat back.sel; fail "the selection prunes by measurement"; }
grep -q '^measure: building with the final selection again... done$' back.out ||
  fail "the tree was not built again"
[[ -e slow ]] || fail "the tree is not built with the final selection"
grep -Eq '^note: measured over the target of 3\.0%' back.out || fail "no note"
grep -Eq '^final selection: [0-9]+ probes; .*, estimated [0-9.]+% \(back-[0-9]+\)$' back.out ||
  fail "the estimate is not the last round's"
# With update called 9,000 times no probe runs often enough to suspect: tune says so and
# tries nothing.
"$idb" tune --build "$(slow_while PROC main)" --run "${run/5000/3000}" --db tune.db --label none \
  --output none.sel >none.out 2>&1 || { cat none.out; fail "idb tune (no suspect)"; }
grep -Eq '^presence: measured [0-9.]+%, over the target of 3\.0%, but no probe left to try without ran 10000 times or more$' none.out ||
  { cat none.out; fail "no word that nothing was tried"; }
! grep -q '^presence 1' none.out || fail "a probe was tried"
# A build that fails in a presence try stops tune with its output and the stage it was in;
# nothing is written.
broken="$(slow_while PROC update) && { test \"\$IDB_INSTRUMENT\" = 0 || test -e slow || { echo 'cannot build without update'; exit 5; }; }"
got=0
"$idb" tune --build "$broken" --run "$run" --db tune.db --label broken --output broken.sel \
  >broken.out 2>&1 || got=$?
[[ $got == 1 ]] || { cat broken.out; fail "a failed presence build: exit status $got, not 1"; }
for p in 'presence 1: the build command failed \(exit status 5\)' 'cannot build without update' \
  'stopped; no file written'; do
  grep -Eq -- "$p" broken.out || { cat broken.out; fail "a failed presence build: no '$p'"; }
done
[[ ! -e broken.sel && ! -e broken.edf ]] || fail "a failed presence try wrote the files"
echo "PASS"
