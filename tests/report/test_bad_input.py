"""Input no report can be made of: the command exits 2 with a message
naming the file, what is wrong and what is accepted, never a traceback."""

import contextlib
import io
import os
import shutil
import stat
import unittest

from helpers import COLUMNS, ScratchTest, row, write_csv
from report import cli, csvio, thakur, tseng001
from report.context import Context
from report.csvio import SweepError
from report.doc import Doc

HAVE_TOOLS = shutil.which("gnuplot") and shutil.which("jq")


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(argv)
    return rc, err.getvalue()


@unittest.skipUnless(HAVE_TOOLS, "no gnuplot or jq")
class Command(ScratchTest):
    def sweep(self, rows, header=None, name="mine"):
        write_csv(self.path("results", name, "results.csv"), rows, header)
        return self.path("results", name)

    def report(self, *more):
        return run(["--results", self.path("results"), "--out", self.path("r.md"), "--img", self.path("img")]
                   + list(more))

    def test_a_text_metric(self):
        self.sweep([row(app="a_x", dims="4x4", len=256, coll_ns=2000)])
        rc, err = self.report("--sweep", "mine", "--metric", "app")
        self.assertEqual(rc, 2)
        self.assertIn("--metric: the column 'app' of %s holds text ('a_x'), not numbers; accepted: "
                      % self.path("results", "mine", "results.csv"), err)
        self.assertIn("coll_ns", err)

    def test_a_sweep_without_status(self):
        header = [c for c in COLUMNS if c != "status"]
        self.sweep([row(app="a_x", dims="4x4", len=256, coll_ns=2000)], header)
        rc, err = self.report("--sweep", "mine")
        self.assertEqual(rc, 2)
        self.assertIn("report: %s lacks the column status; its columns: app, topo, dims,"
                      % self.path("results", "mine", "results.csv"), err)

    def test_a_reproduction_without_a_column(self):
        header = [c for c in COLUMNS if c not in ("coll_ns", "steps")]
        self.sweep([row(app="alltoall_a1", dims="8x8", len=16)], header, "torus000")
        rc, err = self.report()
        self.assertEqual(rc, 2)
        self.assertIn("results.csv lacks the columns coll_ns, steps; its columns:", err)

    def test_bad_dims(self):
        self.sweep([row(app="alltoall_a1", topo="torus", dims="8by8", nodes=64, len=16, steps=7,
                        bytes_per_node=16, coll_ns=1000)], name="torus000")
        rc, err = self.report()
        self.assertEqual(rc, 2)
        self.assertIn("torus000/results.csv: bad dims '8by8': accepted: sides joined by x", err)


class SweepRows(ScratchTest):
    def rows(self, text):
        os.makedirs(self.path("results", "torus000"))
        with open(self.path("results", "torus000", "results.csv"), "w") as f:
            f.write(text)
        ctx = Context(self.path("results"), self.dir, self.dir)
        self.addCleanup(ctx.close)
        return ctx.rows("torus000")

    def test_a_header_alone_is_not_run(self):
        self.assertIsNone(self.rows(",".join(COLUMNS) + "\n"))

    def test_a_length_that_is_not_a_number(self):
        with self.assertRaises(SweepError) as e:
            self.rows(",".join(COLUMNS) + "\n" + ",".join(row(app="a", dims="4x4", nodes=16, len="1k")[c]
                                                           for c in COLUMNS) + "\n")
        self.assertIn("results.csv: the len of an ok run (a on 4x4) is '1k', not a whole number", str(e.exception))


class Dims(unittest.TestCase):
    def test_shapes(self):
        self.assertEqual([csvio.dims_nodes(d) for d in ("8x16", "3x3x3", "n=64")], [128, 27, 64])
        for bad in ("8by8", "8x", "", "8x8'; system 'x'"):
            with self.assertRaises(SweepError):
                csvio.dims_nodes(bad)
        with self.assertRaises(SweepError):
            csvio.dims_side("n=64")
        with self.assertRaises(SweepError):
            csvio.paper_mesh("16")


class StepTable(ScratchTest):
    def script(self, body):
        path = self.path("test_tseng")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def test_a_failing_test_is_an_error(self):
        with self.assertRaises(SweepError) as e:
            tseng001.step_rows(self.script("echo 'FAIL tseng2d n=5'; exit 1"), self.dir)
        self.assertIn("failed (exit status 1; its last line: FAIL tseng2d n=5)", str(e.exception))

    def test_a_test_writing_no_table_is_an_error(self):
        with self.assertRaises(SweepError) as e:
            tseng001.step_rows(self.script("exit 0"), self.dir)
        self.assertIn("wrote no step table", str(e.exception))

    def test_the_table(self):
        binary = self.script('printf "algorithm,k,n,steps,paper,lower_bound\\ntseng2d,2,5,3,3,2\\n" > "$TSENG_STEPS_CSV"')
        self.assertEqual(tseng001.step_rows(binary, self.dir)[0]["steps"], "3")
        self.assertIsNone(tseng001.step_rows(self.path("none"), self.dir))


class ThakurModel(ScratchTest):
    def test_no_training_cell(self):
        with self.assertRaises(SweepError) as e:
            thakur.fit_model([{"app": "alltoall_pex", "paper_shape": "4x4", "len": "256", "paper_s": "0.004",
                               "role": "heldout"}])
        self.assertIn("its 0 training cells (role train) do not determine the paper's model", str(e.exception))

    def test_not_run_reads_no_paper_table(self):
        ctx = Context(self.path("results"), self.dir, self.dir, root=self.dir)
        doc = Doc()
        try:
            thakur.section(ctx, doc)
        finally:
            ctx.close()
        self.assertIn("Not run yet: `make sweep SWEEP=thakur`.", str(doc))
