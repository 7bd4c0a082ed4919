"""A report for any sweep (experiments/report/sweep_report.py) on a
hand-made sweep: its tables, the winner per cell of a declared
comparison, a paper's cells, and the refusals."""

import contextlib
import io
import os
import shutil
import unittest

from helpers import COLUMNS, ScratchTest, row, write_csv
from report import sweep_report
from report.context import Context

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Sweep(ScratchTest):
    def setUp(self):
        super().setUp()
        rows = [row(app="a_x", dims="4x4", len=256, coll_ns=2000, max_link_sharing=2, args="k=1,j=2"),
                row(app="a_y", dims="4x4", len=256, coll_ns=3000, max_link_sharing=1, args="k=1,j=2"),
                row(app="a_x", dims="4x4", len=1024, coll_ns=9000, max_link_sharing=2, args="k=1,j=2"),
                row(app="a_y", dims="4x4", len=1024, coll_ns=6000, max_link_sharing=1, args="k=1,j=2"),
                row(app="a_x", dims="8x8", len=256, coll_ns=7000, max_link_sharing=4, args="k=1,j=2"),
                row(app="a_y", dims="8x8", len=256, coll_ns=7000, max_link_sharing=3, args="k=1,j=2"),
                row(app="a_y", dims="8x8", len=1024, coll_ns=1, status="refused", args="k=1,j=2")]
        self.sweep = self.path("results", "mine")
        write_csv(os.path.join(self.sweep, "results.csv"), rows)
        with open(self.path("mine.sweep"), "w") as f:
            f.write("apps = a_x a_y\n[g]\ncompare = a_x a_y by coll_ns  # the winner per cell\n")

    def report(self, definition=None, metric="coll_ns"):
        ctx = Context(self.path("results"), self.sweep, self.sweep)
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                return sweep_report.build(ctx, "mine", self.sweep, metric, definition, None)
        finally:
            ctx.close()

    def test_tables_by_machine_and_length(self):
        text = self.report()
        self.assertIn("| machine | len | a_x (us) | a_y (us) |\n|---|---|---|---|\n"
                      "| mesh 4x4 | 256 | 2.0 | 3.0 |\n| mesh 4x4 | 1024 | 9.0 | 6.0 |\n| mesh 8x8 | 256 | 7.0 | 7.0 |\n",
                      text)
        self.assertIn("| mesh 8x8 | 256 | 4 | 3 |", text)
        self.assertIn("Runs: 6 ok, 1 refused.", text)

    def test_winner_per_cell(self):
        text = self.report(self.path("mine.sweep"))
        self.assertIn("| mesh 4x4 | 256 | 2.0 | 3.0 | a_x | 50.00 % |", text)
        self.assertIn("| mesh 4x4 | 1024 | 9.0 | 6.0 | a_y | 50.00 % |", text)
        self.assertIn("| mesh 8x8 | 256 | 7.0 | 7.0 | tie | - |", text)
        self.assertIn("a_x in 1, a_y in 1, tied in 1 of the 3 cells compared.", text)

    @unittest.skipUnless(shutil.which("gnuplot"), "no gnuplot")
    def test_a_plot_per_machine(self):
        text = self.report()
        self.assertIn("![mesh 4x4](coll_ns-mesh_4x4.png)", text)
        with open(os.path.join(self.sweep, "coll_ns-mesh_4x4.png"), "rb") as f:
            self.assertEqual(f.read(4), b"\x89PNG")

    def test_a_varying_key_names_the_machine(self):
        text = self.report(metric="max_link_sharing")
        self.assertIn("| mesh 4x4 | 256 | 2 | 1 |", text)
        self.assertEqual(sweep_report.varying_keys([row(net=""), row(net="vcs=4")]), ["net"])
        self.assertEqual(sweep_report.machine_of(row(topo="torus", dims="4x4", net=""), ["net"]), "torus 4x4 (default net)")

    def test_paper_cells_beside_the_emulated(self):
        write_csv(self.path("paper.csv"), [{"app": "a_x", "dims": "4x4", "len": "256", "secs": "0.000002", "role": "train"},
                                            {"app": "a_x", "dims": "4x4", "len": "512", "secs": "1", "role": "heldout"}],
                  comments=["a paper"])
        with open(self.path("p.sweep"), "w") as f:
            f.write("paper = %s by secs\n" % self.path("paper.csv"))
        text = self.report(self.path("p.sweep"))
        self.assertIn("1 of its 2 cells ran here", text)
        self.assertIn("| a_x | 4x4 | 256 | 2e-06 / 0.000002 (1.00) |", text)
        self.assertIn("| training | 1 | 0.000 | 1.000 | 1 of 1 |", text)

    def test_no_ok_run_is_said_not_tabulated(self):
        # a sweep whose every run was refused had two empty tables
        # (a header alone) and nothing to say why
        write_csv(os.path.join(self.sweep, "results.csv"),
                  [row(app="a_x", dims="3x3", len=64, status="refused", coll_ns=""),
                   row(app="a_y", dims="3x3", len=64, status="refused", coll_ns="")])
        text = self.report()
        self.assertEqual(text.count("No run of this sweep is ok, so there is nothing to tabulate"), 2)
        self.assertNotIn("| machine | len |\n", text)
        self.assertIn("Runs: 2 refused.", text)

    def test_the_slowest_run_by_simulated_time(self):
        self.assertIn("## The slowest run\n\na_x on mesh 4x4 at 1024 B: coll_ns = 9.0 us.\n", self.report())
        # another metric for the tables leaves the slowest run the slowest
        self.assertIn("## The slowest run\n\na_x on mesh 4x4 at 1024 B: coll_ns = 9.0 us; max_link_sharing = 2.\n",
                      self.report(metric="max_link_sharing"))

    def test_refusals_name_what_is_accepted(self):
        with self.assertRaises(sweep_report.SweepError) as e:
            sweep_report.find_sweep("nosuch", self.path("results"))
        self.assertIn("no sweep 'nosuch'", str(e.exception))
        self.assertIn("accepted: a directory holding a results.csv, or a name under", str(e.exception))
        self.assertIn(": mine", str(e.exception))
        # an absolute path is named once: results/ plus it is the same path
        gone = self.path("nowhere")
        with self.assertRaises(sweep_report.SweepError) as e:
            sweep_report.find_sweep(gone, self.path("results"))
        self.assertIn("no sweep '%s' (not a directory);" % gone, str(e.exception))
        os.makedirs(self.path("results", "empty"))
        with self.assertRaises(sweep_report.SweepError) as e:
            sweep_report.find_sweep("empty", self.path("results"))
        self.assertIn("has no results.csv", str(e.exception))
        with self.assertRaises(sweep_report.SweepError) as e:
            self.report(metric="nosuch")
        self.assertIn("'nosuch' is not a column", str(e.exception))
        with open(self.path("bad.sweep"), "w") as f:
            f.write("compare = a_x\n")
        with self.assertRaises(sweep_report.SweepError) as e:
            self.report(self.path("bad.sweep"))
        self.assertIn("bad.sweep:1: compare: give two apps or more", str(e.exception))
        self.assertEqual(sweep_report.find_sweep("mine", self.path("results")), ("mine", self.sweep))

    def test_a_comparison_names_apps_of_the_sweep_by_a_column_of_numbers(self):
        # a misspelt app compared nothing and a column of text ranked every
        # cell a tie of zeros, both with exit 0; each is refused, naming
        # the line's fault and what is accepted
        cases = [("compare = a_x a_z by coll_ns\n", "compare: 'a_z' is no app of this sweep"),
                 ("compare = a_x a_y by app\n", "compare ... by: the column 'app' of"),
                 ("compare = a_x a_y by col_ns\n", "compare ... by: 'col_ns' is not a column of")]
        for text, said in cases:
            with open(self.path("c.sweep"), "w") as f:
                f.write("apps = a_x a_y\n" + text)
            with self.assertRaises(sweep_report.SweepError, msg=text) as e:
                self.report(self.path("c.sweep"))
            self.assertIn(said, str(e.exception))
            self.assertIn("accepted: ", str(e.exception))
        self.assertIn("accepted: a_x, a_y", self.refusal("compare = a_x a_z\n"))
        self.assertIn("accepted: len, coll_ns", self.refusal("compare = a_x a_y by dims\n"))
        # an app the definition runs but whose rows are not there yet (a
        # stopped sweep) is the sweep's: compared, with nothing to compare
        with open(self.path("c.sweep"), "w") as f:
            f.write("apps = a_x a_y a_w\ncompare = a_x a_w\n")
        self.assertIn("No ok run of a_w in this sweep.", self.report(self.path("c.sweep")))

    def test_report_lines_are_judged_before_any_run(self):
        # the sweep asks check_definition before any run (experiments/sweep.sh):
        # a compare or paper line the report would refuse once every run had
        # ended is refused with no row, naming its file and line
        write_csv(self.path("paper.csv"), [{"app": "a_x", "dims": "4x4", "len": "256", "secs": "1"}])
        write_csv(self.path("keyless.csv"), [{"machine": "x", "secs": "1"}])
        header = ["app", "topo", "dims", "len", "status", "coll_ns"]
        cases = [("compare = a_x a_z\n", "c.sweep:3: compare: 'a_z' is no app of this sweep", "accepted: a_x, a_y"),
                 ("compare = a_x a_y by col_ns\n", "c.sweep:3: compare ... by: 'col_ns' is not a column of",
                  "accepted: app, topo, dims, len, status, coll_ns"),
                 ("compare = a_x\n", "c.sweep:3: compare: give two apps or more", "e.g. 'compare ="),
                 ("paper = %s\n" % self.path("nosuch.csv"), "c.sweep:3: paper: no file", "nosuch.csv"),
                 ("paper = %s by paper_s\n" % self.path("paper.csv"), "c.sweep:3: paper: ", "lacks the column paper_s"),
                 ("paper = %s by secs\n" % self.path("keyless.csv"), "c.sweep:3: paper: ", "shares no run key")]
        for text, said, also in cases:
            with open(self.path("c.sweep"), "w") as f:
                f.write("apps = a_x\n[g]\n" + text + "apps = a_y\n")
            with self.assertRaises(sweep_report.SweepError, msg=text) as e:
                sweep_report.check_definition(self.path("c.sweep"), ROOT, header)
            self.assertIn(said, str(e.exception))
            self.assertIn(also, str(e.exception))
        with open(self.path("c.sweep"), "w") as f:
            f.write("apps = a_x a_y\ncompare = a_x a_y by coll_ns\npaper = %s by secs\n" % self.path("paper.csv"))
        sweep_report.check_definition(self.path("c.sweep"), ROOT, header)
        # the report's own refusal of a compare names its line too
        with open(self.path("c.sweep"), "w") as f:
            f.write("apps = a_x a_y\n\ncompare = a_x a_y by app\n")
        with self.assertRaises(sweep_report.SweepError) as e:
            self.report(self.path("c.sweep"))
        self.assertIn("c.sweep:3: compare ... by: the column 'app' of", str(e.exception))

    def refusal(self, text):
        with open(self.path("c.sweep"), "w") as f:
            f.write("apps = a_x a_y\n" + text)
        with self.assertRaises(sweep_report.SweepError) as e:
            self.report(self.path("c.sweep"))
        return str(e.exception)

    def test_the_definition_file_names_its_results(self):
        # make sweep SWEEP=FILE writes results/NAME; make report SWEEP=FILE
        # reads them, from any directory the file is in
        self.assertEqual(sweep_report.find_sweep(self.path("mine.sweep"), self.path("results")), ("mine", self.sweep))
        self.assertEqual(sweep_report.find_sweep("mine.sweep", self.path("results")), ("mine", self.sweep))
        with open(self.path("later.sweep"), "w") as f:
            f.write("apps = a_x\n")
        with self.assertRaises(sweep_report.SweepError) as e:
            sweep_report.find_sweep(self.path("later.sweep"), self.path("results"))
        self.assertIn("the sweep of %s has no row in %s yet (run it first: make sweep SWEEP=%s)"
                      % (self.path("later.sweep"), self.path("results", "later", "results.csv"), self.path("later.sweep")),
                      str(e.exception))

    def test_a_sweep_with_no_row_has_not_run(self):
        # a sweep stopped before its first run ended keeps its CSV's header
        # alone: no report of it (it said "Runs: ." over empty tables), and
        # it is not listed among the sweeps accepted
        write_csv(self.path("results", "stopped", "results.csv"), [], COLUMNS)
        with self.assertRaises(sweep_report.SweepError) as e:
            sweep_report.find_sweep("stopped", self.path("results"))
        self.assertIn("stopped has no results.csv, or no row in it (run the sweep first: make sweep SWEEP=stopped)",
                      str(e.exception))
        self.assertIn("or a name under %s/: mine" % self.path("results"), str(e.exception))
        self.assertEqual(sweep_report.known_sweeps(self.path("results")), ["mine"])

    def test_winner(self):
        best, margin = sweep_report.winner({"a": 10, "b": 12, "c": 15})
        self.assertEqual(best, "a")
        self.assertAlmostEqual(margin, 20.0)
        self.assertEqual(sweep_report.winner({"a": 3, "b": 3}), ("tie", 0.0))


@unittest.skipUnless(shutil.which("gnuplot") and shutil.which("jq"), "no gnuplot or jq")
class Definition(ScratchTest):
    """Which definition a sweep's report reads: --def, else the copy the
    sweep keeps beside its CSV (sweep.def), else experiments/NAME.sweep;
    with none, the report says so."""

    def setUp(self):
        super().setUp()
        self.sweep = self.path("results", "noname")
        write_csv(os.path.join(self.sweep, "results.csv"),
                  [row(app="a_x", dims="4x4", len=256, coll_ns=2000), row(app="a_y", dims="4x4", len=256, coll_ns=3000)])

    def report(self, *more):
        from report import cli
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            rc = cli.main(["--sweep", "noname", "--results", self.path("results")] + list(more))
        self.assertEqual(rc, 0, err.getvalue())
        with open(os.path.join(self.sweep, "report.md")) as f:
            return f.read(), err.getvalue()

    def test_the_copy_beside_the_results(self):
        with open(os.path.join(self.sweep, "sweep.def"), "w") as f:
            f.write("apps = a_x a_y\ncompare = a_x a_y by coll_ns\n")
        text, _ = self.report()
        self.assertIn("## a_x against a_y by coll_ns", text)
        self.assertIn("a_x in 1 of the 1 cells compared.", text)
        self.assertIn("and its definition `%s`" % os.path.join(self.sweep, "sweep.def"), text)
        self.assertNotIn("No sweep definition found", text)

    def test_a_given_definition_comes_first(self):
        with open(os.path.join(self.sweep, "sweep.def"), "w") as f:
            f.write("apps = a_x a_y\n")
        with open(self.path("other.sweep"), "w") as f:
            f.write("apps = a_x a_y\ncompare = a_y a_x by coll_ns\n")
        text, _ = self.report("--def", self.path("other.sweep"))
        self.assertIn("## a_y against a_x by coll_ns", text)

    def test_no_definition_is_said(self):
        text, err = self.report()
        places = "`%s` nor `%s`" % (os.path.join(self.sweep, "sweep.def"),
                                    os.path.join("experiments", "noname.sweep"))
        self.assertIn("No sweep definition found (%s): no comparison or paper's table; name one with "
                      "`make report SWEEP=noname DEF=FILE.sweep` (--def)." % places, text)
        self.assertIn("report: no sweep definition for noname", err)
        self.assertEqual(sweep_report.definition_of("noname", ROOT, None, self.sweep), None)


class NotOk(ScratchTest):
    """The runs not ok, each named as the sweep's last lines name it, with
    the error its summary.json gives or the run tool's message in the
    wormsim.out of a refused run's directory."""

    def report(self, sweep):
        ctx = Context(self.path("results"), sweep, sweep)
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                return sweep_report.build(ctx, "mine", sweep, "coll_ns", None, None)
        finally:
            ctx.close()

    def test_each_run_not_ok_with_its_reason(self):
        sweep = self.path("results", "mine")
        rows = [row(app="a_x", dims="4x4", len=256, coll_ns=2000, run_dir="runs/a_x-mesh4x4-256-1/r"),
                row(app="a_x", topo="mesh", dims="5x4", len=256, status="refused", run_dir="runs/a_x-mesh5x4-256-2"),
                row(app="a_y", topo="mesh", dims="5x4", len=256, status="refused"),
                row(app="a_y", dims="4x4", len=256, status="fail", run_dir="runs/a_y-mesh4x4-256-4/r"),
                row(app="a_z", dims="4x4", len=256, status="refused", run_dir="runs/gone")]
        write_csv(os.path.join(sweep, "results.csv"), rows)
        for cell, text in (("a_x-mesh5x4-256-2", "booting\nwormsim: app a_x needs a power-of-two node count, not 20\n"),
                           ("a_y-mesh5x4-256-3", "wormsim: app a_y needs a power-of-two node count, not 20\n")):
            os.makedirs(os.path.join(sweep, "runs", cell))
            with open(os.path.join(sweep, "runs", cell, "wormsim.out"), "w") as f:
                f.write(text)
        os.makedirs(os.path.join(sweep, "runs", "a_y-mesh4x4-256-4", "r"))
        with open(os.path.join(sweep, "runs", "a_y-mesh4x4-256-4", "r", "summary.json"), "w") as f:
            f.write('{"error": "node 3: checksum mismatch"}')
        text = self.report(sweep)
        self.assertIn("Runs: 1 fail, 1 ok, 3 refused.", text)
        runs = os.path.join(sweep, "runs")
        self.assertIn("## Runs not ok\n\n", text)
        self.assertIn("\n- not ok (refused): a_x on mesh 5x4, len 256: app a_x needs a power-of-two node count, not 20 (%s)\n"
                      "- not ok (refused): a_y on mesh 5x4, len 256: app a_y needs a power-of-two node count, not 20 (%s)\n"
                      "- not ok (fail): a_y on mesh 4x4, len 256: node 3: checksum mismatch (%s)\n"
                      "- not ok (refused): a_z on mesh 4x4, len 256: its run directory is not here (%s)\n" % (
                          os.path.join(runs, "a_x-mesh5x4-256-2"), os.path.join(runs, "a_y-mesh5x4-256-3"),
                          os.path.join(runs, "a_y-mesh4x4-256-4", "r"), os.path.join(runs, "gone")), text)

    def test_none_not_ok_no_section(self):
        sweep = self.path("results", "mine")
        write_csv(os.path.join(sweep, "results.csv"), [row(app="a_x", dims="4x4", len=256, coll_ns=2000)])
        text = self.report(sweep)
        self.assertNotIn("Runs not ok", text)
