#!/usr/bin/env bash
# make test: host unit tests, the router and relay fuzzers' replays and
# short campaigns, the host tools, the report generator's unit tests, the
# sweep tool and the CI slice of the reproductions (tests/sweep), the
# tutorial done as written (docs/tutorial.md), the QEMU boot-and-collect
# suite, then MPI programs against the host's Open MPI (tests/mpi).
# Each suite's whole output goes to $BUILD/test-logs/<suite>.log. The
# console gets one line per suite with its counts (on a terminal, counts
# that move while it runs), then each failed test by name with its first
# error line, the logs' paths, and last "N passed, N failed". V=1 also
# shows every suite's output as it comes.
# Exit status 0 only if every suite printed its "name: N passed, N failed"
# line, reported no failure and exited 0.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
LOGS=$BUILD/test-logs
mkdir -p "$LOGS" || exit 1
total_p=0; total_f=0; rc=0
logs=()       # the suites' log files, in the order they ran
failures=()   # one a failed test: "suite: name", a tab, its first error line

verbose() { [ "${V:-0}" = 1 ]; }
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# The tests LOG shows passed and failed so far: "  ok    name" and
# "  FAIL  name" (tests/unit/check.h writes one space fewer).
moving_counts() {
  printf '%d passed, %d failed' "$(grep -c -E '^  ok +[^ ]' "$1" 2>/dev/null)" \
                                "$(grep -c -E '^  FAIL +[^ ]' "$1" 2>/dev/null)"
}

# Rewrites "TITLE: N passed, N failed (m:ss)" in place every second, read
# from LOG, until killed or until the shell that started it is gone.
show_progress() {
  local title=$1 log=$2 t0=$SECONDS
  while kill -0 $$ 2>/dev/null; do
    printf '\r\033[K%s: %s (%s)' "$title" "$(moving_counts "$log")" "$(mmss $((SECONDS - t0)))"
    sleep 1
  done
}

# The failed tests of a suite's LOG, one a line: name, a tab, its first
# error line. A unit test prints its errors before its "  FAIL name" line,
# under its binary's "== test_x" (tests/run-unit.sh), and a binary that
# crashed or hung is named by run-unit.sh in a line of its own; the other
# suites print "  FAIL  name", then its output's tail as "      | ...", of
# which the failed expectation ("    expected: ...", and the line of detail
# expect() writes under it, joined by a tab) is the error.
failed_tests() {
  awk -v unit="$([ "$2" = unit ] && echo 1)" '
    function shorten(s) { sub(/^ +/, "", s); return length(s) > 240 ? substr(s, 1, 237) "..." : s }
    function emit(n) { print n "\t" (err != "" ? err (detail != "" ? "\t" detail : "") : (first != "" ? first : "(no message; see the log)")) }
    function forget() { err = ""; first = ""; detail = ""; after_err = 0 }
    unit && /^== [^ ]+$/ { bin = $2; forget(); next }
    unit && /^  ok +[^ ]/ { forget(); next }
    unit && /^  FAIL +[^ ]/ { emit(bin " " $2); forget(); next }
    unit && /^   [^ ]+: (not found|exited with status .* (although|and printed)|killed by signal)/ {
      err = shorten($0); sub(/^[^ ]+: /, "", err); emit(bin); forget(); next }
    unit && /^    [^ ]/ { if (err == "") err = shorten($0); next }
    unit && NF { if (first == "") first = shorten($0); next }
    !unit && /^  FAIL +[^ ]/ { if (name != "") emit(name); name = $2; forget(); next }
    !unit && name != "" && /^      \| / {
      l = substr($0, 9)
      if (first == "" && l ~ /[^ ]/) first = shorten(l)
      if (after_err && l ~ /^    [^ ]/) detail = shorten(l)
      after_err = 0
      if (err == "" && l ~ /^ *expected: /) { err = shorten(l); after_err = 1 }
      next }
    !unit && name != "" { emit(name); name = "" }
    END { if (!unit && name != "") emit(name) }
  ' "$1"
}

# "; router: N executions in S s, ..." from a fuzz log's campaign lines
# (tests/fuzz/run.sh: "  ok    router_campaign_60s (N executions, ...").
campaign_note() {
  sed -n 's/^  ok  *\([a-z]*\)_campaign_\([0-9]*\)s (\([0-9]*\) executions.*/\1: \3 executions in \2 s/p' "$1" |
    paste -s -d, - | sed 's/,/, /g; s/^./; &/'
}

# Adds a suite's counts (the last "name: N passed, N failed" line of its
# LOG; the name one or more lower-case words) to the totals and its failed
# tests to failures[]; prints its line.
tally() {
  local key=$1 title=$2 log=$3 status=$4 secs=$5 line p f entry
  line=$(grep -E '^[a-z][a-z ]*: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  if [ -z "$line" ]; then
    total_f=$((total_f + 1)); rc=1
    failures+=("$key: the suite"$'\t'"exited with status $status and printed no \"name: N passed, N failed\" line")
    echo "$title: no counts; exited with status $status ($(mmss "$secs"))"
    return
  fi
  read -r p f <<< "$(sed -E 's/^[a-z ]*: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/' <<< "$line")"
  total_p=$((total_p + p)); total_f=$((total_f + f))
  [ "$status" = 0 ] || rc=1
  while IFS= read -r entry; do failures+=("$key: $entry"); done < <(failed_tests "$log" "$key")
  [ "$status" = 0 ] || [ "$f" != 0 ] ||
    failures+=("$key: the suite"$'\t'"exited with status $status although it reported no failure")
  echo "$title: $p passed$([ "$f" = 0 ] || echo ", $f failed")$(campaign_note "$log") ($(mmss "$secs"))"
}

# run_suite KEY TITLE COMMAND..: the suite's output to $LOGS/KEY.log (and
# the console with V=1), then its line.
run_suite() {
  local key=$1 title=$2; shift 2
  local log=$LOGS/$key.log t0=$SECONDS status progress=
  : > "$log"; logs+=("${log##*/}")
  if verbose; then
    echo "== $title"
    "$@" 2>&1 | tee "$log"; status=${PIPESTATUS[0]}
  else
    if [ -t 1 ]; then show_progress "$title" "$log" & progress=$!; fi
    { "$@" > "$log" 2>&1; } 2>/dev/null; status=$?   # (the shell's own "Killed": status 137 says it)
    if [ -n "$progress" ]; then kill "$progress"; wait "$progress" 2>/dev/null; printf '\r\033[K'; fi
  fi
  tally "$key" "$title" "$log" "$status" $((SECONDS - t0))
}

# Each failed test's name, and under it its error line(s).
report_failures() {
  local f
  [ ${#failures[@]} = 0 ] && return
  echo "Failed:"
  for f in "${failures[@]}"; do
    echo "  ${f%%$'\t'*}"
    printf '      %s\n' "${f#*$'\t'}" | sed 's/\t/\n      /'
  done
}

run_suite unit "unit tests" tests/run-unit.sh $UNIT_TESTS
run_suite fuzz "fuzzers" tests/fuzz/run.sh
run_suite host "host tool tests" tests/host/run.sh
run_suite report "report generator" tests/report/run.sh
run_suite sweep "sweep and experiment tools" tests/sweep/run.sh
run_suite tutorial "the tutorial, as written" tests/tutorial/run.sh
run_suite qemu "QEMU tests" tests/qemu/run.sh
run_suite mpi "MPI programs" tests/mpi/run.sh
report_failures
echo "Whole output in $LOGS/: ${logs[*]}"
echo "$total_p passed, $total_f failed"
[ $total_f = 0 ] || rc=1
exit $rc
