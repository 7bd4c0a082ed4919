"""Section 4: all-to-all broadcast by controlled flooding (seed 004): the
channel loads against Corollaries 1 and 2, the delay against Theorem 4 and
Saad-Schultz, and the flooding done in the NICs."""

import os

from . import csvio, doc as md, formulas, kept as keep, preset
from .ordering import sorted_lines
from .plot import Series, draw, heatmap, quote
from . import flood_nic

SWEEP = "flood004"
TITLE = "4. All-to-all broadcast by controlled flooding (seed 004)"
LOAD_GROUPS_EXCLUDED = ("delay", "nic")
MODEL_STEP = 1.189

INTRO = """Command: `make sweep SWEEP=flood004` (experiments/flood004.sweep), preset
`default` with all-port nodes, no start barrier (`sync=0`, so
links.csv counts the broadcast only). Wall time: %s.

**Channel loads (Corollaries 1 and 2).** Corollary 1: on an n x n torus
every channel relays (n^2 - 1)/4 messages; Corollary 2: on a mesh at most
(n^2 - 1)/2. A *message* of the slides is one node's block; the
implementation may carry several blocks in one worm, so both are shown:
worms per channel (max and min over the directed channels) and blocks on
the busiest channel (its flits x 8 bytes / m, m = 64 B). For even n, (n^2 - 1)/2 is not a whole number; the busiest mesh channel then carries n^2/2 blocks, half a block over the bound as written.

| topology | n | worms per channel, max | min | blocks on the busiest channel | corollary |
|---|---|---|---|---|---|
"""

DELAY_INTRO = """**Delay against Theorem 4 and Saad-Schultz.** On the 7x7 torus, with
alpha = t_send + t_recv = 1000 ns, gamma = 1 ns/byte and the switching time
delta = hop_cycles x 8 ns (the time a head takes through one router; the
sweep sets hop_cycles = 1, 32, 256). Theorem 4 bound: alpha + delta +
L gamma + ((n^2-1)/4 - 1) max(delta, L gamma) + min(delta, L gamma);
Saad-Schultz: 2 alpha + 2 floor(n/2) delta + (n^2-1)/2 L gamma. "flood" is
the emulated controlled flooding, "rowcol" the emulated Saad-Schultz
algorithm (both ways round the rows, then the columns).

| L (B) | delta (ns) | delta / (L gamma) | flood (us) | Theorem 4 (us) | flood / Th. 4 | rowcol (us) | Saad-Schultz formula (us) |
|---|---|---|---|---|---|---|---|
"""


def load_rows(rows):
    """The channel-load runs: every group but delay and nic, ok."""
    return [r for r in csvio.ok_rows(rows) if r["group"] not in LOAD_GROUPS_EXCLUDED]


def busiest_blocks(r, costs):
    """Blocks on the busiest channel: its flits x flit bytes / m."""
    return csvio.number(r["max_link_flits"]) * costs.flit_bytes / csvio.number(r["len"])


def load_table(doc, rows, costs):
    body = []
    for r in load_rows(rows):
        n = csvio.dims_side(r["dims"])
        if r["topo"] == "torus":
            bound = "= %g (Cor. 1)" % formulas.corollary1_load(n)
        else:
            bound = "<= %g (Cor. 2)" % formulas.corollary2_bound(n)
        cells = [r["topo"], n, r["max_link_worms"], r["min_link_worms"], "%g" % busiest_blocks(r, costs), bound]
        body.append(((n, (" " + r["topo"]).encode()), md.row(cells)))
    doc.lines(sorted_lines(body))
    doc.line()


class DelayRun:
    """A run of the delay group: its app, n, L, hop_cycles and time."""

    def __init__(self, r):
        self.app = r["app"]
        self.n = csvio.dims_side(r["dims"])
        self.length = int(r["len"])
        self.hops = csvio.net_setting(r["net"], "hop_cycles")
        self.ns = csvio.number(r["coll_ns"])


def delay_runs(rows):
    return [DelayRun(r) for r in csvio.ok_rows(rows) if r["group"] == "delay"]


def delay_table(doc, runs, costs):
    cells = {}
    for d in runs:
        c = cells.setdefault((d.length, d.hops), {"n": d.n})
        c["flood" if d.app == "allgather_flood" else "rowcol"] = d.ns
    body = []
    for (length, hops), c in cells.items():
        delta = costs.flit_ns * hops
        lgamma = length * costs.byte_ns
        th = formulas.theorem4_bound(costs.alpha_ns, c["n"], delta, lgamma)
        ss = formulas.saad_schultz_time(costs.alpha_ns, c["n"], delta, lgamma)
        f, r = c.get("flood"), c.get("rowcol")
        line = "| %d | %d | %.3g | %s | %.1f | %s | %s | %.1f |" % (
            length, delta, delta / lgamma, "-" if f is None else "%.1f" % (f / 1e3), th / 1e3,
            "-" if f is None else "%.2f" % (f / th), "-" if r is None else "%.1f" % (r / 1e3), ss / 1e3)
        body.append(((length, delta), line))
    doc.lines(sorted_lines(body))
    doc.line()


def delay_plot(ctx, doc, runs, costs):
    series = []
    for color, hops in enumerate(sorted({d.hops for d in runs}), 1):
        delta = costs.flit_ns * hops
        n = next(d.n for d in runs if d.hops == hops)
        for app, style in (("allgather_flood", "lw 2 pt 7"), ("allgather_rowcol", "lw 1 pt 4")):
            pts = sorted((d.length, d.ns / 1e3) for d in runs if d.app == app and d.hops == hops)
            name = "flood" if app == "allgather_flood" else "rowcol"
            series.append(Series(pts, "using 1:2 with linespoints %s lc %d title %s"
                                 % (style, color, quote("%s, delta %d ns" % (name, delta)))))
        model, length = [], 64.0
        while length <= 4096 * 1.01:
            lgamma = length * costs.byte_ns
            model.append((length, formulas.theorem4_bound(costs.alpha_ns, n, delta, lgamma) / 1e3,
                          formulas.saad_schultz_time(costs.alpha_ns, n, delta, lgamma) / 1e3))
            length *= MODEL_STEP
        series.append(Series(model, "using 1:2 with lines dt 2 lc %d title %s"
                             % (color, quote("Theorem 4 bound, delta %d ns" % delta))))
        series.append(Series(model, "using 1:3 with lines dt 3 lc %d title %s"
                             % (color, quote("Saad-Schultz formula, delta %d ns" % delta))))
    if not series:
        return
    out, link = ctx.image("flood004-delay.png")
    if not draw(ctx, out, ["set title 'All-to-all broadcast on the 7x7 all-port torus, default preset'",
                           "set logscale xy; set xlabel 'L (bytes)'; set ylabel 'time (us)'; set key top left font ',8'; "
                           "set grid"], series):
        return
    doc.line("![flood delay](%s)" % link)
    doc.line()


def flood_against_rowcol(doc, runs, costs):
    flood, rowcol = {}, {}
    for d in runs:
        k = (d.length, costs.flit_ns * d.hops)
        (flood if d.app == "allgather_flood" else rowcol)[k] = d.ns
    settings = sorted(k for k in flood if k in rowcol)
    faster = ["%d B, delta %d ns" % k for k in settings if flood[k] < rowcol[k]]
    doc.line("Flooding is faster than the row-column algorithm in %d of the %d settings%s."
             % (len(faster), len(settings), " (" + "; ".join(faster) + ")" if faster else ""))
    doc.line()


def reading(rows, runs, costs):
    """The channel loads against the corollaries and the delays against
    Theorem 4, counted."""
    nt = te = nm = mb = 0
    for r in load_rows(rows):
        n = csvio.dims_side(r["dims"])
        blocks = busiest_blocks(r, costs)
        if r["topo"] == "torus":
            nt += 1
            te += (csvio.number(r["max_link_worms"]) == csvio.number(r["min_link_worms"])
                   and blocks == formulas.corollary1_load(n))
        else:
            nm += 1
            mb += blocks <= formulas.corollary2_bound(n) or (n % 2 == 0 and blocks == n * n / 2)
    ratios = [d.ns / formulas.theorem4_bound(costs.alpha_ns, d.n, costs.flit_ns * d.hops, d.length * costs.byte_ns)
              for d in runs if d.app == "allgather_flood"]
    text = ""
    if nt:
        text += ("On %d of the %d tori every channel carries the same number of worms and the busiest"
                 " carries exactly (n^2 - 1)/4 blocks (Corollary 1)." % (te, nt))
    if nm:
        text += (" On %d of the %d meshes the busiest channel is within Corollary 2's bound (half a block"
                 " over it for even n, as above)." % (mb, nm))
    if ratios:
        lo, hi = min(ratios), max(ratios)
        text += " The emulated flooding takes %.1f to %.1f times the Theorem 4 bound (the ratio column)" % (lo, hi)
        if lo > 2:
            text += (": the theorem charges one start-up and lets one message's switching overlap the next"
                     " one's transmission, as a router forwarding in hardware would; on the emulator every"
                     " relay is done by the node program, which receives a message, copies its blocks and"
                     " sends them on, paying alpha and its own instructions (1 ns each on the default"
                     " preset) at each of the (n^2 - 1)/4 relay steps. The row-column algorithm relays too,"
                     " in fewer and larger messages; the model's comparison (flooding ahead when delta <= L"
                     " gamma) assumes relays that cost no start-up")
        text += ".\n"
    return text


def heatmap_note(ctx, doc, rows):
    where = keep.kept(ctx.results, SWEEP, "allgather_flood-torus7x7-64", rows,
                      keep.cell_match(app="allgather_flood", dims="7x7", len="64", group="torus"),
                      ["links.csv"])
    if where is None:
        return
    out, link = ctx.image("heatmap-flood-torus7x7.png")
    if not heatmap(ctx, where, out, "flits"):
        return
    flits = [csvio.number(r["flits"]) for r in csvio.read_rows(os.path.join(where, "links.csv"))]
    lo, hi = min(flits), max(flits)
    if lo == hi:
        load = "every channel carries the same load, %d flits, as Corollary 1 says." % lo
    else:
        load = "from %d to %d flits a channel." % (lo, hi)
    doc.line("Flits per channel of the flooding on the 7x7 torus (64-byte blocks): " + load)
    doc.line()
    doc.line("![heatmap flood](%s)" % link)
    doc.line()


def section(ctx, doc):
    rows = md.open_section(ctx, doc, SWEEP, TITLE, INTRO)
    if rows is None:
        return
    costs = preset.of_rows(ctx.root, rows)
    load_table(doc, rows, costs)
    doc.write(DELAY_INTRO)
    runs = delay_runs(rows)
    delay_table(doc, runs, costs)
    delay_plot(ctx, doc, runs, costs)
    flood_against_rowcol(doc, runs, costs)
    doc.filled(reading(rows, runs, costs))
    doc.line()
    flood_nic.section(ctx, doc, rows, costs)
    heatmap_note(ctx, doc, rows)
