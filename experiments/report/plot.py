"""Plots through gnuplot (Debian gnuplot-nox): a script per PNG, its data
in files of the scratch directory.

Every text a script holds that is not the script's own (a title naming
an app or a shape from a CSV, a file's path) is a single-quoted gnuplot
string made by quote(): gnuplot substitutes nothing inside one (no
`command`, no @macro), and its only escape is '' for '.
"""

import json
import os
import re
import subprocess

from .csvio import as_text
from .context import run, warn

TERMINAL = "set terminal pngcairo size 800,500 font ',10'"


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# What experiments/heatmap.sh puts in a double-quoted gnuplot string (the
# run's app and args) or a single-quoted one (the output path) unescaped.
_HEATMAP_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\"`\\']")


def quote(text):
    """text as a gnuplot single-quoted string: each ' doubled, each
    control character (a newline would end the command) a space."""
    return "'" + _CONTROL.sub(" ", text).replace("'", "''") + "'"


class Series:
    """One curve: (x, y...) points and how gnuplot draws them ("using 1:2
    with lines ...")."""

    def __init__(self, points, style):
        self.points = points
        self.style = style


def data_file(ctx, points):
    """A data file of whitespace-separated points, each number to 6
    significant digits (as_text); its path."""
    ctx.plot_count += 1
    path = os.path.join(ctx.tmp, "data%d" % ctx.plot_count)
    with open(path, "w") as f:
        for p in points:
            f.write(" ".join(as_text(v) for v in p) + "\n")
    return path


def plot_script(output, settings, plots):
    """The gnuplot script drawing plots (strings "'file' using ...") into
    output with the settings lines."""
    lines = [TERMINAL, "set output " + quote(output)] + list(settings)
    lines.append("plot " + ", ".join(plots))
    return "\n".join(lines) + "\n"


def draw(ctx, output, settings, series):
    """Writes output (a PNG) with one curve per Series; True when gnuplot
    made it. A Series without points is drawn from an empty file, as a
    legend entry only."""
    if _CONTROL.search(output + ctx.tmp):
        warn("not drawn: the path %r holds a control character" % output)
        return False
    plots = []
    for s in series:
        plots.append(quote(data_file(ctx, s.points)) + " " + s.style)
    if not plots:
        return False
    script = plot_script(output, settings, plots)
    try:
        done = run(["gnuplot"], input=script, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError as e:
        warn("gnuplot could not draw %s: %s" % (output, e))
        return False
    if done.returncode != 0:
        warn("gnuplot could not draw %s: %s" % (output, done.stderr.strip().splitlines()[-1:]))
        return False
    return True


def heatmap_unsafe(run_dir, output):
    """What heatmap.sh cannot pass to gnuplot as it is: the output path,
    or the run's app or args (summary.json), when it holds a quote, a
    backquote, a backslash or a control character; None when all are
    plain."""
    try:
        with open(os.path.join(run_dir, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError):
        summary = {}
    if not isinstance(summary, dict):
        summary = {}
    named = [("the output path", output)] + [("its %s" % k, summary.get(k)) for k in ("app", "args")]
    for what, value in named:
        if isinstance(value, str) and _HEATMAP_UNSAFE.search(value):
            return "%s %r" % (what, value)
    return None


def heatmap(ctx, run_dir, output, metric=None):
    """experiments/heatmap.sh: the per-link load of a 2D mesh or torus run
    as a PNG; True when it was drawn."""
    unsafe = heatmap_unsafe(run_dir, output)
    if unsafe:
        warn("no heatmap of %s: %s holds a character heatmap.sh cannot put in a gnuplot script"
             % (run_dir, unsafe))
        return False
    cmd = [ctx.path("experiments", "heatmap.sh")]
    if metric:
        cmd += ["--metric", metric]
    cmd += [run_dir, output]
    done = run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        warn(done.stderr.strip())
    return done.returncode == 0 and os.path.isfile(output)
