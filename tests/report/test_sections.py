"""The reproductions' counts and sentences on small hand-made rows: each
claim of docs/results.md is computed, so each is checked here against a
count done by hand."""

import math
import unittest

from helpers import row
from report import (banyan004, families, flood004, hwcoll002, pathmc002, preset, survey002, thakur,
                    thakur_findings, thakur_reading, torus000, tseng001)
from report.doc import Doc
from report.paper import Cell

DEFAULT = preset.Costs({"t_send_ns": "500", "t_recv_ns": "500", "byte_ps": "1000", "flit_bytes": "8",
                        "msg_max": "262144"})


def text_of(write, *args):
    doc = Doc()
    write(doc, *args)
    return str(doc)


class Thakur(unittest.TestCase):
    def cell(self, table, shape, length, paper, emu):
        return Cell({"table": table, "paper_shape": shape, "len": length, "app": "x", "dims": shape}, paper, emu)

    def test_lead_and_most(self):
        self.assertEqual([thakur_findings.lead(1, g) for g in (0.97, 0.99, 1.03)], ["G", "=", "P"])
        self.assertEqual(thakur_findings.most(5, 5), "in all cells (5 of 5)")
        self.assertEqual(thakur_findings.most(9, 10), "almost everywhere (9 of 10)")
        self.assertEqual(thakur_findings.most(6, 10), "in most cells (6 of 10)")
        self.assertEqual(thakur_findings.most(3, 10), "in only 3 of 10")

    def test_verdicts_count_the_cells_both_ran(self):
        cells = [self.cell("2", "4x4", "256", "0.010", 0.010), self.cell("5", "4x4", "256", "0.009", 0.0095),
                 self.cell("2", "4x4", "1024", "0.020", 0.020), self.cell("5", "4x4", "1024", "0.030", None),
                 self.cell("3", "4x5", "256", "0.010", 0.010), self.cell("4", "4x5", "256", "0.009", 0.0099)]
        # GEN against PEX at 256: emulated G (0.0095 < 0.0098), paper G (0.009 < 0.0098): agree; 1024 not run
        # SHIFT against PEX-GEN: emulated 0.0099 < 0.00995 and paper 0.009 < 0.010: agree
        self.assertEqual(thakur_findings.pair_verdicts(cells), (1, 1, 1, 1))
        table = text_of(thakur_findings.gen_pex_table, cells)
        self.assertIn("| 256 | G / G |\n| 1024 | - / P |", table)
        self.assertIn("agrees with the paper on 1 of 1 cells.", table)

    def test_a_missing_paper_cell_is_not_compared(self):
        cells = [self.cell("3", "4x5", "256", "0.010", 0.010), self.cell("3", "4x5", "1024", "0.020", 0.020),
                 self.cell("4", "4x5", "1024", "0.019", 0.0199)]
        self.assertIn("in the paper faster in 1 and equal in 0 of 1.", text_of(thakur_findings.shift_sentence, cells))
        only_pex = [self.cell("2", "4x4", "256", "0.010", 0.010)]
        self.assertIn("| 256 | - / - |", text_of(thakur_findings.gen_pex_table, only_pex))

    def test_within_a_factor_one_and_a_half(self):
        # 1/1.5 = 0.6667 < 0.668: within
        cells = [self.cell("2", "4x4", "256", "1", 0.668)]
        self.assertIn("to within a factor 1.5 in all cells (1 of 1)", thakur_reading.reading(cells, [], [], []))

    def test_error_by_table_splits_short_and_long_blocks(self):
        def paper_row(table, app, shape, length, s):
            return {"table": table, "app": app, "paper_shape": shape, "dims": shape, "len": length, "paper_s": s}
        paper_rows = [paper_row("2", "alltoall_pex", "4x4", "1024", "0.010"),
                      paper_row("2", "alltoall_pex", "4x4", "4096", "0.020"),
                      paper_row("3", "alltoall_pex_gen", "4x5", "4096", "0.020")]
        cells = [self.cell("2", "4x4", "1024", "0.010", 0.011), self.cell("2", "4x4", "4096", "0.020", 0.030),
                 self.cell("3", "4x5", "4096", "0.020", 0.020), self.cell("3", "4x5", "256", "0.020", None)]
        # the model on 4x4 PEX with alpha 0, beta_sat 1 us: L x 30 us (sum of max(2, f(i)) = 30)
        rows = thakur.error_by_table_rows(cells, paper_rows, 0.0, 1e-6)
        self.assertEqual(rows[0], "| Table 2 | 256-1024 B | 1 | 0.100 | 1.100 | 1 of 1 | 3.072 |")
        self.assertEqual(rows[1], "| Table 2 | 4-16 KB | 1 | 0.500 | 1.500 | 0 of 1 | 6.144 |")
        self.assertEqual(rows[2], "| Table 3 | 256-1024 B | 0 | - | - | 0 of 0 | - |")   # not run
        self.assertEqual(rows[3], "| Table 3 | 4-16 KB | 1 | 0.000 | 1.000 | 1 of 1 | - |")  # no model of PEX-GEN
        self.assertEqual(len(rows), 10)

    def test_link_sharing_by_node_count(self):
        rows = [row(app="alltoall_pex", dims="8x16", max_link_sharing=8), row(app="alltoall_gen", dims="8x16", max_link_sharing=8),
                row(app="alltoall_pex", dims="4x4", max_link_sharing=2), row(app="alltoall_gen", dims="4x4", max_link_sharing=3),
                row(app="alltoall_pex", dims="8x8", max_link_sharing=4)]
        self.assertEqual(thakur_findings.link_sharing(rows), [("4x4", 2, 3), ("8x16", 8, 8)])


class Torus(unittest.TestCase):
    def test_crossover_interpolates_where_the_log_ratio_is_zero(self):
        times = {("alltoall_a1", "8x8", "16"): 100, ("alltoall_pex", "8x8", "16"): 200,
                 ("alltoall_a1", "8x8", "64"): 400, ("alltoall_pex", "8x8", "64"): 300,
                 ("alltoall_gen", "8x8", "64"): 350}
        text, x, formula = torus000.crossover(times, "8x8", DEFAULT)
        # log(a/b) is log(1/2) at 16 B and log(4/3) at 64 B: zero at 16 * 4^(log 2 / log(8/3))
        self.assertAlmostEqual(x, 16 * 4 ** (math.log(2) / math.log(8 / 3)))
        self.assertIn("up to m = 16 B and loses from 64 B: crossover about 43 B", text)
        self.assertAlmostEqual(formula, 56000 / 225)

    def test_count_row(self):
        r = row(app="alltoall_a1", dims="8x8", nodes=64, len=16, steps=7, sends_per_node=6, bytes_per_node=352 * 16)
        self.assertEqual(torus000.count_row(r), ["a1", "8x8", "7", "6", "7", "352", "288", "289", "640"])


class Survey(unittest.TestCase):
    def test_reading_counts_against_table2(self):
        rows = [row(app="alltoall_direct", dims="4x4", nodes=16, len=64, steps=15, max_msg_bytes=64, bytes_per_node=960, max_link_sharing=2),
                row(app="alltoall_quadrant_exchange", dims="4x4", nodes=16, len=64, steps=9, max_msg_bytes=256, bytes_per_node=24 * 64, max_link_sharing=1),
                row(app="alltoall_binary_exchange", dims="4x4", nodes=16, len=64, steps=5, max_msg_bytes=512, bytes_per_node=2048, max_link_sharing=2)]
        text = survey002.reading([survey002.Run(r) for r in rows])
        self.assertIn("steps as the formula in 2, the largest message as the formula in 3.", text)
        self.assertIn("In every run direct exchange and binary exchange share a link", text)
        self.assertIn("quadrant exchange never does: the table's point", text)
        self.assertIn("Quadrant exchange sends fewer blocks per node than the formula in 1 of its 1 runs", text)

    def test_an_unknown_app_comes_after_the_known(self):
        known = [survey002.order_of(a) for a in survey002.ORDER]
        self.assertEqual(known, sorted(known))
        self.assertGreater(survey002.order_of("alltoall_other"), max(known))


class Flood(unittest.TestCase):
    def test_loads_against_the_corollaries(self):
        rows = [row(app="allgather_flood", topo="torus", dims="5x5", len=64, group="torus", max_link_worms=4, min_link_worms=4, max_link_flits=48),
                row(app="allgather_flood", topo="mesh", dims="4x4", len=64, group="mesh", max_link_worms=5, min_link_worms=2, max_link_flits=64),
                row(app="allgather_flood", topo="mesh", dims="5x5", len=64, group="mesh", max_link_worms=6, min_link_worms=3, max_link_flits=104)]
        # torus: 48 x 8 / 64 = 6 = (25 - 1)/4; meshes: 8 = 16/2 for even n; 13 > 12
        text = flood004.reading(rows, [], DEFAULT)
        self.assertIn("On 1 of the 1 tori every channel carries the same number", text)
        self.assertIn("On 1 of the 2 meshes the busiest channel is within", text)
        table = text_of(flood004.load_table, rows, DEFAULT)
        self.assertEqual(table.splitlines()[0], "| mesh | 4 | 5 | 2 | 8 | <= 7.5 (Cor. 2) |")

    def test_delay_rows(self):
        rows = [row(app="allgather_flood", dims="7x7", len=64, group="delay", net="hop_cycles=1", coll_ns=200000),
                row(app="allgather_rowcol", dims="7x7", len=64, group="delay", net="hop_cycles=1", coll_ns=36000)]
        runs = flood004.delay_runs(rows)
        line = text_of(flood004.delay_table, runs, DEFAULT).splitlines()[0]
        self.assertEqual(line, "| 64 | 8 | 0.125 | 200.0 | 1.8 | 112.11 | 36.0 | 3.6 |")


class Banyan(unittest.TestCase):
    def test_time_per_round(self):
        rows = [row(app="alltoall_atape", nodes=8, len=256, coll_ns=8000), row(app="alltoall_atape", nodes=16, len=256, coll_ns=20000),
                row(app="alltoall_atape", nodes=32, len=256, coll_ns=32000), row(app="alltoall_pex", nodes=8, len=256, coll_ns=7000)]
        spans = banyan004.per_round(rows)
        self.assertEqual(spans, {256: (1000.0, 8, 1250.0, 16)})
        self.assertIn("varies by at most a factor 1.25 over n at each block length, while n grows 4-fold",
                      banyan004.reading(rows, spans))
        self.assertIn("did not make ATAPE faster in 1 of the 1 settings", banyan004.reading(rows, spans))


class Tseng(unittest.TestCase):
    def test_fewest_steps_and_fastest(self):
        rows = [row(app="bcast_tseng2d", dims="5x5", len=64, steps=3, coll_ns=10000, max_link_sharing=1),
                row(app="bcast_rd", dims="5x5", len=64, steps=6, coll_ns=9000, max_link_sharing=1),
                row(app="bcast_utorus", dims="5x5", len=64, steps=5, coll_ns=9500, max_link_sharing=2)]
        text = tseng001.reading(tseng001.by_cell(rows), 500)
        self.assertIn("(ties included) in 1 of 1 at 64 B. The fastest: at 64 B recursive doubling in 1.", text)
        self.assertIn("not the fastest (at 64 B)", text)
        self.assertIn("on one channel on the 5x5 tori", text)

    def test_a_missing_run_is_a_dash(self):
        rows = [row(app="bcast_tseng2d", dims="5x5", len=64, steps=3, coll_ns=10000, max_link_sharing=1)]
        doc = Doc()
        tseng001.time_table(doc, tseng001.by_cell(rows))
        self.assertIn("| 5x5 | 64 | 3 / 10.0 | - | - | - |", str(doc))


class Hardware(unittest.TestCase):
    def test_where_the_hardware_is_fastest(self):
        rows = [row(group="allreduce", app="allreduce_hw", nodes=16, len=8, coll_ns=500),
                row(group="allreduce", app="allreduce_tree", nodes=16, len=8, coll_ns=9000),
                row(group="allreduce", app="allreduce_hw", nodes=16, len=512, coll_ns=18000),
                row(group="allreduce", app="allreduce_tree", nodes=16, len=512, coll_ns=16000),
                row(group="allreduce", app="allreduce_std_exchange", nodes=16, len=512, coll_ns=15000)]
        text = text_of(hwcoll002.crossover_sentence, rows)
        self.assertEqual(text, "All-reduction on 16 nodes: the hardware is fastest at len 8; software at len 512. \n\n")
        self.assertIn("in 1 of the 1 operation and machine pairs, and the software at the longest in 1 of them.",
                      hwcoll002.reading(rows))


class Families(unittest.TestCase):
    def test_fastest_and_slowest_family(self):
        rows = [row(app="alltoall_pex", topo="mesh", dims="4x4", nodes=16, coll_ns=1000, max_link_sharing=2),
                row(app="alltoall_pex", topo="fattree", dims="n=16", nodes=16, coll_ns=1004, max_link_sharing=1),
                row(app="alltoall_pex", topo="torus", dims="4x4", nodes=16, coll_ns=1500, max_link_sharing=2)]
        text = text_of(families.fastest_sentence, rows)
        self.assertEqual(text, "PEX on 16 nodes: fastest (within 0.5 %) on fattree, mesh; slowest on the torus, "
                               "50.0 % slower. Every step of both algorithms was free of contention on: fattree.\n\n")

    def test_a_missing_run_is_a_dash(self):
        rows = [row(app="alltoall_pex", topo="torus", dims="8x8", nodes=64, net="vcs=4", coll_ns=2500, max_link_sharing=2)]
        self.assertIn("| torus 8x8 (vcs=4) | 64 | 2.5 | 2 | - | - |", text_of(families.vc_table, rows))


class Worms(unittest.TestCase):
    def test_fastest_and_row_column(self):
        rows = [row(group="corner", app="mcast_dualpath", nodes=16, len=64, coll_ns=2000),
                row(group="corner", app="bcast_pandasingal", nodes=16, len=64, coll_ns=1700),
                row(group="corner", app="bcast_rd", nodes=16, len=64, coll_ns=7000)]
        t = pathmc002.times(rows)
        self.assertEqual(text_of(pathmc002.fastest_sentence, t),
                         "corner, 16 nodes: fastest bcast_pandasingal at 64 (row-column 0.85x the single worm). \n\n")
        text = pathmc002.reading(t)
        self.assertIn("beat the single worm in 1 of 1 cases (16 nodes at 64 B).", text)
        self.assertIn("beats both U-mesh and recursive doubling in 1 of 1 mesh cases", text)


class PresetFigures(unittest.TestCase):
    """The sections quote their preset's node clock, start-ups and rates
    from the preset itself, so an edit of presets/*.conf moves the prose
    with it."""

    def test_clock_and_instruction(self):
        delta = preset.Costs({"t_send_ns": "97644", "t_recv_ns": "97644", "byte_ps": "132820",
                              "flit_bytes": "4", "cpu_ps": "25000", "nic_cycles": "2"})
        self.assertEqual((delta.clock_text, delta.instr_ns), ("40 MHz", 25))
        self.assertEqual((DEFAULT.clock_text, DEFAULT.instr_ns), ("1 GHz", 1))
        self.assertEqual(DEFAULT.msg_max, preset.Costs({"t_send_ns": "1", "t_recv_ns": "1", "byte_ps": "1",
                                                        "flit_bytes": "1"}).msg_max)

    def test_torus000_machine(self):
        self.assertEqual(torus000.machine_text(DEFAULT), "1 GHz nodes, alpha = 500 + 500 ns, 1 byte/ns links and NICs")
        slow = preset.Costs({"t_send_ns": "700", "t_recv_ns": "300", "byte_ps": "2000", "flit_bytes": "8",
                             "cpu_ps": "6667", "nic_cycles": "2"})
        self.assertEqual(torus000.machine_text(slow),
                         "149.993 MHz nodes, alpha = 700 + 300 ns, 0.5 byte/ns links, NICs at 1/2 of it")
