"""Section 2: complete exchange on a 2D torus (seed 000), Table 1: the
start-ups, transmitted and relayed blocks of A1, A(n-1) and the direct
algorithms against the table's formulas, and A1's crossover."""

import math

from . import csvio, doc as md, formulas, preset
from .plot import Series, draw, quote

SWEEP = "torus000"
TITLE = "2. Complete exchange on a 2D torus (seed 000), Table 1"
APPS = ("alltoall_a1", "alltoall_an1", "alltoall_pex", "alltoall_gen")
CURVE_STEP = 1.414        # sqrt 2: two formula points per doubling of m

INTRO = """Command: `make sweep SWEEP=torus000` (experiments/torus000.sweep), preset
`default` ({machine},
one-port). N is the side of the N x N torus, m the block length.
Measured per node (the largest over the nodes): **start-ups** = messages
sent by the node; **transmitted** = blocks (bytes / m) the node sent;
**relayed** = blocks it sent that it did not originate (transmitted -
(N^2 - 1)): every relayed block was received, rearranged into a new message
and sent again, so relayed blocks are the rearrangement the emulator can
see from the messages. The paper's rearrangement column also counts the
local shuffles that pack a node's own blocks, which the messages do not
show. The direct algorithms: PEX (the XOR exchange, which is the survey's
direct algorithm; `alltoall_direct` itself is stated for meshes only) and
GEN. Wall time: %s.

Formulas (paper, Table 1, in units of t_s, m t_d and m t_r):
A(n-1): 3 log N - 1; 2N^3 - 2N^2; "4N^2 log N (log N - 1)" (the extracted
text is garbled between the two factors; shown as a product). A1: N/4 + 5;
(N^3 + 10N^2)/4; 10N^2. Direct: N^2 - 1; N^2 - 1; 0.

"""

OUTRO = """
The start-up counts are the table's in steps: A1 takes N/4 + 5 steps (a
node sends in some of them only: the start-ups column), A(n-1) 3 log N -
1, the direct algorithms N^2 - 1.

"""


def count_row(r):
    """A table row of measured counts and Table 1's formulas."""
    n = csvio.dims_side(r["dims"])
    m = csvio.number(r["len"])
    startups, transmitted, rearranged = formulas.torus_table1(r["app"], n)
    blocks = csvio.number(r["bytes_per_node"]) / m
    relayed = blocks - (csvio.number(r["nodes"]) - 1)
    return [r["app"][len("alltoall_"):], r["dims"], r["steps"], r["sends_per_node"],
            "%g" % startups, "%g" % blocks, "%g" % transmitted, "%g" % relayed, "%g" % rearranged]


def count_table(doc, rows, costs):
    shortest = min((r["len"] for r in rows), key=csvio.number)
    body = [count_row(r) for r in csvio.ok_rows(rows) if csvio.number(r["len"]) == csvio.number(shortest)]
    body.sort(key=lambda c: ((" " + c[1] + " ").encode(), (" " + c[0] + " ").encode(), md.row(c).encode()))
    doc.lines(md.table(["algorithm", "torus", "steps", "start-ups", "formula", "transmitted",
                        "formula", "relayed", "rearranged (formula)"], body))
    doc.line()
    doc.line("(m = %s bytes; the counts do not depend on m.)" % shortest)
    for r in rows:
        if r["status"] == "refused":
            doc.line("Refused: %s on %s at %s B (its messages would exceed the %d KB msg_max of the preset)."
                     % (r["app"], r["dims"], r["len"], costs.msg_max // 1024))
    doc.line()


def formula_curves(n, costs):
    """(m, A1 time, direct time) in us, from 16 B to 4 KB."""
    points, m = [], 16.0
    while m <= 4096 * 1.01:
        points.append((m, formulas.a1_time(n, m, costs.alpha_ns, costs.byte_ns) / 1e3,
                       formulas.direct_time(n, m, costs.alpha_ns, costs.byte_ns) / 1e3))
        m *= CURVE_STEP
    return points


def time_plot(ctx, dims, rows, costs):
    """torus000-DIMS.png: each algorithm's time against m, and the
    formulas of A1 and the direct algorithms; its link, or None when it
    was not drawn."""
    series = []
    for color, app in enumerate(APPS, 1):
        pts = sorted((csvio.number(r["len"]), csvio.number(r["coll_ns"]) / 1e3)
                     for r in csvio.ok_rows(rows) if r["app"] == app and r["dims"] == dims)
        if pts:
            series.append(Series(pts, "using 1:2 with linespoints lw 2 pt 7 lc %d title %s"
                                 % (color, quote(app[len("alltoall_"):]))))
    curves = formula_curves(csvio.dims_side(dims), costs)
    series.append(Series(curves, "using 1:2 with lines dt 2 lc 1 title 'A1 formula'"))
    series.append(Series(curves, "using 1:3 with lines dt 2 lc 3 title 'direct formula'"))
    out, link = ctx.image("torus000-%s.png" % dims)
    drawn = draw(ctx, out, ["set title " + quote("Complete exchange on the %s torus, default preset" % dims),
                            "set logscale xy; set xlabel 'block length m (bytes)'; set ylabel 'time (us)'; "
                            "set key top left; set grid"], series)
    return link if drawn else None


def crossover(times, dims, costs):
    """(text, emulated crossover or None, the formulas' crossover) of A1
    against the faster direct algorithm on one torus. times: coll_ns by
    (app, dims, len)."""
    lengths = sorted({float(l) for (a, d, l) in times if d == dims and a == "alltoall_a1"
                      and ("alltoall_pex", d, l) in times})
    key = {float(l): l for (a, d, l) in times}
    n = csvio.dims_side(dims)
    formula = formulas.a1_crossover(n, costs.alpha_ns, costs.byte_ns)
    last, f = None, []
    for i, m in enumerate(lengths):
        a = times[("alltoall_a1", dims, key[m])]
        p = times[("alltoall_pex", dims, key[m])]
        g = times.get(("alltoall_gen", dims, key[m]))
        best = g if g is not None and g < p else p
        f.append(math.log(a / best))
        if a < best:
            last = i
    if last is None:
        return "A1 is never faster than the direct algorithms at the lengths run", \
            (lengths[0] if lengths else None), formula
    if last == len(lengths) - 1:
        return "A1 is faster at every length run (up to %d B)" % lengths[last], None, formula
    lo, hi = lengths[last], lengths[last + 1]
    x = math.exp(math.log(lo) + (math.log(hi) - math.log(lo)) * (0 - f[last]) / (f[last + 1] - f[last]))
    return ("A1 beats the faster direct algorithm up to m = %d B and loses from %d B: crossover about "
            "%.0f B (log-interpolated)" % (lo, hi, x)), x, formula


def crossovers(doc, rows, costs):
    times = {(r["app"], r["dims"], r["len"]): csvio.number(r["coll_ns"]) for r in csvio.ok_rows(rows)}
    tori = sorted({d for (_, d, _) in times}, key=lambda d: (csvio.dims_nodes(d), d))
    below = 0
    for dims in tori:
        text, emulated, formula = crossover(times, dims, costs)
        if emulated is not None and emulated < formula:
            below += 1
        doc.line("- **%s torus**: %s; the Table 1 formulas with t_s = %d ns and t_d = %g ns/B put it at %.0f B."
                 % (dims, text, costs.alpha_ns, costs.byte_ns, formula))
    if tori:
        text = "\nThe emulated crossover lies below the formulas' on %d of the %d tori run." % (below, len(tori))
        if below:
            text += (" The formulas' crossover leaves out the rearrangement term (10N^2 m t_r for A1, 0 for"
                     " the direct algorithms); on the emulated node rearranging is real work, copying and"
                     " indexing blocks at %g ns per instruction, and A1 relays blocks through master nodes"
                     " (the relayed column)." % costs.instr_ns)
        doc.line(text)


def machine_text(costs):
    """The preset's node clock, start-ups and link and NIC rates, as INTRO
    quotes them."""
    nic = " and NICs" if costs.nic_cycles == 1 else ", NICs at 1/%d of it" % costs.nic_cycles
    return "%s nodes, alpha = %d + %d ns, %g byte/ns links%s" % (
        costs.clock_text, costs.t_send_ns, costs.t_recv_ns, 1 / costs.byte_ns, nic)


def section(ctx, doc):
    costs = preset.of_rows(ctx.root, ctx.rows(SWEEP))
    rows = md.open_section(ctx, doc, SWEEP, TITLE, INTRO.replace("{machine}", machine_text(costs)))
    if rows is None:
        return
    count_table(doc, rows, costs)
    for dims in sorted({r["dims"] for r in rows}, key=str.encode):
        link = time_plot(ctx, dims, rows, costs)
        if link:
            doc.line("![torus %s](%s)" % (dims, link))
    doc.line()
    crossovers(doc, rows, costs)
    doc.write(OUTRO)
