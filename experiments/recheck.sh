#!/usr/bin/env bash
# recheck: run a sample of the stored results again with the current build
# and compare every simulated figure with the stored row. A stored table
# that the build would no longer reproduce fails here.
#
#   experiments/recheck.sh [options] [NAME ...]
#
# The default NAMEs are the stored results: every results/NAME/results.csv
# the repository holds (git ls-files). A sweep of one's own, which make
# sweep also writes to results/NAME, is rechecked only when named. With
# --results DIR, or outside a git work tree, every DIR/NAME/results.csv.
#
# For each NAME it takes the --per ok rows of results/NAME/results.csv with
# the fewest nodes (the first ones in the file among equals), runs exactly
# those cells with experiments/sweep.sh, and compares the figures the runs
# simulated, each column from status to max_link_flits, by name (wall_s
# and run_dir are facts about the host; FIGURE_COLUMNS in
# experiments/sweep-cell.sh). Options:
#   --per K          rows per reproduction (default 2)
#   --results DIR    where the stored results are (default results)
#   --out DIR        where the re-runs go (default a temporary directory,
#                    removed at the end); runs already there are not run
#                    again, so a second call only compares, and says so
#   --list           print the names it would recheck and exit
#   -h, --help
# Exit: 0 every figure matches; 1 a figure differs, or a cell did not run;
# 2 bad options or no stored results.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "recheck: $*" >&2; exit 2; }
. "$HERE/experiments/usage.sh"

PER=2; RESULTS=$HERE/results; OUT=""; NAMES=(); LIST=0
while [ $# -gt 0 ]; do
  case "$1" in
    --per|--results|--out) [ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;&
    --per) PER=${2:-}; shift 2 ;;
    --results) RESULTS=${2:-}; shift 2 ;;
    --out) OUT=${2:-}; shift 2 ;;
    --list) LIST=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1'; accepted: $(usage_options)" ;;
    *) NAMES+=("$1"); shift ;;
  esac
done
[[ "$PER" =~ ^[1-9][0-9]*$ ]] || die "--per '$PER' is not a positive integer"
[ -d "$RESULTS" ] || die "no results directory '$RESULTS'"
if [ ${#NAMES[@]} = 0 ]; then
  stored=""
  [ "$RESULTS" = "$HERE/results" ] && stored=$(git -C "$HERE" ls-files -- 'results/*/results.csv' 2>/dev/null)
  for f in "$RESULTS"/*/results.csv; do
    [ -f "$f" ] || continue
    n=$(basename "$(dirname "$f")")
    [ -z "$stored" ] || grep -qxF "results/$n/results.csv" <<< "$stored" || continue
    NAMES+=("$n")
  done
  [ ${#NAMES[@]} -gt 0 ] || die "no $RESULTS/*/results.csv"
fi
for name in "${NAMES[@]}"; do
  [ -f "$RESULTS/$name/results.csv" ] ||
    die "no stored results '$name' (accepted: $(cd "$RESULTS" && ls -d */ 2>/dev/null | tr -d / | tr '\n' ' '))"
done
[ $LIST = 0 ] || { printf '%s\n' "${NAMES[@]}"; exit 0; }
if [ -z "$OUT" ]; then OUT=$(mktemp -d /tmp/wormsim-recheck.XXXXXX); trap 'rm -rf "$OUT"' EXIT; fi

. "$HERE/experiments/sweep-cell.sh"   # KEY_COLUMNS, FIGURE_COLUMNS

# The sample of one stored CSV as sweep groups, one cell each; its stored
# rows, under the CSV's header, in SAMPLE_CSV.
sample_definition() {  # STORED_CSV SAMPLE_CSV
  awk -F, -v per="$PER" -v sample="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print > sample; next }
    $col["status"] == "ok" { n++; nodes[n] = $col["nodes"] + 0; line[n] = $0 }
    END {
      for (k = 1; k <= per && k <= n; k++) {          # the per smallest, first among equals
        best = 0
        for (i = 1; i <= n; i++) if (!used[i] && (!best || nodes[i] < nodes[best])) best = i
        used[best] = 1
        print line[best] > sample
        split(line[best], f, ",")
        printf "[cell%d]\n", k
        printf "apps = %s\ndims = %s\nlen = %s\ntopo = %s\npreset = %s\nport_model = %s\narch = %s\n",
               f[col["app"]], f[col["dims"]], f[col["len"]], f[col["topo"]], f[col["preset"]],
               f[col["port_model"]], f[col["arch"]]
        if (f[col["net"]] != "") printf "net = %s\n", f[col["net"]]
        if (f[col["args"]] != "") printf "args = %s\n", f[col["args"]]
      }
    }' "$1"
}

# The start of an awk program over CSVs (-v keys="$KEY_COLUMNS"): each
# file's header names its columns (col), file counts the files, and
# cell() is a row's cell: its KEY_COLUMNS joined by commas.
CELL_AWK='FNR == 1 { delete col; for (i = 1; i <= NF; i++) col[$i] = i; file++; next }
  function cell(   i, nk, K, k) {
    nk = split(keys, K, " ")
    for (i = 1; i <= nk; i++) k = k (i > 1 ? "," : "") $col[K[i]]
    return k
  }'

# Compare the re-runs with the sample's stored rows, cell by cell (rows of
# other cells, which an earlier recheck with a larger --per left in OUT, are
# not this sample's); prints each difference, and each cell not re-run.
# Returns 1 if any figure differs or a cell has no re-run.
compare() {  # SAMPLE_CSV RERUN_CSV
  awk -F, -v keys="$KEY_COLUMNS" -v figs="$FIGURE_COLUMNS" "$CELL_AWK"'
    { key = cell(); nf = split(figs, F, " ")
      if (file == 1) { for (i = 1; i <= nf; i++) stored[key, F[i]] = $col[F[i]]; known[key] = 1; next }
      if (!(key in known) || (key in seen)) next
      seen[key] = 1
      for (i = 1; i <= nf; i++)
        if ($col[F[i]] != stored[key, F[i]]) {
          print "  " key ": " F[i] " is " $col[F[i]] ", stored " stored[key, F[i]]; bad = 1
        }
    }
    END { for (k in known) if (!(k in seen)) { print "  " k ": not re-run"; bad = 1 }; exit bad }' "$1" "$2"
}

# How many of the sample's cells RERUN_CSV holds (0 if it is missing).
re_run_cells() {  # SAMPLE_CSV RERUN_CSV
  [ -s "$2" ] || { echo 0; return; }
  awk -F, -v keys="$KEY_COLUMNS" "$CELL_AWK"'
    { key = cell(); if (file == 1) known[key] = 1; else if ((key in known) && !(key in seen)) { seen[key] = 1; n++ } }
    END { print n + 0 }' "$1" "$2"
}

rc=0
for name in "${NAMES[@]}"; do
  stored=$RESULTS/$name/results.csv
  mkdir -p "$OUT/$name/def" || die "cannot create $OUT/$name"
  def=$OUT/$name/def/$name.sweep
  sample=$OUT/$name/def/sample.csv
  sample_definition "$stored" "$sample" > "$def"
  cells=$(grep -c '^\[cell' "$def")
  [ "$cells" -gt 0 ] || { echo "recheck $name: no ok row to re-run"; rc=1; continue; }
  # rows an earlier recheck left in OUT are compared, not run again (by this build)
  old=$(re_run_cells "$sample" "$OUT/$name/results.csv")
  again=""; [ "$old" -gt 0 ] && again=" ($old of them from an earlier recheck in $OUT/$name, not run again by this build: give a new --out to run them)"
  if ! "$HERE/experiments/sweep.sh" --jobs 1 -o "$OUT/$name" "$def" > "$OUT/$name/sweep.log" 2>&1; then
    echo "recheck $name: a re-run failed:"; tail -5 "$OUT/$name/sweep.log" | sed 's/^/  /'; rc=1; continue
  fi
  if diffs=$(compare "$sample" "$OUT/$name/results.csv"); then
    echo "recheck $name: $cells cells, every simulated figure as stored$again"
  else
    echo "recheck $name: the current build does not reproduce the stored results ($cells cells$again):"
    echo "$diffs"
    rc=1
  fi
done
exit $rc
