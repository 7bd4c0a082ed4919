"""Copies of a few runs' own files, kept beside the sweep's CSV.

Run directories stay local (results/*/runs/ is not committed), so the few
figures read beyond the CSV (heatmaps, the bisection load) come from
results/SWEEP/kept/CELL/: summary.json and the files named, copied again
(whole, or not at all) from the row's run whenever its directory is here.
A clone without the runs reads the kept copy and says the same. A copy
that is not of the row's run (app, topology, dims, args, simulated time
and each net setting, as its summary.json has them) is not used, and
stderr says so.
"""

import json
import os
import shutil

from .context import warn


def json_text(value):
    """A summary.json value as text, as jq's tostring gives it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e17:
        return "%d" % value
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"))


def row_identity(row):
    """What a run's summary.json must say to be this row's run: app,
    topology, dims, args (len= first), simulated time, then each net
    setting key=value."""
    args = "len=" + row["len"] + (" " + row["args"] if row.get("args") else "")
    parts = [row["app"], row["topo"], row["dims"], args, row["sim_time_ns"]]
    return parts + (row.get("net") or "").split()


def summary_identity(summary, net):
    """The same fields as row_identity, read from a summary.json."""
    parts = [json_text(summary.get(k)) for k in ("app", "topology", "dims", "args")]
    parts.append(json_text(summary.get("sim_time_ns")))
    network = summary.get("network") or {}
    for kv in (net or "").split():
        key = kv.split("=", 1)[0]
        parts.append(key + "=" + json_text(network.get(key)))
    return parts


def refresh(run_dir, kept_dir, files):
    """Copies summary.json and files from run_dir into kept_dir, replacing
    it whole; nothing when the run lacks one of them."""
    names = ["summary.json"] + list(files)
    if not all(os.path.isfile(os.path.join(run_dir, f)) for f in names):
        return
    fresh = kept_dir + ".new"
    shutil.rmtree(fresh, ignore_errors=True)
    try:
        os.makedirs(fresh)
        for f in names:
            shutil.copyfile(os.path.join(run_dir, f), os.path.join(fresh, f))
    except OSError as e:
        shutil.rmtree(fresh, ignore_errors=True)
        warn("cannot keep the files of %s: %s" % (run_dir, e))
        return
    shutil.rmtree(kept_dir, ignore_errors=True)
    os.rename(fresh, kept_dir)


def kept(results, sweep, cell, rows, match, files):
    """The directory holding summary.json and files of the run of the first
    ok row where match(row) holds, or None."""
    row = next((r for r in rows if r.get("status") == "ok" and match(r)), None)
    if row is None:
        return None
    sweep_dir = os.path.join(results, sweep)
    kept_dir = os.path.join(sweep_dir, "kept", cell)
    run_dir = row.get("run_dir") or ""
    if run_dir and os.path.isfile(os.path.join(sweep_dir, run_dir, "summary.json")):
        refresh(os.path.join(sweep_dir, run_dir), kept_dir, files)
    summary_path = os.path.join(kept_dir, "summary.json")
    if not os.path.isfile(summary_path):
        return None
    for f in files:
        if not os.path.isfile(os.path.join(kept_dir, f)):
            warn("%s has no %s: not used" % (kept_dir, f))
            return None
    with open(summary_path) as f:
        summary = json.load(f)
    want = row_identity(row)
    got = summary_identity(summary, row.get("net"))
    if got != want:
        warn("%s is of another run than %s's row (%s; the row: %s): not used; run the sweep again"
             % (kept_dir, sweep, "|".join(got), "|".join(want)))
        return None
    return kept_dir


def cell_match(**want):
    """A row test: every named column holds the value given (text)."""
    return lambda row: all(row.get(k) == str(v) for k, v in want.items())
