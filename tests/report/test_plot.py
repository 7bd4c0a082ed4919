"""Plots (experiments/report/plot.py and the sections' plots): a value
read from a CSV reaches gnuplot only inside a quoted string, an image's
file name is a plain one, and a plot that was not drawn is not linked."""

import contextlib
import io
import json
import os
import shutil
import unittest
from unittest import mock

from helpers import ScratchTest, row, write_csv
from report import banyan004, flood004, plot, sweep_report, thakur_plots, torus000
from report.context import Context, slug
from report.csvio import SweepError
from report.doc import Doc
from report.paper import Cell
from test_sections import DEFAULT

HAVE_GNUPLOT = shutil.which("gnuplot") is not None


def payload(sentinel):
    """A value that, pasted into a gnuplot string unescaped, ends the
    string and has gnuplot's shell create sentinel."""
    return "a'; system \"touch %s\"; #" % sentinel


def payload_lines(sentinel):
    """The same, breaking out by newlines instead of a quote."""
    return "b\nsystem \"touch %s\"\n#" % sentinel


class Quote(unittest.TestCase):
    def test_a_quote_is_doubled(self):
        self.assertEqual(plot.quote("it's"), "'it''s'")

    def test_control_characters_become_spaces(self):
        self.assertEqual(plot.quote("a\nb\rc\td\x00e\x7f"), "'a b c d e '")

    def test_slug_keeps_a_plain_file_name(self):
        self.assertEqual(slug("mesh 4x4 (net=vcs=4)"), "mesh_4x4_net_vcs_4")
        self.assertEqual(slug("torus000-../../x'; y.png"), "torus000-.._.._x_y.png")
        self.assertEqual(slug("coll_ns-mesh_4x4.png"), "coll_ns-mesh_4x4.png")


class Scratch(ScratchTest):
    def context(self):
        ctx = Context(self.path("results"), self.path("img"), self.dir)
        os.makedirs(ctx.img, exist_ok=True)
        self.addCleanup(ctx.close)
        return ctx

    def images(self):
        return sorted(os.listdir(self.path("img")))


@unittest.skipUnless(HAVE_GNUPLOT, "no gnuplot")
class Inert(Scratch):
    """Each plot with a crafted value: gnuplot runs no command and the
    image's name is a plain file name."""

    def test_draw_with_a_crafted_title_and_output_path(self):
        ctx = self.context()
        sentinel = self.path("pwned")
        out = os.path.join(ctx.img, "o'; system \"touch x\"; #.png")
        with contextlib.redirect_stderr(io.StringIO()):
            drawn = plot.draw(ctx, out, ["set title " + plot.quote(payload(sentinel)),
                                         "set xlabel " + plot.quote(payload_lines(sentinel))],
                              [plot.Series([(1, 2), (2, 3)], "using 1:2 with lines title " + plot.quote(payload(sentinel)))])
        self.assertTrue(drawn)
        self.assertFalse(os.path.exists(sentinel))
        self.assertTrue(os.path.isfile(out))

    def test_sweep_report_app_and_dims(self):
        sentinel = self.path("pwned")
        sweep = self.path("results", "evil")
        write_csv(os.path.join(sweep, "results.csv"), [
            row(app=payload(sentinel), dims="4x4" + payload(sentinel), len=256, coll_ns=2000),
            row(app=payload_lines(sentinel), dims="4x4" + payload(sentinel), len=1024, coll_ns=3000)])
        ctx = self.context()
        with contextlib.redirect_stderr(io.StringIO()):
            text = sweep_report.build(ctx, "evil", sweep, "coll_ns", None, None)
        self.assertFalse(os.path.exists(sentinel))
        self.assertEqual(len(self.images()), 1)
        self.assertRegex(self.images()[0], r"^[A-Za-z0-9._-]+$")
        self.assertIn("](%s)" % os.path.join("img", self.images()[0]), text)

    def test_thakur_mesh_plot_dims(self):
        sentinel = self.path("pwned")
        row_ = {"table": "2", "app": "alltoall_pex", "paper_shape": "4x4", "dims": "4x4" + payload(sentinel),
                "len": "256"}
        link = thakur_plots.shape_plot(self.context(), "4x4", [Cell(row_, "0.004", 0.0042)], 1e-4, 1e-7)
        self.assertFalse(os.path.exists(sentinel))
        self.assertEqual(link, "img/thakur-4x4.png")

    def test_thakur_mesh_plot_shape(self):
        sentinel = self.path("pwned")
        shape = "4x4" + payload(sentinel)
        row_ = {"table": "2", "app": "alltoall_pex", "paper_shape": shape, "dims": "4x4", "len": "256"}
        with self.assertRaises(SweepError):
            thakur_plots.shape_plot(self.context(), shape, [Cell(row_, "0.004", 0.0042)], 1e-4, 1e-7)
        self.assertFalse(os.path.exists(sentinel))

    def test_torus_plot_dims(self):
        sentinel = self.path("pwned")
        dims = "8x8" + payload(sentinel)
        rows = [row(app="alltoall_a1", dims=dims, len=16, coll_ns=1000),
                row(app="alltoall_a1", dims=dims, len=64, coll_ns=3000)]
        with self.assertRaises(SweepError) as e:
            torus000.time_plot(self.context(), dims, rows, DEFAULT)
        self.assertIn("bad dims", str(e.exception))
        self.assertFalse(os.path.exists(sentinel))
        self.assertEqual(self.images(), [])


class HeatmapGuard(ScratchTest):
    def summary(self, **values):
        os.makedirs(self.path("run"), exist_ok=True)
        with open(self.path("run", "summary.json"), "w") as f:
            json.dump(values, f)
        return self.path("run")

    def test_plain_values_pass(self):
        run = self.summary(app="alltoall_pex", args="k=1 j=2")
        self.assertIsNone(plot.heatmap_unsafe(run, self.path("h.png")))

    def test_a_backquote_a_quote_or_a_newline_is_refused(self):
        for app in ("a`touch x`", 'a"b', "a\nb"):
            run = self.summary(app=app, args="")
            self.assertIn("its app", plot.heatmap_unsafe(run, self.path("h.png")))
        run = self.summary(app="x", args="")
        self.assertIn("the output path", plot.heatmap_unsafe(run, self.path("h'.png")))

    def test_a_refused_run_is_not_drawn(self):
        run = self.summary(app="a`touch %s`" % self.path("pwned"), args="")
        ctx = Context(self.dir, self.dir, self.dir)
        try:
            with contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertFalse(plot.heatmap(ctx, run, self.path("h.png")))
        finally:
            ctx.close()
        self.assertIn("no heatmap of", err.getvalue())
        self.assertFalse(os.path.exists(self.path("pwned")))


class NotDrawn(Scratch):
    """A plot gnuplot did not draw is not linked."""

    def setUp(self):
        super().setUp()
        for module in (torus000, thakur_plots, flood004, banyan004):
            patcher = mock.patch.object(module, "draw", return_value=False)
            patcher.start()
            self.addCleanup(patcher.stop)

    def test_torus(self):
        rows = [row(app="alltoall_a1", dims="8x8", len=16, coll_ns=1000)]
        self.assertIsNone(torus000.time_plot(self.context(), "8x8", rows, DEFAULT))

    def test_thakur_nodes(self):
        cells = [Cell({"table": "2", "app": "alltoall_pex", "paper_shape": "4x4", "dims": "4x4", "len": "1024"},
                      "0.008", 0.0073)]
        doc = Doc()
        thakur_plots.plots(self.context(), doc, cells, [dict(cells[0].row)], 1e-4, 1e-7)
        self.assertNotIn("![", str(doc))

    def test_flood_delay(self):
        rows = [row(app="allgather_flood", dims="7x7", len=64, group="delay", net="hop_cycles=1", coll_ns=200000)]
        doc = Doc()
        flood004.delay_plot(self.context(), doc, flood004.delay_runs(rows), DEFAULT)
        self.assertEqual(str(doc), "")

    def test_banyan(self):
        rows = [row(app="alltoall_atape", nodes=8, len=1024, coll_ns=8000)]
        doc = Doc()
        banyan004.time_plot(self.context(), doc, rows)
        self.assertEqual(str(doc), "")

    def test_thakur_blocked_heatmap(self):
        with open(self.path("links.csv"), "w") as f:
            f.write("node,dim,dir,flits,blocked_cycles\n")
        doc = Doc()
        with mock.patch.object(thakur_plots, "draw_heatmap", side_effect=[True, False]):
            thakur_plots.heatmap(self.context(), doc, self.dir)
        self.assertIn("![heatmap flits]", str(doc))
        self.assertNotIn("![heatmap blocked]", str(doc))
