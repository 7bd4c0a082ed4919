#!/usr/bin/env bash
# Runs the host unit-test binaries given as arguments (built from
# tests/unit/test_*.c by `make unit-test`), shows their output and sums
# their "N passed, N failed" summary lines. A binary that is missing,
# crashes, exits non-zero without reporting a failure, or prints no summary
# counts as one failed test; so does one still running after
# UNIT_TIMEOUT seconds (default 600): a hang fails instead of stalling CI.
#   tests/run-unit.sh build/tests/test_machine build/tests/test_router
set -u

if [ $# -eq 0 ]; then
    echo "usage: $0 UNIT_TEST_BINARY... (no test binaries given)" >&2
    echo "unit: 0 passed, 1 failed"
    exit 1
fi

tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
total_pass=0
total_fail=0
for bin in "$@"; do
    name=$(basename "$bin")
    echo "== $name"
    if [ ! -x "$bin" ]; then
        echo "   $bin: not found or not executable"
        total_fail=$((total_fail + 1))
        continue
    fi
    timeout "${UNIT_TIMEOUT:-600}" "$bin" 2>&1 | tee "$tmp"
    rc=${PIPESTATUS[0]}
    summary=$(tail -n 1 "$tmp")
    if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        p=${BASH_REMATCH[1]}
        f=${BASH_REMATCH[2]}
        total_pass=$((total_pass + p))
        total_fail=$((total_fail + f))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            echo "   $name: exited with status $rc although it reported no failure"
            total_fail=$((total_fail + 1))
        elif [ "$rc" -eq 0 ] && [ "$f" -ne 0 ]; then
            echo "   $name: reported $f failed but exited with status 0"
        fi
    else
        if [ "$rc" -gt 128 ]; then
            echo "   $name: killed by signal $((rc - 128)) before its summary line"
        else
            echo "   $name: exited with status $rc and printed no summary line"
        fi
        total_fail=$((total_fail + 1))
    fi
done

echo "unit: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
