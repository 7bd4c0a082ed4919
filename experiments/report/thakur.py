"""Section 1: Thakur, Choudhary and Fox (seed 003), Tables 2-6, complete
exchange on a Delta-like mesh: the emulated times beside the paper's, the
calibration's training and held-out cells, the paper's own model
(section 3), the routers' arbitration, and the paper's findings."""

from . import csvio, doc as md, errors, formulas, paper, preset
from .context import wall_time
from .csvio import SweepError
from . import thakur_findings, thakur_plots, thakur_reading, thakur_steps

SWEEP = "thakur"
ALLOC_SWEEP = "thakur-alloc"
PAPER_TABLE = "experiments/paper/thakur.csv"
TIME_COLUMN = "paper_s"
TITLE = "1. Thakur, Choudhary and Fox (seed 003), Tables 2-6, on a Delta-like mesh"
TABLES = [("2", "Table 2: PEX"), ("3", "Table 3: PEX-GEN"), ("4", "Table 4: PEX-GEN-SHIFT"),
          ("5", "Table 5: GEN on power-of-two meshes"), ("6", "Table 6: GEN on other meshes")]
MODEL_APPS = ("alltoall_pex", "alltoall_gen")
PAPER_COLUMNS = ("table", "app", "paper_shape", "dims", "len", TIME_COLUMN)


def paper_table(ctx):
    """The rows of the paper's table that have a positive time;
    SweepError when it lacks a column or a length is not a whole
    number."""
    path = ctx.path(PAPER_TABLE)
    rows = csvio.read_rows(path, comments=True, required=PAPER_COLUMNS)
    for r in rows:
        if not r["len"].isdigit():
            raise SweepError("%s: len '%s' is not a whole number of bytes" % (PAPER_TABLE, r["len"]))
    return paper.timed_rows(rows, TIME_COLUMN)


def fit_model(paper_rows):
    """alpha and beta_sat of the paper's model (formulas.thakur_time),
    fitted like the preset on the training cells (role train), each to 6
    significant digits; SweepError when those cells do not determine
    them."""
    cells = []
    for r in paper_rows:
        if r.get("role") == "train":
            p, c = csvio.paper_mesh(r["paper_shape"])
            cells.append((r["app"], p, c, int(r["len"]), csvio.number(r[TIME_COLUMN])))
    fit = formulas.fit_thakur_model(cells)
    if fit is None:
        raise SweepError("%s: its %d training cells (role train) do not determine the paper's model: it needs"
                         " two or more, of different lengths or meshes" % (PAPER_TABLE, len(cells)))
    return csvio.rounded(fit[0]), csvio.rounded(fit[1])


def model_seconds(row, alpha, beta):
    """The paper's model at a PEX or GEN cell, as the tables keep it."""
    p, c = csvio.paper_mesh(row["paper_shape"])
    return csvio.rounded(formulas.thakur_time(row["app"], p, c, int(row["len"]), alpha, beta))


def calibration_text(ctx, costs, alpha, beta):
    return ("""Command: `make sweep SWEEP=thakur` (experiments/thakur.sweep), then
`make results`. Preset `delta` (presets/delta.conf, which gives the source
of every value): a 2D mesh with XY wormhole routing, one-port nodes, {clock}
nodes, links at twice the NIC rate and two virtual channels a link (the
paper's gamma = 1: "even if two messages contend for a link, there is no
increase in communication time", which one channel a link cannot give: a
worm holds it to its tail).

**Calibration.** Only the start-up and the per-byte cost are fitted, and
only on the training cells declared in experiments/paper/thakur.csv
(role train: the paper's 4x4 PEX row, Table 2's first column), by
`make calibrate-delta` (experiments/calibrate.sh): one probe run per cell
at the current values and one more per parameter give the emulated time's
slopes, and alpha = t_send + t_recv and byte_ps move to the least squares
of the relative error over the five cells, twice. Result: **t_send =
%.1f us, t_recv = %.1f us (alpha = %.1f us), byte_ps = %d** (a node
injects a byte every %.3f us at nic_cycles = %d; the node's copying of the
blocks at {instr_ns} ns per instruction adds the rest). Every other
cell below is a prediction. The paper's model (dashed lines in the plots)
is fitted on the same cells: alpha = %.0f us, beta_sat = %.3g us/byte
(beta_ex = beta_sr = 2 beta_sat), with the paper's f(i) for PEX and GEN;
PEX's f(i) with a floor where the paper prints a ceiling, since the
ceiling gives f(c - 1) = c and breaks the paper's own bound of max(r, c)/2
messages a link.

The paper writes a mesh as rows x columns, processors numbered row by
row; the sweep's dims are columns x rows (dimension 0, routed first,
varies fastest in the rank). Tables below use the paper's names.
Wall time: %s.

Each cell: emulated s / paper s (ratio emulated/paper); "-" not run.

""" % (costs.t_send_ns / 1000, costs.t_recv_ns / 1000, costs.alpha_ns / 1000, costs.byte_ps,
       costs.byte_ps * costs.nic_cycles / 1e6, costs.nic_cycles, alpha * 1e6, beta * 1e6,
       wall_time(ctx.sweep_dir(SWEEP)))).replace("{clock}", costs.clock_text).replace(
           "{instr_ns}", "%g" % costs.instr_ns)


def paper_tables(doc, cells):
    """Tables 2-6: emulated / paper per shape and length."""
    for number, title in TABLES:
        doc.line("**%s**" % title)
        doc.line()
        shapes, body = paper.grid([c for c in cells if c["table"] == number], "paper_shape", "len")
        doc.lines(md.table(["bytes"] + shapes, body))
        doc.line()


def longest_run(rows):
    """(text, wall seconds) of the ok run that took longest, or None."""
    best, wall = None, 0.0
    for r in csvio.ok_rows(rows):
        w = csvio.number(r["wall_s"])
        if w > wall:
            best, wall = r, w
    if best is None:
        return None
    return "%s (%s nodes) at %s B" % (best["dims"], best["nodes"], best["len"]), wall


def not_run_note(doc, cells, rows):
    """How many cells were not run, and the longest run."""
    missing = sum(1 for c in cells if c.emu is None)
    if missing:
        doc.line('Not run here: %d cells ("-").' % missing)
    text = ""
    longest = longest_run(rows)
    if longest:
        text += "The longest run here, %s, took %.0f s of wall time on this 2-core host." % longest
    if missing:
        text += (" The cells not run are left to a host with the time and the memory (the run tool"
                 " refuses a machine whose nodes and buffers do not fit; see the README): the sweep"
                 " runs them as they are (make sweep SWEEP=thakur).")
    doc.write(text + "\n\n")


def error_table(doc, cells, paper_rows, alpha, beta):
    """Training and held-out cells apart, and the paper's model, by the
    one definition of the error (errors.ErrorSummary)."""
    roles = {(r["app"], r["dims"], r["len"]): r.get("role", "") for r in paper_rows}
    run = paper.run_cells(cells)

    def pairs(role=None):
        return [(c.paper, c.emu) for c in run
                if role is None or roles.get((c["app"], c["dims"], c["len"])) == role]

    model = [(csvio.number(r[TIME_COLUMN]), model_seconds(r, alpha, beta))
             for r in paper_rows if r["app"] in MODEL_APPS]
    doc.lines([
        "**Training and held-out cells.** The calibration reads only the training",
        "cells (experiments/paper/thakur.csv, role train: Table 2's 4x4 row);",
        "every other cell is held out. r = emulated / paper; \"within 15 %\" counts",
        "the cells with |r - 1| <= 0.15. The paper's own model (section 3, with the",
        "floor in f(i), above) is fitted on the same training cells and covers",
        "the tables it gives a formula for, PEX and GEN (2, 5 and 6).",
        "",
        "| cells | n | median \\|r - 1\\| | geometric mean r | within 15 % |",
        "|---|---|---|---|---|",
        errors.ErrorSummary(pairs("train")).row("emulator, training"),
        errors.ErrorSummary(pairs("heldout")).row("emulator, held out"),
        errors.ErrorSummary(pairs()).row("emulator, all"),
        errors.ErrorSummary(model).row("the paper's model, PEX and GEN"),
        ""])


SHORT_BYTES = 4096   # below it start-ups weigh most in a cell's time; at and above it, bytes and contention


def error_by_table_rows(cells, paper_rows, alpha, beta):
    """Per table, short (< SHORT_BYTES) and long blocks apart: the
    emulator's error over the cells run, and the geometric mean of the
    paper's model against the paper where the model covers the table
    (PEX and GEN), "-" elsewhere. Markdown rows."""
    run = paper.run_cells(cells)
    out = []
    for number, title in TABLES:
        for span, short in (("256-1024 B", True), ("4-16 KB", False)):
            def here(table, length):
                return table == number and (int(length) < SHORT_BYTES) == short
            emu = errors.ErrorSummary([(c.paper, c.emu) for c in run if here(c["table"], c["len"])])
            model = errors.ErrorSummary([(csvio.number(r[TIME_COLUMN]), model_seconds(r, alpha, beta))
                                         for r in paper_rows
                                         if r["app"] in MODEL_APPS and here(r["table"], r["len"])])
            out.append(emu.row("%s | %s" % (title.split(":")[0], span)) + " %s |" % model.fields()[2])
    return out


def error_by_table(doc, cells, paper_rows, alpha, beta):
    """Where the error lies: error_by_table_rows as a table."""
    doc.lines([
        "Where the error lies, per table, short blocks and long apart (r as above,",
        "training cells included: Table 2's 4x4 row; the paper's model's r is its",
        "time over the paper's, on the tables it covers):",
        "",
        "| table | blocks | n | median \\|r - 1\\| | geometric mean r | within 15 % | the paper's model: geometric mean r |",
        "|---|---|---|---|---|---|---|"] + error_by_table_rows(cells, paper_rows, alpha, beta) + [""])


def section(ctx, doc):
    doc.line("## " + TITLE)
    doc.line()
    rows = ctx.rows(SWEEP)
    if rows is None:
        md.not_run(doc, SWEEP)
        return
    paper_rows = paper_table(ctx)
    alpha, beta = fit_model(paper_rows)
    costs = preset.of_rows(ctx.root, rows)
    doc.write(calibration_text(ctx, costs, alpha, beta))
    cells = paper.join(paper_rows, rows, TIME_COLUMN, source=PAPER_TABLE)
    paper_tables(doc, cells)
    not_run_note(doc, cells, rows)
    doc.write(paper.ratio_sentence(cells))
    error_table(doc, cells, paper_rows, alpha, beta)
    error_by_table(doc, cells, paper_rows, alpha, beta)
    thakur_findings.verdict_sentence(doc, cells)
    thakur_findings.arbitration(ctx, doc, rows, paper_rows)
    sharing = thakur_findings.findings(doc, cells, rows)
    doc.filled(thakur_reading.reading(cells, sharing, rows, paper_rows))
    doc.line()
    thakur_plots.plots(ctx, doc, cells, paper_rows, alpha, beta)
    kept = thakur_plots.kept_cell(ctx, rows)
    if kept is not None:
        thakur_plots.heatmap(ctx, doc, kept)
        thakur_steps.section(ctx, doc, kept, cells)
