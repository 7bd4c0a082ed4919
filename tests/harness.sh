# shellcheck shell=bash
# The test suites' harness, sourced by tests/{host,mpi,qemu,sweep}/run.sh
# once TMP is set. Each test runs in a subshell; a failing `expect` prints
# why and fails it. ONLY=regex runs only the tests whose name matches.
# Lines a passing test prints as "info: ..." are shown under its name; a
# failing test's last 25 lines of output under its FAIL line.
# tests/run-all.sh counts the "  ok    name" and "  FAIL  name" lines and
# reads the suite's last "SUITE: N passed, N failed".
pass=0; fail=0; failed=()
expect() { if ! eval "$1"; then echo "    expected: $1" >&2; [ $# -gt 1 ] && echo "    $2" >&2; exit 1; fi; }
t() {   # name command args..
  local name=$1; shift
  [ -n "${ONLY:-}" ] && ! [[ $name =~ $ONLY ]] && return
  local t0=$SECONDS
  if ( set -u; "$@" ) > "$TMP/out" 2>&1; then
    pass=$((pass + 1)); echo "  ok    $name ($((SECONDS - t0)) s)"; sed -n 's/^info: /        /p' "$TMP/out"
  else
    fail=$((fail + 1)); failed+=("$name"); echo "  FAIL  $name ($((SECONDS - t0)) s)"; sed 's/^/      | /' "$TMP/out" | tail -25
  fi
}
