#!/usr/bin/env bash
# Boot-and-collect tests: real runs of the run tool on QEMU nodes, checked
# through exit status, summary.json and the node consoles.
# Environment: WORMSIM (run tool), KERNEL (ARM node image), KERNEL_RISCV
# (RISC-V node image). Optional: ONLY=regex. Tests named rv_* run RISC-V
# nodes, mixed_* machines of both ISAs.
set -u
cd "$(dirname "$0")/../.."
WORMSIM=${WORMSIM:-build/host/wormsim}; NETSIM=${NETSIM:-build/host/netsim}
KERNEL=${KERNEL:-build/arm/node.elf}
KERNEL_RISCV=${KERNEL_RISCV:-build/riscv/node.elf}
TMP=$(mktemp -d /tmp/wormsim-tests.XXXXXX)
RUNS=$TMP/runs

# The tests' runs go to one node pool (wormsim --serve), so nodes start
# once, not once per run; tests of what a run alone does (signals, memory)
# call the run tool without it. POOL=none runs every test cold.
pool_up() {   # name: start a pool, wait for its socket; sets pool_pid; a failing test's ends with it
  "$WORMSIM" --serve "$1" > "$TMP/pool-$1.out" 2>&1 & pool_pid=$!
  trap "kill -KILL $pool_pid 2>/dev/null" EXIT
  for i in $(seq 100); do grep -q "@wormsim-pool-$1\$" /proc/net/unix && return 0; sleep 0.05; done
  echo "the node pool $1 did not come up: $(cat "$TMP/pool-$1.out")" >&2; return 1
}
POOL=${POOL:-suite-$$}
if [ "$POOL" != none ]; then pool_up "$POOL" || exit 1; SUITE_POOL_PID=$pool_pid; POOL_OPT=(--pool "$POOL"); else POOL_OPT=(); fi
trap '[ -n "${SUITE_POOL_PID:-}" ] && { kill -TERM $SUITE_POOL_PID; wait $SUITE_POOL_PID; tail -1 "$TMP/pool-$POOL.out"; }; rm -rf "$TMP"' EXIT

ws() { "$WORMSIM" "${POOL_OPT[@]}" --check-jump --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "$@"; }
latest() { echo "$RUNS/$(readlink "$RUNS/latest")"; }
summary() { jq -r "$1" "$(latest)/summary.json"; }
# A figure node $1 reported under key $2 (records.csv, by column name).
record() { awk -F, -v n="$1" -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                                       $c["node"] == n && $c["key"] == k { print $c["value"] }' "$(latest)/records.csv"; }
# Column NAME of CSV FILE, found by its header (results are data: never by position).
csv_col() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1"; }
# A doorbell storm is counted by its rings, not by the router's wake-ups
# (epoll reports many rings as one): the count the error names is at
# least nine tenths of the run's doorbells (summary.json), the rest being
# the node's descriptors before its storm and, over MPI, rings a node
# host had not relayed yet.
storm_counts_its_rings() {
  local named all
  named=$(summary .error | sed -n 's/^node [0-9]* rang its doorbell \([0-9]*\) times.*/\1/p')
  all=$(summary .engine.doorbells)
  expect '[ -n "$named" ] && [ $((named * 10)) -ge $((all * 9)) ]' "the error names ${named:-no} rings of the run's $all doorbells"
}
qemu_of() { pgrep -f "path=wormsim-$1-" 2>/dev/null; }   # QEMUs of the run tool with pid $1
ndirs() { ls -d "$RUNS"/*/ 2>/dev/null | wc -l; }

. tests/harness.sh
. tests/doc-figures.sh

# Every result file of two runs the same, less wall time and the engine
# block (which varies between host runs; docs/network.md) and the
# placement of a run over several hosts.
same_results() {   # dir-a dir-b
  local f a=$1 b=$2
  for f in messages.csv links.csv steps.csv; do expect "cmp -s $a/$f $b/$f" "$f differs"; done
  for f in "$a"/node-*.log; do expect "cmp -s $f $b/$(basename "$f")" "$(basename "$f") differs: $(diff "$f" "$b/$(basename "$f")" | head -5)"; done
  expect '[ "$(ls "$a"/node-*.log | wc -l)" = "$(ls "$b"/node-*.log | wc -l)" ]'
  expect 'diff <(jq -S "del(.wall_s, .engine, .placement, .invocation)" "$a/summary.json") <(jq -S "del(.wall_s, .engine, .placement, .invocation)" "$b/summary.json") >/dev/null' \
         "$(diff <(jq -S 'del(.wall_s, .engine, .placement, .invocation)' "$a/summary.json") <(jq -S 'del(.wall_s, .engine, .placement, .invocation)' "$b/summary.json") | head -10)"
}
ok_run() {   # the run succeeded and every node exited 0
  expect '[ "$(summary .ok)" = true ]' "$(summary .error)"
  expect '[ "$(summary "[.exit_codes[] | select(. != 0)] | length")" = 0 ]'
}

# --- apps on small machines ---------------------------------------------
hello_mesh() {
  ws --app hello --topo mesh --dims 2x2 > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  ok_run
  expect '[ "$(summary .nodes)" = 4 ] && [ "$(summary .dims)" = 2x2 ] && [ "$(summary .topology)" = mesh ]'
  for i in 0 1 2 3; do expect "grep -q 'hello from node $i of 4, mesh' $(latest)/node-00$i.log"; done
  expect "grep -q 'coordinates (1,1)' $(latest)/node-003.log"
}
hello_hypercube() {
  ws --app hello --topo hypercube --nodes 8 >/dev/null 2>&1; expect '[ $? = 0 ]'
  ok_run
  expect "grep -q 'hypercube, coordinates (1,0,1)' $(latest)/node-005.log"
}
pingpong_mesh() {
  ws --app pingpong --nodes 16 --topo mesh --dims 4x4 --args 'len=1000 iters=3' > "$TMP/o" 2>&1; expect '[ $? = 0 ]'
  ok_run
  expect '[ "$(summary .messages)" = 6 ] && [ "$(summary .bytes)" = 6000 ]'
  expect "grep -q 'pingpong 0 <-> 15: 3 x 1000 bytes' $(latest)/node-000.log"
  # the links line counts the links that carried flits, of all 48 (links.csv)
  local used; used=$(csv_col "$(latest)/links.csv" flits | grep -vcx 0)
  expect '[ "$used" -gt 0 ] && [ "$used" -lt 48 ] && [ "$(summary .links.carrying)" = "$used" ]' "$used of 48"
  expect 'grep -q "^  links           $used of 48 carried flits; " "$TMP/o"' "$(cat "$TMP/o")"
  # one message at a time: none is ever blocked, in any switching mode,
  # and the console says so rather than naming a link blocked 0 cycles
  expect '[ "$(csv_col "$(latest)/messages.csv" blocked_ns | sort -u)" = 0 ]'
  expect 'grep -q "carried flits; .*; no worm was blocked$" "$TMP/o" && ! grep -q "(0 cycles)" "$TMP/o"' "$(grep links "$TMP/o")"
  ws --app pingpong --nodes 16 --topo mesh --dims 4x4 --args 'len=1000 iters=3' --set switching=store-and-forward \
     > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  expect '[ "$(csv_col "$(latest)/messages.csv" blocked_ns | sort -u)" = 0 ]' "$(cat "$(latest)/messages.csv")"
  expect '[ "$(summary .message_time.blocked_ns)" = 0 ]' "$(summary .message_time)"
}
# The node API calls no collective uses: net_probe (until the message has
# arrived, then none left), net_sendrecv and net_wait_sent; the app checks
# what each returns and every byte (apps/netapi.c).
netapi_calls() {   # arch
  ws --app netapi --nodes 2 --arch "$1" > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  ok_run
  expect '[ "$(summary .messages)" = 3 ]'
  expect 'grep -q "probe [0-9]* saw node 0 tag 7, 100 bytes" "$(latest)/node-001.log"' "$(cat "$(latest)/node-001.log")"
  expect 'grep -q "100 bytes left after [1-9][0-9]* ns" "$(latest)/node-000.log"' "$(cat "$(latest)/node-000.log")"
}
netapi_arm() { netapi_calls arm; }
netapi_mixed() { netapi_calls mixed; }
pex_torus4() {
  ws --app alltoall_pex --topo torus --dims 4x4 --args len=200 >/dev/null 2>&1; expect '[ $? = 0 ]'
  ok_run
  expect '[ "$(summary .messages)" = $((240 + 16 * 4)) ] && [ "$(summary .bytes)" = 48000 ]'   # p(p-1) blocks + empty barrier messages
  expect '[ "$(summary .unreceived_messages)" = 0 ]'
}
pex_hypercube16() {
  ws --app alltoall_pex --topo hypercube --nodes 16 --args len=64 >/dev/null 2>&1; expect '[ $? = 0 ]'
  ok_run
}
pex_mesh_8x8_default_len() {
  ws --app alltoall_pex --topo mesh --dims 8x8 >/dev/null 2>&1; expect '[ $? = 0 ]'
  ok_run
  expect '[ "$(summary .messages)" = $((4032 + 64 * 6)) ]'
}

# --- parameters ------------------------------------------------------------
default_preset_is_the_default() {
  ws --app hello --dims 2x2 >/dev/null 2>&1; expect '[ $? = 0 ]'
  local a; a=$(summary '.network | tostring')
  ws --app hello --dims 2x2 --preset default >/dev/null 2>&1; expect '[ $? = 0 ]'
  expect '[ "$a" = "$(summary ".network | tostring")" ]' "built-in $a, preset $(summary '.network | tostring')"
}
params_conf_reproduces_the_run() {
  ws --app alltoall_pex --dims 4x4 --args len=256 --set 'vcs=3 buf_flits=6 hop_cycles=2' >/dev/null 2>&1; expect '[ $? = 0 ]'
  local d; d=$(latest); local a; a=$(summary '[.sim_time_ns, .network] | tostring')
  expect '[ "$(summary .network.vcs)" = 3 ] && [ "$(summary .network.hop_cycles)" = 2 ]'
  ws --app alltoall_pex --dims 4x4 --args len=256 --preset "$d/params.conf" >/dev/null 2>&1; expect '[ $? = 0 ]'
  expect '[ "$a" = "$(summary "[.sim_time_ns, .network] | tostring")" ]'
}
presets_run() {
  for p in delta t3d; do
    ws --app alltoall_pex --topo mesh --dims 4x4 --args len=128 --preset $p > "$TMP/p" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/p")"
    ok_run
  done
  ws --app alltoall_pex --topo torus --dims 2x2x2 --args len=128 --preset t3d > "$TMP/p" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/p")"
}

# --- reports --------------------------------------------------------------
reports_match_the_model() {
  ws --app pingpong --topo mesh --dims 4x4 --args 'len=256 iters=2' >/dev/null 2>&1; expect '[ $? = 0 ]'
  local d; d=$(latest)
  expect '[ "$(tail -n +2 "$d/messages.csv" | wc -l)" = 4 ]'
  # uncontended: it enters at the first 8 ns cycle after post + t_send, and
  # its tail is out (6 hops + 32 flits) x 8 ns = 304 ns later
  expect '[ "$(awk -F, "NR > 1 && \$5 == 6 { print \$11 - \$9 }" "$d/messages.csv" | sort -u)" = 304 ]' "$(cat "$d/messages.csv")"
  expect '[ "$(awk -F, "NR > 1 { q = \$9 - \$8 - 500; if (q < 0 || q >= 8) print \"bad\" }" "$d/messages.csv")" = "" ]'
  expect '[ "$(awk -F, "NR > 1 { s += \$14 } END { print s }" "$d/messages.csv")" = 0 ]'   # nothing blocked
  # XY route 0 -> 15: 0 -> 1 -> 2 -> 3 along dim 0, then 3 -> 7 -> 11 -> 15: 2 worms x 32 flits each
  expect '[ "$(awk -F, "\$1 == 0 && \$2 == 0 && \$3 == \"+\" { print \$5, \$6 }" "$d/links.csv")" = "64 2" ]' "$(head -5 "$d/links.csv")"
  expect '[ "$(awk -F, "\$1 == 3 && \$2 == 1 && \$3 == \"+\" { print \$5 }" "$d/links.csv")" = 64 ]'
  expect '[ "$(awk -F, "\$1 == 1 && \$2 == 1 { print \$5 }" "$d/links.csv" | sort -u)" = 0 ]'
  expect '[ "$(summary .links.max_flits)" = 64 ] && [ "$(summary .links.max_blocked_cycles)" = 0 ]'
  # PEX on a 4x4 mesh: step 0 is the library's start barrier (16 x 4 empty
  # messages), then 15 steps; step 1 (exchange with rank ^ 1) shares no link
  ws --app alltoall_pex --topo mesh --dims 4x4 --args len=64 > "$TMP/pex_out" 2>&1; expect '[ $? = 0 ]'
  expect '[ "$(summary ".steps[0] | [.step, .messages] | tostring")" = "[0,64]" ]'
  expect '[ "$(summary ".steps[1] | [.step, .messages, .max_link_sharing, .contention_free] | tostring")" = "[1,16,1,true]" ]'
  expect '[ "$(summary ".steps | length")" = 16 ]'
  expect '[ "$(summary "[.per_node[].startups] | add")" = $((2 * (240 + 64))) ]'
  # each step's times in steps.csv are those of its messages in messages.csv
  expect '[ "$(step_times_from_messages "$(latest)/messages.csv")" = "$(step_times_of "$(latest)/steps.csv")" ]' \
    "$(step_times_from_messages "$(latest)/messages.csv" | head -3) against $(step_times_of "$(latest)/steps.csv" | head -3)"
  expect '[ "$(step_times_of "$(latest)/steps.csv" | wc -l)" = 16 ]'
  expect '[ "$(summary ".steps[1].max_blocked_ns")" = 0 ]'    # contention-free: nothing waits
  expect '[ "$(step_times_of "$(latest)/steps.csv" | awk "\$1 > 0 && \$5 > 0" | wc -l)" -gt 0 ]'   # and some step does
  expect 'grep -q "^  longest message step [1-9]" "$TMP/pex_out"'
}

# step,first_post_ns,last_arrive_ns,max_network_ns,max_blocked_ns,blocked_ns of
# steps.csv, by header name; and the same computed from messages.csv.
step_times_of() {
  paste -d' ' <(csv_col "$1" step) <(csv_col "$1" first_post_ns) <(csv_col "$1" last_arrive_ns) \
    <(csv_col "$1" max_network_ns) <(csv_col "$1" max_blocked_ns) <(csv_col "$1" blocked_ns) | sort -n
}
step_times_from_messages() {
  paste -d' ' <(csv_col "$1" step) <(csv_col "$1" t_post_ns) <(csv_col "$1" t_inject_ns) \
    <(csv_col "$1" t_arrive_ns) <(csv_col "$1" blocked_ns) |
  awk '{ s = $1; n = $4 - $3
         if (!(s in fp) || $2 < fp[s]) fp[s] = $2
         if (!(s in la) || $4 > la[s]) la[s] = $4
         if (!(s in mn) || n > mn[s]) mn[s] = n
         if (!(s in mb) || $5 > mb[s]) mb[s] = $5
         b[s] += $5 }
       END { for (s in fp) printf "%s %s %s %.0f %s %.0f\n", s, fp[s], la[s], mn[s], mb[s], b[s] }' | sort -n
}
# docs/network.md ("Where the time goes") reads the steps.csv of Thakur's
# 8x8 PEX at 16 KB on the Delta: the longest time a message of step 1,
# alone on its links, spent in the network, and the range of that figure
# over steps 4-7 and over steps 32-63, in ms.
network_ms_of_steps() {   # FIRST LAST [DECIMALS]: min-max of max_network_ns over those steps
  paste -d' ' <(csv_col "$(latest)/steps.csv" step) <(csv_col "$(latest)/steps.csv" max_network_ns) |
    awk -v a="$1" -v b="$2" -v d="${3:-1}" '$1 >= a && $1 <= b { if (n++ == 0 || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
                                          END { f = "%." d "f"; printf f, lo / 1e6; if (lo != hi) printf "-" f, hi / 1e6 }'
}
steps_figures_of_the_docs() {
  ws --app alltoall_pex --topo mesh --dims 8x8 --preset delta --args len=16384 > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "$(tail -5 "$TMP/o")"
  doc_figure docs/network.md "step 1's message, ms" "$(network_ms_of_steps 1 1 2)" 4.35 'a message alone takes @ ms in'
  doc_figure docs/network.md "steps 4-7, ms" "$(network_ms_of_steps 4 7)" 8.5-8.7 'NIC rate\), @ ms, as'
  doc_figure docs/network.md "steps 32-63, ms" "$(network_ms_of_steps 32 63 | sed 's/-/ to /')" "13.0 to 21.8" 'keep some @ ms in the network'
}

# --- the same apps on RISC-V nodes and on mixed machines -----------------
rv_hello_mesh() {
  ws --arch riscv --app hello --topo mesh --dims 2x2 > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  ok_run
  expect '[ "$(summary ".arch | tostring")" = "[\"riscv\",\"riscv\",\"riscv\",\"riscv\"]" ]' "$(summary .arch)"
  for i in 0 1 2 3; do expect "grep -q 'hello from node $i of 4, mesh' $(latest)/node-00$i.log"; done
  expect "grep -q 'coordinates (1,1)' $(latest)/node-003.log"
  expect 'grep -q "node ISA        riscv" "$TMP/o"'
}
# One app, one machine, each ISA in turn: every node checks every byte it
# receives (a wrong byte fails the run), and the traffic must be the same
# message for message. Only the simulated times may differ, by the
# instructions each ISA needs; both are printed.
same_on_each_isa() {   # app args...
  local arch out=() times=()
  for arch in arm riscv mixed; do
    ws --arch "$arch" --app "$@" > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$arch: $(cat "$TMP/o")"
    ok_run
    # traffic only: per-node timings (wait_ns) differ with the ISA's speed
    out+=("$(summary '[.messages, .bytes, .unreceived_messages, (.per_node | map(del(.wait_ns)))] | tostring')")
    times+=("$arch $(summary .sim_time_ns) ns")
  done
  expect '[ "$(summary .arch[0])" = arm ] && [ "$(summary .arch[1])" = riscv ]' "mixed: $(summary .arch)"
  echo "info: simulated time: ${times[*]}"
  expect '[ "${out[0]}" = "${out[1]}" ] && [ "${out[0]}" = "${out[2]}" ]' \
         "traffic differs: arm ${out[0]:0:200} riscv ${out[1]:0:200} mixed ${out[2]:0:200}"
}
isa_pingpong_mesh4x4() {
  same_on_each_isa pingpong --nodes 16 --topo mesh --dims 4x4 --args 'len=1000 iters=3'
  expect '[ "$(summary .messages)" = 6 ] && [ "$(summary .bytes)" = 6000 ]'
  expect "grep -q 'pingpong 0 <-> 15: 3 x 1000 bytes' $(latest)/node-000.log"
}
isa_pex_torus4x4() {
  same_on_each_isa alltoall_pex --topo torus --dims 4x4 --args len=200
  expect '[ "$(summary .messages)" = $((240 + 64)) ] && [ "$(summary .bytes)" = 48000 ]'   # + the start barrier
}
isa_hello_4x4() {
  same_on_each_isa hello --topo mesh --dims 4x4
  expect "grep -q 'hello from node 13 of 16, mesh, coordinates (1,3)' $(latest)/node-013.log"
}
# A machine of three ISA slots, cycled: node i runs word i mod 3.
mixed_list_pex() {
  ws --arch arm,riscv,riscv --app alltoall_pex --topo hypercube --nodes 8 --args len=64 >/dev/null 2>&1; expect '[ $? = 0 ]'
  ok_run
  expect '[ "$(summary ".arch | join(\",\")")" = arm,riscv,riscv,arm,riscv,riscv,arm,riscv ]' "$(summary .arch)"
}

# --- the collective library (apps/coll/): every algorithm on two shapes ---
# Every node checks every byte it ends with; coll_ok also wants each node's
# reported time (summary.json "records", through the NIC), no node
# reporting wrong bytes, and no message left unreceived. The collective apps start
# with a barrier of p*ceil(lg p) empty messages.
coll_ok() {   # wormsim args...
  ws "$@" > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(tail -5 "$TMP/o")"
  ok_run
  expect '[ "$(summary .unreceived_messages)" = 0 ]'
  expect '[ "$(summary .records.coll_ns.nodes)" = "$(summary .nodes)" ]'
  expect '[ "$(csv_col "$(latest)/records.csv" key | grep -c "^coll_ns$")" = "$(summary .nodes)" ]'
  expect '[ "$(summary .records.wrong)" = null ]'
}
barrier_msgs() { local p=$1 r=0 d=1; while [ $d -lt $p ]; do r=$((r + 1)); d=$((d * 2)); done; echo $((p * r)); }
coll_pex_gen_4x5()       { coll_ok --app alltoall_pex_gen --topo mesh --dims 4x5 --args len=100
                           expect '[ "$(summary .messages)" = $((20 * 19 + $(barrier_msgs 20))) ] && [ "$(summary .bytes)" = 38000 ]'; }
coll_pex_gen_6x8()       { coll_ok --app alltoall_pex_gen --topo torus --dims 6x8 --args len=64; }
coll_pex_gen_shift_4x5() { coll_ok --app alltoall_pex_gen_shift --topo mesh --dims 4x5 --args len=100; }
coll_pex_gen_shift_6x8() { coll_ok --app alltoall_pex_gen_shift --topo mesh --dims 6x8 --args len=64; }
coll_gen_4x5()           { coll_ok --app alltoall_gen --topo mesh --dims 4x5 --args len=1000; }
coll_gen_torus_4x4()     { coll_ok --app alltoall_gen --topo torus --dims 4x4 --args len=1024; }
coll_direct_hypercube()  { coll_ok --app alltoall_direct --topo hypercube --nodes 16 --args len=256; }
coll_direct_mesh_4x4()   { coll_ok --app alltoall_direct --topo mesh --dims 4x4 --args len=256; }
coll_std_exchange_16()   { coll_ok --app alltoall_std_exchange --topo hypercube --nodes 16 --args len=64
                           # log2 N messages of N/2 blocks per node
                           expect '[ "$(summary .messages)" = $((16 * 4 + 64)) ] && [ "$(summary .bytes)" = $((16 * 4 * 8 * 64)) ]'; }
coll_std_exchange_32()   { coll_ok --app alltoall_std_exchange --topo hypercube --nodes 32 --args len=33; }
coll_binary_4x4()        { coll_ok --app alltoall_binary_exchange --topo mesh --dims 4x4 --args len=64
                           expect '[ "$(summary .bytes)" = $((16 * 4 * 8 * 64)) ]'; }
coll_binary_8x8()        { coll_ok --app alltoall_binary_exchange --topo mesh --dims 8x8 --args len=20; }
coll_quadrant_4x4()      { coll_ok --app alltoall_quadrant_exchange --topo mesh --dims 4x4 --args len=64
                           # 3 sqrt-N log steps of N/4 blocks per node: 16 x 6 messages of 4 blocks
                           expect '[ "$(summary .messages)" = $((16 * 6 + 64)) ] && [ "$(summary .bytes)" = $((16 * 6 * 4 * 64)) ]'
                           # the steps line counts the marked steps, not step 0 (the barrier before them)
                           expect 'grep -q "^  steps           $(summary .records.steps.node0) marked, " "$TMP/o"' "$(grep steps "$TMP/o")"; }
coll_quadrant_8x8()      { coll_ok --app alltoall_quadrant_exchange --topo mesh --dims 8x8 --args len=16; }
coll_a1_8x8()            { coll_ok --app alltoall_a1 --topo torus --dims 8x8 --args len=16
                           expect '[ "$(summary .records.steps.node0)" = 7 ]' "$(summary .records.steps)"; }
coll_a1_16x16()          { coll_ok --app alltoall_a1 --topo torus --dims 16x16 --args len=4; }
coll_an1_4x4()           { coll_ok --app alltoall_an1 --topo torus --dims 4x4 --args len=64
                           expect '[ "$(summary .records.steps.node0)" = 5 ]' "$(summary .records.steps)"; }
coll_an1_8x8()           { coll_ok --app alltoall_an1 --topo torus --dims 8x8 --args len=8; }
coll_auto_a2a()          { coll_ok --app alltoall_auto --topo mesh --dims 4x5 --args len=512
                           expect 'grep -q "alltoall_auto: chose alltoall_gen" "$(latest)/node-000.log"'; }
coll_auto_hypercube()    { coll_ok --app alltoall_auto --topo hypercube --nodes 16 --args len=32
                           expect 'grep -q "chose alltoall_std_exchange" "$(latest)/node-000.log"'; }
coll_flood_5x5()         { coll_ok --app allgather_flood --topo torus --dims 5x5 --port-model all-port --args len=256
                           # 4 steps; every channel relays (n^2-1)/4 = 6 blocks: 25 nodes x 4 channels x 6 x 256 bytes
                           expect '[ "$(summary .bytes)" = $((25 * 4 * 6 * 256)) ]'; }
coll_flood_7x7()         { coll_ok --app allgather_flood --topo torus --dims 7x7 --port-model all-port --args len=64; }
coll_flood_mesh_4x4()    { coll_ok --app allgather_flood --topo mesh --dims 4x4 --port-model all-port --args len=64; }
coll_rowcol_5x5()        { coll_ok --app allgather_rowcol --topo torus --dims 5x5 --args len=128
                           expect '[ "$(summary .bytes)" = $((25 * 24 * 128)) ]'; }   # every node gets 24 blocks once
coll_rowcol_4x5()        { coll_ok --app allgather_rowcol --topo torus --dims 4x5 --port-model all-port --args len=100; }
coll_ring_4x5()          { coll_ok --app allgather_ring --topo mesh --dims 4x5 --args len=100
                           expect '[ "$(summary .messages)" = $((20 * 7 + $(barrier_msgs 20))) ]'; }
coll_ring_torus_3d()     { coll_ok --app allgather_ring --topo torus --dims 4x2x3 --args len=64; }
coll_allgather_std_16()  { coll_ok --app allgather_std_exchange --topo hypercube --nodes 16 --args len=64
                           expect '[ "$(summary .bytes)" = $((16 * 15 * 64)) ]'; }
coll_allgather_std_8()   { coll_ok --app allgather_std_exchange --topo hypercube --nodes 8 --args len=7; }
coll_bruck_5x3()         { coll_ok --app allgather_bruck --topo mesh --dims 5x3 --args len=100
                           # ceil(lg 15) = 4 messages per node, p - 1 blocks each
                           expect '[ "$(summary .messages)" = $((15 * 4 + $(barrier_msgs 15))) ] && [ "$(summary .bytes)" = $((15 * 14 * 100)) ]'; }
coll_bruck_torus_4x4()   { coll_ok --app allgather_bruck --topo torus --dims 4x4 --args len=1024; }
coll_auto_allgather()    { coll_ok --app allgather_auto --topo torus --dims 5x5 --port-model all-port --args len=64
                           expect 'grep -q "allgather_auto: chose allgather_flood" "$(latest)/node-000.log"'; }
coll_no_sync()           { coll_ok --app alltoall_gen --topo mesh --dims 4x5 --args 'len=100 sync=0'
                           expect '[ "$(summary .messages)" = $((20 * 19)) ]'; }
coll_persistent_runs()   { coll_ok --app alltoall_quadrant_exchange --topo mesh --dims 4x4 --args 'len=64 runs=3'
                           expect '[ "$(summary .bytes)" = $((3 * 16 * 6 * 4 * 64)) ]'   # three runs of one request
                           coll_ok --app allgather_flood --topo torus --dims 3x3 --port-model all-port --args 'len=40 runs=2'; }
coll_oneshot_calls()     { coll_ok --app alltoall_an1 --topo torus --dims 4x4 --args 'len=64 oneshot=1'
                           coll_ok --app allgather_ring --topo mesh --dims 3x2 --args 'len=10 oneshot=1 runs=2'; }
coll_corrupt_fails() {   # a wrong byte fails the run: the verification is live
  ws --app alltoall_quadrant_exchange --topo mesh --dims 4x4 --args 'len=64 corrupt=3' > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc"
  expect '[ "$(summary .ok)" = false ]'
  expect 'summary .error | grep -q "node 3 exited with status 1"' "$(summary .error)"
  expect 'grep -q "node 3 found 1 wrong bytes" "$(latest)/node-003.log"'
  expect '[ "$(record 3 wrong)" = 1 ] && [ "$(summary .records.wrong.nodes)" = 1 ]' "$(cat "$(latest)/records.csv")"
}
# Bad input for a collective: refused by the run tool, exit 2, no QEMU.
bad_coll_shape()   { bad_input --app alltoall_binary_exchange --topo torus --dims 4x5 -- \
                       "app alltoall_binary_exchange needs a 2D mesh of 2\^d x 2\^d nodes \(TOPO=mesh DIMS=2x2, 4x4, 8x8 ...\), not torus 4x5"; }
bad_coll_port()    { bad_input --app allgather_flood --topo torus --dims 5x5 -- "needs the all-port model \(PORT_MODEL=all-port\).*\(one-port\)"; }
bad_coll_hyper()   { bad_input --app alltoall_std_exchange --dims 4x4 -- "needs a hypercube \(TOPO=hypercube NODES=2\^n\), not torus 4x4"; }
bad_coll_len0()    { bad_input --app alltoall_gen --dims 4x4 --args len=0 -- "len=0 is not a block length from 1 to 262144 bytes \(the largest message, --msg-max\)"; }
bad_coll_len_nan() { bad_input --app alltoall_gen --dims 4x4 --args len=big -- "app alltoall_gen: len=big is not a whole number"; }
bad_coll_len_msg() { bad_input --app alltoall_std_exchange --topo hypercube --nodes 64 --args len=9000 -- \
                       "messages of 32 blocks = 288000 bytes, more than the largest message, 262144 bytes \(--msg-max\); accepted: len=1..8192"; }
bad_coll_len_mem() { bad_input --app alltoall_pex --topo hypercube --nodes 256 --args len=262144 -- \
                       "len=262144 needs [0-9]+ KiB of node memory \(256 blocks held at once\), more than the 30720 KiB a node has; accepted: len=1..[0-9]+"; }

# --- determinism ---------------------------------------------------------
determinism() {   # [arch]
  local arch=${1:-arm}
  ws --arch "$arch" --app alltoall_pex --dims 4x4 --args len=300 >/dev/null 2>&1; expect '[ $? = 0 ]'
  local a; a=$(summary '[.sim_time_ns, .messages, .bytes, .finish_ns] | tostring')
  # the same run with both host cores loaded
  ( for i in 1 2; do timeout 20 sh -c 'while :; do :; done' & done; wait ) & local load=$!
  ws --arch "$arch" --app alltoall_pex --dims 4x4 --args len=300 >/dev/null 2>&1; expect '[ $? = 0 ]'
  local b; b=$(summary '[.sim_time_ns, .messages, .bytes, .finish_ns] | tostring')
  pkill -P $load 2>/dev/null; kill $load 2>/dev/null; wait $load 2>/dev/null
  expect '[ "$a" = "$b" ]' "unloaded $a, loaded $b"
  expect '[ "$(echo "$a" | jq ".[0]")" -gt 0 ]'
  echo "info: $arch: simulated time $(echo "$a" | jq ".[0]") ns and every finish time equal in both runs"
}
# The host's wake-ups (summary.json engine.doorbells and .interrupts): a
# node rings its doorbell only for a descriptor it waits on, never for a
# SEND or a STEP (netdev/nic.c, post), and the router raises one interrupt
# per answer. In alltoall_pex on 16 nodes (arch $1) each node receives 15
# messages and those of the barriers around the collective: each one a
# RECV, one doorbell and one interrupt, beside the few of every run
# (hello, RECORDs, EXIT), at
# most 8 a node.
wakeups_per_message() {   # arch
  ws --arch "$1" --app alltoall_pex --dims 4x4 --args len=300 > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  local m d i; m=$(summary .messages); d=$(summary .engine.doorbells); i=$(summary .engine.interrupts)
  expect '[ "$m" -ge 240 ] && [ "$d" -ge "$m" ] && [ "$d" -le $((m + 16 * 8)) ]' "$d doorbells for $m messages"
  expect '[ "$i" -ge "$m" ] && [ "$i" -le $((m + 16 * 8)) ]' "$i interrupts for $m messages"
  expect 'grep -q "router CPU [0-9.]* s, $d doorbells, $i interrupts;" "$TMP/o"' "$(grep wall "$TMP/o")"
  echo "info: $1: $d doorbells and $i interrupts for $m messages"
}
# A node whose QEMU ended leaves no console behind in the router: the
# pipe is closed at its end, not read again at every wake-up (watched
# level-triggered, a pipe at its end is always ready: the router spun on
# it until the run ended, about 1.1 s of its CPU against 0.26 s here).
# pingpong on 4 nodes, cold: nodes 1 and 2 end at once, 0 and 3 exchange
# 8000 messages; the router's pipes, sampled every 20 ms while it runs
# (the four are open together only while the nodes boot, a few tenths of a
# second on a busy host), drop by two.
ended_nodes_consoles_are_closed() {
  "$WORMSIM" --kernel "$KERNEL" --runs-dir "$RUNS" --nodes 4 --app pingpong --args 'iters=4000 len=64' > "$TMP/o" 2>&1 &
  local w=$! k min=99 max=0
  while kill -0 $w 2>/dev/null; do
    k=$(ls -l /proc/$w/fd 2>/dev/null | grep -c "pipe:")
    if [ "$k" -gt 0 ]; then [ "$k" -lt $min ] && min=$k; [ "$k" -gt $max ] && max=$k; fi
    sleep 0.02
  done
  wait $w; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  expect '[ $max -ge 4 ] && [ $min -le $((max - 2)) ]' "the router held $min to $max pipes: the ended nodes' consoles stayed open"
}
# A run whose results cannot all be written has failed: on a 12 KiB
# tmpfs as its runs directory, hello says which files it could not write,
# prints FAILED with the reason and exits 1 (it printed ok and exited 0).
# Needs root for the mount; run.sh skips it otherwise, and says so.
full_runs_dir_fails() {
  mkdir -p "$TMP/tiny" && mount -t tmpfs -o size=12k tmpfs "$TMP/tiny" || exit 1
  "$WORMSIM" --kernel "$KERNEL" --runs-dir "$TMP/tiny" --nodes 2 --app hello > "$TMP/o" 2>&1; local rc=$?
  umount "$TMP/tiny"
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/o")"
  expect 'grep -q "cannot write .*summary.json" "$TMP/o" && grep -q "hello on torus 2x1 (2 nodes): FAILED" "$TMP/o"' "$(cat "$TMP/o")"
  expect 'grep -q "its results could not all be written in $TMP/tiny/" "$TMP/o"' "$(cat "$TMP/o")"
}
# The node clock rests on the instruction counter being exact under
# -icount shift=0; every node checks it at boot. Without -icount the check
# must refuse to run the app, naming the cause.
counter_check() {   # arch template-option template
  grep -v -- '-icount' "$3" > "$TMP/noicount.args"
  ws --arch "$1" "$2" "$TMP/noicount.args" --app hello --nodes 2 > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/o")"
  expect 'grep -q "panic: the instruction counter is not exact" $(latest)/node-00[01].log' "$(cat "$(latest)"/node-00*.log)"
  expect '[ "$(summary .fault.kind)" = panic ]'
}
rv_counter_check()  { counter_check riscv --qemu-template-riscv qemu-scripts/riscv-virt.args; }
arm_counter_check() { counter_check arm --qemu-template qemu-scripts/arm-virt.args; }
concurrent_runs() {
  ws --app alltoall_pex --dims 4x4 --args len=128 > "$TMP/c1" 2>&1 & local p1=$!
  ws --app alltoall_pex --dims 4x4 --args len=128 > "$TMP/c2" 2>&1 & local p2=$!
  wait $p1; local r1=$?; wait $p2; local r2=$?
  expect '[ $r1 = 0 ] && [ $r2 = 0 ]' "$(cat "$TMP/c1" "$TMP/c2")"
  local d1 d2; d1=$(awk '/results/{print $2}' "$TMP/c1"); d2=$(awk '/results/{print $2}' "$TMP/c2")
  expect '[ "$d1" != "$d2" ]'
  expect '[ "$(jq .sim_time_ns "$d1")" = "$(jq .sim_time_ns "$d2")" ]'
}
gdb_node() {   # [--arch value] [ISA of node 2]
  local arch=${1:-arm} isa=${2:-${1:-arm}}
  command -v gdb-multiarch >/dev/null || { echo "gdb-multiarch missing"; exit 1; }
  rm -f "$TMP/g"   # (an earlier test's output would end the wait below at once)
  ws --arch "$arch" --app hello --nodes 4 --gdb 2 > "$TMP/g" 2>&1 & local w=$!
  for i in $(seq 100); do [ -f "$(latest)/gdb" ] && grep -q 'is halted' "$TMP/g" && break; sleep 0.1; done
  expect 'grep -q "node 2 is halted with its gdbstub on 127.0.0.1:" "$TMP/g"'
  expect 'grep -qF "attach with: make gdb NODE=2 RUN=$(latest) " "$TMP/g"' "$(cat "$TMP/g")"
  expect 'grep -q "^arch $isa\$" "$(latest)/gdb"' "$(cat "$(latest)/gdb")"
  expect 'grep -q "^kernel /.*build/$isa/node.elf\$" "$(latest)/gdb"' "$(cat "$(latest)/gdb")"
  sleep 0.5
  # The other nodes must wait while node 2 is stopped: the run is still going.
  expect 'kill -0 $w'
  expect 'tests/gdb-attach.sh "$(latest)" 3 "$KERNEL" 2>&1 | grep -q "node 3 has no gdbstub in .*; node 2 has (make gdb NODE=2)"'
  timeout 60 tests/gdb-attach.sh "$(latest)" 2 /nonexistent -batch -ex 'break app_hello' -ex continue \
      -ex 'print cfg->rank' -ex 'print $pc' -ex continue > "$TMP/gdbout" 2>&1
  wait $w; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/g")"
  expect 'grep -q "Breakpoint 1, app_hello" "$TMP/gdbout"' "$(cat "$TMP/gdbout")"
  expect 'grep -q "\$1 = 2" "$TMP/gdbout"'
  expect 'grep -q "\$2 = .*<app_hello" "$TMP/gdbout"' "$(cat "$TMP/gdbout")"
  ok_run
  # an ended run's stub is gone, whichever node is asked for; a directory that is not there is said so
  expect 'tests/gdb-attach.sh "$(latest)" 3 "$KERNEL" 2>&1 | grep -q "has ended .*: its gdbstub is gone; start one with: make run ... GDB=3"'
  expect 'tests/gdb-attach.sh "$TMP/nosuch" 1 "$KERNEL" 2>&1 | grep -q "make gdb: no run directory .*/nosuch"'
}
# gdb's kill ends the node's QEMU: the run fails naming the node and gdb,
# and leaves no QEMU behind.
gdb_kill_is_named() {
  command -v gdb-multiarch >/dev/null || { echo "gdb-multiarch missing"; exit 1; }
  rm -f "$TMP/g"   # (an earlier test's output would end the wait below at once)
  "$WORMSIM" --kernel "$KERNEL" --runs-dir "$RUNS" --app hello --nodes 4 --gdb 1 > "$TMP/g" 2>&1 & local w=$!
  for i in $(seq 100); do grep -q 'is halted' "$TMP/g" && break; sleep 0.1; done
  timeout 60 tests/gdb-attach.sh "$(latest)" 1 "$KERNEL" -batch -ex 'break app_hello' -ex continue -ex kill > "$TMP/gdbout" 2>&1
  wait $w; local rc=$?
  expect '[ $rc = 1 ]' "rc $rc: $(cat "$TMP/g")"
  expect '[ "$(summary .error)" = "node 1: its QEMU exited with status 0 before the node finished (gdb'"'"'s kill ends the QEMU of the node under gdb; detach lets the node run on); see node-001.log" ]' "$(summary .error)"
  expect '[ -z "$(qemu_of $w)" ]' "left: $(qemu_of $w)"
}

# A node stopped in gdb in the middle of the exchange, for 1.5 s of wall
# time, changes nothing simulated: the run waits for it.
determinism_with_a_paused_node() {
  command -v gdb-multiarch >/dev/null || { echo "gdb-multiarch missing"; exit 1; }
  ws --app alltoall_pex --dims 4x4 --args len=300 >/dev/null 2>&1; expect '[ $? = 0 ]'
  local a; a=$(summary '[.sim_time_ns, .finish_ns, .links.max_blocked_cycles] | tostring')
  rm -f "$TMP/g"   # (an earlier test's output would end the wait below at once)
  ws --app alltoall_pex --dims 4x4 --args len=300 --gdb 2 > "$TMP/g" 2>&1 & local w=$!
  for i in $(seq 100); do grep -q 'is halted' "$TMP/g" 2>/dev/null && break; sleep 0.1; done
  timeout 60 tests/gdb-attach.sh "$(latest)" 2 "$KERNEL" -batch -ex 'break net_recv' -ex continue \
      -ex continue -ex continue -ex 'shell sleep 1.5' -ex 'delete' -ex continue > "$TMP/gdbout" 2>&1
  wait $w; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/g")"
  expect '[ "$(grep -c "Breakpoint 1, net_recv" "$TMP/gdbout")" = 3 ]' "$(cat "$TMP/gdbout")"
  local b; b=$(summary '[.sim_time_ns, .finish_ns, .links.max_blocked_cycles] | tostring')
  expect '[ "$a" = "$b" ]' "undisturbed $a, paused $b"
}
# A user's session on node 3, in a collective's hook: break, step into the
# call, finish, print, try a call of the node's code (print net_rank(),
# which would run on the node and move its clock: make gdb keeps calls
# off), detach. The run ends ok, and its replay, without gdb, matches
# every figure (summary, messages, links, steps, records, node logs).
gdb_session_keeps_the_figures() {   # ISA list
  command -v gdb-multiarch >/dev/null || { echo "gdb-multiarch missing"; exit 1; }
  rm -f "$TMP/g"   # (an earlier test's output would end the wait below at once)
  ws --arch "$1" --app alltoall_pex --topo mesh --dims 4x2 --args len=256 --gdb 3 > "$TMP/g" 2>&1 & local w=$!
  local run=""   # this run's directory, from its "attach with" line
  for i in $(seq 100); do
    run=$(sed -n 's/.*attach with: make gdb NODE=3 RUN=\([^ ]*\) .*/\1/p' "$TMP/g" 2>/dev/null); [ -n "$run" ] && break; sleep 0.1
  done
  expect '[ -n "$run" ] || { kill $w; false; }' "$(cat "$TMP/g")"
  timeout 60 tests/gdb-attach.sh "$run" 3 "$KERNEL" -batch -ex 'break coll_xor_sends' -ex continue \
      -ex next -ex step -ex finish -ex 'print sh->nodes' -ex 'print net_rank()' -ex 'info args' -ex detach > "$TMP/gdbout" 2>&1
  wait $w; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/g")"
  expect 'grep -qE "Breakpoint 1, coll_xor_sends \(.*node=(node@entry=)?3," "$TMP/gdbout"' "$(cat "$TMP/gdbout")"
  expect 'grep -q "^\$1 = 8" "$TMP/gdbout"' "$(cat "$TMP/gdbout")"
  expect 'grep -q "detached" "$TMP/gdbout"' "$(cat "$TMP/gdbout")"
  ok_run
  "$WORMSIM" --replay "$run" > "$TMP/replay" 2>&1; local same=$?
  expect '[ $same = 0 ]' "$(cat "$TMP/replay")"
  expect 'grep -q "may-call-functions is off" "$TMP/gdbout"' "$(cat "$TMP/gdbout")"
  expect 'grep -q "make gdb: gdb may not call the node.s functions .*move its simulated clock" "$TMP/gdbout"'
}
trace_matches_the_counters() {
  ws --app alltoall_pex --topo mesh --dims 4x4 --args len=128 --trace >/dev/null 2>&1; expect '[ $? = 0 ]'
  local d; d=$(latest)
  expect 'jq -e ".traceEvents | length > 0" "$d/trace.json" >/dev/null' "trace.json is not valid JSON"
  expect '[ "$(jq "[.traceEvents[] | select(.ph == \"X\" and .name == \"send\")] | length" "$d/trace.json")" = "$(summary .messages)" ]'
  local worms; worms=$(awk -F, 'NR > 1 { s += $6 } END { print s }' "$d/links.csv")
  expect '[ "$(jq "[.traceEvents[] | select(.ph == \"X\" and .pid == 2)] | length" "$d/trace.json")" = "$worms" ]'
  expect '[ "$(jq "[.traceEvents[] | select(.ph == \"X\" and .dur < 0)] | length" "$d/trace.json")" = 0 ]'
  expect '[ "$(jq -r "[.traceEvents[] | select(.ph == \"M\" and .pid == 1)] | length" "$d/trace.json")" = 17 ]'
}
# trace.json is valid JSON whatever the run holds: a run without a message
# (only track names), and a deadlock, whose waits never got their answer:
# each waiting node's wait is on its track, from when it began.
trace_without_messages_and_of_a_deadlock() {
  ws --app hello --topo mesh --dims 2x2 --trace >/dev/null 2>&1; expect '[ $? = 0 ]'
  expect 'jq -e ".traceEvents | length == 14" "$(latest)/trace.json" >/dev/null' "$(tail -c 300 "$(latest)/trace.json")"
  ws --app deadlock --topo mesh --dims 2x2 --trace >/dev/null 2>&1; expect '[ $? = 1 ]'
  local open='[.traceEvents[] | select(.ph == "X" and .pid == 1 and (.args.detail | startswith("unanswered")))
              | [.tid, .name, (.ts * 1000 | round), .args.detail]]'
  local want='[.waiting[] | [.node, .op, .since_ns, "unanswered: src=\(.src) tag=\(.tag)"]]'
  expect '[ "$(jq -c "$open" "$(latest)/trace.json")" = "$(summary "$want | tostring")" ]' \
         "trace: $(jq -c "$open" "$(latest)/trace.json"), summary: $(summary "$want | tostring")"
}

# --- bad input: a clear message, exit 2, no run started --------------------
bad_input() {   # args... -- expected message regex
  local args=() msg
  while [ "$1" != -- ]; do args+=("$1"); shift; done; msg=$2
  local before; before=$(ndirs)
  ws "${args[@]}" > "$TMP/b" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(cat "$TMP/b")"
  expect 'grep -Eq -- "$msg" "$TMP/b"' "$(cat "$TMP/b")"
  expect '[ "$(ndirs)" = "$before" ]' "a run directory was created"
}
bad_app()       { bad_input --app nosuch -- "unknown app 'nosuch'; accepted:.*" && expect 'grep -q alltoall_pex "$TMP/b"'; }
bad_nodes_dims(){ bad_input --nodes 16 --dims 4x5 -- "NODES=16 does not match DIMS=4x5 \(20 nodes\)"; }
bad_dims()      { bad_input --dims 4xx4 -- "DIMS='4xx4' is malformed; expected .*joined by 'x'"; }
bad_topo()      { bad_input --topo ring -- "unknown topology 'ring'; accepted: mesh, torus, hypercube, banyan, fattree"; }
bad_hypercube() { bad_input --topo hypercube --nodes 12 -- "hypercube needs NODES a power of two"; }
bad_pex_size()  { bad_input --app alltoall_pex --dims 4x3 -- "alltoall_pex needs a power-of-two node count, not 12"; }
bad_gdb()       { bad_input --nodes 4 --gdb 9 -- "GDB \(node to debug\) '9' is not a whole number from 0 to 3"; }
bad_option()    { bad_input --t-send -5 -- "t_send_ns '-5' is not a whole number from 0 to"; }
bad_param_key() { bad_input --set 'vcz=2' -- "unknown parameter 'vcz'; accepted keys: .*vcs"; }
bad_param_val() { bad_input --set 'switching=teleport' -- "switching 'teleport' is unknown; accepted: wormhole, cut-through, store-and-forward"; }
bad_torus_vcs() { bad_input --dims 4x4 --set vcs=1 -- "a torus needs at least 2 virtual channels"; }
bad_preset()    { printf 'vcs = 2\nhop_cycles = fast\n' > "$TMP/bad.conf"
                  bad_input --preset "$TMP/bad.conf" -- "bad.conf:2: hop_cycles 'fast' is not a whole number"; }
dup_preset_key(){ printf 'vcs = 2\nhop_cycles = 1\nvcs = 4\n' > "$TMP/dup.conf"
                  bad_input --preset "$TMP/dup.conf" -- "dup.conf:3: vcs is given twice \(line 1 too\); give it once"; }
missing_preset(){ bad_input --preset nosuch -- "cannot read parameter file presets/nosuch.conf"; }
bad_arch()      { bad_input --arch sparc -- "unknown arch 'sparc'; accepted: arm, riscv, mixed .*comma-separated list of arm and riscv"; }
bad_arch_list() { bad_input --arch arm,,riscv -- "unknown arch 'arm,,riscv'; accepted: arm, riscv, mixed"; }
bad_mpi_image() { bad_input --app mpi --nodes 4 -- "app mpi: the image build/arm/node.elf holds no MPI program; build and run one with make run MPI="; }
bad_mcast_one_node() { bad_input --app mcast_umesh --topo mesh --nodes 1 -- "app mcast_umesh: a multicast needs at least two nodes, a root and a destination"; }
bad_mdw_one_node()   { bad_input --app mdw --topo mesh --nodes 1 -- "app mdw: dst=\(every other node\): a multidestination worm needs at least two nodes"; }
bad_template()  { printf 'text\n' > "$TMP/plain"; chmod 644 "$TMP/plain"; printf '%s -M virt\n' "$TMP/plain" > "$TMP/tpl.args"
                  bad_input --qemu-template "$TMP/tpl.args" -- "QEMU template .*/tpl.args: its first word, the program .*/plain, is not executable"; }
bad_runs_dir()  { bad_input --runs-dir '' -- "--runs-dir is empty; give a directory \(default runs\)"; }
missing_qemu() {
  local before; before=$(ndirs)
  PATH=/nonexistent ws --app hello > "$TMP/b" 2>&1; local rc=$?
  expect '[ $rc = 2 ]'
  expect 'grep -q "qemu-system-arm not found on PATH; install it with: sudo apt-get install qemu-system-arm" "$TMP/b"' "$(cat "$TMP/b")"
  expect '[ "$(ndirs)" = "$before" ]'
}
missing_qemu_riscv() {
  local before; before=$(ndirs)
  PATH=/nonexistent ws --arch mixed --app hello > "$TMP/b" 2>&1; local rc=$?
  expect '[ $rc = 2 ]'
  expect 'grep -Eq "qemu-system-(arm|riscv64) not found on PATH; install it with: sudo apt-get install qemu-system-(arm|misc)" "$TMP/b"' "$(cat "$TMP/b")"
  PATH=/nonexistent ws --arch riscv --app hello > "$TMP/b" 2>&1; rc=$?
  expect '[ $rc = 2 ]'
  expect 'grep -q "qemu-system-riscv64 not found on PATH; install it with: sudo apt-get install qemu-system-misc" "$TMP/b"' "$(cat "$TMP/b")"
  expect '[ "$(ndirs)" = "$before" ]'
}
missing_cross_compiler() {
  PATH=/nonexistent /bin/bash tests/check-deps.sh node > "$TMP/b" 2>&1; local rc=$?
  expect '[ $rc = 1 ]'
  expect 'grep -q "arm-none-eabi-gcc (package gcc-arm-none-eabi)" "$TMP/b"' "$(cat "$TMP/b")"
  expect 'grep -q "riscv64-unknown-elf-gcc (package gcc-riscv64-unknown-elf)" "$TMP/b"' "$(cat "$TMP/b")"
  expect 'grep -q "sudo apt-get install -y gcc-arm-none-eabi gcc-riscv64-unknown-elf" "$TMP/b"' "$(cat "$TMP/b")"
  expect 'grep -q "make deps" "$TMP/b"'
  # make deps and .ci/run install this same list: both ISAs' packages
  for p in gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc qemu-system-arm; do
    expect 'grep "Install everything with" "$TMP/b" | grep -qw $p' "$(cat "$TMP/b")"
  done
  PATH=/nonexistent /bin/bash tests/check-deps.sh run riscv > "$TMP/b" 2>&1; rc=$?
  expect '[ $rc = 1 ]'
  expect 'grep -q "qemu-system-riscv64 (package qemu-system-misc)" "$TMP/b"' "$(cat "$TMP/b")"
}

# --- faults, hangs, deadlocks, bad descriptors ----------------------------
fault() {   # kind expected-name [arch]
  local want=$2
  ws --arch "${3:-arm}" --app crash --nodes 4 --args "node=2 kind=$1" > "$TMP/f" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc"
  expect '[ "$(summary .fault.node)" = 2 ] && [ "$(summary .fault.kind)" = "$want" ]' "$(summary .fault)"
  expect 'grep -q "node 2: $want at pc 0x" "$TMP/f"' "$(cat "$TMP/f")"
  expect 'grep -q "node 2: $want at pc 0x" "$(latest)/node-002.log"'
  for i in 0 1 3; do expect "[ -f $(latest)/node-00$i.log ]"; done
  expect '[ "$(summary .ok)" = false ]'
}
in_kernel_text() {   # the reported PC is the faulting instruction, in app_crash
  [ "$(arm-none-eabi-addr2line -f -e "$KERNEL" "$(printf 0x%x "$(summary .fault.pc)")" | head -1)" = app_crash ]
}
in_kernel_text_rv() {
  local f; f=$(riscv64-unknown-elf-addr2line -f -e "$KERNEL_RISCV" "$(printf 0x%x "$(summary .fault.pc)")" | head -1)
  [ "$f" = app_crash ] || { echo "pc $(summary .fault.pc) is in $f"; false; }
}
fault_dabort() { fault dabort "data abort"; expect in_kernel_text; expect '[ "$(summary .fault.addr)" = 16 ]'; }
fault_undef()  { fault undef "undefined instruction"; expect in_kernel_text; }
fault_pabort() { fault pabort "prefetch abort"; expect '[ "$(summary .fault.pc)" = 256 ] && [ "$(summary .fault.addr)" = 256 ]'; }
rv_fault_load()    { fault dabort "load access fault" riscv; expect in_kernel_text_rv; expect '[ "$(summary .fault.addr)" = 16 ]'; }
rv_fault_store()   { fault store "store access fault" riscv; expect in_kernel_text_rv; expect '[ "$(summary .fault.addr)" = 16 ]'; }
fault_store()      { fault store "data abort"; expect in_kernel_text; expect '[ "$(summary .fault.addr)" = 16 ]'; }
rv_fault_illegal() { fault undef "illegal instruction" riscv; expect in_kernel_text_rv; }
rv_fault_fetch()   { fault pabort "instruction access fault" riscv; expect '[ "$(summary .fault.pc)" = 256 ] && [ "$(summary .fault.addr)" = 256 ]'; }
# node 2 is arm in a mixed machine: node 1 (riscv) faults instead
mixed_fault() {
  ws --arch mixed --app crash --nodes 4 --args "node=1 kind=dabort" > "$TMP/f" 2>&1; local rc=$?
  expect '[ $rc = 1 ]'
  expect '[ "$(summary .fault.node)" = 1 ] && [ "$(summary .fault.kind)" = "load access fault" ]' "$(summary .fault)"
  expect in_kernel_text_rv
}
# A node that resets its board, or powers its QEMU off with status 0,
# before its EXIT fails the run, named, on each ISA: alone (-no-reboot)
# its QEMU ends before the node finished; on a pool the node boots again
# and says hello mid-run. The others' nodes are not reused.
reset_mid_run() {   # arch
  local k rc
  for k in reset off; do
    "$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" --arch "$1" --app crash \
      --nodes 4 --args "node=1 kind=$k" > "$TMP/r" 2>&1; rc=$?
    expect '[ $rc = 1 ]' "alone, $k: exit $rc: $(cat "$TMP/r")"
    expect '[ "$(summary .error)" = "node 1: its QEMU exited with status 0 before the node finished; see node-001.log" ]' \
      "alone, $k: $(summary .error)"
  done
  local P=rm-$$-$1
  pool_up "$P"; local pp=$pool_pid
  wp() { "$WORMSIM" --pool "$P" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" --arch "$1" "${@:2}"; }
  wp "$1" --app crash --nodes 4 --args "node=1 kind=reset" > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 1 ] && [ "$(summary .error)" = "node 1: restarted during the run (its NIC said hello again)" ]' \
    "pool, reset: exit $rc: $(cat "$TMP/r")"
  wp "$1" --app crash --nodes 4 --args "node=1 kind=off" > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 1 ] && [ "$(summary .error)" = "node 1: its QEMU exited with status 0 before the node finished; see node-001.log" ]' \
    "pool, off: exit $rc: $(cat "$TMP/r")"
  expect 'grep -q "^node pool       0 of 4 nodes warm$" "$TMP/r"' "the reset run's nodes were reused: $(cat "$TMP/r")"
  wp "$1" --app hello --nodes 4 > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 0 ] && grep -q "^node pool       0 of 4 nodes warm$" "$TMP/r"' "the failed run's nodes were reused: $(cat "$TMP/r")"
  kill -TERM $pp; wait $pp
  expect '[ -z "$(qemu_of $pp)" ]' "$(qemu_of $pp)"
}
fault_reset_mid_run()    { reset_mid_run arm; }
rv_fault_reset_mid_run() { reset_mid_run riscv; }
hang() {
  ws --app hang --nodes 4 --args node=1 --hang-timeout 2 > "$TMP/h" 2>&1; local rc=$?
  expect '[ $rc = 1 ]'
  expect 'grep -q "look hung" "$TMP/h"' "$(cat "$TMP/h")"
  expect 'grep -q "node 1 is running" "$TMP/h"'
  expect 'grep -q "node 0 waits in RECV(src=1, tag=0)" "$TMP/h"'
  expect '[ "$(summary ".waiting | length")" = 3 ]'
}
deadlock() {
  local t0=$SECONDS
  ws --app deadlock --nodes 4 > "$TMP/d" 2>&1; local rc=$?
  expect '[ $rc = 1 ]'
  expect 'grep -q "deadlock: every unfinished node waits" "$TMP/d"' "$(cat "$TMP/d")"
  expect 'grep -q "node 3 waits in RECV(src=0, tag=7)" "$TMP/d"'
  expect '[ "$(summary ".waiting | map(.node) | tostring")" = "[0,1,2,3]" ]'
  # no node exited: the report also says how far the nodes had got
  expect 'grep -Eq "^  simulated time  0 ns \(the last exit\); the nodes had reached [1-9][0-9]* ns when the run stopped$" "$TMP/d"' "$(cat "$TMP/d")"
  expect '[ $((SECONDS - t0)) -lt 10 ]' "deadlock found by the wall-clock limit, not by the router"
  # a wait for the first of several patterns is a wait too, named by its patterns
  ws --app deadlock --nodes 4 --args wait=probe_any > "$TMP/d" 2>&1; rc=$?
  expect '[ $rc = 1 ]'
  expect 'grep -q "node 3 waits in PROBE_ANY(src=0, tag=7 or 1 more patterns)" "$TMP/d"' "$(cat "$TMP/d")"
  expect '[ "$(summary ".waiting[3].patterns | tostring")" = "[{\"src\":0,\"tag\":7,\"mask\":0},{\"src\":\"any\",\"tag\":8,\"mask\":0}]" ]' "$(summary .waiting[3])"
}
baddesc() {  # what expected-regex
  local want=$2
  ws --app baddesc --nodes 4 --args "node=1 what=$1" > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 1 ]'
  expect '[ "$(summary .error)" != null ]'
  expect 'summary .error | grep -Eq -- "^node 1: $want"' "$(summary .error)"
}
baddesc_dst()  { baddesc dst "SEND descriptor [0-9]+: destination 9 out of range 0..3"; }
baddesc_len()  { baddesc len "SEND descriptor [0-9]+: length 2147483647 exceeds the largest message"; }
baddesc_off()  { baddesc off "SEND descriptor [0-9]+: payload \\[.* outside the .*transmit area"; }
baddesc_op()   { baddesc op "descriptor [0-9]+ has unknown operation 153"; }
baddesc_record() { baddesc record "RECORD descriptor [0-9]+: key 99; the keys are 0 coll_ns, 1 steps, 2 items, 3 wrong"; }
baddesc_ring() { baddesc ring "producer index 305419896 is beyond the ring"; }

# --- cleanup: signals, router death, leftovers ----------------------------
start_hung() {   # a run that stays up: node 0 spins, the others wait
  "$WORMSIM" --kernel "$KERNEL" --runs-dir "$RUNS" --app hang --nodes 4 --hang-timeout 300 > "$TMP/s" 2>&1 &
  wpid=$!
  for i in $(seq 100); do [ "$(qemu_of $wpid | wc -l)" = 4 ] && break; sleep 0.1; done
  expect '[ "$(qemu_of $wpid | wc -l)" = 4 ]' "QEMUs did not start"
  sleep 0.5
}
sigterm_cleans_up() {
  local shm0; shm0=$(ls /dev/shm | sort)
  start_hung
  kill -TERM $wpid; wait $wpid; local rc=$?
  expect '[ $rc = 143 ]' "exit $rc"
  expect '[ -z "$(qemu_of $wpid)" ]' "QEMUs left: $(qemu_of $wpid)"
  expect '[ "$(summary .interrupted_by_signal)" = 15 ]'
  expect '[ -f "$(latest)/node-000.log" ]'
  expect '[ "$(ls /dev/shm | sort)" = "$shm0" ]'
  expect '! grep -q "wormsim-$wpid-" /proc/net/unix'
}
sigint_cleans_up() {
  start_hung
  kill -INT $wpid; wait $wpid; local rc=$?
  expect '[ $rc = 130 ]' "exit $rc"
  expect '[ -z "$(qemu_of $wpid)" ]'
}
router_killed() {
  start_hung
  kill -KILL $wpid; wait $wpid 2>/dev/null
  for i in $(seq 50); do [ -z "$(qemu_of $wpid)" ] && break; sleep 0.1; done
  expect '[ -z "$(qemu_of $wpid)" ]' "QEMUs outlived the router: $(qemu_of $wpid)"
  expect '! grep -q "wormsim-$wpid-" /proc/net/unix'
}

# --- the real command lines -----------------------------------------------
make_run_default() {
  make -s run RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(tail -20 "$TMP/m")"
  expect 'grep -q "alltoall_pex on torus 8x8 (64 nodes): ok" "$TMP/m"'
  ok_run
  expect '[ "$(summary .messages)" = $((4032 + 64 * 6)) ]'
}
make_run_pingpong() {
  make -s run NODES=16 TOPO=mesh DIMS=4x4 APP=pingpong RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(tail "$TMP/m")"
  expect 'grep -q "pingpong on mesh 4x4 (16 nodes): ok" "$TMP/m"'
}
make_run_hypercube() {
  make -s run NODES=8 TOPO=hypercube APP=hello RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; expect '[ $? = 0 ]'
  expect 'grep -q "hello on hypercube 2x2x2 (8 nodes): ok" "$TMP/m"'
}
make_run_riscv() {
  make -s run ARCH=riscv NODES=64 APP=alltoall_pex RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(tail -20 "$TMP/m")"
  expect 'grep -q "alltoall_pex on torus 8x8 (64 nodes): ok" "$TMP/m"'
  expect 'grep -q "node ISA        riscv" "$TMP/m"'
  ok_run
  expect '[ "$(summary .messages)" = $((4032 + 384)) ]'
  expect '[ "$(summary "[.arch[] | select(. != \"riscv\")] | length")" = 0 ]'
}
make_run_mixed() {
  make -s run ARCH=mixed NODES=16 APP=alltoall_pex ARGS=len=100 RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(tail "$TMP/m")"
  expect 'grep -q "node ISA        mixed: 8 arm, 8 riscv" "$TMP/m"' "$(cat "$TMP/m")"
  expect '[ "$(summary .arch[14])" = arm ] && [ "$(summary .arch[15])" = riscv ]'
}
make_run_bad() {
  make -s run APP=nosuch RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; expect '[ $? != 0 ]'
  expect 'grep -q "unknown app" "$TMP/m"'
  make -s run ARCH=sparc RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; expect '[ $? != 0 ]'
  expect 'grep -q "unknown arch .sparc.; accepted: arm, riscv, mixed" "$TMP/m"' "$(cat "$TMP/m")"
  # a switch is 1, 0 or empty: any other word is refused before a node starts
  local before v rc; before=$(ndirs)
  for v in TRACE=off MERGE_PAGES=yes; do
    make -s run NODES=4 APP=hello "$v" RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; rc=$?; expect '[ $rc = 2 ]' "$v: $(cat "$TMP/m")"
    expect 'grep -q "make run: ${v%%=*}=.${v#*=}.: accepted: 1 (on), 0 or empty (off)" "$TMP/m"' "$(cat "$TMP/m")"
  done
  expect '[ "$(ndirs)" = "$before" ]' "a refused switch made a run directory"
  # an empty ARCH means arm, as an empty NODES means its default
  make -s run NODES=4 APP=hello ARCH= RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/m")"
  expect 'grep -q "node ISA        arm" "$TMP/m"' "$(cat "$TMP/m")"
  # TIMEOUT= reaches the run tool as --timeout (make run had no way to give it)
  before=$(ndirs)
  make -s run NODES=4 APP=hello TIMEOUT=abc RUNS_DIR="$RUNS" > "$TMP/m" 2>&1; rc=$?; expect '[ $rc = 2 ]' "$(cat "$TMP/m")"
  expect 'grep -q "wormsim: --timeout .abc. is not a number of seconds above 0 and at most 86400" "$TMP/m"' "$(cat "$TMP/m")"
  expect '[ "$(ndirs)" = "$before" ]' "a refused TIMEOUT made a run directory"
}

# Started from another directory, the tools find their own node images,
# QEMU templates and presets in the tree they were built in; the run
# directory is the caller's.
runs_from_another_directory() {
  local w=$WORMSIM n=$NETSIM
  [ "${w#/}" != "$w" ] || w=$(pwd)/$w; [ "${n#/}" != "$n" ] || n=$(pwd)/$n
  mkdir -p "$TMP/elsewhere"
  (cd "$TMP/elsewhere" && "$w" --app alltoall_pex --topo mesh --dims 2x2 --arch mixed --preset delta \
     --args len=64 --output none) > "$TMP/m" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/m")"
  expect '[ -f "$TMP/elsewhere/runs/latest/summary.json" ]' "$(ls -R "$TMP/elsewhere" | head)"
  expect '[ "$(jq -r .network.byte_ps "$TMP/elsewhere/runs/latest/summary.json")" = "$(sed -n "s/^byte_ps *= *//p" presets/delta.conf)" ]'
  (cd "$TMP/elsewhere" && "$n" --preset delta -t mesh -d 4x4 --burst 1 --len 64) > "$TMP/m" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/m")"
}

echo "QEMU boot-and-collect tests"
t hello_mesh hello_mesh
t hello_hypercube hello_hypercube
t pingpong_mesh pingpong_mesh
t netapi_arm netapi_arm
t netapi_mixed netapi_mixed
t pex_torus4 pex_torus4
t pex_hypercube16 pex_hypercube16
t pex_mesh_8x8 pex_mesh_8x8_default_len
t default_preset_is_the_default default_preset_is_the_default
t params_conf_reproduces_the_run params_conf_reproduces_the_run
t presets_run presets_run
t reports_match_the_model reports_match_the_model
t steps_figures_of_the_docs steps_figures_of_the_docs
t rv_hello_mesh rv_hello_mesh
t isa_hello_4x4 isa_hello_4x4
t isa_pingpong_mesh4x4 isa_pingpong_mesh4x4
t isa_pex_torus4x4 isa_pex_torus4x4
t mixed_list_pex mixed_list_pex
for c in coll_pex_gen_4x5 coll_pex_gen_6x8 coll_pex_gen_shift_4x5 coll_pex_gen_shift_6x8 coll_gen_4x5 coll_gen_torus_4x4 \
         coll_direct_hypercube coll_direct_mesh_4x4 coll_std_exchange_16 coll_std_exchange_32 coll_binary_4x4 coll_binary_8x8 \
         coll_quadrant_4x4 coll_quadrant_8x8 coll_a1_8x8 coll_a1_16x16 coll_an1_4x4 coll_an1_8x8 coll_auto_a2a coll_auto_hypercube \
         coll_flood_5x5 coll_flood_7x7 coll_flood_mesh_4x4 coll_rowcol_5x5 coll_rowcol_4x5 coll_ring_4x5 coll_ring_torus_3d \
         coll_allgather_std_16 coll_allgather_std_8 coll_bruck_5x3 coll_bruck_torus_4x4 coll_auto_allgather coll_no_sync coll_persistent_runs coll_oneshot_calls \
         coll_corrupt_fails \
         bad_coll_shape bad_coll_port bad_coll_hyper bad_coll_len0 bad_coll_len_nan bad_coll_len_msg bad_coll_len_mem; do t $c $c; done
t determinism_under_load determinism
t determinism_with_a_paused_node determinism_with_a_paused_node
t trace_matches_the_counters trace_matches_the_counters
t trace_without_messages_and_of_a_deadlock trace_without_messages_and_of_a_deadlock
t wakeups_per_message wakeups_per_message arm
t rv_wakeups_per_message wakeups_per_message riscv
t ended_nodes_consoles_are_closed ended_nodes_consoles_are_closed
if [ "$(id -u)" = 0 ]; then t full_runs_dir_fails full_runs_dir_fails
else echo "  skip  full_runs_dir_fails (needs root to mount a tmpfs; not counted)"; fi
t rv_determinism_under_load determinism riscv
t mixed_determinism_under_load determinism mixed
t rv_counter_check rv_counter_check
t arm_counter_check arm_counter_check
t concurrent_runs concurrent_runs
t gdb_node gdb_node
t rv_gdb_node gdb_node riscv
t mixed_gdb_node gdb_node riscv,arm riscv
t gdb_kill_is_named gdb_kill_is_named
t gdb_session_keeps_the_figures gdb_session_keeps_the_figures arm
t rv_gdb_session_keeps_the_figures gdb_session_keeps_the_figures riscv
t mixed_gdb_session_keeps_the_figures gdb_session_keeps_the_figures mixed
for b in bad_app bad_nodes_dims bad_dims bad_topo bad_hypercube bad_pex_size bad_gdb bad_option bad_arch bad_arch_list bad_runs_dir bad_mpi_image bad_mcast_one_node bad_mdw_one_node bad_template \
         bad_param_key bad_param_val bad_torus_vcs bad_preset dup_preset_key missing_preset \
         missing_qemu missing_qemu_riscv missing_cross_compiler; do t $b $b; done
for f in fault_dabort fault_store fault_undef fault_pabort rv_fault_load rv_fault_store rv_fault_illegal rv_fault_fetch mixed_fault \
         fault_reset_mid_run rv_fault_reset_mid_run \
         hang deadlock baddesc_dst baddesc_len baddesc_off baddesc_op baddesc_record baddesc_ring; do t $f $f; done
for c in sigterm_cleans_up sigint_cleans_up router_killed; do t $c $c; done
# More suites, one file per family (tests/qemu/suite-*.sh): each defines
# its tests with the helpers above and runs them with t.
for f in tests/qemu/suite-*.sh; do [ -e "$f" ] && . "$f"; done
for m in make_run_default make_run_riscv make_run_pingpong make_run_hypercube make_run_mixed make_run_bad \
         runs_from_another_directory; do t $m $m; done
echo "qemu: $pass passed, $fail failed"
[ $fail = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
