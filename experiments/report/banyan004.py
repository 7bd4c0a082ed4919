"""Section 6: all-to-all personalized exchange on a banyan (seed 004):
ATAPE's rounds, one admissible permutation each, against PEX and GEN on
the same network."""

from . import csvio, doc as md
from .plot import Series, draw, quote

SWEEP = "banyan004"
TITLE = "6. All-to-all personalized exchange on a banyan (seed 004): ATAPE"
ATAPE, PEX, GEN = "alltoall_atape", "alltoall_pex", "alltoall_gen"
PLOT_LEN = "1024"    # the block length of the plot against n

INTRO = """Command: `make sweep SWEEP=banyan004` (experiments/banyan004.sweep), preset
`default`, n processors on the n x n banyan (log2 n stages of 2x2
switches, one port per processor; docs/network.md). ATAPE
(`alltoall_atape`) sends along one row of the Latin square
LatinSquare(tau(0), ..., tau(n-1)) per round, an admissible permutation of
the banyan; PEX and GEN are the mesh algorithms of section 1 on the same
network. "sharing" is the largest number of one round's messages on one
link (steps.csv, the start barrier left out): 1 means every round was
free of contention. Wall time: %s.

| n | L (B) | ATAPE (us) | sharing | PEX (us) | sharing | GEN (us) | sharing | ATAPE / best other |
|---|---|---|---|---|---|---|---|---|
"""

READING_SLOWER = (
    "\nBeing free of contention did not make ATAPE faster in %d of the %d settings (the ratio above)."
    " PEX's XOR pairs and GEN's shifts are not all admissible permutations of this banyan, so some of"
    " their rounds route two worms over one link; but their nodes drift out of step, each sending and"
    " receiving in its own time, so two such worms seldom want the link in the same cycles, and every"
    " algorithm's time is set by the n - 1 start-ups, block copies and transmissions each node does in"
    " turn. ATAPE takes n rounds against their n - 1 (in one of them each processor keeps its own"
    " block). The slides' comparison assumes rounds in lock step, where one shared link delays the"
    " whole round.\n")


def cells(rows):
    """{(nodes, len): {app: row}} of the ok rows."""
    return csvio.cells_of(rows, lambda r: (int(r["nodes"]), int(r["len"])))


def best_other(apps):
    """The faster of PEX and GEN's times (ns), or None."""
    times = [csvio.number(apps[a]["coll_ns"]) for a in (PEX, GEN) if a in apps]
    return min(times) if times else None


def table(doc, by_cell):
    us, share = md.us_text, md.share_text
    for (n, length), apps in sorted(by_cell.items()):
        best = best_other(apps)
        ratio = "-" if ATAPE not in apps or best is None else "%.2f" % (csvio.number(apps[ATAPE]["coll_ns"]) / best)
        doc.line(md.row([n, length, us(apps, ATAPE), share(apps, ATAPE), us(apps, PEX), share(apps, PEX),
                         us(apps, GEN), share(apps, GEN), ratio]))
    doc.line()


def findings(doc, rows, by_cell):
    ok = csvio.ok_rows(rows)
    atape = [r for r in ok if r["app"] == ATAPE]
    others = [r for r in ok if r["app"] != ATAPE]
    doc.write("ATAPE was free of contention in every round in %d of its %d runs; PEX and GEN shared a link "
              "within a round in %d of their %d runs. " % (
                  sum(1 for r in atape if csvio.number(r["max_link_sharing"]) == 1), len(atape),
                  sum(1 for r in others if csvio.number(r["max_link_sharing"]) > 1), len(others)))
    ratios = []
    for apps in by_cell.values():
        best = best_other(apps)
        if ATAPE in apps and best is not None:
            ratios.append(csvio.number(apps[ATAPE]["coll_ns"]) / best)
    doc.write("ATAPE was the fastest of the three in %d of the %d (n, L) settings; its time over the better "
              "of PEX and GEN ranges from %.3f to %.3f.\n\n" % (
                  sum(1 for r in ratios if r < 1), len(ratios), min(ratios, default=0), max(ratios, default=0)))


def per_round(rows):
    """{len: (lowest, its n, highest, its n)} of ATAPE's time per round
    (coll_ns / n); the first run wins a tie."""
    spans = {}
    for r in csvio.ok_rows(rows):
        if r["app"] != ATAPE:
            continue
        n, t = int(r["nodes"]), csvio.number(r["coll_ns"]) / int(r["nodes"])
        lo, nlo, hi, nhi = spans.get(int(r["len"]), (None, 0, 0, 0))
        if lo is None or t < lo:
            lo, nlo = t, n
        if t > hi:
            hi, nhi = t, n
        spans[int(r["len"])] = (lo, nlo, hi, nhi)
    return spans


def per_round_sentence(doc, spans):
    text = "ATAPE time per round (coll_ns / n)"
    for i, length in enumerate(sorted(spans)):
        lo, nlo, hi, nhi = spans[length]
        text += "%s at %d B from %.2f us (n = %d) to %.2f us (n = %d)" % (
            ";" if i else ":", length, float("%.2f" % (lo / 1e3)), nlo, float("%.2f" % (hi / 1e3)), nhi)
    doc.write(text + ".\n\n")


def reading(rows, spans):
    """O(n + log n): the spread of the time per round over n; where being
    free of contention did not make ATAPE the fastest."""
    text = ""
    if spans:
        spread = max(hi / lo for lo, _, hi, _ in spans.values())
        ok = [r for r in csvio.ok_rows(rows) if r["app"] == ATAPE]
        growth = max(max(int(r["nodes"]) for r in ok if r["len"] == l) / min(int(r["nodes"]) for r in ok if r["len"] == l)
                     for l in {r["len"] for r in ok})
        text += ("The slides bound ATAPE's delay by O(n + log n) on an n x n banyan: n rounds, each one"
                 " permutation through log n stages. Its time per round varies by at most a factor %.2f over"
                 " n at each block length, while n grows %d-fold" % (spread, growth))
        if spread < 1.5:
            text += (", so the total grows about linearly in n; the log n term (a hop per stage) is a few"
                     " cycles per round against a start-up and a block's transmission")
        text += ".\n"
    compared = slower = 0
    for apps in cells(rows).values():
        best = best_other(apps)
        if ATAPE in apps and best is not None:
            compared += 1
            slower += csvio.number(apps[ATAPE]["coll_ns"]) >= best
    if compared and slower:
        text += READING_SLOWER % (slower, compared)
    return text


def time_plot(ctx, doc, rows):
    def points(app):
        return sorted((int(r["nodes"]), csvio.number(r["coll_ns"]) / 1e3) for r in csvio.ok_rows(rows)
                      if r["app"] == app and r["len"] == PLOT_LEN)

    if not points(ATAPE):
        return
    out, link = ctx.image("banyan004-time.png")
    title = "All-to-all personalized exchange on the n x n banyan, %s-byte blocks, default preset" % PLOT_LEN
    if not draw(ctx, out, ["set title " + quote(title),
                           "set logscale xy; set xlabel 'processors n'; set ylabel 'time (us)'; set key top left; set grid"],
                [Series(points(ATAPE), "using 1:2 with linespoints lw 2 pt 7 title 'ATAPE'"),
                 Series(points(PEX), "using 1:2 with linespoints pt 5 title 'PEX'"),
                 Series(points(GEN), "using 1:2 with linespoints pt 9 title 'GEN'")]):
        return
    doc.line("![banyan exchange](%s)" % link)
    doc.line()


def section(ctx, doc):
    rows = md.open_section(ctx, doc, SWEEP, TITLE, INTRO)
    if rows is None:
        return
    by_cell = cells(rows)
    table(doc, by_cell)
    findings(doc, rows, by_cell)
    spans = per_round(rows)
    per_round_sentence(doc, spans)
    doc.filled(reading(rows, spans))
    doc.line()
    time_plot(ctx, doc, rows)
