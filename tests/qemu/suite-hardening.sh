# A node is untrusted code: it must never reach the host, crash the
# router or hold a run forever. Sourced by tests/qemu/run.sh (helpers
# ws, summary, latest, expect, baddesc there). Each case here failed before
# the router and the node command lines were hardened.

# ws from another working directory (QEMU's, where semihosting would
# reach): every path made absolute.
ws_in() {   # dir args...
  local dir=$1; shift
  local w k kr r ta tr
  w=$(realpath "$WORMSIM"); k=$(realpath "$KERNEL"); kr=$(realpath "$KERNEL_RISCV"); r=$(realpath "$RUNS")
  ta=$(realpath qemu-scripts/arm-virt.args); tr=$(realpath qemu-scripts/riscv-virt.args)
  mkdir -p "$dir"
  ( cd "$dir" && "$w" --kernel "$k" --kernel-riscv "$kr" --runs-dir "$r" --qemu-template "$ta" \
      --qemu-template-riscv "$tr" "$@" )
}

# A node tries semihosting SYS_OPEN and SYS_SYSTEM from QEMU's working
# directory: it faults instead, and no file appears.
semihost_refused() {   # arch fault-name
  local want=$2 dir="$TMP/cwd-$1"
  ws_in "$dir" --arch "$1" --app crash --nodes 2 --args 'node=1 kind=semihost' > "$TMP/s" 2>&1
  local rc=$?
  expect '[ $rc = 1 ]' "$(cat "$TMP/s")"
  expect '[ "$(summary .fault.node)" = 1 ] && [ "$(summary .fault.kind)" = "$want" ]' "$(summary .fault)"
  expect '! grep -q "semihosting answered" "$(latest)/node-001.log"'
  expect '[ -d "$dir" ] && [ -z "$(ls -A "$dir")" ]' "files a node made on the host: $(ls -A "$dir")"
}
harden_no_semihosting_arm() { semihost_refused arm "unexpected exception"; }
harden_no_semihosting_rv()  { semihost_refused riscv breakpoint; }
# The probe is live: under a QEMU line that does enable semihosting, the
# same node program creates both files (so the tests above can fail).
harden_semihost_probe_is_live() {
  sed 's/^-accel /-semihosting-config enable=on,target=native\n-accel /' qemu-scripts/arm-virt.args > "$TMP/semi.args"
  expect 'grep -q "^-semihosting-config" "$TMP/semi.args"'
  ws_in "$TMP/cwd-live" --qemu-template "$TMP/semi.args" --app crash --nodes 2 \
    --args 'node=1 kind=semihost' --hang-timeout 2 > "$TMP/s" 2>&1
  expect '[ -f "$TMP/cwd-live/wormsim-semihost-open" ] && [ -f "$TMP/cwd-live/wormsim-semihost-system" ]' "$(cat "$TMP/s")"
  expect 'grep -q "semihosting answered" "$(latest)/node-001.log"'
}
harden_templates_have_no_semihosting() {
  expect '! grep -qi "semihosting" <(grep -v "^#" qemu-scripts/arm-virt.args qemu-scripts/riscv-virt.args)'
}

# Step marks are labels: 0x7fffffff and 0xffffffff (net_step(-1)) once
# crashed the router's report; a mark of 10^8 cost it 1.56 GB.
harden_huge_step_marks() {
  ws --app baddesc --nodes 4 --args 'node=1 what=steps' > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/x")"
  expect '[ "$(summary .ok)" = true ]'
  expect 'grep -q "^2147483647,4," "$(latest)/steps.csv"' "$(cat "$(latest)/steps.csv")"
  expect 'grep -q "^4294967295,4," "$(latest)/steps.csv"' "$(cat "$(latest)/steps.csv")"
}
harden_step_mark_costs_no_memory() {
  /usr/bin/time -f "%M" -o "$TMP/rss" "$WORMSIM" --kernel "$KERNEL" --runs-dir "$RUNS" \
    --app baddesc --nodes 4 --args 'node=1 what=step' > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/x")"
  expect 'grep -q "^100000000,4," "$(latest)/steps.csv"'
  echo "info: router peak RSS $(tail -1 "$TMP/rss") KiB with a step mark of 10^8"
  expect '[ "$(tail -1 "$TMP/rss")" -lt 102400 ]' "router peak RSS $(tail -1 "$TMP/rss") KiB"
}

# Times near 2^64 once wrapped: a SEND at 2^62 ns arrived at 528 ns, and
# one at 2^64-11 followed by one at 1000 ns passed as a good run (now the
# first of the two is refused, before the clock check could be fooled).
harden_time_past_limit()  { baddesc time "descriptor [0-9]+ has time 4611686018427387904 ns, past the simulated-time limit"; }
harden_time_backwards()   { baddesc backwards "descriptor [0-9]+ has time 18446744073709551605 ns, past the simulated-time limit"; }

# A node that reports a fault of a kind the kernel has not (99), then
# keeps rewriting the fault's pc and address: the run names the kind (it
# said "fault"), and its message and summary.json give the one pc and
# address the router read (it read them twice, so they could differ).
harden_fault_report_read_once() {
  ws --app crash --nodes 4 --args 'node=1 kind=fakefault' > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/x")"
  expect 'summary .error | grep -Eq "^node 1: fault of unknown kind 99 \(the kinds are 0\.\.11\) at pc 0x[0-9a-f]{8} \(address 0x[0-9a-f]{8}\); see node-001.log$"' "$(summary .error)"
  local at; at=$(printf 'at pc 0x%08x (address 0x%08x)' "$(summary .fault.pc)" "$(summary .fault.addr)")
  expect 'summary .error | grep -qF "$at"' "summary.json's fault: $at; its error: $(summary .error)"
  expect '[ "$(summary .fault.node)" = 1 ] && [ "$(summary .fault.kind)" = fault ]' "$(summary .fault)"
}

# Legal 256 KiB sends to itself that it never receives: the router's
# memory once grew 100 MB/s without end. Now the run ends at held_max,
# naming the node.
harden_flood_is_bounded() {
  local t0=$SECONDS
  /usr/bin/time -f "%M" -o "$TMP/rss" "$WORMSIM" --kernel "$KERNEL" --runs-dir "$RUNS" \
    --app baddesc --nodes 2 --args 'node=1 what=flood' --set held_max=8388608 > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 1 ]'
  expect 'summary .error | grep -Eq "^node 1: [0-9]+ bytes of messages arrived that it has not received \(payload and 256 bytes a message\), more than held_max \(8388608 bytes\)"' "$(summary .error)"
  expect '[ $((SECONDS - t0)) -lt 30 ]'
  echo "info: router peak RSS $(tail -1 "$TMP/rss") KiB"
  expect '[ "$(tail -1 "$TMP/rss")" -lt 204800 ]' "router peak RSS $(tail -1 "$TMP/rss") KiB"
}

# What the router may hold in all follows the memory check: with 16 MiB
# left beside the nodes (--mem-limit), a node flooding another stops the
# run at 16 MiB of held messages, below held_max (64 MiB), and the router
# stays small. --check says the same figure.
harden_held_messages_fit_the_memory_limit() {
  local run=(--kernel "$KERNEL" --runs-dir "$RUNS" --app baddesc --nodes 2 --args 'node=1 what=flood')
  "$WORMSIM" --check "${run[@]}" > "$TMP/c" 2>&1
  local need; need=$(sed -n 's/.* accepted; about \([0-9]*\) MiB of host memory.*/\1/p' "$TMP/c")
  expect '[ -n "$need" ]' "$(cat "$TMP/c")"
  "$WORMSIM" --check "${run[@]}" --mem-limit $((need + 16)) > "$TMP/c" 2>&1
  expect 'grep -q "and the router holds at most 16 MiB of messages" "$TMP/c"' "$(cat "$TMP/c")"
  /usr/bin/time -f "%M" -o "$TMP/rss" "$WORMSIM" "${run[@]}" --mem-limit $((need + 16)) > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/x")"
  expect 'summary .error | grep -q "more than it may (16777216: 32 x held_max, or less as the host.s memory allows: --mem-limit)"' "$(summary .error)"
  expect '[ "$(tail -1 "$TMP/rss")" -lt 102400 ]' "router peak RSS $(tail -1 "$TMP/rss") KiB"
}

# A node of one run that posts EXIT and keeps running is named, once the
# others are done and the grace (the hang timeout, at least 10 s) has
# passed, instead of holding the run to its wall-clock limit (60 s here).
# (On a pool it does no harm: the pool stops and resets it after the run.)
harden_exit_then_run() {
  local t0=$SECONDS
  "$WORMSIM" --kernel "$KERNEL" --runs-dir "$RUNS" --app hang --nodes 4 --args 'node=2 how=exit' \
    --hang-timeout 2 --timeout 60 > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 1 ]'
  expect 'summary .error | grep -q "^node 2 posted EXIT [0-9]* s ago but its QEMU did not end"' "$(summary .error)"
  expect '[ $((SECONDS - t0)) -lt 45 ]' "took $((SECONDS - t0)) s"
}

# A node ringing its doorbell in a tight loop with nothing posted is no
# progress: --hang-timeout ends the run, not the wall-clock limit, and the
# error names the node and the storm.
harden_doorbell_spin_is_a_hang() {
  local t0=$SECONDS
  ws --app hang --nodes 4 --args 'node=1 how=doorbell' --hang-timeout 2 --timeout 60 > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 1 ]'
  expect 'summary .error | grep -q "^node 1 rang its doorbell [0-9]* times with nothing posted: a doorbell storm, and no node used its NIC for 2 s (--hang-timeout)$"' "$(summary .error)"
  storm_counts_its_rings
  expect 'grep -q "node 1 is running" "$TMP/x"' "$(cat "$TMP/x")"
  expect '[ $((SECONDS - t0)) -lt 20 ]' "took $((SECONDS - t0)) s"
}

# A node printing without end fills no disk: its log keeps the first
# --log-max bytes of its console and a last line counting the rest, the
# run says so, and --hang-timeout still ends it (a console is no NIC use).
# A cap below 1024 bytes is refused before any node starts.
harden_console_flood_is_capped() {
  ws --app hang --nodes 2 --args 'node=1 how=print' --hang-timeout 2 --log-max 4096 > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "$(cat "$TMP/x")"
  local log; log="$(latest)/node-001.log"
  expect '[ "$(head -c 4096 "$log" | grep -c "^hang: node 1 prints line")" -gt 10 ]' "$(head -3 "$log")"
  expect '[ "$(stat -c %s "$log")" -lt 4300 ]' "node-001.log has $(stat -c %s "$log") bytes"
  expect 'tail -1 "$log" | grep -Eq "^\[wormsim: this log keeps the node.s first 4096 console bytes \(--log-max\); [0-9]+ more were left out\]$"' "$(tail -2 "$log")"
  expect 'grep -q "^wormsim: 1 node wrote more than --log-max (4096 bytes) to the console, node 1 first" "$TMP/x"' "$(cat "$TMP/x")"
  expect 'summary .error | grep -q "no node used its NIC for 2 s"' "$(summary .error)"
  ws --app hello --nodes 2 --log-max 1000 > "$TMP/x" 2>&1; rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(cat "$TMP/x")"
  expect 'grep -q "^wormsim: --log-max .1000. is not a whole number of bytes from 1024 to 1099511627776$" "$TMP/x"' "$(cat "$TMP/x")"
}

# SIGTERM while a big machine's nodes are being started ends the run at
# once, with its summary: the tool starts no more QEMUs (256 take about a
# second to start here; the signal comes after 0.2 s).
harden_signal_while_starting() {
  "$WORMSIM" --kernel "$KERNEL" --runs-dir "$RUNS" --app hello --nodes 256 --mem-limit 1000000 > "$TMP/st" 2>&1 &
  local p=$!
  sleep 0.2; kill -TERM $p; wait $p; local rc=$?
  expect '[ $rc = 143 ]' "exit $rc: $(cat "$TMP/st")"
  expect '[ "$(summary .error)" = "interrupted by signal 15 (Terminated) while its nodes were starting" ]' "$(summary .error)"
  expect '[ "$(ls "$(latest)" | grep -c "^node-")" -lt 256 ]' "every node was started"
}

# A machine whose nodes the run tool could not hold open (five files a
# node, host/launch/pool.h; its open-file limit, ulimit -n) is refused
# before any node starts, naming the limit (check_files); one that fits
# at exactly the files it needs runs. Root's capability to raise the hard
# limit is dropped for the refusal (setpriv), as a user has none.
harden_open_file_limit_is_checked_up_front() {
  local before nocap=() run=(--kernel "$KERNEL" --runs-dir "$RUNS" --app alltoall_pex --nodes 64 --args len=64) rc
  [ "$(id -u)" = 0 ] && nocap=(setpriv --bounding-set -sys_resource --inh-caps -sys_resource)
  before=$(ndirs)
  (ulimit -n 387 && exec "${nocap[@]}" "$WORMSIM" "${run[@]}") > "$TMP/f1" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "^wormsim: 64 nodes need about 388 open files in the run tool (5 a node, 68 for the run tool), more than the 387 it may open (the hard limit, ulimit -Hn" "$TMP/f1"' \
         "exit $rc: $(cat "$TMP/f1")"
  expect '[ "$(ndirs)" = "$before" ]' "a run directory was made: $(ls "$RUNS")"
  (ulimit -n 388 && exec "${nocap[@]}" "$WORMSIM" "${run[@]}") > "$TMP/f2" 2>&1; rc=$?
  expect '[ $rc = 0 ] && grep -q "alltoall_pex on torus 8x8 (64 nodes): ok" "$TMP/f2"' "exit $rc: $(cat "$TMP/f2")"
}

for h in harden_no_semihosting_arm harden_no_semihosting_rv harden_semihost_probe_is_live \
         harden_templates_have_no_semihosting harden_huge_step_marks harden_step_mark_costs_no_memory \
         harden_time_past_limit harden_time_backwards harden_fault_report_read_once harden_flood_is_bounded \
         harden_exit_then_run \
         harden_doorbell_spin_is_a_hang harden_signal_while_starting harden_held_messages_fit_the_memory_limit \
         harden_open_file_limit_is_checked_up_front harden_console_flood_is_capped; do
  t $h $h
done
