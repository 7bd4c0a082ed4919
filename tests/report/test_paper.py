"""A paper's table beside the emulated times (experiments/report/paper.py)."""

from helpers import ScratchTest, row, write_csv
from report import csvio, paper


class Join(ScratchTest):
    def setUp(self):
        super().setUp()
        self.paper_rows = csvio.read_rows(write_csv(self.path("p.csv"), [
            {"table": "2", "app": "alltoall_pex", "paper_shape": "4x4", "dims": "4x4", "len": "256", "paper_s": "0.004", "role": "train"},
            {"table": "2", "app": "alltoall_pex", "paper_shape": "4x4", "dims": "4x4", "len": "1024", "paper_s": "0.008", "role": "train"},
            {"table": "3", "app": "alltoall_pex_gen", "paper_shape": "4x5", "dims": "5x4", "len": "256", "paper_s": "0.008", "role": "heldout"},
        ], comments=["seconds on the Delta"]), comments=True)
        self.rows = [row(app="alltoall_pex", dims="4x4", len=256, coll_ns=4230123),
                     row(app="alltoall_pex", dims="4x4", len=1024, coll_ns=9000000, status="fail"),
                     row(app="alltoall_pex_gen", dims="5x4", len=256, coll_ns=8732400)]

    def test_cells_take_the_ok_rows_time_in_seconds(self):
        cells = paper.join(self.paper_rows, self.rows, "paper_s")
        self.assertEqual(paper.key_columns(self.paper_rows, self.rows), ["app", "dims", "len"])
        self.assertEqual([c.emu for c in cells], [0.00423012, None, 0.0087324])
        self.assertEqual([paper.cell_text(c) for c in cells],
                         ["0.00423 / 0.004 (1.06)", "-", "0.008732 / 0.008 (1.09)"])

    def test_ratio_summary_and_grid(self):
        cells = paper.join(self.paper_rows, self.rows, "paper_s")
        n, geo, lo, hi, within = paper.ratio_summary(cells)
        self.assertEqual((n, within), (2, 2))
        self.assertAlmostEqual(lo, 0.00423012 / 0.004)
        self.assertAlmostEqual(geo, (0.00423012 / 0.004 * 0.0087324 / 0.008) ** 0.5)
        shapes, body = paper.grid(cells, "paper_shape", "len")
        self.assertEqual(shapes, ["4x4", "4x5"])
        self.assertEqual(body, [["256", "0.00423 / 0.004 (1.06)", "0.008732 / 0.008 (1.09)"], ["1024", "-", ""]])
        self.assertEqual(paper.ratio_sentence([]), "")


class Refusals(ScratchTest):
    """A paper's table that names no run, or names one ambiguously."""

    def test_no_shared_key_column(self):
        paper_rows = [{"machine": "m1", "size": "256", "paper_s": "0.004"}]
        with self.assertRaises(paper.SweepError) as e:
            paper.join(paper_rows, [row(app="a", dims="4x4", len=256, coll_ns=5)], "paper_s", source="p.csv")
        self.assertIn("p.csv shares no run key", str(e.exception))
        self.assertIn("its columns: machine, size, paper_s; results.csv's: app, topo, dims", str(e.exception))

    def test_two_runs_of_one_cell(self):
        paper_rows = [{"app": "a", "dims": "4x4", "len": "256", "paper_s": "0.004"}]
        rows = [row(app="a", dims="4x4", len=256, net="", coll_ns=5),
                row(app="a", dims="4x4", len=256, net="vcs=4", coll_ns=6)]
        with self.assertRaises(paper.SweepError) as e:
            paper.join(paper_rows, rows, "paper_s")
        self.assertIn("two ok runs or more are the cell a 4x4 256", str(e.exception))
        # a shared key that no paper cell names is no ambiguity
        self.assertEqual(len(paper.join([dict(paper_rows[0], len="1024")], rows, "paper_s")), 1)


class PaperTimes(ScratchTest):
    def test_a_time_that_is_not_positive_is_no_cell(self):
        paper_rows = [{"app": "a", "dims": "4x4", "len": str(n), "paper_s": t}
                      for n, t in ((256, "0.004"), (512, ""), (1024, "n/a"), (2048, "0"), (4096, "-1"))]
        rows = [row(app="a", dims="4x4", len=n, coll_ns=4000000) for n in (256, 512, 1024, 2048, 4096)]
        cells = paper.join(paper_rows, rows, "paper_s")
        self.assertEqual([c["len"] for c in cells], ["256"])
        self.assertIn("Over the 1 cells run", paper.ratio_sentence(cells))

    def test_within_a_factor_one_and_a_half(self):
        # 1/1.5 = 0.6667: 0.668 is within, 0.666 is not
        cells = [paper.Cell({}, "1", emu) for emu in (0.668, 0.666, 1.49, 1.5)]
        self.assertEqual(paper.ratio_summary(cells)[4], 2)
        self.assertEqual([paper.within_factor(r) for r in (0.668, 0.666, 1.49, 1.5)], [True, False, True, False])
