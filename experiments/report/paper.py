"""A paper's table of measured times beside the emulated ones.

A paper's table (experiments/paper/NAME.csv) is a CSV, `#` comments first,
with the columns it shares with results.csv (app, dims, len, ...) naming
each cell, and a column of the paper's time in seconds. join() pairs each
paper cell with the emulated time of the sweep's ok row of that cell, in
seconds as the tables print it (6 significant digits). A paper's row
whose time is not a positive number is no cell (as in errors.ErrorSummary).
"""

import math

from . import csvio
from .csvio import SweepError

KEY_COLUMNS = ("app", "topo", "dims", "len", "preset", "port_model", "net", "args", "arch")
FACTOR = 1.5     # "within a factor 1.5": 1/1.5 < emulated/paper < 1.5


class Cell:
    """One paper cell: its row (all the paper's columns), the paper's
    time (paper_text as written, paper as a number) and the emulated one
    (emu, None when the cell was not run)."""

    def __init__(self, row, paper_text, emu):
        self.row = row
        self.paper_text = paper_text
        self.paper = csvio.number(paper_text)
        self.emu = emu

    def __getitem__(self, column):
        return self.row[column]

    def ratio(self):
        """emulated / paper."""
        return self.emu / self.paper


def key_columns(paper_rows, sweep_rows, source="the paper's table"):
    """The columns of the paper's table that are also run keys of the
    sweep's CSV: they name a cell in both. SweepError when there is
    none."""
    if not paper_rows:
        return []
    have = list(sweep_rows[0]) if sweep_rows else list(KEY_COLUMNS)
    keys = [c for c in KEY_COLUMNS if c in paper_rows[0] and c in have]
    if not keys:
        raise SweepError("%s shares no run key (%s) with results.csv, so no cell of it names a run; "
                         "its columns: %s; results.csv's: %s" % (
                             source, ", ".join(KEY_COLUMNS), ", ".join(paper_rows[0]), ", ".join(have)))
    return keys


def emulated_seconds(sweep_rows, keys, metric="coll_ns"):
    """(times, shared): the emulated time in seconds (6 significant
    digits) of each cell of the sweep's ok rows, by the key columns, and
    the keys that two ok rows or more have."""
    times, shared = {}, set()
    for r in csvio.ok_rows(sweep_rows):
        key = tuple(r[k] for k in keys)
        if key in times:
            shared.add(key)
        times[key] = csvio.rounded(csvio.number(r[metric]) / 1e9)
    return times, shared


def timed_rows(paper_rows, time_column):
    """The paper's rows whose time is a positive number."""
    return [p for p in paper_rows if csvio.positive(p[time_column]) is not None]


def join(paper_rows, sweep_rows, time_column, metric="coll_ns", source="the paper's table"):
    """The paper's cells (its timed rows), in its order, each with its
    emulated time. SweepError when two ok runs have a cell's key."""
    keys = key_columns(paper_rows, sweep_rows, source)
    times, shared = emulated_seconds(sweep_rows, keys, metric)
    cells = []
    for p in timed_rows(paper_rows, time_column):
        key = tuple(p[k] for k in keys)
        if key in shared:
            raise SweepError("two ok runs or more are the cell %s of %s: its columns %s do not tell them "
                             "apart; add the run key that does to it" % (
                                 " ".join(key), source, ", ".join(keys)))
        cells.append(Cell(p, p[time_column], times.get(key)))
    return cells


def within_factor(ratio):
    """True when 1/1.5 < ratio < 1.5."""
    return 1 / FACTOR < ratio < FACTOR


def run_cells(cells):
    """The cells that were run."""
    return [c for c in cells if c.emu is not None]


def cell_text(cell):
    """emulated s / paper s (ratio), or - for a cell not run."""
    if cell.emu is None:
        return "-"
    return "%.4g / %s (%.2f)" % (cell.emu, cell.paper_text, cell.ratio())


def ratio_summary(cells):
    """Over the cells run with a positive time: n, geometric mean of the
    ratios, lowest, highest, and the count within a factor 1.5; None
    without any."""
    ratios = [c.ratio() for c in run_cells(cells) if c.emu > 0]
    if not ratios:
        return None
    log_sum = 0.0
    for r in ratios:
        log_sum += math.log(r)
    within = sum(1 for r in ratios if within_factor(r))
    return len(ratios), math.exp(log_sum / len(ratios)), min(ratios), max(ratios), within


def ratio_sentence(cells):
    """The sentence of ratio_summary, or empty text."""
    s = ratio_summary(cells)
    if s is None:
        return ""
    return ("Over the %d cells run: geometric mean of emulated/paper %.2f, range %.2f to %.2f, "
            "%d cells within a factor 1.5.\n\n" % s)


def grid(cells, across, down, text=cell_text):
    """A table of cells: one column per value of `across`, one row per
    value of `down` (both in first-seen order), text(cell) in each."""
    cols = csvio.first_seen(c[across] for c in cells)
    rows = csvio.first_seen(c[down] for c in cells)
    at = {(c[across], c[down]): c for c in cells}
    body = []
    for d in rows:
        body.append([d] + [text(at[(a, d)]) if (a, d) in at else "" for a in cols])
    return cols, body
