# One machine over several MPI ranks (wormsim-mpi, host/relay/link.h), all on
# this host: results do not depend on how the nodes are placed, a QEMU or
# a rank that dies ends the whole run, and nothing is left behind.
WORMSIM_MPI=${WORMSIM_MPI:-build/host/wormsim-mpi}
# Open MPI refuses root unless told (CI runs as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# and shared memory without ptrace (containers forbid it)
export OMPI_MCA_btl_vader_single_copy_mechanism=none
wm() {   # ranks, run options
  local np=$1; shift
  timeout 300 mpirun -np "$np" "$WORMSIM_MPI" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "$@"
}
# The ranks of this suite's running job, as "rank pid" lines: the
# processes with this test's run directory and an MPI rank.
ranks_of() {
  local p
  for p in $(pgrep -f -- "--runs-dir $RUNS"); do
    tr '\0' '\n' < /proc/$p/environ 2>/dev/null | sed -n "s/^OMPI_COMM_WORLD_RANK=//p" | sed "s/\$/ $p/"
  done
}

# The same run on one host (wormsim) and over 1, 2 and 3 ranks: every
# result file is the same, node logs included; only the placement differs.
mpi_placement_is_bit_identical() {
  local run=(--arch mixed --app alltoall_pex --dims 4x4 --args len=300) one np
  "$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "${run[@]}" > "$TMP/m0" 2>&1
  rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/m0")"; one=$(latest)
  for np in 1 2 3; do
    wm $np "${run[@]}" > "$TMP/m$np" 2>&1; local rc=$?
    expect '[ $rc = 0 ]' "$np ranks: exit $rc: $(tail -20 "$TMP/m$np")"
    expect '[ "$(grep -c "alltoall_pex on torus 4x4 (16 nodes): ok" "$TMP/m$np")" = 1 ]' "$(cat "$TMP/m$np")"
    ok_run
    same_results "$one" "$(latest)"
  done
  # over 3 ranks, rank 1 hosted nodes 0-7 and rank 2 nodes 8-15
  expect '[ "$(summary ".placement.node_rank | tostring")" = "[1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2]" ]' "$(summary .placement)"
  expect '[ "$(summary ".placement.ranks")" = 3 ]'
  expect '[ "$(jq -r .placement "$one/summary.json")" = null ]'
  echo "info: one host $(grep wall "$TMP/m0" | awk '{print $3}') s, 3 ranks $(grep wall "$TMP/m3" | awk '{print $3}') s, results identical"
}

# The hardware beside the data network over 3 ranks: the answers of the
# barrier circuits, control network and fetch-and-increment registers
# (nic_reply.value) cross the ranks, and so do the flood rules, flood
# messages and multidestination worms' lists and data the router reads
# from a node's transmit area; every result as on one host.
mpi_hardware_collectives() {
  local spec app args opts one
  # app|args|options: the last two read payloads from the NIC's transmit
  # area beside SEND's (flood rules and messages, a worm's list and data),
  # which a node host must carry to the router too
  for spec in "barrier_hw|late=3 delay=2000|" "allreduce_hw|len=32 op=max type=long|" "fetchinc|items=64 work=100|" \
              "allgather_flood_nic|len=100|--port-model all-port" "bcast_pandasingal|len=1000 root=4|--topo mesh"; do
    app=${spec%%|*}; args=${spec#*|}; opts=${args#*|}; args=${args%%|*}
    "$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" --arch mixed --app "$app" \
      --dims 3x3 $opts --args "$args" > "$TMP/m0" 2>&1
    rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/m0")"; one=$(latest)
    wm 3 --arch mixed --app "$app" --dims 3x3 $opts --args "$args" > "$TMP/m3" 2>&1; local rc=$?
    expect '[ $rc = 0 ]' "$app: exit $rc: $(tail -20 "$TMP/m3")"
    ok_run
    same_results "$one" "$(latest)"
  done
}

# Hostile nodes on a node host (rank 2 hosts nodes 8-15 of 16): bad
# descriptors and a flood of unreceived messages. Their bytes reach rank 0
# only through the relay, and rank 0 ends each run exactly as on one host:
# the same exit status and the same error. A doorbell storm is named as on
# one host: its node host relays the doorbells that bring nothing by the
# thousand, as one BELL with their count.
mpi_hostile_nodes_are_named_as_on_one_host() {
  local what one many
  for what in dst len ring time backwards flood; do
    local run=(--app baddesc --dims 4x4 --args "node=13 what=$what" --set held_max=4194304 --hang-timeout 3)
    "$WORMSIM" --kernel "$KERNEL" --runs-dir "$RUNS" "${run[@]}" > "$TMP/h1" 2>&1; local rc1=$?
    one=$(summary .error)
    wm 3 "${run[@]}" > "$TMP/h3" 2>&1; local rc3=$?
    many=$(summary .error)
    expect '[ $rc1 = 1 ] && [ $rc3 = 1 ]' "what=$what: exit $rc1 on one host, $rc3 over 3 ranks: $(tail -5 "$TMP/h3")"
    expect '[ -n "$one" ] && [ "$one" = "$many" ]' "what=$what: '$one' on one host, '$many' over 3 ranks"
  done
  local storm=(--app hang --dims 4x4 --args 'node=13 how=doorbell' --hang-timeout 2)
  wm 3 "${storm[@]}" > "$TMP/h3" 2>&1; rc3=$?
  expect '[ $rc3 = 1 ]' "doorbell storm over 3 ranks: exit $rc3: $(tail -5 "$TMP/h3")"
  expect 'summary .error | grep -q "^node 13 rang its doorbell [0-9]* times with nothing posted: a doorbell storm, and no node used its NIC for 2 s (--hang-timeout)\$"' "$(summary .error)"
  storm_counts_its_rings
}

# A bad option is refused once (not once per rank), before any node starts.
mpi_bad_option_is_said_once() {
  local before; before=$(ndirs)
  wm 3 --topo hypercube --nodes 12 > "$TMP/b" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(cat "$TMP/b")"
  expect '[ "$(grep -c "power of two" "$TMP/b")" = 1 ]' "$(cat "$TMP/b")"
  expect '[ "$(ndirs)" = "$before" ]' "a run directory was created: $(ls "$RUNS")"
  # the modes' refusals, before any run is set up, are said once too
  timeout 60 mpirun -np 3 "$WORMSIM_MPI" --serve x > "$TMP/b" 2>&1; rc=$?
  expect '[ $rc != 0 ] && [ "$(grep -c "are not for a run under mpirun" "$TMP/b")" = 1 ]' "exit $rc: $(cat "$TMP/b")"
  timeout 60 mpirun -np 3 "$WORMSIM_MPI" --pool > "$TMP/b" 2>&1; rc=$?
  expect '[ $rc != 0 ] && [ "$(grep -c "^wormsim: --pool needs a pool name" "$TMP/b")" = 1 ]' "exit $rc: $(cat "$TMP/b")"
}

# Every rank runs rank 0's machine: a rank given other options (mpirun's
# "A : B" form), or whose host has another node image at the same path,
# refuses the run, naming its rank and what differs, before any node starts.
mpi_ranks_run_rank0s_machine() {
  local before; before=$(ndirs)
  timeout 60 mpirun -np 2 "$WORMSIM_MPI" --kernel "$KERNEL" --runs-dir "$RUNS" --app hello --nodes 4 \
    : -np 1 "$WORMSIM_MPI" --kernel "$KERNEL" --runs-dir "$RUNS" --app hello --nodes 4 --arch riscv > "$TMP/d" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(cat "$TMP/d")"
  expect '[ "$(grep -c "(rank 2): its options (.*--arch riscv) differ from rank 0.s (.*--nodes 4)" "$TMP/d")" = 1 ]' "$(cat "$TMP/d")"
  expect '! grep -q "output of node\|(rank 1)" "$TMP/d"' "$(cat "$TMP/d")"
  expect '[ "$(ndirs)" = "$before" ]' "a run directory was created: $(ls "$RUNS")"
  # the same words, another image: node.elf read from each rank's directory
  mkdir -p "$TMP/wd0" "$TMP/wd2"; cp "$KERNEL" "$TMP/wd0/node.elf"; cp "$KERNEL" "$TMP/wd2/node.elf"
  local off; off=$(grep -obUa "hello from node" "$TMP/wd2/node.elf" | head -1 | cut -d: -f1)
  printf H | dd of="$TMP/wd2/node.elf" bs=1 seek="$off" conv=notrunc status=none
  local w; w=$(realpath "$WORMSIM_MPI")
  timeout 60 mpirun -np 2 -wdir "$TMP/wd0" "$w" --kernel node.elf --runs-dir "$RUNS" --app hello --nodes 4 \
    : -np 1 -wdir "$TMP/wd2" "$w" --kernel node.elf --runs-dir "$RUNS" --app hello --nodes 4 > "$TMP/d" 2>&1; rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(cat "$TMP/d")"
  expect '[ "$(grep -c "(rank 2): its ARM node image differs from rank 0.s" "$TMP/d")" = 1 ]' "$(cat "$TMP/d")"
  expect '[ "$(ndirs)" = "$before" ]' "a run directory was created: $(ls "$RUNS")"
}

# Ranks on one host share its memory: 3 ranks of a 128-node hello on this
# host need about 2.5 GB together (each node host alone about 1.2 GB, which
# --mem-limit 1500 admits). Refused once, naming the host and the sum,
# before any node starts; --check says each host's sum when it fits.
mpi_ranks_on_one_host_share_its_memory() {
  local before; before=$(ndirs)
  wm 3 --app hello --nodes 128 --mem-limit 1500 > "$TMP/m" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(cat "$TMP/m")"
  expect '[ "$(grep -c "the 3 ranks on host .* need about [0-9]* MiB of host memory together, more than the 1500 MiB of --mem-limit" "$TMP/m")" = 1 ]' "$(cat "$TMP/m")"
  expect '[ "$(ndirs)" = "$before" ]' "a run directory was created: $(ls "$RUNS")"
  expect '[ -z "$(pgrep -f "qemu-system.*$RUNS")" ]'
  wm 3 --app hello --nodes 128 --mem-limit 3000 --check > "$TMP/m" 2>&1; rc=$?
  expect '[ $rc = 0 ] && grep -q "accepted; host memory: .* (3 ranks) about [0-9]* MiB (--mem-limit 3000 MiB each host)" "$TMP/m"' "exit $rc: $(cat "$TMP/m")"
}

# --log-max caps the node logs a node host writes, and the run says so
# once, as on one host: node 3, on rank 2, prints without end.
mpi_log_max_reaches_node_hosts() {
  wm 3 --app hang --nodes 4 --args 'node=3 how=print' --hang-timeout 2 --log-max 1024 > "$TMP/l" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/l")"
  expect '[ "$(summary ".placement.node_rank[3]")" = 2 ]' "$(summary .placement)"
  expect '[ "$(grep -c "^wormsim: 1 node wrote more than --log-max (1024 bytes) to the console, node 3 first" "$TMP/l")" = 1 ]' "$(cat "$TMP/l")"
  expect 'tail -1 "$(latest)/node-003.log" | grep -q "^\[wormsim: this log keeps the node.s first 1024 console bytes"' "$(tail -c 300 "$(latest)/node-003.log")"
  expect '[ "$(stat -c %s "$(latest)/node-003.log")" -lt 1300 ]' "$(stat -c %s "$(latest)/node-003.log") bytes"
}

# A run over 3 ranks that stays up (node 0 spins, the others wait), with
# options "$@" besides; sets mpid (mpirun) and rpids (rank 0, 1, 2), and
# waits for the 4 QEMUs. HUNG_TRAP: what else a failing test undoes.
start_hung_mpi() {
  wm 3 --app hang --nodes 4 --hang-timeout 300 "$@" > "$TMP/s" 2>&1 &
  mpid=$!
  trap "pkill -KILL -f -- '--runs-dir $RUNS'; ${HUNG_TRAP:-}" EXIT   # a failing test's job ends with it
  local i
  for i in $(seq 200); do
    rpids=($(ranks_of | sort -n | awk '{print $2}'))
    [ ${#rpids[@]} = 3 ] && [ "$(qemu_of ${rpids[1]} | wc -l)" = 2 ] && [ "$(qemu_of ${rpids[2]} | wc -l)" = 2 ] && break
    sleep 0.1
  done
  expect '[ ${#rpids[@]} = 3 ]' "ranks: $(ranks_of)"
  expect '[ "$(qemu_of ${rpids[2]} | wc -l)" = 2 ]' "the QEMUs of rank 2 did not start: $(cat "$TMP/s")"
  sleep 1
}
nothing_left() {
  local p
  for p in "${rpids[@]}"; do
    for i in $(seq 50); do [ -z "$(qemu_of $p)" ] && break; sleep 0.1; done
    expect '[ -z "$(qemu_of $p)" ]' "QEMUs of rank pid $p left: $(qemu_of $p)"
    expect '! grep -q "wormsim-$p-" /proc/net/unix' "a socket of rank pid $p is left"
    for i in $(seq 50); do kill -0 $p 2>/dev/null || break; sleep 0.1; done
    expect '! kill -0 $p 2>/dev/null' "rank pid $p is still running: $(ps -o pid,stat,args -p $p)"
  done
}

# A QEMU of a node host dies: the router ends the run naming the node and
# its host, and every rank stops its QEMUs.
mpi_qemu_killed_ends_the_run() {
  start_hung_mpi
  local q; q=$(qemu_of ${rpids[2]} | head -1)
  kill -KILL $q
  wait $mpid; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/s")"
  expect 'summary .error | grep -Eq "^node [23]: its QEMU on host .+ \(rank 2\) was killed by signal 9"' "$(summary .error)"
  nothing_left
}

# A node host rank dies: mpirun ends the job and names the rank and host;
# the router still writes the run's summary, and nothing is left on the host.
mpi_node_host_killed_ends_the_run() {
  local shm0; shm0=$(ls /dev/shm | sort)
  start_hung_mpi
  kill -KILL ${rpids[1]}
  wait $mpid; local rc=$?
  expect '[ $rc != 0 ]' "exit $rc"
  expect 'grep -Eq "rank 1 .*(exited|signal|killed)|process rank 1" "$TMP/s"' "$(cat "$TMP/s")"
  expect '[ "$(summary .ok)" = false ]' "$(cat "$TMP/s")"
  nothing_left
  expect '[ "$(ls /dev/shm | sort)" = "$shm0" ]' "left in /dev/shm: $(comm -13 <(echo "$shm0") <(ls /dev/shm | sort))"
}

# Ctrl-C to mpirun: it sends every rank SIGTERM a second later and
# SIGKILL a second after that; in between the router writes and prints the
# run's summary, and no rank leaves a QEMU, socket or shared-memory file
# (Open MPI's included: a rank ended by a signal skips MPI_Finalize, which
# may wait on the ending job, and unlinks the transport's files first).
mpi_interrupt_writes_the_summary() {
  local shm0; shm0=$(ls /dev/shm | sort)
  start_hung_mpi
  local mp; mp=$(pgrep -f -- "^mpirun -np 3 .*--runs-dir $RUNS" | head -1)   # (mpid is wm's shell)
  expect '[ -n "$mp" ]' "no mpirun: $(pgrep -af mpirun)"
  kill -INT $mp
  wait $mpid
  expect '[ "$(summary .interrupted_by_signal)" = 15 ]' "$(cat "$TMP/s")"
  expect 'summary .error | grep -q "^interrupted by signal 15"' "$(summary .error)"
  expect 'grep -q "interrupted by signal 15 (Terminated)" "$TMP/s"' "$(cat "$TMP/s")"
  nothing_left
  expect '[ "$(ls /dev/shm | sort)" = "$shm0" ]' "left in /dev/shm: $(comm -13 <(echo "$shm0") <(ls /dev/shm | sort))"
}

# Merged nodes over ranks (--merge-pages, host/launch/merge.h): each node
# host starts its nodes through its paced start (node_host.c: the CONFIGs
# queued in order, each asked of the same rule as on one host) and
# mergeable (VmFlags mg in each QEMU's /proc/PID/smaps), and every
# result is as on one host unmerged. A node host without ksmd refuses the
# run before any node starts, naming its host and rank.
mpi_merged_nodes_keep_figures() {
  local K=/sys/kernel/mm/ksm run0 scan0 one q rc
  run0=$(cat $K/run) scan0=$(cat $K/pages_to_scan)
  local back="echo $run0 > $K/run; echo $scan0 > $K/pages_to_scan"
  trap "$back" EXIT
  echo 0 > $K/run
  wm 3 --app hello --nodes 4 --merge-pages > "$TMP/k0" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -A1 "^wormsim: on host .* (rank [12]):" "$TMP/k0" | grep -q "samepage merging is not running"' \
         "exit $rc: $(cat "$TMP/k0")"
  expect '! grep -q "output of node" "$TMP/k0"' "$(cat "$TMP/k0")"
  echo 1 > $K/run; echo 2000 > $K/pages_to_scan
  local run=(--arch mixed --app alltoall_pex --dims 4x4 --args len=300)
  "$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$RUNS" "${run[@]}" > "$TMP/k1" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/k1")"; one=$(latest)
  wm 3 "${run[@]}" --merge-pages > "$TMP/k3" 2>&1; rc=$?
  expect '[ $rc = 0 ] && grep -q "alltoall_pex on torus 4x4 (16 nodes): ok" "$TMP/k3"' "exit $rc: $(tail -20 "$TMP/k3")"
  ok_run
  same_results "$one" "$(latest)"
  HUNG_TRAP=$back start_hung_mpi --merge-pages
  for q in $(qemu_of ${rpids[1]}) $(qemu_of ${rpids[2]}); do     # (VmFlags mg: a mergeable area)
    expect '[ "$(grep -c "^VmFlags:.* mg" /proc/$q/smaps)" -gt 10 ]' "QEMU $q of a node host has no mergeable area"
  done
  kill -KILL "$(qemu_of ${rpids[2]} | head -1)"
  wait $mpid
  nothing_left
}

# gdb on a node of another rank: the run says which host and port.
mpi_gdb_names_the_host() {
  command -v gdb-multiarch >/dev/null || { echo "gdb-multiarch missing"; exit 1; }
  rm -f "$TMP/g"   # (an earlier test's output would end the wait below at once)
  wm 3 --app hello --nodes 4 --gdb 3 > "$TMP/g" 2>&1 & local w=$!
  for i in $(seq 200); do grep -q 'is halted' "$TMP/g" && break; sleep 0.1; done
  expect 'grep -q "node 3 is halted with its gdbstub on host $(hostname), 127.0.0.1:" "$TMP/g"' "$(cat "$TMP/g")"
  expect 'grep -q "^host $(hostname)\$" "$(latest)/gdb"' "$(cat "$(latest)/gdb")"
  timeout 60 tests/gdb-attach.sh "$(latest)" 3 /nonexistent -batch -ex 'break app_hello' -ex continue \
      -ex 'print cfg->rank' -ex continue > "$TMP/gdbout" 2>&1
  wait $w; local rc=$?
  expect '[ $rc = 0 ]' "exit $rc: $(cat "$TMP/g")"
  expect 'grep -q "\$1 = 3" "$TMP/gdbout"' "$(cat "$TMP/gdbout")"
}

for m in mpi_placement_is_bit_identical mpi_hardware_collectives mpi_hostile_nodes_are_named_as_on_one_host \
         mpi_bad_option_is_said_once mpi_ranks_run_rank0s_machine mpi_ranks_on_one_host_share_its_memory \
         mpi_log_max_reaches_node_hosts \
         mpi_qemu_killed_ends_the_run mpi_node_host_killed_ends_the_run \
         mpi_interrupt_writes_the_summary mpi_gdb_names_the_host; do t $m $m; done
if [ "$(id -u)" = 0 ] && [ -w /sys/kernel/mm/ksm/run ] && printf '6.7\n%s\n' "$(uname -r)" | sort -V -C; then
  t mpi_merged_nodes_keep_figures mpi_merged_nodes_keep_figures
else echo "  skip  mpi_merged_nodes_keep_figures (needs root, /sys/kernel/mm/ksm and Linux 6.7 to run the kernel's samepage merging; not counted)"; fi
