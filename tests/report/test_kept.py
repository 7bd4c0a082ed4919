"""Kept copies of a run's files (experiments/report/kept.py): copied from
the run when it is here, read from the copy when not, refused when the
copy is of another run."""

import contextlib
import io
import json
import os

from helpers import ScratchTest, row
from report import kept


class Kept(ScratchTest):
    def setUp(self):
        super().setUp()
        self.run = self.path("res", "s", "runs", "r1")
        os.makedirs(self.run)
        self.summary = {"app": "alltoall_pex", "topology": "mesh", "dims": "8x8", "args": "len=64 sync=0",
                        "sim_time_ns": 1234, "network": {"hop_cycles": 32, "buf_flits": 33}}
        self.write_run()
        self.rows = [row(app="alltoall_gen", dims="8x8", len=64, sim_time_ns=1),
                     row(app="alltoall_pex", dims="8x8", len=64, args="sync=0", net="hop_cycles=32 buf_flits=33",
                         sim_time_ns=1234, run_dir="runs/r1")]

    def write_run(self):
        with open(os.path.join(self.run, "summary.json"), "w") as f:
            json.dump(self.summary, f)
        with open(os.path.join(self.run, "links.csv"), "w") as f:
            f.write("node,dim,dir,flits\n0,0,+,5\n")

    def kept(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            where = kept.kept(self.path("res"), "s", "cell", self.rows, kept.cell_match(app="alltoall_pex"), ["links.csv"])
        return where, err.getvalue()

    def test_copied_from_the_run_then_read_without_it(self):
        where, err = self.kept()
        self.assertEqual(where, self.path("res", "s", "kept", "cell"))
        self.assertTrue(os.path.isfile(os.path.join(where, "links.csv")))
        self.assertEqual(err, "")
        os.remove(os.path.join(self.run, "summary.json"))
        self.assertEqual(self.kept(), (where, ""))

    def test_a_copy_of_another_run_is_refused(self):
        self.kept()
        os.remove(os.path.join(self.run, "summary.json"))
        self.rows[1]["sim_time_ns"] = "1235"
        where, err = self.kept()
        self.assertIsNone(where)
        self.assertIn("is of another run than s's row", err)
        self.assertIn("the row: alltoall_pex|mesh|8x8|len=64 sync=0|1235|hop_cycles=32|buf_flits=33", err)

    def test_a_net_setting_that_differs_is_refused(self):
        self.summary["network"]["buf_flits"] = 34
        self.write_run()
        where, err = self.kept()
        self.assertIsNone(where)
        self.assertIn("buf_flits=34", err)

    def test_no_ok_row_no_copy(self):
        self.rows[1]["status"] = "fail"
        self.assertEqual(self.kept(), (None, ""))

    def test_json_text_as_jq(self):
        self.assertEqual([kept.json_text(v) for v in (None, True, 3, 3.0, 0.5, "x")],
                         ["null", "true", "3", "3", "0.5", "x"])
