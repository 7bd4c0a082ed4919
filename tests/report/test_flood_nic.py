"""The flood runs' kept blocked-worm counts (experiments/report/flood_nic.py):
counted from each run's messages.csv and written by machine, length and
net setting, whatever order the sweep finished its runs in."""

import os

from helpers import ScratchTest, row, write_csv
from report import flood_nic
from report.context import Context


class KeptCounts(ScratchTest):
    def run_dir(self, name, blocked):
        write_csv(self.path("results", "flood004", "runs", name, "messages.csv"),
                  [{"src": 0, "blocked_ns": b} for b in blocked])
        return "runs/" + name

    def test_counted_and_kept_in_order(self):
        rows = [row(dims="11x11", len=8, net="hop_cycles=1", sim_time_ns=4, run_dir=self.run_dir("d", [2])),
                row(dims="9x9", len=8, net="hop_cycles=1", sim_time_ns=3, run_dir=self.run_dir("c", [0, 5])),
                row(dims="5x5", len=64, net="hop_cycles=20", sim_time_ns=2, run_dir=self.run_dir("b", [1, 1, 0])),
                row(dims="5x5", len=64, net="hop_cycles=1", sim_time_ns=1, run_dir=self.run_dir("a", [0]))]
        ctx = Context(self.path("results"), self.dir, self.dir)
        try:
            self.assertEqual(flood_nic.blocked_counts(ctx, "flood004", rows), (4, 4))
            with open(self.path("results", "flood004", "kept", "nic-blocked.csv")) as f:
                self.assertEqual(f.read().splitlines(), ["dims,len,net,sim_time_ns,blocked_worms",
                                                         "5x5,64,hop_cycles=1,1,0", "5x5,64,hop_cycles=20,2,2",
                                                         "9x9,8,hop_cycles=1,3,1", "11x11,8,hop_cycles=1,4,1"])
            for name in "abcd":                   # the runs gone: read back from the kept counts
                os.remove(self.path("results", "flood004", "runs", name, "messages.csv"))
            self.assertEqual(flood_nic.blocked_counts(ctx, "flood004", rows[::-1]), (4, 4))
        finally:
            ctx.close()
