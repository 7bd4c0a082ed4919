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


def read_rows(path, comments=False):
    """The rows of a CSV file as dicts keyed by the header's names; with
    comments, lines starting with # are left out first."""
    with open(path, newline="") as f:
        text = f.read()
    if comments:
        text = "".join(line for line in text.splitlines(True) if not line.startswith("#"))
    return list(csv.DictReader(io.StringIO(text)))


def has_rows(path):
    """True when path is a non-empty file (a sweep that ran has a CSV)."""
    return os.path.isfile(path) and os.path.getsize(path) > 0


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


def dims_nodes(dims):
    """The node count of a shape such as 8x16 or n=64."""
    if dims.startswith("n="):
        return int(dims[2:])
    return math.prod(int(d) for d in dims.split("x"))


def dims_side(dims):
    """The first side of a shape (N of an N x N torus)."""
    return int(dims.split("x")[0])


def ok_rows(rows):
    """The rows whose run checked every byte it received (status ok)."""
    return [r for r in rows if r.get("status") == "ok"]


def paper_mesh(shape):
    """(processors, columns) of a mesh written as rows x columns."""
    r, c = (int(x) for x in shape.split("x"))
    return r * c, c


def net_setting(net, key):
    """The number a net column's `key=value` words give key (0 when they
    set none)."""
    for word in (net or "").split():
        if word.startswith(key + "="):
            return int(number(word[len(key) + 1:]))
    return 0
