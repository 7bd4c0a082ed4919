# lsq.awk: linear least squares in relative error, for experiments/calibrate.sh.
#
# Input: one line per training cell, whitespace-separated:
#     P T0 J_1 .. J_K
# P is the measured time, T0 the emulated time at the current parameters
# p0, and J_k the emulated time's change per unit of parameter k (from a
# probe run). The emulated time is taken as T0 + sum_k J_k x_k, with
# x = p - p0; the fit minimises sum ((T0 + J.x - P) / P)^2, every cell
# counting alike whatever its size.
# Output: "x_1 .. x_K" on one line; exit 1, with the reason on stderr, if
# the system is singular (a parameter that moves no cell, or two that move
# them alike) or there are fewer cells than parameters.
{
  if (K == "") K = NF - 2
  else if (NF - 2 != K) { print "lsq: line " NR " has " NF - 2 " slopes, the first had " K > "/dev/stderr"; bad = 1; exit 1 }
  if ($1 <= 0) { print "lsq: line " NR ": measured time " $1 " is not positive" > "/dev/stderr"; bad = 1; exit 1 }
  n++
  for (k = 1; k <= K; k++) {
    b[k] += $(k + 2) * ($1 - $2) / ($1 * $1)
    for (l = 1; l <= K; l++) A[k, l] += $(k + 2) * $(l + 2) / ($1 * $1)
  }
}
END {
  if (bad) exit 1
  if (n < K || K < 1) { print "lsq: " n " cells for " K " parameters" > "/dev/stderr"; exit 1 }
  # Gaussian elimination with partial pivoting; a pivot below 1e-12 of
  # the largest diagonal term means the system is singular.
  big = 0
  for (k = 1; k <= K; k++) if (A[k, k] > big) big = A[k, k]
  for (c = 1; c <= K; c++) {
    p = c
    for (r = c + 1; r <= K; r++) if (abs(A[r, c]) > abs(A[p, c])) p = r
    if (abs(A[p, c]) <= 1e-12 * big) { print "lsq: singular: parameter " c " moves no cell apart from the others" > "/dev/stderr"; exit 1 }
    if (p != c) { for (l = 1; l <= K; l++) { t = A[c, l]; A[c, l] = A[p, l]; A[p, l] = t } t = b[c]; b[c] = b[p]; b[p] = t }
    for (r = c + 1; r <= K; r++) {
      f = A[r, c] / A[c, c]
      for (l = c; l <= K; l++) A[r, l] -= f * A[c, l]
      b[r] -= f * b[c]
    }
  }
  for (c = K; c >= 1; c--) {
    s = b[c]
    for (l = c + 1; l <= K; l++) s -= A[c, l] * x[l]
    x[c] = s / A[c, c]
  }
  for (k = 1; k <= K; k++) printf "%s%.10g", (k > 1 ? " " : ""), x[k]
  print ""
}
function abs(v) { return v < 0 ? -v : v }
