# The hardware beside the data network (seed 002 section 8; host/net/hwnet.h):
# the T3D-style barrier circuits, the CM-5-style control network and the
# fetch-and-increment registers, through their apps (apps/hw_*.c). Each
# run is verified by the app itself; these check what crosses the data
# network, the latency model, and the input each refuses.

# Node 0's time, as it reported it.
hw_t0() { summary .records.coll_ns.node0; }

# Node 5 enters 30 us late: nobody leaves before it came (the app checks),
# and node 0 leaves about 30 us after its own entry: the nodes leave the
# start barrier up to one driver call (about 300 ns) apart, and the
# circuit adds 2 lg 16 x 8 ns. The data network carries only the late
# node's 15 notes of its entry time, never the barrier.
hw_barrier_late() {
  coll_ok --app barrier_hw --topo torus --dims 4x4 --arch mixed --args 'late=5 delay=30000 circuit=3'
  expect '[ "$(summary .messages)" = 15 ]' "$(summary .messages) messages"
  local t; t=$(hw_t0)
  expect '[ "$t" -ge 29600 ] && [ "$t" -lt 31000 ]' "node 0 took $t ns"
}
hw_barrier_runs() { coll_ok --app barrier_hw --topo hypercube --nodes 32 --args 'runs=3 late=0 delay=5000'; }

# Node 0's time on a 4x4 mesh with the default stages and with SET, by
# exactly MORE ns more.
hw_stage_cost() {   # app args set more
  local more=$4 a b
  coll_ok --app "$1" --topo mesh --dims 4x4 --args "$2"
  a=$(hw_t0)
  coll_ok --app "$1" --topo mesh --dims 4x4 --args "$2" --set "$3"
  b=$(hw_t0)
  expect '[ $((b - a)) = "$more" ]' "$a ns, then $b ns with $3"
}
# A slower circuit moves node 0's time by exactly its stages, 2 lg 16 = 8
# of them, 1000 ns more each (node 0 waits for the late node 5; no start
# barrier, whose own circuit would move the entries).
hw_barrier_stage_cost() { hw_stage_cost barrier_hw 'late=5 delay=5000 sync=0' barrier_stage_ns=1008 8000; }

hw_bcast()         { coll_ok --app bcast_hw --topo mesh --dims 3x5 --arch riscv --args 'len=1001 root=7'
                     expect '[ "$(summary .messages)" = 0 ]'; }
hw_allreduce_min() { coll_ok --app allreduce_hw --topo torus --dims 4x4 --args 'len=64 op=min type=int'; }
hw_allreduce_xor() { coll_ok --app allreduce_hw --topo hypercube --nodes 8 --arch mixed --args 'len=48 op=bxor type=long'; }
hw_scan_sum()      { coll_ok --app scan_hw --topo mesh --dims 5x3 --arch mixed --args 'len=40 op=sum type=long'; }
hw_scan_max()      { coll_ok --app scan_hw --topo torus --dims 3x3 --args 'len=32 op=max type=int'; }

# A control-network operation takes 2 lg 16 stages: 256 more a stage x 8
# stages x 8 operations (64 bytes of longs) = 16384 ns more.
hw_ctrl_stage_cost() { hw_stage_cost allreduce_hw 'len=64 type=long' ctrl_stage_ns=264 16384; }

hw_corrupt_fails() {   # the verification is live
  ws --app allreduce_hw --topo mesh --dims 2x2 --args 'len=16 corrupt=3' > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc != 0 ]' "$(tail -3 "$TMP/o")"
  expect '[ "$(record 3 wrong)" = 1 ] && [ "$(summary .records.wrong.nodes)" = 1 ]' "$(summary .records.wrong)"
  ws --app bcast_hw --topo mesh --dims 2x2 --args 'len=16 corrupt=2' > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc != 0 ]' "$(tail -3 "$TMP/o")"
  expect '[ "$(record 2 wrong)" = 1 ] && [ "$(summary .records.wrong.nodes)" = 1 ]' "$(summary .records.wrong)"
}

# Self-scheduling: each item taken once (the app checks), the register's
# packets are not messages (only the 2 (p-1) reports to node 0 are), and
# the register beats the server process, whose start-ups serialise.
hw_fetchinc() {
  coll_ok --app fetchinc --topo torus --dims 4x4 --arch mixed --args 'items=200 work=1000'
  expect '[ "$(summary .messages)" = 30 ]' "$(summary .messages) messages"
  local hw; hw=$(hw_t0)
  coll_ok --app fetchinc --topo torus --dims 4x4 --arch mixed --args 'items=200 work=1000 mode=server'
  local sv; sv=$(hw_t0)
  expect '[ "$((sv))" -gt "$((3 * hw))" ]' "hw $hw ns, server $sv ns"
}
hw_fetchinc_same() {   # the order of the takes is the simulated one: bit-identical runs
  coll_ok --app fetchinc --topo mesh --dims 3x3 --args 'items=100 work=0 owner=4'
  local a; a=$(latest)
  coll_ok --app fetchinc --topo mesh --dims 3x3 --args 'items=100 work=0 owner=4'
  same_results "$a" "$(latest)"
}

# A node that never sets its bit: the others wait on a circuit that never
# fires, and the run ends as a deadlock that names it.
hw_barrier_deadlock_named() {
  ws --app barrier_hw --topo mesh --dims 2x3 --args 'skip=4' > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc != 0 ]' "$(tail -3 "$TMP/o")"
  expect 'grep -q "deadlock: every unfinished node waits and nothing is in flight: node 0 waits on barrier circuit 15, which 5 of 6 nodes set" "$TMP/o"' "$(head -3 "$TMP/o")"
}

hw_bad_circuit() { bad_input --app barrier_hw --args circuit=16 -- "app barrier_hw: circuit=16 is not a barrier circuit; accepted: circuit=0..15"; }
hw_bad_len()     { bad_input --app allreduce_hw --args 'len=6' -- "app allreduce_hw: len=6 is not a whole number of int elements \(4 bytes each\)"; }
hw_bad_type()    { bad_input --app scan_hw --args 'type=double' -- "type=double"; }
hw_bad_mode()    { bad_input --app fetchinc --args 'mode=sw' -- "mode=sw"; }

for c in hw_barrier_late hw_barrier_runs hw_barrier_stage_cost hw_bcast hw_allreduce_min hw_allreduce_xor \
         hw_scan_sum hw_scan_max hw_ctrl_stage_cost hw_corrupt_fails hw_fetchinc hw_fetchinc_same \
         hw_barrier_deadlock_named hw_bad_circuit hw_bad_len hw_bad_type hw_bad_mode; do t $c $c; done

# Flooding in the NIC (apps/hw_flood.c, seed 004): verified, every
# channel of the odd torus carries (n^2 - 1)/4 messages (Corollary 1), and
# the delay is within Theorem 4's bound, alpha = t_send_ns + one cycle
# (a NIC's turn-around into its router, docs/network.md), delta =
# hop_cycles cycles, L gamma = F cycles, in both cases of Corollary 3 and
# at their meeting point (one flit, delta = L gamma: no slack), give or
# take the start's rounding to a cycle (less than 8 ns).
hw_flood_bound() {   # n len hop_cycles
  local n=$1 L=$2 hop=$3
  coll_ok --app allgather_flood_nic --topo torus --dims "${n}x$n" --port-model all-port --arch arm \
          --args "len=$L" --set "hop_cycles=$hop buf_flits=$((hop + 2))"
  local w; w=$(csv_col "$(latest)/links.csv" worms | sort -u)
  expect '[ "$w" = $(((n * n - 1) / 4)) ]' "worms per channel: $w"
  local t; t=$(summary .records.coll_ns.max)
  local b; b=$(awk -v n=$n -v L=$L -v h=$hop 'BEGIN { c = 8; d = h * c; lg = int((L + 7) / 8) * c; mx = d > lg ? d : lg; mn = d > lg ? lg : d
                                              printf "%d %d", 500 + c + d + lg + ((n * n - 1) / 4 - 1) * mx + mn, c - 1 }')
  expect '[ "$t" -le $(( ${b% *} + ${b#* } )) ]' "delay $t ns, Theorem 4 ${b% *} ns (+ ${b#* } allowed)"
  echo "info: ${n}x$n L=$L hop_cycles=$hop: delay $t ns, Theorem 4 bound ${b% *} ns"
}
hw_flood_5_short()  { hw_flood_bound 5 64 1; }     # delta 8 <= L gamma 64
hw_flood_9_equal()  { hw_flood_bound 9 64 8; }     # delta 64 = L gamma 64
hw_flood_7_long()   { hw_flood_bound 7 8 20; }     # delta 160 > L gamma 8
hw_flood_11_flit()  { hw_flood_bound 11 8 1; }     # delta 8 = L gamma 8, one flit
hw_flood_same() {   # relays and registers made in network time: bit-identical runs, mixed ISAs
  coll_ok --app allgather_flood_nic --topo torus --dims 5x5 --port-model all-port --arch mixed --args 'len=40 runs=2'
  local a; a=$(latest)
  coll_ok --app allgather_flood_nic --topo torus --dims 5x5 --port-model all-port --arch mixed --args 'len=40 runs=2'
  same_results "$a" "$(latest)"
}
# A flood's time split follows from its own columns: start-up is
# t_ready - t_post (the node's own worms pay t_send_ns, the NIC's relays
# nothing), queueing t_inject - t_ready, and summary.json sums them.
hw_flood_mesh() {
  coll_ok --app allgather_flood_nic --topo mesh --dims 4x4 --port-model all-port --arch mixed --args len=100
  local ts; ts=$(awk '$1 == "t_send_ns" { print $3 }' "$(latest)/params.conf")
  local x; x=$(awk -F, -v ts="$ts" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { own = $c["seq"] < 2^62; n[own]++; su += $c["startup_ns"]; qu += $c["queue_ns"]
      if ($c["startup_ns"] != $c["t_ready_ns"] - $c["t_post_ns"] || $c["queue_ns"] != $c["t_inject_ns"] - $c["t_ready_ns"] ||
          $c["t_ready_ns"] - $c["t_post_ns"] != (own ? ts : 0)) bad++ }
    END { printf "%d %d %d %d %d", n[1], n[0], bad, su, qu }' "$(latest)/messages.csv")
  local own relays bad su qu; read -r own relays bad su qu <<< "$x"
  expect '[ "$own" -gt 0 ] && [ "$relays" -gt 0 ] && [ "$bad" = 0 ]' \
    "own worms $own, relays $relays, rows whose split is not their times' (t_send_ns $ts): $bad"
  expect '[ "$su" = "$(summary .message_time.startup_ns)" ] && [ "$qu" = "$(summary .message_time.queue_ns)" ]' \
    "messages.csv sums start-up $su, queueing $qu; summary.json: $(jq -c .message_time "$(latest)/summary.json")"
}
hw_flood_corrupt()  { ws --app allgather_flood_nic --topo torus --dims 3x3 --port-model all-port --args 'len=16 corrupt=4' > "$TMP/o" 2>&1
                      local rc=$?; expect '[ $rc != 0 ]'; expect '[ "$(record 4 wrong)" = 1 ]' "$(summary .records.wrong)"; }
hw_flood_bad_len()  { bad_input --app allgather_flood_nic --topo torus --dims 5x5 --port-model all-port --args len=20000 -- \
                      "app allgather_flood_nic: len=20000 from each of 25 nodes is 500000 bytes, more than the largest message, 262144 bytes"; }
hw_flood_one_port() { bad_input --app allgather_flood_nic --topo torus --dims 5x5 -- "needs the all-port model"; }
for c in hw_flood_5_short hw_flood_9_equal hw_flood_7_long hw_flood_11_flit hw_flood_same hw_flood_mesh hw_flood_corrupt hw_flood_bad_len hw_flood_one_port; do t $c $c; done
