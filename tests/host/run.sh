#!/usr/bin/env bash
# Host tools without QEMU: netsim (the interconnect on synthetic traffic),
# wormsim's refusals of bad input, which come before any node starts, and
# make heatmap's refusals of a RUN it cannot draw.
set -u
cd "$(dirname "$0")/../.."
NETSIM=${NETSIM:-build/host/netsim}
WORMSIM=${WORMSIM:-build/host/wormsim}
TMP=$(mktemp -d /tmp/wormsim-host.XXXXXX); trap 'rm -rf "$TMP"' EXIT
RUNS=$TMP/runs
. tests/harness.sh
. tests/doc-figures.sh
ns() { "$NETSIM" --json "$@"; }
field() { jq -r "$1" "$TMP/j"; }

# At a light load almost nothing contends: the mean latency of uniform
# traffic on an 8x8 torus is close to the uncontended one, which is
# (mean hops x hop + flits) cycles: 4 hops on average (0..4 per dimension,
# mean 2 each, with 1/63 weight for self excluded) and 8 flits.
# A packet a node would send itself is not sent: at rate 0.2 on 4 nodes,
# uniform traffic generates 0.15 flits per node per cycle, and all of it
# is accepted (JSON generated and accepted). JSON's reals have 15
# significant digits: an offered load reads as given.
generated_is_what_was_offered() {
  ns --dims 2x2 --rate 0.2 --cycles 40000 > "$TMP/j"; expect '[ $? = 0 ]'
  expect 'awk "BEGIN { exit !($(field .generated) > 0.14 && $(field .generated) < 0.16) }"' "generated $(field .generated)"
  expect 'awk "BEGIN { d = $(field .accepted) - $(field .generated); exit !(d < 0.005 && d > -0.005) }"' "$(cat "$TMP/j")"
  expect 'grep -q "\"offered\":0.2," "$TMP/j"' "$(cat "$TMP/j")"
  # a sweep's loads as given, not the 17 digits of their nearest doubles
  ns --dims 2x2 --sweep 0.1:0.3:0.1 --cycles 2000 > "$TMP/j"; expect '[ $? = 0 ]'
  expect '[ "$(grep -o "\"offered\":[^,]*" "$TMP/j" | tr "\n" " ")" = "\"offered\":0.1 \"offered\":0.2 \"offered\":0.3 " ]' "$(cat "$TMP/j")"
}
low_load_latency_is_near_uncontended() {
  ns --dims 8x8 --rate 0.01 --cycles 20000 > "$TMP/j"; expect '[ $? = 0 ]'
  expect 'awk "BEGIN { exit !($(field .mean_latency) > 11.5 && $(field .mean_latency) < 13.5) }"' "mean $(field .mean_latency)"
  expect 'awk "BEGIN { exit !($(field .accepted) > 0.008 && $(field .accepted) < 0.012) }"'
}
accepted_follows_offered_until_saturation() {
  ns --dims 8x8 --rate 0.1 --cycles 5000 > "$TMP/j"
  expect 'awk "BEGIN { exit !($(field .accepted) > 0.09) }"'
  expect '[ "$(field .saturated)" = false ]'
  ns --dims 8x8 --rate 0.9 --cycles 3000 --warmup 500 > "$TMP/j"
  expect 'awk "BEGIN { exit !($(field .accepted) < 0.6) }"' "accepted $(field .accepted) at 0.9 offered"
  # past saturation though its long drain empties the network
  expect '[ "$(field .saturated)" = true ]' "$(cat "$TMP/j")"
  # a window of a few long packets, all delivered in the drain: one more
  # in flight at the window's end than at its start is no saturation
  ns --dims 4x4 --len 4096 --rate 0.05 --cycles 3000 --seed 2 > "$TMP/j"
  expect '[ "$(field .packets)" -lt 100 ] && [ "$(field .saturated)" = false ]' "$(cat "$TMP/j")"
}
same_seed_same_result() {
  ns --dims 4x4 --rate 0.3 --pattern hotspot --seed 7 | jq -c 'del(.wall_s, .flit_hops_per_s, .router_cycles_per_s)' > "$TMP/a"
  ns --dims 4x4 --rate 0.3 --pattern hotspot --seed 7 | jq -c 'del(.wall_s, .flit_hops_per_s, .router_cycles_per_s)' > "$TMP/b"
  ns --dims 4x4 --rate 0.3 --pattern hotspot --seed 8 | jq -c 'del(.wall_s, .flit_hops_per_s, .router_cycles_per_s)' > "$TMP/c"
  expect 'cmp -s "$TMP/a" "$TMP/b"'
  expect '! cmp -s "$TMP/a" "$TMP/c"'
}
every_pattern_runs() {
  for p in uniform transpose bitcomp bitrev tornado hotspot neighbor; do
    ns --dims 4x4 --pattern $p --rate 0.1 --cycles 2000 > "$TMP/j"; expect '[ $? = 0 ]' "$p"
    expect '[ "$(field .packets)" -gt 0 ]' "$p"
  done
  # bit complement on 16 nodes sends (x, y) to (3 - x, 3 - y): on a 4x4
  # torus one hop per dimension either way round, so 2 hops + 8 flits = 10;
  # on a 4x4 mesh x moves |3 - 2x| (3 or 1) and y too: the median is 4 + 8
  ns --dims 4x4 --pattern bitcomp --rate 0.01 --cycles 4000 > "$TMP/j"
  expect '[ "$(field .p50_latency)" = 10 ]' "p50 $(field .p50_latency)"
  ns --topo mesh --dims 4x4 --pattern bitcomp --rate 0.01 --cycles 4000 > "$TMP/j"
  expect '[ "$(field .p50_latency)" = 12 ]' "p50 $(field .p50_latency) max $(field .max_latency)"
}
sweep_prints_a_curve() {
  "$NETSIM" --dims 4x4 --sweep 0.05:0.25:0.1 --cycles 1000 > "$TMP/s"; expect '[ $? = 0 ]'
  expect '[ "$(grep -c "^ *0\.[0-9]" "$TMP/s")" = 3 ]' "$(cat "$TMP/s")"
}
# Fair arbitration holds throughput past saturation (docs/network.md
# "Arbitration"): over a sweep to offered load 1.0, the accepted throughput
# at 1.0 is within 10% of the sweep's peak, for uniform and transpose
# traffic on 8x8 and 16x16 tori with the default network. Fixed priority
# collapses on transpose (0.69 of peak on 8x8); round robin alone drops to
# 0.80 on 16x16 uniform with hop_cycles=3 buf_flits=8, where age holds.
# peak_and_share PATTERN DIMS [--set ...]: the sweep's peak accepted
# throughput and the accepted at 1.0 / that peak
peak_and_share() {
  local pat=$1 dims=$2; shift 2
  ns --dims "$dims" --pattern "$pat" --sweep 0.1:1.0:0.1 --cycles 5000 "$@" > "$TMP/sw" || return 1
  expect '[ "$(jq -s length "$TMP/sw")" = 10 ] && [ "$(jq -s ".[-1].offered" "$TMP/sw")" = 1 ]' "$(cat "$TMP/sw")"
  jq -rs '(map(.accepted) | max) as $m | "\($m) \(.[-1].accepted / $m)"' "$TMP/sw"
}
share_at_full_load() { peak_and_share "$@" | cut -d' ' -f2; }   # PATTERN DIMS [--set ...]
throughput_holds_past_saturation() {
  local d p s
  for d in 8x8 16x16; do
    for p in uniform transpose; do
      s=$(share_at_full_load $p $d); expect '[ -n "$s" ] && awk "BEGIN { exit !($s >= 0.9) }"' "$p $d: $s of peak at 1.0"
    done
  done
  s=$(share_at_full_load transpose 8x8 --set alloc=fixed)
  expect 'awk "BEGIN { exit !($s < 0.9) }"' "fixed priority held transpose at $s of peak: the check cannot tell"
  s=$(share_at_full_load uniform 16x16 --set 'alloc=age hop_cycles=3 buf_flits=8')
  expect 'awk "BEGIN { exit !($s >= 0.9) }"' "age: uniform 16x16 at $s of peak"
}
# Every routing function under every selection at offered load 1.0, far
# past saturation, with the stall check on: none deadlocks, and each
# accepts a share of the load. Duato's routing on an 8x8 mesh deadlocked
# here while a head could take an adaptive VC still holding another
# worm's tail (net_state.h, net_vc_free).
adaptive_routings_survive_saturation() {
  local cfg sel out rc
  for cfg in "mesh 8x8 west_first 2" "mesh 8x8 north_last 2" "mesh 8x8 negative_first 2" "mesh 8x8 odd_even 2" \
             "mesh 8x8 duato 2" "mesh 6x6 valiant 2" "torus 8x8 duato 3" "torus 6x6 valiant 4" \
             "hypercube 2x2x2x2x2x2 duato 2" "fattree 4x4x4 adaptive_up 2" "dragonfly 2x4x9 valiant 3" \
             "dragonfly 2x4x9 ugal 3"; do
    set -- $cfg
    for sel in first least_used random; do
      [ $3/$sel = valiant/random ] && continue    # one output a hop: as first (refused)
      out=$("$NETSIM" --json -t $1 -d $2 -r 1.0 --warmup 1000 --cycles 3000 --set "routing=$3 vcs=$4 selection=$sel" 2>&1)
      rc=$?
      expect '[ $rc = 0 ] && [ "$(echo "$out" | jq -r ".accepted > 0.1")" = true ]' "$cfg $sel: exit $rc: $out"
    done
  done
}
# --burst: the same digest (every time and counter) jumping, stepping and
# checked; a 16 KB burst jumps over most of its flit moves.
burst_is_the_same_jumping_or_stepping() {
  for a in "--dims 8x8 --pattern bitcomp" "--topo mesh --dims 6x6 --pattern transpose --set hop_cycles=3" \
           "--topo hypercube --nodes 32 --pattern uniform" "--dims 4x4x4 --pattern neighbor --set nic_cycles=2" \
           "--topo hypercube --nodes 64 --pattern uniform --set vcs=12"; do   # (7 x 12 input VCs: no busy masks)
    ns $a --burst 2 --len 16384 > "$TMP/j"; expect '[ $? = 0 ]' "$a"
    local d; d=$(field .digest)
    expect '[ "$(field .moves_jumped)" -gt $(( $(field .moves) / 2 )) ]' "$a: $(cat "$TMP/j")"
    ns $a --burst 2 --len 16384 --no-jump > "$TMP/j"
    expect '[ "$(field .digest)" = "$d" ] && [ "$(field .cycles_jumped)" = 0 ] && [ "$(field .moves_jumped)" = 0 ]' "$a: $(cat "$TMP/j")"
    ns $a --burst 2 --len 16384 --check-jump > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .digest)" = "$d" ]' "$a"
  done
}
# Heads that park on the link of a frozen part while it is frozen (net_jump.h,
# park_counts): under 16x16 bursts many wait so, and the link's blocked
# cycles must come out as stepping counts them, whichever of the jump, the
# catch-up after it, or the closed form of the parked heads counts them.
heads_parking_at_frozen_parts_count_alike() {
  for a in "--pattern bitcomp --burst 4 --len 2048" "--pattern uniform --burst 4 --len 2048" \
           "--pattern uniform --burst 8 --len 16384" "--topo mesh --pattern transpose --burst 4 --len 4096"; do
    ns --dims 16x16 $a > "$TMP/j"; expect '[ $? = 0 ]' "$a"
    local d; d=$(field .digest)
    ns --dims 16x16 $a --no-jump > "$TMP/j"; expect '[ "$(field .digest)" = "$d" ]' "$a: $(cat "$TMP/j")"
  done
}
# A part of the network that becomes periodic only after a transient (heads
# still being routed when it is first recorded) is recorded again until its
# period shows (net_jump.h, Brent): an 8x8 bitcomp burst of 16 KB worms
# steps 315 of its 34,820 cycles; compared with its first record only, 1,290.
a_part_that_settles_late_is_jumped() {
  ns --dims 8x8 --pattern bitcomp --burst 8 --len 16384 > "$TMP/j"; expect '[ $? = 0 ]'
  expect '[ "$(field .cycles)" = 34820 ] && [ "$(field .cycles_stepped)" -lt 600 ]' "$(cat "$TMP/j")"
}
bad_input() {
  "$NETSIM" --burst 0 > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "burst .0. is not a whole number from 1 to 1000000" "$TMP/e"' "$(cat "$TMP/e")"
  "$NETSIM" --burst 2 --sweep 0.1:0.2:0.1 > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "burst and --sweep do not go together" "$TMP/e"'
  "$NETSIM" --set alloc=lottery > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "alloc .lottery. is unknown; accepted: round-robin, age, fixed, output-first" "$TMP/e"' "$(cat "$TMP/e")"
  "$NETSIM" --pattern zigzag > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "unknown pattern .zigzag.; accepted: uniform, transpose, bitcomp" "$TMP/e"'
  "$NETSIM" --rate 1.5 > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "rate .1.5. is not a number from 0 to 1" "$TMP/e"'
  # a pattern not defined on the machine: the message names the machine and
  # the patterns that run on it
  "$NETSIM" --dims 3x3 --pattern bitrev > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "^netsim: pattern bitrev needs a power-of-two node count, and torus 3x3 has 9 nodes; accepted here: uniform, transpose, tornado, hotspot, neighbor$" "$TMP/e"' "$(cat "$TMP/e")"
  "$NETSIM" --topo mesh --dims 3x5 --pattern transpose > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "^netsim: pattern transpose needs a power-of-two node count or a square 2D shape, and mesh 3x5 has 15 nodes, not in a square; accepted here: uniform, tornado, hotspot, neighbor$" "$TMP/e"' "$(cat "$TMP/e")"
  "$NETSIM" --sweep 0.5:0.1:0.1 > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  "$NETSIM" --set vcs=1 > "$TMP/e" 2> "$TMP/e2"; expect '[ $? = 2 ]'
  expect 'grep -q "at least 2 virtual channels" "$TMP/e2"'
  expect '[ ! -s "$TMP/e" ]' "a refused network printed: $(cat "$TMP/e")"
  local sets=(); for i in $(seq 299); do sets+=(--set vcs=2); done   # the 300th --set is applied last
  "$NETSIM" "${sets[@]}" --set vcs=1 > "$TMP/e" 2> "$TMP/e2"; expect '[ $? = 2 ]'
  expect 'grep -q "at least 2 virtual channels" "$TMP/e2"' "$(cat "$TMP/e2")"
  # a torus's option on another topology is refused, not ignored
  "$NETSIM" --topo mesh --dims 4x4 --set unidirectional=1 > "$TMP/e" 2> "$TMP/e2"; expect '[ $? = 2 ]'
  expect 'grep -q "unidirectional = 1 applies to a torus only, not a mesh (accepted here: 0)" "$TMP/e2"' "$(cat "$TMP/e2")"
  expect '[ ! -s "$TMP/e" ]' "$(cat "$TMP/e")"
}

# netsim_refuses ARGS... -- REGEX: exit 2 with the message on stderr, nothing on stdout
netsim_refuses() {
  local args=() msg
  while [ "$1" != -- ]; do args+=("$1"); shift; done; msg=$2
  timeout -k 5 20 "$NETSIM" "${args[@]}" > "$TMP/e" 2> "$TMP/e2"; local rc=$?
  expect '[ $rc = 2 ]' "${args[*]}: exit $rc: $(head -c 600 "$TMP/e2") $(head -c 300 "$TMP/e")"
  expect 'grep -Eq -- "$msg" "$TMP/e2"' "${args[*]}: $(head -c 600 "$TMP/e2")"
  expect '[ ! -s "$TMP/e" ]' "${args[*]}: printed $(head -c 300 "$TMP/e")"
}
# A pattern that gives every node itself as destination sends nothing (a
# packet a node would send itself is not sent): tornado moves (k+1)/2 - 1
# along a dimension of k, none on a hypercube; such a run printed a row of
# zeros. The refusal names the patterns that do send on that machine.
patterns_with_no_traffic_are_refused() {
  netsim_refuses --topo hypercube --nodes 16 --pattern tornado -- \
    "^netsim: pattern tornado on hypercube 2x2x2x2 gives every node itself as destination, and a packet a node would send itself is not sent: no traffic; accepted: uniform, transpose, bitcomp, bitrev, hotspot, neighbor$"
  netsim_refuses --dims 2x2 --pattern tornado --sweep 0.1:0.2:0.1 -- "^netsim: pattern tornado on torus 2x2 gives every node itself"
  netsim_refuses --topo hypercube --nodes 2 --pattern bitrev -- "no traffic; accepted: uniform, bitcomp, hotspot, neighbor$"
  netsim_refuses --nodes 1 -- "^netsim: pattern uniform on torus 1x1 .*no traffic; accepted: a machine of 2 nodes or more$"
  # one dimension of 2 is enough to stay, the others move
  ns --dims 4x2 --pattern tornado --cycles 2000 > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .packets)" -gt 0 ]' "$(cat "$TMP/j")"
}
# A burst follows the rule of every netsim run: a packet a node would send
# itself is not sent (the burst sent it through the node's own router).
# Transpose on a 4x4 torus maps the 4 nodes of the diagonal onto
# themselves, so a burst of 1 sends 12 packets; hotspot with --hot-frac 1
# on 2x2 sends node 0 nothing of its own and every other node's 2 to node
# 0: 6; tornado on a hypercube maps every node onto itself: refused.
burst_sends_no_packet_to_itself() {
  ns --dims 4x4 --pattern transpose --burst 1 > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .packets)" = 12 ]' "$(cat "$TMP/j")"
  ns --dims 2x2 --pattern hotspot --hot-frac 1 --burst 2 > "$TMP/j"
  expect '[ $? = 0 ] && [ "$(field .packets)" = 6 ]' "$(cat "$TMP/j")"
  netsim_refuses --topo hypercube --nodes 16 --pattern tornado --burst 2 -- \
    "^netsim: pattern tornado on hypercube 2x2x2x2 gives every node itself as destination, and a packet a node would send itself is not sent: no traffic; accepted: "
  netsim_refuses --nodes 1 --burst 1 -- "no traffic; accepted: a machine of 2 nodes or more$"
}
# A run that measured no packet has no latency: JSON null and '-' in the
# table, not 0 (a latency no packet can have: every packet crosses at
# least one link). At offered load 0 no packet is created.
no_packet_no_latency() {
  ns --dims 4x4 --rate 0 --cycles 1000 > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .packets)" = 0 ]' "$(cat "$TMP/j")"
  expect '[ "$(jq -c "[.mean_latency, .p50_latency, .p99_latency, .max_latency]" "$TMP/j")" = "[null,null,null,null]" ]' "$(cat "$TMP/j")"
  "$NETSIM" --dims 4x4 --rate 0 --cycles 1000 > "$TMP/t"; expect '[ $? = 0 ]'
  expect '[ "$(awk "!/^#/ && \$1 != \"offered\" { print \$3, \$4, \$5, \$6, \$7 }" "$TMP/t")" = "- - - - 0" ]' "$(cat "$TMP/t")"
}
# netsim runs no nodes: a packet enters the network when it is created,
# so a node's parameter (a send's start-up, the CPU's speed, the largest
# message, the fetch-and-increment delay) would change nothing; --set
# refuses it, naming the keys that do count. A preset may hold them.
set_takes_network_keys_only() {
  local k
  for k in t_send_ns=100000 cpu_ps=5 msg_max=16 fi_ns=9; do
    netsim_refuses --dims 4x4 --set "vcs=4 $k" -- \
      "^netsim: --set ${k%=*}: netsim runs no nodes .*; accepted: flit_bytes byte_ps hop_cycles vcs .* port_model$"
  done
  ns --dims 4x4 --preset delta --cycles 200 > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .packets)" -gt 0 ]' "$(cat "$TMP/j")"
  ns --dims 4x4 --set 'vcs=4 t_send_ns=500' --cycles 200 > "$TMP/j"; expect '[ $? = 0 ]' "the default value changes nothing"
}
# The table's header names the node interface the run had: ports = k
# gives every node k injection and ejection channels whatever the port
# model (docs/network.md, the port model), a k-port node; the header said
# one-port (or all-port) whatever ports was.
header_names_the_ports() {
  local a set
  for a in ":one-port" "port_model=all-port:all-port" "ports=2:2-port" "port_model=all-port ports=1:1-port"; do
    set=${a%%:*}
    "$NETSIM" --dims 4x4 --cycles 100 ${set:+--set "$set"} > "$TMP/t"; expect '[ $? = 0 ]' "$a"
    expect 'head -1 "$TMP/t" | grep -q ", wormhole, ${a#*:}, "' "$a: $(head -1 "$TMP/t")"
  done
}
# A latency-load curve says which routing made it, in the table's header
# and in each JSON object: runs compared across routings printed the same
# header and JSON keys whatever routing= said.
netsim_names_its_routing() {
  local a set
  for a in ":routing deterministic;" "routing=west_first:routing west_first;" \
           "routing=duato selection=random:routing duato selection random;"; do
    set=${a%%:*}
    "$NETSIM" --topo mesh --dims 4x4 --cycles 100 ${set:+--set "$set"} > "$TMP/t"; expect '[ $? = 0 ]' "$a"
    expect 'head -1 "$TMP/t" | grep -q "x 4 flits, ${a#*:} latency"' "$a: $(head -1 "$TMP/t")"
  done
  ns --topo mesh --dims 4x4 --cycles 100 --set 'routing=odd_even selection=least_used' > "$TMP/j"
  expect '[ "$(field .routing)/$(field .selection)" = odd_even/least_used ]' "$(cat "$TMP/j")"
}
# An empty --preset is the built-in parameters, in netsim as in wormsim
# (a sweep's 'preset =' reaches both): netsim looked for presets/.conf.
empty_preset_is_the_built_in() {
  ns --nodes 16 --cycles 2000 > "$TMP/a"; ns --nodes 16 --cycles 2000 --preset '' > "$TMP/j"; local rc=$?
  local keep='del(.wall_s, .flit_hops_per_s, .router_cycles_per_s, .engine_cpu_s)'   # (host timings)
  expect '[ $rc = 0 ] && [ "$(jq -c "$keep" "$TMP/a")" = "$(jq -c "$keep" "$TMP/j")" ]' "rc $rc: $(cat "$TMP/j")"
}
# A decimal option is a finite number in its range: NaN passed every
# comparison, and a run at rate NaN printed a header and no rows.
decimals_are_finite() {
  local v
  for v in nan -nan inf; do
    netsim_refuses --rate $v -- "^netsim: --rate '$v' is not a number from 0 to 1$"
    netsim_refuses --json --rate $v -- "^netsim: --rate '$v' is not a number from 0 to 1$"
    netsim_refuses --hot-frac $v --pattern hotspot -- "^netsim: --hot-frac '$v' is not a number from 0 to 1$"
  done
  for v in nan:0.2:0.1 0.1:nan:0.1 0.1:0.2:nan 0.1:0.2:inf 0.1:0.2:0.1x 0.1:0.2 0.1:0.2:0.1:0.1; do
    netsim_refuses --sweep $v -- "^netsim: --sweep '$v' is not A:B:S with 0 <= A <= B <= 1 and S > 0$"
  done
  # a sweep of more rates than 0:1:0.001 gives would run (nearly) for ever
  netsim_refuses --sweep 0:1:1e-300 -- "^netsim: --sweep '0:1:1e-300' gives 1e\+300 rates; at most 1001 \(a larger step S\)$"
  netsim_refuses --sweep 0:1:0.0009 -- "^netsim: --sweep '0:1:0.0009' gives 1112 rates; at most 1001 \(a larger step S\)$"
}

# netsim's whole numbers are those of every option (apps/number.h):
# decimal, or hexadecimal after 0x; --len 010 ran with 8-byte packets.
netsim_numbers_are_not_octal() {
  local v hint="\(decimal without a leading 0, or hexadecimal after 0x\)$"
  for v in 010 09 00; do
    netsim_refuses --dims 4x4 --len $v -- "^netsim: --len '$v' is not a whole number from 0 to 1048576 $hint"
  done
  netsim_refuses --burst 01 -- "^netsim: --burst '01' is not a whole number from 1 to 1000000 $hint"
  netsim_refuses --len +5 -- "^netsim: --len '\+5' is not a whole number from 0 to 1048576$"
  ns --dims 2x2 --burst 1 --len 0x10 > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .len)" = 16 ]' "$(cat "$TMP/j")"
  ns --dims 2x2 --burst 1 --len 10 > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .len)" = 10 ]' "$(cat "$TMP/j")"
  ns --dims 2x2 --burst 1 --len 0 > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .len)" = 0 ]' "$(cat "$TMP/j")"
}

# --replay takes a run directory: a missing one is named as wormsim
# --replay names it (not as a parameter file it lacks), and a directory
# that is not a run's says which of the run's files it has not.
replay_needs_a_run_directory() {
  netsim_refuses --replay "$TMP/nosuch" -- "^netsim: --replay: no run directory '$TMP/nosuch': No such file or directory$"
  : > "$TMP/plain"
  netsim_refuses --replay "$TMP/plain" -- "^netsim: --replay: '$TMP/plain' is not a run directory: it is not a directory$"
  mkdir -p "$TMP/notrun"
  netsim_refuses --replay "$TMP/notrun" -- \
    "^netsim: --replay: '$TMP/notrun' is not a run directory \(.*\): it has no summary.json, params.conf, messages.csv, links.csv$"
  : > "$TMP/notrun/params.conf"; : > "$TMP/notrun/summary.json"
  netsim_refuses --replay "$TMP/notrun" -- "is not a run directory \(.*\): it has no messages.csv, links.csv$"
  local build=${NETSIM%/host/netsim}
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 120 make -s net-replay BUILD="$build" RUN="$TMP/nosuch" > "$TMP/m" 2>&1
  local rc=$?
  expect '[ $rc = 2 ] && grep -q "^netsim: --replay: no run directory .$TMP/nosuch.: No such file or directory$" "$TMP/m"' \
         "$(cat "$TMP/m")"
}

# --help names every topology the parser accepts (its refusal lists them)
# and the node count a machine gets without --nodes or --dims (a burst
# of 1 under neighbor traffic sends one packet a node), a
# dragonfly's included, for netsim and wormsim alike.
usage_lists_every_topology() {
  "$NETSIM" --topo nosuch > /dev/null 2> "$TMP/e2"
  local names; names=$(sed -n "s/.*unknown topology 'nosuch'; accepted: //p" "$TMP/e2" | tr -d ,)
  expect '[ "$(echo $names | wc -w)" -ge 6 ]' "$(cat "$TMP/e2")"
  "$NETSIM" --help > "$TMP/hn"; "$WORMSIM" --help > "$TMP/hw"
  local h n
  for h in "$TMP/hn" "$TMP/hw"; do
    expect '[ "$(grep -- "--topo KIND" "$h" | sed "s/.*KIND *//; s/ (default.*//; s/ | / /g")" = "$names" ]' \
           "$(grep -- "--topo KIND" "$h") -- accepted: $names"
  done
  local topo said
  for n in "torus:(default" "dragonfly:, a dragonfly"; do
    topo=${n%%:*}; said=${n#*:}
    ns --topo $topo --pattern neighbor --burst 1 > "$TMP/j"; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/j")"
    for h in "$TMP/hn" "$TMP/hw"; do
      expect 'grep -- "--nodes N" "$h" | grep -qF "$said $(field .packets)"' \
             "$topo runs $(field .packets) nodes: $(grep -- "--nodes N" "$h")"
    done
  done
}

# An option the run would not use is refused, naming both options: a
# burst's load is fixed (no rate, warm-up or window), a sweep gives every
# rate, and only hotspot traffic has a hot fraction. Each ran before,
# the option ignored.
ignored_options_are_refused() {
  local o why="\(a burst is M packets a node at cycle 0, run until all are delivered\)$"
  for o in "--rate 0.2" "--warmup 10" "--cycles 100" "--sweep 0.1:0.2:0.1"; do
    netsim_refuses --dims 2x2 --burst 1 $o -- "^netsim: --burst and ${o% *} do not go together $why"
  done
  netsim_refuses --dims 2x2 --rate 0.2 --sweep 0.1:0.2:0.1 -- "^netsim: --rate and --sweep do not go together"
  netsim_refuses --dims 2x2 --hot-frac 0.5 -- \
    "^netsim: --hot-frac and --pattern uniform do not go together \(--hot-frac is for --pattern hotspot\)$"
  netsim_refuses --dims 2x2 --hot-frac 0.5 --pattern tornado -- "^netsim: --hot-frac and --pattern tornado do not go together"
  ns --dims 2x2 --pattern hotspot --hot-frac 0.5 --burst 2 > "$TMP/j"; expect '[ $? = 0 ] && [ "$(field .packets)" -gt 0 ]' "$(cat "$TMP/j")"
  # a burst draws only destinations, and a permutation draws none: --seed
  # changed nothing there (it does under uniform traffic, below)
  local p
  for p in bitcomp transpose tornado neighbor bitrev; do
    netsim_refuses --dims 4x4 --pattern $p --burst 2 --seed 3 -- \
      "^netsim: --burst, --seed and --pattern $p do not go together \(a burst draws only destinations, and $p draws none; "
  done
  ns --dims 4x4 --burst 2 --seed 3 > "$TMP/j"; local d; d=$(field .digest)
  ns --dims 4x4 --burst 2 --seed 4 > "$TMP/j"; expect '[ "$(field .digest)" != "$d" ]' "uniform: the seed counts"
  # each sets the engine's mode: given both, the last won and the other was dropped
  netsim_refuses --dims 2x2 --no-jump --check-jump -- "^netsim: --no-jump and --check-jump do not go together"
  netsim_refuses --dims 2x2 --burst 1 --check-jump --no-jump -- "^netsim: --no-jump and --check-jump do not go together"
  netsim_refuses --replay "$TMP" --check-jump --no-jump -- "^netsim: --no-jump and --check-jump do not go together"
}

# A routing parameter the machine would ignore is refused, naming what it
# takes there, as unidirectional=1 is (bad_input): tie= decides between a
# ring's two shortest ways, which only a torus has, and selection= among
# the outputs an adaptive routing permits, where deterministic routing
# gives one (Valiant's one a hop too, where least_used still picks the
# emptiest VC). Both were accepted and changed nothing, so a sweep's
# "alternatives" ran the same network twice. A routing that routes 2D
# meshes only names, on a mesh of 3 dimensions, every routing that routes it.
routing_options_the_machine_ignores_are_refused() {
  netsim_refuses --topo mesh --dims 4x4 --set tie=source-parity -- \
    "^netsim: tie = source-parity applies to a torus only, not a mesh \(accepted here: plus\)"
  netsim_refuses --topo hypercube --nodes 16 --set 'routing=duato tie=source-parity' -- \
    "^netsim: tie = source-parity applies to a torus only, not a hypercube \(accepted here: plus\)"
  netsim_refuses --topo mesh --dims 4x4 --set selection=random -- \
    "^netsim: selection=random chooses among an adaptive routing's outputs, and routing=deterministic gives one a hop \(accepted here: first; routings of a mesh it changes: west_first north_last negative_first odd_even duato free_adapt\)"
  netsim_refuses --topo banyan --nodes 16 --set selection=least_used -- "routings of a banyan it changes: none\)"
  netsim_refuses --topo dragonfly --nodes 72 --set selection=least_used -- "routings of a dragonfly it changes: valiant ugal\)"
  # Valiant's one output a hop: least_used picks its emptiest VC, random what first does
  netsim_refuses --topo dragonfly --nodes 72 --set 'routing=valiant vcs=3 selection=random' -- \
    "^netsim: selection=random chooses among an adaptive routing's outputs, and routing=valiant gives one a hop \(accepted here: first, or least_used for the emptiest VC; routings of a dragonfly it changes: ugal\)"
  netsim_refuses --topo torus --dims 4x4 --set 'unidirectional=1 tie=source-parity' -- \
    "^netsim: tie = source-parity applies to a torus of two-way links, not one of unidirectional = 1 \(accepted here: plus\)"
  netsim_refuses --topo mesh --dims 4x2x2 --set routing=north_last -- \
    "^netsim: routing=north_last routes a 2D mesh; this mesh has 3 dimensions; for it: deterministic negative_first duato valiant free_adapt "
  # the same before a node starts, and what each is for still runs
  refused --topo mesh --dims 2x1 --set tie=source-parity -- "^wormsim: tie = source-parity applies to a torus only, not a mesh"
  refused --topo mesh --dims 2x1 --set selection=least_used -- "^wormsim: selection=least_used chooses among"
  ns --dims 4x4 --rate 0.1 --cycles 500 --set 'vcs=4 tie=source-parity' > "$TMP/j"; expect '[ $? = 0 ]' "$(cat "$TMP/j")"
  ns --topo mesh --dims 4x4 --rate 0.1 --cycles 500 --set 'routing=duato selection=random' > "$TMP/j"
  expect '[ $? = 0 ]' "$(cat "$TMP/j")"
}
# wormsim on a 2-node machine whose node image does not exist: input it
# accepts ends at "node image ... is missing", so no QEMU ever starts.
ws() { timeout -k 5 20 "$WORMSIM" --nodes 2 --app hello --kernel "$TMP/none.elf" --kernel-riscv "$TMP/none.elf" \
         --runs-dir "$RUNS" "$@"; }
ndirs() { ls -d "$RUNS"/*/ 2>/dev/null | wc -l; }
refused() {   # args... -- expected message regex: exit 2 with it, no run directory
  local args=() msg
  while [ "$1" != -- ]; do args+=("$1"); shift; done; msg=$2
  ws "${args[@]}" > "$TMP/b" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(head -c 1500 "$TMP/b")"
  expect 'grep -Eq -- "$msg" "$TMP/b"' "$(head -c 1500 "$TMP/b")"
  expect '[ "$(ndirs)" = 0 ]' "a run directory was created"
}
# --check: every check a run makes, then exit, no run directory and no
# QEMU: accepted (0) with the shape and the memory estimate, or refused (2)
# with the run's own reason, the node images' included.
check_only() {
  "$WORMSIM" --check --topo banyan --nodes 16 --app alltoall_atape --args len=512 --runs-dir "$RUNS" \
             --kernel "${KERNEL:-build/arm/node.elf}" > "$TMP/c" 2>&1
  rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/c")"
  expect 'grep -q "^wormsim: alltoall_atape on banyan 16 (16 nodes): accepted; about [0-9]* MiB of host memory ([0-9]* MiB available), and the router holds at most [0-9]* MiB of messages; limits [0-9]* s in all (--timeout), [0-9]* s with no NIC use (--hang-timeout)$" "$TMP/c"' "$(cat "$TMP/c")"
  expect '[ "$(ndirs)" = 0 ]' "--check created a run directory"
  refused --check --topo mesh --nodes 16 --dims 4x4 --app alltoall_atape -- "app alltoall_atape needs a banyan"
  refused --check --nodes 64 --mem-limit 1000 -- "64 nodes need about 1185 MiB of host memory"
  refused --check -- "node image $TMP/none.elf is missing"
  expect '! grep -q "make" "$TMP/b"' "an image named by --kernel, which make does not build: $(cat "$TMP/b")"
  # the project's own image, missing (a tree whose node images were not
  # built): make builds it, and the refusal says so
  mkdir -p "$TMP/tree/build/host" && cp "$WORMSIM" "$TMP/tree/build/host/wormsim"
  (cd "$TMP" && "$TMP/tree/build/host/wormsim" --check --app hello --nodes 2) > "$TMP/b" 2>&1
  expect 'grep -q "node image build/arm/node.elf is missing; build it with: make$" "$TMP/b"' "$(cat "$TMP/b")"
  # an image that is empty (a link that failed), not ELF, or of the other
  # ISA is refused as well, not left to time out with no NIC up
  : > "$TMP/empty.elf"; echo text > "$TMP/text.elf"
  refused --check --kernel "$TMP/empty.elf" -- "arm node image $TMP/empty.elf is empty$"
  refused --check --kernel "$TMP/text.elf" -- "arm node image $TMP/text.elf is not an ELF file"
  refused --check --kernel "${KERNEL_RISCV:-build/riscv/node.elf}" -- "arm node image .* is not a 32-bit ARM executable"
  refused --check --arch riscv --kernel-riscv "${KERNEL:-build/arm/node.elf}" -- \
    "riscv node image .* is not a 64-bit RISC-V executable"
}
# The wall-clock limits grow with the time the nodes may spend on their
# buffers (nodes x the app's buffer bytes): 16x16 alltoall_pex at 8 KB
# filled them for 18 s on 2 cores with no NIC use, and the fixed 15 s
# called it hung. Given limits are kept. The memory limit is given, so
# the check does not depend on what the host has available just then
# (the estimate itself is read with --mem-limit 1 below).
limits_grow_with_the_buffers() {
  local k=(--check --kernel "${KERNEL:-build/arm/node.elf}" --runs-dir "$RUNS" --app alltoall_pex --nodes 256 --dims 16x16
           --mem-limit 1000000)
  local cores; cores=$(nproc)
  "$WORMSIM" "${k[@]}" --args len=8192 > "$TMP/big" 2>&1
  rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/big")"
  "$WORMSIM" "${k[@]/alltoall_pex/hello}" > "$TMP/small" 2>&1
  "$WORMSIM" "${k[@]}" --args len=8192 --timeout 99 --hang-timeout 7 > "$TMP/given" 2>&1
  lim() { sed -n "s/.*limits \([0-9]*\) s in all (--timeout), \([0-9]*\) s with no NIC use.*/\1 \2/p" "$1"; }
  read -r tb hb <<< "$(lim "$TMP/big")"; read -r ts hs <<< "$(lim "$TMP/small")"
  # 256 nodes x their buffers (bytes in the memory estimate) at 8 MiB/s a core
  local heap; heap=$(sed -n 's/.* \([0-9]*\) KiB each for the app.s buffers.*/\1/p' <(
    "$WORMSIM" "${k[@]}" --args len=8192 --mem-limit 1 2>&1))
  local want=$(( 15 + 256 * heap / 1024 / 8 / cores ))
  expect '[ -n "$hb" ] && [ $((hb - want)) -ge -1 ] && [ $((hb - want)) -le 1 ]' "hang limit $hb s at 8 KB, want about $want ($heap KiB x 256 at 8 MiB/s x $cores cores)"
  expect '[ "$hs" = 15 ] && [ "$ts" = 188 ]' "hello (no buffers): $ts s in all, $hs s silent; want 188 and 15"
  expect '[ "$tb" -gt "$ts" ]' "the run's limit did not grow: $tb s at 8 KB"
  expect 'grep -q "limits 99 s in all (--timeout), 7 s with no NIC use" "$TMP/given"' "$(cat "$TMP/given")"
}
# Numbers are decimal or 0x hex: 0500 was read as octal 320, +5 passed.
numbers_are_not_octal() {
  refused --set 't_send_ns=0500' -- "t_send_ns '0500' is not a whole number from 0 to"
  refused --set 'msg_max=+5' -- "msg_max '\\+5' is not a whole number"
  refused --gdb 010 -- "GDB \\(node to debug\\) '010' is not a whole number from 0 to 1"
  printf 't_recv_ns = 0100\n' > "$TMP/oct.conf"
  refused --preset "$TMP/oct.conf" -- "oct.conf:1: t_recv_ns '0100' is not a whole number"
  # every option's refusal of a leading 0 says the form (NODES and DIMS
  # took 04 as 4 where GDB refused 03)
  local form="\\(decimal without a leading 0, or hexadecimal after 0x\\)"
  refused --set 'vcs=02' -- "vcs '02' is not a whole number from 1 to 16 $form"
  refused --gdb 01 -- "GDB \\(node to debug\\) '01' is not a whole number from 0 to 1 $form$"
  refused --nodes 04 -- "NODES='04' is not a whole number from 1 to 4096 $form$"
  refused --dims 04x4 -- "DIMS='04x4' is malformed; .*; a size is decimal without a leading 0$"
  refused --log-max 01024 -- "--log-max '01024' is not a whole number of bytes from 1024 to 1099511627776 $form$"
  refused --mem-limit 010 -- "--mem-limit '010' is not a whole number from 1 to 1073741824 $form$"
  refused --nodes 5000 -- "NODES='5000' is not a whole number from 1 to 4096$"
  "$WORMSIM" --check --nodes 0x10 --app hello --runs-dir "$RUNS" > "$TMP/b" 2>&1
  expect 'grep -q "^wormsim: hello on torus 4x4 (16 nodes): accepted" "$TMP/b"' "$(cat "$TMP/b")"
}
# A run with a node under gdb has no wall-clock limit: a limit given with
# GDB= would be ignored, and is refused before any node starts.
gdb_takes_no_wall_clock_limit() {
  refused --nodes 4 --gdb 1 --timeout 30 -- "^wormsim: TIMEOUT \\(--timeout\\) with GDB \\(--gdb\\): a run with a node under gdb has no wall-clock limit"
  refused --nodes 4 --gdb 1 --hang-timeout 30 -- "^wormsim: --hang-timeout with GDB \\(--gdb\\): .*give one or the other"
}
# make gdb with no run at all (a runs directory without latest) says so,
# once it has waited for one to start.
gdb_without_a_run_says_so() {
  local e; e=$(RUNS_DIR=$TMP/noruns tests/gdb-attach.sh "" 1 "$TMP/none.elf" 2>&1); local rc=$?
  expect '[ $rc = 2 ] && [ "$(echo "$e" | tail -1)" = "make gdb: no run under $TMP/noruns/ ($TMP/noruns/latest does not exist); start one with: make run ... GDB=<node>" ]' "rc $rc: $e"
}
# A machine that would not fit in memory is refused before anything starts,
# with the estimate and the limit: 64 ARM nodes at 16.75 MiB, 1 MiB of NIC
# memory and 128 KiB of the router's each, plus 33 MiB their QEMUs share and 8 MiB, are 1185 MiB.
# A vector's length out of range names both rules: the range, and that it
# is a whole number of the type's elements (a length in range but not a
# multiple has its own refusal, which says so too).
vector_length_names_its_elements() {
  refused --nodes 4 --app allreduce_ring --args len=3 -- \
    "app allreduce_ring: len=3 is not a vector length it takes on torus 2x2; accepted: len=4\.\.[0-9]+, a multiple of 4 \(int elements\)$"
  refused --nodes 4 --app allreduce_ring --args 'len=2 type=double' -- "accepted: len=8\.\.[0-9]+, a multiple of 8 \(double elements\)$"
  refused --nodes 4 --app allreduce_ring --args len=6 -- "len=6 is not a whole number of int elements \(4 bytes each\); accepted: a multiple of 4, such as len=4$"
}
too_big_for_memory() {
  refused --nodes 64 --mem-limit 1000 -- "64 nodes need about 1185 MiB of host memory \(17152 KiB per ARM node and 33 MiB for all.*more than the 1000 MiB of --mem-limit"
  # the costs named are those of the ISAs the run uses: 8 RISC-V nodes at
  # 12685 KiB and their NIC's 1024, 49 MiB shared, 8 MiB and 8 x 128 KiB: 166 MiB
  expect '! grep -q RISC-V "$TMP/b"' "$(cat "$TMP/b")"
  refused --nodes 8 --arch riscv --mem-limit 100 -- "8 nodes need about 166 MiB of host memory \(12685 KiB per RISC-V node and 49 MiB for all, 0 KiB each for the app's buffers"
  expect '! grep -q ARM "$TMP/b"' "$(cat "$TMP/b")"
  refused --nodes 8 --arch mixed --mem-limit 100 -- "\(17152 KiB per ARM node and 33 MiB for all, 12685 KiB per RISC-V node and 49 MiB for all, 0 KiB each"
  # without --mem-limit the limit is the host's available memory (4096 nodes need 73257 MiB)
  if [ "$(awk '/^MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)" -lt 73257 ]; then
    refused --nodes 4096 --dims 64x64 -- "4096 nodes need about 73257 MiB of host memory .*this host has available \(MemAvailable"
  fi
  # a collective's buffers count too: alltoall_pex on 16x16 at len=16384
  # holds 3 x 256 + 1 blocks of 16 KiB (the caller's send and receive
  # buffers, the library's slots and a message), its label map and
  # schedule: 12716 KiB per node, 7797 MiB in all, where hello needs 4617
  refused --app alltoall_pex --nodes 256 --dims 16x16 --args len=16384 --mem-limit 7700 -- \
    "256 nodes need about 7797 MiB of host memory .*12716 KiB each for the app's buffers.*more than the 7700 MiB"
  refused --app hello --nodes 256 --dims 16x16 --mem-limit 4500 -- "256 nodes need about 4617 MiB of host memory .* 0 KiB each for the app's buffers"
  refused --mem-limit 0 -- "--mem-limit '0' is not a whole number from 1 to"
}
# Options the reviewer found misread: a preset named with its .conf, a
# time limit of 0, a torus's option on a mesh.
options_say_what_they_accept() {
  "$WORMSIM" --check --topo mesh --dims 4x4 --preset delta.conf --app hello --runs-dir "$RUNS" \
             --kernel "${KERNEL:-build/arm/node.elf}" > "$TMP/c" 2>&1
  rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/c")"
  refused --preset nosuch.conf -- "cannot read parameter file presets/nosuch.conf: No such file"
  refused --timeout 0 -- "--timeout '0' is not a number of seconds above 0 and at most 86400"
  refused --topo hypercube --set unidirectional=1 -- "unidirectional = 1 applies to a torus only, not a hypercube"
  # a network that refuses its parameters says where they came from (a
  # preset made for a mesh, with one virtual channel, on a torus)
  mkdir -p "$TMP/here" && printf 'vcs = 1\n' > "$TMP/here/mine.conf"
  refused --preset "$TMP/here/mine.conf" -- "a torus needs at least 2 virtual channels .*, not 1 \(a torus with the parameters of preset $TMP/here/mine.conf; the preset's file says which machine it is made for\)"
  refused --set vcs=1 -- "not 1 \(a torus with the built-in parameters and --set\)$"
  "$NETSIM" --preset "$TMP/here/mine.conf" --dims 4x4 > "$TMP/e" 2> "$TMP/e2"; expect '[ $? = 2 ] && [ ! -s "$TMP/e" ]'
  expect 'grep -q "not 1 (a torus with the parameters of preset $TMP/here/mine.conf; " "$TMP/e2"' "$(cat "$TMP/e2")"
  # a file name with no presets/ file of that name is read where it is (a run's params.conf)
  local w k t; w=$(realpath "$WORMSIM"); k=$(realpath "${KERNEL:-build/arm/node.elf}"); t=$(realpath qemu-scripts/arm-virt.args)
  (cd "$TMP/here" && "$w" --check --app hello --nodes 4 --preset mine.conf --kernel "$k" --qemu-template "$t") > "$TMP/c" 2>&1
  local rc=$?
  expect '[ $rc = 2 ] && grep -q "not 1 (a torus with the parameters of preset mine.conf; " "$TMP/c"' "$(cat "$TMP/c")"
}
# wormsim --list-params is the parser's own table: it lists the keys of
# docs/network.md's table, no more and no fewer, with their defaults; a
# value one past a key's range is refused naming that range, and the
# default is accepted.
# --params: the parameters a run of the given options would take, the
# preset's and then the --set in order, as params.conf writes them; a
# preset it cannot read is refused as a run would refuse it. Its '=' and
# '#' stand in one column on every line.
params_are_what_a_run_takes() {
  "$WORMSIM" --preset delta --set 'vcs=4 port_model=all-port' --t-send 5 --params > "$TMP/pp"; local rc=$?
  expect '[ $rc = 0 ]'
  expect 'grep -Eq "^vcs += 4 " "$TMP/pp" && grep -Eq "^port_model += all-port " "$TMP/pp"' "$(cat "$TMP/pp")"
  expect 'grep -Eq "^t_send_ns += 5 " "$TMP/pp" && grep -Eq "^t_recv_ns += 97644 " "$TMP/pp"' "$(cat "$TMP/pp")"
  expect '[ "$(grep -c " = " "$TMP/pp")" = "$(awk "NF == 0 { exit } NR > 1 && NF >= 3 && \$1 !~ /^\\(/" <("$WORMSIM" --list-params) | wc -l)" ]'
  # every line's '=' and '#' in one column, whatever the key's length
  expect '[ "$(awk "{ print index(\$0, \" = \"), index(\$0, \" # \") }" "$TMP/pp" | sort -u | wc -l)" = 1 ]' "$(cat "$TMP/pp")"
  "$WORMSIM" --preset nosuch --params > "$TMP/pp" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "presets/nosuch.conf" "$TMP/pp"' "$(cat "$TMP/pp")"
}
list_params_is_what_is_accepted() {
  "$WORMSIM" --list-params > "$TMP/lp"; expect '[ $? = 0 ]'
  # the key table: its lines up to the first blank one (the routing functions follow)
  awk 'NF == 0 { exit } NR > 1 && NF >= 3 && $1 !~ /^\(/ { print $1 }' "$TMP/lp" | sort > "$TMP/listed"
  sed -n '/^## Parameters/,/^## /p' docs/network.md > "$TMP/params.md"
  sed -n 's/^| `\([a-z_]*\)` | .* | \(.*\) |$/\1/p' "$TMP/params.md" | sort > "$TMP/doc"
  expect '[ "$(wc -l < "$TMP/listed")" -ge 20 ] && cmp -s "$TMP/listed" "$TMP/doc"' "$(diff "$TMP/listed" "$TMP/doc")"
  local key acc def lo hi n=0
  while read -r key acc def _; do
    local docdef; docdef=$(sed -n "s/^| \`$key\` | .* | \([^ |]*\).* |\$/\1/p" "$TMP/params.md")
    expect '[ "$docdef" = "$def" ]' "$key: default $def here, $docdef in docs/network.md"
    refused --check --set "$key=$def" -- "node image $TMP/none.elf is missing"
    case "$acc" in
      *..*) lo=${acc%..*}; hi=${acc#*..}
            refused --set "$key=$((hi + 1))" -- "$key '$((hi + 1))' is not a whole number from $lo to $hi"; n=$((n + 1))
            # a range the docs' row gives is this one
            local docrange; docrange=$(grep "^| \`$key\` |" "$TMP/params.md" | grep -oE "[0-9]+ to [0-9]+" | head -1)
            expect '[ -z "$docrange" ] || [ "$docrange" = "$lo to $hi" ]' "$key: $lo..$hi here, $docrange in docs/network.md" ;;
      *) refused --set "$key=nosuch" -- "'nosuch' is unknown; accepted: ${acc//|/, }"
         # and every word listed is taken, as --params shows it back; a docs
         # row that names any of the words names each
         local word row named=""; row=$(grep "^| \`$key\` |" "$TMP/params.md")
         for word in ${acc//|/ }; do [[ "$row" != *"\`$word\`"* ]] || named=$word; done
         for word in ${acc//|/ }; do
           [ -z "$named" ] || [[ "$row" == *"\`$word\`"* ]] ||
             expect false "$key: docs/network.md's row names \`$named\` but not \`$word\`: $row"
           "$WORMSIM" --set "$key=$word" --params > "$TMP/pp" 2>&1
           expect 'grep -Eq "^$key += $word " "$TMP/pp"' "--set $key=$word: $(head -3 "$TMP/pp")"
         done ;;
    esac
  done < <(awk 'NF == 0 { exit } NR > 1 && NF >= 3 && $1 !~ /^\(/ { print $1, $2, $3 }' "$TMP/lp")
  expect '[ $n -ge 15 ]' "$n ranged keys"
}
# wormsim --help names what its options accept, as their parsers take it:
# the words of --output and --port-model, each accepted and no other
# (the refusal lists the same), the defaults, and the bounds of --log-max
# and --timeout, each accepted and one past it refused.
help_says_what_is_accepted() {
  "$WORMSIM" --help > "$TMP/hw"; expect '[ $? = 0 ]'
  local words def w
  words=$(sed -n 's/.*--output WHICH .*summary: \(.*\)$/\1/p' "$TMP/hw" | sed 's/ | / /g')
  expect '[ "$(echo $words | wc -w)" -ge 3 ]' "$(grep -A1 -- "--output WHICH" "$TMP/hw")"
  refused --output nosuch --check -- "^wormsim: --output 'nosuch': accepted: ${words// /, }$"
  for w in $words; do refused --output "$w" --check -- "node image $TMP/none.elf is missing"; done
  def=$(grep -A1 -- "--output WHICH" "$TMP/hw" | sed -n 's/.*(default \([a-z0-9]*\)).*/\1/p')
  expect '[[ " $words " == *" $def "* ]]' "--output's default '$def' is not one of: $words"
  "$WORMSIM" --list-params > "$TMP/lp"
  read -r _ words def _ < <(grep '^port_model ' "$TMP/lp")
  expect 'grep -qF -- "--port-model M     ${words//|/ | } (default $def;" "$TMP/hw"' \
    "list-params: $words, default $def; help: $(grep -- "--port-model" "$TMP/hw")"
  for w in ${words//|/ }; do refused --port-model "$w" --check -- "node image $TMP/none.elf is missing"; done
  local least most
  least=$(grep -A1 -- "--log-max BYTES" "$TMP/hw" | sed -n 's/.*at least \([0-9]*\)).*/\1/p')
  expect '[ -n "$least" ]' "$(grep -A1 -- "--log-max BYTES" "$TMP/hw")"
  refused --log-max "$least" --check -- "node image $TMP/none.elf is missing"
  refused --log-max "$((least - 1))" --check -- "--log-max '$((least - 1))' is not a whole number of bytes from $least to"
  most=$(sed -n 's/.* at most \([0-9]*\) s\..*/\1/p' "$TMP/hw")
  expect '[ -n "$most" ]' "$(grep -A6 -- "--timeout S" "$TMP/hw")"
  refused --timeout "$most" --check -- "node image $TMP/none.elf is missing"
  refused --timeout "$((most + 1))" --check -- "--timeout '$((most + 1))' is not a number of seconds above 0 and at most $most$"
}
# The balanced dragonflies README.md and docs/network.md name are the node
# counts the run tool's refusal lists (which the unit test
# balanced_dragonfly_takes_the_node_counts_it_lists holds to what it takes).
docs_name_the_balanced_dragonflies() {
  local counts
  counts=$(ws --topo dragonfly --nodes 5 --check 2>&1 | sed -n 's/.* has NODES = \(.*\), not 5;.*/\1/p')
  expect '[ -n "$counts" ]' "$(ws --topo dragonfly --nodes 5 --check 2>&1)"
  expect 'grep -qF -- "(\`NODES\` $counts balanced" README.md' "README.md's TOPO row does not list: $counts"
  expect 'tr "\n" " " < docs/network.md | grep -qF -- "(a = 2p = 2h): $counts nodes"' \
    "docs/network.md's dragonfly does not list: $counts"
}
# The words of the run tool that the experiment tools' usages and the
# Makefile's header list are the ones it takes: the topologies (sweep,
# calibrate), the port models (sweep), the first words of --arch (sweep,
# Makefile) and of --output (Makefile).
tools_list_the_run_tools_words() {
  local topos pms arch outputs
  topos=$("$WORMSIM" --topo nosuch 2>&1 | sed -n "s/.*unknown topology 'nosuch'; accepted: //p")
  expect '[ "$(echo $topos | wc -w)" -ge 6 ]' "$topos"
  pms=$(awk '$1 == "port_model" { print $2 }' <("$WORMSIM" --list-params))
  arch=$(ws --arch nosuch --check 2>&1 | sed -n "s/.*unknown arch 'nosuch'; accepted: \([a-z]*, [a-z]*, [a-z]*\) .*/\1/p")
  expect '[ -n "$arch" ]' "$(ws --arch nosuch --check 2>&1)"
  outputs=$(ws --output nosuch 2>&1 | sed -n "s/.*--output 'nosuch': accepted: //p")
  expect '[ -n "$outputs" ]'
  experiments/sweep.sh --help > "$TMP/sh"
  expect 'grep -qE -- "^  topo +${topos//, / \| }  " "$TMP/sh"' "sweep.sh's topo line: $(grep "^  topo " "$TMP/sh"); accepted: $topos"
  expect 'grep -qE -- "^  port_model +${pms//|/ \| }  " "$TMP/sh"' "sweep.sh's port_model line: $(grep "^  port_model " "$TMP/sh"); accepted: $pms"
  expect 'grep -qE -- "^  arch +${arch//, / \| }  " "$TMP/sh"' "sweep.sh's arch line: $(grep "^  arch " "$TMP/sh"); accepted: $arch"
  local last=${topos##*, }
  experiments/calibrate.sh --help | tr -s ' \n' '  ' > "$TMP/ch"
  expect 'grep -qF -- "(default mesh): ${topos%, *} or $last " "$TMP/ch"' "calibrate.sh's --topo does not list: $topos"
  expect 'grep -qF -- "ARCH=${arch//, /|} " Makefile' "Makefile's header: $(grep -o "ARCH=[^ ]*" Makefile | head -1); accepted: $arch"
  expect 'grep -qF -- "OUTPUT=${outputs//, /|} " Makefile' "Makefile's header: $(grep -o "OUTPUT=[^ ]*" Makefile | head -1); accepted: $outputs"
}
# The NIC memory msg_max needs is what its refusal and --list-params say:
# twice msg_max and the KiB they name fit the default nic_mem exactly, one
# byte more of msg_max does not.
nic_mem_room_is_the_one_said() {
  local kib nic
  kib=$(ws --set msg_max=1048576 --check 2>&1 | sed -n 's/.*needs nic_mem of at least twice that plus \([0-9]*\) KiB (now \([0-9]*\)).*/\1 \2/p')
  expect '[ -n "$kib" ]' "$(ws --set msg_max=1048576 --check 2>&1)"
  read -r kib nic <<< "$kib"
  expect '"$WORMSIM" --list-params | grep -qF "2 msg_max + $kib KiB <= nic_mem"' "$("$WORMSIM" --list-params | grep "across keys")"
  refused --set "msg_max=$(( (nic - (kib << 10)) / 2 ))" --check -- "node image $TMP/none.elf is missing"
  refused --set "msg_max=$(( (nic - (kib << 10)) / 2 + 1 ))" --check -- "needs nic_mem of at least twice that plus $kib KiB"
}
preset_directory() {
  refused --preset "$TMP" -- "preset '$TMP' is a directory; accepted: a name in presets/ .*or the path of a regular file of at most 1 MiB"
}
preset_not_regular() {
  refused --preset /dev/zero -- "preset '/dev/zero' is not a regular file; accepted: a name in presets/"
  mkfifo "$TMP/fifo"
  refused --preset "$TMP/fifo" -- "preset '$TMP/fifo' is not a regular file"
}
# Every file the tool reads is a regular file of bounded size, checked
# before it is read: a device, a FIFO or a directory as a QEMU template or
# a node image is refused at once (the time limit catches a read that
# hangs), naming the file and what is accepted, and so is a template past
# 64 KiB.
files_not_regular_are_refused() {
  mkfifo "$TMP/tfifo"
  local f k; k=$(realpath "${KERNEL:-build/arm/node.elf}")
  for f in /dev/zero /dev/urandom "$TMP/tfifo" "$TMP"; do
    refused --kernel "$k" --qemu-template "$f" -- "QEMU template $f is (not a regular file|a directory).*accepted: a regular file"
    refused --kernel "$f" -- "arm node image $f is (not a regular file|a directory).*accepted: a regular file"
  done
  yes -- '-icount shift=0' | head -c 70000 > "$TMP/big.args"
  refused --kernel "$k" --qemu-template "$TMP/big.args" -- "QEMU template $TMP/big.args is 70000 bytes, more than the 65536 a QEMU template may have"
}
# Text a message quotes never carries a control byte (an ESC sequence in a
# name could rewrite the terminal): each shows as '?'; a 5000-character
# app name is cut to its start and its length.
messages_show_no_control_bytes() {
  local o esc=$'x\x1b[31my'
  for o in --topo --dims --arch --app; do
    ws --check "$o" "$esc" > "$TMP/b" 2>&1
    expect '! grep -q $'"'"'\x1b'"'"' "$TMP/b" && grep -qF "x?[31my" "$TMP/b"' "$o: $(cat -v "$TMP/b" | head -3)"
  done
  ws --check --app "$(printf 'a%.0s' $(seq 5000))" > "$TMP/b" 2>&1
  expect '[ "$(wc -L < "$TMP/b")" -lt 400 ]' "$(cut -c1-300 "$TMP/b" | head -3)"
  expect '[ "$(head -1 "$TMP/b" | wc -c)" -lt 400 ] && head -1 "$TMP/b" | grep -q "(5000 characters); accepted:"' \
    "$(head -1 "$TMP/b" | cut -c1-300)"
}
# An unknown app: the accepted names in a few lines, not the 70 lines of
# --list-apps, and the nearest names last.
unknown_app_says_what_was_meant() {
  # near names: the nearest (at most three) and a pointer to the list, on one line
  refused --check --app alltoall_pexx -- "^wormsim: unknown app 'alltoall_pexx'; did you mean 'alltoall_pex'\? \(wormsim --list-apps lists all [0-9]+\)$"
  expect '[ "$(wc -l < "$TMP/b")" = 1 ]' "$(cat "$TMP/b")"
  refused --check --app bcast_td -- "did you mean 'bcast_rd'"
  # nothing near: every accepted name, wrapped, and no suggestion
  refused --check --app zzzzzzzzzzzzzz -- "unknown app 'zzzzzzzzzzzzzz'; accepted:"
  expect '! grep -q "did you mean" "$TMP/b"' "$(tail -2 "$TMP/b")"
  expect 'grep -q " alltoall_gen " "$TMP/b" && [ "$(wc -l < "$TMP/b")" -lt 25 ]' "$(cat "$TMP/b")"
}
preset_too_large() {
  yes 'vcs = 2' | head -c 2000000 > "$TMP/big.conf"
  refused --preset "$TMP/big.conf" -- "preset '$TMP/big.conf' is 2000000 bytes, more than the 1 MiB a parameter file may have"
  # the limit the refusals name is the one applied: a file of exactly that
  # many bytes is read, one byte more is refused; each example preset is one
  local mib bytes ex
  mib=$(sed -n 's/.* is a directory; accepted: .*at most \([0-9]*\) MiB$/\1/p' <(ws --preset "$TMP" 2>&1))
  expect '[ -n "$mib" ]' "$(ws --preset "$TMP" 2>&1)"
  bytes=$((mib << 20))
  { echo 'vcs = 2'; yes '#' | head -c $((bytes - 8)); } > "$TMP/edge.conf"
  expect '[ "$(stat -c %s "$TMP/edge.conf")" = $bytes ]'
  refused --preset "$TMP/edge.conf" --check -- "node image $TMP/none.elf is missing"
  echo >> "$TMP/edge.conf"
  refused --preset "$TMP/edge.conf" --check -- "is $((bytes + 1)) bytes, more than the $mib MiB a parameter file may have"
  for ex in $(ws --preset "$TMP" 2>&1 | sed -n 's/.*(for example \([^)]*\)).*/\1/p' | tr -d ,); do
    expect '[ -f "presets/$ex.conf" ]' "the refusal names preset $ex, which presets/ lacks"
  done
}
preset_long_line() {   # a 2000-character comment is one line, all of it a comment
  { printf '# %02000d\n' 0; echo 'msg_max = 600000'; } > "$TMP/long.conf"
  refused --preset "$TMP/long.conf" -- "msg_max 600000 needs nic_mem of at least twice that"
  { printf '# %02000d\n' 0; echo 'vcs = 2'; echo 'hop_cycles = fast'; } > "$TMP/long3.conf"
  refused --preset "$TMP/long3.conf" -- "long3.conf:3: hop_cycles 'fast' is not a whole number from 1 to 1000"
}
long_set_list() {   # 1020 characters, then a key that crosses character 1023
  local pad; pad=$(printf 'vcs=2,%.0s' $(seq 170))
  refused --set "${pad}msg_max=600000" -- "msg_max 600000 needs nic_mem of at least twice that"
  refused --set "${pad}hop_cycles=fast" -- "hop_cycles 'fast' is not a whole number from 1 to 1000"
  local key; key=$(printf 'k%.0s' $(seq 3000))
  refused --set "vcs=2 $key=1" -- "unknown parameter 'kkkk*\.\.\.' \(3000 characters\); accepted keys: .*vcs"
}
many_sets() {   # the 300th --set is applied last
  local sets=(); for i in $(seq 299); do sets+=(--set vcs=2); done
  refused "${sets[@]}" --set msg_max=600000 -- "msg_max 600000 needs nic_mem of at least twice that"
  refused "${sets[@]}" --set hop_cycles=fast -- "hop_cycles 'fast' is not a whole number"
  refused "${sets[@]}" --t-send 7 --msg-max 600000 -- "msg_max 600000 needs nic_mem"
}
# A make variable reaches wormsim as one argument, never as shell code: the
# run records ARGS whole, or a refusal quotes its first word "x'y" with the
# quote in it. NODES=2 APP=hello keep the machine tiny should it run.
# make run, and each command a user types, refuses a variable it does not
# take (it would ignore it, and run another experiment than the one asked
# for, or draw another run), before it builds or runs.
make_commands_refuse_unknown_variables() {
  local build=${WORMSIM%/host/wormsim}
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 60 make -s run BUILD="$build" NODES=2 APP=hello ROUTING=duato \
      RUNS_DIR="$TMP/uruns" > "$TMP/m" 2>&1; local rc=$?
  expect '[ $rc = 2 ] && grep -q "make run takes no variable ROUTING; accepted: APP ARCH ARGS .*(README); a network parameter goes in NET=" "$TMP/m"' \
    "exit $rc: $(tail -3 "$TMP/m")"
  expect '[ ! -e "$TMP/uruns" ]' "a run started"
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 60 make -s -n run BUILD="$build" NODES=2 APP=hello V=0 \
      NET='routing=duato' RUNS_DIR="$TMP/uruns" > "$TMP/m" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "the accepted variables refused: $(tail -3 "$TMP/m")"
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 60 make -s heatmap RUNDIR="$TMP/uruns" > "$TMP/m" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "make heatmap takes no variable RUNDIR; accepted: BUILD CC METRIC OUT RUN RUNS_DIR V (README)" "$TMP/m"' \
    "exit $rc: $(tail -3 "$TMP/m")"
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 60 make -s -n sweep SWEEP=thakur JOBS=2 SWEEP_ARGS=--only=x > "$TMP/m" 2>&1
  expect '[ $? = 0 ]' "make sweep's variables refused: $(tail -3 "$TMP/m")"
}
make_run_args_one_word() {
  local build=${WORMSIM%/host/wormsim} value="x'y ; touch $TMP/pwned ; echo 'z"
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 120 make -s run BUILD="$build" NODES=2 APP=hello \
      ARGS="$value" RUNS_DIR="$TMP/mruns" > "$TMP/m" 2>&1; local rc=$?
  expect '[ ! -e "$TMP/pwned" ]' "ARGS ran as shell code: $(tail "$TMP/m")"
  if [ -f "$TMP/mruns/latest/summary.json" ]; then
    expect '[ "$(jq -r .args "$TMP/mruns/latest/summary.json")" = "$value" ]' "$(jq .args "$TMP/mruns/latest/summary.json")"
    expect '[ "$(jq -r .nodes "$TMP/mruns/latest/summary.json")" = 2 ]'
  else
    expect '[ $rc != 0 ] && grep -qF -- "x'"'"'y" "$TMP/m" && ! grep -q "unexpected argument" "$TMP/m"' \
           "exit $rc: $(tail "$TMP/m")"
  fi
}

# make's own expansion: a $(shell ...) in a user's variable is text. On
# the command line and in the environment, for ARGS, NET and DIMS, the
# recipe (here check-host-deps, which exports them) runs no command.
make_vars_are_not_make_code() {
  local v
  for v in ARGS NET DIMS; do
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 60 make -s check-host-deps "$v=\$(shell touch $TMP/mk-$v)" > "$TMP/m" 2>&1
    expect '[ ! -e "$TMP/mk-$v" ]' "make expanded $v on the command line: $(tail -3 "$TMP/m")"
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$v=\$(shell touch $TMP/mk-env-$v)" timeout 60 make -s check-host-deps > "$TMP/m" 2>&1
    expect '[ ! -e "$TMP/mk-env-$v" ]' "make expanded $v from the environment: $(tail -3 "$TMP/m")"
  done
}

# Node objects follow the flags they were built with (build/<arch>/flags):
# the same flags rebuild nothing, other flags rebuild the object.
node_flags_rebuild_objects() {
  local o=$TMP/nb/arm/apps/pattern.c.o flags
  flags=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -p -n FORCE 2>/dev/null | sed -n 's/^NODE_CFLAGS := //p; s/^NODE_CFLAGS = //p' | head -1)
  expect '[ -n "$flags" ]' "no NODE_CFLAGS in the Makefile"
  mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make V=1 BUILD="$TMP/nb" "$@" "$o" > "$TMP/mk" 2>&1; }   # V=1: the commands
  mk; rc=$?; expect '[ $rc = 0 ] && [ -f "$o" ]' "rc $rc: $(tail -5 "$TMP/mk")"
  mk; expect '! grep -q -- "-c apps/pattern.c" "$TMP/mk"' "rebuilt with the same flags: $(cat "$TMP/mk")"
  mk NODE_CFLAGS="$flags -DFLAGS_CHANGED"
  expect 'grep -q -- "-DFLAGS_CHANGED.* -c apps/pattern.c" "$TMP/mk"' "not rebuilt with other flags: $(cat "$TMP/mk")"
  expect 'grep -q -- -DFLAGS_CHANGED "$TMP/nb/arm/flags"'
  mk; expect 'grep -q -- "-c apps/pattern.c" "$TMP/mk" && ! grep -q -- -DFLAGS_CHANGED "$TMP/mk"' \
             "not rebuilt with the flags back: $(cat "$TMP/mk")"
}

# Plain make builds what its comment says: the run tool, netsim and both
# node images (a dry run into an empty build directory).
plain_make_builds_everything() {
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n BUILD="$TMP/pm" > "$TMP/pm.out" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(tail -5 "$TMP/pm.out")"
  local f
  for f in host/wormsim host/netsim arm/node.elf riscv/node.elf; do
    expect 'grep -q -- "-o $TMP/pm/$f\\b" "$TMP/pm.out"' "make does not build $f: $(head -3 "$TMP/pm.out")"
  done
}

# The unit tests' framework (tests/unit/check.h) stops a test still
# running after CHECK_TIMEOUT seconds and fails it under its own name; the
# tests after it still run. A bad CHECK_TIMEOUT is refused before any test.
a_hanging_unit_test_fails_alone() {
  cat > "$TMP/hang.c" <<'C'
#include "check.h"
TEST(spins) { for (volatile int x = 0; x >= 0; x += 0) ; }
TEST(passes) { CHECK_EQ_INT(1 + 1, 2); }
C
  cc -std=gnu11 -I tests/unit -o "$TMP/hang" "$TMP/hang.c"; expect '[ $? = 0 ]'
  CHECK_TIMEOUT=1 timeout 60 "$TMP/hang" > "$TMP/h.out" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/h.out")"
  expect 'grep -q "spins: still running after 1 s (CHECK_TIMEOUT): stopped as a hang" "$TMP/h.out"' "$(cat "$TMP/h.out")"
  expect 'grep -q "^  FAIL spins$" "$TMP/h.out" && grep -q "^  ok   passes$" "$TMP/h.out"' "$(cat "$TMP/h.out")"
  expect '[ "$(tail -1 "$TMP/h.out")" = "1 passed, 1 failed" ]' "$(cat "$TMP/h.out")"
  local bad
  for bad in soon -1 0 100000000; do
    CHECK_TIMEOUT=$bad "$TMP/hang" passes > "$TMP/h.out" 2>&1; rc=$?
    expect '[ $rc = 2 ] && grep -q "CHECK_TIMEOUT=$bad: expected a whole number of seconds from 1 to 99999999" "$TMP/h.out"' \
           "exit $rc: $(cat "$TMP/h.out")"
  done
}

# The network's cycle model (net_core.c, and the queueing, allocation,
# multidestination and routing code it steps with) reads no accelerator
# state: it reaches sleep, parked heads and the jump only through
# net_accel.h's hooks (struct net_accel, struct router_accel), neither
# their fields, nor net_state.h's helpers over them, nor the jump's marks
# on a worm.
cycle_model_reads_no_accelerator_state() {
  local f hits
  local state='(->|\.)acc?\.|net_parks|net_parked|net_would_park|net_park\b|net_unpark|net_wake|net_rouse|net_undormant'
  state+='|NET_FOR_DORMANT|net_port_router|net_port_index|net_hk_|net_sleep_|net_sat_settle|->jmark|->jid\b'
  for f in host/net/net_core.c host/net/net_inject.c host/net/net_alloc.c host/net/net_mc.c host/net/net_route.c \
           host/net/net_topo.c; do
    hits=$(grep -nE "$state" "$f")
    expect '[ -z "$hits" ]' "$f reads accelerator state: $hits"
  done
  expect 'grep -q "acc_router_begin(n, node)" host/net/net_core.c' "the router's step no longer calls its hooks"
}

# A build is dirty (summary.json's invocation, wormsim --replay) when a
# tracked file differs from its commit, results/ and docs/ aside: the
# tools write those, and a regeneration rewrites them before it builds.
build_info_marks_changed_sources() {
  local g=$TMP/bi
  mkdir -p "$g/host" "$g/results" "$g/docs"
  cp host/build_info.sh "$g/host/"
  echo a > "$g/results/r.csv"; echo a > "$g/docs/d.md"; echo a > "$g/host/x.c"
  (cd "$g" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm t) || exit 1
  bi_dirty() { sh "$g/host/build_info.sh" | sed -n 's/^const int build_dirty = \([01]\);$/\1/p'; }
  expect '[ "$(bi_dirty)" = 0 ]' "a fresh commit: $(sh "$g/host/build_info.sh")"
  echo b >> "$g/results/r.csv"; echo b >> "$g/docs/d.md"
  expect '[ "$(bi_dirty)" = 0 ]' "results/ and docs/ changed: $(sh "$g/host/build_info.sh")"
  echo b >> "$g/host/x.c"
  expect '[ "$(bi_dirty)" = 1 ]' "a source changed: $(sh "$g/host/build_info.sh")"
}

# make heatmap names what RUN lacks before it draws: a directory that does
# not exist, or the file of the two (summary.json, links.csv) that is not
# there; exit 2, nothing written.
heatmap_names_what_the_run_lacks() {
  local h=experiments/heatmap.sh e
  mkdir -p "$TMP/hm/sum" "$TMP/hm/links" "$TMP/hm/empty"
  echo '{}' > "$TMP/hm/sum/summary.json"; echo 'node,dim,dir,to_node,flits' > "$TMP/hm/links/links.csv"
  e=$("$h" "$TMP/hm/nosuch" 2>&1); expect '[ $? = 2 ] && [ "$e" = "heatmap: no run directory '"'"'$TMP/hm/nosuch'"'"' (RUN= a run directory, such as runs/latest)" ]' "$e"
  e=$("$h" "$TMP/hm/sum" 2>&1); expect '[ $? = 2 ] && [[ "$e" == "heatmap: $TMP/hm/sum has no links.csv; "* ]]' "$e"
  e=$("$h" "$TMP/hm/links" 2>&1); expect '[ $? = 2 ] && [[ "$e" == "heatmap: $TMP/hm/links has no summary.json; "* ]]' "$e"
  e=$("$h" "$TMP/hm/empty" 2>&1); expect '[ $? = 2 ] && [[ "$e" == "heatmap: $TMP/hm/empty has neither summary.json nor links.csv; "* ]]' "$e"
  e=$("$h" --metric nope "$TMP/hm/sum" 2>&1); expect '[ $? = 2 ] && [[ "$e" == *"metric '"'"'nope'"'"' (METRIC= or --metric) is not one of: flits worms blocked busy" ]]' "$e"
  expect '[ -z "$(find "$TMP/hm" -name "*.png" -o -name ".heatmap.*")" ]'
  # each metric the refusal lists is taken (the run directory is checked
  # next), and the usage line and the option's refusal list the same
  local listed m
  listed=$("$h" --metric nope "$TMP/hm/nosuch" 2>&1 | sed -n 's/.* is not one of: //p')
  expect '[ "$(echo $listed | wc -w)" -ge 4 ]' "$listed"
  for m in $listed; do
    e=$("$h" --metric "$m" "$TMP/hm/nosuch" 2>&1); expect '[[ "$e" == "heatmap: no run directory "* ]]' "--metric $m: $e"
  done
  expect '"$h" --help | grep -qF -- "[--metric ${listed// /|}] RUN"' "$("$h" --help | grep -- --metric) -- listed: $listed"
  e=$("$h" --nosuch 2>&1); expect '[[ "$e" == *"accepted: --metric ${listed// /|}, "* ]]' "$e"
  e=$("$h" --metric 2>&1); expect '[ "$e" = "heatmap: --metric needs a value: $listed" ]' "$e"
}
# The heatmap's title names the app, and the run's ARGS when it had any:
# "hello on mesh 2x2: ...", "hello (len=64) on mesh 2x2: ..." (a gnuplot
# of the test's keeps the script it is given and writes a PNG signature).
heatmap_title_names_the_args() {
  mkdir -p "$TMP/hmt/bin" "$TMP/hmt/run"
  printf '%s\n' '#!/bin/sh' 'cat > "$HM_SCRIPT"' \
    "out=\$(sed -n \"s/^set output '\\(.*\\)'\$/\\1/p\" \"\$HM_SCRIPT\")" "printf '\\211PNG' > \"\$out\"" > "$TMP/hmt/bin/gnuplot"
  chmod +x "$TMP/hmt/bin/gnuplot"
  printf 'node,dim,dir,to_node,flits,worms,busy_cycles,blocked_cycles\n0,0,+,1,5,1,5,0\n' > "$TMP/hmt/run/links.csv"
  local args title
  for args in "" "len=64"; do
    jq -n --arg a "$args" '{app: "hello", args: $a, topology: "mesh", dims: "2x2"}' > "$TMP/hmt/run/summary.json"
    PATH="$TMP/hmt/bin:$PATH" HM_SCRIPT="$TMP/hmt/script" experiments/heatmap.sh "$TMP/hmt/run" "$TMP/hmt/h.png" > "$TMP/hmt/o" 2>&1
    local rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/hmt/o" "$TMP/hmt/bin/gnuplot")"
    title=$(sed -n "s/^set title '\([^:]*\):.*/\1/p" "$TMP/hmt/script")
    expect '[ "$title" = "hello${args:+ ($args)} on mesh 2x2" ]' "title: $title"
  done
  # an adaptive run's drawing names its routing (and a selection but the
  # first); dimension order, the default, is left unsaid as before
  local net want
  for net in "deterministic first:" "west_first first:, routing=west_first" \
             "duato random:, routing=duato selection=random"; do
    want=${net#*:}; net=${net%%:*}
    jq -n --arg r "${net% *}" --arg s "${net#* }" \
      '{app: "hello", args: "", topology: "mesh", dims: "2x2", network: {routing: $r, selection: $s}}' > "$TMP/hmt/run/summary.json"
    PATH="$TMP/hmt/bin:$PATH" HM_SCRIPT="$TMP/hmt/script" experiments/heatmap.sh "$TMP/hmt/run" "$TMP/hmt/h.png" > "$TMP/hmt/o" 2>&1
    title=$(sed -n "s/^set title '\([^:]*\):.*/\1/p" "$TMP/hmt/script")
    expect '[ "$title" = "hello on mesh 2x2$want" ]' "$net: title: $title $(cat "$TMP/hmt/o")"
  done
}
# RUN given with a trailing slash (as a shell completes it): the paths the
# heatmap prints and writes have no //.
heatmap_run_with_a_slash() {
  heatmap_title_names_the_args > /dev/null      # its stand-in gnuplot and run
  PATH="$TMP/hmt/bin:$PATH" HM_SCRIPT="$TMP/hmt/script" experiments/heatmap.sh "$TMP/hmt/run/" > "$TMP/hmt/o" 2>&1
  local rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/hmt/o")"
  expect '! grep -q "//" "$TMP/hmt/o" "$TMP/hmt/script" && [ -s "$TMP/hmt/run/heatmap-flits.png" ]' "$(cat "$TMP/hmt/o")"
}
# Every algorithm of the registry (apps/coll/algos.def, worms.def), but an
# auto (which runs one of the others; the README's `<op>_auto` row), is
# named by the QEMU tests (tests/qemu/*.sh: `coll_ok --app NAME`, or a
# suite's helper such as `red_ok NAME`) and by a row of the README's
# tables of collective apps: a new one cannot be added without either;
# and by docs/mpi.md's row of its operation's MPI setting.
every_algorithm_has_a_readme_row_and_a_qemu_run() {
  local app apps
  apps=$(sed -n 's/^COLL_\(WORM_\)\{0,1\}ALGO(\([a-z0-9]*\), *\([a-z0-9_]*\),.*/\2_\3/p' apps/coll/algos.def apps/coll/worms.def)
  expect '[ "$(echo "$apps" | wc -w)" -ge 40 ]' "the registry read: $apps"
  for app in $apps; do
    [ "${app%_auto}" = "$app" ] || continue
    expect 'grep -qw -- "$app" tests/qemu/*.sh' \
      "$app: no test of tests/qemu/*.sh runs it (a coll_ok --app $app ... in tests/qemu/run.sh or a suite, named in its list; docs/collectives.md)"
    expect 'grep -qF "\`$app\`" README.md' "$app: no row of the README's tables of collective apps names \`$app\`"
  done
  # docs/mpi.md's table of settings names, per operation, the algorithms
  # MPIR_CVAR_<OP>_INTRA_ALGORITHM takes: those of algos.def but auto
  local op row reg doc
  for op in alltoall allgather bcast reduce allreduce scan barrier; do
    row=$(grep "^| .*\`MPIR_CVAR_${op^^}_INTRA_ALGORITHM\`" docs/mpi.md)
    reg=$(sed -n "s/^COLL_ALGO($op, *\([a-z0-9_]*\),.*/\1/p" apps/coll/algos.def | grep -vx auto | sort | tr '\n' ' ')
    doc=$(echo "$row" | awk -F' [|] ' '{ print $3 }' | tr -d ' ' | tr ',' '\n' | sort | tr '\n' ' ')
    expect '[ -n "$reg" ] && [ "$reg" = "$doc" ]' "docs/mpi.md, MPIR_CVAR_${op^^}_INTRA_ALGORITHM: it names '$doc', the registry has '$reg'"
  done
}

# presets/default.conf is the built-in values written out: it sets every
# key wormsim --list-params lists, and a run of it takes what a run with
# no preset takes.
default_preset_is_the_built_in() {
  "$WORMSIM" --preset default --params > "$TMP/d1"; expect '[ $? = 0 ]'
  "$WORMSIM" --params > "$TMP/d2"
  expect 'cmp -s "$TMP/d1" "$TMP/d2"' "$(diff "$TMP/d1" "$TMP/d2")"
  local key missing=
  for key in $(awk 'NF == 0 { exit } NR > 1 && NF >= 3 && $1 !~ /^\(/ { print $1 }' <("$WORMSIM" --list-params)); do
    grep -Eq "^$key *=" presets/default.conf || missing="$missing $key"
  done
  expect '[ -z "$missing" ]' "keys presets/default.conf does not write out:$missing"
}
# Every preset's header comment names every key wormsim --list-params
# lists: those it sets, with where each value comes from (a documented
# figure and its source, a modelling choice, or a fit and its training
# set), and those it leaves to the built-in default, which it says apply.
# A key added to the parameters fails here until each preset says which
# it is.
every_preset_names_each_key_in_its_header() {
  local f key keys missing= n=0
  keys=$(awk 'NF == 0 { exit } NR > 1 && NF >= 3 && $1 !~ /^\(/ { print $1 }' <("$WORMSIM" --list-params))
  for f in presets/*.conf; do
    n=$((n + 1))
    grep '^#' "$f" > "$TMP/hdr"
    for key in $keys; do grep -qw -- "$key" "$TMP/hdr" || missing="$missing $f:$key"; done
    for key in $(sed -n 's/^\([a-z_]*\) *=.*/\1/p' "$f"); do
      grep -qw -- "$key" "$TMP/hdr" || missing="$missing $f:$key(set)"
    done
    [ "$f" = presets/default.conf ] || grep -q "built-in default" "$TMP/hdr" || missing="$missing $f:(no 'built-in default' line)"
  done
  expect '[ $n -ge 3 ] && [ -z "$missing" ]' "not named in the preset's header:$missing"
}
# What README.md's table of presets and docs/network.md's Parameters say of
# each preset is the preset's: every presets/*.conf has a row and a mention,
# and each figure a row quotes (N VCs, N-byte flits, N flits a VC, N cycle
# a hop, N MHz or GHz nodes, N MB/s or N byte/ns links, N us start-ups) is
# the value a run of that preset takes.
docs_quote_the_presets() {
  local f name row bad= v want
  sed -n '/^## Parameters/,/^## /p' docs/network.md > "$TMP/params.md"
  for f in presets/*.conf; do
    name=$(basename "$f" .conf)
    row=$(grep -E "^\| \`$name\` \|" README.md)
    [ -n "$row" ] || { bad="$bad README:$name(no row)"; continue; }
    grep -q "\`$name\`" "$TMP/params.md" || bad="$bad network.md:$name(not named)"
    "$WORMSIM" --preset "$name" --params | sed 's/ *#.*//; s/ *= */=/' > "$TMP/pv"
    val() { sed -n "s/^$1=//p" "$TMP/pv"; }
    # figure, unit pattern, key, and the key's value from the figure (awk)
    while IFS='|' read -r pat key expr; do
      v=$(printf '%s\n' "$row" | grep -oE "$pat" | head -1 | grep -oE '[0-9.]+' | head -1)
      [ -n "$v" ] || continue
      want=$(awk -v x="$v" "BEGIN { printf \"%d\", $expr }")
      [ "$(val "$key")" = "$want" ] || bad="$bad README:$name:$key(row '$v', preset $(val "$key"))"
    done <<'EOT'
[0-9]+ VCs|vcs|x
[0-9]+-byte flits|flit_bytes|x
x [0-9]+ flits|buf_flits|x
[0-9]+ cycles? a hop|hop_cycles|x
[0-9.]+ MHz nodes|cpu_ps|1e6 / x + 0.5
[0-9.]+ GHz nodes|cpu_ps|1e3 / x + 0.5
[0-9.]+ MB/s links|byte_ps|1e6 / x + 0.5
[0-9.]+ byte/ns|byte_ps|1e3 / x + 0.5
[0-9.]+ us start-ups|t_send_ns|x * 1000 + 0.5
[0-9.]+ us start-ups|t_recv_ns|x * 1000 + 0.5
EOT
  done
  expect '[ -z "$bad" ]' "docs quote a preset otherwise:$bad"
}

# The netsim figures docs/network.md quotes, each from the command it
# names there (doc_figure, tests/doc-figures.sh).
network_figures_of_the_docs() {
  local page=docs/network.md len got want net vcs set rate context
  # Speed: a collective step's worms start and end together, so the
  # cycles stepped stop growing with the length
  for len in 1024 4096 16384; do
    ns -t mesh -d 32x16 --preset delta --pattern bitcomp --burst 2 -l $len > "$TMP/j"
    doc_figure $page "cycles stepped, bitcomp burst at $len B" "$(thousands "$(field .cycles_stepped)")" 5,583 \
      '--burst 2` steps @ cycles at 1, 4 and 16 KB'
  done
  ns -t mesh -d 32x16 --preset delta --pattern bitcomp --burst 2 -l 256 > "$TMP/j"
  doc_figure $page "cycles stepped, bitcomp burst at 256 B" "$(thousands "$(field .cycles_stepped)")" 2,894 '[(]@ of 3,116 at 256 B'
  doc_figure $page "cycles, bitcomp burst at 256 B" "$(thousands "$(field .cycles)")" 3,116 '[(]2,894 of @ at 256 B'
  # and under uniform traffic each worm's end pays its own transient
  ns -t torus -d 16x16 --pattern uniform --burst 8 -l 16384 > "$TMP/j"
  doc_figure $page "packets, uniform burst" "$(thousands "$(field .packets)")" 2,038 'burst 8`, @ packets'
  doc_figure $page "groups frozen, uniform burst" "$(thousands "$(field .jumps)")" 5,480 ' @ groups froze'
  doc_figure $page "cycles stepped, uniform burst" "$(thousands "$(field .cycles_stepped)")" 26,281 ' @ of the 185,841 cycles'
  doc_figure $page "cycles, uniform burst" "$(thousands "$(field .cycles)")" 185,841 ' 26,281 of the @ cycles'
  doc_figure $page "flit moves jumped, uniform burst, %" "$(jq -r '.moves_jumped * 100 / .moves | floor' "$TMP/j")" 98 \
    '16x16 torus: @ % of'
  # Fidelity against BookSim2: the mean latencies of "here" and "here,
  # nic_vcs = vcs" (-r RATE --warmup 3000 --cycles 20000), each row found
  # by its BookSim2 figure
  while IFS=';' read -r net vcs set rate want context; do
    # shellcheck disable=SC2086  # net holds several options
    got=$(for v in "" " nic_vcs=$vcs"; do
            ns $net -r "$rate" --warmup 3000 --cycles 20000 --set "$set$v" | jq -r .mean_latency | xargs printf '%.1f\n'
          done | paste -sd'|' | sed 's/|/ | /')
    doc_figure $page "mean latency, $net $set at $rate" "$got" "$want" "$context"
  done <<'ROWS'
-t mesh -d 8x8;2;hop_cycles=3;0.1;28.4 | 28.1;^\| mesh 8x8, dor / deterministic \| uniform \| 0\.1 \| 32\.6 \| @ \|
-t mesh -d 8x8;2;hop_cycles=3;0.2;36.0 | 33.9;^\| \| \| 0\.2 \| 38\.6 \| @ \|
-t mesh -d 8x8;2;hop_cycles=3;0.3;78.9 | 54.1;^\| \| \| 0\.3 \| 69\.4 \| @ \|
-t mesh -d 8x8;2;hop_cycles=3 routing=duato;0.1;27.4 | 27.2;^\| mesh 8x8, min_adapt / duato \| uniform \| 0\.1 \| 32\.8 \| @ \|
-t mesh -d 8x8;2;hop_cycles=3 routing=duato;0.2;34.4 | 32.9;^\| \| \| 0\.2 \| 40\.9 \| @ \|
-t torus -d 8x8;2;hop_cycles=3;0.1;22.6 | 22.8;^\| torus 8x8, dim_order / deterministic \| uniform \| 0\.1 \| 36\.2 \| @ \|
-t torus -d 8x8;2;hop_cycles=3;0.2;28.2 | 28.6;^\| \| \| 0\.2 \| 54\.5 \| @ \|
-t dragonfly -n 72;2;hop_cycles=3;0.1;23.2 | 23.1;^\| dragonfly 72, min / deterministic \| uniform \| 0\.1 \| 22\.6 \| @ \|
-t dragonfly -n 72;2;hop_cycles=3;0.2;27.7 | 27.4;^\| \| \| 0\.2 \| 28\.4 \| @ \|
-t dragonfly -n 72;3;hop_cycles=3 routing=ugal vcs=3;0.1;23.5 | 23.5;^\| dragonfly 72, ugal / ugal \| uniform \| 0\.1 \| 22\.6 \| @ \|
-t dragonfly -n 72;3;hop_cycles=3 routing=ugal vcs=3;0.2;29.0 | 28.3;^\| \| \| 0\.2 \| 28\.7 \| @ \|
ROWS
  # the accepted throughput at offered load 1.0 (-r 1.0 --warmup 3000 --cycles 10000)
  while IFS=';' read -r net set want context; do
    # shellcheck disable=SC2086
    got=$(ns $net -r 1.0 --warmup 3000 --cycles 10000 --set "$set" | jq -r .accepted | xargs printf '%.3f')
    doc_figure $page "accepted at 1.0, $net $set" "$got" "$want" "$context"
  done <<'ROWS'
-t mesh -d 8x8 -p uniform;hop_cycles=3;0.312;^\| mesh 8x8, dor \| uniform \| .* \| 0\.331 / @ [(]
-t mesh -d 8x8 -p uniform;hop_cycles=3 nic_vcs=2;0.337;^\| mesh 8x8, dor \| uniform \| .* \| [*]*@ [(]
-t mesh -d 8x8 -p transpose;hop_cycles=3;0.218;^\| mesh 8x8, dor \| transpose \| .* \| 0\.325 / @ [(]
-t mesh -d 8x8 -p uniform;hop_cycles=3 routing=duato;0.270;^\| mesh 8x8, min_adapt / duato \| uniform \| .* \| 0\.293 / @ [(]
-t torus -d 8x8 -p uniform;hop_cycles=3;0.276;^\| torus 8x8, dim_order \| uniform \| .* \| 0\.246 / @ [(]
-t torus -d 8x8 -p uniform;hop_cycles=3 nic_vcs=2;0.257;^\| torus 8x8, dim_order \| uniform \| .* \| [*]*@ [(]
-t dragonfly -n 72 -p uniform;hop_cycles=3;0.366;^\| dragonfly 72, min \| uniform \| .* \| 0\.349 / @ [(]
-t dragonfly -n 72 -p uniform;hop_cycles=3 routing=ugal vcs=3;0.347;^\| dragonfly 72, ugal \| uniform \| .* \| 0\.340 / @ [(]
-t mesh -d 8x8 -p uniform;hop_cycles=3 credit_delay=1 nic_vcs=2;0.327;saturates at @ against 0\.331
-t dragonfly -n 72 -p uniform;hop_cycles=3 credit_delay=1 nic_vcs=2;0.331;the same loop gives @ against 0\.349
ROWS
  # a deadlock of free_adapt, named as the page quotes its first worm
  "$NETSIM" -t mesh -d 8x8 -r 0.3 --set 'routing=free_adapt selection=random' > "$TMP/o" 2>&1
  doc_figure $page "free_adapt's deadlock, its first worm" "$(grep -o 'waits for: the worm [^;]*' "$TMP/o" | sed 's/^waits for: //')" \
    "the worm 0 -> 52 waits for room on link 1 -> 9 (VC 1), filled by the worm 7 -> 25" '^    @; [.][.][.]$'
}

# README.md's memory estimates, as --check prints them (the README rounds
# the 512-node exchange to 10 MiB: "about").
estimate_mib() { "$WORMSIM" --check "$@" 2>&1 | grep -o 'about [0-9]* MiB of host memory' | head -1 | grep -o '[0-9]*'; }
readme_quotes_the_memory_estimates() {
  doc_figure README.md "bcast_rd on a 32x32 torus, MiB" "$(thousands "$(estimate_mib --app bcast_rd --dims 32x32)")" 18,360 \
    'running `bcast_rd` is estimated at @ MiB'
  doc_figure README.md "a 512-node exchange at 16 KB, MiB to 10" \
    "$(thousands "$(estimate_mib --app alltoall_pex --dims 16x32 --args len=16384 | awk '{ printf "%d", int(($1 + 5) / 10) * 10 }')")" 21,640 \
    '^@ MiB \(21,260 MiB with `--preset delta`'
  doc_figure README.md "a 512-node exchange at 16 KB on the Delta preset, MiB" \
    "$(thousands "$(estimate_mib --preset delta --topo mesh --app alltoall_pex --dims 16x32 --args len=16384)")" 21,260 \
    '\(@ MiB with `--preset delta`'
  doc_figure README.md "thakur's 512-node runs at 16 KB, MiB" \
    "$(thousands "$(estimate_mib --preset delta --topo mesh --app alltoall_gen --dims 32x16 --args len=16384)")" 21,260 \
    'runs at 16 KB are estimated at @ MiB'
}

# docs/boards.md's step for a new board's QEMU template names every
# placeholder the launcher fills in (host/launch/launch.c), and no other.
boards_md_names_every_template_placeholder() {
  local filled named
  filled=$(grep -o '"@[A-Z_]*@"' host/launch/launch.c | tr -d '"' | sort -u | tr '\n' ' ')
  named=$(sed -n '/^3\. `qemu-scripts\/<name>\.args`/,/^4\. /p' docs/boards.md | grep -o '@[A-Z_]*@' | sort -u | tr '\n' ' ')
  expect '[ -n "$filled" ] && [ "$named" = "$filled" ]' "docs/boards.md names $named; host/launch/launch.c fills in $filled"
}

# docs/network.md's table of the allocators ("Arbitration"), each cell
# the sweep's peak and share at 1.0, to 0.001, as the page writes them.
arbitration_table_of_the_docs() {
  local dims pat set want row a
  while IFS=';' read -r dims pat set want; do
    row=""
    for a in round-robin age fixed output-first; do
      # shellcheck disable=SC2046,SC2183  # peak_and_share prints the two numbers
      row="$row${row:+ | }$(printf '%.3f, %.3f' $(peak_and_share "$pat" "$dims" --set "${set}alloc=$a"))"
    done
    doc_figure docs/network.md "the allocators on $dims $pat ${set:-defaults}" "$row" "$want" \
      "^\\| ${dims}(, \`${set% }\`| torus, defaults) \\| $pat \\| @ \\|\$"
  done <<'ROWS'
8x8;uniform;;0.302, 0.980 | 0.337, 0.982 | 0.311, 0.935 | 0.305, 0.969
8x8;transpose;;0.215, 1.000 | 0.220, 0.996 | 0.207, 0.687 | 0.215, 1.000
16x16;uniform;;0.165, 0.909 | 0.194, 0.941 | 0.165, 0.964 | 0.164, 0.913
16x16;transpose;;0.118, 1.000 | 0.116, 1.000 | 0.112, 0.733 | 0.118, 1.000
8x8;transpose;hop_cycles=3 buf_flits=8 ;0.216, 1.000 | 0.219, 0.997 | 0.207, 0.722 | 0.216, 1.000
16x16;uniform;hop_cycles=3 buf_flits=8 ;0.198, 0.796 | 0.211, 0.968 | 0.199, 0.800 | 0.198, 0.802
ROWS
}

# The short line README.md quotes for a compile is one make prints for
# that object (built here under another BUILD, whose prefix it bears).
readme_quotes_a_build_line() {
  local quoted obj
  quoted=$(grep -o '(`  CC      build/[^`]*`)' README.md | head -1 | sed 's/^(`//; s/`)$//')
  obj=${quoted#  CC      build/}
  expect '[ -n "$quoted" ]' "README.md quotes no '  CC      build/...' line"
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u V make BUILD="$TMP/bl" "$TMP/bl/$obj" > "$TMP/bl.out" 2>&1; local rc=$?
  expect '[ $rc = 0 ] && grep -qxF "  CC      $TMP/bl/$obj" "$TMP/bl.out"' \
    "README.md quotes '$quoted'; make printed: $(head -5 "$TMP/bl.out")"
}

echo "host tool tests"
for x in numbers_are_not_octal generated_is_what_was_offered low_load_latency_is_near_uncontended accepted_follows_offered_until_saturation same_seed_same_result \
         every_pattern_runs sweep_prints_a_curve throughput_holds_past_saturation adaptive_routings_survive_saturation burst_is_the_same_jumping_or_stepping heads_parking_at_frozen_parts_count_alike a_part_that_settles_late_is_jumped bad_input patterns_with_no_traffic_are_refused burst_sends_no_packet_to_itself no_packet_no_latency set_takes_network_keys_only header_names_the_ports netsim_names_its_routing empty_preset_is_the_built_in decimals_are_finite netsim_numbers_are_not_octal replay_needs_a_run_directory usage_lists_every_topology ignored_options_are_refused options_say_what_they_accept params_are_what_a_run_takes list_params_is_what_is_accepted help_says_what_is_accepted docs_name_the_balanced_dragonflies tools_list_the_run_tools_words nic_mem_room_is_the_one_said too_big_for_memory vector_length_names_its_elements check_only routing_options_the_machine_ignores_are_refused limits_grow_with_the_buffers preset_directory preset_not_regular preset_too_large \
         preset_long_line long_set_list many_sets files_not_regular_are_refused messages_show_no_control_bytes unknown_app_says_what_was_meant make_commands_refuse_unknown_variables make_run_args_one_word make_vars_are_not_make_code node_flags_rebuild_objects plain_make_builds_everything \
         a_hanging_unit_test_fails_alone cycle_model_reads_no_accelerator_state build_info_marks_changed_sources heatmap_names_what_the_run_lacks heatmap_title_names_the_args heatmap_run_with_a_slash gdb_takes_no_wall_clock_limit gdb_without_a_run_says_so \
         every_algorithm_has_a_readme_row_and_a_qemu_run default_preset_is_the_built_in every_preset_names_each_key_in_its_header docs_quote_the_presets network_figures_of_the_docs readme_quotes_the_memory_estimates boards_md_names_every_template_placeholder arbitration_table_of_the_docs readme_quotes_a_build_line; do t $x $x; done
echo "host: $pass passed, $fail failed"
[ $fail = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
