"""Section 5: McKinley, Tsai and Robinson (seed 002), Table 2: complete
exchange on a 2D mesh, the steps, message sizes and blocks per node of
direct, binary and quadrant exchange against the table's formulas."""

from . import csvio, doc as md, formulas
from .ordering import sorted_lines

SWEEP = "survey002"
TITLE = "5. McKinley, Tsai and Robinson (seed 002), Table 2: 2D mesh complete exchange"
ORDER = ("alltoall_direct", "alltoall_binary_exchange", "alltoall_quadrant_exchange")
NAMES = {"alltoall_direct": "direct exchange", "alltoall_binary_exchange": "binary exchange",
         "alltoall_quadrant_exchange": "quadrant exchange"}

INTRO = """Command: `make sweep SWEEP=survey002` (experiments/survey002.sweep), preset
`default`, 2^j x 2^j meshes, N nodes. Measured from each run's
messages: steps, the largest message in blocks (bytes / l), blocks sent
per node (the table's "messages per node": individual messages, i.e.
blocks), and the largest number of a step's messages sharing one link.
Wall time: %s.

| algorithm | mesh | l (B) | steps | formula | message (blocks) | formula | blocks per node | formula | max link sharing | time (us) |
|---|---|---|---|---|---|---|---|---|---|---|
"""


class Run:
    """One ok run: its measured counts (in blocks) and Table 2's."""

    def __init__(self, r):
        self.row = r
        self.app = r["app"]
        self.nodes = int(r["nodes"])
        self.length = csvio.number(r["len"])
        self.steps = csvio.number(r["steps"])
        self.message = csvio.number(r["max_msg_bytes"]) / self.length
        self.blocks = csvio.number(r["bytes_per_node"]) / self.length
        self.sharing = csvio.number(r["max_link_sharing"])
        self.formula = formulas.survey_table2(self.app, self.nodes)


def order_of(app):
    """Where an app's rows go: ORDER's, then any other app's."""
    return ORDER.index(app) if app in ORDER else len(ORDER)


def table(doc, runs):
    body = []
    for x in runs:
        fs, fm, fn = x.formula
        r = x.row
        line = "| %s | %s | %s | %s | %g | %g | %g | %g | %g | %s | %.1f |" % (
            x.app[len("alltoall_"):], r["dims"], r["len"], r["steps"], fs, x.message, fm, x.blocks, fn,
            r["max_link_sharing"], csvio.number(r["coll_ns"]) / 1e3)
        body.append(((order_of(x.app), x.nodes, x.length), line))
    doc.lines(sorted_lines(body))
    doc.line()


def reading(runs):
    """The counts against the formulas, and which algorithms share links."""
    if not runs:
        return ""
    st = sum(1 for x in runs if x.steps == x.formula[0])
    ms = sum(1 for x in runs if x.message == x.formula[1])
    text = ("Counted over the %d runs: steps as the formula in %d, the largest message as the formula in %d."
            % (len(runs), st, ms))
    present = [a for a in ORDER if any(x.app == a for x in runs)]
    always, never = [], []
    for a in present:
        mine = [x for x in runs if x.app == a]
        shared = sum(1 for x in mine if x.sharing > 1)
        if shared == len(mine):
            always.append(NAMES[a])
        elif not shared:
            never.append(NAMES[a])
    if always:
        text += (" In every run %s share%s a link within a step (max link sharing above 1)"
                 % (" and ".join(always), "" if len(always) > 1 else "s"))
    if never:
        text += "%s %s never does%s" % (
            ";" if always else "", " and ".join(never),
            ": the table's point that only quadrant exchange is stepwise contention-free"
            if never == ["quadrant exchange"] else "")
    text += ".\n"
    for a in present:
        mine = [x for x in runs if x.app == a]
        below = sum(1 for x in mine if x.blocks != x.formula[2] and x.blocks < x.formula[2])
        if below:
            name = NAMES[a][0].upper() + NAMES[a][1:]
            text += "%s sends fewer blocks per node than the formula in %d of its %d runs%s.\n" % (
                name, below, len(mine),
                ": its messages hold N/4 blocks only while every node holds data for all three other"
                " quadrants, and the survey's product counts every step at the full N/4"
                if a == "alltoall_quadrant_exchange" else "")
    return text


def section(ctx, doc):
    rows = md.open_section(ctx, doc, SWEEP, TITLE, INTRO)
    if rows is None:
        return
    runs = [Run(r) for r in csvio.ok_rows(rows)]
    table(doc, runs)
    doc.line()
    doc.filled(reading(runs))
    doc.line()
