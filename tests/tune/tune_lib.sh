# What the `idb tune` end-to-end scripts share, sourced by each:
#   tune_setup REPO IDB IDB_CC WORK_DIR [EXTRA_FLAGS...]
# sets repo, idb, idbcc, work and flags (-O2 and the extra flags), empties WORK_DIR and
# enters it, keeps the user's selection settings out, and keeps tune's temporary folders
# in WORK_DIR. fail MESSAGE...: prints FAIL: MESSAGE and exits 1.
tune_setup() {
  repo=$1 idb=$2 idbcc=$3 work=$4
  shift 4
  flags="-O2 $*"
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work"
  unset IDB_SELECTION IDB_SELECTION_FILE IDB_EDF IDB_THROTTLE
  export TMPDIR=$work
}

fail() {
  echo "FAIL: $*"
  exit 1
}
