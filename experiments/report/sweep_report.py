"""A report for any sweep: results/NAME/results.csv into report.md and
plots beside it.

It has, per machine (topology and dims, and any other run key that varies
in the sweep), the metric (coll_ns unless another column is named)
against the block length, one line per app; the largest link sharing per
step of each cell; the winner per cell of each comparison the sweep
definition declares (sweepdef); a paper's figures beside the emulated
ones when it names a paper's table; the slowest run (the longest coll_ns,
whatever the metric) with its heatmap when its run directory is here;
each run not ok with its reason; and, for a reproduction's sweep, its section of docs/results.md, made by
the same code.
"""

import json
import os
import re

from . import csvio, doc as md, errors, paper, sweepdef
from .context import ROOT, Context, shown, slug, wall_time
from .csvio import SweepError
from .plot import Series, draw, heatmap, quote

EXTRA_KEYS = ("preset", "port_model", "net", "args", "arch")
# The columns of results.csv a sweep's report reads beyond the metric.
SWEEP_COLUMNS = ("app", "topo", "dims", "len", "status")
TIE = "tie"
SLOWEST_BY = "coll_ns"   # the slowest run: the longest simulated collective


def known_sweeps(results):
    """The names under results/ whose results.csv holds a row."""
    if not os.path.isdir(results):
        return []
    return sorted(n for n in os.listdir(results) if csvio.has_a_row(os.path.join(results, n, "results.csv")))


def find_sweep(arg, results):
    """(name, directory) of SWEEP given as a name under results/, as a
    directory, or as the definition file make sweep took (its
    results/NAME)."""
    accepted = "accepted: a directory holding a results.csv, or a name under %s/: %s" % (
        shown(results), " ".join(known_sweeps(results)) or "(none yet; run make sweep SWEEP=NAME)")
    if not arg:
        raise SweepError("give a sweep (SWEEP=NAME); " + accepted)
    # a definition file, as make sweep takes it: its results are where the
    # sweep puts them, results/NAME (experiments/sweep.sh)
    defname = os.path.basename(arg)[:-len(".sweep")] if arg.endswith(".sweep") else None
    if os.path.isdir(arg) and (os.sep in arg or not os.path.isdir(os.path.join(results, arg))):
        directory = arg
    elif os.path.isdir(os.path.join(results, arg)):
        directory = os.path.join(results, arg)
    elif defname and (os.path.isfile(arg) or os.path.isdir(os.path.join(results, defname))):
        directory = os.path.join(results, defname)
        if not csvio.has_a_row(os.path.join(directory, "results.csv")):
            raise SweepError("the sweep of %s has no row in %s yet (run it first: make sweep SWEEP=%s); %s"
                             % (arg, shown(os.path.join(directory, "results.csv")), arg, accepted))
    else:
        hint = ""
        if os.path.isfile(os.path.join(ROOT, "experiments", arg + ".sweep")):
            hint = ": experiments/%s.sweep has not run yet (make sweep SWEEP=%s)" % (arg, arg)
        elsewhere = "" if os.path.isabs(arg) else ", nor %s" % shown(os.path.join(results, arg))
        raise SweepError("no sweep '%s' (not a directory%s%s); %s" % (arg, elsewhere, hint, accepted))
    if not csvio.has_a_row(os.path.join(directory, "results.csv")):
        raise SweepError("%s has no results.csv, or no row in it (run the sweep first: make sweep SWEEP=%s); %s"
                         % (directory, os.path.basename(os.path.normpath(directory)), accepted))
    return os.path.basename(os.path.normpath(directory)), directory


DEF_FILE = "sweep.def"   # the copy of its definition a sweep keeps beside its results (experiments/sweep.sh)


def definition_places(name, root, sweep_dir=None):
    """Where a sweep's definition is looked for, in order: the copy in
    its directory (sweep.def), then experiments/NAME.sweep."""
    places = [os.path.join(sweep_dir, DEF_FILE)] if sweep_dir else []
    return places + [os.path.join(root, "experiments", name + ".sweep")]


def definition_of(name, root, given=None, sweep_dir=None):
    """The sweep definition: the one given, or the first of
    definition_places() that is there; None otherwise."""
    if given:
        if not os.path.isfile(given):
            raise SweepError("no sweep definition %s (DEF=, --def: a sweep definition file)" % given)
        return given
    for path in definition_places(name, root, sweep_dir):
        if os.path.isfile(path):
            return path
    return None


# --- cells ----------------------------------------------------------------

def varying_keys(rows):
    """The run keys beyond topology and dims that differ between rows."""
    return [k for k in EXTRA_KEYS if len({r.get(k, "") for r in rows}) > 1]


def machine_of(row, extra):
    """A machine's name: topology and dims, then the varying keys."""
    name = "%s %s" % (row["topo"], row["dims"])
    more = ["%s=%s" % (k, row.get(k) or "-") if k != "net" else (row.get(k) or "default net") for k in extra]
    return name + (" (" + ", ".join(more) + ")" if more else "")


def scaled(metric):
    """(unit, divisor) in which a metric is shown: us for ns columns."""
    return ("us", 1e3) if metric.endswith("_ns") else ("", 1)


def show(value, metric):
    unit, div = scaled(metric)
    return "%.1f" % (value / div) if unit else csvio.as_text(value)


class Cells:
    """The ok rows of a sweep by machine and length: cells[(machine,
    len)][app] = row; machines and apps in first-seen order."""

    def __init__(self, rows):
        ok = csvio.ok_rows(rows)
        extra = varying_keys(rows)
        self.cells = csvio.cells_of(rows, lambda r: (machine_of(r, extra), r["len"]))
        self.machines = csvio.first_seen(m for m, _ in self.cells)
        self.apps = csvio.first_seen(r["app"] for r in ok)

    def lengths(self, machine):
        return sorted((l for m, l in self.cells if m == machine), key=csvio.number)

    def table(self, column, text):
        """Rows machine | len | one value per app (text(row) or -)."""
        body = []
        for m in self.machines:
            for length in self.lengths(m):
                at = self.cells[(m, length)]
                body.append([m, length] + [text(at[a]) if a in at and at[a].get(column, "") != "" else "-"
                                           for a in self.apps])
        return body


# --- sections -------------------------------------------------------------

def opening(ctx, doc, sweep_arg, sweep_dir, rows, definition, metric):
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    doc.line("# Sweep report: %s" % os.path.basename(os.path.normpath(sweep_dir)))
    doc.line()
    source = "`%s`" % ctx.shown(os.path.join(sweep_dir, "results.csv"))
    if definition:
        source += " and its definition `%s`" % ctx.shown(definition)
    doc.line("Generated by `make report SWEEP=%s` (experiments/report/) from %s. "
             "Runs: %s. Wall time: %s." % (sweep_arg, source, ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items())),
                                          wall_time(sweep_dir)))
    unit, _ = scaled(metric)
    doc.line("The metric is `%s`%s; a cell is a machine (topology and dims, and the other run keys that"
             " vary in this sweep) and a block length; only ok runs count." % (metric, " in %s" % unit if unit else ""))
    if not definition:
        doc.line("No sweep definition found (%s): no comparison or paper's table; name one with "
                 "`make report SWEEP=%s DEF=FILE.sweep` (--def)." % (
                     " nor ".join("`%s`" % ctx.shown(p) for p in definition_places(
                         os.path.basename(os.path.normpath(sweep_dir)), ctx.root, sweep_dir)), sweep_arg))
    doc.line()


def metric_plot(ctx, cells, machine, metric):
    """METRIC-MACHINE.png: the metric against the block length, one line
    per app; its link, or None."""
    unit, div = scaled(metric)
    lengths = [csvio.number(l) for l in cells.lengths(machine)]
    series = []
    for color, app in enumerate(cells.apps, 1):
        pts = [(csvio.number(l), csvio.number(at[app][metric]) / div)
               for (m, l), at in cells.cells.items() if m == machine and app in at and at[app].get(metric)]
        if pts:
            series.append(Series(sorted(pts), "using 1:2 with linespoints lw 2 pt 7 lc %d title %s" % (color, quote(app))))
    if not series:
        return None
    log_x = "set logscale x; " if min(lengths) > 0 and len(set(lengths)) > 1 else ""
    out, link = ctx.image("%s-%s.png" % (slug(metric), slug(machine)))
    drawn = draw(ctx, out, ["set title %s noenhanced" % quote("%s on %s" % (metric, machine)),
                            log_x + "set logscale y; set xlabel 'block length (bytes)'; set ylabel %s noenhanced"
                            % quote(metric + (" (%s)" % unit if unit else "")),
                            "set key top left noenhanced; set grid"], series)
    return link if drawn else None


NO_OK_RUN = "No run of this sweep is ok, so there is nothing to tabulate; the runs not ok are below, each with its reason."


def metric_section(ctx, doc, cells, metric):
    unit, _ = scaled(metric)
    doc.line("## %s against block length" % metric)
    doc.line()
    if not cells.apps:   # an empty table would read as a sweep of no runs
        doc.line(NO_OK_RUN)
        doc.line()
        return
    body = cells.table(metric, lambda r: show(csvio.number(r[metric]), metric))
    doc.lines(md.table(["machine", "len"] + ["%s%s" % (a, " (%s)" % unit if unit else "") for a in cells.apps], body))
    doc.line()
    for m in cells.machines:
        link = metric_plot(ctx, cells, m, metric)
        if link:
            doc.line("![%s](%s)" % (m, link))
    doc.line()


def sharing_section(doc, cells):
    doc.line("## Largest link sharing per step")
    doc.line()
    doc.line("The most messages of one step on one link (`max_link_sharing`, from the run's steps.csv): "
             "1 means every step was free of contention.")
    doc.line()
    if not cells.apps:
        doc.line(NO_OK_RUN)
        doc.line()
        return
    doc.lines(md.table(["machine", "len"] + cells.apps,
                       cells.table("max_link_sharing", lambda r: r["max_link_sharing"])))
    doc.line()


def winner(values):
    """(winner or tie, margin %) of {app: value}: the smallest wins; the
    margin is how much larger the runner-up is."""
    ranked = sorted(values.items(), key=lambda kv: kv[1])
    best, second = ranked[0], ranked[1]
    if best[1] == second[1]:
        return TIE, 0.0
    return best[0], (second[1] / best[1] - 1) * 100 if best[1] else float("inf")


def comparison_section(doc, cells, comparison):
    apps, column = comparison.apps, comparison.column
    doc.line("## %s by %s" % (" against ".join(apps), column))
    doc.line()
    missing = [a for a in apps if a not in cells.apps]
    if missing:
        doc.line("No ok run of %s in this sweep." % ", ".join(missing))
        doc.line()
    body, wins, compared = [], {}, 0
    for (m, length), at in sorted(cells.cells.items(), key=lambda kv: (cells.machines.index(kv[0][0]), csvio.number(kv[0][1]))):
        values = {a: csvio.number(at[a][column]) for a in apps if a in at and at[a].get(column, "") != ""}
        if len(values) < 2:
            continue
        compared += 1
        w, margin = winner(values)
        wins[w] = wins.get(w, 0) + 1
        body.append([m, length] + [show(values[a], column) if a in values else "-" for a in apps]
                    + [w, "-" if w == TIE else "%.2f %%" % margin])
    unit, _ = scaled(column)
    doc.lines(md.table(["machine", "len"] + ["%s%s" % (a, " (%s)" % unit if unit else "") for a in apps]
                       + ["winner", "by"], body))
    doc.line()
    summary = ", ".join("%s in %d" % (a, wins[a]) for a in apps if wins.get(a))
    if wins.get(TIE):
        summary += (", " if summary else "") + "tied in %d" % wins[TIE]
    doc.line("Winner per cell (the smaller %s; \"by\": how much more the runner-up takes): %s of the %d cells compared."
             % (column, summary or "none", compared))
    doc.line()


def paper_section(ctx, doc, rows, table, metric):
    """The paper's cells that ran here, emulated beside the paper, with
    the error summary of section 1 (errors.ErrorSummary)."""
    time_column = metric if metric.endswith("_ns") else "coll_ns"
    paper_rows = paper_rows_of(table, list(rows[0]) if rows else paper.KEY_COLUMNS)
    cells = paper.join(paper_rows, rows, table.column, time_column, ctx.shown(table.path))
    run = paper.run_cells(cells)
    keys = paper.key_columns(paper_rows, rows)
    others = [c for c in paper_rows[0] if c not in keys and c not in (table.column, "role")] if paper_rows else []
    doc.line("## The paper's figures")
    doc.line()
    doc.line("From `%s` (its `%s`, in seconds), beside `%s` in seconds: %d of its %d cells ran here. "
             "Each cell: emulated s / paper s (ratio emulated/paper)." % (
                 ctx.shown(table.path), table.column, time_column, len(run), len(cells)))
    untimed = len(paper_rows) - len(cells)
    if untimed:
        doc.line("Left out: %d of its rows, whose `%s` is not a positive number." % (untimed, table.column))
    doc.line()
    doc.lines(md.table(keys + others + ["emulated / paper"],
                       [[c[k] for k in keys + others] + [paper.cell_text(c)] for c in run]))
    doc.line()
    doc.write(paper.ratio_sentence(cells))
    roles = [("train", "training"), ("heldout", "held out")] if "role" in paper_rows[0] else []
    doc.line("| cells | n | median \\|r - 1\\| | geometric mean r | within 15 % |")
    doc.line("|---|---|---|---|---|")
    for role, name in roles:
        doc.line(errors.ErrorSummary([(c.paper, c.emu) for c in run if c.row.get("role") == role]).row(name))
    doc.line(errors.ErrorSummary([(c.paper, c.emu) for c in run]).row("all"))
    doc.line()


def measure(row, column):
    """column = value of a row, in the unit the report shows it in."""
    unit, _ = scaled(column)
    return "%s = %s%s" % (column, show(csvio.number(row[column]), column), " " + unit if unit else "")


def slowest_section(ctx, doc, sweep_dir, rows, metric):
    """The ok run of the longest simulated collective (SLOWEST_BY), whatever
    the metric of the tables, and its heatmap."""
    ok = [r for r in csvio.ok_rows(rows) if r.get(SLOWEST_BY, "") != ""]
    if not ok:
        return
    slowest = max(ok, key=lambda r: csvio.number(r[SLOWEST_BY]))
    doc.line("## The slowest run")
    doc.line()
    also = "; %s" % measure(slowest, metric) if metric != SLOWEST_BY and slowest.get(metric, "") != "" else ""
    doc.line("%s on %s %s at %s B: %s%s." % (
        slowest["app"], slowest["topo"], slowest["dims"], slowest["len"], measure(slowest, SLOWEST_BY), also))
    run_dir = os.path.join(sweep_dir, slowest.get("run_dir") or "")
    out, link = ctx.image("heatmap-slowest.png")
    if not slowest.get("run_dir") or not os.path.isfile(os.path.join(run_dir, "links.csv")):
        doc.line("Its run directory (%s) is not here: no heatmap." % (slowest.get("run_dir") or "none recorded"))
    elif slowest["topo"] not in ("mesh", "torus") or not re.match(r"^\d+x\d+$", slowest["dims"]):
        doc.line("No heatmap: experiments/heatmap.sh draws 2D meshes and tori only.")
    elif heatmap(ctx, run_dir, out):
        doc.line()
        doc.line("Flits carried per directed channel (`make heatmap RUN=%s`):" % ctx.shown(run_dir))
        doc.line()
        doc.line("![heatmap of the slowest run](%s)" % link)
    doc.line()


def cell_dir_of(sweep_dir, row):
    """For a row that names no directory (a refused run of an earlier
    sweep tool): the one cell directory of its app, machine and length
    under runs/ (experiments/sweep-cell.sh: runs/APP-TOPODIMS-LEN-ID) in
    which the run tool made no run; None when there is not exactly one."""
    prefix = "%s-%s%s-%s-" % (row["app"], row["topo"], row["dims"], row["len"])
    runs = os.path.join(sweep_dir, "runs")
    try:
        names = os.listdir(runs)
    except OSError:
        return None
    found = [n for n in names if n.startswith(prefix) and n[len(prefix):].isdigit()
             and os.path.isfile(os.path.join(runs, n, "wormsim.out"))
             and not any(os.path.isdir(os.path.join(runs, n, m)) for m in os.listdir(os.path.join(runs, n)))]
    return os.path.join("runs", found[0]) if len(found) == 1 else None


def why_not_ok(sweep_dir, row):
    """The reason a run is not ok, as the sweep's last lines give it: the
    error of its summary.json, or, where the run tool made no run (a
    refused run), its last message in the wormsim.out of the directory
    the row names."""
    run_dir = row.get("run_dir") or cell_dir_of(sweep_dir, row)
    if not run_dir:
        return "no run directory recorded"
    path = os.path.join(sweep_dir, run_dir)
    if not os.path.isdir(path):
        return "its run directory is not here"
    try:
        with open(os.path.join(path, "summary.json")) as f:
            summary = json.load(f)
        error = summary.get("error") if isinstance(summary, dict) else None
        return " ".join(str(error).split()) if error else "no error recorded"
    except (OSError, ValueError):
        pass
    try:
        with open(os.path.join(path, "wormsim.out"), errors="replace") as f:
            said = [l.strip()[len("wormsim: "):] for l in f if l.startswith("wormsim: ")]
    except OSError:
        said = []
    return said[-1] if said else "no summary.json"


def not_ok_section(ctx, doc, sweep_dir, rows):
    """Each run whose status is not ok, with its reason (why_not_ok), in
    the words of the sweep's last lines."""
    bad = [r for r in rows if r["status"] != "ok"]
    if not bad:
        return
    extra = varying_keys(rows)
    doc.line("## Runs not ok")
    doc.line()
    doc.line("Each run whose status is not ok, with the error its summary.json gives or, for a run the run tool"
             " refused, its message (wormsim.out):")
    doc.line()
    for r in bad:
        run_dir = r.get("run_dir") or cell_dir_of(sweep_dir, r) or ""
        doc.line("- not ok (%s): %s on %s, len %s: %s%s" % (
            r["status"], r["app"], machine_of(r, extra), r["len"], why_not_ok(sweep_dir, r),
            " (%s)" % ctx.shown(os.path.join(sweep_dir, run_dir)) if run_dir else ""))
    doc.line()


def reproduction_section(ctx, doc, name, sweep_dir, tseng_test):
    """The sweep's section of docs/results.md, when it is a reproduction's."""
    from . import document
    write = document.section_of(name, tseng_test)
    if write is None:
        return
    sub = Context(os.path.dirname(os.path.abspath(sweep_dir)), ctx.img, ctx.markdown_dir, ctx.root)
    try:
        doc.line("# Its section of docs/results.md")
        doc.line()
        write(sub, doc)
    finally:
        sub.close()


def numeric_columns(rows):
    """The columns whose every value in the ok rows is a number or empty,
    and one at least a number."""
    ok = csvio.ok_rows(rows)
    return [c for c in (rows[0] if rows else []) if any(csvio.is_number(r[c]) for r in ok)
            and all(csvio.is_number(r[c]) or r[c] == "" for r in ok)]


def check_column(header, column, path, what):
    """SweepError unless column is one of the header's; what names the
    option or line that gave it."""
    if column not in header:
        raise SweepError("%s: '%s' is not a column of %s; accepted: %s" % (what, column, path, ", ".join(header)))


def check_numeric(rows, column, path, what):
    """SweepError unless column is a column of the rows whose values in
    the ok rows are numbers (or empty); what names the option or line
    that gave it."""
    if rows:
        check_column(list(rows[0]), column, path, what)
    text = [r[column] for r in csvio.ok_rows(rows) if r[column] != "" and not csvio.is_number(r[column])]
    if text:
        raise SweepError("%s: the column '%s' of %s holds text ('%s'), not numbers; accepted: %s" % (
            what, column, path, text[0], ", ".join(numeric_columns(rows)) or "none"))


def check_metric(rows, metric, path):
    """SweepError unless metric is a column of numbers (check_numeric)."""
    check_numeric(rows, metric, path, "--metric")


def check_comparisons(rows, keys, definition, path):
    """SweepError unless every comparison of the definition compares apps
    of this sweep (those its rows hold or its apps lines name: an app
    whose runs all failed, or have not run yet, is still the sweep's) by
    a column of numbers. A misspelt app would compare nothing, and a
    column of text would rank every cell as a tie of zeros."""
    known = csvio.first_seen([r["app"] for r in rows] + keys.get("apps", []))
    for c in keys["compare"]:
        where = c.where or definition
        unknown = [a for a in c.apps if a not in known]
        if unknown:
            raise SweepError("%s: compare: '%s' is no app of this sweep (none of its rows, no apps line); accepted: %s"
                             % (where, unknown[0], ", ".join(known) or "none"))
        check_numeric(rows, c.column, path, "%s: compare ... by" % where)


def paper_rows_of(table, header):
    """The rows of the definition's paper table, SweepError naming its
    line when the table lacks its time column or shares no run key with
    the sweep's header."""
    where = table.where + ": paper: " if table.where else ""
    try:
        rows = csvio.read_rows(table.path, comments=True, required=(table.column,))
        paper.key_columns(rows, [dict.fromkeys(header)], shown(table.path))
    except SweepError as e:
        raise SweepError(where + str(e))
    return rows


def check_definition(definition, root, header):
    """SweepError for a compare or paper line of a sweep definition that
    its sweep's results could not satisfy, judged before any run
    (experiments/sweep.sh): a line it cannot parse, a compare naming an
    app no apps line runs or a column the sweep does not write (header:
    the columns it writes), a paper table without its time column or
    without a run key. A column of text is found by the report, which
    has the values."""
    try:
        keys = sweepdef.report_keys(definition, root)
    except sweepdef.DefinitionError as e:
        raise SweepError(str(e))
    check_comparisons([], keys, definition, "results.csv")
    for c in keys["compare"]:
        check_column(header, c.column, "the sweep's results.csv", "%s: compare ... by" % c.where)
    if keys["paper"]:
        paper_rows_of(keys["paper"], header)


def build(ctx, sweep_arg, sweep_dir, metric, definition, tseng_test):
    """The report's text: SWEEP as given (sweep_arg), its directory, the
    metric column, the definition (or None) and the schedules' test."""
    name = os.path.basename(os.path.normpath(sweep_dir))
    rows = csvio.read_rows(os.path.join(sweep_dir, "results.csv"), required=SWEEP_COLUMNS)
    check_metric(rows, metric, os.path.join(sweep_dir, "results.csv"))
    keys = {"compare": [], "paper": None}
    if definition:
        try:
            keys = sweepdef.report_keys(definition, ctx.root)
        except sweepdef.DefinitionError as e:
            raise SweepError(str(e))
    check_comparisons(rows, keys, definition, os.path.join(sweep_dir, "results.csv"))
    doc = md.Doc()
    opening(ctx, doc, sweep_arg, sweep_dir, rows, definition, metric)
    cells = Cells(rows)
    metric_section(ctx, doc, cells, metric)
    sharing_section(doc, cells)
    for c in keys["compare"]:
        comparison_section(doc, cells, c)
    if keys["paper"]:
        paper_section(ctx, doc, rows, keys["paper"], metric)
    slowest_section(ctx, doc, sweep_dir, rows, metric)
    not_ok_section(ctx, doc, sweep_dir, rows)
    reproduction_section(ctx, doc, name, sweep_dir, tseng_test)
    return str(doc)
