"""Section 4, flooding in the NIC (Theorem 4): the NICs relay every
message with no start-up, so the emulated delay meets the theorem's bound
with alpha = one start-up plus the cycle a NIC takes to turn a head
around. The blocked flood worms are counted in each run's messages.csv and
kept, per run, in results/flood004/kept/nic-blocked.csv for a clone
without the run directories."""

import math
import os

from . import csvio, formulas
from .ordering import by_nodes, sorted_lines
from .context import warn

KEPT_COUNTS = "nic-blocked.csv"
KEPT_HEADER = ["dims", "len", "net", "sim_time_ns", "blocked_worms"]

INTRO = """**Flooding in the NIC (Theorem 4).** `allgather_flood_nic` (apps/hw_flood.c)
runs the same broadcast pattern with the relaying done by the NICs
(docs/network.md, "Flooding in the NIC"): each node installs its rules
once and posts its message once; every NIC relays each origin's message,
one by one, the moment it has wholly arrived, with no start-up and no
processor. alpha = t_send_ns + one cycle = %d ns (one start-up, and the
cycle a NIC takes to turn a head around into its router, which the
theorem's routers do not have), delta = hop_cycles x 8 ns, L gamma = F x
8 ns (F = ceil(L / 8) flits). "over" is the emulated delay (the largest
over the nodes, from a node's post to its last arrival) minus the bound.

| n | L (B) | delta (ns) | L gamma (ns) | emulated (ns) | Theorem 4 (ns) | over (ns) | worms per channel | Cor. 1 |
|---|---|---|---|---|---|---|---|---|
"""


class NicRun:
    """A run of the nic group: n, L, delta, L gamma (whole flits), the
    emulated delay and the worms per channel (max, min)."""

    def __init__(self, r, costs):
        self.row = r
        self.n = csvio.dims_side(r["dims"])
        self.length = int(r["len"])
        self.delta = costs.flit_ns * csvio.net_setting(r["net"], "hop_cycles")
        self.lgamma = costs.flit_ns * math.ceil(self.length / costs.flit_bytes)
        self.ns = csvio.number(r["coll_ns"])
        self.worms_max = csvio.number(r["max_link_worms"])
        self.worms_min = csvio.number(r["min_link_worms"])

    def bound(self, alpha):
        return formulas.theorem4_bound(alpha, self.n, self.delta, self.lgamma)


def nic_alpha(costs):
    """One start-up and the NIC's turn-around cycle."""
    return costs.t_send_ns + costs.flit_ns


def table(doc, runs, alpha):
    body = []
    for d in runs:
        th = d.bound(alpha)
        worms = "%d" % d.worms_max if d.worms_max == d.worms_min else "%d-%d" % (d.worms_min, d.worms_max)
        line = "| %d | %d | %d | %d | %d | %d | %d | %s | %d |" % (
            d.n, d.length, d.delta, d.lgamma, d.ns, th, d.ns - th, worms, formulas.corollary1_load(d.n))
        body.append(((d.n, d.length, d.delta), line))
    doc.lines(sorted_lines(body))
    doc.line()


def bound_sentence(doc, runs, alpha, cycle_ns):
    """Within the bound, in each case of Corollary 3 (delta <= L gamma or
    not), and Corollary 1's load."""
    within = {1: 0, 2: 0}
    runs_in = {1: 0, 2: 0}
    near, far, bad = 0, [], 0
    for d in runs:
        over = d.ns - d.bound(alpha)
        case = 1 if d.delta <= d.lgamma else 2
        runs_in[case] += 1
        if over <= 0:
            within[case] += 1
        elif over < cycle_ns:
            near += 1
        else:
            far.append("%dx%d, L = %d B, delta = %d ns: %s ns" % (d.n, d.n, d.length, d.delta, csvio.as_text(over)))
        load = formulas.corollary1_load(d.n)
        bad += d.worms_max != load or d.worms_min != load
    doc.write("Within the bound: %d of the %d runs with delta <= L gamma and %d of the %d with delta > L gamma. "
              % (within[1], runs_in[1], within[2], runs_in[2]))
    doc.write("Over it by less than a cycle (8 ns, the rounding of the start to a cycle): %d. " % near)
    doc.write("Over it by a cycle or more: %s. " % ("; ".join(far) if far else "none"))
    doc.write("Every channel carried exactly (n^2 - 1)/4 messages in %s run.\n\n" % ("not every" if bad else "every"))


def blocked_in_run(messages_csv):
    """The worms of a run that were ever blocked (blocked_ns > 0)."""
    return sum(1 for r in csvio.read_rows(messages_csv) if csvio.number(r["blocked_ns"]) > 0)


def blocked_counts(ctx, sweep, nic_rows):
    """(total blocked worms, runs counted) over the nic runs, each counted
    in its run's messages.csv or read from the kept counts, which are
    written again, by machine, length and net setting; (None, 0) when no
    run could be counted."""
    kept_path = os.path.join(ctx.sweep_dir(sweep), "kept", KEPT_COUNTS)
    kept_rows = csvio.read_rows(kept_path) if os.path.isfile(kept_path) else []
    counted = []
    for r in nic_rows:
        messages = os.path.join(ctx.sweep_dir(sweep), r["run_dir"], "messages.csv")
        if r["run_dir"] and os.path.isfile(messages):
            count = blocked_in_run(messages)
        else:
            key = (r["dims"], r["len"], r["net"], r["sim_time_ns"])
            count = next((int(k["blocked_worms"]) for k in kept_rows
                          if (k["dims"], k["len"], k["net"], k["sim_time_ns"]) == key), None)
        if count is None:
            warn("%s's nic row %s, %s B, '%s': its run is not here and %s has no count of its run "
                 "(sim_time_ns %s): left out" % (sweep, r["dims"], r["len"], r["net"], kept_path, r["sim_time_ns"]))
            continue
        counted.append([r["dims"], r["len"], r["net"], r["sim_time_ns"], count])
    if not counted:
        return None, 0
    counted.sort(key=lambda c: (by_nodes(c[0]), int(c[1]), c[2].encode()))   # not the sweep's finishing order
    os.makedirs(os.path.dirname(kept_path), exist_ok=True)
    csvio.write_rows(kept_path, KEPT_HEADER, counted)
    return sum(c[4] for c in counted), len(counted)


def pipeline_reading(runs, costs, blocked, counted):
    """Why the NIC flooding meets the bound: the relays are pipelined."""
    one_flit = [d for d in runs if d.lgamma == costs.flit_ns and d.delta == d.lgamma]
    others = [d for d in runs if not (d.lgamma == costs.flit_ns and d.delta == d.lgamma)]
    text = ("A NIC starts its copies as a message's head arrives, and they stream out behind the flits"
            " still coming in: the switching of a relay overlaps the transmission of the message it"
            " relays, as Theorem 4 has it")
    if blocked is not None:
        text += (" (no copy outran its message: %s of the flood worms of the %d runs kept here was ever"
                 " blocked, the blocked_ns column of messages.csv)" % ("none" if blocked == 0 else blocked, counted))
    text += (". The emulator starts the broadcast on a cycle boundary, after the bound's alpha, so a delay"
             " may exceed the bound by less than a cycle. The NIC's turn-around cycle is paid once, not"
             " per relay: the relays are pipelined, so it only delays the pipeline's start.")
    if one_flit:
        over = [d.ns - d.bound(costs.t_send_ns) for d in one_flit]
        text += (" Without it in alpha, the %d one-flit runs with delta = L gamma (no slack in the bound)"
                 " are %d to %d ns over, on %d torus sizes" % (len(one_flit), min(over), max(over),
                                                              len({d.n for d in one_flit})))
    if others:
        text += "; %d of the %d other runs are within the bound either way" % (
            sum(1 for d in others if d.ns - d.bound(costs.t_send_ns) <= 0), len(others))
    return text + ". The software flooding above pays a start-up per relay step; the NICs pay none.\n"


def section(ctx, doc, rows, costs):
    nic_rows = [r for r in csvio.ok_rows(rows) if r["group"] == "nic"]
    if not nic_rows:
        return
    runs = [NicRun(r, costs) for r in nic_rows]
    alpha = nic_alpha(costs)
    doc.write(INTRO % alpha)
    table(doc, runs, alpha)
    bound_sentence(doc, runs, alpha, costs.flit_ns)
    blocked, counted = blocked_counts(ctx, "flood004", nic_rows)
    doc.filled(pipeline_reading(runs, costs, blocked, counted))
    doc.line()
