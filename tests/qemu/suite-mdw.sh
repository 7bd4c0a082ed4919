# Multidestination worms (seed 002 section 8; host/net/net_mc.c, NIC_OP_MSEND):
# the test app mdw and the collectives built on them (apps/coll/
# worms.def), each verified byte for byte by the app; the two deadlocks
# of the survey named by the run tool; bad lists refused.

# A path worm on a mesh, a Hamiltonian-path worm, a replication tree on a
# hypercube: every listed node gets its copy (the app checks), each copy
# is one line of messages.csv with its own hops, and the worm's links
# carry it once (links.csv: worms counted per link).
mdw_path() {
  coll_ok --app mdw --topo mesh --dims 4x4 --arch mixed --args 'kind=path src=0 dst=3,15,12 len=300'
  expect '[ "$(csv_col "$(latest)/messages.csv" hops | tr "\n" " ")" = "3 6 9 " ]' "$(cat "$(latest)/messages.csv")"
  expect '[ "$(csv_col "$(latest)/links.csv" worms | awk "{ s += \$1 } END { print s }")" = 9 ]'
}
mdw_hpath() { coll_ok --app mdw --topo mesh --dims 4x4 --arch riscv --args 'kind=hpath src=0 dst=7,12 len=100'
              expect '[ "$(csv_col "$(latest)/messages.csv" hops | tr "\n" " ")" = "4 9 " ]'; }
mdw_tree() {
  coll_ok --app mdw --topo hypercube --nodes 16 --args 'kind=tree src=0 dst=1,2,4,8,15 len=500'
  expect '[ "$(summary .messages)" = 5 ]'
  expect '[ "$(csv_col "$(latest)/links.csv" worms | awk "{ s += \$1 } END { print s }")" = 7 ]'   # 4 neighbours, 3 more to 15
}

# Figure 31: each path worm holds the only consumption channel of one node
# and waits for the other's; the run tool names both, as a network
# deadlock. With a channel per link (all-port) the same worms arrive.
mdw_figure31_named() {
  ws --app mdw --topo mesh --dims 8 --args 'src=0 dst=1,6 src2=7 dst2=6,1 len=2048' > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc != 0 ]' "$(tail -3 "$TMP/o")"
  expect 'grep -q "network deadlock at .*: multidestination worms deadlocked, each holding channels another waits for: the path worm 7 -> 6,1 waits for node 1.s ejection channel 0, held by the path worm 0 -> 1,6; the path worm 0 -> 1,6 waits for node 6.s ejection channel 0, held by the path worm 7 -> 6,1" "$TMP/o"' "$(head -3 "$TMP/o")"
  expect '! grep -q "model error" "$TMP/o"'
  # docs/network.md ("Deadlock") quotes this run's report
  doc_figure docs/network.md "Figure 31's deadlock, ns" "$(sed -n 's/^  network deadlock at \([0-9]*\) ns: .*/\1/p' "$TMP/o")" 10288 \
    '"network deadlock at @ ns: [.][.][.] the path worm 0 -> 1,6'
  coll_ok --app mdw --topo mesh --dims 8 --port-model all-port --args 'src=0 dst=1,6 src2=7 dst2=6,1 len=2048'
}
# Replication trees (Figure 30(a), the survey's warning about the
# nCUBE-2's): two XY trees on a one-port 8x2 mesh, from node 1 to 0 and 7
# and from node 15 to 7 and 0, each branching at its source. Each takes
# the consumption channel nearer to it and waits, in lock step, for the
# other's: named, on every ISA (the windows are 12 cycles wide). All-port
# gives each input link its own channel, and both trees arrive.
mdw_trees_named() {
  ws --app mdw --topo mesh --dims 8x2 --arch mixed --args 'kind=tree src=1 dst=0,7 src2=15 dst2=7,0 len=1024' > "$TMP/o" 2>&1
  local rc=$?
  expect '[ $rc != 0 ]' "$(tail -3 "$TMP/o")"
  expect 'grep -q "the tree worm 1 -> 0,7 waits for node 7.s ejection channel 0, held by the tree worm 15 -> 7,0" "$TMP/o"' "$(head -3 "$TMP/o")"
  expect 'grep -q "the tree worm 15 -> 7,0 waits for node 0.s ejection channel 0, held by the tree worm 1 -> 0,7" "$TMP/o"'
  coll_ok --app mdw --topo mesh --dims 8x2 --port-model all-port --args 'kind=tree src=1 dst=0,7 src2=15 dst2=7,0 len=1024'
}
# Lists the routers would refuse are refused before any node starts, with
# the router's own reason (netdev/nic_mdw.h); what a node writes anyway
# fails that node (tests/unit/test_msend.c).
mdw_bad_order() { bad_input --app mdw --topo mesh --dims 4x4 --args 'kind=hpath src=0 dst=12,7' -- \
                  "app mdw: dst=12,7: destination 7 \(path label 4\) breaks the rising order of the Hamiltonian path after 12 \(label 15\)"; }
mdw_bad_torus() { bad_input --app mdw --topo torus --dims 4x4 --args 'dst=1' -- "multidestination worms need a mesh or a hypercube"; }
mdw_bad_list()  { bad_input --app mdw --topo mesh --dims 4x4 --args 'dst=1,x' -- "dst=1,x is not a list of ranks such as dst=1,3"
                  bad_input --app mdw --topo mesh --dims 4x4 --args 'dst=1,' -- "dst=1, is not a list of ranks such as dst=1,3"; }
# A length fits one message (restrict.h's APP_KIND_BYTES): -1 and one byte
# past --msg-max reached the nodes, which panicked.
mdw_bad_len()   { bad_input --app mdw --topo mesh --dims 4x4 --args 'len=-1' -- \
                    "app mdw: len=-1 is not a length from 0 to 262144 bytes \(the largest message, --msg-max\)"
                  bad_input --app mdw --topo mesh --dims 4x4 --args 'len=262145' -- "app mdw: len=262145 is not a length from 0"; }
# dst=all, as --list-apps offers it: every other node, as when dst is absent.
# (the same worm to the same nodes; the times differ by the ARGS parsed)
mdw_dst_all()   { coll_ok --app mdw --topo mesh --dims 4x4 --args 'len=64'
                  local a; a=$(paste -d, <(csv_col "$(latest)/messages.csv" src) <(csv_col "$(latest)/messages.csv" dst) | sort)
                  coll_ok --app mdw --topo mesh --dims 4x4 --args 'dst=all len=64'
                  local b; b=$(paste -d, <(csv_col "$(latest)/messages.csv" src) <(csv_col "$(latest)/messages.csv" dst) | sort)
                  expect '[ -n "$a" ] && [ "$a" = "$b" ]' "absent: $(echo $a) all: $(echo $b)"; }
for c in mdw_path mdw_hpath mdw_tree mdw_figure31_named mdw_trees_named mdw_bad_order mdw_bad_torus mdw_bad_list \
         mdw_bad_len mdw_dst_all; do t $c $c; done

# The collectives on worms: verified on ARM, RISC-V and mixed machines, a
# wrong byte fails, one-port multi-path refused before any node starts.
mdw_dualpath()    { coll_ok --app mcast_dualpath --topo mesh --dims 5x4 --arch mixed --args 'len=700 root=7 m=9 seed=3'; }
mdw_multipath()   { coll_ok --app mcast_multipath --topo mesh --dims 4x4 --port-model all-port --args 'len=64 root=5 set=all'; }
mdw_pandasingal() { coll_ok --app bcast_pandasingal --topo mesh --dims 3x5 --arch riscv --args 'len=1000 root=7'; }
mdw_hokao_path()  { coll_ok --app bcast_hokao_path --topo hypercube --nodes 32 --arch mixed --args 'len=256 root=9'; }
mdw_coll_corrupt() {
  ws --app bcast_pandasingal --topo mesh --dims 3x3 --args 'len=64 corrupt=8' > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc != 0 ]' "$(tail -3 "$TMP/o")"
  expect '[ "$(record 8 wrong)" = 1 ] && [ "$(summary .records.wrong.nodes)" = 1 ]' "$(summary .records.wrong)"
}
mdw_multipath_one_port() { bad_input --app mcast_multipath --topo mesh --dims 4x4 --args 'set=all' -- "needs the all-port model"; }
# A multidestination worm is one worm on each link it takes: its copies
# (a line of messages.csv each) share no link with each other in
# steps.csv, which counts the links the worm took, not the route from its
# source to each copy's destination. A step of one dual-path worm, or of
# Panda and Singal's row worm and then its column worms, is
# contention-free; two worms on one link still share it (mdw: 0 -> 1, 2,
# 3 and 1 -> 2, 3 along row 0 share the links 1 -> 2 and 2 -> 3).
mdw_worm_shares_no_link_with_itself() {
  coll_ok --app mcast_dualpath --topo mesh --dims 4x2 --args 'len=64'
  expect '[ "$(summary ".steps[1] | [.step, .messages, .max_link_sharing, .contention_free] | tostring")" = "[1,7,1,true]" ]' \
         "$(cat "$(latest)/steps.csv")"
  coll_ok --app bcast_pandasingal --topo mesh --dims 4x2 --arch riscv --args 'len=64'
  expect '[ "$(summary "[.steps[1:][] | [.step, .messages, .max_link_sharing]] | tostring")" = "[[1,3,1],[2,4,1]]" ]' \
         "$(cat "$(latest)/steps.csv")"
  coll_ok --app mdw --topo mesh --dims 4x2 --args 'src=0 dst=1,2,3 src2=1 dst2=2,3'
  expect '[ "$(summary ".steps[0] | [.messages, .max_link_sharing] | tostring")" = "[5,2]" ]' "$(cat "$(latest)/steps.csv")"
}
for c in mdw_dualpath mdw_multipath mdw_pandasingal mdw_hokao_path mdw_coll_corrupt mdw_multipath_one_port \
         mdw_worm_shares_no_link_with_itself; do t $c $c; done
