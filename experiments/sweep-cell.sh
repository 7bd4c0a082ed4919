#!/usr/bin/env bash
# sweep-cell: one run of a sweep, and its CSV row. experiments/sweep.sh
# plans the runs and hands them to GNU parallel, which calls
#
#   sweep-cell.sh SLOT RUN
#
# SLOT is parallel's job slot (1..jobs): the run goes to that slot's node
# pool. RUN is one planned run, its fields separated by \x1f: app topo
# dims len preset port_model net args arch group timeout big_nodes.
# The sweep exports what every cell shares: OUT, CSV, LOCK, POOL, COLD,
# WORMSIM, KERNEL, KERNEL_RISCV, NAME, TOTAL, TODO_W, SKIPPED, T0, TTY.
#
# Sourced (by sweep.sh), it only defines the functions the planner shares
# with the cells: machine_opts, apps_with_len, preset_port_model, nodes_of, csv_col,
# csv_cols, key_of, weight, fmt_t, collect, pool_up, pool_alive.
#
# Invariant: a row is appended only when its run has ended, in one write
# under $LOCK; a run killed by a signal leaves no row, so a resumed sweep
# runs it again.

# The columns of a sweep's results.csv, in order (docs/results.md lists
# them; tests/report/test_result_columns.py compares): a run's key with
# its node count, its group, the figures it simulated (collect's, but
# wall_s), and two facts about the host, wall_s and run_dir.
COLUMNS_CSV="app,topo,dims,nodes,len,preset,port_model,net,args,arch,group,status,coll_ns,coll_ns_node0,sim_time_ns,steps,sends_per_node,startups_per_node,messages,bytes,bytes_per_node,max_msg_bytes,max_link_sharing,max_link_worms,min_link_worms,max_link_flits,wall_s,run_dir"
# A run's key (key_of's fields: what resume and recheck match; nodes
# follows from dims) and its simulated figures (what recheck compares),
# each a part of COLUMNS_CSV.
KEY_COLUMNS=${COLUMNS_CSV%%,group,*}; KEY_COLUMNS=${KEY_COLUMNS/,nodes,/,}; KEY_COLUMNS=${KEY_COLUMNS//,/ }
FIGURE_COLUMNS=${COLUMNS_CSV#*,group,}; FIGURE_COLUMNS=${FIGURE_COLUMNS%,wall_s,run_dir}; FIGURE_COLUMNS=${FIGURE_COLUMNS//,/ }

# The run tool's options for a machine, in MACHINE_OPTS: what a run's
# command and the definition's check (sweep.sh) share.
machine_opts() {  # topo dims preset port_model arch net
  MACHINE_OPTS=(--topo "$1")
  case "$2" in n=*) MACHINE_OPTS+=(--nodes "${2#n=}") ;; *) MACHINE_OPTS+=(--dims "$2") ;; esac
  MACHINE_OPTS+=(--preset "$3" --port-model "$4" --arch "$5" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV")
  [ -z "$6" ] || MACHINE_OPTS+=(--set "$6")
}
# apps_with_len: the apps whose ARGS take len= (or any words, as mpi's
# argv), space-separated (wormsim --list-apps): a sweep's runs and a
# calibration's cells pass len=, so no other app can be one.
apps_with_len() {
  "$WORMSIM" --list-apps | awk '{ a = $0; sub(/.* \(ARGS: /, "", a)
    if (a != $0 && (a ~ /^any words/ || a ~ /(^|, )len=/)) print $1 }' | tr '\n' ' '
}
# preset_port_model PRESET: the port model a run with that preset takes
# (wormsim --params: the run tool's reading of it); one-port, the
# built-in, if the run tool cannot read it (its check then says why).
preset_port_model() {
  local pm
  pm=$("$WORMSIM" --preset "$1" --params 2>/dev/null | sed -n 's/^port_model *= *\([a-z-]*\).*/\1/p')
  echo "${pm:-one-port}"
}
nodes_of() {  # dims -> node count
  case "$1" in n=*) echo "${1#n=}" ;; *) echo "$1" | tr 'x' '\n' | awk 'BEGIN{p=1}{p*=$1}END{print p}' ;; esac
}
# csv_col CSV NAME: the named column of a CSV, header first.
csv_col() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } { print $k }' "$1"; }
# csv_cols CSV NAME...: the named columns of a CSV's rows, in that order,
# comma-separated, header left out (what the resume reads).
csv_cols() { local f=$1; shift; awk -F, -v want="$*" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) idx[$i] = i; next }
  { s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") $(idx[w[i]]); print s }' "$f"; }
# A run's key: the CSV's first key columns (nodes aside), what resume matches.
key_of() { printf '%s,%s,%s,%s,%s,%s,%s,%s,%s' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9"; }
# Cost weight of a run for the estimate: p^2 (len + 1 KB) (an all-to-all
# moves p^2 blocks; a start-up is worth about a kilobyte on most presets).
weight() { echo $(( $1 * $1 * ($2 + 1024) / 1024 + 1 )); }

fmt_t() {  # seconds -> 1h02m or 3m04s
  local s=$1; if [ "$s" -ge 3600 ]; then printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60)); else printf '%dm%02ds' $((s / 60)) $((s % 60)); fi; }

# The node pool of a slot: a `wormsim --serve` whose pid is in
# $OUT/pool-SLOT.pid, its output in $OUT/pool-SLOT.log.
pool_alive() { grep -q "@wormsim-pool-$POOL-$1\$" /proc/net/unix; }
pool_up() {   # slot: start its pool and wait for its socket
  local i=$1 k
  "$WORMSIM" --serve "$POOL-$i" >> "$OUT/pool-$i.log" 2>&1 < /dev/null &
  echo $! > "$OUT/pool-$i.pid"
  for k in $(seq 100); do pool_alive "$i" && return 0; sleep 0.05; done
  echo "sweep: node pool $i did not start: $(cat "$OUT/pool-$i.log")" >&2
  return 1
}

# The measured fields of one run directory (status, coll_ns .. wall_s),
# from its structured files only: summary.json and the CSVs, by name.
# coll_ns: the collective's time, the largest any node reported (each node
# times the collective from its own exit of the start barrier and reports
# it through its NIC: summary.json "records"); coll_ns_node0 and steps are
# node 0's;
# messages, bytes, sends and start-ups count the collective only (steps >=
# 1 of messages.csv: step 0 is the barrier); max_link_sharing is the
# largest of steps.csv over the collective's steps; the link columns are
# over the whole run (barrier included, unless the app ran with sync=0).
collect() {
  local run=$1 n=$2 status=$3 wall=$4
  if [ -z "$run" ] || [ ! -f "$run/summary.json" ]; then
    echo "$status,,,,,,,,,,,,,,,$wall"; return; fi
  local times   # coll_ns,coll_ns_node0,sim_time_ns,steps
  times=$(jq -r '[.records.coll_ns.max, .records.coll_ns.node0, .sim_time_ns, .records.steps.node0]
                 | map(if . == null then "" else tostring end) | join(",")' "$run/summary.json")
  local msgstats linkstats share
  # CSV columns by header name (host/out/report.c writes them): c[name]
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
  [ -n "$linkstats" ] || linkstats=",,"
  echo "$status,$times,$msgstats,$share,$linkstats,$wall"
}

[[ "${BASH_SOURCE[0]}" != "$0" ]] && return 0

# --- One cell ---------------------------------------------------------------
set -u
die() { echo "sweep-cell: $*" >&2; exit 2; }
USAGE="usage: experiments/sweep-cell.sh SLOT RUN (called by experiments/sweep.sh through GNU parallel), or -h, --help"
case "${1:-}" in
  -h|--help) sed -n '2,/^$/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -*) die "unknown option '$1'; $USAGE" ;;
esac
[ $# = 2 ] || die "two arguments expected, got $#; $USAGE"
[[ "$1" =~ ^[1-9][0-9]*$ ]] || die "SLOT '$1' is not a positive integer; $USAGE"
for v in OUT CSV LOCK POOL COLD WORMSIM KERNEL KERNEL_RISCV NAME TOTAL TODO_W SKIPPED T0 TTY; do
  [ -n "${!v+set}" ] || die "\$$v is not set: a cell runs under experiments/sweep.sh, which exports it"
done
# The sweep's progress after this cell: counts kept in $OUT/.progress
# (done failed refused done_weight), updated under $LOCK; failed and
# refused are the rows of status fail and refused.
progress() {  # weight status
  local d=0 f=0 r=0 w=0 now el eta="?" line
  [ -s "$OUT/.progress" ] && read -r d f r w < "$OUT/.progress"
  d=$((d + 1)); w=$((w + $1))
  case $2 in fail) f=$((f + 1)) ;; refused) r=$((r + 1)) ;; esac
  echo "$d $f $r $w" > "$OUT/.progress"
  now=$(date +%s); el=$((now - T0))
  [ "$w" -gt 0 ] && eta=$(fmt_t $(( el * (TODO_W - w) / w )))
  line=$(printf 'sweep %s: %d/%d done (%d skipped, %d failed, %d refused), elapsed %s, estimate %s left' \
    "$NAME" "$d" "$TOTAL" "$SKIPPED" "$f" "$r" "$(fmt_t $el)" "$eta")
  if [ "$TTY" = 1 ]; then printf '\r\033[K%s' "$line" >&2; else printf '%s\n' "$line" >&2; fi
}

slot=$(($1 - 1))
IFS=$'\x1f' read -r app topo dims len preset pm net args arch gname tmo big <<< "$2"
n=$(nodes_of "$dims")
id=$(printf '%s' "$(key_of "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch")" | cksum | awk '{print $1}')
rdir=$OUT/runs/$app-$topo$dims-$len-$id
rm -rf "$rdir"; mkdir -p "$rdir"
[ -n "$tmo" ] || tmo=$((600 + n))
# The silence that means hung grows with the app's buffers: wormsim's default.
machine_opts "$topo" "$dims" "$preset" "$pm" "$arch" "$net"
cmd=("$WORMSIM" --app "$app" "${MACHINE_OPTS[@]}" --args "len=$len${args:+ $args}"
     --runs-dir "$rdir" --timeout "$tmo" ${MEMLIM:+--mem-limit "$MEMLIM"})
printf '%q ' "${cmd[@]}" > "$rdir/command"; echo >> "$rdir/command"
if [ "$COLD" = 0 ]; then
  # a pool that died (the OOM killer, a signal) is started again, said
  # once: its cell would otherwise fail for want of a pool, not for its own sake
  if ! pool_alive "$slot"; then
    ( flock 8
      pool_alive "$slot" || { echo "sweep $NAME: node pool $slot ended (see $OUT/pool-$slot.log); starting it again" >&2
                              pool_up "$slot"; } ) 8> "$OUT/.pool-$slot.lock"
  fi
  cmd=("$WORMSIM" --pool "$POOL-$slot" "${cmd[@]:1}")
fi
# wormsim ends its nodes on SIGTERM: a stop of the sweep signals this
# cell's process group, and the cell waits for wormsim, leaving no row
# (a handler, not an ignore: wormsim must not inherit an ignored signal).
trap ':' TERM INT
t0=$(date +%s.%N)
"${cmd[@]}" > "$rdir/wormsim.out" 2>&1; rc=$?
if [ "$COLD" = 0 ] && [ $rc = 2 ] && grep -q "^wormsim: no node pool named" "$rdir/wormsim.out"; then
  # the pool could not be started again: this cell runs cold, with the
  # same results
  "$WORMSIM" "${cmd[@]:3}" > "$rdir/wormsim.out" 2>&1; rc=$?
fi
[ $rc -lt 128 ] || exit $rc        # killed: no row
# The run ended: its row is written whole even if a stop comes now (the
# commands below inherit the ignored signals; a stop waits for the cell).
trap '' TERM INT
wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
run=$(find "$rdir" -mindepth 1 -maxdepth 1 -type d | head -1)
status=ok
if [ $rc = 2 ] && [ -z "$run" ]; then status=refused
elif [ $rc != 0 ]; then status=fail; fi
row=$(collect "$run" "$n" "$status" "$wall")
# run_dir: the run's directory; where the run tool made none (a refused
# run), the cell's, whose wormsim.out gives the reason (the report reads it).
where=${run:-$rdir}
row="$(key_of "$app" "$topo" "$dims" "$len" "$preset" "$pm" "$net" "$args" "$arch" | awk -F, -v n="$n" 'BEGIN{OFS=","}{$4=n","$4; print}'),$gname,$row,${where#$OUT/}"
( flock 9; printf '%s\n' "$row" >> "$CSV"; progress "$(weight "$n" "$len")" $status ) 9> "$LOCK"
[ $status = ok ] || { sed 's/^/    /' "$rdir/wormsim.out" | tail -5 >&2; exit 1; }
exit 0
