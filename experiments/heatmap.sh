#!/usr/bin/env bash
# Per-link load of one run of a 2D mesh or torus as a PNG: every directed
# channel is an arrow beside its link (+ direction below or left of the
# link, - above or right), coloured by the flits it carried or the cycles a
# flit waited for it (links.csv of the run). Torus wrap-around channels
# are the short arrows leaving the edge of the drawing.
#   experiments/heatmap.sh [--metric flits|worms|blocked|busy] RUN [OUT.png]
#   make heatmap RUN=runs/latest [METRIC=blocked] [OUT=file.png]
# RUN is a run directory (with summary.json and links.csv); OUT defaults to
# RUN/heatmap-METRIC.png, and its directory must exist and be writable.
set -u
. "$(dirname "$0")/usage.sh"
# The metrics, each a case of the `case "$metric"` below, the first the default.
METRICS="flits worms blocked busy"
metric=${METRICS%% *}; POS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --metric) [ $# -ge 2 ] || { echo "heatmap: --metric needs a value: $METRICS" >&2; exit 2; }
              metric=$2; shift 2 ;;
    --metric=*) metric=${1#*=}; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; POS+=("$@"); break ;;
    -*) echo "heatmap: unknown option '$1'; accepted: --metric ${METRICS// /|}, -h, --help" >&2; exit 2 ;;
    *) POS+=("$1"); shift ;;
  esac
done
set -- "${POS[@]}"
[ $# -ge 1 ] || { echo "heatmap: give a run directory (RUN=runs/latest)" >&2; exit 2; }
[ $# -le 2 ] || { echo "heatmap: a run directory and an output file at most (got $#: $*)" >&2; exit 2; }
# RUN without a trailing slash, so that the paths printed have no //
run=${1%/}; run=${run:-/}; out=${2:-$run/heatmap-$metric.png}
case "$metric" in     # col: the links.csv column (host/out/report.c), by name
  flits) col=flits; what="flits carried" ;;
  worms) col=worms; what="messages (worms) carried" ;;
  busy) col=busy_cycles; what="busy cycles" ;;
  blocked) col=blocked_cycles; what="cycles blocked" ;;
  *) echo "heatmap: metric '$metric' (METRIC= or --metric) is not one of: $METRICS" >&2; exit 2 ;;
esac
# RUN must be a directory holding both files; the message names what is
# missing. A directory holding one run directory (a sweep's cell,
# results/NAME/runs/CELL) names it.
[ -d "$run" ] || { echo "heatmap: no run directory '$run' (RUN= a run directory, such as runs/latest)" >&2; exit 2; }
if ! [ -f "$run/summary.json" ] || ! [ -f "$run/links.csv" ]; then
  if [ -f "$run/summary.json" ]; then lacks="no links.csv"
  elif [ -f "$run/links.csv" ]; then lacks="no summary.json"
  else lacks="neither summary.json nor links.csv"; fi
  inner=$(for d in "$run"/*/; do [ -L "${d%/}" ] || { [ -f "$d/summary.json" ] && [ -f "$d/links.csv" ] && echo "${d%/}"; }; done 2>/dev/null)   # (not a link such as latest)
  if [ -n "$inner" ] && [ "$(printf '%s\n' "$inner" | wc -l)" = 1 ]; then
    echo "heatmap: $run has $lacks; the run directory in it is $inner (make heatmap RUN=$inner)" >&2
  else
    echo "heatmap: $run has $lacks; give a run directory, which holds both (RUN=runs/latest)" >&2
  fi
  exit 2
fi
command -v gnuplot >/dev/null || { echo "heatmap: needs gnuplot (Debian package gnuplot-nox; tests/check-deps.sh plot)" >&2; exit 1; }
dims=$(jq -r .dims "$run/summary.json"); topo=$(jq -r .topology "$run/summary.json")
app=$(jq -r .app "$run/summary.json"); args=$(jq -r .args "$run/summary.json")
# the routing, unless dimension order (so that an adaptive run's drawing
# is not taken for it), and its selection unless the first
routing=$(jq -r '.network // {} | select(.routing and .routing != "deterministic")
                 | "routing=\(.routing)" + (if .selection and .selection != "first" then " selection=\(.selection)" else "" end)' \
          "$run/summary.json")
[[ "$dims" =~ ^[0-9]+x[0-9]+$ ]] && [[ "$topo" == mesh || "$topo" == torus ]] || { echo "heatmap: $run is a $topo $dims; only 2D meshes and tori are drawn ($run/links.csv holds every link's counters, by its header names)" >&2; exit 2; }
X=${dims%x*}; Y=${dims#*x}
# OUT is checked before anything is drawn: a file in an existing, writable
# directory (gnuplot, told to write where it cannot, would write the
# image to its standard output instead).
outdir=$(dirname -- "$out")
if [[ "$out" == *[[:cntrl:]]* ]]; then bad_out="its name holds a control character"
elif [ -d "$out" ]; then bad_out="it is a directory"
elif [ ! -d "$outdir" ]; then bad_out="its directory $outdir does not exist"
elif [ ! -w "$outdir" ] || [ ! -x "$outdir" ]; then bad_out="its directory $outdir is not writable"
elif [ -e "$out" ] && [ ! -w "$out" ]; then bad_out="it exists and is not writable"
else bad_out=""; fi
[ -z "$bad_out" ] || { echo "heatmap: cannot write $out: $bad_out; accepted: a file in an existing, writable directory" >&2; exit 2; }
# The image is drawn into a temporary file beside OUT and renamed to OUT
# once whole: OUT is never left half written, and an earlier OUT stays
# when the drawing fails.
tmp=""; part=""; trap 'rm -rf "$tmp"; rm -f "$part"' EXIT
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM   # a stop removes them too
part=$(mktemp "$outdir/.heatmap.XXXXXX") || { echo "heatmap: cannot write $out: cannot create a file in $outdir" >&2; exit 2; }
tmp=$(mktemp -d /tmp/heatmap.XXXXXX) || exit 1
# x0 y0 dx dy value: nodes at (3x, 3y); a channel of a link runs from one
# node towards the next, offset to its side; a wrap channel is a stub.
awk -F, -v X="$X" -v Y="$Y" -v col="$col" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; c = h[col]; next }
  { n = $h["node"]; x = n % X; y = int(n / X); s = ($h["dir"] == "+") ? 1 : -1; o = 0.3 * s
    if ($h["dim"] == 0) { nx = x + s; wrap = (nx < 0 || nx >= X)
                   x0 = 3 * x + 0.5 * s; y0 = 3 * y + o; dx = wrap ? 1.0 * s : 2.0 * s; dy = 0 }
    else         { ny = y + s; wrap = (ny < 0 || ny >= Y)
                   x0 = 3 * x - o; y0 = 3 * y + 0.5 * s; dx = 0; dy = wrap ? 1.0 * s : 2.0 * s }
    printf "%g %g %g %g %s\n", x0, y0, dx, dy, $c }' "$run/links.csv" > "$tmp/links"
awk -v X="$X" -v Y="$Y" 'BEGIN { for (y = 0; y < Y; y++) for (x = 0; x < X; x++) printf "%d %d %d\n", 3 * x, 3 * y, y * X + x }' > "$tmp/nodes"
max=$(awk '$5 > m { m = $5 } END { print m + 0 }' "$tmp/links")
W=$(( X > Y ? 800 : 800 * X / Y + 160 )); H=$(( X > Y ? 500 * Y / X + 160 : 640 ))
[ "$H" -le 800 ] || H=800; [ "$W" -ge 400 ] || W=400; [ "$H" -ge 300 ] || H=300
# gq TEXT: TEXT as a single-quoted gnuplot string, inert whatever it holds
# (a run directory's summary.json, a path): ' doubled, control bytes as
# spaces (a newline would end the command).
gq() { local t=${1//\'/\'\'}; printf "'%s'" "$(printf '%s' "$t" | tr '\000-\037\177' ' ')"; }
labels=""; [ $((X * Y)) -le 64 ] && labels="$(gq "$tmp/nodes") using 1:2:3 with labels font ',7' tc rgb '#444444' notitle,"
# gnuplot's standard output is discarded: whatever fails, no image goes there.
gnuplot <<EOF > /dev/null || { echo "heatmap: gnuplot could not draw $out" >&2; exit 1; }
set terminal pngcairo size $W,$H font ',10'
set output $(gq "$part")
set title $(gq "$app${args:+ ($args)} on $topo $dims${routing:+, $routing}: $what per directed channel (max $max)") noenhanced
set size ratio -1
unset xtics; unset ytics; unset border; unset key
set xrange [-2:$((3 * X - 1))]; set yrange [$((3 * Y - 1)):-2]
set palette defined (0 '#f7f7f7', 0.25 '#fdd49e', 0.5 '#fc8d59', 0.75 '#d7301f', 1 '#7f0000')
set cbrange [0:$(( max > 0 ? max : 1 ))]
set cblabel $(gq "$what") noenhanced
plot $(gq "$tmp/nodes") using 1:2 with points pt 7 ps 1.2 lc rgb '#bbbbbb' notitle, \
     $labels \
     $(gq "$tmp/links") using 1:2:3:4:5 with vectors head filled size 0.25,20 lw 3 lc palette notitle
EOF
[ "$(head -c 4 "$part" | tail -c 3)" = PNG ] || { echo "heatmap: gnuplot wrote no image for $out" >&2; exit 1; }
chmod "$(printf '%o' $((0666 & ~$(umask))))" "$part" && mv -f -- "$part" "$out" || { echo "heatmap: cannot write $out" >&2; exit 1; }
part=""
echo "$out"
