# QEMU runs of the scatter, gather, reduction, scan and barrier algorithms
# (apps/coll/scatter_*.c ... barrier_*.c), sourced by tests/qemu/run.sh.
# Each algorithm on two small machines it supports, with a root other than
# 0 where it has one; the reductions with several operators and types.
# Every node checks its result against a value it computes itself
# (coll_ok: no "wrong" line, every node done).

red_ok() {   # app topo dims args
  local app=$1 topo=$2 dims=$3; shift 3
  if [ "$topo" = hypercube ]; then coll_ok --app "$app" --topo hypercube --nodes "$dims" --args "$*"
  else coll_ok --app "$app" --topo "$topo" --dims "$dims" --args "$*"; fi
}

red_scatter_binomial() { red_ok scatter_binomial mesh 3x2 len=100 root=4; red_ok scatter_binomial hypercube 8 len=64 root=5; }
red_scatter_rd()       { red_ok scatter_rd mesh 3x2 len=100 root=4; red_ok scatter_rd torus 4x2 len=64 root=6; }
red_gather_binomial()  { red_ok gather_binomial torus 3x2 len=100 root=1; red_ok gather_binomial hypercube 8 len=64 root=6; }
red_gather_rd()        { red_ok gather_rd mesh 3x2 len=100 root=5; red_ok gather_rd torus 4x2 len=64 root=3; }
red_reduce_binomial()  { red_ok reduce_binomial mesh 3x2 op=sum type=int len=400 root=4
                         red_ok reduce_binomial hypercube 8 op=max type=double len=256 root=7; }
red_reduce_rd()        { red_ok reduce_rd mesh 3x2 op=min type=long len=256 root=2
                         red_ok reduce_rd torus 4x2 op=bxor type=int len=64 root=5; }
red_allreduce_std_exchange() { red_ok allreduce_std_exchange hypercube 8 op=sum type=double len=512
                               red_ok allreduce_std_exchange mesh 2x2 op=band type=long len=64; }
red_allreduce_ring()   { red_ok allreduce_ring torus 3x2 op=sum type=long len=480
                         red_ok allreduce_ring mesh 4x2 op=bor type=int len=256; }
red_allreduce_tree()   { red_ok allreduce_tree mesh 3x2 op=max type=int len=100
                         red_ok allreduce_tree hypercube 8 op=sum type=long len=64; }
red_scan_std_exchange(){ red_ok scan_std_exchange hypercube 8 op=sum type=int len=128
                         red_ok scan_std_exchange torus 4x2 op=min type=double len=64; }
red_scan_chain()       { red_ok scan_chain mesh 3x2 op=sum type=double len=128
                         red_ok scan_chain torus 2x2x2 op=bxor type=long len=64; }
red_barrier_tree()     { red_ok barrier_tree mesh 3x2 len=0; red_ok barrier_tree hypercube 8 len=0; }
red_barrier_dissemination() { red_ok barrier_dissemination mesh 3x2 len=0; red_ok barrier_dissemination torus 4x2 len=0; }

red_bad_ring_hypercube() { bad_input --app allreduce_ring --topo hypercube --nodes 8 -- "allreduce_ring .*mesh or .*torus"; }
red_bad_exchange_size()  { bad_input --app allreduce_std_exchange --dims 3x2 -- "allreduce_std_exchange needs a power-of-two node count, not 6"; }
red_bad_scan_size()      { bad_input --app scan_std_exchange --dims 3x2 -- "scan_std_exchange needs a power-of-two node count, not 6"; }
red_bad_double_bitwise() { bad_input --app allreduce_tree --dims 2x2 --args 'op=band type=double' -- "band.*double|double.*band"; }
red_bad_root()           { bad_input --app reduce_binomial --dims 3x2 --args 'root=6' -- "root.*6"; }
red_bad_scatter_root()   { bad_input --app scatter_rd --dims 3x2 --args 'root=-1' -- "root"; }

for r in red_scatter_binomial red_scatter_rd red_gather_binomial red_gather_rd red_reduce_binomial red_reduce_rd \
         red_allreduce_std_exchange red_allreduce_ring red_allreduce_tree red_scan_std_exchange red_scan_chain \
         red_barrier_tree red_barrier_dissemination \
         red_bad_ring_hypercube red_bad_exchange_size red_bad_scan_size red_bad_double_bitwise red_bad_root \
         red_bad_scatter_root; do t $r $r; done
