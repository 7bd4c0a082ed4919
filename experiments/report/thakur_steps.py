"""Section 1, step by step: each step of a kept complete exchange against
the paper's per-step bound (seed 003, section 2: a step moves its blocks
in max(beta_ex, f(i) beta_sat) per byte, f(i) the most of its messages
sharing a link).

On the emulated machine the bound of step i is the time its busiest link
takes to carry its bytes, max(nic_cycles, f(i)) L byte_ps: a link moves a
byte every byte_ps, a NIC every nic_cycles of those, and f(i) worms at
full rate share the link. It bounds a step whose worms enter together; one
worm can come in a little under it when those sharing its link entered
earlier or later, and far over it when it waits holding links
(summary.json's per-step figures: the longest worm's time in the network,
max_network_ns, against the bound).
"""

import json
import os
import statistics

from . import formulas
from .plot import Series, draw, quote
from .thakur_plots import HEATMAP_CELL as CELL

# A step is "at its bound" within this fraction, either way.
AT_BOUND = 0.05
# The most messages of a step of PEX on the 4x4 training mesh sharing a link.
TRAINING_F = max(formulas.pex_step_sharing(i, 4) for i in range(1, 16))
# A step "began during the previous one" when its first post came this
# fraction of its bound or more before the previous step's last arrival.
OVERLAP = 0.10


def at_bound(ratio):
    """Whether a step's longest worm over its bound is within AT_BOUND of 1."""
    return abs(ratio - 1) <= AT_BOUND


def step_rows(summary, length):
    """The steps 1.. of a run's summary.json as dicts: step, f (its
    max_link_sharing), longest_ns, bound_ns, ratio (longest / bound) and
    during (began during the previous step, OVERLAP)."""
    net = summary["network"]
    per_link = net["byte_ps"] / 1000.0 * length
    rows, prev = [], None
    for s in sorted(summary["steps"], key=lambda s: s["step"]):
        if s["step"] >= 1:
            f = s["max_link_sharing"]
            bound = max(net["nic_cycles"], f) * per_link
            early = prev["last_arrive_ns"] - s["first_post_ns"] if prev else 0
            rows.append(dict(step=s["step"], f=f, longest_ns=s["max_network_ns"], bound_ns=bound,
                             ratio=s["max_network_ns"] / bound, during=early >= OVERLAP * bound))
        prev = s
    return rows


def by_sharing(rows):
    """Per f, then began after or during the previous step: (f, during,
    steps, at the bound, min ratio, median ratio, max ratio)."""
    out = []
    for f in sorted({r["f"] for r in rows}):
        for during in (False, True):
            rs = [r["ratio"] for r in rows if r["f"] == f and r["during"] == during]
            if rs:
                at = sum(1 for x in rs if at_bound(x))
                out.append((f, during, len(rs), at, min(rs), statistics.median(rs), max(rs)))
    return out


def counts(rows):
    """(steps at their bound, above it, below it; of those above, how many
    began during the previous step; of all, how many did)."""
    at = sum(1 for r in rows if at_bound(r["ratio"]))
    above = [r for r in rows if r["ratio"] > 1 + AT_BOUND]
    return (at, len(above), len(rows) - at - len(above), sum(1 for r in above if r["during"]),
            sum(1 for r in rows if r["during"]))


def table(rows):
    """by_sharing as the lines of a Markdown table."""
    lines = ["| f(i) | the step began | steps | at its bound (within %d %%) | longest worm / bound: min, median, max |"
             % round(AT_BOUND * 100),
             "|---|---|---|---|---|"]
    for f, during, n, at, lo, med, hi in by_sharing(rows):
        lines.append("| %d | %s | %d | %d | %.2f, %.2f, %.2f |"
                     % (f, "during the previous step" if during else "after the previous step", n, at, lo, med, hi))
    return lines


def plot(ctx, rows, title):
    """thakur-steps-pex-8x8.png: each step's longest worm and its bound,
    in ms; its link, or None when it was not drawn."""
    series = [Series([(r["step"], r["bound_ns"] / 1e6) for r in rows],
                     "using 1:2 with steps lw 2 lc 1 title 'bound: its busiest link carrying its bytes'"),
              Series([(r["step"], r["longest_ns"] / 1e6) for r in rows],
                     "using 1:2 with points pt 7 lc 2 title 'longest worm in the network'")]
    out, link = ctx.image("thakur-steps-pex-8x8.png")
    settings = ["set title " + quote(title),
                "set xlabel 'step i'; set ylabel 'ms'; set xrange [0:%d]; set yrange [0:*]" % (len(rows) + 1),
                "set key top left; set grid"]
    return link if draw(ctx, out, settings, series) else None


def section(ctx, doc, where, cells):
    """The paragraph, table and plot of the kept 8x8 PEX run in `where`
    (thakur_plots.kept_cell, the heatmap's)."""
    with open(os.path.join(where, "summary.json")) as f:
        summary = json.load(f)
    length = int(CELL["len"])
    steps = step_rows(summary, length)
    if not steps:
        return
    net = summary["network"]
    at, above, below, above_during, during = counts(steps)
    startups = len(steps) * (net["t_send_ns"] + net["t_recv_ns"])
    total = (startups + sum(r["bound_ns"] for r in steps)) / 1e9
    paper = next((c.paper for c in cells if all(c[k] == v for k, v in CELL.items())), None)
    doc.filled(
        "Step by step, the same run (summary.json's per-step figures): the longest worm of each step "
        "in the network against the step's bound, the time its busiest link takes to carry its "
        "bytes, max(nic_cycles, f(i)) L byte_ps (section 2's max(beta_ex, f(i) beta_sat) at the "
        "preset's rates; f(i) is the step's max_link_sharing). Of the %d steps, %d are at their bound "
        "(within %d %%), %d above it%s. %d of those %d began during the previous step (their first "
        "message was posted a tenth of the bound or more before the previous step's last arrival), "
        "as %d of all %d steps did. A worm sent early can meet worms of the previous step, on a link "
        "or at its destination's NIC (still taking the previous step's message), and hold the links "
        "behind it while it waits; the paper's per-step model has no such wait. The bounds and "
        "a start-up pair a step (t_send + t_recv) sum to %.4g s; the run took %.4g s%s."
        % (len(steps), at, round(AT_BOUND * 100), above, "" if not below else " and %d below it" % below,
           above_during, above, during, len(steps), total, summary["records"]["coll_ns"]["max"] / 1e9,
           "" if paper is None else ", the paper measured %.4g s" % paper))
    if paper is not None and paper < total and TRAINING_F <= net["nic_cycles"]:
        doc.line()
        doc.filled(
            "The Delta's time is below that sum of the bounds and start-ups at the preset's rates: its "
            "steps overlapped without such waits, or its links were more than nic_cycles times as fast "
            "as its NICs, or its start-ups were shorter than the fit's. The training row (PEX on the 4x4 "
            "mesh) cannot tell the links' rate from the NICs': its f(i) is at most %d, so at "
            "nic_cycles = %d every step's bound there is the NIC's, and the fit sees the link's rate "
            "only through the assumed ratio (gamma = 1)." % (TRAINING_F, net["nic_cycles"]))
    doc.line()
    doc.lines(table(steps))
    doc.line()
    link = plot(ctx, steps, "PEX on the 8x8 mesh, 16 KB blocks: each step against its bound (delta preset)")
    if link:
        doc.line("![steps](%s)" % link)
        doc.line()
