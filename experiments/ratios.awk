# ratios.awk: how far emulated times are from measured ones.
#
# Input: one line per cell, "measured emulated" (any unit, the same for
# both). Output, on one line: n, the median of |r - 1|, the geometric
# mean of r, and the cells within 15 % (|r - 1| <= 0.15), where
# r = emulated / measured. No cell: "0 - - 0". Used by
# experiments/calibrate.sh; the reports (experiments/report/errors.py)
# state the same definition of "error", and tests/report checks that the
# two agree.
$1 > 0 && $2 > 0 {
  r = $2 / $1; n++; e[n] = r > 1 ? r - 1 : 1 - r; s += log(r)
  if (e[n] <= 0.15 + 1e-12) w++
}
END {
  if (!n) { print "0 - - 0"; exit }
  for (i = 2; i <= n; i++) { y = e[i]; j = i - 1; while (j >= 1 && e[j] > y) { e[j + 1] = e[j]; j-- } e[j + 1] = y }
  med = n % 2 ? e[(n + 1) / 2] : (e[n / 2] + e[n / 2 + 1]) / 2
  printf "%d %.3f %.3f %d\n", n, med, exp(s / n), w + 0
}
