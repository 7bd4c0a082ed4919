"""How far emulated times are from measured ones: the same definition as
experiments/ratios.awk (which experiments/calibrate.sh uses; tests/report
checks that the two agree).

r = emulated / measured per cell; a summary gives n, the median of
|r - 1|, the geometric mean of r and the cells within 15 % (|r - 1| <=
0.15). Cells with a time that is not positive are left out.
"""

import math

WITHIN = 0.15


def median(values):
    """The median of a non-empty list of numbers."""
    v = sorted(values)
    n = len(v)
    return v[(n + 1) // 2 - 1] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


class ErrorSummary:
    """n, median |r - 1|, geometric mean r and cells within 15 %, of
    (measured, emulated) pairs."""

    def __init__(self, pairs):
        ratios = [e / m for m, e in pairs if m > 0 and e > 0]
        self.n = len(ratios)
        errors = [r - 1 if r > 1 else 1 - r for r in ratios]
        self.within = sum(1 for e in errors if e <= WITHIN + 1e-12)
        self.median_error = median(errors) if ratios else None
        log_sum = 0.0
        for r in ratios:
            log_sum += math.log(r)
        self.geo_mean = math.exp(log_sum / self.n) if ratios else None

    def fields(self):
        """n, median, geometric mean and within as ratios.awk prints them
        ("-" for no cell)."""
        if not self.n:
            return "0", "-", "-", "0"
        return (str(self.n), "%.3f" % self.median_error, "%.3f" % self.geo_mean,
                str(self.within))

    def row(self, name):
        """A table row: | name | n | median | geometric mean | w of n |."""
        n, med, geo, within = self.fields()
        return "| %s | %s | %s | %s | %s of %s |" % (name, n, med, geo, within, n)
