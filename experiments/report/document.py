"""docs/results.md: the reproductions' sections in order, each made by
its module (the same code the per-sweep reports include), between the
page's fixed prose."""

from . import (adaptive, banyan004, families, flood004, hwcoll002, pathmc002, prose, speed, survey002,
               thakur, torus000, tseng001)
from .doc import Doc

# Sweep name -> its section, in the page's order. thakur-alloc has no
# section of its own: section 1 reads it.
SECTIONS = {
    "thakur": thakur.section,
    "torus000": torus000.section,
    "tseng001": None,
    "flood004": flood004.section,
    "survey002": survey002.section,
    "banyan004": banyan004.section,
    "families": families.section,
    "hwcoll002": hwcoll002.section,
    "pathmc002": pathmc002.section,
    "adaptive": adaptive.section,
}
# The order of the Speed table.
SPEED_ORDER = ("thakur", "thakur-alloc", "torus000", "tseng001", "flood004", "survey002",
               "banyan004", "families", "hwcoll002", "pathmc002", "adaptive")


def section_of(name, tseng_test):
    """The function writing the section of the reproduction sweep name,
    or None for a sweep without one."""
    if name == "tseng001":
        return lambda ctx, doc: tseng001.section(ctx, doc, tseng_test)
    return SECTIONS.get(name)


def build(ctx, tseng_test):
    """The whole page as text."""
    doc = Doc()
    doc.write(prose.OPENING)
    for name in SECTIONS:
        section_of(name, tseng_test)(ctx, doc)
    speed.section(ctx, doc, SPEED_ORDER)
    doc.write(prose.RUNNING)
    return str(doc)
