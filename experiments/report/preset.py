"""A preset's values (presets/NAME.conf: `key = value` lines, # comments),
and the costs the papers' formulas take from it."""

import os


def read_preset(path):
    """The preset's keys and their values (text), in file order."""
    values = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if "=" not in line:
                continue
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    return values


def preset_path(root, name):
    """presets/NAME.conf under the checkout, or NAME itself (a file)."""
    path = os.path.join(root, "presets", name + ".conf")
    return path if os.path.isfile(path) else name


class Costs:
    """The network and node costs of a preset, in ns.

    alpha_ns: a message's start-up, t_send + t_recv (the papers' t_s,
    alpha); byte_ns: one byte on a link (t_d, gamma; byte_ps / 1000);
    flit_ns: one flit through a link, the network's cycle (flit_bytes x
    byte_ns). Keys the preset leaves out take their built-in defaults
    (wormsim --list-params). instr_ns: a node instruction (cpu_ps / 1000);
    clock_text: the node clock as the docs quote it ("40 MHz", "1 GHz").
    """

    def __init__(self, values):
        self.values = values
        self.t_send_ns = int(values["t_send_ns"])
        self.t_recv_ns = int(values["t_recv_ns"])
        self.byte_ps = int(values["byte_ps"])
        self.flit_bytes = int(values["flit_bytes"])
        self.nic_cycles = int(values.get("nic_cycles", "1"))
        self.msg_max = int(values.get("msg_max", "262144"))
        self.cpu_ps = int(values.get("cpu_ps", "1000"))
        self.alpha_ns = self.t_send_ns + self.t_recv_ns
        self.byte_ns = self.byte_ps / 1000
        self.flit_ns = self.flit_bytes * self.byte_ps / 1000
        self.instr_ns = self.cpu_ps / 1000
        mhz = 1e6 / self.cpu_ps
        self.clock_text = "%g GHz" % (mhz / 1000) if mhz >= 1000 else "%g MHz" % mhz


def costs(root, name):
    """The Costs of presets/NAME.conf."""
    return Costs(read_preset(preset_path(root, name)))


def of_rows(root, rows):
    """The Costs of the preset a sweep's rows ran with (the first row's;
    a reproduction's sweep runs one preset)."""
    return costs(root, rows[0]["preset"] if rows and rows[0].get("preset") else "default")
