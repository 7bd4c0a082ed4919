"""The papers' formulas (experiments/report/formulas.py) on cases worked
out by hand from the papers' definitions."""

import math
import unittest

from report import formulas


class ThakurModel(unittest.TestCase):
    def test_pow2_floor(self):
        self.assertEqual([formulas.pow2_floor(x) for x in (0, 1, 2, 3, 7, 8, 9)], [1, 1, 2, 2, 4, 8, 8])

    def test_pex_step_sharing(self):
        # c = 4: max(i mod 4, i div 4) <= 3, so f(i) <= 2 on the 4x4 mesh; c = 8: f(7) = 4
        self.assertEqual(max(formulas.pex_step_sharing(i, 4) for i in range(1, 16)), 2)
        self.assertEqual([formulas.pex_step_sharing(i, 8) for i in (1, 3, 7, 8, 24, 63)], [1, 2, 4, 1, 2, 4])

    def test_pex_step_sum_on_2x8(self):
        # i = 1..7: max(2, 2^floor(lg i)) = 2,2,2,4,4,4,4; i = 8: 2; i = 9..15 as 1..7
        self.assertEqual(formulas.pex_contention_sum(16, 8), 22 + 2 + 22)

    def test_gen_step_sum_on_2x8(self):
        # f(i) = min(i mod 8, 8 - i mod 8) + min(i div 8, (16 - i) div 8)
        # i = 1..7: 1,2,3,4,3,2,1 (+0); i = 8: 0 + 1; i = 9..15: 1,2,3,4,3,2,1 (+0)
        self.assertEqual(formulas.gen_contention_sum(16, 8), 18 + 2 + 18)

    def test_time_is_startups_plus_contended_bytes(self):
        self.assertEqual(formulas.thakur_time("alltoall_pex", 16, 8, 1000, 100, 0.5), 15 * 100 + 1000 * 0.5 * 46)
        self.assertEqual(formulas.thakur_time("alltoall_gen", 16, 8, 1000, 100, 0.5), 15 * 100 + 1000 * 0.5 * 38)

    def test_fit_recovers_the_parameters_of_exact_times(self):
        alpha, beta = 2.0e-4, 1.3e-7
        cells = [("alltoall_pex", 16, 4, length, formulas.thakur_time("alltoall_pex", 16, 4, length, alpha, beta))
                 for length in (256, 1024, 4096, 16384)]
        a, b = formulas.fit_thakur_model(cells)
        self.assertAlmostEqual(a / alpha, 1, places=9)
        self.assertAlmostEqual(b / beta, 1, places=9)


class TorusTable1(unittest.TestCase):
    def test_counts_on_8x8(self):
        self.assertEqual(formulas.torus_table1("alltoall_a1", 8), (7, 288, 640))
        self.assertEqual(formulas.torus_table1("alltoall_an1", 8), (8, 896, 1536))
        self.assertEqual(formulas.torus_table1("alltoall_pex", 16), (255, 255, 0))

    def test_crossover_is_where_a1_and_direct_meet(self):
        m = formulas.a1_crossover(8, 1000, 1.0)
        self.assertAlmostEqual(m, 56000 / 225)
        self.assertAlmostEqual(formulas.a1_time(8, m, 1000, 1.0), formulas.direct_time(8, m, 1000, 1.0))
        self.assertLess(formulas.a1_time(8, m / 2, 1000, 1.0), formulas.direct_time(8, m / 2, 1000, 1.0))


class SurveyTable2(unittest.TestCase):
    def test_counts(self):
        self.assertEqual(formulas.survey_table2("alltoall_direct", 16), (15, 1, 15))
        self.assertEqual(formulas.survey_table2("alltoall_binary_exchange", 16), (4, 8, 32))
        self.assertEqual(formulas.survey_table2("alltoall_quadrant_exchange", 64), (21, 16, 336))

    def test_worm_models(self):
        # 16 nodes, 8 flits of 8 ns, t_s = 1000 ns
        self.assertEqual(formulas.one_worm_time(1000, 16, 8, 8), 1000 + 23 * 8)
        self.assertEqual(formulas.row_column_time(1000, 16, 8, 8), 2 * (1000 + 11 * 8))


class Flooding(unittest.TestCase):
    def test_corollaries(self):
        self.assertEqual(formulas.corollary1_load(7), 12)
        self.assertEqual(formulas.corollary2_bound(4), 7.5)

    def test_theorem4_both_cases(self):
        # delta <= L gamma: 1000 + 8 + 64 + 11 x 64 + 8
        self.assertEqual(formulas.theorem4_bound(1000, 7, 8, 64), 1784)
        # delta > L gamma: 508 + 160 + 8 + 5 x 160 + 8
        self.assertEqual(formulas.theorem4_bound(508, 5, 160, 8), 1484)

    def test_saad_schultz(self):
        self.assertEqual(formulas.saad_schultz_time(1000, 7, 8, 64), 2000 + 6 * 8 + 24 * 64)
        self.assertTrue(math.isclose(formulas.saad_schultz_time(0, 4, 1, 0), 4))
