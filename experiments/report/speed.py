"""The Speed section: each reproduction's wall time as its sweep
recorded it, and the CI slice's (results/ci-slice.txt)."""

import os

from .context import wall_time

INTRO = """## Speed

Wall time of each reproduction on this machine (2 cores), as recorded by
the sweeps (the sum of the runs' own wall times, and the sweep's elapsed
time when it recorded one), and of the CI slice (`make test` runs
tests/sweep/run.sh: the 8 runs of experiments/thakur-ci.sweep, 4x4 PEX and
GEN and the paper's 4x5 PEX-GEN and PEX-GEN-SHIFT at 256 B and 4 KB, once
with jobs = 1 and once with jobs = 2, compared with each other and with
the paper, plus the tool's own tests).

| reproduction | wall time |
|---|---|
"""

OUTRO = """
Simulated results do not depend on how many runs go in parallel (nor on
host load): the CI slice runs the same eight runs with `--jobs 1` and
`--jobs 2` and requires identical `coll_ns`, `sim_time_ns` and message
counts.

"""


def section(ctx, doc, sweeps):
    doc.write(INTRO)
    for name in sweeps:
        if ctx.csv_path(name):
            doc.line("| %s | %s |" % (name, wall_time(ctx.sweep_dir(name))))
    slice_time = os.path.join(ctx.results, "ci-slice.txt")
    if os.path.isfile(slice_time) and os.path.getsize(slice_time) > 0:
        with open(slice_time) as f:
            doc.line("| CI slice (tests/sweep/run.sh) | %s |" % f.read().rstrip("\n"))
    doc.write(OUTRO)
