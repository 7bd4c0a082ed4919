"""Orders of the tables' rows.

Rows are sorted on their key columns and, between rows with equal keys, on
the whole line byte by byte (the C locale's order), so the order never
depends on the host's locale. version_compare() orders names with numbers
in them as GNU's version sort does (sort -V): digit runs by value, a letter
before any other non-digit, so 5x5x5 comes before 5x5.
"""

import functools

from .csvio import dims_nodes


def _order(s, pos):
    if pos == len(s):
        return -1
    c = s[pos]
    if c.isdigit():
        return 0
    if c.isascii() and c.isalpha():
        return ord(c)
    if c == "~":
        return -2
    return ord(c) + 256


def _version_compare_part(a, b):
    i = j = 0
    while i < len(a) or j < len(b):
        first_diff = 0
        while (i < len(a) and not a[i].isdigit()) or (j < len(b) and not b[j].isdigit()):
            ca, cb = _order(a, i), _order(b, j)
            if ca != cb:
                return ca - cb
            i += 1
            j += 1
        while i < len(a) and a[i] == "0":
            i += 1
        while j < len(b) and b[j] == "0":
            j += 1
        while i < len(a) and j < len(b) and a[i].isdigit() and b[j].isdigit():
            if not first_diff:
                first_diff = ord(a[i]) - ord(b[j])
            i += 1
            j += 1
        if i < len(a) and a[i].isdigit():
            return 1
        if j < len(b) and b[j].isdigit():
            return -1
        if first_diff:
            return first_diff
    return 0


def version_compare(a, b):
    """<0, 0 or >0 as a sorts before, with or after b in version order
    (names without a file suffix such as .txt)."""
    if not a:
        return -1 if b else 0
    if not b:
        return 1
    return _version_compare_part(a, b)


def version_key(text):
    """A sort key for version order."""
    return functools.cmp_to_key(version_compare)(text)


def sorted_lines(keyed):
    """The lines of (key, line) pairs sorted by key, lines of equal keys
    byte by byte."""
    return [line for _, line in sorted(keyed, key=lambda kl: (kl[0], kl[1].encode()))]


def by_nodes(dims):
    """A shape's sort key: node count, then the name."""
    return (dims_nodes(dims), dims.encode())
