#!/usr/bin/env bash
# Calibrates the start-up (alpha = t_send_ns + t_recv_ns, split evenly) and
# the per-byte cost (byte_ps) of presets/delta.conf on one row of one
# paper table only: PEX on the 4x4 mesh, Table 2 of Thakur, Choudhary and
# Fox (seed 003): 0.004, 0.008, 0.023, 0.034, 0.064 s at 256 B, 1, 4, 8,
# 16 KB.
#
# The emulated time of the collective (coll_ns, see docs/results.md) is,
# at each block length L, close to linear in alpha and in byte_ps:
#     T(L) = X(L) + alpha U(L) + byte_ps Y(L)
# (U is about 15, one start-up per step; Y carries the per-byte link and
# NIC time; X is the node's own work: copying and checking at cpu_ps).
# Three runs per L find X, U and Y; alpha and byte_ps are then the least
# squares fit of T to the paper's times in relative error (every size
# counts alike), and a fourth run checks the fitted preset.
#   experiments/calibrate-delta.sh [OUTDIR]      (prints the numbers)
# The other preset keys (network structure: XY mesh, wormhole, one-port,
# nic_cycles = 2 for gamma = 1, 4-byte flits, cpu_ps) are not fitted.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "calibrate-delta: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  -*) die "unknown option '$1'; usage: experiments/calibrate-delta.sh [OUTDIR] (or -h, --help)" ;;
esac
[ $# -le 1 ] || die "one output directory at most (got $#: $*); usage: experiments/calibrate-delta.sh [OUTDIR]"
OUT=${1:-results/calibrate-delta}
PAPER="256:0.004 1024:0.008 4096:0.023 8192:0.034 16384:0.064"
A3=200000; B1=100000; B2=150000
mkdir -p "$OUT"
base=$(grep -v '^\(t_send_ns\|t_recv_ns\|byte_ps\)\b' "$HERE/presets/delta.conf")
{ echo "$base"; echo "t_send_ns = 0"; echo "t_recv_ns = 0"; echo "byte_ps = $B1"; } > "$OUT/base.conf"
cat > "$OUT/probe.sweep" <<EOF
# Probe runs of the delta calibration (experiments/calibrate-delta.sh).
apps   = alltoall_pex
topo   = mesh
dims   = 4x4
preset = $OUT/base.conf
len    = 256 1024 4096 8192 16384
net    = byte_ps=$B1 | byte_ps=$B2 | t_send_ns=$((A3 / 2)) t_recv_ns=$((A3 / 2))
EOF
"$HERE/experiments/sweep.sh" -o "$OUT/probe" "$OUT/probe.sweep" || exit 1
fit=$(awk -F, -v paper="$PAPER" -v a3=$A3 -v b1=$B1 -v b2=$B2 '
  BEGIN { n = split(paper, w, " "); for (i = 1; i <= n; i++) { split(w[i], kv, ":"); P[kv[1]] = kv[2] * 1e9 } }
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { t[$c["len"], $c["net"]] = $c["coll_ns"] }
  END {
    for (L in P) {
      r1 = t[L, "byte_ps=" b1]; r2 = t[L, "byte_ps=" b2]; r3 = t[L, "t_send_ns=" a3/2 " t_recv_ns=" a3/2]
      Y = (r2 - r1) / (b2 - b1); U = (r3 - r1) / a3; X = r1 - b1 * Y
      # relative residual (X + a U + b Y - P) / P: normal equations in a, b
      u = U / P[L]; y = Y / P[L]; z = (P[L] - X) / P[L]
      suu += u * u; syy += y * y; suy += u * y; suz += u * z; syz += y * z
    }
    det = suu * syy - suy * suy
    a = (suz * syy - syz * suy) / det; b = (syz * suu - suz * suy) / det
    printf "%d %d\n", a / 2 + 0.5, b + 0.5
  }' "$OUT/probe/results.csv")
read -r half bps <<< "$fit"
echo "fit: t_send_ns = t_recv_ns = $half (alpha = $((2 * half)) ns), byte_ps = $bps"
cat > "$OUT/check.sweep" <<EOF
# Check of the fitted delta parameters (experiments/calibrate-delta.sh).
apps   = alltoall_pex
topo   = mesh
dims   = 4x4
preset = $OUT/base.conf
len    = 256 1024 4096 8192 16384
net    = t_send_ns=$half t_recv_ns=$half byte_ps=$bps
EOF
rm -rf "$OUT/check"
"$HERE/experiments/sweep.sh" -o "$OUT/check" "$OUT/check.sweep" || exit 1
echo "len paper_s emulated_s ratio"
awk -F, -v paper="$PAPER" 'BEGIN { n = split(paper, w, " "); for (i = 1; i <= n; i++) { split(w[i], kv, ":"); P[kv[1]] = kv[2] } }
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { L = $c["len"]; T = $c["coll_ns"] / 1e9; printf "%d %.3f %.4f %.2f\n", L, P[L], T, T / P[L] }' "$OUT/check/results.csv" | sort -n
