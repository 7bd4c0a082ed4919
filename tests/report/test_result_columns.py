"""results.csv's columns are the ones docs/results.md lists ("The columns
of results.csv", from experiments/report/prose.py), in order: the header
experiments/sweep.sh writes (COLUMNS_CSV, experiments/sweep-cell.sh),
every stored results.csv's, the tests' own rows', and every column the
report requires."""

import glob
import os
import re
import unittest

import helpers
from report import csvio, sweep_report

ROOT = os.getcwd()


def documented():
    """The code spans of the paragraph that lists the columns, each
    split at its commas."""
    with open(os.path.join(ROOT, "docs", "results.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("The columns of results.csv:")
    para = text[start:text.index("\n\n", start)]
    return [c.strip() for span in re.findall(r"`([^`]*)`", para) for c in span.split(",")]


def sweep_header():
    with open(os.path.join(ROOT, "experiments", "sweep-cell.sh"), encoding="utf-8") as f:
        return re.search(r'^COLUMNS_CSV="([^"]*)"', f.read(), re.M).group(1).split(",")


class ResultColumns(unittest.TestCase):
    def test_sweep_writes_the_documented_columns(self):
        self.assertEqual(sweep_header(), documented())

    def test_stored_results_have_the_documented_header(self):
        for path in glob.glob(os.path.join(ROOT, "results", "*", "results.csv")):
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.readline().rstrip("\n").split(","), documented(), path)

    def test_the_tests_rows_have_the_documented_columns(self):
        self.assertEqual(list(helpers.COLUMNS), documented())

    def test_the_report_requires_documented_columns(self):
        for c in csvio.RESULT_COLUMNS + sweep_report.SWEEP_COLUMNS:
            self.assertIn(c, documented())
