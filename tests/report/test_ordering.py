"""Version order (experiments/report/ordering.py), as GNU sort -V."""

import random
import shutil
import subprocess
import unittest

from report.ordering import version_compare, version_key, sorted_lines, by_nodes


class Version(unittest.TestCase):
    def test_shapes(self):
        self.assertLess(version_compare(" 5x5x5 ", " 5x5 "), 0)   # a letter before a space
        self.assertLess(version_compare("9x9", "11x11"), 0)      # digit runs by value
        self.assertLess(version_compare("3x3x3", "5x5"), 0)
        self.assertEqual(version_compare("007", "7"), 0)
        self.assertLess(version_compare("", "a"), 0)

    def test_sort(self):
        names = [" 11x11 ", " 5x5 ", " 3x3x3 ", " 9x9 ", " 5x5x5 ", " 7x7 "]
        self.assertEqual(sorted(names, key=version_key),
                         [" 3x3x3 ", " 5x5x5 ", " 5x5 ", " 7x7 ", " 9x9 ", " 11x11 "])

    @unittest.skipUnless(shutil.which("sort"), "no sort")
    def test_same_as_sort_v(self):
        rnd = random.Random(11)
        names = ["%s%d%s" % (rnd.choice(["", "x", " ", "a-"]), rnd.randint(0, 120), rnd.choice(["", "x3", " ", "b"]))
                 for _ in range(60)]
        names = list(dict.fromkeys(names))
        out = subprocess.run(["sort", "-V"], input="\n".join(names) + "\n", capture_output=True, text=True,
                             env={"LC_ALL": "C"}).stdout.splitlines()
        mine = sorted(names, key=lambda s: (version_key(s), s.encode()))
        self.assertEqual(mine, out)

    def test_lines_by_key_then_bytes(self):
        self.assertEqual(sorted_lines([(1, "| b |"), (1, "| a |"), (0, "| c |"), (1, "| B |")]),
                         ["| c |", "| B |", "| a |", "| b |"])
        self.assertEqual(sorted(["8x16", "4x4", "32x16", "8x8"], key=by_nodes), ["4x4", "8x8", "8x16", "32x16"])
