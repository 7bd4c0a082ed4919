"""Section 3: Tseng et al. (seed 001), 2D and 3D torus broadcast: the step
counts of the schedules (the unit test build/tests/test_tseng) against
the paper's formula and the lower bound, and the emulated times."""

import os
import subprocess

from . import csvio, preset
from .context import run, shown, wall_time
from .csvio import SweepError
from .ordering import version_key, sorted_lines

SWEEP = "tseng001"
TITLE = "3. Tseng et al. (seed 001): 2D and 3D torus broadcast"
STEPS_INTRO = """**Steps from the schedules.** `build/tests/test_tseng` runs Tseng's 2D and
3D broadcasts through the host schedule simulator for every n (every step
contention-free under the network's dimension-ordered routes, every node
reached once) and prints the step count against the paper's formula
(2 ceil(log5 n) + 1 in 2D, 3 ceil(log7 n) + 2 in 3D) and the lower bound
ceil(log_(2k+1) n^k). For n = 2, 3 the alignment has nothing to move and is
left out (one step fewer than the formula).

"""
NAMES = {"t": "Tseng", "r": "recursive doubling", "u": "U-torus"}
NAME_ORDER = ("u", "r", "t")   # the order the fastest are named in
STEP_COLUMNS = ("algorithm", "k", "n", "steps", "paper", "lower_bound")


def step_rows(test_binary, scratch):
    """The step table the unit test writes (TSENG_STEPS_CSV): rows of
    algorithm, k, n, steps, paper, lower_bound; None without the test.
    SweepError when the test fails or writes no table."""
    if not (test_binary and os.access(test_binary, os.X_OK)):
        return None
    path = os.path.join(scratch, "tseng-steps.csv")
    if os.path.exists(path):
        os.remove(path)
    env = dict(os.environ, TSENG_STEPS_CSV=path)
    done = run([test_binary], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
               errors="replace")
    if done.returncode != 0:
        last = (done.stdout.strip().splitlines() or ["no output"])[-1]
        raise SweepError("%s failed (exit status %d; its last line: %s): section 3's step table comes from it;"
                         " run it alone to see why" % (shown(test_binary), done.returncode, last))
    if not csvio.has_rows(path):
        raise SweepError("%s wrote no step table (TSENG_STEPS_CSV): build it again (make unit-test)"
                         % shown(test_binary))
    return [r for r in csvio.read_rows(path, required=STEP_COLUMNS) if r["algorithm"] in ("tseng2d", "tseng3d")]


def step_tables(doc, rows):
    for k in ("2", "3"):
        mine = [r for r in rows if r["k"] == k]
        doc.line("| %sD, n | %s" % (k, "".join("%s | " % r["n"] for r in mine)))
        doc.line("|---|" + "---|" * len(mine))
        doc.line("| steps | " + "".join("%s | " % r["steps"] for r in mine))
        doc.line("| paper | " + "".join("%s | " % r["paper"] for r in mine))
        doc.line("| bound | " + "".join("%s | " % r["lower_bound"] for r in mine))
        doc.line()


def algorithm(app):
    """t (Tseng's), r (recursive doubling) or u (U-torus)."""
    if "tseng" in app:
        return "t"
    return "r" if app.endswith("_rd") else "u"


def by_cell(rows):
    """{(dims, len): {algorithm: row}} of the ok rows."""
    return csvio.cells_of(rows, lambda r: (r["dims"], r["len"]), lambda r: algorithm(r["app"]))


def time_table(doc, cells):
    body = []
    for (dims, length), a in cells.items():
        def us(x):
            return csvio.number(a[x]["coll_ns"]) / 1e3 if x in a else 0

        def run(x):
            return "%s / %.1f" % (a[x]["steps"], us(x)) if x in a else "-"

        utorus = run("u") + (" (%s)" % a["u"]["max_link_sharing"] if "u" in a else "")
        line = "| %s | %s | %s | %s | %s | %s |" % (
            dims, length, run("t"), run("r"), utorus,
            "%.2f" % (us("t") / us("r")) if us("t") and us("r") else "-")
        body.append(((version_key(" %s " % dims), csvio.number(length)), line))
    doc.line("| torus | len | Tseng: steps / us | recursive doubling: steps / us | "
             "U-torus: steps / us (link sharing) | Tseng / RD |")
    doc.line("|---|---|---|---|---|---|")
    doc.lines(sorted_lines(body))
    doc.line()


def reading(cells, startup_ns):
    """Per length: the tori where Tseng's takes the fewest steps, which
    algorithm is fastest; where U-torus shares a channel."""
    count, fewest, wins, shared = {}, {}, {}, []
    for (dims, length), a in cells.items():
        if "u" in a and csvio.number(a["u"]["max_link_sharing"]) > 1 and dims not in shared:
            shared.append(dims)
        if not all(x in a for x in "tru"):
            continue
        steps = {x: csvio.number(a[x]["steps"]) for x in "tru"}
        ns = {x: csvio.number(a[x]["coll_ns"]) for x in "tru"}
        count[length] = count.get(length, 0) + 1
        fewest[length] = fewest.get(length, 0) + (steps["t"] <= steps["r"] and steps["t"] <= steps["u"])
        if ns["t"] <= ns["r"] and ns["t"] <= ns["u"]:
            best = "t"
        else:
            best = "r" if ns["r"] <= ns["u"] else "u"
        wins[(length, best)] = wins.get((length, best), 0) + 1
    lengths = sorted(count, key=csvio.number)
    text = "Counted over the tori run at each length: Tseng's broadcast takes the fewest steps (ties included) in"
    text += ",".join(" %d of %d at %s B" % (fewest[l], count[l], l) for l in lengths)
    text += ". The fastest:"
    text += ";".join(" at %s B %s" % (l, ", ".join("%s in %d" % (NAMES[x], wins[(l, x)])
                                                  for x in NAME_ORDER if wins.get((l, x))))
                     for l in lengths)
    text += ".\n"
    behind = [l + " B" for l in lengths if wins.get((l, "t"), 0) < count[l]]
    if behind:
        text += ("\nWhere Tseng's broadcast is not the fastest (at %s) it sends more messages at once, and"
                 " every message costs %d ns of send start-up: a node that fans out to four neighbours in"
                 " one step pays four in a row (the survey's \"staggering due to sending latency\"), which"
                 " the step count does not see.\n" % (", ".join(behind), startup_ns))
    shared.sort(key=lambda d: (csvio.dims_nodes(d), d.encode()))
    if shared:
        text += ("\nU-torus puts two or more messages of a step on one channel on the %s tori: its"
                 " contention freedom rests on the paper's split of virtual channels, and this network"
                 " uses dateline classes instead (docs/collectives.md).\n" % ", ".join(shared))
    else:
        text += "\nU-torus puts at most one message of a step on each channel on every torus run.\n"
    return text


def section(ctx, doc, tseng_test):
    doc.line("## " + TITLE)
    doc.line()
    doc.write(STEPS_INTRO)
    steps = step_rows(tseng_test, ctx.tmp)
    if steps is None:
        doc.line("(build the unit tests, `make unit-test`, to include the step table)")
        doc.line()
    else:
        step_tables(doc, steps)
    rows = ctx.rows(SWEEP)
    if rows is None:
        doc.line("Emulated times: not run yet, `make sweep SWEEP=tseng001`.")
    else:
        doc.line("**Emulated times.** Command: `make sweep SWEEP=tseng001` (experiments/tseng001.sweep), preset")
        doc.line("`default` with all-port nodes; time = the slowest node's completion. Wall time: %s."
                 % wall_time(ctx.sweep_dir(SWEEP)))
        doc.line()
        cells = by_cell(rows)
        time_table(doc, cells)
        doc.filled(reading(cells, preset.of_rows(ctx.root, rows).t_send_ns))
    doc.line()
