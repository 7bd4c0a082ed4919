"""CSV files read by header name, and the number conventions of the reports.

Every table (results.csv, timing.csv, a paper's table, a run's links.csv)
is read with csv.DictReader: a column is found by its name, never by its
position, and a quoted value may hold commas. A paper's table may open
with `#` comment lines, before its header.
"""

import csv
import io
import math
import os
import re

_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)")
_DIMS = re.compile(r"^(n=\d+|\d+(x\d+)*)$")

# The columns of results.csv that the reproductions' sections read (every
# CSV experiments/sweep.sh writes has them).
RESULT_COLUMNS = ("app", "topo", "dims", "nodes", "len", "net", "args", "group", "status", "coll_ns",
                  "sim_time_ns", "steps", "sends_per_node", "bytes_per_node", "max_msg_bytes",
                  "max_link_sharing", "max_link_worms", "min_link_worms", "max_link_flits", "wall_s")


class SweepError(Exception):
    """A sweep, or a table read beside it, that the report cannot be made
    of; the message says why and what is accepted (the command exits 2)."""


def read_rows(path, comments=False, required=()):
    """The rows of a CSV file as dicts keyed by the header's names; with
    comments, lines starting with # are left out first. SweepError when
    the header lacks a column of required."""
    with open(path, newline="") as f:
        text = f.read()
    if comments:
        text = "".join(line for line in text.splitlines(True) if not line.startswith("#"))
    reader = csv.DictReader(io.StringIO(text))
    check_columns(path, reader.fieldnames or [], required)
    return list(reader)


def check_columns(path, header, required):
    """SweepError naming the file, the required columns its header lacks
    and the columns it has."""
    missing = [c for c in required if c not in header]
    if missing:
        raise SweepError("%s lacks the column%s %s; its columns: %s" % (
            path, "s" if len(missing) > 1 else "", ", ".join(missing), ", ".join(header) or "none"))


def has_rows(path):
    """True when path is a non-empty file (a sweep that ran has a CSV)."""
    return os.path.isfile(path) and os.path.getsize(path) > 0


def has_a_row(path):
    """True when path is a CSV with a row below its header: a sweep
    stopped before its first run ended leaves the header alone, and has
    not run (Context.rows reads it so too)."""
    if not has_rows(path):
        return False
    with open(path, newline="", errors="replace") as f:
        f.readline()
        return any(line.strip() for line in f)


def number(text):
    """The leading number of a CSV value; 0 for an empty or non-numeric
    one (so a missing count adds nothing)."""
    if isinstance(text, (int, float)):
        return text
    m = _NUMBER.match(text or "")
    return float(m.group(0)) if m else 0.0


def is_number(text):
    """True when the whole value is a number."""
    m = _NUMBER.match(text or "")
    return bool(m) and m.end() == len(text.rstrip())


def positive(text):
    """The value as a number when the whole of it is a number above 0;
    None otherwise."""
    return number(text) if is_number(text) and number(text) > 0 else None


def as_text(x):
    """A number as the tables store it: a whole number without a decimal
    point, any other with 6 significant digits (%.6g)."""
    if isinstance(x, str):
        return x
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e16:
        return "%d" % x
    if isinstance(x, int):
        return "%d" % x
    return "%.6g" % x


def rounded(x):
    """x as it reads back from its 6-significant-digit text (as_text)."""
    return float(as_text(x))


def write_rows(path, header, rows):
    """A CSV file: the header, then one line per row (a list of values)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(r)


def first_seen(values):
    """The distinct values in the order they first appear."""
    return list(dict.fromkeys(values))


def check_dims(dims):
    """dims itself when it is a shape (AxB..., or n=N); SweepError
    otherwise."""
    if not _DIMS.match(dims or ""):
        raise SweepError("bad dims '%s': accepted: sides joined by x (8x16, 3x3x3) or n=N (n=64)" % dims)
    return dims


def dims_nodes(dims):
    """The node count of a shape such as 8x16 or n=64."""
    if check_dims(dims).startswith("n="):
        return int(dims[2:])
    return math.prod(int(d) for d in dims.split("x"))


def dims_side(dims):
    """The first side of a shape (N of an N x N torus)."""
    if check_dims(dims).startswith("n="):
        raise SweepError("bad dims '%s': a torus or mesh shape (AxB) is needed here" % dims)
    return int(dims.split("x")[0])


def check_runs(path, rows):
    """SweepError unless every ok row's len and nodes are whole numbers
    and its dims a shape."""
    for r in ok_rows(rows):
        for column in ("len", "nodes"):
            if not r[column].isdigit():
                raise SweepError("%s: the %s of an ok run (%s on %s) is '%s', not a whole number"
                                 % (path, column, r["app"], r["dims"], r[column]))
        try:
            check_dims(r["dims"])
        except SweepError as e:
            raise SweepError("%s: %s" % (path, e))


def ok_rows(rows):
    """The rows whose run checked every byte it received (status ok)."""
    return [r for r in rows if r.get("status") == "ok"]


def cells_of(rows, cell, name=lambda r: r["app"]):
    """The ok rows by cell: {cell(row): {name(row): row}} (by default
    each cell's rows by app), cells in first-seen order; a later row of
    the same cell and name replaces an earlier one."""
    out = {}
    for r in ok_rows(rows):
        out.setdefault(cell(r), {})[name(r)] = r
    return out


def paper_mesh(shape):
    """(processors, columns) of a mesh written as rows x columns."""
    if not re.match(r"^\d+x\d+$", shape or ""):
        raise SweepError("bad paper_shape '%s': accepted: rows x columns, as 16x8" % shape)
    r, c = (int(x) for x in shape.split("x"))
    return r * c, c


def net_setting(net, key):
    """The number a net column's `key=value` words give key (0 when they
    set none)."""
    for word in (net or "").split():
        if word.startswith(key + "="):
            return int(number(word[len(key) + 1:]))
    return 0
