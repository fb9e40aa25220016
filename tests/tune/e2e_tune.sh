#!/usr/bin/env bash
# `idb tune` end to end on tune_case.c: round 1 (the default selection) finds digits
# throttled and the header's kernel inside step's own time; the final selection prunes
# digits and grows a CALL probe around smooth, whose node then holds the most time of its
# own; the files tune writes run (`idb edf`); the tuned program computes what the pristine
# one does. Then bad input: an output it cannot write, a --from selection with an error, a
# label already taken, a build or run that fails (their output and round shown), a build
# or run that does not end within --timeout, a TERM while a run goes on, a build that
# compiles nothing through the wrappers. Timings are reported, never asserted.
#   e2e_tune.sh REPO IDB IDB_CC WORK_DIR [EXTRA_FLAGS...]
set -euo pipefail
source "$(dirname "$0")/tune_lib.sh"
tune_setup "$@"
src=$repo/tests/tune/tune_case.c
# expect_failure NAME STATUS PATTERN... -- ARGS: idb tune ARGS exits with STATUS and prints
# every PATTERN (grep -E).
expect_failure() {
  local name=$1 status=$2
  shift 2
  local patterns=()
  while [[ $1 != -- ]]; do
    patterns+=("$1")
    shift
  done
  shift
  local got=0
  "$idb" tune "$@" >"$name.out" 2>&1 || got=$?
  [[ $got == "$status" ]] || { cat "$name.out"; fail "$name: exit status $got, not $status"; }
  for p in "${patterns[@]}"; do
    grep -Eq -- "$p" "$name.out" || { cat "$name.out"; fail "$name: no '$p'"; }
  done
  echo "ok: $name"
}

build="$idbcc gcc $flags -o app $src"
"$idb" tune --build "$build" --run "./app 200000 40" --repeat 2 --db tune.db --output app.sel >tune.out 2>&1 ||
  { cat tune.out; fail "idb tune"; }
cat tune.out

# Round 1: the runtime throttled digits' probes.
"$idb" score tune-1 --db tune.db --all --format csv >score1.csv
grep -Eq '^[0-9]+,digits\(\.\.\.\) \[tune_case\.c:[0-9]+\],.*,throttled$' score1.csv ||
  { cat score1.csv; fail "digits not throttled in round 1"; }
digits=$(grep -E '^[0-9]+,digits\(' score1.csv | cut -d, -f1)

# The selection prunes digits and grows the CALL around the kernel.
grep -q "^exclude all id=$digits  # round 1, digits(...)" app.sel || { cat app.sel; fail "digits not pruned"; }
grep -Eq '^include call id=[0-9]+  # round 1, smooth\(\.\.\.\) in step ' app.sel ||
  { cat app.sel; fail "no CALL probe grown around smooth"; }
grep -q '^default$' app.sel || fail "the selection does not start from the default"

# The last round: no probe in digits; smooth's call holds the most time of its own.
last=$(sed -n 's/^wrote app.sel and app.edf (runs tune-1..\(tune-[0-9]*\) and tune-final in .*/\1/p' tune.out)
[[ -n $last ]] || fail "no 'wrote' line"
"$idb" score "$last" --db tune.db --all --format csv >last.csv
! grep -q 'digits' last.csv || { cat last.csv; fail "digits still probed in $last"; }
grep -Eq "^[0-9]+ +$last +.*  smooth\(\.\.\.\) in step \[tune_case\.c:[0-9]+\] \([0-9.]+%\)$" tune.out ||
  fail "smooth's call is not the node with the most time of its own in $last"
grep -Eq '^final selection: [0-9]+ probes; measured slow-down -?[0-9.]+% \([0-9.]+ s against [0-9.]+ s without probes, built and run one after the other, best of 2\), estimated [0-9.]+% \(tune-[0-9]+\)$' tune.out ||
  fail "no measured slow-down"

# The experiment it wrote runs, over the rounds' runs.
"$idb" edf app.edf >edf.out 2>&1 || { cat edf.out; fail "idb edf app.edf"; }
grep -q "$last" edf.out || { cat edf.out; fail "the .edf does not cover $last"; }

# The tuned build computes what the program computes without probes.
IDB_OUT=$work/check.idbprof ./app 200000 40 >tuned.txt
gcc $flags -o pristine "$src"
./pristine 200000 40 >pristine.txt
cmp pristine.txt tuned.txt || fail "the tuned build computes something else"

# --rounds 1: round 1 only prunes, and round 2 measures its prunes. Every other run sleeps
# a second first: the repeated runs disagree, and tune says its measurements are not reliable.
"$idb" tune --build "$build" --run "if [ -e slow ]; then rm slow; else touch slow; sleep 1; fi; ./app 100000 10" \
  --repeat 2 --rounds 1 --db tune.db --label one --output one.sel >one.out 2>&1 ||
  { cat one.out; fail "idb tune --rounds 1"; }
grep -Eq '^round 0: running\.\.\. [0-9.]+ s [0-9.]+ s \(spread [0-9.]+%, over twice the target\)$' one.out ||
  { cat one.out; fail "no spread shown for round 0's disagreeing runs"; }
grep -q "^note: the same build's repeated runs spread up to [0-9.]*% (" one.out ||
  { cat one.out; fail "no note that the measurements are not reliable"; }
# (round 2 may find one more probe to prune when the machine is busy: it is kept, unmeasured)
grep -Eq '^round 2: .*; [0-9]+ to prune, 0 to grow into$' one.out || { cat one.out; fail "--rounds 1: no measuring round 2"; }
grep -q "^exclude all id=$digits " one.sel || { cat one.sel; fail "--rounds 1: digits not pruned"; }
! grep -q '^include ' one.sel || { cat one.sel; fail "--rounds 1 grew"; }
! grep -q '^round 3' one.out || fail "--rounds 1 ran a third round"

# Bad input, each refused with its reason; nothing is written.
expect_failure unwritable 1 "cannot write $work/no/such/x.sel" -- \
  --build "$build" --run ./app --db tune.db --output "$work/no/such/x.sel"
! grep -q '^round 0' unwritable.out || fail "unwritable: a round ran"
printf 'default\ninclude loops function=step\n' >bad.sel
expect_failure bad-from 1 "bad.sel:2:9: unknown kind 'loops'" -- \
  --build "$build" --run ./app --db tune.db --output x.sel --from bad.sel
expect_failure label-taken 1 "already has runs labelled tune-" -- \
  --build "$build" --run ./app --db tune.db --output x.sel --label tune
expect_failure bad-label 2 "--label '-x': a label cannot start with '-'" -- \
  --build "$build" --run ./app --db tune.db --output x.sel --label -x
expect_failure build-fails 1 'round 1: the build command failed \(exit status 4\)' \
  'the instrumented build is broken' 'stopped; no file written' -- \
  --build "test \"\$IDB_INSTRUMENT\" = 0 || { echo 'the instrumented build is broken'; exit 4; }; $build" \
  --run "./app 2000 2" --db tune.db --output x.sel
expect_failure run-fails 1 'round 0: the run command failed \(exit status 3\)' 'no input deck' -- \
  --build "$build" --run "echo 'no input deck'; exit 3" --db tune.db --output x.sel
# --timeout ends a command that does not end, with everything it started; a TERM sent to
# tune reaches the command's group too.
running() { # running TEXT: a process whose command line starts with TEXT exists
  local p
  for p in /proc/[0-9]*; do
    [[ $(tr '\0' ' ' <"$p/cmdline" 2>/dev/null) == "$1"* ]] && return 0
  done
  return 1
}
gone() { # gone TEXT: no such process within 2 s (a killed one may take a moment)
  local _
  for _ in $(seq 20); do
    running "$1" || return 0
    sleep 0.1
  done
  return 1
}
# The run's second sleep ignores TERM: the KILL after it ends it too.
expect_failure run-timeout 1 'round 0: the run command took longer than 1 s \(--timeout\), and was ended' \
  'still running' 'stopped; no file written' -- \
  --build "$build" --run "echo 'still running'; (trap '' TERM; exec sleep 64) & sleep 61; echo done" \
  --timeout 1 --db tune.db --output x.sel
gone 'sleep 61' || fail "run-timeout: the run's sleep outlived it"
gone 'sleep 64' || fail "run-timeout: the sleep that ignores TERM outlived it"
expect_failure build-timeout 1 'round 1: the build command took longer than 2 s \(--timeout\), and was ended' \
  'waiting for ever' -- \
  --build "test \"\$IDB_INSTRUMENT\" = 0 || { echo 'waiting for ever'; sleep 62; }; $build" \
  --run "./app 2000 2" --timeout 2 --db tune.db --output x.sel
gone 'sleep 62' || fail "build-timeout: the build's sleep outlived it"
expect_failure bad-timeout 2 "--timeout takes seconds above 0, at most 10000000, not '0'" -- \
  --build "$build" --run ./app --db tune.db --output x.sel --timeout 0
"$idb" tune --build "$build" --run "sleep 63" --timeout 600 --db tune.db --output x.sel >term.out 2>&1 &
tune_pid=$!
for _ in $(seq 100); do running 'sleep 63' && break; sleep 0.1; done
running 'sleep 63' || { cat term.out; fail "term: the run never started"; }
kill -TERM $tune_pid
status=0
wait $tune_pid || status=$?
[[ $status == 130 ]] || { cat term.out; fail "term: exit status $status, not 130"; }
grep -q 'interrupted; no file written' term.out || { cat term.out; fail "term: not reported as interrupted"; }
gone 'sleep 63' || fail "term: the run's sleep outlived tune"
echo "ok: timeouts"
expect_failure not-through-wrappers 1 'round 1: the build compiled no source through the compiler wrappers' -- \
  --build "gcc $flags -o app $src" --run "./app 2000 2" --db tune.db --output x.sel
[[ ! -e x.sel && ! -e x.edf ]] || fail "a failed tune wrote its files"
echo "PASS"
