#!/usr/bin/env bash
# calibrate: fit a preset's free parameters to measured times on the
# declared training cells, and report the error on the cells held out.
#
#   experiments/calibrate.sh [options] --preset FILE --table FILE
#
# The table is a CSV ('#' lines and blank lines are comments) of measured
# times, one row per cell, columns found by name: app, dims, len, the time
# in seconds (--time-col, default paper_s) and role: train (the fit reads
# it) or heldout (only reported). experiments/paper/thakur.csv is one, for
# presets/delta.conf. Only train rows are run. The table is checked whole
# before any run (experiments/caltable.awk): a bad row is refused naming
# its line.
#
# The fit: at the current values p the emulated time of each training
# cell is taken as linear in each free parameter; one probe run per cell
# at p and one more per parameter (p_k moved by a quarter) give the
# slopes, and p moves to the least-squares solution in relative error
# (experiments/lsq.awk: every cell counts alike). That repeats --iters
# times from the new p; a last run at the fitted p is the check.
# Options:
#   --preset FILE     the preset whose values are fitted (a presets/NAME or a path)
#   --table FILE      the measured times (above)
#   --fit 'K ..'      free parameters, numeric keys of wormsim --list-params, each
#                     once, each on a line of the preset (its value is where the
#                     fit starts) (default 'alpha byte_ps'); alpha stands for
#                     t_send_ns + t_recv_ns, split evenly
#   --topo KIND       the machine's topology for every cell (default mesh): mesh,
#                     torus, hypercube, banyan, fattree or dragonfly
#   --time-col NAME   the table's column of measured seconds (default paper_s)
#   --iters N         fit rounds (default 2); 0: no fit, only the check runs and
#                     the error at the preset's values
#   --out DIR         the probe and check runs (default results/calibrate-NAME)
#   --write           write the fitted values into the preset file, in place of
#                     the numbers on their lines (all else stays as it is)
#   --heldout CSV     a sweep's results.csv with the preset: print the error of
#                     its held-out cells, apart from the training cells' (its
#                     rows of this preset, --topo and port model, no net; a
#                     file with none of the table's held-out cells is refused)
#   -h, --help
# Prints each round's values (alpha in ns; each key in its unit, wormsim
# --list-params), each training cell's measured and emulated times, what
# --write stored or would store, where the runs are, and, for training
# and held-out cells apart: the cells, the median
# of |r - 1|, the geometric mean of r and the cells within 15 %, with
# r = emulated / measured (experiments/ratios.awk). A user with their own
# machine's measurements writes such a table and a preset (docs/results.md,
# "Calibrating a preset").
# Exit: 0 fitted, 1 a run failed or the fit is singular, 2 bad use, 130
# stopped (Ctrl-C, kill: the runs under way end, the preset is not written).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "calibrate: $*" >&2; exit 2; }
. "$HERE/experiments/usage.sh"

PRESET=""; TABLE=""; FIT="alpha byte_ps"; TOPO=mesh; TCOL=paper_s; ITERS=2; OUT=""; WRITE=0; HELDOUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --preset|--table|--fit|--topo|--time-col|--iters|--out|--heldout)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;&
    --preset) PRESET=$2; shift 2 ;;
    --table) TABLE=$2; shift 2 ;;
    --fit) FIT=$2; shift 2 ;;
    --topo) TOPO=$2; shift 2 ;;
    --time-col) TCOL=$2; shift 2 ;;
    --iters) ITERS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --heldout) HELDOUT=$2; shift 2 ;;
    --write) WRITE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1'; accepted: $(usage_options)" ;;
  esac
done
[ -n "$PRESET" ] || die "give --preset FILE (a presets/NAME or a path)"
[ -n "$TABLE" ] || die "give --table FILE (measured times: app, dims, len, $TCOL, role)"
[ -f "$PRESET" ] || { [ -f "$HERE/presets/$PRESET.conf" ] && PRESET=$HERE/presets/$PRESET.conf; }
[ -f "$PRESET" ] || die "no preset '$PRESET' (a file, or a name in presets/: $(cd "$HERE/presets" && ls *.conf | sed 's/\.conf$//' | tr '\n' ' '))"
[ -f "$TABLE" ] || die "no table '$TABLE'"
[[ "$ITERS" =~ ^(0|[1-9][0-9]?)$ ]] || die "--iters '$ITERS' is not a count from 0 to 99"
case "$TOPO" in mesh|torus|hypercube|banyan|fattree|dragonfly) ;; *) die "--topo '$TOPO' is unknown; accepted: mesh, torus, hypercube, banyan, fattree, dragonfly" ;; esac
[ -z "$HELDOUT" ] || [ -f "$HELDOUT" ] || die "no results file '$HELDOUT'"
NAME=$(basename "$PRESET" .conf)
# PRESET_FILE: the file read and written, as the runs name it (a bare name
# would send the run tool to presets/ first).
PRESET_FILE=$(cd "$(dirname "$PRESET")" && pwd)/$(basename "$PRESET")
# the runs' sweeps write it into results.csv, unquoted (experiments/sweep.sh)
[[ "$PRESET_FILE" != *[,\"]* ]] ||
  die "--preset: the path $PRESET_FILE holds a comma or a quote, which the runs' results.csv cannot hold; accepted: a preset whose path has none"
OUT=${OUT:-$HERE/results/calibrate-$NAME}

WORMSIM=${WORMSIM:-$HERE/build/host/wormsim}
[ -x "$WORMSIM" ] || die "no run tool at $WORMSIM (run make first)"
# The parameters: "KEY ACCEPTED DEFAULT" of each (wormsim --list-params);
# a numeric one accepts LO..HI. alpha stands for t_send_ns + t_recv_ns.
PARAMS=$("$WORMSIM" --list-params | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1, $2, $3 }')
NUMERIC=$(awk '$2 ~ /^[0-9]+\.\.[0-9]+$/ { printf "%s ", $1 }' <<< "$PARAMS")
FITTABLE="alpha (t_send_ns + t_recv_ns) or the numeric keys of wormsim --list-params: ${NUMERIC% }"
# value KEY: KEY's whole-number value in the preset (alpha: t_send_ns +
# t_recv_ns), the line found as the run tool reads it (spaces or tabs
# around the key and the '=', a comment after the value).
value() {
  if [ "$1" = alpha ]; then local s r; s=$(value t_send_ns) && r=$(value t_recv_ns) || exit 2; echo $((s + r)); return; fi
  local spec v; spec=$(awk -v k="$1" '$1 == k' <<< "$PARAMS")
  [ -n "$spec" ] || die "--fit: '$1' is not a parameter; accepted: $FITTABLE"
  [[ " $NUMERIC " == *" $1 "* ]] || die "--fit: '$1' takes $(cut -d' ' -f2 <<< "$spec"), not a number; accepted: $FITTABLE"
  v=$(sed -n "s/^[ \t]*$1[ \t]*=[ \t]*\([0-9][0-9]*\)[ \t]*\(#.*\)\{0,1\}\$/\1/p" "$PRESET" | tail -1)
  [ -n "$v" ] || die "the preset $PRESET has no line '$1 = N' to start the fit of $1 from; add one (the built-in value is ${spec##* })"
  echo "$v"
}
# hi KEY: the largest value KEY accepts.
hi() { if [ "$1" = alpha ]; then echo $(( 2 * $(hi t_send_ns) )); else awk -v k="$1" '$1 == k { sub(/.*\.\./, "", $2); print $2 }' <<< "$PARAMS"; fi; }
read -ra KEYS <<< "$FIT"
[ ${#KEYS[@]} -ge 1 ] || die "--fit names no parameter; accepted: $FITTABLE"
declare -A P
for k in "${KEYS[@]}"; do
  [[ "$k" =~ ^[a-z_]+$ ]] || die "--fit: '$k' is not a parameter; accepted: $FITTABLE"
  [ -z "${P[$k]:-}" ] || die "--fit: '$k' is given twice; accepted: each key once"
  [[ "$k" != t_send_ns && "$k" != t_recv_ns ]] || [[ " $FIT " != *" alpha "* ]] ||
    die "--fit: alpha is t_send_ns + t_recv_ns; accepted: alpha or those keys, not both"
  P[$k]=$(value "$k") || exit 2
done
# setting: the --set words of the values in P, with KEY moved to VALUE.
setting() {  # [KEY VALUE]
  local k v s=""
  for k in "${KEYS[@]}"; do
    v=${P[$k]}; [ "$k" = "${1:-}" ] && v=$2
    if [ "$k" = alpha ]; then s="$s t_send_ns=$((v / 2)) t_recv_ns=$((v - v / 2))"; else s="$s $k=$v"; fi
  done
  echo "${s# }"
}

KERNEL=${KERNEL:-$HERE/build/arm/node.elf} KERNEL_RISCV=${KERNEL_RISCV:-$HERE/build/riscv/node.elf}
. "$HERE/experiments/sweep-cell.sh"   # apps_with_len, machine_opts, preset_port_model
APPS_LEN=$(apps_with_len)            # the apps a cell may name, as a sweep's runs
# The table's cells, checked whole (experiments/caltable.awk): one line
# each, "app dims len seconds role LINE".
cells=$(awk -F, -v file="$TABLE" -v tc="$TCOL" -v apps="${APPS_LEN% }" -f "$HERE/experiments/caltable.awk" "$TABLE") || exit 2
train=$(awk '$5 == "train"' <<< "$cells")
ntrain=$(grep -c . <<< "$train")
[ "$ntrain" -ge ${#KEYS[@]} ] || die "$ntrain training cells for ${#KEYS[@]} free parameters: mark at least as many rows role=train"
# Each training cell as its runs will start, judged by the run tool
# (wormsim --check, memory aside): a machine, length or preset the app or
# the tool refuses is the table's fault, found before any run.
# PM: the port model of every run, the preset's as the run tool reads it
# (the definitions of the rounds' sweeps name it).
PM=$(preset_port_model "$PRESET_FILE")
while read -r app dims len s role line; do
  [ "$role" = train ] || continue
  machine_opts "$TOPO" "$dims" "$PRESET_FILE" "$PM" arm ""
  why=$("$WORMSIM" --check --app "$app" "${MACHINE_OPTS[@]}" --args "len=$len" --mem-limit 1073741824 2>&1 > /dev/null) ||
    die "$TABLE:$line: $app on $TOPO $dims, len $len: ${why#wormsim: }"
done <<< "$cells"
# The held-out cells' emulated times (--heldout), read before any run: a
# file that holds none of the table's held-out cells on this machine and
# preset is refused.
nheld=$(awk '$5 == "heldout"' <<< "$cells" | grep -c .)
if [ -n "$HELDOUT" ]; then
  held=$(awk -F, -v file="$HELDOUT" -v name="$NAME" -v topo="$TOPO" -v pm="$PM" -f "$HERE/experiments/calheld.awk" "$HELDOUT") || exit 2
  [ "$nheld" -gt 0 ] || die "--heldout: $TABLE has no held-out cells (role heldout) to report"
  found=$(awk 'NR == FNR { t[$1, $2, $3]; next } $5 == "heldout" && ($1, $2, $3) in t' <(echo "$held") <(echo "$cells") | grep -c .)
  [ "$found" -gt 0 ] || die "--heldout: $HELDOUT holds none of the $nheld held-out cells of $TABLE run with preset $NAME on $TOPO ($PM, no net setting); accepted: the results of a sweep of them with 'preset = $PRESET', 'topo = $TOPO' and 'port_model = $PM'"
fi
mkdir -p "$OUT" || die "cannot create $OUT"
echo "calibrate $NAME: ${#KEYS[@]} free parameters (${KEYS[*]}) on $ntrain training cells of $TABLE"

# sweep DEF_NAME NET_ALTERNATIVES: run every training cell under each
# alternative; the rows go to $OUT/DEF_NAME/results.csv.
sweep() {
  local def=$OUT/$1.sweep i=0 app dims len s role
  { echo "# Runs of experiments/calibrate.sh ($1)."
    echo "topo   = $TOPO"; echo "preset = $PRESET_FILE"; echo "port_model = $PM"
    while read -r app dims len s role line; do
      i=$((i + 1)); printf '[c%d]\napps = %s\ndims = %s\nlen = %s\nnet = %s\n' "$i" "$app" "$dims" "$len" "$2"
    done <<< "$train"; } > "$def"
  rm -rf "${OUT:?}/$1"
  "$HERE/experiments/sweep.sh" -o "$OUT/$1" "$def" > "$OUT/$1.log" 2>&1 &
  SWEEP_PID=$!; wait "$SWEEP_PID"; local rc=$?; SWEEP_PID=""
  [ $rc = 0 ] || { echo "calibrate: the runs of $1 failed:"; tail -5 "$OUT/$1.log"; exit 1; }
}
# Invariant: while the runs of a round go on, SWEEP_PID is their sweep's.
# A stop (Ctrl-C, kill) stops that sweep, which ends its runs and node
# pools, and then the calibration, the preset unwritten.
SWEEP_PID=""
stop() {
  trap '' INT TERM
  [ -z "$SWEEP_PID" ] || { kill -TERM "$SWEEP_PID" 2> /dev/null; wait "$SWEEP_PID"; }
  echo "calibrate: stopped; $PRESET is unchanged (the runs so far are in $OUT)" >&2
  exit 130
}
trap stop INT TERM
# emulated CSV NET: "app dims len seconds" of each row run under NET.
emulated() {
  awk -F, -v net="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["net"] == net && $c["status"] == "ok" { print $c["app"], $c["dims"], $c["len"], $c["coll_ns"] / 1e9 }' "$1"
}
declare -A D
for it in $(seq 1 "$ITERS"); do
  base=$(setting); alts=$base
  for k in "${KEYS[@]}"; do
    D[$k]=$(( ${P[$k]} / 4 > 0 ? ${P[$k]} / 4 : 1 )); alts="$alts | $(setting "$k" $(( ${P[$k]} + ${D[$k]} )))"
  done
  sweep "round$it" "$alts"
  csv=$OUT/round$it/results.csv
  emulated "$csv" "$base" > "$OUT/t0"
  for k in "${KEYS[@]}"; do
    emulated "$csv" "$(setting "$k" $(( ${P[$k]} + ${D[$k]} )))" | awk -v d="${D[$k]}" 'NR == FNR { t[$1, $2, $3] = $4; next }
      { print $1, $2, $3, ($1, $2, $3) in t ? (t[$1, $2, $3] - $4) / d : "none" }' - "$OUT/t0" > "$OUT/slope.$k"
  done
  # lsq input: measured T0 J_1 .. J_K, per training cell.
  awk -v nk=${#KEYS[@]} 'FILENAME == ARGV[1] { if ($5 == "train") m[$1, $2, $3] = $4; next }
    FILENAME == ARGV[2] { t0[$1, $2, $3] = $4; next }
    { j[$1, $2, $3] = j[$1, $2, $3] " " $4; nj[$1, $2, $3]++ }
    END { for (k in m) { if (!(k in t0) || nj[k] != nk || j[k] ~ /none/) { split(k, f, SUBSEP); print "calibrate: no probe runs of " f[1] " " f[2] " " f[3] > "/dev/stderr"; exit 1 }
                         print m[k], t0[k] j[k] } }' <(echo "$cells") "$OUT/t0" $(for k in "${KEYS[@]}"; do echo "$OUT/slope.$k"; done) \
    > "$OUT/lsq.in" || exit 1
  x=$(awk -f "$HERE/experiments/lsq.awk" "$OUT/lsq.in") || { echo "calibrate: the fit failed (round $it)"; exit 1; }
  read -ra X <<< "$x"; i=0; line=""
  for k in "${KEYS[@]}"; do
    v=$(awk -v p="${P[$k]}" -v d="${X[$i]}" 'BEGIN { printf "%.0f", p + d }'); i=$((i + 1))
    [ "$v" -ge 1 ] || { echo "calibrate: round $it moved $k to $v, below 1: the cells cannot fix it (try fewer --fit keys)"; exit 1; }
    [ "$v" -le "$(hi "$k")" ] || { echo "calibrate: round $it moved $k to $v, above the $(hi "$k") it accepts: the cells cannot fix it (try fewer --fit keys)"; exit 1; }
    P[$k]=$v; line="$line $k = $v"
  done
  echo "round $it:$line"
done

sweep check "$(setting)"
emulated "$OUT/check/results.csv" "$(setting)" > "$OUT/t.check"
echo "training cells: app dims len measured_s emulated_s ratio"
awk 'NR == FNR { t[$1, $2, $3] = $4; next } $5 == "train" { e = t[$1, $2, $3]; printf "  %s %s %s %s %.4g %.2f\n", $1, $2, $3, $4, e, e / $4 }' \
  "$OUT/t.check" <(echo "$cells")
# report ROLE SOURCE: the error line of one role's cells.
report() {
  awk 'NR == FNR { t[$1, $2, $3] = $4; next } $5 == role && ($1, $2, $3) in t { print $4, t[$1, $2, $3] }' role="$1" "$2" <(echo "$cells") |
    awk -f "$HERE/experiments/ratios.awk" | awk -v r="$1" '{ printf "%s: %d cells, median |r - 1| %s, geometric mean %s, %d within 15 %%\n", r, $1, $2, $3, $4 }'
}
report train "$OUT/t.check"
if [ -n "$HELDOUT" ]; then
  echo "$held" > "$OUT/t.heldout"
  report heldout "$OUT/t.heldout"
  [ "$ITERS" = 0 ] || echo "  (the held-out cells ran at the preset's values before this fit; --iters 0 reports both at those)"
  [ "$found" = "$nheld" ] || echo "  ($((nheld - found)) of the $nheld held-out cells of $TABLE are not in $HELDOUT)"
fi
# store KEY VALUE: VALUE in place of the number on KEY's lines of the
# preset; the rest of each line (spacing, comment) and every other line stay.
store() { sed -i "s/^\([ \t]*$1[ \t]*=[ \t]*\)[0-9][0-9]*/\1$2/" "$PRESET"; }
if [ $WRITE = 1 ]; then
  trap '' INT TERM    # the preset is written whole
  for k in "${KEYS[@]}"; do
    if [ "$k" = alpha ]; then store t_send_ns $((P[alpha] / 2)); store t_recv_ns $((P[alpha] - P[alpha] / 2))
    else store "$k" "${P[$k]}"; fi
  done
  echo "wrote $(setting) into $PRESET"
else
  echo "$PRESET is unchanged; --write stores $(setting)"
fi
[ -n "$HELDOUT" ] || [ "$nheld" = 0 ] || echo "$nheld held-out cells not run: sweep them with 'preset = $PRESET_FILE', 'topo = $TOPO' and 'port_model = $PM', then --iters 0 --heldout RESULTS.csv reports their error"
echo "the runs: $OUT"
