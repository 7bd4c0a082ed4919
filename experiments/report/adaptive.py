"""Section 10: the same collectives under dimension order and under
adaptive routing functions (experiments/adaptive.sweep): the time of each
and the most messages of one step on one link, on the links the worms
took."""

from . import csvio, doc as md

SWEEP = "adaptive"
TITLE = "10. Adaptive routing and collectives"
SAME = 0.005           # "about the same": within 0.5 %

INTRO = """Command: `make sweep SWEEP=adaptive` (experiments/adaptive.sweep). McKinley,
Tsai and Robinson leave open how collectives could use adaptive routing
(seed 002, section 9); here the same programs run under the default
dimension-order routing and under adaptive routing functions
(docs/network.md "Adaptive routing"). Thakur's four complete exchanges on
the Delta-like mesh (preset `delta`, 2 VCs) under the west-first turn
model and Duato's routing (VC 0 the escape channel, VC 1 adaptive), each
taking the first free output its routing permits or, after a slash, the
emptiest (`selection=least_used`); the
all-to-all broadcast by controlled flooding and Tseng's torus broadcast
(all-port) under Duato's and Valiant's routing, every torus with 4 VCs (a
turn model routes no torus). Each cell: the collective's time (us), then
in brackets the most messages of one step on one link, counted on the
links the worms took (1: every step free of contention). Wall time: %s.

"""


def routing_of(net):
    """The routing a net column names: its routing= word (the default
    when none), and its selection= word's value after a slash when it
    is not the default first ("duato/least_used")."""
    name, sel = "deterministic", ""
    for word in (net or "").split():
        if word.startswith("routing="):
            name = word[len("routing="):]
        elif word.startswith("selection=") and word != "selection=first":
            sel = "/" + word[len("selection="):]
    return name + sel


def routings(rows):
    """The routings of the rows: deterministic first, then each routing
    as it first comes, its other selections right after it."""
    seen = ["deterministic"]
    for r in rows:
        name = routing_of(r["net"])
        if name not in seen:
            seen.append(name)
    base = [x for x in seen if "/" not in x]
    order = [x for b in base for x in seen if x == b or x.startswith(b + "/")]
    order += [x for x in seen if x not in order]
    return [x for x in order if any(routing_of(r["net"]) == x for r in rows)]


def cells(rows):
    """{(group, app, dims, len): {routing: row}} of the ok rows."""
    return csvio.cells_of(rows, lambda r: (r.get("group", ""), r["app"], r["dims"], int(csvio.number(r["len"]))),
                          lambda r: routing_of(r["net"]))


def cell_text(row):
    if row is None:
        return "-"
    return "%.1f (%s)" % (csvio.number(row["coll_ns"]) / 1e3, row["max_link_sharing"] or "-")


def group_table(doc, group, by_cell, order):
    """The group's cells, a column per routing it ran (in `order`)."""
    keys = sorted((k for k in by_cell if k[0] == group),
                  key=lambda k: (k[1].encode(), csvio.dims_nodes(k[2]), k[3]))
    if not keys:
        return
    names = [x for x in order if any(x in by_cell[k] for k in keys)]
    doc.lines(md.table(["app", "machine", "len"] + names,
                       [[k[1], k[2], k[3]] + [cell_text(by_cell[k].get(x)) for x in names] for k in keys]))
    doc.line()


def verdicts(by_cell, names):
    """Per adaptive routing: the cells where it is faster than dimension
    order by more than SAME, slower, about the same; and the cells
    contention-free under dimension order that are not under it."""
    out = {}
    for name in names[1:]:
        faster, slower, same, broken = [], [], [], []
        for key, by in by_cell.items():
            det, ada = by.get("deterministic"), by.get(name)
            if det is None or ada is None:
                continue
            t0, t1 = csvio.number(det["coll_ns"]), csvio.number(ada["coll_ns"])
            label = "%s %s %d" % (key[1], key[2], key[3])
            (faster if t1 < t0 * (1 - SAME) else slower if t1 > t0 * (1 + SAME) else same).append((t1 / t0, label))
            if csvio.number(det["max_link_sharing"]) <= 1 < csvio.number(ada["max_link_sharing"]):
                broken.append(label)
        out[name] = (sorted(faster), sorted(slower), same, sorted(broken))
    return out


def verdict_text(name, v):
    faster, slower, same, broken = v
    n = len(faster) + len(slower) + len(same)
    text = "Under %s, against dimension order: %d of %d cells faster" % (name, len(faster), n)
    if faster:
        text += " (best %s, %.0f %% faster)" % (faster[0][1], (1 - faster[0][0]) * 100)
    text += ", %d slower" % len(slower)
    if slower:
        text += " (worst %s, %.0f %% slower)" % (slower[-1][1], (slower[-1][0] - 1) * 100)
    text += ", %d within 0.5 %%." % len(same)
    if broken:
        text += " Contention-free under dimension order, shared under %s: %s." % (name, ", ".join(sorted(broken)))
    return text + " "


# The sweep's groups in the page's order, each with its caption; a group
# not named here follows under its own name.
GROUPS = (("delta", "Thakur's four complete exchanges, Delta-like mesh (preset `delta`, one-port):"),
          ("flood", "All-to-all broadcast by controlled flooding, odd tori (all-port):"),
          ("bcast", "Tseng's 2D torus broadcast (all-port):"))


def section(ctx, doc):
    rows = md.open_section(ctx, doc, SWEEP, TITLE, INTRO)
    if rows is None:
        return
    names = routings(csvio.ok_rows(rows))
    by_cell = cells(rows)
    known = dict(GROUPS)
    order = [g for g, _ in GROUPS] + sorted({k[0] for k in by_cell} - set(known))
    for group in order:
        if any(k[0] == group for k in by_cell):
            doc.line(known.get(group, group + ":"))
            doc.line()
            group_table(doc, group, by_cell, names)
    v = verdicts(by_cell, names)
    doc.filled("".join(verdict_text(name, v[name]) for name in names[1:]))
    doc.line()
