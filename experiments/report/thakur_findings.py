"""Section 1's findings: the paper's comparisons (GEN against PEX,
PEX-GEN-SHIFT against PEX-GEN, 16x30 against 16x32), the routers'
arbitration, and the reading, each counted from the cells run."""

import math

from . import csvio, errors
from .ordering import by_nodes

GEN_MARGIN = 0.98     # GEN or PEX is "faster" by more than 2 %
SHIFT_MARGIN = 0.995  # PEX-GEN-SHIFT "faster" than PEX-GEN by more than 0.5 %
SHIFT_EQUAL = 1.005   # ... and "equal" within 0.5 %
POLICIES = ("round-robin", "fixed", "age")
HEAVY_PEX_DIMS = ("8x8", "8x16")   # the heavy PEX cells: these meshes at >= 4 KB
HEAVY_PEX_LEN = 4096


def lead(pex, gen):
    """G when GEN is faster by more than 2 %, P when PEX is, = otherwise."""
    if gen < GEN_MARGIN * pex:
        return "G"
    if pex < GEN_MARGIN * gen:
        return "P"
    return "="


def most(a, n):
    """How many of n, in words."""
    if a == n:
        return "in all cells (%d of %d)" % (a, n)
    if a >= 0.9 * n:
        return "almost everywhere (%d of %d)" % (a, n)
    if 2 * a > n:
        return "in most cells (%d of %d)" % (a, n)
    return "in only %d of %d" % (a, n)


def by_cell(cells):
    """The cells by (table, paper shape, length)."""
    return {(c["table"], c["paper_shape"], c["len"]): c for c in cells}


def shapes_and_lengths(cells):
    return (csvio.first_seen(c["paper_shape"] for c in cells),
            csvio.first_seen(c["len"] for c in cells))


def pair_verdicts(cells):
    """(GEN against PEX: agreeing, compared; PEX-GEN-SHIFT against
    PEX-GEN: agreeing, compared), over the cells both ran."""
    at = by_cell(cells)
    ga = gn = sa = sn = 0
    for shape, length in csvio.first_seen((c["paper_shape"], c["len"]) for c in cells):
        p, g = at.get(("2", shape, length)), at.get(("5", shape, length))
        if p and g and p.emu is not None and g.emu is not None:
            gn += 1
            ga += lead(p.emu, g.emu) == lead(p.paper, g.paper)
        pg, sh = at.get(("3", shape, length)), at.get(("4", shape, length))
        if pg and sh and pg.emu is not None and sh.emu is not None:
            sn += 1
            sa += (sh.emu < SHIFT_MARGIN * pg.emu) == (sh.paper < pg.paper)
    return ga, gn, sa, sn


def verdict_sentence(doc, cells):
    ga, gn, sa, sn = pair_verdicts(cells)
    doc.write("The faster of GEN and PEX (within 2 %%) is the paper's in %d of %d cells; "
              "PEX-GEN-SHIFT is faster than PEX-GEN (by more than 0.5 %%) exactly where the "
              "paper's is in %d of %d.\n\n" % (ga, gn, sa, sn))


# --- the routers' arbitration (experiments/thakur-alloc.sweep) -------------

def policy_times(rows, alloc_rows):
    """Emulated seconds by (policy, app, dims, len): the default sweep's
    rows without a net setting are round-robin; thakur-alloc's net names
    the policy (alloc=NAME)."""
    t = {}
    for r in csvio.ok_rows(rows):
        if r["net"] == "":
            t[("round-robin", r["app"], r["dims"], r["len"])] = csvio.number(r["coll_ns"]) / 1e9
    for r in csvio.ok_rows(alloc_rows):
        policy = r["net"][len("alloc="):] if r["net"].startswith("alloc=") else r["net"]
        t[(policy, r["app"], r["dims"], r["len"])] = csvio.number(r["coll_ns"]) / 1e9
    return t


def policy_row(policy, common, times, measured, tables):
    errs, log_sum, heavy, agree, compared = [], 0.0, [], 0, 0
    for k in common:
        app, dims, length = k
        r = times[(policy,) + k] / measured[k]
        errs.append(r - 1 if r > 1 else 1 - r)
        log_sum += math.log(r)
        if app == "alltoall_pex" and dims in HEAVY_PEX_DIMS and int(length) >= HEAVY_PEX_LEN:
            heavy.append(r)
        g = ("alltoall_gen", dims, length)
        if app == "alltoall_pex" and g in common and tables.get(g) == "5":
            compared += 1
            agree += lead(times[(policy,) + k], times[(policy,) + g]) == lead(measured[k], measured[g])
    return "| %s | %d | %.3f | %.2f | %.2f to %.2f | %d of %d |" % (
        policy, len(common), errors.median(errs), math.exp(log_sum / len(common)),
        min(heavy, default=0), max(heavy, default=0), agree, compared)


def arbitration(ctx, doc, rows, paper_rows):
    alloc_rows = ctx.rows("thakur-alloc")
    if alloc_rows is None:
        return
    times = policy_times(rows, alloc_rows)
    measured = {(p["app"], p["dims"], p["len"]): csvio.number(p["paper_s"]) for p in paper_rows}
    tables = {(p["app"], p["dims"], p["len"]): p["table"] for p in paper_rows}
    common = [k for k in measured if all((a,) + k in times for a in POLICIES)]
    doc.lines([
        "**The routers' arbitration.** The tables above use the default, round-robin",
        "arbitration (docs/network.md). `make sweep SWEEP=thakur-alloc` runs the cells of up to",
        "128 nodes again with `alloc=fixed` (the fixed-priority allocator of earlier",
        "versions) and `alloc=age` (oldest worm first). Over the cells all three ran",
        "(|r - 1| with r = emulated/paper; the heavy PEX cells are 8x8 and 16x8 at 4-16 KB;",
        "GEN against PEX as in the findings below):",
        "",
        "| arbitration | cells | median \\|r - 1\\| | geometric mean r | heavy PEX cells r | GEN against PEX agrees |",
        "|---|---|---|---|---|---|"])
    if common:
        doc.lines(policy_row(a, common, times, measured, tables) for a in POLICIES)
    doc.line()


# --- the paper's findings ---------------------------------------------------

def gen_pex_table(doc, cells):
    """Per power-of-two mesh and length, the faster of GEN and PEX,
    emulated / paper."""
    both = [c for c in cells if c["table"] in ("2", "5")]
    at = by_cell(both)
    shapes, lengths = shapes_and_lengths(both)
    doc.line("GEN against PEX on power-of-two meshes: the faster one, emulated / paper "
             "(G = GEN, P = PEX, = within 2%).")
    doc.line()
    doc.line("| bytes |" + "".join(" %s |" % s for s in shapes))
    doc.line("|---|" + "---|" * len(shapes))
    agree = compared = 0
    for length in lengths:
        line = "| %s |" % length
        for s in shapes:
            p, g = at.get(("2", s, length)), at.get(("5", s, length))
            pe = p.emu if p else None
            ge = g.emu if g else None
            w = "-" if pe is None or ge is None else lead(pe, ge)
            v = "-" if p is None or g is None else lead(p.paper, g.paper)
            if w != "-":
                compared += 1
                agree += w == v
            line += " %s / %s |" % (w, v)
        doc.line(line)
    doc.line()
    doc.line("The emulator agrees with the paper on %d of %d cells." % (agree, compared))
    doc.line()


def shift_sentence(doc, cells):
    """PEX-GEN-SHIFT (Table 4) against PEX-GEN (Table 3)."""
    at = by_cell(cells)
    n = b = e = pn = pb = pe = 0
    for c in cells:
        if c["table"] != "3":
            continue
        s = at.get(("4", c["paper_shape"], c["len"]))
        if s is not None and c.emu is not None and s.emu is not None:
            n += 1
            if s.emu < SHIFT_MARGIN * c.emu:
                b += 1
            elif s.emu <= SHIFT_EQUAL * c.emu:
                e += 1
        if s is None:
            continue
        pn += 1
        if s.paper < c.paper:
            pb += 1
        elif s.paper == c.paper:
            pe += 1
    doc.line("PEX-GEN-SHIFT against PEX-GEN: faster in %d, equal (within 0.5%%) in %d of the %d "
             "cells run; in the paper faster in %d and equal in %d of %d." % (b, e, n, pb, pe, pn))
    doc.line()


def largest_machines_sentence(doc, cells):
    """The paper's largest meshes: 16x30 PEX-GEN against 16x32 PEX."""
    gen = {c["len"]: c for c in cells if c["table"] == "3" and c["paper_shape"] == "16x30"}
    pex = {c["len"]: c for c in cells if c["table"] == "2" and c["paper_shape"] == "16x32"}
    s = ""
    for length, g in gen.items():
        x = pex.get(length)
        if g.emu is not None and x is not None and x.emu is not None:
            s += " %s B: %.4g s against %.4g s (paper %s against %s);" % (
                length, g.emu, x.emu, g.paper_text, x.paper_text)
    if s == "":
        doc.line("16x30 PEX-GEN against 16x32 PEX: not run (the 480- and 512-node machines; see Speed).")
    else:
        doc.line("16x30 PEX-GEN against 16x32 PEX:" + s)
    doc.line()


def link_sharing(rows):
    """(dims, PEX's, GEN's largest link sharing) of the meshes both ran,
    by node count."""
    pex, gen = {}, {}
    for r in csvio.ok_rows(rows):
        if r["app"] == "alltoall_pex":
            pex[r["dims"]] = r["max_link_sharing"]
        elif r["app"] == "alltoall_gen":
            gen[r["dims"]] = r["max_link_sharing"]
    both = sorted((d for d in pex if d in gen), key=by_nodes)
    return [(d, int(csvio.number(pex[d])), int(csvio.number(gen[d]))) for d in both]


def sharing_sentence(doc, sharing):
    if sharing:
        doc.line("Largest number of the messages of a step sharing a link (max_link_sharing; dims "
                 "as columns x rows):" + "".join(" %s: PEX %d, GEN %d;" % s for s in sharing))
        doc.line()


def findings(doc, cells, rows):
    """The paper's comparisons; returns the link sharing per mesh."""
    doc.line("**The paper's findings.**")
    doc.line()
    gen_pex_table(doc, cells)
    shift_sentence(doc, cells)
    largest_machines_sentence(doc, cells)
    sharing = link_sharing(rows)
    sharing_sentence(doc, sharing)
    return sharing
