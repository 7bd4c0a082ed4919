#!/usr/bin/env bash
# sweep: run every combination of a sweep definition on the emulator, in
# parallel, resumable, one CSV row per run.
#
#   experiments/sweep.sh [options] DEF          (make sweep SWEEP=DEF)
#
# DEF is a file (experiments/NAME.sweep) or a NAME. Options:
#   -j, --jobs N        runs at once (default: nproc; see "Parallel runs")
#   -o, --out DIR       output directory (default results/NAME)
#       --only GROUPS   run only these groups (comma list)
#       --max-nodes N   skip runs of more than N nodes
#       --retry-failed  run again the runs whose row says fail or refused
#       --recollect     rewrite every row's measured fields from its run directory
#                       (after this tool's columns changed), then exit
#       --list          print the runs (key fields) and exit
#       --cold          start every run's nodes afresh instead of on node pools
#       --mem-limit MIB  host memory a run may use (wormsim --mem-limit;
#                       default what the host has available when the run starts)
#       --wormsim PATH, --kernel ELF, --kernel-riscv ELF
#   -h, --help
# Exit: 0 every row ok, 3 some rows refused and the rest ok, 1 a run
# failed, 2 bad use or a bad definition.
#
# The definition: `key = value` lines, `#` comments, `[group]` headers.
# Keys before the first header are defaults for every group; a file without
# headers is one group named after the file (a name without a comma or a
# quote, as results.csv's group column holds it). A key is given once in a
# group (a group's key replaces a default), a value once in a list. Each
# group runs the cross product of its list keys:
#   apps        node programs that take len (wormsim --list-apps)  required
#   dims        machine shapes, e.g. 4x4 16x30 (or n=N for a hypercube, banyan or fat tree of N)  required
#   len         block lengths in bytes (0: barriers)           default 1024
#   net         alternatives of `--set` strings separated by | default none
#               (port_model is a key of its own, not a net setting)
#   topo        mesh | torus | hypercube | banyan | fattree | dragonfly  default torus
#   preset      a presets/NAME.conf or a file (its path with   default default
#               no comma or quote: results.csv holds it)
#   port_model  one-port | all-port                            default the preset's
#   arch        arm | riscv | mixed                            default arm
#   args        extra app arguments, e.g. sync=0               default none
#   timeout     wall-clock limit of one run, 1..86400 seconds  default 600 + nodes
#   big_nodes   a run of more nodes runs alone                 default 128
# Two keys are for the sweep's report (make report SWEEP=NAME,
# experiments/report/sweepdef.py), wherever they stand: `compare = APP
# APP.. [by COLUMN]` (the winner per cell; more than one line may compare)
# and `paper = FILE [by COLUMN]` (a paper's table of times in seconds,
# experiments/paper/; FILE absolute or from the top of the tree). The sweep runs nothing for them, but refuses,
# before any run, one the report would refuse: a compare of an app no
# apps line names or by a column results.csv lacks, a paper table that is
# missing or lacks its column.
#
# Output DIR/results.csv: a header, then one row per finished run (the
# columns are COLUMNS_CSV in experiments/sweep-cell.sh; docs/results.md
# lists them). A row is appended only when its run has ended, in one write
# under a lock, so a killed sweep leaves whole rows only; run it again and
# it skips every run whose key (app, topo, dims, len, preset, port_model,
# net, args, arch) has a row. DIR/runs/ keeps each run's directory
# (links.csv, messages.csv, node logs ...). DIR/sweep.def is a copy of the
# definition, made at the start of each session (the report reads its
# compare and paper lines). DIR/joblog is GNU parallel's log of every run
# (start, seconds, exit), appended session after session. DIR/timing.csv
# gets a line per session under its header row: date, jobs, runs (to do),
# done, elapsed_s (docs/results.md and make bench sum them per sweep). It
# holds the sessions that made the rows of results.csv: a session that
# starts with no row in it (a first sweep, or a regeneration after
# results.csv was removed) starts timing.csv anew, since the earlier
# sessions' rows are gone.
#
# Parallel runs: this script checks the definition and plans the runs;
# GNU parallel runs them, each through experiments/sweep-cell.sh (the run
# and its row). Each run is a whole machine (p QEMUs and a router), so
# --jobs counts machines. Runs go smallest machine first; the runs of more
# than big_nodes nodes run after the others, one at a time, on one node
# pool (the other job slots' pools are stopped first, freeing their
# memory).
# Each job slot has a node pool (wormsim --serve), so a node's QEMU starts
# once per sweep, not once per run; results are the same either way
# (tests/qemu/suite-pool.sh), and each run's `command` file is the cold
# command that reproduces it.
# Simulated results do not depend on --jobs (tests/sweep/run.sh checks it);
# only wall_s does.
set -u
set -m    # each run in its own process group, so a stop can end it whole
HERE=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "sweep: $*" >&2; exit 2; }
. "$HERE/experiments/usage.sh"

POS=(); JOBS=""; OUT=""; ONLY=""; MAXN=""; RETRY=0; LIST=0; RECOLLECT=0; COLD=0; MEMLIM=""
WORMSIM=${WORMSIM:-$HERE/build/host/wormsim}
KERNEL=${KERNEL:-$HERE/build/arm/node.elf}
KERNEL_RISCV=${KERNEL_RISCV:-$HERE/build/riscv/node.elf}
while [ $# -gt 0 ]; do
  case "$1" in
    -j|--jobs|-o|--out|--only|--max-nodes|--mem-limit|--wormsim|--kernel|--kernel-riscv)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;&
    -j|--jobs) JOBS=${2:-}; shift 2 ;;
    --jobs=*) JOBS=${1#*=}; shift ;;
    -o|--out) OUT=${2:-}; shift 2 ;;
    --out=*) OUT=${1#*=}; shift ;;
    --only) ONLY=${2:-}; shift 2 ;;
    --max-nodes) MAXN=${2:-}; shift 2 ;;
    --retry-failed) RETRY=1; shift ;;
    --recollect) RECOLLECT=1; shift ;;
    --list) LIST=1; shift ;;
    --cold) COLD=1; shift ;;
    --mem-limit) MEMLIM=${2:-}; shift 2 ;;
    --wormsim) WORMSIM=$2; shift 2 ;;
    --kernel) KERNEL=$2; shift 2 ;;
    --kernel-riscv) KERNEL_RISCV=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1'; accepted: $(usage_options)" ;;
    *) POS+=("$1"); shift ;;
  esac
done
set -- "${POS[@]}"
[ $# = 1 ] || die "give one sweep definition (a file or a name in experiments/); see --help"
DEF=$1
if [ ! -f "$DEF" ]; then
  if [ -f "$HERE/experiments/$DEF.sweep" ]; then DEF=$HERE/experiments/$DEF.sweep
  else die "no sweep definition '$DEF' (accepted: a file, or one of: $(cd "$HERE/experiments" && ls *.sweep 2>/dev/null | sed 's/\.sweep$//' | tr '\n' ' '))"; fi
fi
NAME=$(basename "$DEF" .sweep)
[ -n "$JOBS" ] || JOBS=$(nproc 2>/dev/null || echo 1)
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "--jobs '$JOBS' is not a positive integer"
[ -z "$MAXN" ] || [[ "$MAXN" =~ ^[1-9][0-9]*$ ]] || die "--max-nodes '$MAXN' is not a positive integer"
[ -z "$MEMLIM" ] || [[ "$MEMLIM" =~ ^[1-9][0-9]*$ ]] || die "--mem-limit '$MEMLIM' is not a positive whole number of MiB"
[ -n "$OUT" ] || OUT=results/$NAME
[ -x "$WORMSIM" ] || die "no run tool at $WORMSIM (run make first)"
command -v parallel > /dev/null || die "runs need GNU parallel: install the Debian package parallel (tests/check-deps.sh sweep does)"

# --- Parse and check the definition: one line per run on stdout ----------
APPS_OK=$("$WORMSIM" --list-apps | awk '{print $1}' | tr '\n' ' ')
KEYS_OK="apps dims len net topo preset port_model arch args timeout big_nodes"
REPORT_KEYS="compare paper"   # read by the report only
declare -A G=()      # current group's values
declare -A D0=([len]=1024 [net]="" [topo]=torus [preset]=default [port_model]="" [arch]=arm [args]="" [timeout]="" [big_nodes]=128)
declare -A D=()      # the defaults: D0, then the keys before the first header
for k in "${!D0[@]}"; do D[$k]=${D0[$k]}; done
groups=(); RUNS=(); REPORT_LINES=0
lineno=0; group=""; ingroup=0

bad() { echo "sweep: $DEF:$lineno: $*" >&2; exit 2; }
. "$HERE/experiments/sweep-cell.sh"   # the functions the planner shares with the cells
APPS_LEN=$(apps_with_len)            # every run of a sweep passes len=
check_group() {  # validates G[] of the current group and expands it into RUNS
  local gname=$1 k
  # no port_model given: the preset's, as a run of it alone would take
  # (the run tool's --params), so that --port-model does not override it
  [ -n "${G[port_model]}" ] || G[port_model]=$(preset_port_model "${G[preset]}")
  for k in apps dims; do [ -n "${G[$k]:-}" ] || { lineno=$2; bad "group [$gname] has no '$k' (required keys: apps, dims)"; }; done
  local app dims len net
  for app in ${G[apps]}; do
    [[ " $APPS_OK " == *" $app "* ]] || { lineno=${L[apps]}; bad "apps: unknown app '$app'; accepted: $APPS_OK"; }
    [[ " $APPS_LEN " == *" $app "* ]] || { lineno=${L[apps]}
      bad "apps: '$app' takes no len (wormsim --list-apps), and a sweep runs every app with len=; accepted: $APPS_LEN"; }
  done
  # topo, port_model, arch, preset, args and the shapes are the run tool's
  # to judge (wormsim --check, below: every machine, and the args of every
  # run); the sweep checks only its own syntax, and that the CSV key holds
  # no comma
  [[ "${G[arch]}" != *,* ]] || { lineno=${L[arch]}; bad "arch: '${G[arch]}' is a list, which the CSV key cannot hold; accepted: arm, riscv, mixed"; }
  for dims in ${G[dims]}; do
    [[ "$dims" =~ ^[1-9][0-9]*(x[1-9][0-9]*)*$ || "$dims" =~ ^n=[1-9][0-9]*$ ]] || { lineno=${L[dims]}; bad "dims: '$dims' is not a shape such as 4x4, 16x30, 4x4x4 or n=16"; }
  done
  # an empty list would make the group's cross product empty: no run, and no word said
  [[ "${G[len]}" =~ [^[:space:]] ]] || { lineno=${L[len]}
    bad "len: no length given; accepted: block lengths in bytes (0 for the apps that move none), or no len line for ${D0[len]}"; }
  for len in ${G[len]}; do
    [[ "$len" =~ ^(0|[1-9][0-9]*)$ ]] || { lineno=${L[len]}; bad "len: '$len' is not a number of bytes (0 for the apps that move none)"; }
  done
  # the run tool's --timeout bounds (host/run/options.c, parse_seconds): a
  # timeout it refuses would make refused rows, which a corrected timeout
  # (not part of the key) would not replace
  local tmo=${G[timeout]}
  [[ -z "$tmo" || ( "$tmo" =~ ^[1-9][0-9]{0,4}$ && "$tmo" -le 86400 ) ]] || { lineno=${L[timeout]}
    bad "timeout: '$tmo' is not a whole number of seconds from 1 to 86400; accepted: 1 to 86400 (the bounds of wormsim --timeout), or none for 600 + nodes"; }
  [[ "${G[big_nodes]}" =~ ^[1-9][0-9]*$ ]] || { lineno=${L[big_nodes]}; bad "big_nodes: '${G[big_nodes]}' is not a positive integer"; }
  # results.csv holds these keys as written, unquoted (docs/files.md): a
  # comma or a quote in one would shift its row's columns
  local v; for v in net args preset; do
    [[ "${G[$v]}" != *[,\"]* ]] || { lineno=${L[$v]}
      bad "$v: '${G[$v]}' holds a comma or a quote, which results.csv's $v column cannot hold; accepted: a value without commas and quotes"; }
  done
  local IFS_save=$IFS nets=() i
  # (a | closes the last alternative: read drops an empty last field, so
  # 'vcs=3 |' would lose its empty, the defaults')
  IFS='|' read -ra nets <<< "${G[net]}|"; IFS=$IFS_save
  [ ${#nets[@]} -gt 0 ] || nets=("")
  for i in "${!nets[@]}"; do nets[$i]=$(echo ${nets[$i]}); done   # trimmed
  # each value once in a list: a repeat would run one cell twice, into one run directory
  for k in apps dims len; do
    v=$(repeated ${G[$k]}) && { lineno=${L[$k]}; bad "$k: '$v' is given twice; accepted: each value once"; }
  done
  v=$(repeated "${nets[@]}") && { lineno=${L[net]}; bad "net: '$v' is given twice; accepted: each alternative once"; }
  # the port model is a key of the row (port_model): set in net it would
  # override the run's --port-model and leave the row naming the other one
  for v in "${nets[@]}"; do
    [[ " $v" != *[[:space:]]port_model=* ]] || { lineno=${L[net]}
      bad "net: '$v' sets port_model, which is a key of its own (the row's port_model column); accepted: a port_model line, e.g. 'port_model = all-port', and net for the other parameters"; }
  done
  # The machine of every (dims, net): the run tool checks it as it would
  # start it (wormsim --check with hello, which runs anywhere; memory
  # aside). A machine it refuses is a mistake in the definition; an app
  # refusing a machine or a length is not: that run gets a refused row.
  local why
  for dims in ${G[dims]}; do for net in "${nets[@]}"; do
    why=$(machine_refused "${G[topo]}" "$dims" "${G[preset]}" "${G[port_model]}" "${G[arch]}" "$net") &&
      machine_fault "$gname" "$dims" "$net" "$why" "$2"
  done; done
  # The args of every run whose app takes its machine and length: a
  # refusal there is the args' (a key the app does not take, a value out
  # of range, len= given again) and would make a refused row of every such
  # run, which corrected args (part of the key) would not replace.
  if [ -n "${G[args]}" ]; then
    for app in ${G[apps]}; do for dims in ${G[dims]}; do for len in ${G[len]}; do for net in "${nets[@]}"; do
      why=$(run_refused "$app" "$dims" "$len" "$net" "${G[args]}") || continue
      run_refused "$app" "$dims" "$len" "$net" "" > /dev/null && continue   # the machine's or the length's
      lineno=${L[args]}; bad "args: group [$gname]: $app on ${G[topo]} $dims, len $len${net:+, net=$net}: $why"
    done; done; done; done
  fi
  for app in ${G[apps]}; do for dims in ${G[dims]}; do for len in ${G[len]}; do for net in "${nets[@]}"; do
    RUNS+=("$app$US${G[topo]}$US$dims$US$len$US${G[preset]}$US${G[port_model]}$US$net$US${G[args]}$US${G[arch]}$US$gname$US${G[timeout]}$US${G[big_nodes]}")
  done; done; done; done
}
# machine_refused TOPO DIMS PRESET PORT_MODEL ARCH NET: true, with the run
# tool's reason on stdout, when it refuses that machine (memory aside).
machine_refused() {
  local msg
  machine_opts "$@"
  msg=$("$WORMSIM" --check --app hello "${MACHINE_OPTS[@]}" --mem-limit 1073741824 2>&1 >/dev/null) && return 1
  echo "${msg#wormsim: }"
}
# run_refused APP DIMS LEN NET ARGS: true, with the run tool's reason on
# stdout, when it refuses that run of the current group (memory aside),
# its ARGS as the cell gives them.
run_refused() {
  local msg
  machine_opts "${G[topo]}" "$2" "${G[preset]}" "${G[port_model]}" "${G[arch]}" "$4"
  msg=$("$WORMSIM" --check --app "$1" "${MACHINE_OPTS[@]}" --args "len=$3${5:+ $5}" \
          --mem-limit 1073741824 2>&1 >/dev/null) && return 1
  echo "${msg#wormsim: }"
}
# machine_fault GROUP DIMS NET REASON GROUP_LINE: refuses a machine of the
# group at the lines of the keys at fault: topo, when the run tool refuses
# it on its own default shape too; dims and topo, when it refuses the
# group's shape with every other key at its default; else the first of
# arch, port_model, preset and net that it refuses alone beside the shape;
# else all of the machine's keys. Keys at their built-in default have no line.
machine_fault() {
  local topo=${G[topo]} dims=$2 net=$3 p=${D0[preset]} m a=${D0[arch]} at k keys=""
  m=$(preset_port_model "$p")            # the default preset's, as a group naming none takes
  if machine_refused "$topo" "$dims" "$p" "$m" "$a" "" > /dev/null; then
    if "$WORMSIM" --check --app hello --topo "$topo" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" \
         --mem-limit 1073741824 > /dev/null 2>&1; then at="dims topo"; else at=topo; fi
  elif machine_refused "$topo" "$dims" "$p" "$m" "${G[arch]}" "" > /dev/null; then at=arch
  elif machine_refused "$topo" "$dims" "$p" "${G[port_model]}" "$a" "" > /dev/null; then at=port_model
  elif machine_refused "$topo" "$dims" "${G[preset]}" "$m" "$a" "" > /dev/null; then at=preset
  elif machine_refused "$topo" "$dims" "$p" "$m" "$a" "$net" > /dev/null; then at=net
  else at="dims topo arch port_model preset net"; fi
  lineno=""
  for k in $at; do
    [ -n "${L[$k]:-}" ] || continue
    [ -n "$lineno" ] || lineno=${L[$k]}
    keys+="${keys:+, }$k (line ${L[$k]})"
  done
  [ -n "$lineno" ] || lineno=$5
  [[ "$keys" == *,* ]] || keys=${keys% (line*}
  bad "${keys:+$keys: }group [$1]: $topo $dims${net:+, net=$net}: $4"
}
# repeated VALUE..: the first value given twice, if any
repeated() {
  local -A seen=(); local v
  for v in "$@"; do [ -z "${seen[x$v]:-}" ] || { echo "$v"; return 0; }; seen[x$v]=1; done
  return 1
}
US=$'\x1f'   # field separator of a run line (not whitespace: empty fields stay)
declare -A L=() DL=()   # the line of each key of G and of D
start_group() {
  G=(); L=(); local k
  for k in "${!D[@]}"; do G[$k]=${D[$k]}; done
  for k in "${!DL[@]}"; do L[$k]=${DL[$k]}; done
}
gstart=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  line=${line%%#*}; line=$(echo "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
  [ -z "$line" ] && continue
  if [[ "$line" =~ ^\[([A-Za-z0-9_.-]+)\]$ ]]; then
    newgroup=${BASH_REMATCH[1]}
    [ $ingroup = 1 ] && check_group "$group" $gstart
    [ $ingroup = 0 ] && { for k in "${!G[@]}"; do D[$k]=${G[$k]}; done; for k in "${!L[@]}"; do DL[$k]=${L[$k]}; done; }
    group=$newgroup; ingroup=1; gstart=$lineno; start_group
    [[ " ${groups[*]} " != *" $group "* ]] || bad "group [$group] appears twice"
    groups+=("$group"); continue
  fi
  [[ "$line" =~ ^([A-Za-z_]+)[[:space:]]*=[[:space:]]*(.*)$ ]] || bad "not 'key = value' or '[group]': $line"
  k=${BASH_REMATCH[1]}; v=${BASH_REMATCH[2]}
  [[ " $REPORT_KEYS " != *" $k "* ]] || { REPORT_LINES=1; continue; }
  [[ " $KEYS_OK " == *" $k "* ]] || bad "unknown key '$k'; accepted: $KEYS_OK $REPORT_KEYS"
  if [ $ingroup = 0 ] && [ ${#G[@]} = 0 ]; then start_group; fi
  # once per group (the keys before the first header are one): a second
  # line would replace the first without a word
  [ "${L[$k]:-0}" -le $gstart ] || bad "$k: given twice in one group, on lines ${L[$k]} and $lineno; accepted: each key once, with all its values on one line"
  G[$k]=$v; L[$k]=$lineno
done < "$DEF"
if [ $ingroup = 1 ]; then check_group "$group" $gstart
else [ ${#G[@]} -gt 0 ] || { lineno=0; bad "empty sweep definition"; }
  # its one group is named after the file, and results.csv holds the name unquoted
  [[ "$NAME" != *[,\"]* ]] || { lineno=0
    bad "a definition without [group] lines names its group after its file, '$NAME', which results.csv's group column cannot hold (it has a comma or a quote); accepted: a file name without commas and quotes, or a [name] line"; }
  groups=("$NAME"); check_group "$NAME" 1; fi
if [ -n "$ONLY" ]; then
  for g in ${ONLY//,/ }; do [[ " ${groups[*]} " == *" $g "* ]] || die "--only: no group '$g'; groups: ${groups[*]}"; done
fi
# The report's lines, by the report's own check against the apps lines and
# the columns written here: a misspelt app or column, or a paper table
# that is not there, would otherwise be found by make report only, once
# every run has ended.
if [ $REPORT_LINES = 1 ]; then
  command -v python3 > /dev/null ||
    die "the compare and paper lines of $DEF are checked by the report's code, which needs python3 (Debian package python3)"
  why=$(python3 -B "$HERE/experiments/report" --check-def "$DEF" --columns "$COLUMNS_CSV" 2>&1) || die "${why#report: }"
fi

# --- The runs still to do --------------------------------------------------
# (--list only reads: it creates nothing, and reads no rows where there is no directory)
[ $LIST = 1 ] || mkdir -p "$OUT/runs" || die "cannot create $OUT"
# The definition goes with its results, for the report (its compare and
# paper lines): DIR/sweep.def, this session's, replacing an earlier one.
if [ $LIST = 0 ] && ! [ "$DEF" -ef "$OUT/sweep.def" ]; then
  cp -- "$DEF" "$OUT/sweep.def" || die "cannot copy $DEF to $OUT/sweep.def"
fi
CSV=$OUT/results.csv
LOCK=$OUT/.lock
ROWS=$CSV
if [ $LIST = 1 ]; then
  [ -s "$CSV" ] || ROWS=/dev/null
elif [ -s "$CSV" ]; then
  [ $RECOLLECT = 1 ] || [ "$(head -1 "$CSV")" = "$COLUMNS_CSV" ] || die "$CSV has other columns than this tool writes; move it away"
  # A row is written in one append; a torn last line (power loss) is dropped.
  [ -z "$(tail -c1 "$CSV")" ] || { echo "sweep: dropping a partial last line of $CSV" >&2; sed -i '$d' "$CSV"; }
  if [ $RETRY = 1 ]; then
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") k = i; print; next }
             $k != "fail" && $k != "refused"' "$CSV" > "$CSV.tmp" && mv "$CSV.tmp" "$CSV"
  fi
else
  echo "$COLUMNS_CSV" > "$CSV"
fi
declare -A DONE=()
while IFS=, read -r app topo dims nodes len preset pm net args arch rest; do
  DONE["$(key_of "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch")"]=1
done < <(csv_cols "$ROWS" app topo dims nodes len preset port_model net args arch)

# No row at the start: this session's line is timing.csv's first (session_line).
FRESH=0; [ ${#DONE[@]} = 0 ] && FRESH=1
TODO=(); skipped=0; off_only=0; off_big=0
for r in "${RUNS[@]}"; do
  IFS=$'\x1f' read -r app topo dims len preset pm net args arch gname tmo big <<< "$r"
  [ -z "$ONLY" ] || [[ ",$ONLY," == *",$gname,"* ]] || { off_only=$((off_only + 1)); continue; }
  n=$(nodes_of "$dims")
  [ -z "$MAXN" ] || [ "$n" -le "$MAXN" ] || { off_big=$((off_big + 1)); continue; }
  if [ -n "${DONE[$(key_of "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch")]:-}" ]; then
    skipped=$((skipped + 1)); continue
  fi
  TODO+=("$n"$'\t'"$r")
done
# Smallest machines first, the definition's order among runs of one size:
# after a run a pool keeps as many idle nodes as that run had (host/launch/pool.h),
# so in this order a pool only grows and each node's QEMU starts once.
sorted=()
while IFS= read -r r; do sorted+=("${r#*$'\t'}"); done < <(
  [ ${#TODO[@]} = 0 ] || printf '%s\n' "${TODO[@]}" | sort -s -t$'\t' -n -k1,1)
TODO=("${sorted[@]}")
# The runs of the definition the options leave out, said where the runs to
# do are counted: a sweep whose every run --max-nodes drops runs nothing.
LEFT_OUT=""
[ $off_only = 0 ] || LEFT_OUT+=", $off_only left out by --only $ONLY"
[ $off_big = 0 ] || LEFT_OUT+=", $off_big left out by --max-nodes $MAXN"
if [ $LIST = 1 ]; then
  for r in "${TODO[@]}"; do echo "$r" | cut -d"$US" -f1-10 | tr "$US" " "; done
  echo "sweep $NAME: ${#TODO[@]} runs to do, $skipped already in $CSV$LEFT_OUT" >&2
  exit 0
fi

# --recollect: the key and group, status and wall time stay; the rest is
# measured again from the run directory (found by column name in the old
# header, so a CSV of an older column list can be converted).
if [ $RECOLLECT = 1 ]; then
  [ -s "$CSV" ] || die "no $CSV to recollect"
  hdr=$(head -1 "$CSV")
  col() { echo "$hdr" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
  cs=$(col status); cw=$(col wall_s); cr=$(col run_dir)
  [ -n "$cs" ] && [ -n "$cw" ] && [ -n "$cr" ] || die "$CSV has no status, wall_s or run_dir column"
  { echo "$COLUMNS_CSV"
    tail -n +2 "$CSV" | while IFS= read -r line; do
      IFS=, read -ra f <<< "$line"
      rd=${f[$((cr - 1))]:-}
      echo "$(IFS=,; echo "${f[*]:0:11}"),$(collect "${rd:+$OUT/$rd}" "${f[3]}" "${f[$((cs - 1))]}" "${f[$((cw - 1))]}"),$rd"
    done; } > "$CSV.tmp" && mv "$CSV.tmp" "$CSV"
  echo "sweep $NAME: $(($(wc -l < "$CSV") - 1)) rows of $CSV measured again" >&2
  exit 0
fi
# --- The node pools, one per job slot --------------------------------------
POOL=sweep-$$
gone_within_30s() {   # targets (a pid, or -pgid for a process group): wait up to 30 s for them to end, then kill what is left
  local t i alive
  for i in $(seq 1 300); do
    alive=0; for t in "$@"; do kill -0 -- "$t" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && return 0; sleep 0.1
  done
  for t in "$@"; do kill -KILL -- "$t" 2>/dev/null; done
}
pool_gone() {    # pid file: wait up to 30 s for its pool to end, then kill it
  [ -s "$1" ] || return 0
  gone_within_30s "$(cat "$1")"; rm -f "$1"
}
pools_down() {   # the pools, whoever started them (this script or a cell)
  local f
  for f in "$OUT"/pool-*.pid; do [ -s "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null; done
  for f in "$OUT"/pool-*.pid; do pool_gone "$f"; done
}
rm -f "$OUT"/pool-*.pid
trap pools_down EXIT
if [ $COLD = 0 ] && [ ${#TODO[@]} -gt 0 ]; then
  for ((i = 0; i < JOBS; i++)); do : > "$OUT/pool-$i.log"; pool_up $i || exit 2; done
fi

# --- The runs, by GNU parallel ----------------------------------------------
SMALL=$OUT/.todo-small; BIG=$OUT/.todo-big; : > "$SMALL"; : > "$BIG"
todo_w=0
for r in "${TODO[@]}"; do
  IFS=$'\x1f' read -r app topo dims len preset pm net args arch gname tmo big <<< "$r"
  n=$(nodes_of "$dims"); todo_w=$((todo_w + $(weight "$n" "$len")))
  if [ "$n" -gt "$big" ]; then printf '%s\n' "$r" >> "$BIG"; else printf '%s\n' "$r" >> "$SMALL"; fi
done
TTY=0; [ -t 2 ] && TTY=1
export OUT CSV LOCK POOL COLD WORMSIM KERNEL KERNEL_RISCV NAME TTY MEMLIM
export TOTAL=${#TODO[@]} TODO_W=$todo_w SKIPPED=$skipped T0=$(date +%s)
: > "$OUT/.progress"
done_n() { local d=0; [ -s "$OUT/.progress" ] && read -r d _ < "$OUT/.progress"; echo "$d"; }
session_line() {
  [ $FRESH = 0 ] && [ -s "$OUT/timing.csv" ] || echo "date,jobs,runs,done,elapsed_s" > "$OUT/timing.csv"
  FRESH=0
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$JOBS,$TOTAL,$(done_n),$(($(date +%s) - T0))" >> "$OUT/timing.csv"
}

PAR_PID=""
# A stop (Ctrl-C, SIGTERM): parallel starts no new run (SIGHUP), each
# running cell's process group gets SIGTERM (wormsim ends its QEMUs; the
# cell writes no row), and after 30 s what is left is killed.
cleanup() {
  trap '' INT TERM
  local p groups=()
  if [ -n "$PAR_PID" ]; then
    kill -HUP "$PAR_PID" 2>/dev/null
    for p in $(pgrep -P "$PAR_PID"); do groups+=("-$p"); done
    for p in "${groups[@]}"; do kill -TERM -- "$p" 2>/dev/null; done
    gone_within_30s "${groups[@]}"
    wait "$PAR_PID" 2>/dev/null
  fi
  pools_down
  [ $TTY = 1 ] && echo >&2
  session_line
  echo "sweep $NAME: stopped; $(done_n) runs finished this time; run it again to resume" >&2
  exit 130
}
trap cleanup INT TERM

# run_list FILE JOBS: the runs of FILE, JOBS at once; parallel's slot
# number picks the cell's node pool.
run_list() {
  [ -s "$1" ] || return 0
  parallel --will-cite --jobs "$2" --arg-file "$1" --joblog "+$OUT/joblog" \
    "$HERE/experiments/sweep-cell.sh" '{%}' '{}' &
  PAR_PID=$!
  wait "$PAR_PID"; PAR_PID=""
}
echo "sweep $NAME: $TOTAL runs to do, $skipped already in $CSV$LEFT_OUT, $JOBS at once" >&2
run_list "$SMALL" "$JOBS"
# The big runs go one at a time, on slot 1's pool: the other slots' pools
# end first, so that their idle nodes do not hold memory a big machine
# needs (a pool keeps as many idle nodes as its last run had).
if [ -s "$BIG" ]; then
  for ((i = 1; i < JOBS; i++)); do
    [ -s "$OUT/pool-$i.pid" ] || continue
    kill -TERM "$(cat "$OUT/pool-$i.pid")" 2>/dev/null; pool_gone "$OUT/pool-$i.pid"
    echo "sweep: node pool $i stopped at $(date +%s.%N) before the runs of more nodes, which run alone on pool 0" >> "$OUT/pool-$i.log"
  done
fi
run_list "$BIG" 1
[ $TTY = 1 ] && echo >&2
rm -f "$SMALL" "$BIG"
status=$(csv_cols "$CSV" status)
nfail=$(printf '%s' "$status" | grep -vcx ok); nref=$(printf '%s' "$status" | grep -cx refused)
session_line
echo "sweep $NAME: finished in $(fmt_t $(( $(date +%s) - T0 ))); $(($(wc -l < "$CSV") - 1)) rows in $CSV, $nfail not ok${nref:+ ($nref refused)}" >&2
# Each run that failed, with the error its summary.json gives: a long
# sweep's failures are read at its end, not searched for in its log.
while IFS=, read -r app topo dims len status run; do
  [ "$status" = ok ] || [ "$status" = refused ] && continue
  err="no summary.json"
  [ -f "$OUT/$run/summary.json" ] && err=$(jq -r '.error // "no error recorded"' "$OUT/$run/summary.json")
  echo "  not ok: $app on $topo $dims, len $len: $err ($OUT/$run)" >&2
done < <(csv_cols "$CSV" app topo dims len status run_dir)
# Exit: 0 every row ok; 3 the others ok but some refused (a machine or a
# length the app does not take, a row on purpose in some tables); 1 a run failed.
[ "$nfail" = 0 ] && exit 0
[ "$nfail" = "$nref" ] && exit 3
exit 1
