# All-port against one-port algorithms (issue: the all-port broadcasts must
# take fewer steps and less simulated time than recursive doubling on the
# all-port model). Each pair runs on the same all-port machine with the
# same message; the time is the slowest node's, as the nodes reported it.
# The message is long (16 KB) on purpose: with t_send = 500 ns a node's
# fan-out of k messages is staggered by k start-ups, and a step saved pays
# for that only when the message's own transmission dominates. At len=256
# tseng2d (13.0 us) loses to rd (11.6 us) on 7x7; at 4096 tseng3d (37.6
# us) still loses to rd (37.2 us) on 4x4x4 and edst (34.8 us) to sbt (31.0
# us) on the 32-node hypercube (ap_figures_of_the_docs checks these, as
# docs/collectives.md quotes them). apps/coll/auto.c has the crossovers.

ap_run() {   # app machine-args... -> "steps slowest_ns" on stdout
  ws "$@" >/dev/null 2>&1 || { echo "run failed: $*" >&2; return 1; }
  local d; d=$(latest)
  local steps slow
  steps=$(jq -r .records.steps.node0 "$d/summary.json")
  slow=$(jq -r .records.coll_ns.max "$d/summary.json")
  [ "$(jq -r .ok "$d/summary.json")" = true ] || { echo "not ok: $*" >&2; return 1; }
  echo "$steps $slow"
}

ap_compare() {   # all-port-app one-port-app fewer_steps(1|0) machine-args...
  local a=$1 b=$2 fewer=$3; shift 3
  local ra rb; ra=$(ap_run --app "$a" "$@") || exit 1; rb=$(ap_run --app "$b" "$@") || exit 1
  local sa=${ra% *} ta=${ra#* } sb=${rb% *} tb=${rb#* }
  echo "info: $a $sa steps, $ta ns; $b $sb steps, $tb ns ($*)"
  [ "$fewer" = 1 ] && expect "[ $sa -lt $sb ]" "$a should take fewer steps than $b"
  expect "[ $ta -lt $tb ]" "$a should take less simulated time than $b"
}

ap_tseng2d_7x7()  { ap_compare bcast_tseng2d bcast_rd 1 --topo torus --dims 7x7 --port-model all-port --args len=16384; }
ap_tseng3d_4x4x4()    { ap_compare bcast_tseng3d bcast_rd 1 --topo torus --dims 4x4x4 --port-model all-port --args len=16384; }
ap_edn_8x8()      { ap_compare bcast_edn bcast_rd 1 --topo mesh --dims 8x8 --port-model all-port --args len=16384; }
ap_hokao_32()     { ap_compare bcast_hokao bcast_sbt 1 --topo hypercube --nodes 32 --port-model all-port --args len=16384; }
# EDST takes n+1 steps against SBT's n, each of a segment l/n.
ap_edst_32()      { ap_compare bcast_edst bcast_sbt 0 --topo hypercube --nodes 32 --port-model all-port --args len=16384; }

# The figures docs/collectives.md ("What the emulator shows that the step
# counts do not") quotes: each the slowest node's time of that run in us
# to 0.1, quoted there as "N us" or "N against".
ap_figures_of_the_docs() {
  local app len want machine got
  while read -r app len want machine; do
    # shellcheck disable=SC2086  # machine holds several options
    ws --app "$app" $machine --port-model all-port --args "len=$len" > /dev/null 2>&1 || { echo "run failed: $app $machine" >&2; exit 1; }
    got=$(jq -r '.records.coll_ns.max / 100 | round / 10 | tostring | if test("[.]") then . else . + ".0" end' "$(latest)/summary.json")
    doc_figure docs/collectives.md "$app $machine len=$len, us" "$got" "$want" '[ (]@ (us|against)'
  done <<'FIGURES'
bcast_tseng2d 256 13.0 --topo torus --dims 7x7
bcast_rd 256 11.6 --topo torus --dims 7x7
bcast_tseng2d 4096 29.6 --topo torus --dims 7x7
bcast_rd 4096 32.1 --topo torus --dims 7x7
bcast_tseng3d 4096 37.6 --topo torus --dims 4x4x4
bcast_rd 4096 37.2 --topo torus --dims 4x4x4
bcast_edst 4096 34.8 --topo hypercube --nodes 32
bcast_sbt 4096 31.0 --topo hypercube --nodes 32
FIGURES
}

for c in ap_tseng2d_7x7 ap_tseng3d_4x4x4 ap_edn_8x8 ap_hokao_32 ap_edst_32 ap_figures_of_the_docs; do t $c $c; done
