"""CSV files by header name and the tables' number conventions
(experiments/report/csvio.py)."""

import unittest

from helpers import ScratchTest
from report import csvio


class ReadRows(ScratchTest):
    def test_columns_by_name_and_quoted_commas(self):
        path = self.path("t.csv")
        with open(path, "w") as f:
            f.write('# a comment\n# another\nlen,app,args\n256,alltoall_pex,"a=1,b=2"\n')
        rows = csvio.read_rows(path, comments=True)
        self.assertEqual(rows, [{"len": "256", "app": "alltoall_pex", "args": "a=1,b=2"}])

    def test_has_rows(self):
        self.assertFalse(csvio.has_rows(self.path("none.csv")))
        open(self.path("empty.csv"), "w").close()
        self.assertFalse(csvio.has_rows(self.path("empty.csv")))

    def test_write_rows_round_trip(self):
        csvio.write_rows(self.path("w.csv"), ["dims", "net"], [["7x7", "hop_cycles=1 buf_flits=2"], ["5x5", "x,y"]])
        with open(self.path("w.csv")) as f:
            self.assertEqual(f.read(), 'dims,net\n7x7,hop_cycles=1 buf_flits=2\n5x5,"x,y"\n')
        self.assertEqual(csvio.read_rows(self.path("w.csv"))[1]["net"], "x,y")


class Numbers(unittest.TestCase):
    def test_as_text(self):
        self.assertEqual(csvio.as_text(4230100 / 1e9), "0.0042301")
        self.assertEqual(csvio.as_text(0.004230123), "0.00423012")
        self.assertEqual(csvio.as_text(3.0), "3")
        self.assertEqual(csvio.as_text(1234567.8), "1.23457e+06")
        self.assertEqual(csvio.rounded(0.0042301234), 0.00423012)

    def test_number(self):
        self.assertEqual(csvio.number("12abc"), 12)
        self.assertEqual(csvio.number(""), 0)
        self.assertEqual(csvio.number("1.5e3"), 1500)
        self.assertTrue(csvio.is_number("0.120"))
        self.assertFalse(csvio.is_number("4x4"))

    def test_shapes_and_settings(self):
        self.assertEqual(csvio.dims_nodes("8x16"), 128)
        self.assertEqual(csvio.dims_nodes("3x3x3"), 27)
        self.assertEqual(csvio.dims_nodes("n=64"), 64)
        self.assertEqual(csvio.dims_side("11x11"), 11)
        self.assertEqual(csvio.paper_mesh("16x30"), (480, 30))
        self.assertEqual(csvio.net_setting("hop_cycles=32 buf_flits=33", "hop_cycles"), 32)
        self.assertEqual(csvio.net_setting("buf_flits=33", "hop_cycles"), 0)
        self.assertEqual(csvio.first_seen(["b", "a", "b", "c"]), ["b", "a", "c"])
        self.assertEqual([r["k"] for r in csvio.ok_rows([{"status": "ok", "k": 1}, {"status": "refused", "k": 2}])], [1])


class CellsOf(unittest.TestCase):
    def test_ok_rows_by_cell_and_name(self):
        from helpers import row
        rows = [row(app="b", dims="4x4", len=64, coll_ns=1), row(app="a", dims="2x2", len=64, coll_ns=2),
                row(app="a", dims="4x4", len=64, coll_ns=3), row(app="c", dims="4x4", len=64, status="failed"),
                row(app="a", dims="4x4", len=64, coll_ns=4)]
        cells = csvio.cells_of(rows, lambda r: (r["dims"], r["len"]))
        self.assertEqual(list(cells), [("4x4", "64"), ("2x2", "64")])          # first seen first
        self.assertEqual(sorted(cells[("4x4", "64")]), ["a", "b"])               # the failed run left out
        self.assertEqual(cells[("4x4", "64")]["a"]["coll_ns"], "4")              # a later row replaces
        by_len = csvio.cells_of(rows, lambda r: r["len"], lambda r: r["dims"])
        self.assertEqual(sorted(by_len["64"]), ["2x2", "4x4"])
