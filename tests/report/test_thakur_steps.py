"""Section 1's step-by-step figures (experiments/report/thakur_steps.py)
on a summary.json worked out by hand."""

import unittest

from report import thakur_steps as ts


def summary(steps, byte_ps=1000, nic_cycles=2):
    """A summary.json with the network fields read and the steps given as
    (step, f, first_post, last_arrive, longest)."""
    return dict(network=dict(byte_ps=byte_ps, nic_cycles=nic_cycles, t_send_ns=1, t_recv_ns=1),
                steps=[dict(step=s, max_link_sharing=f, first_post_ns=p, last_arrive_ns=a, max_network_ns=m)
                       for s, f, p, a, m in steps])


# L = 100 bytes at 1 ns a byte on a link: a bound of max(2, f) * 100 ns.
HAND = summary([(0, 9, 0, 10, 5),            # step 0 (before the collective): not a step of it
                (2, 4, 300, 700, 400),        # at its bound, began 500 before step 1's end: during
                (1, 1, 0, 800, 200),          # f = 1: bound 200 (the NIC's rate), at it, after step 0
                (3, 2, 695, 1000, 300)])      # bound 200, 1.5 above it; began 5 before: after (< 20)


class StepRows(unittest.TestCase):
    def test_bounds_ratios_and_overlap(self):
        rows = ts.step_rows(HAND, 100)
        self.assertEqual([r["step"] for r in rows], [1, 2, 3])
        self.assertEqual([r["bound_ns"] for r in rows], [200, 400, 200])
        self.assertEqual([r["ratio"] for r in rows], [1.0, 1.0, 1.5])
        self.assertEqual([r["during"] for r in rows], [False, True, False])

    def test_nic_rate_bounds_an_uncontended_step(self):
        rows = ts.step_rows(summary([(1, 1, 0, 10, 300)], nic_cycles=3), 100)
        self.assertEqual(rows[0]["bound_ns"], 300)

    def test_grouping_and_counts(self):
        rows = ts.step_rows(HAND, 100)
        self.assertEqual(ts.by_sharing(rows), [(1, False, 1, 1, 1.0, 1.0, 1.0),
                                               (2, False, 1, 0, 1.5, 1.5, 1.5),
                                               (4, True, 1, 1, 1.0, 1.0, 1.0)])
        self.assertEqual(ts.counts(rows), (2, 1, 0, 0, 1))
        low = ts.step_rows(summary([(1, 4, 0, 10, 200)]), 100)    # half its bound: not at it
        self.assertEqual(ts.counts(low), (0, 0, 1, 0, 0))
        self.assertEqual(ts.by_sharing(low)[0][3], 0)
        self.assertEqual(ts.table(rows)[2], "| 1 | after the previous step | 1 | 1 | 1.00, 1.00, 1.00 |")


if __name__ == "__main__":
    unittest.main()
