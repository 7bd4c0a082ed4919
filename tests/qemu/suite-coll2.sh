# The rooted, reducing and synchronising collectives as a whole: auto's
# choices, the one-call and persistent forms, and proof that each kind of
# verification is live (a flipped bit, a write into a multicast's
# bystander, a barrier let through early must fail the run).

c2_bcast_auto_allport() {   # all-port 7x7 torus, a long message: Tseng's 2D broadcast
  coll_ok --app bcast_auto --topo torus --dims 7x7 --port-model all-port --args 'len=2048 root=3'
  expect 'grep -q "bcast_auto: chose bcast_tseng2d" "$(latest)/node-000.log"'
}
c2_mcast_auto_mesh() {
  coll_ok --app mcast_auto --topo mesh --dims 4x4 --args 'len=300 m=6 seed=5 root=2'
  expect 'grep -q "mcast_auto: chose mcast_umesh" "$(latest)/node-000.log"'
}
# auto_picks APP WHAT_IT_CHOSE wormsim args...: a verified run of an auto app
# on a machine where its table (apps/coll/auto.c) picks WHAT_IT_CHOSE
auto_picks() {
  local app=$1 chose=$2; shift 2
  coll_ok --app "$app" "$@"
  expect 'grep -q "$app: chose $chose[[:space:]]*$" "$(latest)/node-000.log"' "$(grep -h "chose" "$(latest)/node-000.log")"
}
c2_auto_rooted() {          # each operation's auto, a machine per row it has
  auto_picks scatter_auto scatter_rd --topo mesh --dims 3x4 --args 'len=100 root=5'
  auto_picks gather_auto gather_binomial --topo hypercube --nodes 8 --args 'len=64 root=3'
  auto_picks reduce_auto reduce_rd --topo torus --dims 3x3 --args 'len=64 root=4 op=max type=int'
  auto_picks allreduce_auto allreduce_std_exchange --topo mesh --dims 4x4 --args 'len=64'
  auto_picks allreduce_auto allreduce_ring --topo torus --dims 3x4 --args 'len=4096 type=int'
  auto_picks allreduce_auto allreduce_tree --topo mesh --dims 3x5 --args 'len=64'
  auto_picks scan_auto scan_chain --topo mesh --dims 3x3 --args 'len=40 type=long'
  auto_picks scan_auto scan_std_exchange --topo hypercube --nodes 8 --args 'len=40'
  auto_picks barrier_auto barrier_dissemination --topo torus --dims 3x5
  auto_picks allgather_auto allgather_bruck --topo mesh --dims 4x4 --args 'len=64'
  auto_picks allgather_auto allgather_rowcol --topo torus --dims 4x4 --args 'len=256'
}
c2_tsengkd_5x5() { coll_ok --app bcast_tsengkd --topo torus --dims 5x5 --port-model all-port --args 'len=200 root=12'; }
c2_tsengkd_4d()  { coll_ok --app bcast_tsengkd --topo torus --dims 3x3x3x3 --port-model all-port --args 'len=64 root=40'; }
c2_oneshot_and_runs() {     # the one-call form, and a persistent request run three times
  coll_ok --app bcast_rd --topo mesh --dims 4x4 --args 'len=1000 root=5 oneshot=1'
  coll_ok --app allreduce_ring --topo torus --dims 3x4 --args 'len=96 op=min type=long runs=3'
  coll_ok --app scan_std_exchange --topo hypercube --nodes 8 --args 'len=40 op=bxor oneshot=1'
}
c2_padded_segments() {      # a message that is not a whole number of segments
  coll_ok --app bcast_edsf --topo mesh --dims 4x4 --args 'len=1001 segs=6 root=7'
  coll_ok --app allreduce_ring --topo mesh --dims 2x3 --args 'len=44 type=int'
}
c2_multi_send_small_nic() {   # fan-outs from one payload while the NIC's send area wraps
  coll_ok --app bcast_hokao --topo hypercube --nodes 32 --port-model all-port \
          --set 'nic_mem=131072 msg_max=49152' --args 'len=40000 runs=3 root=9'
}
c2_fails() {   # wormsim args... : the run must fail with a node reporting wrong data
  ws "$@" >/dev/null 2>&1; expect '[ $? = 1 ]'
  expect '[ "$(summary .ok)" = false ]'
  expect '[ "$(summary .records.wrong.nodes)" = 1 ] && [ "$(summary .records.wrong.max)" = 1 ]' "$(summary .records.wrong)"
}
c2_corrupt_bcast()     { c2_fails --app bcast_rd --topo mesh --dims 4x4 --args 'len=512 corrupt=9'; }
c2_corrupt_bystander() { c2_fails --app mcast_umesh --topo mesh --dims 4x4 --args 'len=512 set=1,2 corrupt=9'; }
c2_corrupt_allreduce() { c2_fails --app allreduce_std_exchange --topo hypercube --nodes 8 --args 'len=64 corrupt=3'; }
c2_corrupt_scan()      { c2_fails --app scan_chain --topo mesh --dims 3x3 --args 'len=64 type=double corrupt=8'; }
c2_barrier_waits() {        # every node leaves after the late node came in, 50 us late
  coll_ok --app barrier_tree --topo mesh --dims 3x3 --args 'late=4 delay=50000'
  local t; t=$(summary .records.coll_ns.node0)
  expect '[ "$t" -ge 50000 ]' "node 0 left after $t ns"
}
# The barrier's steps hold its own messages only: dissemination sends one
# message a node a round (4 rounds of 16 on 4x4), the tree 2(p - 1) in
# all; the check that nobody left early sends its p - 1 after step 0's mark.
c2_barrier_steps_are_its_own() {
  local hdr='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
  coll_ok --app barrier_dissemination --topo mesh --dims 4x4
  expect '[ "$(awk -F, "$hdr"'"'"'$c["step"] >= 1 { print $c["messages"] }'"'"' "$(latest)/steps.csv" | sort -u)" = 16 ]' "$(cat "$(latest)/steps.csv")"
  expect '[ "$(awk -F, "$hdr"'"'"'$c["step"] >= 1 { n++ } END { print n }'"'"' "$(latest)/steps.csv")" = 4 ]' "$(cat "$(latest)/steps.csv")"
  coll_ok --app barrier_tree --topo mesh --dims 3x3
  expect '[ "$(awk -F, "$hdr"'"'"'$c["step"] >= 1 { m += $c["messages"] } END { print m }'"'"' "$(latest)/steps.csv")" = 16 ]' "$(cat "$(latest)/steps.csv")"
}
c2_bad_root()  { bad_input --app scatter_binomial --topo mesh --dims 4x4 --args 'root=16' -- "root=16 is not a node; accepted: root=0..15"; }
c2_bad_set()   { bad_input --app mcast_utorus --topo torus --dims 4x4 --args 'set=3,3' -- "set=3,3: rank 3 is named twice"; }
c2_bad_empty() { bad_input --app mcast_ucube --topo hypercube --nodes 8 --args 'set=' -- "set= is empty"; }
c2_bad_op()    { bad_input --app allreduce_tree --dims 2x2 --args 'op=bor type=double' -- "op=bor takes integers only"; }

for c in c2_bcast_auto_allport c2_mcast_auto_mesh c2_auto_rooted c2_tsengkd_5x5 c2_tsengkd_4d c2_oneshot_and_runs c2_padded_segments \
         c2_multi_send_small_nic \
         c2_corrupt_bcast c2_corrupt_bystander c2_corrupt_allreduce c2_corrupt_scan c2_barrier_waits \
         c2_barrier_steps_are_its_own \
         c2_bad_root c2_bad_set c2_bad_empty c2_bad_op; do t $c $c; done
