"""Markdown being written: lines, paragraphs and tables."""

from . import csvio
from .context import wall_time
from .textfill import fill


class Doc:
    """Text appended piece by piece; str() is the whole."""

    def __init__(self):
        self.parts = []

    def __str__(self):
        return "".join(self.parts)

    def write(self, text):
        """Text as it is (no newline added)."""
        self.parts.append(text)

    def line(self, text=""):
        """One line."""
        self.parts.append(text + "\n")

    def lines(self, lines):
        for text in lines:
            self.line(text)

    def filled(self, text):
        """Running text filled to 76 columns (textfill)."""
        self.parts.append(fill(text))


def us_text(apps, app):
    """apps[app]'s coll_ns in us to 0.1, or - when the app did not run
    (apps: {app: row})."""
    return "%.1f" % (csvio.number(apps[app]["coll_ns"]) / 1e3) if app in apps else "-"


def share_text(apps, app):
    """apps[app]'s max_link_sharing, or - when it did not run or has none."""
    return (apps[app]["max_link_sharing"] or "-") if app in apps else "-"


def row(cells):
    """A table row: | a | b |."""
    return "| " + " | ".join(str(c) for c in cells) + " |"


def rule(columns):
    """A table's header rule: |---|---|."""
    return "|" + "---|" * columns


def table(header, rows):
    """The lines of a table: header, rule, rows (lists of cells)."""
    return [row(header), rule(len(header))] + [row(r) for r in rows]


def heading(doc, title, have_csv, sweep):
    """A section's opening: its heading, and when the sweep has no CSV yet,
    how to run it."""
    doc.line("## " + title)
    doc.line()
    if not have_csv:
        not_run(doc, sweep)


def open_section(ctx, doc, sweep, title, intro):
    """heading() for sweep's section, then, when it has run, its intro with
    the sweep's wall time (context.wall_time) in place of its %s. Returns
    the sweep's rows, or None when it has not run (the section then holds
    only how to run it)."""
    rows = ctx.rows(sweep)
    heading(doc, title, rows is not None, sweep)
    if rows is not None:
        doc.write(intro % wall_time(ctx.sweep_dir(sweep)))
    return rows


def not_run(doc, sweep):
    """The note of a sweep without results."""
    doc.line("Not run yet: `make sweep SWEEP=%s`." % sweep)
    doc.line()
