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
