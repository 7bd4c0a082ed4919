# The indirect networks (host/net/net_topo.c): the banyan and ATAPE on it
# (seed 004, apps/coll/alltoall_atape.c), and the fat tree. Verified runs,
# the rounds that must be free of contention in steps.csv, links.csv
# naming switch ports, and the machines each refuses.

# "step,max_link_sharing,contention_free" of the steps after the start barrier (step 0).
bn_rounds() { paste -d, <(csv_col "$1" step) <(csv_col "$1" max_link_sharing) <(csv_col "$1" contention_free) | awk -F, '$1 > 0'; }

# ATAPE on n processors: verified, n rounds (steps 1..n), each one free of
# contention.
bn_atape() {   # n arch
  local n=$1 r
  coll_ok --app alltoall_atape --topo banyan --nodes "$n" --arch "$2" --args 'len=512'
  r=$(bn_rounds "$(latest)/steps.csv")
  expect '[ "$(echo "$r" | wc -l)" = "$n" ]' "$r"
  expect '! echo "$r" | grep -q ",no$"' "$r"
}
bn_atape_8()  { bn_atape 8 arm; }
bn_atape_16() { bn_atape 16 riscv; }
# The most links a message of the latest run crossed (messages.csv's hops).
most_hops() { csv_col "$(latest)/messages.csv" hops | sort -n | tail -1; }
# docs/results.md section 7 quotes the longest route of each indirect
# network at 64 nodes, which these runs take between every two nodes.
bn_atape_64() { bn_atape 64 arm
                doc_figure docs/results.md "the banyan's links a worm, 64 nodes" "$(most_hops)" 7 \
                  'log2 n \+ 1 links on the banyan \(@ at 64 nodes\)'; }

bn_pex_contends() {   # PEX's XOR pairs are not admissible on this banyan: rounds share links
  coll_ok --app alltoall_pex --topo banyan --nodes 8 --args 'len=512'
  expect 'bn_rounds "$(latest)/steps.csv" | grep -q ",no$"' "$(cat "$(latest)/steps.csv")"
}

bn_links_name_switches() {   # 8 processors: 8 links in, 3 stages of 8 links out
  coll_ok --app alltoall_gen --topo banyan --nodes 8 --args 'len=64'
  local f; f="$(latest)/links.csv"
  expect '[ "$(head -1 "$f")" = "from,port,to,flits,worms,busy_cycles,blocked_cycles" ]' "$(head -1 "$f")"
  expect '[ "$(($(wc -l < "$f") - 1))" = 32 ]'
  expect 'grep -q "^3,0,s0.1," "$f"' "$(head -5 "$f")"
  expect 'grep -q "^s2.3,1,7," "$f"' "$(tail -5 "$f")"
}

bn_bad_size()     { bad_input --app hello --topo banyan --nodes 12 -- "a banyan needs NODES a power of two from 2 to 4096 \(2, 4, 8, 16, ...\), not 12"; }
bn_bad_dims()     { bad_input --app hello --topo banyan --dims 4x4 -- "DIMS does not apply to a banyan"; }
bn_bad_allport()  { bad_input --app hello --topo banyan --nodes 8 --port-model all-port -- "a banyan gives each processor one input and one output port"; }
bn_atape_needs_banyan() { bad_input --app alltoall_atape --topo hypercube --nodes 8 -- "app alltoall_atape needs a banyan \(TOPO=banyan NODES=2\^m\), not hypercube of 8 nodes"; }

# The fat tree: destination-mod-k routing takes every shift of GEN, and
# every XOR pairing of PEX, over disjoint paths.
ft_exchange() {   # app nodes arch
  local n=$2 r
  coll_ok --app "$1" --topo fattree --nodes "$n" --arch "$3" --args 'len=256'
  r=$(bn_rounds "$(latest)/steps.csv")
  expect '[ "$(echo "$r" | wc -l)" = "$((n - 1))" ]' "$r"
  expect '! echo "$r" | grep -q ",no$"' "$r"
}
ft_gen_64()      { ft_exchange alltoall_gen 64 arm
                   doc_figure docs/results.md "the fat tree's longest route, links, 64 nodes" "$(most_hops)" 6 \
                     'up to 2 log4 n on the fat tree \(@ at 64 nodes\)'; }
ft_pex_16_riscv(){ ft_exchange alltoall_pex 16 riscv; }
ft_gen_binary()  { ft_exchange alltoall_gen 8 mixed; }
ft_allreduce()   { coll_ok --app allreduce_tree --topo fattree --dims 3x3 --args 'len=64'; }

ft_links_name_switches() {   # 4-ary 2-tree: 16 node links each way, 16 up and 16 down between levels
  coll_ok --app alltoall_gen --topo fattree --nodes 16 --args 'len=64'
  local f; f="$(latest)/links.csv"
  expect '[ "$(head -1 "$f")" = "from,port,to,flits,worms,busy_cycles,blocked_cycles" ]' "$(head -1 "$f")"
  expect '[ "$(($(wc -l < "$f") - 1))" = 64 ]'
  expect 'grep -q "^13,0,s0.3," "$f"' "$(head -5 "$f")"
  expect 'grep -q "^s0.3,7,s1.3," "$f"' "$(grep "^s0.3" "$f")"
  expect 'grep -q "^s1.0,2,s0.2," "$f"' "$(grep "^s1.0" "$f")"
}

ft_bad_size()    { bad_input --app hello --topo fattree --nodes 12 -- "a fat tree needs NODES = k\^n, a power of 4 \(a 4-ary tree\) or of 2"; }
ft_bad_dims()    { bad_input --app hello --topo fattree --dims 4x2 -- "a fat tree's DIMS are k x k x ..."; }
ft_bad_allport() { bad_input --app hello --topo fattree --nodes 16 --port-model all-port -- "a fat tree gives each processor one input and one output port"; }

for c in bn_atape_8 bn_atape_16 bn_atape_64 bn_pex_contends bn_links_name_switches \
         bn_bad_size bn_bad_dims bn_bad_allport bn_atape_needs_banyan \
         ft_gen_64 ft_pex_16_riscv ft_gen_binary ft_allreduce ft_links_name_switches \
         ft_bad_size ft_bad_dims ft_bad_allport; do t $c $c; done
