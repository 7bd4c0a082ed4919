# QEMU runs of the long-message and all-port mesh broadcasts (McKinley et
# al. sections 5 and 6): bcast_edsf, bcast_scatter_collect, bcast_edn, each
# on two machines and from a nonzero root; every node checks every byte of
# the message it ends with (coll_ok). Then calls they refuse before boot.

lm_edsf_4x4()      { coll_ok --app bcast_edsf --topo mesh --dims 4x4 --args 'len=4096 root=5'; }
lm_edsf_8x8()      { coll_ok --app bcast_edsf --topo mesh --dims 8x8 --args 'len=16384 root=27 segs=8'; }
lm_sc_mesh_4x4()   { coll_ok --app bcast_scatter_collect --topo mesh --dims 4x4 --args 'len=4096 root=6'; }
lm_sc_mesh_8x8()   { coll_ok --app bcast_scatter_collect --topo mesh --dims 8x8 --args 'len=16384 root=0'; }
lm_sc_torus_3x5()  { coll_ok --app bcast_scatter_collect --topo torus --dims 3x5 --args 'len=1500 root=11'; }
lm_edn_4x4()       { coll_ok --app bcast_edn --topo mesh --dims 4x4 --port-model all-port --args 'len=1024 root=9'; }
lm_edn_8x8()       { coll_ok --app bcast_edn --topo mesh --dims 8x8 --port-model all-port --args 'len=1024 root=0'; }

# Past eager_max a message waits for its receive (docs/network.md, "Eager
# and rendezvous"): GEN's 240 blocks of 1 KB each go by a request and a
# clear, every node still gets every byte, and the exchange takes longer.
lm_rendezvous() {
  coll_ok --app alltoall_gen --topo mesh --dims 4x4 --args len=1024
  local eager; eager=$(summary .records.coll_ns.max)
  expect '[ "$(summary .rendezvous_packets)" = 0 ] && ! grep -q "rendezvous" "$TMP/o"'
  coll_ok --app alltoall_gen --topo mesh --dims 4x4 --args len=1024 --set eager_max=1000
  expect '[ "$(summary .rendezvous_packets)" = 480 ]' "$(summary .rendezvous_packets)"
  expect '[ "$(summary .network.eager_max)" = 1000 ]'
  expect '[ "$(summary .rendezvous_messages)" = 240 ]' "$(summary .rendezvous_messages)"
  expect 'grep -q "^  rendezvous      240 messages longer than eager_max = 1000 bytes waited for their receive (480 requests-to-send" "$TMP/o"' \
    "$(cat "$TMP/o")"
  expect '[ "$(summary .records.coll_ns.max)" -gt "$eager" ]' "$(summary .records.coll_ns.max) against $eager"
  # the messages.csv rows are the data alone, the barrier's eager
  expect '[ "$(csv_col "$(latest)/messages.csv" len | grep -c "^1024$")" = 240 ]'
  # the same run again gives the same files, also with every cycle stepped
  # (--no-jump, where the first run jumped, checked by --check-jump)
  local one; one=$(latest)
  coll_ok --app alltoall_gen --topo mesh --dims 4x4 --args len=1024 --set eager_max=1000 --no-jump
  same_results "$one" "$(latest)"
}
# docs/network.md quotes the Delta's 4x4 PEX at 16 KB with eager_max=100
# against the same exchange eager, in s: the slowest node's coll_ns.
lm_rendezvous_figures_of_the_docs() {
  local eager rdv
  coll_ok --app alltoall_pex --topo mesh --dims 4x4 --preset delta --args len=16384
  eager=$(summary '.records.coll_ns.max / 1e9' | xargs printf '%.4f')
  coll_ok --app alltoall_pex --topo mesh --dims 4x4 --preset delta --args len=16384 --set eager_max=100
  rdv=$(summary '.records.coll_ns.max / 1e9' | xargs printf '%.4f')
  doc_figure docs/network.md "4x4 PEX at 16 KB by rendezvous, s" "$rdv" 0.1176 'took @ s against 0[.]0688 eager'
  doc_figure docs/network.md "4x4 PEX at 16 KB eager, s" "$eager" 0.0688 'took 0[.]1176 s against @ eager'
}

lm_bad_edn_port()  { bad_input --app bcast_edn --topo mesh --dims 4x4 -- "needs the all-port model.*\(one-port\)"; }
lm_bad_edn_4x8()   { bad_input --app bcast_edn --topo mesh --dims 4x8 --port-model all-port -- \
                       "bcast_edn needs the all-port model \(PORT_MODEL=all-port\) on a 2D mesh of 2\^k x 2\^k nodes.*not mesh 4x8"; }
lm_bad_edsf_odd()  { bad_input --app bcast_edsf --topo mesh --dims 3x4 -- "bcast_edsf needs a 2D mesh with both sides even"; }
lm_bad_edsf_segs() { bad_input --app bcast_edsf --topo mesh --dims 4x4 --args 'segs=1' -- "segs=1 is not a segment count from 2 to"; }
lm_bad_sc_segs()   { bad_input --app bcast_scatter_collect --topo mesh --dims 4x4 --args 'segs=5' -- \
                       "one segment per node: segs=5 is not accepted on 16 nodes"; }
lm_bad_sc_hyper()  { bad_input --app bcast_scatter_collect --topo hypercube --nodes 8 -- "needs a mesh or a torus"; }

t lm_edsf_4x4 lm_edsf_4x4
t lm_edsf_8x8 lm_edsf_8x8
t lm_sc_mesh_4x4 lm_sc_mesh_4x4
t lm_sc_mesh_8x8 lm_sc_mesh_8x8
t lm_sc_torus_3x5 lm_sc_torus_3x5
t lm_edn_4x4 lm_edn_4x4
t lm_edn_8x8 lm_edn_8x8
t lm_rendezvous lm_rendezvous
t lm_rendezvous_figures_of_the_docs lm_rendezvous_figures_of_the_docs
t lm_bad_edn_port lm_bad_edn_port
t lm_bad_edn_4x8 lm_bad_edn_4x8
t lm_bad_edsf_odd lm_bad_edsf_odd
t lm_bad_edsf_segs lm_bad_edsf_segs
t lm_bad_sc_segs lm_bad_sc_segs
t lm_bad_sc_hyper lm_bad_sc_hyper
