"""Section 8: hardware beside the data network (seed 002, section 8): the
T3D's barrier circuits and fetch-and-increment registers and the CM-5's
control network against the library's software algorithms."""

from . import csvio, doc as md
from .ordering import sorted_lines

SWEEP = "hwcoll002"
TITLE = "8. Hardware beside the data network (seed 002, section 8)"
# (group, title, apps: the hardware's first, then the software's)
TABLES = [("barrier", "Barrier", ("barrier_hw", "barrier_tree", "barrier_dissemination")),
          ("allreduce", "All-reduction (int sum)", ("allreduce_hw", "allreduce_std_exchange", "allreduce_tree")),
          ("bcast", "Broadcast", ("bcast_hw", "bcast_rd", "bcast_scatter_collect"))]
SIZED_GROUPS = ("allreduce", "bcast")
OPERATION = {"allreduce": "All-reduction", "bcast": "Broadcast"}

INTRO = """Command: `make sweep SWEEP=hwcoll002` (experiments/hwcoll002.sweep): the
survey's "Support Outside the Data Network" on 2D tori, preset
`default` (docs/network.md, "Hardware beside the data network"): the
T3D's barrier circuits and fetch-and-increment registers and the CM-5's
control network, against the library's software algorithms on the data
network. Times are the largest over the nodes, in microseconds; "ratio"
is the fastest software algorithm's time over the hardware's. Wall time:
%s.

"""

FETCHINC_INTRO = [
    "**Self-scheduling, 512 items of 1 us** (fetchinc: every node takes items from node 0's register, "
    "or from a server process on node 0)",
    "",
    "| nodes | register (us) | server (us) | ratio |",
    "|---|---|---|---|"]


def group_table(doc, rows, group, title, apps):
    """One row per (nodes, len) of the group: each app's time and the
    fastest software time over the hardware's."""
    times = {}
    for r in csvio.ok_rows(rows):
        if r["group"] == group:
            times.setdefault((r["nodes"], r["len"]), {})[r["app"]] = csvio.number(r["coll_ns"])
    doc.line("**%s**" % title)
    doc.line()
    doc.line("| nodes | len |" + "".join(" %s (us) |" % a for a in apps) + " ratio |")
    doc.line("|---|---|" + "---|" * len(apps) + "---|")
    body = []
    for (nodes, length), t in times.items():
        cells = ["%.2f" % (t[a] / 1e3) if a in t else "-" for a in apps]
        software = [t[a] for a in apps[1:] if a in t]
        ratio = "%.1f" % (min(software) / t[apps[0]]) if software and apps[0] in t else "-"
        line = md.row([nodes, length] + cells + [ratio])
        body.append(((csvio.number(nodes), csvio.number(length)), line))
    doc.lines(sorted_lines(body))
    doc.line()


def fetchinc_table(doc, rows):
    t = {}
    for r in csvio.ok_rows(rows):
        if r["group"] in ("fetchinc_hw", "fetchinc_server"):
            t.setdefault(r["nodes"], {})[r["group"]] = csvio.number(r["coll_ns"])
    doc.lines(FETCHINC_INTRO)
    body = []
    for nodes, g in t.items():
        hw, server = g.get("fetchinc_hw"), g.get("fetchinc_server")
        line = "| %d | %s | %s | %s |" % (
            int(nodes), "-" if hw is None else "%.2f" % (hw / 1e3), "-" if server is None else "%.2f" % (server / 1e3),
            "%.1f" % (server / hw) if hw is not None and server is not None else "-")
        body.append(((csvio.number(nodes)), line))
    doc.lines(sorted_lines(body))
    doc.line()


def hardware_and_software(rows):
    """{(group, nodes, len): (hardware time, fastest software time)} of
    the groups other than fetchinc."""
    hw, sw = {}, {}
    for r in csvio.ok_rows(rows):
        if r["group"].startswith("fetchinc"):
            continue
        k = (r["group"], r["nodes"], csvio.number(r["len"]))
        t = csvio.number(r["coll_ns"])
        if r["app"].endswith("_hw"):
            hw[k] = t
        elif k not in sw or t < sw[k]:
            sw[k] = t
    return hw, sw


def crossover_sentence(doc, rows):
    """Per operation and machine, the lengths where the hardware is the
    fastest and where the software is."""
    hw, sw = hardware_and_software(rows)
    machines = csvio.first_seen((r["group"], r["nodes"]) for r in csvio.ok_rows(rows) if r["group"] in SIZED_GROUPS)
    text = ""
    for group, nodes in machines:
        lengths = sorted({k[2] for k in list(hw) + list(sw) if k[:2] == (group, nodes)})
        both = [l for l in lengths if (group, nodes, l) in hw and (group, nodes, l) in sw]
        win = ["%d" % l for l in both if hw[(group, nodes, l)] < sw[(group, nodes, l)]]
        lose = ["%d" % l for l in both if not hw[(group, nodes, l)] < sw[(group, nodes, l)]]
        text += "%s on %d nodes: the hardware is fastest at len %s%s. " % (
            OPERATION[group], int(nodes), ", ".join(win) or "none", "; software at len " + ", ".join(lose) if lose else "")
    doc.line(text)
    doc.line()


def reading(rows):
    """Each explanation only where the rows above bear it out."""
    hw, sw = hardware_and_software(rows)
    ops = csvio.first_seen(k[:2] for k in list(hw) + list(sw) if k[0] in SIZED_GROUPS)
    short = long_ = 0
    for op in ops:
        lengths = [k[2] for k in list(hw) + list(sw) if k[:2] == op]
        lo, hi = op + (min(lengths),), op + (max(lengths),)
        short += lo in hw and lo in sw and hw[lo] < sw[lo]
        long_ += hi in hw and hi in sw and hw[hi] >= sw[hi]
    barriers = [k for k in hw if k[0] == "barrier"]
    barrier_wins = sum(1 for k in barriers if k in sw and hw[k] < sw[k])
    fetch = {}
    for r in csvio.ok_rows(rows):
        if r["group"] in ("fetchinc_hw", "fetchinc_server"):
            fetch.setdefault(r["nodes"], {})[r["group"]] = csvio.number(r["coll_ns"])
    both = [f for f in fetch.values() if "fetchinc_hw" in f and "fetchinc_server" in f]
    register_wins = sum(1 for f in both if f["fetchinc_hw"] < f["fetchinc_server"])
    text = ""
    if ops:
        text += ("The control network is the fastest at the shortest length in %d of the %d operation and"
                 " machine pairs, and the software at the longest in %d of them." % (short, len(ops), long_))
        if short == len(ops):
            text += (" As the survey reports of the CM-5 against the Delta, on short data an operation costs"
                     " the tree's stages and the node's driver call, not a message start-up per step.")
        if long_:
            text += (" It moves 8 bytes an operation, so on longer data the software algorithms, whose"
                     " start-ups are amortized over whole messages, overtake it.")
    if barriers:
        text += (" The barrier circuit is the fastest barrier on %d of the %d machines: it replaces 2 ceil(lg p)"
                 " (tree) or ceil(lg p) (dissemination) message steps by one set and one wait."
                 % (barrier_wins, len(barriers)))
    if both:
        text += (" The fetch-and-increment register beats the server process on %d of the %d machines: it"
                 " serves a request without the owner's processor, where the server pays a receive and a"
                 " send start-up for every item and serialises the workers." % (register_wins, len(both)))
    return text + "\n"


def section(ctx, doc):
    rows = md.open_section(ctx, doc, SWEEP, TITLE, INTRO)
    if rows is None:
        return
    for group, title, apps in TABLES:
        group_table(doc, rows, group, title, apps)
    fetchinc_table(doc, rows)
    crossover_sentence(doc, rows)
    doc.filled(reading(rows))
    doc.line()
