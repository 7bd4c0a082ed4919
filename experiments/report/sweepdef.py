"""What a sweep definition (experiments/NAME.sweep; format in
experiments/sweep.sh) declares for its report. The sweep runs nothing for
these keys; they may stand anywhere in the file, and compare more than
once:

  compare = APP APP... [by COLUMN]   the winner (smallest COLUMN, default
                                     coll_ns) of these apps per cell
  paper = FILE [by COLUMN]           a paper's table (experiments/paper/;
                                     FILE absolute or from the top of the
                                     tree), its time in seconds in COLUMN
                                     (default paper_s), beside the emulated
                                     times

The report refuses a compare whose apps are not the sweep's (its rows'
or its apps lines') or whose COLUMN is not a column of numbers
(sweep_report.check_comparisons). The sweep checks both lines before any
run (python3 experiments/report --check-def, sweep_report.check_definition),
against the apps lines and the columns it writes, so that a mistake in
them is not found only once every run has ended.
"""

import os
import re

REPORT_KEYS = ("compare", "paper")
APPS_KEY = "apps"      # a sweep key the report reads too: the apps a compare may name
DEFAULT_COMPARE_COLUMN = "coll_ns"
DEFAULT_PAPER_COLUMN = "paper_s"
_LINE = re.compile(r"^([A-Za-z_]+)\s*=\s*(.*)$")


class DefinitionError(Exception):
    """A report key the definition gets wrong; the message names it."""


class Comparison:
    def __init__(self, apps, column, where=""):
        self.apps = apps
        self.column = column
        self.where = where   # "FILE:LINE" of its line, for the refusals that come later

    def __repr__(self):
        return "Comparison(%r, %r)" % (self.apps, self.column)


class PaperTable:
    def __init__(self, path, column, where=""):
        self.path = path
        self.column = column
        self.where = where   # "FILE:LINE" of its line


def split_by(value):
    """(words before `by`, the column after it or None)."""
    words = value.split()
    if "by" in words:
        i = words.index("by")
        if i != len(words) - 2:
            raise DefinitionError("'by' takes one column name at the end, as in 'by coll_ns'")
        return words[:i], words[i + 1]
    return words, None


def parse_compare(value, where=""):
    apps, column = split_by(value)
    if len(apps) < 2:
        raise DefinitionError("compare: give two apps or more, e.g. 'compare = alltoall_pex alltoall_gen by coll_ns'")
    return Comparison(apps, column or DEFAULT_COMPARE_COLUMN, where)


def parse_paper(value, root, where=""):
    words, column = split_by(value)
    if len(words) != 1:
        raise DefinitionError("paper: give one file, e.g. 'paper = experiments/paper/thakur.csv by paper_s'")
    path = words[0] if os.path.isabs(words[0]) else os.path.join(root, words[0])
    if not os.path.isfile(path):
        # a relative path is the tree's, wherever the definition lies
        raise DefinitionError("paper: no file %s%s; accepted: a CSV file, its path absolute or from the top of "
                              "the tree" % (words[0], "" if path == words[0] else " (%s)" % path))
    return PaperTable(path, column or DEFAULT_PAPER_COLUMN, where)


def report_keys(path, root):
    """{"compare": [Comparison...], "paper": PaperTable or None, "apps":
    [APP...]} of a sweep definition, "apps" being every app its groups'
    apps lines name, in first-seen order; DefinitionError names the file,
    line and fault."""
    keys = {"compare": [], "paper": None, "apps": []}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            m = _LINE.match(line.split("#", 1)[0].strip())
            if m and m.group(1) == APPS_KEY:
                keys["apps"] += [a for a in m.group(2).split() if a not in keys["apps"]]
                continue
            if not m or m.group(1) not in REPORT_KEYS:
                continue
            where = "%s:%d" % (path, number)
            try:
                if m.group(1) == "compare":
                    keys["compare"].append(parse_compare(m.group(2), where))
                else:
                    keys["paper"] = parse_paper(m.group(2), root, where)
            except DefinitionError as e:
                raise DefinitionError("%s: %s" % (where, e))
    return keys
