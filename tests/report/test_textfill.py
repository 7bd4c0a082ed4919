"""Paragraph filling (experiments/report/textfill.py): GNU fmt's lines."""

import os
import random
import shutil
import subprocess
import unittest

from report.textfill import fill

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# A paragraph of docs/results.md as `fmt -w 76` filled it.
FILLED = """Counted over the 15 runs: steps as the formula in 15, the largest message
as the formula in 15. In every run direct exchange and binary exchange
share a link within a step (max link sharing above 1); quadrant exchange
never does: the table's point that only quadrant exchange is stepwise
contention-free.  Quadrant exchange sends fewer blocks per node than the
formula in 5 of its 5 runs: its messages hold N/4 blocks only while every
node holds data for all three other quadrants, and the survey's product
counts every step at the full N/4.
"""
RAW = ("Counted over the 15 runs: steps as the formula in 15, the largest message as the formula in 15."
       " In every run direct exchange and binary exchange share a link within a step (max link sharing"
       " above 1); quadrant exchange never does: the table's point that only quadrant exchange is stepwise"
       " contention-free.\nQuadrant exchange sends fewer blocks per node than the formula in 5 of its 5"
       " runs: its messages hold N/4 blocks only while every node holds data for all three other"
       " quadrants, and the survey's product counts every step at the full N/4.\n")


class Fill(unittest.TestCase):
    def test_a_paragraph_of_the_results_page(self):
        self.assertEqual(fill(RAW), FILLED)

    def test_short_line_and_sentence_end(self):
        self.assertEqual(fill("a b c\n"), "a b c\n")
        self.assertEqual(fill("One.\nTwo\n"), "One.  Two\n")
        self.assertEqual(fill("e.g. this\n"), "e.g. this\n")

    def test_paragraphs_stay_apart_and_words_in_order(self):
        words = ["w%02d" % i for i in range(60)]
        out = fill(" ".join(words[:30]) + "\n\n" + " ".join(words[30:]) + "\n")
        first, second = out.split("\n\n")
        self.assertEqual(first.split(), words[:30])
        self.assertEqual(second.split(), words[30:])
        self.assertTrue(all(len(line) <= 76 for line in out.splitlines()))

    def test_a_word_longer_than_the_width_stands_alone(self):
        long_word = "x" * 90
        self.assertEqual(fill("a " + long_word + " b\n"), "a\n" + long_word + "\nb\n")

    @unittest.skipUnless(shutil.which("fmt"), "no fmt")
    def test_same_lines_as_gnu_fmt(self):
        rnd = random.Random(3)
        vocabulary = "a the (row-column 1.84x worm). PEX's \"quoted\" 16x16 contention-free. end? x, y;".split()
        for _ in range(200):
            text = ""
            for _ in range(rnd.randint(1, 150)):
                text += rnd.choice(vocabulary + ["w" * rnd.randint(1, 25)])
                text += rnd.choice([" ", " ", " ", "  ", "\n"])
            text = text.rstrip(" ") + "\n"
            want = subprocess.run(["fmt", "-w", "76"], input=text, capture_output=True, text=True).stdout
            self.assertEqual(fill(text), want, text)
