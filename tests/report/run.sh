#!/usr/bin/env bash
# The report generator's unit tests (experiments/report/): every
# tests/report/test_*.py, run by Python's unittest. Prints one line per
# failure and per skipped test (`  skip  NAME: REASON`), the count of
# skipped tests when there are any, then `report tests: N passed, M
# failed`; exits 1 on a failure.
#   tests/report/run.sh [PYTHON]      (default python3)
set -u
cd "$(dirname "$0")/../.."
PY=${1:-python3}
exec "$PY" - <<'PYEOF'
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.getcwd(), "experiments"))
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "report"))


class Counting(unittest.TestResult):
    """Counts passes; prints one line per failure, error or skipped
    test."""

    def __init__(self):
        super().__init__()
        self.passed = 0

    def addSuccess(self, test):
        self.passed += 1

    def _line(self, kind, test, err):
        message = str(err[1]).strip().splitlines() or [err[0].__name__]
        print("  %s %s: %s" % (kind, test.id(), message[0][:200]))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line("FAIL", test, err)

    def addError(self, test, err):
        super().addError(test, err)
        self._line("ERROR", test, err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print("  skip  %s: %s" % (test.id(), reason))


suite = unittest.defaultTestLoader.discover("tests/report", pattern="test_*.py", top_level_dir="tests/report")
result = Counting()
suite.run(result)
failed = len(result.failures) + len(result.errors)
if result.skipped:
    print("  %d skipped" % len(result.skipped))
print("report tests: %d passed, %d failed" % (result.passed, failed))
sys.exit(1 if failed else 0)
PYEOF
