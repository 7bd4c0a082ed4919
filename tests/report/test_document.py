"""docs/results.md's sections from small hand-made CSVs
(experiments/report/document.py and the section modules)."""

import contextlib
import io

from helpers import ScratchTest, row, write_csv
from report import adaptive, document, families, survey002
from report.context import Context
from report.doc import Doc


class Sections(ScratchTest):
    def section(self, module, name, rows):
        write_csv(self.path("results", name, "results.csv"), rows)
        ctx = Context(self.path("results"), self.path("img"), self.dir)
        doc = Doc()
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                module.section(ctx, doc)
        finally:
            ctx.close()
        return str(doc)

    def test_families_table(self):
        rows = [row(app="alltoall_pex", topo="mesh", dims="4x4", nodes=16, len=1024, coll_ns=52400, max_link_sharing=2, wall_s=1.5),
                row(app="alltoall_gen", topo="mesh", dims="4x4", nodes=16, len=1024, coll_ns=47200, max_link_sharing=2, wall_s=1),
                row(app="alltoall_pex", topo="hypercube", dims="n=16", nodes=16, len=1024, coll_ns=40200, max_link_sharing=1, wall_s=1)]
        text = self.section(families, "families", rows)
        self.assertIn("Wall time: 3 runs, 0m03s of run wall time.", text)
        self.assertIn("| hypercube | 16 | 40.2 | 1 | - | - |\n| mesh 4x4 | 16 | 52.4 | 2 | 47.2 | 2 |\n", text)

    def test_adaptive_cells_and_verdicts(self):
        rows = [row(app="bcast_tseng2d", topo="torus", dims="5x5", nodes=25, len=1024, net="vcs=4", group="bcast",
                    coll_ns=10000, max_link_sharing=1, wall_s=1),
                row(app="bcast_tseng2d", topo="torus", dims="5x5", nodes=25, len=1024, net="routing=duato vcs=4",
                    group="bcast", coll_ns=12000, max_link_sharing=2, wall_s=1),
                row(app="alltoall_gen", topo="mesh", dims="4x4", nodes=16, len=1024, net="routing=deterministic",
                    group="delta", coll_ns=50000, max_link_sharing=3, wall_s=1),
                row(app="alltoall_gen", topo="mesh", dims="4x4", nodes=16, len=1024, net="routing=west_first",
                    group="delta", coll_ns=40000, max_link_sharing=2, wall_s=1),
                row(app="alltoall_gen", topo="mesh", dims="4x4", nodes=16, len=1024,
                    net="routing=west_first selection=least_used", group="delta", coll_ns=60000,
                    max_link_sharing=4, wall_s=1)]
        text = self.section(adaptive, "adaptive", rows)
        self.assertIn("| app | machine | len | deterministic | duato |\n|---|---|---|---|---|\n"
                      "| bcast_tseng2d | 5x5 | 1024 | 10.0 (1) | 12.0 (2) |\n", text)
        self.assertIn("| app | machine | len | deterministic | west_first | west_first/least_used |\n", text)
        self.assertIn("| alltoall_gen | 4x4 | 1024 | 50.0 (3) | 40.0 (2) | 60.0 (4) |\n", text)
        self.assertIn("Under west_first/least_used, against dimension order: 0 of 1 cells faster, 1 slower"
                      " (worst alltoall_gen 4x4 1024, 20 % slower)", text.replace("\n", " "))
        self.assertIn("Under west_first, against dimension order: 1 of 1 cells faster (best alltoall_gen 4x4 1024,"
                      " 20 % faster), 0 slower, 0 within 0.5 %.", text.replace("\n", " "))
        self.assertIn("Contention-free under dimension order, shared under duato: bcast_tseng2d 5x5 1024.",
                      text.replace("\n", " "))

    def test_survey_rows_in_the_tables_order(self):
        rows = [row(app="alltoall_quadrant_exchange", dims="4x4", nodes=16, len=64, steps=9, max_msg_bytes=256,
                    bytes_per_node=1536, max_link_sharing=1, coll_ns=22500),
                row(app="alltoall_direct", dims="4x4", nodes=16, len=64, steps=15, max_msg_bytes=64,
                    bytes_per_node=960, max_link_sharing=2, coll_ns=33700)]
        text = self.section(survey002, "survey002", rows)
        self.assertIn("| direct | 4x4 | 64 | 15 | 15 | 1 | 1 | 15 | 15 | 2 | 33.7 |\n"
                      "| quadrant_exchange | 4x4 | 64 | 9 | 9 | 4 | 4 | 24 | 36 | 1 | 22.5 |\n", text)

    def test_every_reproduction_has_a_section(self):
        self.assertEqual(list(document.SECTIONS), ["thakur", "torus000", "tseng001", "flood004", "survey002",
                                                   "banyan004", "families", "hwcoll002", "pathmc002",
                                                   "adaptive"])
        self.assertIsNone(document.section_of("thakur-ci", None))
        self.assertTrue(callable(document.section_of("tseng001", None)))
