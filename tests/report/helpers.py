"""Small hand-made inputs for the report tests: CSV files in a scratch
directory, rows with the sweep's columns."""

import csv
import os
import shutil
import tempfile
import unittest

COLUMNS = ("app,topo,dims,nodes,len,preset,port_model,net,args,arch,group,status,coll_ns,coll_ns_node0,"
           "sim_time_ns,steps,sends_per_node,startups_per_node,messages,bytes,bytes_per_node,max_msg_bytes,"
           "max_link_sharing,max_link_worms,min_link_worms,max_link_flits,wall_s,run_dir").split(",")


def row(**values):
    """A results.csv row: every column, empty unless given."""
    r = {c: "" for c in COLUMNS}
    r.update({"topo": "mesh", "preset": "default", "port_model": "one-port", "arch": "arm", "status": "ok"})
    r.update({k: str(v) for k, v in values.items()})
    return r


def write_csv(path, rows, header=None, comments=()):
    """A CSV file (csv.writer quoting) with optional # lines first."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    header = header or list(rows[0].keys())
    with open(path, "w", newline="") as f:
        for c in comments:
            f.write("# %s\n" % c)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([r.get(h, "") for h in header])
    return path


class ScratchTest(unittest.TestCase):
    """A test with a scratch directory, self.dir, removed afterwards."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="report-test.")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)
