"""The error summary (experiments/report/errors.py) by hand, and against
experiments/ratios.awk, the same definition for the calibration."""

import os
import random
import shutil
import subprocess
import unittest

from report import errors

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Summary(unittest.TestCase):
    def test_four_ratios_by_hand(self):
        # r = 1.1, 0.8, 1, 1.25: |r - 1| = 0.1, 0.2, 0, 0.25; median 0.15;
        # geometric mean (1.1)^(1/4); within 15 %: 1.1 and 1
        s = errors.ErrorSummary([(1, 1.1), (1, 0.8), (2, 2), (4, 5)])
        self.assertEqual(s.fields(), ("4", "0.150", "1.024", "2"))
        self.assertEqual(s.row("x"), "| x | 4 | 0.150 | 1.024 | 2 of 4 |")

    def test_no_cell(self):
        self.assertEqual(errors.ErrorSummary([]).fields(), ("0", "-", "-", "0"))
        self.assertEqual(errors.ErrorSummary([(0, 1), (1, -1)]).n, 0)

    def test_median_odd_and_even(self):
        self.assertEqual(errors.median([3, 1, 2]), 2)
        self.assertEqual(errors.median([4, 1, 3, 2]), 2.5)

    @unittest.skipUnless(shutil.which("awk"), "no awk")
    def test_same_as_ratios_awk(self):
        rnd = random.Random(7)
        for _ in range(20):
            pairs = [(round(rnd.uniform(0.001, 10), 4), round(rnd.uniform(0.001, 10), 4)) for _ in range(rnd.randint(1, 9))]
            text = "".join("%s %s\n" % p for p in pairs)
            awk = subprocess.run(["awk", "-f", os.path.join(ROOT, "experiments", "ratios.awk")], input=text,
                                 capture_output=True, text=True).stdout.split()
            self.assertEqual(list(errors.ErrorSummary(pairs).fields()), awk, text)
