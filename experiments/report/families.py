"""Section 7: one complete exchange (PEX and GEN, section 1) on five
network families at equal links, routers and nodes, and the torus's
virtual channels per dateline class."""

from . import csvio, doc as md
from .ordering import sorted_lines

SWEEP = "families"
TITLE = "7. One complete exchange on five network families"
PEX, GEN = "alltoall_pex", "alltoall_gen"
NEAR = 1.005          # "fastest": within 0.5 % of the fastest family
VC_NODES = "64"       # the machines of the virtual-channel comparison (8x8)

INTRO = """Command: `make sweep SWEEP=families` (experiments/families.sweep): PEX
and GEN (section 1) with 1 KB blocks on 16 and 64 nodes of each network
family, preset `default` throughout (same links, routers and nodes): the
2D mesh and torus, the hypercube, the banyan (section 6) and the 4-ary
fat tree (docs/network.md). "sharing" is the most messages of one step
on one link (steps.csv). Wall time: %s.

| network | nodes | PEX (us) | sharing | GEN (us) | sharing |
|---|---|---|---|---|---|
"""

VC_INTRO = [
    "Virtual channels. The preset's 2 virtual channels a link serve any worm on",
    "the mesh, the hypercube and the indirect networks; on a torus they are",
    "the two dateline classes, one channel each (docs/network.md), so the",
    "table above gives the torus half the mesh's channels per worm. With 4",
    "(vcs=4: 2 per class, the mesh's 2 for each) the networks compare at equal",
    "channels; `tie=source-parity` also sends the half-ring offsets of odd",
    "coordinates the - way (docs/network.md):",
    "",
    "| network | nodes | PEX (us) | sharing | GEN (us) | sharing |",
    "|---|---|---|---|---|---|"]


def machines(rows, name):
    """{(nodes, machine name): {app: row}} of the ok rows; name(row)
    names the machine."""
    return csvio.cells_of(rows, lambda r: (int(r["nodes"]), name(r)))


us, share = md.us_text, md.share_text


def family_table(doc, rows):
    def name(r):
        return r["topo"] + (" " + r["dims"] if "x" in r["dims"] else "")

    by_machine = machines(rows, name)
    for (nodes, machine), apps in sorted(by_machine.items(), key=lambda kv: (kv[0][0], kv[0][1].split(" ")[0].encode())):
        doc.line(md.row([machine, nodes, us(apps, PEX), share(apps, PEX), us(apps, GEN), share(apps, GEN)]))
    doc.line()


def fastest_sentence(doc, rows):
    """Per algorithm and size, the families within 0.5 % of the fastest,
    and the slowest."""
    ok = csvio.ok_rows(rows)
    times, families, shared = {}, sorted({r["topo"] for r in ok}), set()
    for r in ok:
        times.setdefault((r["app"], int(r["nodes"])), {})[r["topo"]] = csvio.number(r["coll_ns"])
        if csvio.number(r["max_link_sharing"]) > 1:
            shared.add(r["topo"])
    text = ""
    for (app, nodes) in sorted(times, key=lambda k: ("%s %d" % k).encode()):
        t = times[(app, nodes)]
        lo = min(t.values())
        slow = max(t, key=lambda f: (t[f], -families.index(f)))
        near = [f for f in families if f in t and t[f] <= lo * NEAR]
        name = app[len("alltoall_"):].upper()
        if len(near) == len(t):
            text += "%s on %d nodes: every family within 0.5 %% of the fastest. " % (name, nodes)
        else:
            text += "%s on %d nodes: fastest (within 0.5 %%) on %s; slowest on the %s, %.1f %% slower. " % (
                name, nodes, ", ".join(near), slow, (t[slow] / lo - 1) * 100)
    free = [f for f in families if f not in shared]
    text += "Every step of both algorithms was free of contention on: %s.\n\n" % (", ".join(free) or "none")
    doc.write(text)


def why_sentence(doc, rows):
    """Contention-free steps on the fat tree (and PEX on the hypercube)
    against the banyan's shared links."""
    runs, contended, most = {}, {}, {}
    for r in csvio.ok_rows(rows):
        k = (r["topo"], r["app"])
        s = csvio.number(r["max_link_sharing"])
        runs[k] = runs.get(k, 0) + 1
        contended[k] = contended.get(k, 0) + (s > 1)
        most[k] = max(most.get(k, 0), s)
    fat_tree = (runs.get(("fattree", PEX)) and runs.get(("fattree", GEN))
                and not contended.get(("fattree", PEX)) and not contended.get(("fattree", GEN)))
    hypercube = runs.get(("hypercube", PEX)) and not contended.get(("hypercube", PEX))
    text = ""
    if fat_tree:
        text += ("On the fat tree every step of both was free of contention: destination-mod-k routing gives"
                 " every shift (GEN's steps) and, with k a power of two, every XOR pairing (PEX's) disjoint"
                 " paths%s. " % (", as the hypercube's e-cube routing does for PEX" if hypercube else ""))
    if contended.get(("banyan", PEX), 0) + contended.get(("banyan", GEN), 0):
        text += ("The banyan's unique paths do not (section 6): up to %d messages of a step share a link under"
                 " PEX and %d under GEN. " % (most.get(("banyan", PEX), 0), most.get(("banyan", GEN), 0)))
    # the fat tree's longest route climbs to the top level and down: 2 log4 n
    # links (docs/network.md: 2h + 2 for a highest differing digit h < log4 n)
    text += ("The indirect networks add hops: a worm crosses log2 n + 1 links on the banyan (7 at 64 nodes)"
             " and up to 2 log4 n on the fat tree (6 at 64 nodes), where the mesh's neighbours are one link"
             " apart.\n\n")
    doc.write(text)


def vc_table(doc, all_rows):
    def name(r):
        return "%s %s (%s)" % (r["topo"], r["dims"], r["net"] or "vcs=2")

    meshes = [r for r in all_rows if r["topo"] in ("torus", "mesh")]
    by_machine = machines(meshes, name)
    doc.lines(VC_INTRO)
    body = []
    for (nodes, machine), apps in by_machine.items():
        line = md.row([machine, nodes, us(apps, PEX), share(apps, PEX), us(apps, GEN), share(apps, GEN)])
        body.append(((nodes, (" " + machine + line).encode()), line))
    doc.lines(sorted_lines(body))
    doc.line()


def vc_sentence(doc, all_rows):
    t = {}
    for r in csvio.ok_rows(all_rows):
        if r["nodes"] == VC_NODES and r["app"] == GEN:
            t[(r["topo"], r["net"])] = csvio.number(r["coll_ns"])
    m, a, b = t.get(("mesh", "")), t.get(("torus", "")), t.get(("torus", "vcs=4"))
    c = t.get(("torus", "vcs=4 tie=source-parity"))
    if not (m and a and b):
        return
    text = ("GEN on 64 nodes: the 8x8 torus is %.0f %% slower than the 8x8 mesh with the preset's 2 channels"
            " (1 per class), and still %.0f %% slower with 4 (2 per class)." % ((a / m - 1) * 100, (b / m - 1) * 100))
    text += (" In GEN's half-ring steps every node of a ring sends the same way (the tie goes +), so the"
             " ring's + links carry every message while its - links idle")
    if c:
        text += "; with tie=source-parity the torus takes %.1f us against the mesh's %.1f us (%+.0f %%)" % (
            c / 1e3, m / 1e3, (c / m - 1) * 100)
    doc.write(text + ".\n\n")


def section(ctx, doc):
    all_rows = md.open_section(ctx, doc, SWEEP, TITLE, INTRO)
    if all_rows is None:
        return
    rows = [r for r in all_rows if r["net"] == ""]
    family_table(doc, rows)
    fastest_sentence(doc, rows)
    why_sentence(doc, rows)
    if any(r["topo"] == "torus" and r["net"] != "" for r in all_rows):
        vc_table(doc, all_rows)
        vc_sentence(doc, all_rows)
