"""Where a report reads and writes: the checkout, the sweeps' results, the
images, and a scratch directory for plot data."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import csvio

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def warn(message):
    """A note on stderr, prefixed with the tool's name."""
    print("report: " + message, file=sys.stderr)


SCRATCH = set()   # the scratch directories of the contexts not closed yet


def remove_scratch():
    """Removes every scratch directory a context has not (for a stop that
    came while one was being removed)."""
    for path in list(SCRATCH):
        shutil.rmtree(path, ignore_errors=True)
        SCRATCH.discard(path)


class Context:
    """results: the directory of the sweeps' directories (results/NAME/);
    img: where plots go; img_rel: img as the Markdown file links it."""

    def __init__(self, results, img, markdown_dir, root=ROOT):
        self.root = root
        self.results = results
        self.img = img
        self.markdown_dir = markdown_dir
        self.img_rel = os.path.relpath(os.path.abspath(img), os.path.abspath(markdown_dir))
        self.tmp = tempfile.mkdtemp(prefix="wormsim-report.")
        SCRATCH.add(self.tmp)
        self.plot_count = 0

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        SCRATCH.discard(self.tmp)

    def path(self, *parts):
        """A path under the checkout."""
        return os.path.join(self.root, *parts)

    def sweep_dir(self, name):
        return os.path.join(self.results, name)

    def csv_path(self, name):
        """results/NAME/results.csv, or None when the sweep was not run."""
        path = os.path.join(self.results, name, "results.csv")
        return path if csvio.has_rows(path) else None

    def rows(self, name):
        """The rows of a sweep's CSV, or None when it was not run (no CSV,
        or no row in it); SweepError when it lacks a column the sections
        read or a run's keys are not numbers and shapes (check_runs)."""
        path = self.csv_path(name)
        if not path:
            return None
        rows = csvio.read_rows(path, required=csvio.RESULT_COLUMNS)
        csvio.check_runs(path, rows)
        return rows or None

    def image(self, name):
        """(file to write, link for the Markdown) of an image; the name is
        made a plain file name (slug)."""
        name = slug(name)
        link = name if self.img_rel == "." else self.img_rel + "/" + name
        return os.path.join(self.img, name), link

    def shown(self, path):
        return shown(path, self.root)


def run(cmd, input=None, **kwargs):
    """subprocess.run(cmd, input=input, **kwargs), except that a report
    stopped while the command runs (an exception, KeyboardInterrupt or
    Stopped) ends it with SIGTERM, so that experiments/heatmap.sh removes
    its temporary files, and waits for it (SIGKILL after 10 s)."""
    with subprocess.Popen(cmd, stdin=subprocess.PIPE if input is not None else None, **kwargs) as child:
        try:
            out, err = child.communicate(input)
        except BaseException:
            child.terminate()
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
            raise
        return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def slug(text):
    """text as a plain file name: each run of characters other than
    letters, digits, '-', '_' and '.' as one '_', none at either end."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")


def shown(path, root=ROOT):
    """A path as a report names it: relative to the checkout when it lies
    inside it."""
    rel = os.path.relpath(os.path.abspath(path), root)
    return path if rel.startswith("..") else rel


def minutes(seconds):
    """Whole minutes and seconds: 4m05s."""
    return "%dm%02ds" % (seconds / 60, seconds % 60)


def wall_time(sweep_dir):
    """A sweep's wall time: its runs' count and summed wall_s (their
    serial time), and its sessions' summed elapsed_s (timing.csv) when it
    recorded them."""
    rows = csvio.read_rows(os.path.join(sweep_dir, "results.csv"))
    serial = sum(csvio.number(r.get("wall_s")) for r in rows)
    text = "%d runs, %s of run wall time" % (len(rows), minutes(serial))
    timing = os.path.join(sweep_dir, "timing.csv")
    if csvio.has_rows(timing):
        elapsed = sum(csvio.number(r.get("elapsed_s")) for r in csvio.read_rows(timing))
        text += "; sweep elapsed " + minutes(elapsed)
    return text
