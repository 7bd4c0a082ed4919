"""The command line (experiments/report/cli.py): bad use is refused with
exit 2, naming what was wrong and what is accepted."""

import contextlib
import io
import os
import shutil
import unittest

from helpers import ScratchTest
from report import cli


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(argv)
    return rc, out.getvalue(), err.getvalue()


class Options(ScratchTest):
    def test_bad_options(self):
        rc, _, err = run(["--nope"])
        self.assertEqual(rc, 2)
        self.assertIn("report: unknown option '--nope'; accepted: --results DIR, --out FILE.md, --img DIR", err)
        rc, _, err = run(["stray"])
        self.assertEqual((rc, "unknown argument 'stray' (it takes options only" in err), (2, True))
        rc, _, err = run(["--out"])
        self.assertEqual((rc, err), (2, "report: --out needs a value (FILE.md)\n"))
        rc, _, err = run(["--metric", "steps"])
        self.assertEqual(rc, 2)
        self.assertIn("--metric applies to a sweep's report only", err)

    def test_values_either_way(self):
        self.assertEqual(cli.parse(["--out=x.md", "--img", "d"]), {"--out": "x.md", "--img": "d"})

    def test_help(self):
        rc, out, _ = run(["--help"])
        self.assertEqual(rc, 0)
        self.assertIn("python3 experiments/report --sweep NAME|DIR", out)

    @unittest.skipUnless(shutil.which("gnuplot") and shutil.which("jq"), "no gnuplot or jq")
    def test_a_sweep_that_is_not_there(self):
        rc, _, err = run(["--sweep", "nosuch", "--results", self.path("results")])
        self.assertEqual(rc, 2)
        self.assertIn("no sweep 'nosuch'", err)
        self.assertIn("accepted:", err)

    @unittest.skipUnless(shutil.which("gnuplot") and shutil.which("jq"), "no gnuplot or jq")
    def test_no_results_directory(self):
        rc, _, err = run(["--results", self.path("none"), "--out", self.path("r.md"), "--img", self.path("img")])
        self.assertEqual(rc, 2)
        self.assertIn("report: no results directory %s" % self.path("none"), err)
        self.assertFalse(os.path.exists(self.path("r.md")))

    @unittest.skipUnless(shutil.which("gnuplot") and shutil.which("jq"), "no gnuplot or jq")
    def test_no_results_not_run_yet(self):
        os.makedirs(self.path("none"))
        rc, _, err = run(["--results", self.path("none"), "--out", self.path("r.md"), "--img", self.path("img")])
        self.assertEqual(rc, 0, err)
        with open(self.path("r.md")) as f:
            text = f.read()
        for sweep in ("thakur", "torus000", "flood004", "survey002", "banyan004", "families", "hwcoll002", "pathmc002",
                      "adaptive"):
            self.assertIn("Not run yet: `make sweep SWEEP=%s`." % sweep, text)
        self.assertIn("Emulated times: not run yet, `make sweep SWEEP=tseng001`.", text)
        self.assertFalse(os.path.exists(self.path("r.md.tmp")))
