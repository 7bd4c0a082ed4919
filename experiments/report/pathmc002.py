"""Section 9: multidestination worms (seed 002, section 8): broadcasts by
path worms against the unicast U-mesh and recursive doubling on 2D
meshes, and Ho and Kao's broadcast by path worms on hypercubes, with the
survey's models of one worm and of row-then-column worms."""

from . import csvio, doc as md, formulas, preset
from .ordering import sorted_lines

SWEEP = "pathmc002"
TITLE = "9. Multidestination worms (seed 002, section 8)"
WORM_APPS = ("mcast_multipath", "mcast_dualpath", "bcast_pandasingal")
MESH_APPS = ("mcast_multipath", "mcast_dualpath", "bcast_pandasingal", "mcast_umesh", "bcast_rd")
# (group, title, with the models, apps as columns)
TABLES = [("corner", "One-port 2D mesh, root in a corner (node 0)", True,
           ("mcast_dualpath", "bcast_pandasingal", "mcast_umesh", "bcast_rd")),
          ("inside8", "All-port 8x8 mesh, root inside (node 27)", False, MESH_APPS),
          ("inside16", "All-port 16x16 mesh, root inside (node 119)", False, MESH_APPS),
          ("hypercube", "All-port hypercube, root 0", False, ("bcast_hokao_path", "bcast_hokao", "bcast_sbt"))]
GROUP_ORDER = [t[0] for t in TABLES]

INTRO = """Command: `make sweep SWEEP=pathmc002` (experiments/pathmc002.sweep): the
survey's "Support Within the Data Network", broadcasts by
multidestination worms (docs/network.md, "Multidestination worms")
against the unicast U-mesh and recursive doubling on 2D meshes, and Ho
and Kao's broadcast by path worms against its unicast form and the
binomial tree on all-port hypercubes; preset `default`. Times are the
largest over the nodes, in microseconds; the multicasts run with
`set=all`. The survey's models use t_s = t_send + t_recv and t_f one
flit's cycle, with m the message's flits (header growth left out): one
worm through every node, t_s + (N - 1 + m) t_f, and row-then-column
worms, 2 (t_s + (sqrt N - 1 + m) t_f). Wall time: %s.

"""

RELAY = (" A single worm pays one start-up and then t_f per node it crosses; the row-then-column worms pay"
         " two start-ups and a relay at every node of the root's row, whose processor receives the message,"
         " pays t_recv and t_send and copies it back into its NIC: the survey's model counts neither the"
         " relay's start-ups nor its copies.")


def times(rows):
    """{(group, nodes, len): {app: coll_ns}} of the ok rows."""
    t = {}
    for r in csvio.ok_rows(rows):
        t.setdefault((r["group"], int(r["nodes"]), int(r["len"])), {})[r["app"]] = csvio.number(r["coll_ns"])
    return t


def fastest(apps_times, apps):
    """The fastest of apps (the first on a tie), or None."""
    best = None
    for a in apps:
        if a in apps_times and (best is None or apps_times[a] < apps_times[best]):
            best = a
    return best


def group_table(doc, t, costs, group, title, with_model, apps):
    header = ["nodes", "len"] + ["%s (us)" % a for a in apps]
    if with_model:
        header += ["one worm, model (us)", "row-column, model (us)"]
    doc.line("**%s**" % title)
    doc.line()
    doc.lines(md.table(header + ["fastest"], []))
    body = []
    for (g, nodes, length), at in t.items():
        if g != group:
            continue
        cells = [nodes, length] + ["%.2f" % (at[a] / 1e3) if a in at else "-" for a in apps]
        if with_model:
            flits = (length + costs.flit_bytes - 1) // costs.flit_bytes
            cells += ["%.2f" % (formulas.one_worm_time(costs.alpha_ns, nodes, flits, costs.flit_ns) / 1e3),
                      "%.2f" % (formulas.row_column_time(costs.alpha_ns, nodes, flits, costs.flit_ns) / 1e3)]
        cells.append(fastest(at, apps) or "-")
        line = md.row(cells)
        body.append(((nodes, length), line))
    doc.lines(sorted_lines(body))
    doc.line()


def fastest_sentence(doc, t):
    """Per group and machine, the fastest at each length (of every app
    run), and row-then-column against the single worm on the corner."""
    machines = sorted({(g, n) for g, n, _ in t},
                      key=lambda m: (GROUP_ORDER.index(m[0]) + 1 if m[0] in GROUP_ORDER else 0, m[1]))
    text = ""
    for group, nodes in machines:
        parts = []
        for length in sorted(l for g, n, l in t if (g, n) == (group, nodes)):
            at = t[(group, nodes, length)]
            part = "%s at %d" % (fastest(at, list(at)), length)
            if group == "corner" and "mcast_dualpath" in at and "bcast_pandasingal" in at:
                part += " (row-column %.2fx the single worm)" % (at["bcast_pandasingal"] / at["mcast_dualpath"])
            parts.append(part)
        text += "%s, %d nodes: fastest %s. " % (group, nodes, ", ".join(parts))
    doc.line(text)
    doc.line()


def reading(t):
    """Each explanation only where the counts bear it out."""
    corner = beaten = multi = multi_slower = hokao = hokao_wins = meshes = worm_wins = 0
    row_column_wins = []
    for (group, nodes, length), at in sorted(t.items()):
        dp, ps, mp = at.get("mcast_dualpath"), at.get("bcast_pandasingal"), at.get("mcast_multipath")
        if group == "corner" and dp is not None and ps is not None:
            corner += 1
            if ps < dp:
                row_column_wins.append("%d nodes at %d B" % (nodes, length))
        if mp is not None and dp is not None:
            multi += 1
            multi_slower += mp >= dp
        if group == "hypercube" and "bcast_hokao_path" in at and "bcast_hokao" in at:
            hokao += 1
            hokao_wins += at["bcast_hokao_path"] < at["bcast_hokao"]
        if group != "hypercube":
            unicast = [at[a] for a in ("mcast_umesh", "bcast_rd") if a in at]
            worms = [at[a] for a in WORM_APPS if a in at]
            if unicast and worms:
                meshes += 1
                worm_wins += min(worms) < min(unicast)
    text = ""
    if corner:
        text += ("One-port meshes, root in a corner: the row-then-column worms beat the single worm in %d of %d"
                 " cases%s." % (len(row_column_wins), corner,
                                " (" + ", ".join(row_column_wins) + ")" if row_column_wins else ""))
        text += RELAY
    if multi:
        text += " Multi-path is no faster than dual-path in %d of %d cases" % (multi_slower, multi)
        if 2 * multi_slower > multi:
            text += (": its worms leave the source one after another, each after its start-up and the writing"
                     " of its list, which outweighs their shorter paths at these sizes")
        text += "."
    if hokao:
        text += " Ho and Kao's broadcast by path worms beats its unicast form in %d of %d cases" % (hokao_wins, hokao)
        if hokao_wins == hokao:
            text += ": one start-up per node and step instead of up to n"
        text += "."
    if meshes:
        text += " The fastest worm algorithm beats both U-mesh and recursive doubling in %d of %d mesh cases" % (
            worm_wins, meshes)
        if worm_wins == meshes:
            text += "; those pay ceil(log2 N) steps of start-ups and copies"
        text += "."
    return text + "\n"


def section(ctx, doc):
    rows = md.open_section(ctx, doc, SWEEP, TITLE, INTRO)
    if rows is None:
        return
    costs = preset.of_rows(ctx.root, rows)
    t = times(rows)
    for group, title, with_model, apps in TABLES:
        group_table(doc, t, costs, group, title, with_model, apps)
    fastest_sentence(doc, t)
    doc.filled(reading(t))
    doc.line()

