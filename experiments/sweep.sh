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
#       --wormsim PATH, --kernel ELF, --kernel-riscv ELF
#   -h, --help
#
# The definition: `key = value` lines, `#` comments, `[group]` headers.
# Keys before the first header are defaults for every group; a file without
# headers is one group named after the file. Each group runs the cross
# product of its list keys:
#   apps        node programs (wormsim --list-apps)            required
#   dims        machine shapes, e.g. 4x4 16x30 (or n=N for a hypercube, banyan or fat tree of N)  required
#   len         block lengths in bytes (0: barriers)           default 1024
#   net         alternatives of `--set` strings separated by | default none
#   topo        mesh | torus | hypercube | banyan | fattree    default torus
#   preset      a presets/NAME.conf or a file                  default default
#   port_model  one-port | all-port                            default one-port
#   arch        arm | riscv | mixed                            default arm
#   args        extra app arguments, e.g. sync=0               default none
#   timeout     wall-clock limit of one run, seconds           default 600 + nodes
#   big_nodes   a run of more nodes runs alone                 default 128
#
# Output DIR/results.csv: a header, then one row per finished run (the
# columns are listed in COLUMNS below and in docs/results.md). A row is
# appended only when its run has ended, in one write under a lock, so a
# killed sweep leaves whole rows only; run it again and it skips every run
# whose key (app, topo, dims, len, preset, port_model, net, args, arch) has
# a row. DIR/runs/ keeps each run's directory (links.csv, messages.csv,
# node logs ...).
# DIR/timing.csv gets a line per session: date, jobs, runs to do, runs
# done, elapsed seconds (docs/results.md sums them per sweep).
#
# Parallel runs: each run is a whole machine (p QEMUs and a router), so
# --jobs counts machines. A run of more than big_nodes nodes runs alone.
# Each job slot has a node pool (wormsim --serve), so a node's QEMU starts
# once per sweep, not once per run; results are the same either way
# (tests/qemu/suite-pool.sh), and each run's `command` file is the cold
# command that reproduces it.
# Simulated results do not depend on --jobs (tests/sweep/run.sh checks it);
# only wall_s does.
set -u
set -m    # each run in its own process group, so a stop can end it whole
HERE=$(cd "$(dirname "$0")/.." && pwd)
COLUMNS_CSV="app,topo,dims,nodes,len,preset,port_model,net,args,arch,group,status,coll_ns,coll_ns_node0,sim_time_ns,steps,sends_per_node,startups_per_node,messages,bytes,bytes_per_node,max_msg_bytes,max_link_sharing,max_link_worms,min_link_worms,max_link_flits,wall_s,run_dir"

die() { echo "sweep: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

POS=(); JOBS=""; OUT=""; ONLY=""; MAXN=""; RETRY=0; LIST=0; RECOLLECT=0; COLD=0
WORMSIM=${WORMSIM:-$HERE/build/host/wormsim}
KERNEL=${KERNEL:-$HERE/build/arm/node.elf}
KERNEL_RISCV=${KERNEL_RISCV:-$HERE/build/riscv/node.elf}
while [ $# -gt 0 ]; do
  case "$1" in
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
    --wormsim) WORMSIM=$2; shift 2 ;;
    --kernel) KERNEL=$2; shift 2 ;;
    --kernel-riscv) KERNEL_RISCV=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
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
[ -n "$OUT" ] || OUT=results/$NAME
[ -x "$WORMSIM" ] || die "no run tool at $WORMSIM (run make first)"

# --- Parse and check the definition: one line per run on stdout ----------
APPS_OK=$("$WORMSIM" --list-apps | awk '{print $1}' | tr '\n' ' ')
KEYS_OK="apps dims len net topo preset port_model arch args timeout big_nodes"
declare -A G=()      # current group's values
declare -A D=([len]=1024 [net]="" [topo]=torus [preset]=default [port_model]=one-port [arch]=arm [args]="" [timeout]="" [big_nodes]=128)
groups=(); RUNS=()
lineno=0; group=""; ingroup=0

bad() { echo "sweep: $DEF:$lineno: $*" >&2; exit 2; }
# The run tool's options for a machine, in MACHINE_OPTS: what a run's
# command and the definition's check (check_group) share.
machine_opts() {  # topo dims preset port_model arch net
  MACHINE_OPTS=(--topo "$1")
  case "$2" in n=*) MACHINE_OPTS+=(--nodes "${2#n=}") ;; *) MACHINE_OPTS+=(--dims "$2") ;; esac
  MACHINE_OPTS+=(--preset "$3" --port-model "$4" --arch "$5" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV")
  [ -z "$6" ] || MACHINE_OPTS+=(--set "$6")
}
check_group() {  # validates G[] of the current group and expands it into RUNS
  local gname=$1 k
  for k in apps dims; do [ -n "${G[$k]:-}" ] || { lineno=$2; bad "group [$gname] has no '$k' (required keys: apps, dims)"; }; done
  local app dims len net
  for app in ${G[apps]}; do
    [[ " $APPS_OK " == *" $app "* ]] || { lineno=${L[apps]}; bad "apps: unknown app '$app'; accepted: $APPS_OK"; }
  done
  # topo, port_model, arch, preset, args and the shapes are the run tool's
  # to judge (wormsim --check, below, for every run); the sweep checks only
  # its own syntax, and that the CSV key holds no comma
  [[ "${G[arch]}" != *,* ]] || { lineno=${L[arch]}; bad "arch: '${G[arch]}' is a list, which the CSV key cannot hold; accepted: arm, riscv, mixed"; }
  for dims in ${G[dims]}; do
    [[ "$dims" =~ ^[1-9][0-9]*(x[1-9][0-9]*)*$ || "$dims" =~ ^n=[1-9][0-9]*$ ]] || { lineno=${L[dims]}; bad "dims: '$dims' is not a shape such as 4x4, 16x30, 4x4x4 or n=16"; }
  done
  for len in ${G[len]}; do
    [[ "$len" =~ ^(0|[1-9][0-9]*)$ ]] || { lineno=${L[len]}; bad "len: '$len' is not a number of bytes (0 for the apps that move none)"; }
  done
  [[ "${G[timeout]}" =~ ^[0-9]*$ ]] || { lineno=${L[timeout]}; bad "timeout: '${G[timeout]}' is not a number of seconds"; }
  [[ "${G[big_nodes]}" =~ ^[1-9][0-9]*$ ]] || { lineno=${L[big_nodes]}; bad "big_nodes: '${G[big_nodes]}' is not a positive integer"; }
  local v; for v in net args; do
    [[ "${G[$v]}" != *[,\"]* ]] || { lineno=${L[$v]}; bad "$v: commas and quotes are not allowed"; }
  done
  local IFS_save=$IFS nets=()
  IFS='|' read -ra nets <<< "${G[net]}"; IFS=$IFS_save
  [ ${#nets[@]} -gt 0 ] || nets=("")
  # The machine of every (dims, net): the run tool checks it as it would
  # start it (wormsim --check with hello, which runs anywhere; memory
  # aside). A machine it refuses is a mistake in the definition; an app
  # refusing a machine or a length is not: that run gets a refused row.
  local msg
  for dims in ${G[dims]}; do for net in "${nets[@]}"; do
    net=$(echo $net)
    machine_opts "${G[topo]}" "$dims" "${G[preset]}" "${G[port_model]}" "${G[arch]}" "$net"
    msg=$("$WORMSIM" --check --app hello "${MACHINE_OPTS[@]}" --mem-limit 1073741824 2>&1 >/dev/null) ||
      { lineno=$2; bad "group [$gname]: ${G[topo]} $dims${net:+, net=$net}: ${msg#wormsim: }"; }
  done; done
  for app in ${G[apps]}; do for dims in ${G[dims]}; do for len in ${G[len]}; do for net in "${nets[@]}"; do
    net=$(echo $net)   # trim
    RUNS+=("$app$US${G[topo]}$US$dims$US$len$US${G[preset]}$US${G[port_model]}$US$net$US${G[args]}$US${G[arch]}$US$gname$US${G[timeout]}$US${G[big_nodes]}")
  done; done; done; done
}
US=$'\x1f'   # field separator of a run line (not whitespace: empty fields stay)
declare -A L=()
start_group() { G=(); local k; for k in "${!D[@]}"; do G[$k]=${D[$k]}; done; }
gstart=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  line=${line%%#*}; line=$(echo "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
  [ -z "$line" ] && continue
  if [[ "$line" =~ ^\[([A-Za-z0-9_.-]+)\]$ ]]; then
    newgroup=${BASH_REMATCH[1]}
    [ $ingroup = 1 ] && check_group "$group" $gstart
    [ $ingroup = 0 ] && { for k in "${!G[@]}"; do D[$k]=${G[$k]}; done; }
    group=$newgroup; ingroup=1; gstart=$lineno; start_group
    [[ " ${groups[*]} " != *" $group "* ]] || bad "group [$group] appears twice"
    groups+=("$group"); continue
  fi
  [[ "$line" =~ ^([A-Za-z_]+)[[:space:]]*=[[:space:]]*(.*)$ ]] || bad "not 'key = value' or '[group]': $line"
  k=${BASH_REMATCH[1]}; v=${BASH_REMATCH[2]}
  [[ " $KEYS_OK " == *" $k "* ]] || bad "unknown key '$k'; accepted: $KEYS_OK"
  if [ $ingroup = 0 ] && [ ${#G[@]} = 0 ]; then start_group; fi
  G[$k]=$v; L[$k]=$lineno
done < "$DEF"
if [ $ingroup = 1 ]; then check_group "$group" $gstart
else [ ${#G[@]} -gt 0 ] || { lineno=0; bad "empty sweep definition"; }; groups=("$NAME"); check_group "$NAME" 1; fi
if [ -n "$ONLY" ]; then
  for g in ${ONLY//,/ }; do [[ " ${groups[*]} " == *" $g "* ]] || die "--only: no group '$g'; groups: ${groups[*]}"; done
fi

nodes_of() {  # dims -> node count
  case "$1" in n=*) echo "${1#n=}" ;; *) echo "$1" | tr 'x' '\n' | awk 'BEGIN{p=1}{p*=$1}END{print p}' ;; esac
}
key_of() { printf '%s,%s,%s,%s,%s,%s,%s,%s,%s' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9"; }

# --- The runs still to do --------------------------------------------------
mkdir -p "$OUT/runs" || die "cannot create $OUT"
CSV=$OUT/results.csv
LOCK=$OUT/.lock
if [ -s "$CSV" ]; then
  [ $RECOLLECT = 1 ] || [ "$(head -1 "$CSV")" = "$COLUMNS_CSV" ] || die "$CSV has other columns than this tool writes; move it away"
  # A row is written in one append; a torn last line (power loss) is dropped.
  [ -z "$(tail -c1 "$CSV")" ] || { echo "sweep: dropping a partial last line of $CSV" >&2; sed -i '$d' "$CSV"; }
  if [ $RETRY = 1 ]; then
    awk -F, 'NR == 1 || ($12 != "fail" && $12 != "refused")' "$CSV" > "$CSV.tmp" && mv "$CSV.tmp" "$CSV"
  fi
else
  echo "$COLUMNS_CSV" > "$CSV"
fi
declare -A DONE=()
while IFS=, read -r app topo dims nodes len preset pm net args arch rest; do
  DONE["$(key_of "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch")"]=1
done < <(tail -n +2 "$CSV")

TODO=(); skipped=0; total_w=0
for r in "${RUNS[@]}"; do
  IFS=$'\x1f' read -r app topo dims len preset pm net args arch gname tmo big <<< "$r"
  [ -z "$ONLY" ] || [[ ",$ONLY," == *",$gname,"* ]] || continue
  n=$(nodes_of "$dims")
  [ -z "$MAXN" ] || [ "$n" -le "$MAXN" ] || continue
  if [ -n "${DONE[$(key_of "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch")]:-}" ]; then
    skipped=$((skipped + 1)); continue
  fi
  TODO+=("$r")
done
if [ $LIST = 1 ]; then
  for r in "${TODO[@]}"; do echo "$r" | cut -d"$US" -f1-10 | tr "$US" " "; done
  echo "sweep $NAME: ${#TODO[@]} runs to do, $skipped already in $CSV" >&2
  exit 0
fi

# Cost weight of a run for the estimate: p^2 (len + 1 KB) (an all-to-all
# moves p^2 blocks; a start-up is worth about a kilobyte on most presets).
weight() { echo $(( $1 * $1 * ($2 + 1024) / 1024 + 1 )); }

# --- One run: wormsim, then one CSV row -----------------------------------
run_one() {
  local app=$1 topo=$2 dims=$3 len=$4 preset=$5 pm=$6 net=$7 args=$8 arch=$9 gname=${10} tmo=${11} slot=${12}
  local n; n=$(nodes_of "$dims")
  local id; id=$(printf '%s' "$(key_of "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch")" | cksum | awk '{print $1}')
  local rdir=$OUT/runs/$app-$topo$dims-$len-$id
  rm -rf "$rdir"; mkdir -p "$rdir"
  [ -n "$tmo" ] || tmo=$((600 + n))
  # The silence that means hung grows with the app's buffers: wormsim's default.
  machine_opts "$topo" "$dims" "$preset" "$pm" "$arch" "$net"
  local cmd=("$WORMSIM" --app "$app" "${MACHINE_OPTS[@]}" --args "len=$len${args:+ $args}"
             --runs-dir "$rdir" --timeout "$tmo")
  printf '%q ' "${cmd[@]}" > "$rdir/command"; echo >> "$rdir/command"
  [ $COLD = 1 ] || cmd=("$WORMSIM" --pool "$POOL-$slot" "${cmd[@]:1}")
  local t0 rc; t0=$(date +%s.%N)
  "${cmd[@]}" > "$rdir/wormsim.out" 2>&1; rc=$?
  if [ $COLD = 0 ] && [ $rc = 2 ] && grep -q "^wormsim: no node pool named" "$rdir/wormsim.out"; then
    # the slot's pool died between cells (the loop starts it again for the
    # next); the client made no run directory: this cell runs cold, with
    # the same results
    "$WORMSIM" "${cmd[@]:3}" > "$rdir/wormsim.out" 2>&1; rc=$?
  fi
  local wall; wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  local run; run=$(find "$rdir" -mindepth 1 -maxdepth 1 -type d | head -1)
  local status=ok
  if [ $rc = 2 ] && [ -z "$run" ]; then status=refused
  elif [ $rc != 0 ]; then status=fail; fi
  [ $rc -lt 128 ] || return $rc        # killed: no row
  local row
  row=$(collect "$run" "$n" "$status" "$wall")
  row="$(key_of "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch" | awk -F, -v n="$n" 'BEGIN{OFS=","}{$4=n","$4; print}'),$gname,$row,${run#$OUT/}"
  ( flock 9; printf '%s\n' "$row" >> "$CSV" ) 9> "$LOCK"
  [ $status = ok ] || { sed 's/^/    /' "$rdir/wormsim.out" | tail -5 >&2; return 1; }
}

# The measured fields of one run directory (status, coll_ns .. wall_s).
# coll_ns: the collective's time, the largest "done in" a node printed
# (each node times the collective from its own exit of the start barrier);
# messages, bytes, sends and start-ups count the collective only (steps >=
# 1 of messages.csv: step 0 is the barrier); max_link_sharing is the
# largest of steps.csv over the collective's steps; the link columns are
# over the whole run (barrier included, unless the app ran with sync=0).
collect() {
  local run=$1 n=$2 status=$3 wall=$4
  if [ -z "$run" ] || [ ! -f "$run/summary.json" ]; then
    echo "$status,,,,,,,,,,,,,,,$wall"; return; fi
  local coll0 collmax sim steps
  collmax=$(cat "$run"/node-*.log 2>/dev/null | sed -n 's/.* done in \([0-9][0-9]*\) ns.*/\1/p' | sort -n | tail -1)
  coll0=$(sed -n 's/.* done in \([0-9][0-9]*\) ns.*/\1/p' "$run/node-000.log" 2>/dev/null | tail -1)
  steps=$(sed -n 's/.*, \([0-9][0-9]*\) steps, .*/\1/p' "$run/node-000.log" 2>/dev/null | tail -1)
  sim=$(jq -r '.sim_time_ns // empty' "$run/summary.json")
  local msgstats linkstats share
  # CSV columns by header name (host/report.c writes them): c[name]
  local hdr='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
  msgstats=$(awk -F, -v n="$n" "$hdr"'
    $c["step"] >= 1 { src = $c["src"]; dst = $c["dst"]; len = $c["len"]
                      m++; b += len; if (len > mm) mm = len; s[src]++; r[dst]++; by[src] += len }
    END { ms = 0; mu = 0; mb = 0
          for (i in s) if (s[i] > ms) ms = s[i]
          for (i = 0; i < n; i++) if (s[i] + r[i] > mu) mu = s[i] + r[i]
          for (i in by) if (by[i] > mb) mb = by[i]
          printf "%d,%d,%d,%.0f,%.0f,%d", ms, mu, m, b, mb, mm }' "$run/messages.csv" 2>/dev/null)
  [ -n "$msgstats" ] || msgstats=",,,,,"
  share=$(awk -F, "$hdr"'
    $c["step"] >= 1 && $c["max_link_sharing"] > m { m = $c["max_link_sharing"] } END { print m + 0 }' "$run/steps.csv" 2>/dev/null)
  linkstats=$(awk -F, "$hdr"'
    { wm = $c["worms"]; fl = $c["flits"]; if (wm > w) w = wm; if (mn == "" || wm < mn) mn = wm; if (fl > f) f = fl }
    END { printf "%d,%d,%.0f", w, mn, f }' "$run/links.csv" 2>/dev/null)
  echo "$status,$collmax,$coll0,$sim,$steps,$msgstats,$share,$linkstats,$wall"
}

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
POOL=sweep-$$; POOL_PIDS=()
pools_down() {
  local p; for p in "${POOL_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${POOL_PIDS[@]}"; do wait "$p" 2>/dev/null; done
  POOL_PIDS=()
}
pool_up() {   # slot: start its pool and wait for its socket
  local i=$1 k
  "$WORMSIM" --serve "$POOL-$i" >> "$OUT/pool-$i.log" 2>&1 & POOL_PIDS[$i]=$!
  for k in $(seq 100); do grep -q "@wormsim-pool-$POOL-$i\$" /proc/net/unix && break; sleep 0.05; done
  grep -q "@wormsim-pool-$POOL-$i\$" /proc/net/unix || { pools_down; die "node pool $i did not start: $(cat "$OUT/pool-$i.log")"; }
}
if [ $COLD = 0 ]; then
  for ((i = 0; i < JOBS; i++)); do : > "$OUT/pool-$i.log"; pool_up $i; done
fi
trap pools_down EXIT

# --- The scheduler ---------------------------------------------------------
declare -A PID_W=() PID_BIG=() PID_SLOT=()
FREE=(); for ((i = 0; i < JOBS; i++)); do FREE[$i]=1; done
running=0; big_running=0; done_n=0; failed=0; done_w=0; todo_w=0
for r in "${TODO[@]}"; do
  IFS=$'\x1f' read -r app topo dims len rest <<< "$r"
  todo_w=$((todo_w + $(weight "$(nodes_of "$dims")" "$len")))
done
T0=$(date +%s)
TTY=0; [ -t 2 ] && TTY=1
fmt_t() { local s=$1; if [ "$s" -ge 3600 ]; then printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60)); else printf '%dm%02ds' $((s / 60)) $((s % 60)); fi; }
progress() {
  local now el eta="?"; now=$(date +%s); el=$((now - T0))
  [ "$done_w" -gt 0 ] && eta=$(fmt_t $(( el * (todo_w - done_w) / done_w )))
  local line; line=$(printf 'sweep %s: %d/%d done (%d skipped, %d failed), %d running, elapsed %s, estimate %s left' \
    "$NAME" "$done_n" "${#TODO[@]}" "$skipped" "$failed" "$running" "$(fmt_t $el)" "$eta")
  if [ $TTY = 1 ]; then printf '\r\033[K%s' "$line" >&2; else printf '%s\n' "$line" >&2; fi
}

cleanup() {
  trap '' INT TERM
  local p
  for p in "${!PID_W[@]}"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done
  for p in "${!PID_W[@]}"; do wait "$p" 2>/dev/null; done     # the runs, not the pools
  # wormsim ends its QEMUs on SIGTERM; wait for every process of each run
  # (its group), and after 30 s end what is left.
  local i; for i in $(seq 1 300); do
    local alive=0; for p in "${!PID_W[@]}"; do kill -0 -- "-$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break; sleep 0.1
  done
  for p in "${!PID_W[@]}"; do kill -KILL -- "-$p" 2>/dev/null; done
  pools_down
  [ $TTY = 1 ] && echo >&2
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$JOBS,${#TODO[@]},$done_n,$(($(date +%s) - T0))" >> "$OUT/timing.csv"
  echo "sweep $NAME: stopped; $done_n runs finished this time; run it again to resume" >&2
  exit 130
}
trap cleanup INT TERM

reap() {
  local p st
  wait -n -p p "${!PID_W[@]}"; st=$?
  [ -n "${p:-}" ] && [ -n "${PID_W[$p]:-}" ] || return
  running=$((running - 1)); done_n=$((done_n + 1)); done_w=$((done_w + PID_W[$p]))
  [ "${PID_BIG[$p]}" = 1 ] && big_running=0
  FREE[${PID_SLOT[$p]}]=1
  unset "PID_W[$p]" "PID_BIG[$p]" "PID_SLOT[$p]"
  [ $st = 0 ] || failed=$((failed + 1))
  progress
}

echo "sweep $NAME: ${#TODO[@]} runs to do, $skipped already in $CSV, $JOBS at once" >&2
for r in "${TODO[@]}"; do
  IFS=$'\x1f' read -r app topo dims len preset pm net args arch gname tmo big <<< "$r"
  n=$(nodes_of "$dims"); w=$(weight "$n" "$len"); isbig=0; [ "$n" -gt "$big" ] && isbig=1
  while [ $running -ge "$JOBS" ] || [ $big_running = 1 ] || { [ $isbig = 1 ] && [ $running -gt 0 ]; }; do reap; done
  # a big run takes slot 0, whose pool keeps the big machine's nodes
  slot=0; if [ $isbig = 0 ]; then for ((i = 0; i < JOBS; i++)); do [ "${FREE[$i]}" = 1 ] && { slot=$i; break; }; done; fi
  FREE[$slot]=0
  # a pool that died (the OOM killer, a signal) is started again, said once:
  # its cell would otherwise fail for want of a pool, not for its own sake
  if [ $COLD = 0 ] && ! kill -0 "${POOL_PIDS[$slot]}" 2>/dev/null; then
    wait "${POOL_PIDS[$slot]}" 2>/dev/null
    echo "sweep $NAME: node pool $slot ended (see $OUT/pool-$slot.log); starting it again" >&2
    pool_up "$slot"
  fi
  ( trap - INT TERM EXIT; run_one "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch" "$gname" "$tmo" "$slot"
  ) &
  p=$!; PID_W[$p]=$w; PID_BIG[$p]=$isbig; PID_SLOT[$p]=$slot; running=$((running + 1)); [ $isbig = 1 ] && big_running=1
  [ $TTY = 0 ] || progress
done
while [ $running -gt 0 ]; do reap; done
[ $TTY = 1 ] && echo >&2
nfail=$(awk -F, 'NR > 1 && $12 != "ok"' "$CSV" | wc -l)
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$JOBS,${#TODO[@]},$done_n,$(($(date +%s) - T0))" >> "$OUT/timing.csv"
echo "sweep $NAME: finished in $(fmt_t $(( $(date +%s) - T0 ))); $(($(wc -l < "$CSV") - 1)) rows in $CSV, $nfail not ok" >&2
[ "$nfail" = 0 ]
