# Adaptive routing (host/net/net_route.c, docs/network.md "Adaptive routing"):
# collectives verified byte for byte under each family of routing
# function, every run checked cycle for cycle against the reference model
# (ws passes --check-jump); a routing without escape channels deadlocks
# and the run names the worms; what a routing cannot route is refused
# before any node starts.

# The turn models on a mesh: the issue's own example, and the per-step
# link sharing of the links the worms took (it differs from the
# deterministic routes' under least_used selection).
routing_west_first_gen() {
  coll_ok --app alltoall_gen --topo mesh --dims 8x8 --set 'routing=west_first'
  expect '[ "$(summary .network.routing)" = west_first ]'
}
routing_shares_are_taken_links() {
  coll_ok --app alltoall_gen --topo mesh --dims 4x4 --args len=512
  csv_col "$(latest)/steps.csv" max_link_sharing > "$TMP/det"    # the sharing alone: times differ anyway
  coll_ok --app alltoall_gen --topo mesh --dims 4x4 --args len=512 --set 'routing=duato selection=least_used'
  csv_col "$(latest)/steps.csv" max_link_sharing > "$TMP/ad"
  expect '[ -s "$TMP/det" ] && ! cmp -s "$TMP/det" "$TMP/ad"' "the same link sharing as dimension order: $(cat "$TMP/det")"
}
routing_odd_even_mixed() { coll_ok --app alltoall_pex --topo mesh --dims 4x4 --arch mixed --set 'routing=odd_even selection=random'; }
routing_negative_first_riscv() { coll_ok --app allgather_ring --topo mesh --dims 4x2 --arch riscv --set 'routing=negative_first'; }
routing_duato_torus()  { coll_ok --app alltoall_pex --topo torus --dims 4x4 --set 'routing=duato vcs=3'; }
routing_valiant_mesh() { coll_ok --app bcast_rd --topo mesh --dims 4x4 --set 'routing=valiant route_seed=9'; }
routing_adaptive_up()  { coll_ok --app alltoall_pex --topo fattree --nodes 16 --set 'routing=adaptive_up selection=least_used'; }
for c in routing_west_first_gen routing_shares_are_taken_links routing_odd_even_mixed routing_negative_first_riscv \
         routing_duato_torus routing_valiant_mesh routing_adaptive_up; do t $c $c; done

# Fully adaptive routing with one VC and no escape channel: the 64 nodes'
# all-at-once exchange deadlocks in the network, and the run says so,
# naming worms, the links they wait for and who holds them; not a model
# error. The same exchange under duato (an escape VC) is delivered.
routing_free_adapt_deadlock_named() {
  ws --app alltoall_direct --topo mesh --dims 8x8 --args len=1024 \
     --set 'routing=free_adapt selection=random vcs=1' > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(head -3 "$TMP/o")"
  expect 'grep -Eq "network deadlock at [0-9]+ ns: worms deadlocked, each holding channels another waits for: the worm [0-9]+ -> [0-9]+ waits for link [0-9]+ -> [0-9]+, held by the worm [0-9]+ -> [0-9]+" "$TMP/o"' "$(head -3 "$TMP/o")"
  expect '! grep -q "model error" "$TMP/o"'
  coll_ok --app alltoall_direct --topo mesh --dims 8x8 --args len=1024 --set 'routing=duato vcs=2'
}
t routing_free_adapt_deadlock_named routing_free_adapt_deadlock_named

routing_bad_machine() { bad_input --topo torus --dims 4x4 --set 'routing=west_first' -- \
                        "routing=west_first does not route a torus \(a 2D mesh only\); for a torus: deterministic duato valiant free_adapt"; }
routing_bad_vcs()     { bad_input --topo torus --dims 4x4 --set 'routing=duato' -- \
                        "routing=duato on a torus needs vcs >= 3 \(escape channels, and one adaptive\), not 2"; }
routing_bad_name()    { bad_input --set 'routing=xy' -- \
                        "routing .xy. is unknown; accepted: deterministic, west_first, north_last, negative_first, odd_even, duato, valiant, .*free_adapt$"; }
routing_bad_3d()      { bad_input --topo mesh --dims 4x2x2 --set 'routing=odd_even' -- "routing=odd_even routes a 2D mesh; this mesh has 3 dimensions"; }
for c in routing_bad_machine routing_bad_vcs routing_bad_name routing_bad_3d; do t $c $c; done

# The dragonfly (host/machine.h, net_topo.c, net_route.c): the balanced
# 72-node machine (p 2, a 4, h 2: 9 groups) and a small one, collectives
# verified under minimal routing, Valiant's and UGAL-L, on ARM, RISC-V
# and mixed nodes; its shapes and channel counts refused with the
# accepted values before any node starts.
dragonfly_min_gen()     { coll_ok --app alltoall_gen --topo dragonfly --nodes 72 --args len=512
                          expect '[ "$(summary .dims)" = 2x4x9 ] && [ "$(summary .nodes)" = 72 ]' "$(summary .dims)"; }
dragonfly_ugal_gen()    { coll_ok --app alltoall_gen --topo dragonfly --nodes 72 --args len=512 --set 'routing=ugal vcs=3'; }
dragonfly_valiant_mix() { coll_ok --app bcast_auto --topo dragonfly --dims 1x2x3 --arch mixed --set 'routing=valiant vcs=3'; }
dragonfly_reduce_rv()   { coll_ok --app reduce_binomial --topo dragonfly --dims 2x2x3 --arch riscv --set 'routing=ugal vcs=6 selection=least_used'; }
# hello names every topology (netdev/topo.h's names): on a dragonfly it
# once read past its table of names and faulted.
dragonfly_hello()       { ws --app hello --topo dragonfly --nodes 6 > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
                          ok_run
                          expect "grep -q 'hello from node 5 of 6, dragonfly, coordinates (0,1,2)' $(latest)/node-005.log"; }
dragonfly_bad_nodes()   { bad_input --topo dragonfly --nodes 64 -- "a balanced dragonfly \(a = 2p = 2h\) has NODES = 6, 72, 342, 1056 or 2550, not 64"; }
dragonfly_bad_dims()    { bad_input --topo dragonfly --dims 2x4x2 -- "a dragonfly's DIMS are PxAxG: .* such as 2x4x9"; }
dragonfly_bad_vcs()     { bad_input --topo dragonfly --nodes 72 --set 'routing=ugal' -- \
                          "routing=ugal on a dragonfly needs vcs >= 3 \(a class for each count of global links taken: 0, 1, 2\), not 2"; }
dragonfly_bad_port()    { bad_input --topo dragonfly --nodes 72 --port-model all-port -- "a dragonfly gives each processor one input and one output port"; }
for c in dragonfly_min_gen dragonfly_ugal_gen dragonfly_valiant_mix dragonfly_reduce_rv dragonfly_hello dragonfly_bad_nodes dragonfly_bad_dims \
         dragonfly_bad_vcs dragonfly_bad_port; do t $c $c; done

# NIC channels with VCs (nic_vcs, docs/network.md "The port model"):
# node programs take them (their NICs keep each pair's messages in order,
# "The order of a pair's messages"), verified byte for byte; more than a
# link's VCs are refused before any node starts.
nic_vcs_node_programs() {
  coll_ok --app alltoall_pex --dims 4x4 --args len=512 --set 'nic_vcs=2'
  expect '[ "$(summary .network.nic_vcs)" = 2 ]'
  bad_input --dims 4x4 --set 'nic_vcs=3' -- "nic_vcs 3 is more than vcs 2: a NIC channel has at most a link's VCs \(accepted: 1 to 2\)"
}
t nic_vcs_node_programs nic_vcs_node_programs
# credit_delay (docs/network.md "Flow control"): a credit loop longer than
# the 4-flit buffers throttles every worm, so the same exchange, verified,
# takes longer, and the accelerators step aside (nothing jumped).
credit_delay_node_programs() {
  coll_ok --app alltoall_pex --dims 4x4 --args len=1024
  local fast; fast=$(summary .records.coll_ns.max)
  coll_ok --app alltoall_pex --dims 4x4 --args len=1024 --set 'credit_delay=4'
  expect '[ "$(summary .records.coll_ns.max)" -gt "$fast" ]' "coll_ns $(summary .records.coll_ns.max), $fast without the delay"
  expect '[ "$(summary .engine.cycles_jumped)" = 0 ]'
}
t credit_delay_node_programs credit_delay_node_programs
