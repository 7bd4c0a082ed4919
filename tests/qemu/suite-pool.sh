# The node pool (wormsim --serve / --pool, host/launch/pool.c): a warm run gives
# the same results as a cold one, a failed run's nodes are never reused,
# and nothing outlives a pool that is stopped or killed.

warm_count() { sed -n 's/^node pool  *\([0-9]*\) of \([0-9]*\) nodes warm$/\1/p' "$1"; }

# Cold, then on a pool of its own: the same run, a run whose node faults
# (its nodes are discarded: the next run starts them again), then the
# same run twice more, the last on warm nodes. Every result is the cold
# run's.
warm_equals_cold() {   # arch
  local arch=$1 P=wc-$$-$1 cold w
  local run=(--arch "$arch" --app alltoall_pex --dims 4x4 --args len=300)
  "$WORMSIM" --check-jump --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "${run[@]}" > "$TMP/c" 2>&1
  rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/c")"; cold=$(latest)
  expect '! grep -q "node pool" "$TMP/c"'
  pool_up "$P"; local pp=$pool_pid
  wp() { "$WORMSIM" --pool "$P" --check-jump --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "$@"; }
  wp "${run[@]}" > "$TMP/w1" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/w1")"
  expect '[ "$(warm_count "$TMP/w1")" = 0 ]' "$(cat "$TMP/w1")"
  same_results "$cold" "$(latest)"
  wp --arch "$arch" --app crash --dims 4x4 --args "node=2 kind=undef" > "$TMP/f" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/f")"
  expect '[ "$(warm_count "$TMP/f")" = 16 ]' "$(cat "$TMP/f")"
  expect '[ "$(summary .fault.node)" = 2 ]'
  wp "${run[@]}" > "$TMP/w2" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/w2")"
  expect '[ "$(warm_count "$TMP/w2")" = 0 ]' "the faulted run's nodes were reused: $(cat "$TMP/w2")"
  same_results "$cold" "$(latest)"
  wp "${run[@]}" > "$TMP/w3" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/w3")"
  expect '[ "$(warm_count "$TMP/w3")" = 16 ]' "$(cat "$TMP/w3")"
  same_results "$cold" "$(latest)"
  kill -TERM $pp; wait $pp; rc=$?
  expect '[ $rc = 0 ]' "the pool exited $rc"
  expect '[ -z "$(qemu_of $pp)" ]' "QEMUs outlived the pool: $(qemu_of $pp)"
  expect 'grep -q "stopped by signal 15: 4 runs served, 32 nodes started, 32 handed over warm" "$TMP/pool-$P.out"' "$(cat "$TMP/pool-$P.out")"
  echo "info: $arch: $(grep wall "$TMP/c" | awk '{print $3}') s cold, $(grep wall "$TMP/w3" | awk '{print $3}') s warm, results identical"
}
pool_warm_equals_cold_arm()   { warm_equals_cold arm; }
pool_warm_equals_cold_mixed() { warm_equals_cold mixed; }

# A run that fails though every node exits (node 3 finds a
# wrong byte and exits 1): its nodes are not reused either.
pool_failed_run_nodes_are_not_reused() {
  local P=fr-$$
  pool_up "$P"; local pp=$pool_pid
  wp() { "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$RUNS" "$@"; }
  wp --app alltoall_quadrant_exchange --topo mesh --dims 4x4 --args 'len=64 corrupt=3' > "$TMP/q" 2>&1; rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/q")"
  expect 'summary .error | grep -q "node 3 exited with status 1"' "$(summary .error)"
  expect '[ "$(summary "[.node_states[] | select(. != \"exited\")] | length")" = 0 ]' "not every node exited: $(summary .node_states)"
  wp --app alltoall_quadrant_exchange --topo mesh --dims 4x4 --args len=64 > "$TMP/q2" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/q2")"
  expect '[ "$(warm_count "$TMP/q2")" = 0 ]' "the failed run's nodes were reused: $(cat "$TMP/q2")"
  kill -TERM $pp; wait $pp
}

# A node that wrote over its own read-only data and exited 0 is not reused:
# the pool compares each node's image with its own copy after the run
# (host/launch/pool.h). The next run gets a new node in its place, and the three
# others, kept, find the image as loaded, on each ISA.
pool_changed_image_is_not_reused() {
  local P=ci-$$ a
  pool_up "$P"; local pp=$pool_pid
  wp() { "$WORMSIM" --pool "$P" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "$@"; }
  for a in arm riscv; do
    wp --arch $a --app crash --nodes 4 --args "node=1 kind=scribble" > "$TMP/s" 2>&1; rc=$?
    expect '[ $rc = 0 ]' "$(cat "$TMP/s")"
    wp --arch $a --app crash --nodes 4 --args "kind=mark" > "$TMP/m" 2>&1; rc=$?
    expect '[ $rc = 0 ]' "$a: $(cat "$TMP/m")"
    expect '[ "$(warm_count "$TMP/m")" = 3 ]' "$a: the scribbling node was reused, or the others were not: $(cat "$TMP/m")"
  done
  kill -TERM $pp; wait $pp
}

# Two attacks on the next run, by every node of a run on a pool, on each
# ISA (apps/faults.c). kind=forge makes pattern_check() return 0, changes
# read-only data and .data's load image, and recomputes any sum the image
# keeps of itself: no node is reused, and the next run is a cold run's.
# kind=taint changes all but the image (.data, .bss, the heap, its NIC
# memory) and after its EXIT runs on, saying hello with made-up numbers:
# every node is reused, after the pool stopped, reset and cleared it, and
# the next run gives a cold run's results bit for bit.
pool_hostile_nodes_do_not_reach_the_next_run() {
  local P=fg-$$ a cold
  pool_up "$P"; local pp=$pool_pid
  wp() { "$WORMSIM" --pool "$P" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "$@"; }
  for a in arm riscv; do
    local run=(--arch $a --app alltoall_pex --dims 4x4 --args len=1024)
    "$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "${run[@]}" > "$TMP/fc" 2>&1
    rc=$?; expect '[ $rc = 0 ]' "$a cold: $(cat "$TMP/fc")"; cold=$(latest)
    # attack KIND WARM: every node runs crash kind=KIND, then the run above
    # finds WARM of its 16 nodes warm and gives the cold run's results
    attack() {
      local atk_kind=$1 atk_warm=$2
      wp --arch $a --app crash --dims 4x4 --args kind=$atk_kind > "$TMP/f" 2>&1; rc=$?
      expect '[ $rc = 0 ]' "$a $atk_kind: $(cat "$TMP/f")"
      wp "${run[@]}" > "$TMP/w" 2>&1; rc=$?
      expect '[ $rc = 0 ]' "$a after $atk_kind: $(cat "$TMP/w")"
      expect '[ "$(warm_count "$TMP/w")" = $atk_warm ]' "$a after $atk_kind: $atk_warm nodes warm expected: $(cat "$TMP/w")"
      same_results "$cold" "$(latest)"
    }
    attack forge 0
    attack taint 16
    # RAM the next program never wrote is a fresh node's: after taint, every
    # node reads its heap block and finds zeros (the pool clears all but
    # the image at the reset)
    wp --arch $a --app crash --dims 4x4 --args kind=taint > "$TMP/f" 2>&1; rc=$?
    expect '[ $rc = 0 ]' "$a taint: $(cat "$TMP/f")"
    wp --arch $a --app crash --dims 4x4 --args kind=peek > "$TMP/p" 2>&1; rc=$?
    expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/p")" = 16 ]' "$a peek after taint: $(cat "$TMP/p")"
    expect '[ "$(grep -l "^peek: 0 bytes of the heap not zero" "$(latest)"/node-*.log | wc -l)" = 16 ]' \
      "$a: $(grep -h "^peek" "$(latest)"/node-*.log | sort | uniq -c)"
  done
  kill -TERM $pp; wait $pp
}

# A pool grows for a bigger run, serves a smaller one from its idle nodes,
# and a rebuilt node image (another file), or another RAM size, gets fresh
# nodes.
pool_grows_and_takes_a_new_image() {
  local P=gr-$$
  pool_up "$P"; local pp=$pool_pid
  wp() { "$WORMSIM" --pool "$P" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "$@"; }
  wp --app hello --nodes 4 > "$TMP/g1" 2>&1; rc=$?; expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/g1")" = 0 ]' "$(cat "$TMP/g1")"
  wp --app hello --nodes 8 > "$TMP/g2" 2>&1; rc=$?; expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/g2")" = 4 ]' "$(cat "$TMP/g2")"
  wp --app hello --nodes 2 > "$TMP/g3" 2>&1; rc=$?; expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/g3")" = 2 ]' "$(cat "$TMP/g3")"
  expect '[ "$(qemu_of $pp | wc -l)" = 8 ]' "$(qemu_of $pp | wc -l) QEMUs, 8 expected"
  wp --app hello --nodes 2 --set ram_mib=64 > "$TMP/g5" 2>&1; rc=$?
  expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/g5")" = 0 ]' "a node of 32 MiB served a run of 64: $(cat "$TMP/g5")"
  wp --app hello --nodes 2 --set ram_mib=64 > "$TMP/g6" 2>&1; rc=$?
  expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/g6")" = 2 ]' "$(cat "$TMP/g6")"
  cp "$KERNEL" "$TMP/other.elf"
  "$WORMSIM" --pool "$P" --kernel "$TMP/other.elf" --runs-dir "$RUNS" --app hello --nodes 2 > "$TMP/g4" 2>&1
  rc=$?; expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/g4")" = 0 ]' "$(cat "$TMP/g4")"
  kill -KILL $pp; wait $pp 2>/dev/null
  for i in $(seq 50); do [ -z "$(qemu_of $pp)" ] && break; sleep 0.1; done
  expect '[ -z "$(qemu_of $pp)" ]' "QEMUs outlived the killed pool: $(qemu_of $pp)"
  expect '! grep -q "wormsim-pool-$P\|wormsim-$pp-" /proc/net/unix'
}

# A pool keeps the nodes used last. 64 ARM nodes, then 64 RISC-V ones
# (the pool trims back to 64 idle: the ARM ones go), then ARM twice: the
# second ARM run finds the first one's nodes warm, not the RISC-V ones
# kept in their place. (--mem-limit: a run that may use the memory does
# not clear idle nodes of another key first, on a host short of it.)
pool_keeps_the_nodes_used_last() {
  local P=lu-$$ a k=0
  pool_up "$P"; local pp=$pool_pid
  for a in arm riscv arm arm; do
    k=$((k + 1))
    "$WORMSIM" --pool "$P" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" \
      --mem-limit 1048576 --arch $a --app hello --nodes 64 > "$TMP/u$k" 2>&1; rc=$?
    expect '[ $rc = 0 ]' "run $k ($a): $(cat "$TMP/u$k")"
  done
  expect '[ "$(warm_count "$TMP/u3")" = 0 ]' "run 3: $(cat "$TMP/u3")"
  expect '[ "$(warm_count "$TMP/u4")" = 64 ]' "run 4 did not find run 3's nodes: $(cat "$TMP/u4")"
  expect '[ "$(qemu_of $pp | wc -l)" = 64 ]' "$(qemu_of $pp | wc -l) QEMUs, 64 expected"
  kill -TERM $pp; wait $pp
}

# A client interrupted mid-run: the run ends with its summary and exit
# status 128 + signal, its nodes are discarded, and the pool goes on.
pool_client_interrupted() {
  local P=ci-$$
  pool_up "$P"; local pp=$pool_pid
  "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$RUNS" --app hang --nodes 4 --hang-timeout 300 > "$TMP/h" 2>&1 & local c=$!
  for i in $(seq 100); do [ "$(qemu_of $pp | wc -l)" = 4 ] && break; sleep 0.1; done
  sleep 0.5
  kill -TERM $c; wait $c; local rc=$?
  expect '[ $rc = 143 ]' "exit $rc: $(cat "$TMP/h")"
  expect '[ "$(summary .interrupted_by_signal)" = 15 ]'
  expect '[ -z "$(qemu_of $pp)" ]' "the interrupted run's nodes were kept: $(qemu_of $pp)"
  "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$RUNS" --app hello --nodes 4 > "$TMP/h2" 2>&1
  rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/h2")"
  kill -TERM $pp; wait $pp
  expect '[ -z "$(qemu_of $pp)" ]'
}

# A client interrupted while it waits behind another client's run ends at
# once with 128 + signal, as a run alone interrupted before its nodes
# start, and its run never starts: no run directory, no node. The run
# before it goes on; a client killed while it waits is dropped the same.
pool_queued_client_interrupted() {
  local P=qi-$$ rc n0 t0
  pool_up "$P"; local pp=$pool_pid
  local wp=("$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$RUNS")   # (no function: $! is the client's)
  "${wp[@]}" --app hang --nodes 4 --hang-timeout 300 > "$TMP/h" 2>&1 & local c=$!
  for i in $(seq 100); do [ "$(qemu_of $pp | wc -l)" = 4 ] && break; sleep 0.1; done
  n0=$(ndirs)
  "${wp[@]}" --app hello --nodes 2 > "$TMP/q" 2>&1 & local q=$!
  "${wp[@]}" --app hello --nodes 2 > "$TMP/k" 2>&1 & local k=$!
  sleep 0.5
  t0=$SECONDS; kill -INT $q; wait $q; rc=$?
  expect '[ $rc = 130 ] && [ $((SECONDS - t0)) -le 2 ]' "exit $rc after $((SECONDS - t0)) s: $(cat "$TMP/q")"
  expect 'grep -q "interrupted by signal 2 (Interrupt) while waiting for the node pool .$P.*the run did not start" "$TMP/q"' "$(cat "$TMP/q")"
  kill -KILL $k; wait $k 2>/dev/null
  expect 'kill -0 $c 2>/dev/null' "the run before it ended: $(cat "$TMP/h")"
  kill -TERM $c; wait $c; rc=$?
  expect '[ $rc = 143 ]' "exit $rc: $(cat "$TMP/h")"
  "${wp[@]}" --app hello --nodes 2 > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  expect '[ $(ndirs) = $((n0 + 1)) ]' "$(( $(ndirs) - n0 )) run directories for the one run after the hang"
  # the pool stops while a client waits: it says its run never started
  "${wp[@]}" --app hang --nodes 4 --hang-timeout 300 > "$TMP/h" 2>&1 & c=$!
  for i in $(seq 100); do [ "$(qemu_of $pp | wc -l)" = 4 ] && break; sleep 0.1; done
  "${wp[@]}" --app hello --nodes 2 > "$TMP/q" 2>&1 & q=$!
  sleep 0.5
  kill -TERM $pp; wait $pp; wait $c; wait $q; rc=$?
  expect '[ $rc = 1 ] && grep -q "the node pool .$P. stopped before it took the run; the run did not start" "$TMP/q"' \
    "exit $rc: $(cat "$TMP/q")"
  expect 'grep -q "stopped by signal 15: 3 runs served" "$TMP/pool-$P.out"' "$(cat "$TMP/pool-$P.out")"
}

# A client whose output is a pipe with no reader (wormsim --pool ... |
# true): the pool's writes to it fail, and the pool, its nodes and the
# run's exit status outlive them. The next run finds the nodes warm.
pool_client_output_closed() {
  local P=oc-$$ rc
  pool_up "$P"; local pp=$pool_pid
  wp() { "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$RUNS" "$@"; }
  wp --app hello --nodes 4 --output all | true; rc=${PIPESTATUS[0]}
  expect '[ $rc = 0 ]' "exit $rc"
  expect 'kill -0 $pp 2>/dev/null' "the pool ended: $(cat "$TMP/pool-$P.out")"
  expect '[ "$(summary .ok)" = true ]' "$(summary .error)"
  wp --app hello --nodes 4 > "$TMP/o2" 2>&1; rc=$?
  expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/o2")" = 4 ]' "$(cat "$TMP/o2")"
  expect '! grep -q "hello from" "$TMP/pool-$P.out"' "the client's output went to the pool's: $(cat "$TMP/pool-$P.out")"
  kill -TERM $pp; wait $pp; rc=$?
  expect '[ $rc = 0 ] && [ -z "$(qemu_of $pp)" ]' "the pool exited $rc; QEMUs left: $(qemu_of $pp)"
}

# The memory check beside a pool's idle nodes counts what ending them would
# free: each QEMU's private pages and page tables (RssAnon and VmPTE of
# /proc/PID/status) and the pages of the node's RAM and NIC memory in use
# (memfds the QEMU shares with the pool: its RssShmem). Counted by private
# pages alone, 480 idle nodes of the Delta preset came out 250 MiB short
# of what they hold, and the Thakur sweep's 512-node 16 KB runs that
# follow them were refused.
pool_memory_check_counts_idle_nodes() {
  local P=mc-$$
  pool_up "$P"; local pp=$pool_pid
  "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$RUNS" --app hello --nodes 64 > "$TMP/m1" 2>&1
  rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/m1")"
  # private and shared pages and page tables of the pool's QEMUs, in MiB
  held_by_qemus() { local c; for c in $(qemu_of $pp); do cat "/proc/$c/status"; done |
                    awk '/^(RssAnon|RssShmem|VmPTE):/ { s += $2 } END { print int(s / 1024) }'; }
  local before after k
  for k in $(seq 20); do     # until the reset nodes have settled around the check
    before=$(held_by_qemus)
    "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$RUNS" --check --app hello --nodes 64 > "$TMP/m2" 2>&1
    rc=$?; after=$(held_by_qemus)
    [ "$before" = "$after" ] && break; sleep 0.3
  done
  expect '[ $rc = 0 ] && [ "$before" = "$after" ]' "$before MiB, then $after: $(cat "$TMP/m2")"
  local held; held=$(sed -n 's/.*of which 64 idle pool nodes hold \([0-9]*\) MiB.*/\1/p' "$TMP/m2")
  expect '[ -n "$held" ] && [ $((held + 2)) -ge "$after" ] && [ "$held" -le $((after + 2)) ]' \
    "the check counted $held MiB for 64 idle nodes that hold $after MiB of pages and page tables: $(cat "$TMP/m2")"
  kill -TERM $pp; wait $pp
}

# The memory check's estimate (--check) is within 10 % of what a run's
# processes hold at their peak, and not below it: 64 nodes of each ISA on
# a pool of their own (so all are alive together), running bcast_rd;
# what the pool and its QEMUs hold (tests/pool-memory.sh) is sampled every
# 0.2 s until 2 s after the run (docs/scale.md, Memory per host).
memory_estimate_is_close() {
  local a P est peak rc
  for a in arm riscv; do
    P=me-$$-$a
    est=$("$WORMSIM" --check --arch $a --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --app bcast_rd --nodes 64 \
          --args len=1024 2>&1 | sed -n 's/.*about \([0-9]*\) MiB of host memory.*/\1/p')
    pool_up "$P"; local pp=$pool_pid
    "$WORMSIM" --pool "$P" --arch $a --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" \
               --app bcast_rd --nodes 64 --args len=1024 > "$TMP/me" 2>&1 & local run=$!
    peak=$(tests/pool-memory.sh $pp $run)
    wait $run; rc=$?
    expect '[ $rc = 0 ]' "$a: $(cat "$TMP/me")"
    expect '[ -n "$est" ] && [ "$est" -ge "$peak" ] && [ $((est * 100)) -le $((peak * 110)) ]' \
      "$a: estimate $est MiB, measured peak $peak MiB"
    echo "info: $a, 64 nodes: estimate $est MiB, peak $peak MiB"
    kill -TERM $pp; wait $pp
  done
}

# --merge-pages (host/launch/merge.h): each node's QEMU shares what it has
# in common with the others through the kernel's samepage merging (KSM).
# Refused, naming the knob, while KSM does not run; with it, the results
# are those of a run without it, bit for bit, cold and warm; once merged,
# 64 idle nodes hold at most 8 MiB each, and the memory check's merged
# estimate is over the peak of a run on them, by at most 10 %; a run
# without it never gets a merged node of the pool. Needs root to start KSM
# (and to set it back as it was) and Linux 6.7; run.sh skips it otherwise,
# and says so.
merge_pages_share_and_keep_figures() {
  local K=/sys/kernel/mm/ksm P=mp-$$ rc est held peak plain
  local run0 scan0; run0=$(cat $K/run) scan0=$(cat $K/pages_to_scan)
  local back="echo $run0 > $K/run; echo $scan0 > $K/pages_to_scan"
  trap "$back" EXIT
  echo 0 > $K/run
  ws --app hello --nodes 2 --merge-pages > "$TMP/m0" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "samepage merging is not running (/sys/kernel/mm/ksm/run is 0, it must be 1)" "$TMP/m0"' \
         "exit $rc: $(cat "$TMP/m0")"
  expect '! grep -q "output of node" "$TMP/m0"'
  echo 1 > $K/run; echo 2000 > $K/pages_to_scan
  local run=(--kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" --app bcast_rd --nodes 64 --args len=1024)
  "$WORMSIM" --check-jump "${run[@]}" > "$TMP/m1" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/m1")"; plain=$(latest)
  est=$("$WORMSIM" --check --merge-pages "${run[@]}" 2>&1 | sed -n 's/.*about \([0-9]*\) MiB of host memory once the nodes.*/\1/p')
  pool_up "$P"; local pp=$pool_pid
  trap "kill -KILL $pp 2>/dev/null; $back" EXIT
  "$WORMSIM" --pool "$P" --merge-pages --check-jump "${run[@]}" > "$TMP/m2" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/m2")"
  same_results "$plain" "$(latest)"
  held=$(tests/pool-memory.sh $pp --settled)
  expect '[ $((held * 1024 / 64)) -le 8192 ]' "64 idle merged nodes hold $held MiB, over 8 MiB each"
  "$WORMSIM" --pool "$P" --merge-pages --check-jump "${run[@]}" > "$TMP/m3" 2>&1 & local wr=$!
  peak=$(tests/pool-memory.sh $pp $wr)
  wait $wr; rc=$?
  expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/m3")" = 64 ]' "$(cat "$TMP/m3")"
  same_results "$plain" "$(latest)"
  expect '[ -n "$est" ] && [ "$est" -ge "$peak" ] && [ $((est * 100)) -le $((peak * 110)) ]' \
         "merged estimate ${est:-none} MiB, peak of a warm run $peak MiB"
  "$WORMSIM" --pool "$P" --check-jump "${run[@]}" > "$TMP/m4" 2>&1; rc=$?
  expect '[ $rc = 0 ] && [ "$(warm_count "$TMP/m4")" = 0 ]' "a run without --merge-pages took merged nodes: $(cat "$TMP/m4")"
  echo "info: 64 idle ARM nodes, merged: $held MiB ($((held * 1024 / 64)) KiB a node); a warm run's peak $peak MiB, estimate $est MiB"
  kill -TERM $pp; wait $pp
}

# A client that connects and sends nothing cannot hold the pool: after
# SERVE_REQUEST_S (5 s) the pool closes it and serves the next one. The
# idle one is perl's (any program can connect to the abstract socket).
pool_idle_client_does_not_block() {
  local P=ic-$$
  pool_up "$P"; local pp=$pool_pid
  perl -e 'use Socket; socket(my $s, AF_UNIX, SOCK_SEQPACKET, 0) or die;
           connect($s, pack_sockaddr_un("\0wormsim-pool-'"$P"'")) or die "connect: $!"; sleep 60' & local idle=$!
  sleep 0.3
  local t0=$SECONDS
  "$WORMSIM" --pool "$P" --kernel "$KERNEL" --runs-dir "$RUNS" --app hello --nodes 2 > "$TMP/i" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/i")"
  expect '[ $((SECONDS - t0)) -lt 12 ]' "the run waited $((SECONDS - t0)) s behind an idle client"
  kill $idle 2>/dev/null; wait $idle 2>/dev/null
  kill -TERM $pp; wait $pp
}

# Another user's client is refused by uid, and told so (not that the pool
# stopped). Needs root to run the client as another user; run.sh skips it
# otherwise, and says so.
pool_other_user_is_told() {
  local P=ou-$$
  pool_up "$P"; local pp=$pool_pid
  setpriv --reuid=65534 --regid=65534 --clear-groups "$WORMSIM" --pool "$P" --app hello --nodes 2 \
    --runs-dir /tmp > "$TMP/u" 2>&1; rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(cat "$TMP/u")"
  expect 'grep -q "the node pool .$P. is another user.s; start your own with: wormsim --serve NAME" "$TMP/u"' "$(cat "$TMP/u")"
  expect '! grep -q "stopped before the run ended" "$TMP/u"' "$(cat "$TMP/u")"
  kill -TERM $pp; wait $pp
}

pool_bad_input() {
  "$WORMSIM" --pool nosuch-$$ --app hello > "$TMP/b" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "exit $rc"
  expect 'grep -q "no node pool named .nosuch-$$. is served.*start one with: wormsim --serve nosuch-$$" "$TMP/b"' "$(cat "$TMP/b")"
  "$WORMSIM" --serve 'a/b' > "$TMP/b" 2>&1; rc=$?
  expect '[ $rc = 2 ]' "exit $rc"
  expect 'grep -q "pool name .a/b. is not letters, digits" "$TMP/b"' "$(cat "$TMP/b")"
  local long; long=$(printf 'p%.0s' $(seq 94))
  for o in --serve --pool; do
    "$WORMSIM" $o "$long" > "$TMP/b" 2>&1; rc=$?
    expect '[ $rc = 2 ] && grep -q "pool name .p*\.\.\.. is 94 characters; accepted: at most 93" "$TMP/b"' "$o: exit $rc: $(cat "$TMP/b")"
  done
  "$WORMSIM" --serve x --app hello > "$TMP/b" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "serve takes no run options" "$TMP/b"' "$(cat "$TMP/b")"
  # bad run options on a pool: refused by the pool as by the run tool
  ws --app nosuch > "$TMP/b" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "unknown app .nosuch." "$TMP/b"' "$(cat "$TMP/b")"
}

for c in pool_warm_equals_cold_arm pool_warm_equals_cold_mixed pool_failed_run_nodes_are_not_reused pool_changed_image_is_not_reused pool_hostile_nodes_do_not_reach_the_next_run pool_grows_and_takes_a_new_image \
         pool_keeps_the_nodes_used_last pool_client_interrupted pool_queued_client_interrupted pool_client_output_closed pool_memory_check_counts_idle_nodes memory_estimate_is_close pool_idle_client_does_not_block \
         pool_bad_input; do t $c $c; done
if [ "$(id -u)" = 0 ]; then t pool_other_user_is_told pool_other_user_is_told
else echo "  skip  pool_other_user_is_told (needs root to run a client as another user; not counted)"; fi
if [ "$(id -u)" = 0 ] && [ -w /sys/kernel/mm/ksm/run ] && printf '6.7\n%s\n' "$(uname -r)" | sort -V -C; then
  t merge_pages_share_and_keep_figures merge_pages_share_and_keep_figures
else echo "  skip  merge_pages_share_and_keep_figures (needs root, /sys/kernel/mm/ksm and Linux 6.7 to run the kernel's samepage merging; not counted)"; fi
