# Tseng et al.'s broadcast on all-port tori (apps/coll/bcast_tseng*.c):
# real runs, every node checking the message it ends with; every step of
# the schedule must share no link (the run's per-step link sharing), and
# the node reports the paper's step count. Sourced by tests/qemu/run.sh.
tseng_ok() {   # steps p len wormsim args...
  local steps=$1 p=$2 len=$3; shift 3
  coll_ok "$@"
  # one message per node but the root, len bytes each, after the start barrier
  expect '[ "$(summary .bytes)" = $(((p - 1) * len)) ]' "bytes $(summary .bytes)"
  expect '[ "$(summary .messages)" = $((p - 1 + $(barrier_msgs $p))) ]' "messages $(summary .messages)"
  expect '[ "$(summary .records.steps.node0)" = "$steps" ]' "steps $(summary .records.steps.node0), want $steps"
  # step 0 is the library's barrier; steps 1.. are the schedule's
  expect '[ "$(summary "[.steps[] | select(.step > 0) | .max_link_sharing] | max")" = 1 ]' \
         "$(summary "[.steps[] | [.step, .max_link_sharing]] | tostring")"
  expect '[ "$(summary "[.steps[] | select(.step > 0)] | length")" = $steps ]'
}
# 2 ceil(log5 n) + 1 steps; 3 ceil(log7 n) + 2, less the empty alignment when n <= 3
tseng2d_5x5()       { tseng_ok 3 25 256 --app bcast_tseng2d --topo torus --dims 5x5 --port-model all-port --args len=256; }
tseng2d_7x7_root()  { tseng_ok 5 49 100 --app bcast_tseng2d --topo torus --dims 7x7 --port-model all-port --args 'len=100 root=30'; }
tseng3d_3x3x3_root(){ tseng_ok 4 27 64 --app bcast_tseng3d --topo torus --dims 3x3x3 --port-model all-port --args 'len=64 root=13'; }
bad_tseng2d_4x5()   { bad_input --app bcast_tseng2d --topo torus --dims 4x5 --port-model all-port -- \
                        "app bcast_tseng2d needs the all-port model \(PORT_MODEL=all-port\) on a 2D n x n torus"; }
bad_tseng2d_port()  { bad_input --app bcast_tseng2d --topo torus --dims 5x5 -- \
                        "app bcast_tseng2d needs the all-port model \(PORT_MODEL=all-port\) on a 2D n x n torus"; }
bad_tseng3d_shape() { bad_input --app bcast_tseng3d --topo torus --dims 3x3x4 --port-model all-port -- \
                        "needs the all-port model \(PORT_MODEL=all-port\) on a 3D n x n x n torus"; }
for c in tseng2d_5x5 tseng2d_7x7_root tseng3d_3x3x3_root bad_tseng2d_4x5 bad_tseng2d_port bad_tseng3d_shape; do t $c $c; done
