"""The command line (experiments/report/cli.py): bad use is refused with
exit 2, naming what was wrong and what is accepted; a stop signal leaves
no temporary file."""

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import time
import unittest

from helpers import ScratchTest, row, write_csv
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

    def test_check_def_goes_alone(self):
        rc, _, err = run(["--check-def", "x.sweep"])
        self.assertEqual(rc, 2)
        self.assertIn("--check-def FILE.sweep and --columns COLUMN,COLUMN.. go together", err)
        rc, _, err = run(["--check-def", "x.sweep", "--columns", "app", "--sweep", "s"])
        self.assertEqual(rc, 2)
        self.assertIn("with no other option (not --sweep)", err)
        rc, _, err = run(["--check-def", self.path("none.sweep"), "--columns", "app"])
        self.assertEqual((rc, err), (2, "report: no sweep definition %s\n" % self.path("none.sweep")))
        with open(self.path("ok.sweep"), "w") as f:
            f.write("apps = a_x a_y\ncompare = a_x a_y by coll_ns\n")
        self.assertEqual(run(["--check-def", self.path("ok.sweep"), "--columns", "app,coll_ns"]), (0, "", ""))

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


@unittest.skipUnless(shutil.which("jq"), "no jq")
class Stop(ScratchTest):
    """A report stopped by SIGTERM, SIGHUP or SIGINT removes its scratch directory
    (wormsim-report.*) and writes nothing half, exiting 128 + the signal;
    the gnuplot it was waiting for is ended too."""

    def stop(self, signum):
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        write_csv(self.path("results", "mine", "results.csv"), [row(app="a_x", dims="4x4", len=256, coll_ns=2000)])
        bin_dir, tmp = self.path("bin"), self.path("tmp")
        os.makedirs(bin_dir)
        os.makedirs(tmp)
        pid_file = self.path("gnuplot.pid")
        with open(os.path.join(bin_dir, "gnuplot"), "w") as f:   # a gnuplot that takes its time
            f.write("#!/bin/sh\necho $$ > '%s'\nexec sleep 30\n" % pid_file)
        os.chmod(os.path.join(bin_dir, "gnuplot"), 0o755)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], TMPDIR=tmp)
        report = subprocess.Popen([sys.executable, "-B", os.path.join(root, "experiments", "report"), "--sweep", "mine",
                                   "--results", self.path("results"), "--out", self.path("r.md"),
                                   "--img", self.path("img")], env=env, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 20
        while not (os.path.exists(pid_file) and os.path.getsize(pid_file)) and time.time() < deadline:
            time.sleep(0.05)
        self.assertTrue(any(n.startswith("wormsim-report.") for n in os.listdir(tmp)), os.listdir(tmp))
        with open(pid_file) as f:
            gnuplot = int(f.read())
        report.send_signal(signum)
        _, err = report.communicate(timeout=20)
        self.assertEqual(report.returncode, 128 + signum, err)
        self.assertEqual(os.listdir(tmp), [], "left behind in TMPDIR")
        self.assertFalse(os.path.exists(self.path("r.md")) or os.path.exists(self.path("r.md.tmp")))
        self.assertIn("report: stopped by %s" % signal.Signals(signum).name, err)
        try:
            os.kill(gnuplot, 0)
            alive = True
        except ProcessLookupError:
            alive = False
        if alive:
            os.kill(gnuplot, signal.SIGKILL)
        self.assertFalse(alive, "the gnuplot it waited for still runs")

    def test_sigterm(self):
        self.stop(signal.SIGTERM)

    def test_sighup(self):
        self.stop(signal.SIGHUP)

    def test_sigint(self):
        self.stop(signal.SIGINT)
