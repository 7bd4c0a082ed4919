# Broadcast trees and unicast-based multicasts (McKinley, Tsai and Robinson
# 1994, sections 4 and 5): bcast sbt, edst, hokao, rd; mcast ucube, umesh,
# utorus. Sourced by tests/qemu/run.sh (helpers ws, coll_ok, expect,
# summary, bad_input, t). Every node checks the bytes it ends with; a
# broadcast moves (N-1) len bytes, a multicast m len (the start barrier's
# messages carry none). trees_steps checks the paper's step count (the
# run's step 0 is the library's start barrier) and that no link carried
# two messages of one step.
trees_bytes() { expect '[ "$(summary .bytes)" = '"$1"' ]' "bytes $(summary .bytes), expected $1"; }
trees_steps() {   # steps [max link sharing]
  expect '[ "$(summary "(.steps | length) - 1")" = '"$1"' ]' "steps: $(summary '[.steps[].step] | tostring')"
  expect '[ "$(summary "[.steps[1:][] | .max_link_sharing] | max")" -le '"${2:-1}"' ]' \
         "$(summary '[.steps[] | .max_link_sharing] | tostring')"
}
trees_sbt_16()         { coll_ok --app bcast_sbt --topo hypercube --nodes 16 --args 'len=1000 root=5'
                         trees_bytes 15000; trees_steps 4; }
trees_sbt_8_allport()  { coll_ok --app bcast_sbt --topo hypercube --nodes 8 --port-model all-port --args 'len=640 root=7'
                         trees_bytes $((7 * 640)); trees_steps 3; }
trees_edst_16()        { coll_ok --app bcast_edst --topo hypercube --nodes 16 --port-model all-port --args 'len=4096 root=3'
                         trees_bytes $((15 * 4096)); trees_steps 5; }
trees_edst_32()        { coll_ok --app bcast_edst --topo hypercube --nodes 32 --port-model all-port --args 'len=4000'
                         trees_bytes $((31 * 4000)); trees_steps 6; }
trees_hokao_16()       { coll_ok --app bcast_hokao --topo hypercube --nodes 16 --port-model all-port --args 'len=512'
                         trees_bytes $((15 * 512)); trees_steps 2; }
trees_hokao_32()       { coll_ok --app bcast_hokao --topo hypercube --nodes 32 --port-model all-port --args 'len=512 root=21'
                         trees_bytes $((31 * 512)); trees_steps 3; }
trees_rd_mesh_8x8()    { coll_ok --app bcast_rd --topo mesh --dims 8x8 --args 'len=256 root=27'
                         trees_bytes $((63 * 256)); trees_steps 6; }
trees_rd_torus_5x3()   { coll_ok --app bcast_rd --topo torus --dims 5x3 --args 'len=300 root=7'
                         trees_bytes $((14 * 300)); trees_steps 5; }
trees_ucube_32_m()     { coll_ok --app mcast_ucube --topo hypercube --nodes 32 --args 'len=500 root=9 m=11 seed=4'
                         trees_bytes $((11 * 500)); trees_steps 4; }
trees_ucube_16_set()   { coll_ok --app mcast_ucube --topo hypercube --nodes 16 --args 'len=500 root=6 set=0,3,9,10,15'
                         trees_bytes 2500; trees_steps 3; }
trees_umesh_6x4_m()    { coll_ok --app mcast_umesh --topo mesh --dims 6x4 --args 'len=256 root=9 m=10 seed=7'
                         trees_bytes $((10 * 256)); trees_steps 4; }
trees_umesh_5x3_all()  { coll_ok --app mcast_umesh --topo mesh --dims 5x3 --args 'len=256 root=7 set=all'
                         trees_bytes $((14 * 256)); trees_steps 4; }
# U-torus: two messages of a step may share a link on different virtual-
# channel classes (the survey's Figure 18), so a link may carry two.
trees_utorus_5x4_m()   { coll_ok --app mcast_utorus --topo torus --dims 5x4 --args 'len=256 root=13 m=12 seed=2'
                         trees_bytes $((12 * 256)); trees_steps 4 2; }
trees_utorus_4x4_set() { coll_ok --app mcast_utorus --topo torus --dims 4x4 --args 'len=256 set=1,5,6,11,14'
                         trees_bytes $((5 * 256)); trees_steps 3 2; }
bad_trees_ucube_mesh() { bad_input --app mcast_ucube --topo mesh --dims 4x4 --args 'm=3' -- "hypercube"; }
bad_trees_edst_oneport() { bad_input --app bcast_edst --topo hypercube --nodes 16 -- "all-port"; }
for c in trees_sbt_16 trees_sbt_8_allport trees_edst_16 trees_edst_32 trees_hokao_16 trees_hokao_32 trees_rd_mesh_8x8 \
         trees_rd_torus_5x3 trees_ucube_32_m trees_ucube_16_set trees_umesh_6x4_m trees_umesh_5x3_all trees_utorus_5x4_m \
         trees_utorus_4x4_set bad_trees_ucube_mesh bad_trees_edst_oneport; do t $c $c; done
