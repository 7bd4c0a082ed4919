#!/usr/bin/env bash
# make test: host unit tests, the router and relay fuzzers' replays and short campaigns, the sweep tool and the CI slice of the
# reproductions (tests/sweep), then the QEMU boot-and-collect suite.
set -u
cd "$(dirname "$0")/.."
total_p=0; total_f=0; rc=0
summ() { local line; line=$(grep -E '^[a-z]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
  if [ -z "$line" ]; then total_f=$((total_f + 1)); rc=1; return; fi
  total_p=$((total_p + $(echo "$line" | awk '{print $2}'))); total_f=$((total_f + $(echo "$line" | awk '{print $4}'))); }
log=$(mktemp)
echo "== host unit tests"
tests/run-unit.sh $UNIT_TESTS 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" = 0 ] || rc=1; summ "$log"
echo "== router and relay fuzzers (replay, then a short campaign of each)"
tests/fuzz/run.sh 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" = 0 ] || rc=1; summ "$log"
echo "== host tool tests"
tests/host/run.sh 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" = 0 ] || rc=1; summ "$log"
echo "== sweep and experiment tools"
tests/sweep/run.sh 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" = 0 ] || rc=1; summ "$log"
echo "== QEMU tests"
tests/qemu/run.sh 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" = 0 ] || rc=1; summ "$log"
rm -f "$log"
echo "$total_p passed, $total_f failed"
[ $total_f = 0 ] || rc=1
exit $rc
