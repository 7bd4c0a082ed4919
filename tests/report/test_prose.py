"""The fixed text of docs/results.md (experiments/report/prose.py) on the
columns of results.csv: which of them count the collective only and
which the whole run, as experiments/sweep-cell.sh's collect() measures
them."""

import re
import unittest

from report import prose

# collect(): the messages.csv columns count steps >= 1 (step 0 is the
# start barrier); max_link_sharing is over steps.csv's steps >= 1; the
# links.csv columns are over every worm of the run, the barrier's too.
COLLECTIVE_ONLY = ["sends_per_node", "startups_per_node", "messages", "bytes", "bytes_per_node", "max_msg_bytes"]
WHOLE_RUN = ["max_link_worms", "min_link_worms", "max_link_flits"]


def columns_paragraph():
    text = prose.RUNNING.replace("\n", " ")
    start = text.index("The columns of results.csv:")
    return text[start:text.index("`run_dir`", start)]


def named_before(text, marker):
    """The backquoted column names of text before marker."""
    head = text[:text.index(marker)]
    return re.findall(r"`([a-z_0-9]+)`", head)


class Columns(unittest.TestCase):
    def test_collective_only_columns(self):
        text = columns_paragraph()
        marker = "(these six count the collective only: messages.csv's steps from 1, the barrier's step 0 left out)"
        self.assertIn(marker, text)
        head = text[text.index("`steps` (node 0's report)"):]
        self.assertEqual(named_before(head, marker), ["steps"] + COLLECTIVE_ONLY)
        self.assertIn("`max_link_sharing` (steps.csv, the largest over the collective's steps)", text)

    def test_link_columns_include_the_barrier(self):
        text = columns_paragraph()
        marker = ("(links.csv, over the whole run: the barrier's worms included, unless the app ran with sync=0)")
        self.assertIn(marker, text)
        head = text[text.index("`max_link_sharing` (steps.csv"):]
        self.assertEqual(named_before(head, marker), ["max_link_sharing"] + WHOLE_RUN)
        for c in WHOLE_RUN:
            self.assertNotIn("`%s` (collective only" % c, text)
