#!/usr/bin/env bash
# make bench: wall time and memory of real runs, medians of several, for
# each node ISA side by side; cold runs against runs on a node pool; the
# network engine alone, and its throughput past saturation per
# arbitration policy; then the fault soak (tests/soak.sh) and the pool soak
# (tests/soak-pool.sh).
#   REPEAT=5 (runs per size)  SIZES="16 64 256"  APP=alltoall_pex  ARGS=len=1024
#   POOL_SIZES="64" (cold against warm)
#   BENCH_ARCHES="arm riscv"  (any --arch values: arm, riscv, mixed, lists)
#   SOAK_RUNS=1000 (0 skips the soak)  SOAK_POOL_RUNS=1000 (0 skips the pool soak)
#   TARGETS=1 (0 skips the speed targets' runs: about 10 minutes)
set -u
cd "$(dirname "$0")/.."
WORMSIM=${WORMSIM:-build/host/wormsim}; KERNEL=${KERNEL:-build/arm/node.elf}
KERNEL_RISCV=${KERNEL_RISCV:-build/riscv/node.elf}; BENCH_ARCHES=${BENCH_ARCHES:-arm riscv}
REPEAT=${REPEAT:-5}; SIZES=${SIZES:-16 64 256}; APP=${APP:-alltoall_pex}; ARGS=${ARGS:-len=1024}
TMP=$(mktemp -d /tmp/wormsim-bench.XXXXXX); trap 'rm -rf "$TMP"' EXIT
# pool_start NAME: a node pool (wormsim --serve), its socket up; its pid in pp.
pool_start() {
  "$WORMSIM" --serve "$1" > "$TMP/pool.out" 2>&1 & pp=$!
  local i; for i in $(seq 100); do grep -q "@wormsim-pool-$1\$" /proc/net/unix && break; sleep 0.05; done
}
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }

# Peak proportional set size (PSS: shared pages split between the processes
# sharing them) of the node QEMUs, sampled while a run is going.
peak_rss() {   # pid of the run tool -> "max_mib_per_node total_mib"
  local max=0 tot=0
  while kill -0 "$1" 2>/dev/null; do
    local s; s=$(for c in $(pgrep -P "$1"); do awk '/^Pss:/{print $2}' /proc/$c/smaps_rollup 2>/dev/null; done |
                 awk '{t+=$1; if ($1>m) m=$1} END{print m+0, t+0}')
    set -- "$1" $s
    [ "${2:-0}" -gt "$max" ] && max=$2; [ "${3:-0}" -gt "$tot" ] && tot=$3
    sleep 0.05
  done
  echo "$((max / 1024)) $((tot / 1024))"
}

printf "%-6s %-6s %-10s %10s %10s %14s %16s %16s\n" nodes arch shape "wall_s" "min..max" "sim_time_ns" "peak_pss/node" "peak_pss_total"
for n in $SIZES; do
for arch in $BENCH_ARCHES; do
  walls=(); sim=; mem=
  for k in $(seq "$REPEAT"); do
    "$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --arch "$arch" --runs-dir "$TMP/runs" \
        --app "$APP" --nodes "$n" --args "$ARGS" > "$TMP/out" 2>&1 &
    pid=$!
    m=$(peak_rss $pid); wait $pid; rc=$?
    [ $rc = 0 ] || { echo "run failed (nodes=$n, arch=$arch):"; cat "$TMP/out"; exit 1; }
    d="$TMP/runs/latest/summary.json"            # (read by name, as everywhere: not the text summary)
    walls+=("$(jq .wall_s "$d")"); s=$(jq .sim_time_ns "$d"); dims=$(jq -r .dims "$d")
    [ -z "$sim" ] || [ "$sim" = "$s" ] || { echo "simulated time changed between runs: $sim vs $s"; exit 1; }
    sim=$s; [ "$k" = 1 ] && mem=$m
    rm -rf "$TMP/runs"
  done
  med=$(printf '%s\n' "${walls[@]}" | median)
  range=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n '1p;$p' | awk '{printf "%.2f%s", $1, NR==1?"..":""}')
  set -- $mem
  printf "%-6s %-6s %-10s %10.2f %10s %14s %13s MiB %13s MiB\n" "$n" "$arch" "$dims" "$med" "$range" "$sim" "$1" "$2"
done
done
echo "(app $APP, args '$ARGS', $REPEAT runs per size; wall_s is the run tool's own wall time, median)"

# The node pool: the same run cold (every QEMU started for it) and warm
# (on a pool's nodes, wormsim --serve / --pool), as the client sees it,
# medians of REPEAT each; the pool is filled by one run first. The host's
# cost per message of a warm run, over its messages: the router's own CPU
# time (summary.json engine.router_cpu_s), and the CPU time of the
# pool's QEMUs (utime + stime in /proc/PID/stat), which includes their
# reset and boot after the run; and the wake-ups behind them, counted as the
# times a thread went to sleep (voluntary context switches): the router's
# (the --serve process routes the runs it is handed) and those of all the
# threads of the pool's QEMUs (main loop, vCPU, RCU).
echo
POOL_SIZES=${POOL_SIZES:-64}
qemu_cpu_s() {   # the CPU seconds of the QEMUs of the pool served by pid $1
  local c; for c in $(pgrep -P "$1"); do awk '{ print $14 + $15 }' "/proc/$c/stat" 2>/dev/null; done |
    awk -v hz="$(getconf CLK_TCK)" '{ s += $1 } END { printf "%.3f\n", s / hz }'
}
# The times the threads of processes $@ went to sleep (voluntary context
# switches, /proc/PID/task/TID/status): each is one wake-up to come.
sleeps() {
  local c; for c in "$@"; do cat /proc/"$c"/task/*/status 2>/dev/null; done |
    awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s + 0 }'
}
printf "%-6s %-14s %12s %12s %12s %16s %16s %18s %18s\n" nodes app "cold_wall_s" "warm_wall_s" "warm/cold" "router_us/msg" "qemu_us/msg" "router_sleeps/msg" "qemu_sleeps/msg"
for n in $POOL_SIZES; do
  P=bench-$$-$n
  pool_start "$P"
  run() { "$WORMSIM" "$@" --kernel "$KERNEL" --runs-dir "$TMP/runs" --app "$APP" --nodes "$n" --args "$ARGS" > "$TMP/out" 2>&1 ||
          { echo "run failed: $*"; cat "$TMP/out"; kill $pp; exit 1; }; }
  timed() { local t0; t0=$(date +%s.%N); run "$@"; awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.3f\n", b - a}'; }
  run --pool "$P"
  cold=$(for k in $(seq "$REPEAT"); do timed; done | median)
  warm=""; per=""; qper=""; rsl=""; qsl=""
  for k in $(seq "$REPEAT"); do
    q0=$(qemu_cpu_s $pp); r0=$(sleeps $pp); s0=$(sleeps $(pgrep -P $pp))
    warm+="$(timed --pool "$P")"$'\n'
    read -r rcpu m < <(jq -r '"\(.engine.router_cpu_s) \(.messages)"' "$TMP/runs/latest/summary.json")
    per+="$(awk -v c="$rcpu" -v m="$m" 'BEGIN { print c / m * 1e6 }')"$'\n'
    qper+="$(awk -v a="$q0" -v b="$(qemu_cpu_s $pp)" -v m="$m" 'BEGIN { printf "%.1f", (b - a) / m * 1e6 }')"$'\n'
    rsl+="$(awk -v a="$r0" -v b="$(sleeps $pp)" -v m="$m" 'BEGIN { printf "%.2f", (b - a) / m }')"$'\n'
    qsl+="$(awk -v a="$s0" -v b="$(sleeps $(pgrep -P $pp))" -v m="$m" 'BEGIN { printf "%.2f", (b - a) / m }')"$'\n'
  done
  warm=$(printf '%s' "$warm" | median); per=$(printf '%s' "$per" | median); qper=$(printf '%s' "$qper" | median)
  rsl=$(printf '%s' "$rsl" | median); qsl=$(printf '%s' "$qsl" | median)
  grep -q "$n of $n nodes warm" "$TMP/out" || { echo "the pool's run was not warm: $(cat "$TMP/out")"; kill $pp; exit 1; }
  kill -TERM $pp; wait $pp
  printf "%-6s %-14s %12.2f %12.2f %12.2f %16.1f %16.1f %18.2f %18.2f\n" "$n" "$APP" "$cold" "$warm" "$(awk -v a="$warm" -v b="$cold" 'BEGIN{print a/b}')" "$per" "$qper" "$rsl" "$qsl"
  rm -rf "$TMP/runs"
done
echo "(args '$ARGS', medians of $REPEAT, wall time of the whole command)"

# The link to node hosts (wormsim-mpi, host/relay/link.h): the same run on one
# host (wormsim) and over 3 MPI ranks on this host (rank 0 routes, ranks 1
# and 2 each host half of the nodes), cold, medians of REPEAT. The relay's
# cost per message: the extra wall time over the messages, and the
# router's own CPU per message (it now also copies every message into its
# mirrors). Simulated results are the same (tests/qemu/suite-mpi.sh).
echo
RELAY_SIZES=${RELAY_SIZES:-64 256}
WORMSIM_MPI=${WORMSIM_MPI:-build/host/wormsim-mpi}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
printf "%-6s %-6s %10s %10s %18s %16s\n" nodes ranks wall_s "/1 rank" "extra_wall_us/msg" "router_us/msg"
for n in $RELAY_SIZES; do
  one=""
  for ranks in 1 3; do
    walls=""; per=""; msgs=0
    for k in $(seq "$REPEAT"); do
      if [ $ranks = 1 ]; then cmd=("$WORMSIM"); else cmd=(mpirun --oversubscribe -np $ranks "$WORMSIM_MPI"); fi
      t0=$(date +%s.%N)
      "${cmd[@]}" --kernel "$KERNEL" --runs-dir "$TMP/runs" --app "$APP" --nodes "$n" --args "$ARGS" > "$TMP/out" 2>&1 ||
        { echo "run failed ($ranks ranks, $n nodes):"; tail -20 "$TMP/out"; exit 1; }
      walls+="$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.3f", b - a}')"$'\n'
      per+="$(jq '.engine.router_cpu_s / .messages * 1e6' "$TMP/runs/latest/summary.json")"$'\n'
      msgs=$(jq .messages "$TMP/runs/latest/summary.json")
      rm -rf "$TMP/runs"
    done
    w=$(printf '%s' "$walls" | median); per=$(printf '%s' "$per" | median)
    [ -n "$one" ] || one=$w
    printf "%-6s %-6s %10.2f %10.2f %18.1f %16.1f\n" "$n" "$ranks" "$w" "$(awk -v a="$w" -v b="$one" 'BEGIN{print a/b}')" \
      "$(awk -v a="$w" -v b="$one" -v m="$msgs" 'BEGIN{print (a-b)/m*1e6}')" "$per"
  done
done
echo "(app $APP, args '$ARGS', cold runs, medians of $REPEAT, wall time of the whole command, mpirun included)"

# The network engine alone (netsim, one core): uniform traffic on 8x8 and
# 16x16 tori at a moderate and a near-saturation load.
NETSIM=${NETSIM:-build/host/netsim}
echo
printf "%-7s %8s %9s %12s %18s %18s\n" torus offered accepted mean_lat "flit-hops/s" "router-cycles/s"
for d in 8x8 16x16; do
  for r in 0.1 0.3; do
    rows=$(for k in $(seq "$REPEAT"); do "$NETSIM" --json --dims $d --rate $r --cycles 10000; done)
    fh=$(echo "$rows" | jq .flit_hops_per_s | median); rc=$(echo "$rows" | jq .router_cycles_per_s | median)
    one=$(echo "$rows" | head -1)
    printf "%-7s %8s %9.3f %12.1f %18.3g %18.3g\n" $d $r "$(echo "$one" | jq .accepted)" \
      "$(echo "$one" | jq .mean_latency)" "$fh" "$rc"
  done
done
echo "(medians of $REPEAT; BookSim2 runs at roughly 0.3-1e6 router-cycles/s on such machines)"

# Adaptive routing steps every cycle (the jump, parked heads and sleep
# assume oblivious routes; docs/network.md "Adaptive routing"): uniform
# traffic at 0.2 on an 8x8 and a 16x16 mesh under Duato's routing and the
# west-first turn model, on 2 VCs. BookSim2's min_adapt on the 8x8 mesh
# ran 0.69e6 router-cycles/s on this host (docs/network.md).
echo
printf "%-7s %-12s %9s %12s %18s\n" mesh routing accepted mean_lat "router-cycles/s"
for d in 8x8 16x16; do
  for rt in duato west_first; do
    rows=$(for k in $(seq "$REPEAT"); do "$NETSIM" --json -t mesh --dims $d --rate 0.2 --cycles 10000 --set "routing=$rt"; done)
    one=$(echo "$rows" | head -1)
    printf "%-7s %-12s %9.3f %12.1f %18.3g\n" $d $rt "$(echo "$one" | jq .accepted)" "$(echo "$one" | jq .mean_latency)" \
      "$(echo "$rows" | jq .router_cycles_per_s | median)"
  done
done
echo "(medians of $REPEAT)"

# Past saturation, per arbitration policy (docs/network.md "Arbitration"):
# netsim --sweep 0.1:1.0:0.1 --cycles 5000, one-port, 8-flit packets; the
# peak accepted throughput of the sweep and the accepted throughput at
# offered load 1.0 as a share of it. Deterministic: one run each.
echo
printf "%-7s %-26s %-10s %-12s %8s %11s %8s\n" torus network pattern alloc peak "at_1.0" share
for cfg in "8x8|defaults|uniform" "8x8|defaults|transpose" "16x16|defaults|uniform" "16x16|defaults|transpose" \
           "8x8|hop_cycles=3 buf_flits=8|transpose" "16x16|hop_cycles=3 buf_flits=8|uniform"; do
  IFS='|' read -r d net pat <<< "$cfg"
  for al in round-robin age fixed output-first; do
    set=$([ "$net" = defaults ] && echo "alloc=$al" || echo "alloc=$al $net")
    "$NETSIM" --json --dims $d --pattern $pat --sweep 0.1:1.0:0.1 --cycles 5000 --set "$set" |
      jq -rs --arg d $d --arg n "$net" --arg p $pat --arg a $al \
        '(map(.accepted) | max) as $m | .[-1].accepted as $l |
         "\($d)\t\($n)\t\($p)\t\($a)\t\($m)\t\($l)\t\($l / $m)"' |
      awk -F'\t' '{ printf "%-7s %-26s %-10s %-12s %8.4f %11.4f %8.3f\n", $1, $2, $3, $4, $5, $6, $7 }'
  done
done
echo "(accepted flits per node per cycle; share = at_1.0 / peak)"

# The engine's cost against message length, at the same message count:
# netsim --burst (every node's messages ready at cycle 0) at 256 B against
# 16 KB messages, jumping and stepping every cycle: 8 messages per node on
# a 16x16 torus under three patterns, and the Thakur sweep's machine (the
# Delta-like 32x16 mesh) with 2 per node, whose worms start and end
# together as a collective's steps do. A 256 B run takes a few tens of
# milliseconds, so the ratio is taken per pair of runs made one after the
# other (256 B, then 16 KB) and its median given: a slow spell of the host
# then skews one pair, not one side of every pair.
echo
printf "%-22s %8s %12s %14s %14s %16s %10s\n" case len cycles "cpu_s(jump)" "cpu_s(step)" "moves_jumped" "step/jump"
for c in "torus-bitcomp|-t torus --dims 16x16 --pattern bitcomp --burst 8" \
         "torus-transpose|-t torus --dims 16x16 --pattern transpose --burst 8" \
         "torus-uniform|-t torus --dims 16x16 --pattern uniform --burst 8" \
         "delta-mesh-bitcomp|-t mesh --dims 32x16 --preset delta --pattern bitcomp --burst 2"; do
  name=${c%%|*}; read -r -a opts <<< "${c#*|}"
  declare -A rows=()
  ratios=""
  for k in $(seq "$REPEAT"); do
    for len in 256 16384; do
      rows[$len]+="$("$NETSIM" --json "${opts[@]}" --len $len)"$'\n'
    done
    ratios+="$(for len in 256 16384; do printf '%s' "${rows[$len]}" | tail -1 | jq .engine_cpu_s; done |
               awk 'NR == 1 {a = $1} NR == 2 {print $1 / a}')"$'\n'
  done
  for len in 256 16384; do
    j=$(printf '%s' "${rows[$len]}" | jq .engine_cpu_s | median); one=$(printf '%s' "${rows[$len]}" | head -1)
    s=$(for k in $(seq "$REPEAT"); do "$NETSIM" --json "${opts[@]}" --len $len --no-jump; done | jq .engine_cpu_s | median)
    printf "%-22s %8s %12s %14.4f %14.4f %15.0f%% %10.1f\n" $name $len "$(echo "$one" | jq .cycles)" "$j" "$s" \
      "$(echo "$one" | jq '100 * .moves_jumped / .moves')" "$(awk -v a="$s" -v b="$j" 'BEGIN{print a/b}')"
  done
  printf "%-22s 16 KB over 256 B engine CPU (jumping): %.2f (median of %s pairs; %s messages either way)\n" $name \
    "$(printf '%s' "$ratios" | median)" "$REPEAT" "$(echo "$one" | jq .packets)"
done
echo "(medians of $REPEAT)"

# The memory check's estimate against the peak it estimates: ARM nodes on
# a fresh pool (all alive together) running bcast_rd len=1024; the peak of
# what the pool's process and its QEMUs hold (tests/pool-memory.sh),
# sampled every 0.2 s until 2 s after the run (docs/scale.md, Memory per host).
# Target: the estimate within 10 % of the peak, and not below it.
echo
MEM_SIZES=${MEM_SIZES:-64 256 1024}
printf "%-6s %14s %14s %16s %8s\n" nodes "estimate_MiB" "peak_MiB" "estimate/peak" target
for n in $MEM_SIZES; do
  est=$("$WORMSIM" --check --kernel "$KERNEL" --app bcast_rd --nodes "$n" --args len=1024 2>&1) ||
    { echo "$n: the check refused the machine: $est"; continue; }
  est=$(echo "$est" | sed -n 's/.*about \([0-9]*\) MiB of host memory.*/\1/p')
  P=benchmem-$$-$n
  pool_start "$P"
  "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$TMP/runs" --app bcast_rd --nodes "$n" --args len=1024 \
    > "$TMP/out" 2>&1 & run=$!
  peak=$(tests/pool-memory.sh $pp $run)
  wait $run || echo "bcast_rd on $n nodes failed: $(head -3 "$TMP/out")"
  kill -TERM $pp; wait $pp; rm -rf "$TMP/runs"
  printf "%-6s %14s %14s %16.3f %8s\n" "$n" "$est" "$peak" "$(awk -v a="$est" -v b="$peak" 'BEGIN { print a / b }')" "1.00-1.10"
done
echo "(one run each, ARM)"

# 1024 nodes: a 32x32 torus running hello, bcast_rd and allreduce_ring
# (len=4096), one run each (BIG_APPS; BIG=0 skips it), with the lowest MemAvailable seen
# during the run. wormsim refuses the machine up front when its memory
# estimate does not fit; that refusal is printed instead.
echo
BIG_APPS=${BIG_APPS:-hello bcast_rd allreduce_ring}
printf "%-16s %-8s %10s %14s %18s\n" app dims wall_s sim_time_ns "peak_host_MiB"
for app in $BIG_APPS; do
  [ "${BIG:-1}" = 0 ] && break
  base=$(awk '/MemAvailable/{print int($2/1024)}' /proc/meminfo)
  args=len=4096; [ "$app" = hello ] && args=
  "$WORMSIM" --kernel "$KERNEL" --runs-dir "$TMP/runs" --app "$app" --dims 32x32 --args "$args" > "$TMP/out" 2>&1 &
  pid=$!; low=$base
  while kill -0 $pid 2>/dev/null; do
    a=$(awk '/MemAvailable/{print int($2/1024)}' /proc/meminfo); [ "$a" -lt "$low" ] && low=$a; sleep 0.5
  done
  wait $pid; rc=$?
  if [ $rc != 0 ]; then echo "$app on 32x32: exit $rc: $(grep -m1 wormsim: "$TMP/out")"; rm -rf "$TMP/runs"; continue; fi
  d=$TMP/runs/latest/summary.json
  printf "%-16s %-8s %10.1f %14s %18s\n" "$app" 32x32 "$(jq .wall_s "$d")" "$(jq .sim_time_ns "$d")" "$((base - low))"
  rm -rf "$TMP/runs"
done
echo "(one run each; peak_host_MiB: the largest drop in MemAvailable during the run)"

# Merged nodes (--merge-pages, docs/scale.md, Memory per host; MERGE=0
# skips it; it needs the kernel's samepage merging running, which this
# bench does not switch on, at a pages_to_scan that keeps up, 2000): what 1024 idle ARM nodes of a pool hold once
# merged, after hello (target: 8 MiB a node), and 2048 nodes on this host
# running bcast_rd len=1024, its wall time and the largest drop in
# MemAvailable (target: it runs, every node verified).
echo
if [ "${MERGE:-1}" != 0 ] && [ "$(cat /sys/kernel/mm/ksm/run 2>/dev/null)" = 1 ]; then
  P=benchmerge-$$
  pool_start "$P"
  echo "(ksmd scans $(cat /sys/kernel/mm/ksm/pages_to_scan) pages every $(cat /sys/kernel/mm/ksm/sleep_millisecs) ms)"
  if "$WORMSIM" --pool "$P" --merge-pages --kernel "$KERNEL" --runs-dir "$TMP/runs" --app hello --nodes 1024 > "$TMP/out" 2>&1; then
    held=$(tests/pool-memory.sh $pp --settled)
    printf "%-46s %14s %12s\n" "1024 idle merged ARM nodes, MiB a node" "$(awk -v h="$held" 'BEGIN { printf "%.2f", h / 1024 }')" "8"
  else
    echo "hello on 1024 merged nodes failed: $(grep -m1 wormsim: "$TMP/out")"
  fi
  kill -TERM $pp; wait $pp; rm -rf "$TMP/runs"
  base=$(awk '/MemAvailable/{print int($2/1024)}' /proc/meminfo)
  "$WORMSIM" --merge-pages --kernel "$KERNEL" --runs-dir "$TMP/runs" --app bcast_rd --nodes 2048 --args len=1024 > "$TMP/out" 2>&1 &
  pid=$!; low=$base
  while kill -0 $pid 2>/dev/null; do
    a=$(awk '/MemAvailable/{print int($2/1024)}' /proc/meminfo); [ "$a" -lt "$low" ] && low=$a; sleep 0.5
  done
  wait $pid; rc=$?
  printf "%-46s %14s %12s\n" "2048 merged nodes, bcast_rd len=1024" \
    "$([ $rc = 0 ] && echo "ok, $(jq -r '.wall_s | floor' "$TMP/runs/latest/summary.json") s" || echo "exit $rc")" "runs"
  echo "(2048 nodes: largest drop in MemAvailable $((base - low)) MiB of $base; $(grep -m1 'wormsim:' "$TMP/out" || echo "no message"))"
  rm -rf "$TMP/runs"
else
  echo "merged nodes: not measured (MERGE=0, or the kernel's samepage merging is not running: as root, echo 1 > /sys/kernel/mm/ksm/run)"
fi

# The speed targets (docs/scale.md), each figure beside its goal:
#   - the router's CPU per message of a warm 16x16 alltoall_pex len=1024
#     (a pool of 256 nodes, one run to fill it, then REPEAT; median), and
#     the network model's part of it (netsim --replay of each run);
#   - Thakur's 512-node PEX at 16 KB (a 32x16 mesh, --preset delta), as the
#     sweep runs it, warm (one run fills the pool, the second is timed): its wall
#     time and the router's CPU per message;
#   - the Thakur sweep and make reproduce as stored: the sessions of each
#     sweep's timing.csv (results/NAME, the sessions that made its
#     stored rows: experiments/sweep.sh), summed;
#   - the start floor: a cold 64-node alltoall_pex len=1024 over a cold
#     64-node hello, REPEAT pairs run in turn (median of the ratios).
echo
if [ "${TARGETS:-1}" != 0 ]; then
  printf "%-46s %14s %12s\n" figure measured target
  # The network model's CPU a message on run directory $1's messages
  # (netsim --replay), or nan, said, if they did not replay at their times.
  replay_us() {
    local j; j=$("$NETSIM" --replay "$1" --json 2>&1)
    if [ "$(jq -r '.as_recorded == .messages' <<< "$j" 2>/dev/null)" = true ]; then
      jq -r '.engine_cpu_s / .messages * 1e6' <<< "$j"
    else echo "netsim --replay of $1 failed: $j" >&2; echo nan; fi
  }
  # pool_cell name nodes args...: a pool, one run to fill it, then
  # $REPEAT_CELL timed runs; prints "wall_s router_us_per_msg model_us_per_msg"
  # of each, the last the network model's own CPU on the run's messages
  # (netsim --replay: the router's CPU less descriptors, interrupts and copies)
  pool_cell() {
    local P=benchtg-$$-$1 n=$2 pp k; shift 2
    pool_start "$P"
    for k in $(seq 0 "$REPEAT_CELL"); do
      "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$TMP/runs" --nodes "$n" --timeout 3000 "$@" > "$TMP/out" 2>&1 ||
        { echo "run failed: $* ($(head -3 "$TMP/out"))" >&2; break; }
      [ "$k" = 0 ] || echo "$(jq -r '"\(.wall_s) \(.engine.router_cpu_s / .messages * 1e6)"' "$TMP/runs/latest/summary.json") $(
        replay_us "$TMP/runs/latest")"
      rm -rf "$TMP/runs"
    done
    kill -TERM $pp; wait $pp
  }
  REPEAT_CELL=$REPEAT
  pool_cell a2a 256 --app alltoall_pex --args len=1024 > "$TMP/cell"
  printf "%-46s %11.1f us %12s\n" "router CPU a message, 16x16 pex 1 KB, warm" "$(awk '{ print $2 }' "$TMP/cell" | median)" "<= 10 us"
  printf "%-46s %11.1f us\n" "  of it the network model (netsim --replay)" "$(awk '{ print $3 }' "$TMP/cell" | median)"
  REPEAT_CELL=1
  # (into a file, not read from a process substitution: the pool's end, 512
  # QEMUs stopping, would go on beside the floor's runs below)
  pool_cell thakur 512 --app alltoall_pex --topo mesh --dims 32x16 --preset delta --args len=16384 > "$TMP/cell"
  read -r w us model < "$TMP/cell"
  printf "%-46s %12.1f s %12s\n" "Thakur 32x16 PEX 16 KB, warm, wall" "${w:-0}" "<= 15 s"
  printf "%-46s %11.1f us %12s\n" "  its router CPU a message" "${us:-0}" "<= 20 us"
  printf "%-46s %11.1f us\n" "  of it the network model (netsim --replay)" "${model:-0}"
  stored_min() { local s t=0; for s in "$@"; do [ -s "results/$s/timing.csv" ] &&
    t=$((t + $(awk -F, 'NR > 1 { e += $5 } END { print e + 0 }' "results/$s/timing.csv"))); done; echo "$t"; }
  printf "%-46s %10.1f min %12s\n" "make sweep SWEEP=thakur, as stored" "$(awk -v s="$(stored_min thakur)" 'BEGIN { print s / 60 }')" "<= 15 min"
  printf "%-46s %10.1f min %12s\n" "make reproduce, as stored" \
    "$(awk -v s="$(stored_min $(sed -n 's/^REPRODUCE *?= *//p' Makefile))" 'BEGIN { print s / 60 }')" "<= 30 min"
  ratios=""
  for k in $(seq "$REPEAT"); do
    t0=$(date +%s.%N); "$WORMSIM" --kernel "$KERNEL" --runs-dir "$TMP/runs" --app alltoall_pex --nodes 64 --args len=1024 > /dev/null 2>&1
    t1=$(date +%s.%N); "$WORMSIM" --kernel "$KERNEL" --runs-dir "$TMP/runs" --app hello --nodes 64 > /dev/null 2>&1
    t2=$(date +%s.%N); rm -rf "$TMP/runs"
    ratios+="$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.3f", (b - a) / (c - b) }')"$'\n'
  done
  printf "%-46s %14.2f %12s\n" "start floor: cold 64-node pex 1 KB / hello" "$(printf '%s' "$ratios" | median)" "<= 1.10"
  echo "(medians of $REPEAT where repeated; the Thakur cell one warm run)"
fi

# The soak: SOAK_RUNS (default 1000) runs of faults, hangs, deadlocks, bad
# descriptors and signals; what each ended with and what was left behind.
echo
[ "${SOAK_RUNS:-1000}" = 0 ] || WORMSIM=$WORMSIM KERNEL=$KERNEL KERNEL_RISCV=$KERNEL_RISCV tests/soak.sh
# The pool soak: SOAK_POOL_RUNS (default 1000) runs on one pool, hostile
# programs between normal ones, each normal one against its cold twin.
echo
[ "${SOAK_POOL_RUNS:-1000}" = 0 ] || WORMSIM=$WORMSIM KERNEL=$KERNEL KERNEL_RISCV=$KERNEL_RISCV tests/soak-pool.sh
