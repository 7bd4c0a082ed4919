"""Plots through gnuplot (Debian gnuplot-nox): a script per PNG, its data
in files of the scratch directory."""

import os
import subprocess

from .csvio import as_text
from .context import warn

TERMINAL = "set terminal pngcairo size 800,500 font ',10'"


def quote(text):
    """A gnuplot single-quoted string."""
    return "'" + text.replace("'", "''") + "'"


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
    plots = []
    for s in series:
        plots.append(quote(data_file(ctx, s.points)) + " " + s.style)
    if not plots:
        return False
    script = plot_script(output, settings, plots)
    done = subprocess.run(["gnuplot"], input=script, text=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode != 0:
        warn("gnuplot could not draw %s: %s" % (output, done.stderr.strip().splitlines()[-1:]))
        return False
    return True


def heatmap(ctx, run_dir, output, metric=None):
    """experiments/heatmap.sh: the per-link load of a 2D mesh or torus run
    as a PNG; True when it was drawn."""
    cmd = [ctx.path("experiments", "heatmap.sh")]
    if metric:
        cmd += ["--metric", metric]
    cmd += [run_dir, output]
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        warn(done.stderr.strip())
    return done.returncode == 0 and os.path.isfile(output)
