"""Compares the files runs wrote with docs/files.md's tables.

    files_doc.py DOC NETWORK_DOC [--exempt PATH]... [--netsim KIND=FILE]... RUN_DIR...

Prints one line per mismatch and exits 1 if there is any: a key or column
written and not documented, one documented and written by none of the
runs (--exempt names the paths the runs cannot make), a value of another
type than documented, a CSV header other than the documented one, a
per-node array whose length is not the node count, a record key or a
params.conf key outside its documented list. NETWORK_DOC is
docs/network.md, whose Parameters table params.conf must hold exactly.
netsim --json output is given as KIND=FILE, KIND traffic, burst or replay.
"""

import csv
import json
import os
import re
import sys

INDIRECT = ("banyan", "fattree", "dragonfly")
PY_TYPE = {bool: "bool", int: "int", float: "float", str: "string", type(None): "null", dict: "object",
           list: "array"}


def sections(path):
    """{heading: [table rows as lists of cells]}, code spans unquoted; a
    section's tables follow one another in its list, headers left out."""
    out, cur = {}, None
    for line in open(path, encoding="utf-8"):
        if line.startswith("## "):
            cur = out.setdefault(line[3:].strip(), [])
        elif cur is not None and line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set(cells[0]) <= set("-") or cells[0] in ("key", "column", "record"):
                cur.append(None)                      # a table's header: a new table starts
                continue
            cur.append([re.sub(r"^`(.*)`$", r"\1", c) for c in cells])
    return out


def tables(rows):
    """The tables of a section, each a list of rows."""
    out = []
    for r in rows:
        if r is None:
            if not out or out[-1]:
                out.append([])
        else:
            out[-1].append(r)
    return [t for t in out if t]


def walk(value, path, seen):
    """Every key path of value (arrays as []) with the types it holds."""
    if path:
        seen.setdefault(path, set()).add(PY_TYPE[type(value)])
    if isinstance(value, dict):
        for k, v in value.items():
            walk(v, path + "." + k if path else k, seen)
    elif isinstance(value, list):
        for v in value:
            walk(v, path + "[]", seen)


def match(doc, path):
    """The documented path that path falls under: itself, else one with a
    capitalised segment in place of a varying key."""
    if path in doc:
        return path
    segs = path.split(".")
    for d in doc:
        ds = d.split(".")
        if len(ds) == len(segs) and all(a == b or (re.fullmatch(r"[A-Z]+(\[\])?", a) and a.endswith("[]") ==
                                                  b.endswith("[]")) for a, b in zip(ds, segs)):
            return d
    return None


def check_json(doc, objects, problems, exempt=(), kind_of=None):
    """objects: [(label, value, kind)]. doc: {path: (types, when)}. With
    kind_of, a row's when lists the kinds that write it; else `always` is
    every object's and any other when some object's."""
    written = set()
    for label, value, kind in objects:
        seen = {}
        walk(value, "", seen)
        for path, types in seen.items():
            d = match(doc, path)
            if d is None:
                problems.append("%s: `%s` is written and not documented" % (label, path))
                continue
            written.add(d)
            if not types <= doc[d][0]:
                problems.append("%s: `%s` is %s, documented %s" % (label, path, " or ".join(sorted(types)),
                                                                  " or ".join(sorted(doc[d][0]))))
            if kind_of and kind not in kind_of(doc[d][1]):
                problems.append("%s: `%s` is written by %s, documented for %s" % (label, path, kind, doc[d][1]))
        for d, (_, when) in doc.items():
            wanted = kind in kind_of(when) if kind_of else when == "always"
            if wanted and not any(match(doc, p) == d for p in seen):
                problems.append("%s: `%s` (%s) is documented and not written" % (label, d, when))
    for d in doc:
        if d not in written and d not in exempt and not any(d.startswith(e + ".") for e in exempt):
            problems.append("`%s` is documented and none of the runs writes it" % d)


def json_doc(rows):
    """{path: (types, when)} of a key | type | when | meaning table."""
    return {r[0]: (set(t.strip("` ") for t in r[1].split(" or ")), r[2]) for r in rows}


def per_node_lengths(doc_rows, s, label, problems):
    for r in doc_rows:
        if r[3].startswith("per node") and "." not in r[0] and len(s.get(r[0], [])) != s["nodes"]:
            problems.append("%s: `%s` has %d elements for %d nodes" % (label, r[0], len(s.get(r[0], [])),
                                                                      s["nodes"]))


def check_csv(rows, path, label, indirect, problems):
    """The header is the documented columns, in order, of this network
    kind; each value is of its column's type."""
    cols = [r for r in rows if len(r) < 4 or r[2] == "always" or (("banyan" in r[2]) == indirect)]
    want = [r[0] for r in cols]
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        if header != want:
            problems.append("%s: header %s, documented %s" % (label, ",".join(header), ",".join(want)))
            return
        for n, row in enumerate(reader, 2):
            if len(row) != len(header):
                problems.append("%s line %d: %d fields for %d columns" % (label, n, len(row), len(header)))
                return
            for r, v in zip(cols, row):
                if r[1] == "int" and not re.fullmatch(r"-?\d+", v):
                    problems.append("%s line %d: %s = '%s', documented int" % (label, n, r[0], v))
                    return


def params_keys(network_doc):
    rows = sections(network_doc).get("Parameters", [])
    return [r[0] for t in tables(rows) for r in t]


def check_run(d, doc, net_keys, problems, records_seen):
    name = os.path.basename(os.path.normpath(d))
    s = json.load(open(os.path.join(d, "summary.json")))
    indirect = s["topology"] in INDIRECT
    for f in ("messages.csv", "links.csv", "steps.csv", "records.csv"):
        check_csv(tables(doc[f])[0], os.path.join(d, f), "%s/%s" % (name, f), indirect, problems)
    per_node_lengths(tables(doc["summary.json"])[0], s, name + "/summary.json", problems)
    record_keys = [r[0] for r in tables(doc["records.csv"])[1]]
    with open(os.path.join(d, "records.csv"), newline="") as f:
        keys = set(r["key"] for r in csv.DictReader(f)) | set(s["records"])
    for k in sorted(keys - set(record_keys)):
        problems.append("%s: record key %s is not documented" % (name, k))
    records_seen.update(keys)
    conf = [line.split("=")[0].strip() for line in open(os.path.join(d, "params.conf"))
            if line.strip() and not line.startswith("#")]
    if conf != net_keys:
        problems.append("%s/params.conf: keys %s, docs/network.md's Parameters %s" % (name, conf, net_keys))
    extra = [p.split(".")[1] for p in json_doc(tables(doc["summary.json"])[0]) if p.startswith("network.")
             and p != "network.KEY"]
    if list(s["network"]) != conf + extra:
        problems.append("%s/summary.json: network keys %s, documented params.conf's and %s"
                        % (name, list(s["network"]), extra))
    out = [("%s/summary.json" % name, s, None)]
    if os.path.exists(os.path.join(d, "trace.json")):
        out.append(("%s/trace.json" % name, json.load(open(os.path.join(d, "trace.json"))), "trace"))
    return out


def main(argv):
    doc_path, net_doc, args = argv[0], argv[1], argv[2:]
    exempt, netsim, runs = [], [], []
    while args:
        a = args.pop(0)
        if a == "--exempt":
            exempt.append(args.pop(0))
        elif a == "--netsim":
            kind, path = args.pop(0).split("=", 1)
            netsim += [("netsim %s" % kind, json.loads(line), kind) for line in open(path) if line.strip()]
        else:
            runs.append(a)
    doc, problems = sections(doc_path), []
    net_keys = params_keys(net_doc)
    summaries, traces, records_seen = [], [], set()
    for d in runs:
        for o in check_run(d, doc, net_keys, problems, records_seen):
            (traces if o[2] == "trace" else summaries).append(o)
    check_json(json_doc(tables(doc["summary.json"])[0]), summaries, problems, exempt)
    for k in [r[0] for r in tables(doc["records.csv"])[1] if runs and r[0] not in records_seen]:
        problems.append("record key %s is documented and none of the runs reports it" % k)
    if traces:
        check_json(json_doc(tables(doc["trace.json"])[0]), traces, problems)
    if netsim:
        kinds = lambda when: ("traffic", "burst", "replay") if when == "always" else when.split(" or ")
        check_json(json_doc(tables(doc["netsim --json"])[0]), netsim, problems, kind_of=kinds)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
