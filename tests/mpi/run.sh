#!/usr/bin/env bash
# MPI programs on the emulated machine (apps/mpi/, docs/mpi.md): the
# project's own programs (tests/mpi/*.c), built unchanged by wormsim-mpicc
# for ARM and RISC-V nodes and by the host's Open MPI mpicc; the emulated
# run's output must equal, line for line, the output of the same program
# under mpirun on the host (the native MPI is the oracle). Then the failure
# paths: each names the rank, the MPI call and the error class.
# Environment: WORMSIM, MPICC (build/bin/wormsim-mpicc), KERNEL (the
# project's ARM image, for a run of app mpi without a program).
set -u
cd "$(dirname "$0")/../.."
WORMSIM=${WORMSIM:-build/host/wormsim}
MPICC=${MPICC:-build/bin/wormsim-mpicc}
KERNEL=${KERNEL:-build/arm/node.elf}
TMP=$(mktemp -d /tmp/wormsim-mpi-tests.XXXXXX)
RUNS=$TMP/runs
trap 'rm -rf "$TMP"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

. tests/harness.sh
latest() { echo "$RUNS/$(readlink "$RUNS/latest")"; }
. tests/doc-figures.sh

# Each program once per ISA, and natively.
for p in basics vcoll types reduce_ops icoll progress errors alltoall_latency libc_calls probe_long subcomm window cart neighbor in_place testsome ops_local groups types_more bottom cancel vcoll_types mprobe misc_calls errhandler requests type_contents stack c_types attrs info error_classes intercomm contexts rma rma_sync rma_req darray mixed_types waits big_image; do
  for a in arm riscv; do
    "$MPICC" --arch $a -o "$TMP/$p-$a.elf" tests/mpi/$p.c || { echo "wormsim-mpicc failed on $p ($a)"; exit 1; }
  done
  mpicc -O2 -o "$TMP/$p-native" tests/mpi/$p.c || { echo "mpicc failed on $p"; exit 1; }
done

# emu PROG ARCH NODES ARGS [wormsim options]: run PROG on the machine.
emu() {
  local p=$1 arch=$2 n=$3 args=$4; shift 4
  "$WORMSIM" --app mpi --nodes "$n" --arch "$arch" --kernel "$TMP/$p-arm.elf" --kernel-riscv "$TMP/$p-riscv.elf" \
    --args "$args" --runs-dir "$RUNS" --output none "$@" > "$TMP/emu.out" 2>&1
}
# same_as_open_mpi PROG ARCH NODES ARGS [NATIVE ARGS [wormsim options]]: the run succeeds and
# node 0's output is that of mpirun -np NODES (ARGS less the library's
# MPIR_CVAR_ settings, which Open MPI does not take as arguments), less
# the library's notices (lines "MPI: ...", apps/mpi/coll.c); and the
# program says all went well ("all ok", "clocks ok").
same_as_open_mpi() {
  local p=$1 arch=$2 n=$3 args=$4 native=${5-$4}
  shift $(($# < 5 ? $# : 5))
  emu "$p" "$arch" "$n" "$args" "$@"; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  # shellcheck disable=SC2086  # the program's arguments are words
  timeout 120 mpirun -np "$n" "$TMP/$p-native" $native > "$TMP/native.out" 2>"$TMP/native.err"; rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/native.err")"
  tr -d '\r' < "$(latest)/node-000.log" | grep -v '^MPI: ' > "$TMP/emu.log"   # the console ends lines in CR LF
  expect 'cmp -s "$TMP/emu.log" "$TMP/native.out"' "$(diff "$TMP/emu.log" "$TMP/native.out" | head -6)"
  expect 'grep -q -e "all ok" -e "clocks ok" "$TMP/native.out"' "$(cat "$TMP/native.out")"
  expect '! grep -q FAILED "$TMP/native.out"'
}

basics_arm_8() { same_as_open_mpi basics arm 8 "-n 16"; }
# Graph and distributed graph topologies, and the neighbourhood
# collectives on grids and graphs (tests/mpi/neighbor.c).
neighbor_arm_9() { same_as_open_mpi neighbor arm 9 ""; }
neighbor_mixed_12() { same_as_open_mpi neighbor mixed 12 ""; }
neighbor_riscv_3() { same_as_open_mpi neighbor riscv 3 ""; }
# The nonblocking forms on a grid whose periodic dimensions have 1 and 2
# ranks, where Open MPI 4.1's own fails: each block where MPI-3.1 7.6 puts
# it, as the blocking forms (compared with Open MPI above) put it.
neighbor_nonblocking_tiny_grid() {
  emu neighbor arm 4 "-t"; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  expect 'grep -q "^ineighbor, cart 1 x 2, periodic *ok" "$(latest)/node-000.log" && grep -q "^all ok" "$(latest)/node-000.log"' \
    "$(cat "$(latest)/node-000.log")"
}
basics_riscv_6() { same_as_open_mpi basics riscv 6 "-n 5"; }
basics_mixed_16() { same_as_open_mpi basics mixed 16 "-n 100"; }
# 70,000 ints (280,000 bytes) a message: more than the NIC's largest
# message (262,144 bytes), so each goes as two.
basics_long_messages() { same_as_open_mpi basics arm 4 "-n 70000"; }
# MPI_Probe and MPI_Iprobe of messages longer than the NIC's largest
# report the whole message's count (two pieces; four, on mixed nodes),
# and the sender's earlier message still comes first.
probe_long_arm_2() { same_as_open_mpi probe_long arm 2 "-n 70000"; }
probe_long_mixed_3() { same_as_open_mpi probe_long mixed 3 "-n 200000"; }
# The same programs with every message past 64 bytes sent by rendezvous
# (docs/network.md, "Eager and rendezvous"): a correct MPI program does not
# rely on eager buffering, so its output is the same.
basics_rendezvous() {
  same_as_open_mpi basics arm 8 "-n 100" "-n 100" --set eager_max=64
  expect '[ "$(jq .rendezvous_packets "$(latest)/summary.json")" -gt 0 ]' "$(jq .rendezvous_packets "$(latest)/summary.json")"
}
probe_long_rendezvous() { same_as_open_mpi probe_long mixed 3 "-n 70000" "-n 70000" --set eager_max=64; }
# A window of MPI_Isend calls larger than the router holds for a node
# (held_max 1 MiB here; 64 sends of 64 KiB, and of 300,000 bytes, two
# pieces each, longer than the library's bound of held_max / 4), one way
# and both ways: the library waits for its NIC to drain and receives what
# came, instead of the run stopping at held_max ("it sends faster than
# its NIC injects", then "it does not receive what is sent to it").
# Every message sent is received (a send that makes room runs progress,
# which must not run a nonblocking collective's round again from inside
# its own send: that sent its messages twice).
window_past_held_max() {
  same_as_open_mpi window arm 2 "-l 65536 -w 64 -r 2" "-l 65536 -w 64 -r 2" --set held_max=1048576
  expect '[ "$(jq .unreceived_messages "$(latest)/summary.json")" = 0 ]' "$(jq .unreceived_messages "$(latest)/summary.json")"
  same_as_open_mpi window mixed 4 "-l 300000 -w 16 -r 1" "-l 300000 -w 16 -r 1" --set held_max=1048576
  expect '[ "$(jq .unreceived_messages "$(latest)/summary.json")" = 0 ]' "$(jq .unreceived_messages "$(latest)/summary.json")"
  # Under rendezvous a send leaves once its receive is posted: the library
  # does not wait for its queue there (both ranks waiting so deadlocked),
  # so a window under held_max runs, and one past it meets the router's bound.
  same_as_open_mpi window arm 2 "-l 65536 -w 64 -r 2" "-l 65536 -w 64 -r 2" --set eager_max=64
  emu window arm 2 "-l 65536 -w 64 -r 2" --set held_max=1048576 --set eager_max=64; local rc=$?
  expect '[ $rc = 1 ] && grep -q "more than held_max (1048576 bytes): it sends faster than its NIC injects" "$TMP/emu.out"' \
         "$(head -3 "$TMP/emu.out")"
}
# Cartesian topologies, as Open MPI answers them (reorder not used).
cart_arm_8() { same_as_open_mpi cart arm 8 ""; }
cart_mixed_12() { same_as_open_mpi cart mixed 12 ""; }
# MPI_Dims_create as the standard has it, "as close to each other as
# possible" (72 in two is 9 x 8; Open MPI answers 12 x 6), a large prime
# at once on 32-bit ARM (its trial division overflowed and ran for ever),
# zero-dimensional grids (MPI-3.1 7.5.1, 7.5.7; they were refused or made
# one-dimensional) and a grid whose size overflows 32 bits (made, empty).
cart_dims_and_edges() {
  emu cart arm 4 "-n 72"; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  tr -d '\r' < "$(latest)/node-000.log" > "$TMP/d"
  printf '%s\n' "dims_create(72, 2): 9 8" "dims_create(72, 3): 6 4 3" "dims_create(72, 4): 4 3 3 2" \
    "zero dimensions: cart_create 1 rank(s), cartdim 0; cart_sub dropping all: cartdim 0" \
    "a grid of 2 x 2147483647: refused" > "$TMP/want"
  expect 'cmp -s "$TMP/d" "$TMP/want"' "$(diff "$TMP/d" "$TMP/want")"
  emu cart arm 2 "-n 2147483647" --hang-timeout 10; rc=$?
  expect '[ $rc = 0 ] && tr -d "\r" < "$(latest)/node-000.log" | grep -q "^dims_create(2147483647, 4): 2147483647 1 1 1$"' \
    "$(head -3 "$TMP/emu.out")"
}
# With reorder, a grid of the machine's dimensions lies on the machine:
# on an 8x4 torus (8 nodes a row), the grid {8, 4} made with reorder sends
# every halo message (1000 bytes) one hop; made without, it keeps the
# communicator's order (rank = 4 x row + column), and some go further.
halo_hops() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                      $c["len"] == 1000 { print $c["hops"] }' "$(latest)/messages.csv" | sort -n | uniq -c | tr -s ' ' | tr '\n' ';'; }
cart_reorder_lays_the_grid_on_the_machine() {
  emu cart arm 32 "-d 8x4 -r" --topo torus --dims 8x4; local rc=$?
  expect '[ $rc = 0 ] && grep -q "halo  *ok" "$(latest)/node-000.log"' "$(head -3 "$TMP/emu.out")"
  expect '[ "$(halo_hops)" = " 128 1;" ]' "hops (count hops;): $(halo_hops)"
  emu cart arm 32 "-d 8x4" --topo torus --dims 8x4; rc=$?
  expect '[ $rc = 0 ] && grep -q "halo  *ok" "$(latest)/node-000.log"' "$(head -3 "$TMP/emu.out")"
  expect '[ "$(halo_hops)" != " 128 1;" ]' "hops without reorder (count hops;): $(halo_hops)"
}
# Every collective by the library's own algorithms over point to point,
# and the alltoall and broadcast by named algorithms of the project.
# All nine settings in one ARGS of about 400 characters (ARGS holds 799).
basics_p2p_algorithms() {
  local s="" op
  for op in ALLTOALL ALLGATHER BCAST SCATTER GATHER REDUCE ALLREDUCE SCAN BARRIER; do
    s="$s MPIR_CVAR_${op}_INTRA_ALGORITHM=p2p"
  done
  [ ${#s} -gt 255 ] || { echo "the settings take ${#s} characters, not more than 255"; return 1; }
  same_as_open_mpi basics arm 8 "-n 16$s" "-n 16"
}
basics_named_algorithms() {
  same_as_open_mpi basics arm 8 "-n 16 MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pex MPIR_CVAR_BCAST_INTRA_ALGORITHM=rd" "-n 16"
}
# A sub-communicator or a machine the named algorithm cannot take: p2p
# runs, said once.
basics_algorithm_that_cannot_run() {
  same_as_open_mpi basics arm 6 "-n 4 MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pex" "-n 4"
  expect 'grep -q "^MPI: rank 0: MPI_Alltoall: algorithm .pex. cannot run this call" "$(latest)"/node-000.log'
}
# Same program, same figures: two runs agree bit for bit.
basics_deterministic() {
  emu basics mixed 8 "-n 64"; local a rc=$?
  expect '[ $rc = 0 ]'
  a=$(latest); sleep 1
  emu basics mixed 8 "-n 64"; rc=$?
  expect '[ $rc = 0 ]'
  expect 'cmp -s "$a/messages.csv" "$(latest)/messages.csv"'
  expect '[ "$(jq .sim_time_ns "$a/summary.json")" = "$(jq .sim_time_ns "$(latest)/summary.json")" ]'
}

# The all-to-all benchmark on 64 ARM nodes and 16 mixed ones: a line for
# each size, latencies that grow with it.
alltoall_latency_64() {
  emu alltoall_latency arm 64 "-m 1024:4096 -i 2 -x 1"; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  expect '[ "$(grep -c "^[0-9]" "$(latest)/node-000.log")" = 3 ]' "$(cat "$(latest)/node-000.log")"
  expect 'awk "/^[0-9]/ { if (\$2 <= last) exit 1; last = \$2 }" "$(latest)/node-000.log"'
}
# A repeated MPI_Alltoall of one shape runs the kept plan: the call after
# a warm-up costs less than a first call, which plans, by more than a
# tenth (planning PEX's schedule is over a fifth of a 1 KB call on 16
# nodes; a warm-up alone, with planning at each call, gains 3 %).
plan_kept_across_calls() {
  local first again
  emu alltoall_latency arm 16 "-m 1024:1024 -i 1 -x 0 MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pex"
  first=$(awk '/^1024/ { print $2 }' "$(latest)/node-000.log")
  emu alltoall_latency arm 16 "-m 1024:1024 -i 1 -x 1 MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pex"
  again=$(awk '/^1024/ { print $2 }' "$(latest)/node-000.log")
  expect '[ -n "$first" ] && [ -n "$again" ] && awk -v a="$again" -v f="$first" "BEGIN { exit !(a < 0.9 * f) }"' \
    "first call $first us, the call after a warm-up $again us"
  echo "info: MPI_Alltoall by PEX on 16 nodes at 1 KB: $first us planning included, $again us on the kept plan"
}
# docs/mpi.md's example ("MPI_Wtime and simulated time"): the all-to-all
# latency benchmark by PEX on the default 8x8 torus against the
# alltoall_pex app, planned before its start barrier and at the call; the
# rows of its table, in us, and the differences the text draws from them.
app_pex_64_us() {   # ARGS -> the slowest node's coll_ns in us, to 0.1
  "$WORMSIM" --app alltoall_pex --nodes 64 --kernel "$KERNEL" --args "$1" --runs-dir "$RUNS" --output none > "$TMP/app.out" 2>&1 ||
    { echo "alltoall_pex $1 failed: $(head -3 "$TMP/app.out")" >&2; return 1; }
  jq -r '.records.coll_ns.max / 1000' "$(latest)/summary.json" | xargs printf '%.1f'
}
alltoall_figures_of_the_docs() {
  local len want got avg max planned at_call more1 less16 plans
  emu alltoall_latency arm 64 "-m 1024:16384 -i 2 -x 1 MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pex"; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  cp "$(latest)/node-000.log" "$TMP/bench"
  while IFS=';' read -r len want; do
    avg=$(awk -v n="$len" '$1 == n { printf "%.1f", $2 }' "$TMP/bench")
    max=$(awk -v n="$len" '$1 == n { printf "%.1f", $4 }' "$TMP/bench")
    planned=$(app_pex_64_us "len=$len") || exit 1
    at_call=$(app_pex_64_us "len=$len oneshot=1 sync=1") || exit 1
    got="$len | $(thousands "$avg") / $(thousands "$max") us | $(thousands "$planned") us | $(thousands "$at_call") us"
    doc_figure docs/mpi.md "the example's row at $len bytes" "$got" "$want" '^\| @ \|$'
    [ "$len" = 1024 ] && at1=$(than "$max" "$planned") &&
      plans=$(awk -v c="$at_call" -v a="$planned" 'BEGIN { printf "%.0f", (c / a - 1) * 100 }')
    [ "$len" = 16384 ] && at16=$(than "$max" "$planned")
  done <<'ROWS'
1024;1024 | 310.1 / 312.8 us | 313.4 us | 433.4 us
16384;16384 | 4,366.2 / 4,424.7 us | 4,483.4 us | 5,044.6 us
ROWS
  doc_figure docs/mpi.md "the MPI call against the app at 1 KB" "$at1" "0.2 % less" 'collective costs: @ at 1 KB'
  doc_figure docs/mpi.md "the MPI call against the app at 16 KB" "$at16" "1.3 % less" 'at 1 KB and @ at 16 KB'
  doc_figure docs/mpi.md "the cost of planning at the call at 1 KB, %" "$plans" 38 'costs @ % more at 1 KB'
}
# "X % more" or "X % less": time m against time a, as the docs say it.
than() { awk -v m="$1" -v a="$2" 'BEGIN { d = (m / a - 1) * 100; printf "%.1f %% %s", d < 0 ? -d : d, d < 0 ? "less" : "more" }'; }
# An MPI program's figures follow the code it runs, not where the linker
# puts the data (docs/design.md, "How simulated time arises"): the
# benchmark linked with read-only, initialised and zeroed data of odd
# sizes (forced in with -u, so that no instruction changes) times every
# length as without them. A program's data follows the library's in each
# section (wormsim-mpicc links the library first), so the padding moves
# the library's initialised and zeroed data, behind the read-only bytes:
# the test checks that it does (mpii_call, mpii_comms), or it would prove
# nothing.
figures_ignore_the_data_layout() {
  printf 'const char pad_ro[1001] = { 1 };\nchar pad_rw[777] = { 1 };\nchar pad_zero[333];\n' > "$TMP/pad.c"
  local keep="-Wl,-u,pad_ro -Wl,-u,pad_rw -Wl,-u,pad_zero" a run rc
  for a in arm riscv; do
    "$MPICC" --arch $a -o "$TMP/padded-$a.elf" tests/mpi/alltoall_latency.c "$TMP/pad.c" $keep > "$TMP/o" 2>&1
    rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
    local sym was now
    for sym in mpii_call mpii_comms; do
      was=$(nm "$TMP/alltoall_latency-$a.elf" | awk -v s=$sym '$3 == s { print $1 }')
      now=$(nm "$TMP/padded-$a.elf" | awk -v s=$sym '$3 == s { print $1 }')
      expect '[ -n "$was" ] && [ -n "$now" ] && [ "$was" != "$now" ]' "$a: the padding leaves $sym where it was ('$was', '$now')"
    done
  done
  for run in plain padded; do
    if [ $run = plain ]; then emu alltoall_latency mixed 16 "-m 64:4096 -i 2 -x 1"
    else "$WORMSIM" --app mpi --nodes 16 --arch mixed --kernel "$TMP/padded-arm.elf" \
           --kernel-riscv "$TMP/padded-riscv.elf" --args "-m 64:4096 -i 2 -x 1" --runs-dir "$RUNS" --output none > "$TMP/emu.out" 2>&1
    fi
    rc=$?; expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
    grep '^[0-9]' "$(latest)/node-000.log" > "$TMP/$run.rows"
  done
  expect '[ "$(wc -l < "$TMP/plain.rows")" = 7 ] && cmp -s "$TMP/plain.rows" "$TMP/padded.rows"' \
    "without the padding: $(cat "$TMP/plain.rows"); with it: $(cat "$TMP/padded.rows")"
}
alltoall_latency_mixed_16() {
  emu alltoall_latency mixed 16 "-m 1:64 -i 2"; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  expect '[ "$(grep -c "^[0-9]" "$(latest)/node-000.log")" = 7 ]' "$(cat "$(latest)/node-000.log")"
}

# fails_naming MODE NODE TEXT: errors.c in MODE fails the run, and the
# run's error names NODE and TEXT (the call and class).
fails_naming() {
  local node=$2 text=$3
  emu errors arm 4 "$1"; local rc=$?
  expect '[ $rc = 1 ]' "exit status $rc; $(head -3 "$TMP/emu.out")"
  expect 'grep -q "node $node exited with status [0-9]*: .*$text" "$TMP/emu.out"' "$(head -3 "$TMP/emu.out")"
}
# returns_as_wanted MODE [NODE..]: errors.c in MODE under
# MPI_ERRORS_RETURN ends well, and each NODE's log (node 000 if none
# given) is $TMP/want line for line: each call and the class it returned.
returns_as_wanted() {
  local mode=$1 node; shift
  emu errors arm 4 "$mode"; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  for node in "${@:-000}"; do
    tr -d '\r' < "$(latest)/node-$node.log" > "$TMP/b"
    expect 'cmp -s "$TMP/b" "$TMP/want"' "node $node: $(diff "$TMP/b" "$TMP/want")"
  done
}
error_bad_rank() { fails_naming rank 1 "rank 1: MPI_Send: MPI_ERR_RANK: rank 9; accepted: 0..3"; }
error_bad_tag() { fails_naming tag 0 "rank 0: MPI_Recv: MPI_ERR_TAG: tag 40000; accepted: 0..32767"; }
# MPI_Comm_call_errhandler on a communicator of MPI_ERRORS_ARE_FATAL ends
# the node as an error of a call on it would, naming the program's code.
error_call_errhandler() { fails_naming callerr 2 "rank 2: MPI_Comm_call_errhandler: MPI_ERR_OTHER: error code 16, raised by the program"; }
error_bad_root() { fails_naming root 0 "rank 0: MPI_Bcast: MPI_ERR_ROOT: root -4"; }
# A null buffer of some elements and MPI_IN_PLACE where no buffer may be
# it are refused with MPI_ERR_BUFFER, naming the call (they were read or
# written, and the node stopped on a data abort); under MPI_ERRORS_RETURN
# the call returns the class, and a null buffer of no elements still goes.
error_null_buffer() { fails_naming nullbuf 0 "rank 0: MPI_Send: MPI_ERR_BUFFER: a null buffer for 4 elements"; }
error_in_place_buffer() { fails_naming inplace 2 "rank 2: MPI_Recv: MPI_ERR_BUFFER: MPI_IN_PLACE is not a buffer of point to point"; }
error_in_place_receive() { fails_naming inplacerecv 0 "rank 0: MPI_Allreduce: MPI_ERR_BUFFER: MPI_IN_PLACE as the receive buffer"; }
error_buffers_return() {
  printf 'buffers %d: MPI_ERR_BUFFER\n' 0 1 2 3 4 > "$TMP/want"; echo "buffers 5: MPI_SUCCESS" >> "$TMP/want"
  returns_as_wanted buffers
}
# Root -1 is a bad root like any other: refused with MPI_ERR_ROOT by every
# rooted collective (the library took -1 for "no root", and the node
# stopped on a send to a rank out of range).
error_root_minus_one() { fails_naming root1 0 "rank 0: MPI_Bcast: MPI_ERR_ROOT: root -1"; }
# A collective the library has no intercommunicator form of refuses one,
# naming the call (never a hang or a wrong answer); under
# MPI_ERRORS_RETURN so do the others, with MPI_IN_PLACE and a root past
# the remote group refused as such, and MPI_Comm_remote_size refuses an
# intracommunicator.
error_inter_collective() { fails_naming interall 0 "rank 0: MPI_Alltoall: MPI_ERR_COMM: communicator [0-9]* is an intercommunicator, which MPI_Alltoall does not take"; }
error_inter_calls_return() {
  printf 'intercalls %d: %s\n' 0 MPI_ERR_COMM 1 MPI_ERR_COMM 2 MPI_ERR_COMM 3 MPI_ERR_COMM 4 MPI_ERR_BUFFER 5 MPI_ERR_ROOT \
    6 MPI_ERR_COMM > "$TMP/want"
  returns_as_wanted intercalls
}
error_roots_return() {
  printf 'roots %d: MPI_ERR_ROOT\n' 0 1 2 3 4 5 > "$TMP/want"
  returns_as_wanted roots
}
# A null pointer where a call writes its result (a request, a new
# communicator, group or datatype, an int) is refused with MPI_ERR_ARG,
# naming the parameter, before the call sends anything (the node stopped
# on a data abort writing there); so is MPI_Get_count of
# MPI_STATUS_IGNORE. Under MPI_ERRORS_RETURN each call returns the class.
error_null_request() { fails_naming nullreq 1 "rank 1: MPI_Isend: MPI_ERR_ARG: null pointer in parameter request"; }
error_null_outputs_return() {
  printf 'nullouts %d: MPI_ERR_ARG\n' $(seq 0 29) > "$TMP/want"
  returns_as_wanted nullouts
}
# The calls of an array of requests (Waitall, Testall, Waitany, Testany,
# Waitsome, Startall) refuse a negative count with MPI_ERR_COUNT (they
# returned MPI_SUCCESS) and a null array of some requests with
# MPI_ERR_ARG (the node stopped on a data abort).
error_negative_count() { fails_naming waitneg 0 "rank 0: MPI_Waitall: MPI_ERR_COUNT: count -1 is negative"; }
error_request_arrays_return() {
  { printf 'counts %d: MPI_ERR_COUNT\n' $(seq 0 5); printf 'counts %d: MPI_ERR_ARG\n' $(seq 6 11); } > "$TMP/want"
  returns_as_wanted counts
}
# MPI_IN_PLACE where a collective does not take it (MPI-3.1 5.2.1) is
# refused with MPI_ERR_BUFFER by the rank that gives it, naming the
# buffer and where it may be given (it was read or written as a buffer,
# and the node stopped on a data abort, or it was silently sent as
# nothing); under MPI_ERRORS_RETURN every such call returns the class,
# on the root (node 0) and on the others (node 1).
# A null array of counts or displacements where a call takes one is
# refused with MPI_ERR_ARG, naming it (the node stopped on a data abort).
error_null_counts() { fails_naming nullcounts 0 "rank 0: MPI_Reduce_scatter: MPI_ERR_ARG: the counts array is a null pointer"; }
error_null_displs() { fails_naming nulldispls 0 "rank 0: MPI_Alltoallv: MPI_ERR_ARG: the displacements array is a null pointer"; }
error_bcast_in_place() { fails_naming bcastinplace 0 "rank 0: MPI_Bcast: MPI_ERR_BUFFER: MPI_IN_PLACE is not a buffer of MPI_Bcast"; }
error_gather_in_place() {
  fails_naming gatherinplace 1 "rank 1: MPI_Gather: MPI_ERR_BUFFER: MPI_IN_PLACE as the send buffer of rank 1; only the root (0) gives it"
}
error_in_place_return() {
  printf 'inplaces %d: MPI_ERR_BUFFER\n' $(seq 0 29) > "$TMP/want"
  returns_as_wanted inplaces 000 001
}
error_abort() { fails_naming abort 1 "MPI_Abort: rank 1: error code 7"; }
# Caching's and info's errors name what was wrong: a freed keyval, a copy
# callback's error (the call returns the callback's code, MPI-3.1 6.7.2),
# n out of range, a key too long.
error_freed_keyval() { fails_naming keyval 1 "rank 1: MPI_Comm_get_attr: MPI_ERR_KEYVAL: keyval 16 was freed, and no attribute of it is left"; }
error_copy_callback() {
  fails_naming copyfail 0 "rank 0: MPI_Comm_dup: MPI_ERR_OTHER: the copy callback of keyval 16 returned 16"
}
error_info_nthkey() { fails_naming nthkey 0 "rank 0: MPI_Info_get_nthkey: MPI_ERR_ARG: n 3; accepted: 0..2 (the info has 3 keys)"; }
# A size MPI_Type_match_size has no type of is refused naming the sizes
# the class has, each once: on ARM nodes long double is double's 8 bytes
# (it said "accepted: 4, 8, 8").
error_match_size() { fails_naming matchsize 0 "rank 0: MPI_Type_match_size: MPI_ERR_ARG: size 16 of typeclass 1; accepted: 4, 8; see node-000.log"; }
error_info_key_too_long() { fails_naming infokey 2 "rank 2: MPI_Info_set: MPI_ERR_INFO_KEY: a key of 256 characters; accepted: 1..255"; }
# The library's limits end the call with MPI_ERR_INTERN naming them, as
# docs/mpi.md's "Limits of this version" says.
error_limits() {
  local mode node what page
  while IFS='|' read -r mode node what page; do
    fails_naming "$mode" "$node" "MPI_ERR_INTERN: more than [0-9]* $what"
    doc_figure docs/mpi.md "$what" "$(thousands "$(grep -o "more than [0-9]* $what" "$TMP/emu.out" | grep -o '[0-9]*')")" \
      "${page%%|*}" "${page#*|}"
  done <<'EOF'
comms|0|communicators at once|64|At most @ communicators at once
dtypes|1|derived datatypes at once|256|At most @ derived datatypes at once
wins|0|windows at once|16|At most @ windows at once
codes|0|error classes and codes of the program's|128|At most @ error classes and codes
EOF
}
error_c_abort() { fails_naming cabort 3 "MPI error: rank 3: abort: signal 6"; }
error_out_of_memory() {
  emu errors arm 4 oom; local rc=$?
  expect '[ $rc = 1 ] && grep -q "node 1 exited with status 1" "$TMP/emu.out"' "$(head -3 "$TMP/emu.out")"
  expect 'grep -q "MPI: rank 1: out of node memory: a request of 104857[0-9]* bytes; [0-9]* of the heap.s [0-9]* bytes are free" "$(latest)/node-001.log"'
  # docs/mpi.md quotes this line, and the heap in MiB
  local heap; heap=$(sed -n "s/.* of the heap's \([0-9]*\) bytes are free.*/\1/p" "$(latest)/node-001.log")
  doc_figure docs/mpi.md "the out-of-memory line of errors.c oom" \
    "$(tr -d '\r' < "$(latest)/node-001.log" | grep -o "[0-9]* of the heap's [0-9]* bytes are free (ram_mib=32)")" \
    "30941140 of the heap's 30941184 bytes are free (ram_mib=32)" '^  bytes; @`$'
  doc_figure docs/mpi.md "the heap of a 32 MiB node, MiB" "$(awk -v h="$heap" 'BEGIN { printf "%.1f", h / 1048576 }')" 29.5 \
    'of which about @ MiB is heap'
}
# With ram_mib=128 the same 100 MiB request is met, on both ISAs (rank 1
# is RISC-V on mixed nodes): the program writes all of it, checks it, and
# the run succeeds.
more_ram_meets_the_request() {
  local arch rc
  for arch in arm mixed; do
    emu errors $arch 4 oom --set ram_mib=128; rc=$?
    expect '[ $rc = 0 ]' "$arch: exit status $rc; $(head -3 "$TMP/emu.out")"
  done
}
# Collectives on sub-communicators (halves, a shuffled one, two at once)
# run the project's algorithms over their ranks: messages tagged with a
# communicator's collective context (apps/mpi/view.c: 2^16 <= tag <
# 2^30) are on the wire; with every setting p2p there are none.
subcomm_arm_8() { same_as_open_mpi subcomm arm 8 "-n 8"; }
subcomm_mixed_7() { same_as_open_mpi subcomm mixed 7 "-n 5"; }
group_tagged() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tag") t = i; next }
                          $t >= 65536 && $t < 1073741824 { n++ } END { print n + 0 }' "$(latest)/messages.csv"; }
subcomm_runs_project_algorithms() {
  local s="" op n
  emu subcomm arm 8 "-n 8"; n=$(group_tagged)
  expect '[ "$n" -gt 0 ]' "no message of a sub-communicator's project collective: $(head -3 "$TMP/emu.out")"
  for op in ALLTOALL ALLGATHER BCAST SCATTER GATHER REDUCE ALLREDUCE SCAN BARRIER; do
    s="$s MPIR_CVAR_${op}_INTRA_ALGORITHM=p2p"
  done
  emu subcomm arm 8 "-n 8$s"; local rc=$?; n=$(group_tagged)
  expect '[ $rc = 0 ] && [ "$n" = 0 ]' "exit $rc, $n messages tagged for a project collective under p2p settings"
}
# Named algorithms on sub-communicators: those that take a line of ranks
# run (pex_gen on 3 ranks), those that need a power of two or a machine
# shape say so once and the library's own runs; results as Open MPI's.
subcomm_named_algorithms() {
  same_as_open_mpi subcomm arm 6 "-n 4 MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pex_gen MPIR_CVAR_BCAST_INTRA_ALGORITHM=tseng2d MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=std_exchange" "-n 4"
  expect 'tr -d "\r" < "$(latest)/node-000.log" | grep -q "algorithm .tseng2d. cannot run this call (.*a sub-communicator is a line of its ranks)"' "$(tr -d '\r' < "$(latest)/node-000.log" | grep MPI:)"
}
libc_calls_mixed() { same_as_open_mpi libc_calls mixed 4 "--size 5"; }
vcoll_arm_6() { same_as_open_mpi vcoll arm 6 ""; }
vcoll_mixed_8() { same_as_open_mpi vcoll mixed 8 ""; }
types_mixed_5() { same_as_open_mpi types mixed 5 ""; }
types_arm_8() { same_as_open_mpi types arm 8 ""; }
# Every reduction with every pair of predefined operator and basic type,
# under MPI_ERRORS_RETURN: the pairs accepted are Open MPI's, and a pair
# refused is refused on every rank before any sends (a refusal at the root
# alone left the other ranks waiting for ever, and MPI_BAND on MPI_DOUBLE
# ran the bits of doubles).
reduce_ops_arm_4() { same_as_open_mpi reduce_ops arm 4 ""; }
reduce_ops_mixed_5() { same_as_open_mpi reduce_ops mixed 5 ""; }
# MPI_IN_PLACE wherever MPI-3.1 takes it (tests/mpi/in_place.c), blocking
# and nonblocking, on the project's algorithms and the library's own.
in_place_arm_5() { same_as_open_mpi in_place arm 5 "-n 3"; }
in_place_mixed_8() { same_as_open_mpi in_place mixed 8 "-n 300"; }
in_place_p2p() {
  local s="" op
  for op in ALLTOALL ALLGATHER BCAST SCATTER GATHER REDUCE ALLREDUCE SCAN BARRIER; do
    s="$s MPIR_CVAR_${op}_INTRA_ALGORITHM=p2p"
  done
  same_as_open_mpi in_place arm 4 "-n 5$s" "-n 5"
}
# MPI_Testsome (it did not link) and MPI_Waitsome on a ring, with
# persistent requests: outcount 0 while none is complete, MPI_UNDEFINED
# once none is active.
testsome_arm_5() { same_as_open_mpi testsome arm 5 ""; }
testsome_mixed_2() { same_as_open_mpi testsome mixed 2 ""; }
# MPI_Reduce_local and MPI_Op_commutative (they did not link), with a
# user operator that does not commute.
ops_local_arm_4() { same_as_open_mpi ops_local arm 4 ""; }
ops_local_mixed_3() { same_as_open_mpi ops_local mixed 3 ""; }
# Caching (MPI-3.1 6.7; none of its calls linked): keyvals and attributes
# on communicators and datatypes, each callback's calls counted and in
# order (the copies of MPI_Comm_dup, dup_with_info and MPI_Type_dup, the
# deletes of set over a value, delete_attr, MPI_Comm_free, MPI_Type_free,
# and MPI_Finalize's, MPI_COMM_SELF's first, the last set first), a
# callback's error returned by the call.
attrs_arm_4() { same_as_open_mpi attrs arm 4 ""; }
attrs_mixed_3() { same_as_open_mpi attrs mixed 3 ""; }
# Info objects and a communicator's hints (MPI-3.1 9, 6.4.4; none of
# their calls linked), their errors, and the calls that take an info.
info_arm_3() { same_as_open_mpi info arm 3 ""; }
info_mixed_2() { same_as_open_mpi info mixed 2 ""; }
# MPI_Add_error_class, _code and _string, MPI_Type_match_size and
# MPI_Is_thread_main (none of them linked).
error_classes_arm_3() { same_as_open_mpi error_classes arm 3 ""; }
error_classes_riscv_2() { same_as_open_mpi error_classes riscv 2 ""; }
# own_answers PROG ARCH NODES: PROG -x, where the library answers as
# MPI-3.1 leaves it to (or where Open MPI 4.1 departs from it), ends well
# and node 0's lines of those answers are $TMP/want.
own_answers() {
  emu "$1" "$2" "$3" "-x"; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  tr -d '\r' < "$(latest)/node-000.log" > "$TMP/log"
  expect 'grep -q "all ok" "$TMP/log" && ! grep -q FAILED "$TMP/log"' "$(cat "$TMP/log")"
  grep -e '^bad ' -e '^finalized ' -e '^match_size ' "$TMP/log" > "$TMP/got"
  expect 'cmp -s "$TMP/got" "$TMP/want"' "$(diff "$TMP/got" "$TMP/want")"
}
# A keyval not valid, freed, of the other kind, or predefined where it is
# set, deleted or freed: MPI_ERR_KEYVAL; MPI_Finalized false in the
# callbacks of MPI_Finalize (MPI-3.1 8.7); a duplicate whose copy callback
# failed, and then a delete callback of what it had copied, leaves none of
# its attributes to the next communicator (the slot it freed gave them
# to it).
attrs_own_answers() {
  cat > "$TMP/want" <<'EOF'
bad get_attr MPI_KEYVAL_INVALID: MPI_ERR_KEYVAL
bad get_attr 12345: MPI_ERR_KEYVAL
bad get_attr freed: MPI_ERR_KEYVAL
bad set_attr freed: MPI_ERR_KEYVAL
bad free_keyval twice: MPI_ERR_KEYVAL
bad set_attr a type keyval: MPI_ERR_KEYVAL
bad type_set_attr a comm keyval: MPI_ERR_KEYVAL
bad type_get_attr MPI_TAG_UB: MPI_ERR_KEYVAL
bad type_set_attr no type: MPI_ERR_TYPE
bad set_attr MPI_TAG_UB: MPI_ERR_KEYVAL
bad delete_attr MPI_TAG_UB: MPI_ERR_KEYVAL
bad free_keyval MPI_TAG_UB: MPI_ERR_KEYVAL
bad set_attr no comm: MPI_ERR_COMM
bad get_attr null flag: MPI_ERR_ARG
bad create_keyval null keyval: MPI_ERR_ARG
bad done: MPI_SUCCESS
finalized in its callbacks: no
EOF
  own_answers attrs mixed 2
}
# The hints given back are those set (kept by MPI_Comm_dup, replaced by
# MPI_Comm_dup_with_info's); a key of MPI_MAX_INFO_KEY characters is
# taken; MPI_INFO_ENV is empty; a bad handle is MPI_ERR_INFO.
info_own_answers() {
  cat > "$TMP/want" <<'EOF'
bad set on no info: MPI_ERR_INFO
bad set on a freed info: MPI_ERR_INFO
bad set an empty key: MPI_ERR_INFO_KEY
bad set an empty value: MPI_ERR_INFO_VALUE
bad set on MPI_INFO_ENV: MPI_ERR_INFO
bad free MPI_INFO_ENV: MPI_ERR_INFO
bad free MPI_INFO_NULL: MPI_ERR_INFO
bad get valuelen -1: MPI_ERR_ARG
bad nthkey of an empty info: MPI_ERR_ARG
bad nthkey 2 of 2 keys: MPI_ERR_ARG
bad comm_set_info MPI_INFO_NULL: MPI_ERR_INFO
bad dup_with_info no info: MPI_ERR_INFO
bad alloc_mem no info: MPI_ERR_INFO
EOF
  own_answers info arm 2
  expect 'grep -q "^own: the hints set are given back *ok" "$TMP/log" && grep -q "^own: a key of MPI_MAX_INFO_KEY, env empty *ok" "$TMP/log"' \
    "$(cat "$TMP/log")"
}
# MPI_Type_match_size gives the node's C types, on RISC-V nodes too; a
# class of the program's is its own class.
error_classes_own_answers() {
  cat > "$TMP/want" <<'EOF'
match_size 2 1: MPI_SIGNED_CHAR
match_size 2 2: MPI_SHORT
match_size 2 4: MPI_INT
match_size 2 8: MPI_LONG_LONG
match_size 1 4: MPI_FLOAT
match_size 1 8: MPI_DOUBLE
match_size 3 8: MPI_C_FLOAT_COMPLEX
match_size 3 16: MPI_C_DOUBLE_COMPLEX
bad match_size integer 3: MPI_ERR_ARG
bad match_size class 99: MPI_ERR_ARG
bad add_error_string to MPI_ERR_ARG: MPI_ERR_ARG
bad add_error_string to 9999: MPI_ERR_ARG
bad add_error_code of class 9999: MPI_ERR_ARG
bad error_class of 9999: MPI_ERR_ARG
EOF
  own_answers error_classes riscv 2
  expect 'grep -q "^own: the class of a class *ok" "$TMP/log"' "$(cat "$TMP/log")"
}
# Group unions, intersections, differences and ranges, MPI_Comm_split_type
# and MPI_Comm_get_attr (none of them linked): each group's members in
# the standard's order, as Open MPI lists them.
# long double, MPI_OFFSET, the complex types and MPI_LONG_DOUBLE_INT
# (MPI-3.1 3.2.2): sizes, names, reductions, a struct's extent, a ring.
# long double's size differs between the ISAs: nodes of one ISA.
c_types_arm_4() { same_as_open_mpi c_types arm 4 ""; }
c_types_riscv_3() { same_as_open_mpi c_types riscv 3 ""; }
# Local arrays of 320 KiB a rank: the stack of an MPI program's image is
# 1 MiB (it was the project's own 64 KiB, and the arrays overran it).
stack_arm_2() { same_as_open_mpi stack arm 2 ""; }
stack_mixed_3() { same_as_open_mpi stack mixed 3 ""; }
# An image of about 44 MiB (a static array of 40 MiB) runs on nodes of 48 MiB,
# both ISAs; on the default 32 MiB it is refused before any QEMU starts,
# naming what it spans and the ram_mib that would hold it, and the host's
# memory estimate counts it.
big_image_mixed_3() { same_as_open_mpi big_image mixed 3 "" "" --set ram_mib=48; }
error_image_over_ram_mib() {
  local before; before=$(ls "$RUNS" 2>/dev/null | wc -l)
  emu big_image arm 2 ""; local rc=$?
  expect '[ $rc = 2 ]' "exit status $rc; $(head -3 "$TMP/emu.out")"
  # the MiB its segments span from the RAM's base (0x40000000), by readelf
  local top=0 kind off va pa fsz msz
  while read -r kind off va pa fsz msz _; do
    [ "$kind" = LOAD ] && [ $((va + msz)) -gt $top ] && top=$((va + msz))
  done < <(arm-none-eabi-readelf -lW "$TMP/big_image-arm.elf")
  local mib=$(((top - 0x40000000 + 0xfffff) >> 20))
  expect 'grep -q "big_image-arm.elf is an image that spans $mib MiB of node RAM .*more than the run.s ram_mib=32: .*ram_mib=N. (--set ram_mib=N) with N from $((mib + 1)) to 1024" "$TMP/emu.out"' \
    "$(cat "$TMP/emu.out")"
  expect '[ "$(ls "$RUNS" 2>/dev/null | wc -l)" = "$before" ]' "a run directory was made: $(ls "$RUNS")"
  # the host's memory estimate counts the 40 MiB a node its image adds:
  # 16 such nodes pass 600 MiB, which 16 nodes of a small image keep under
  emu big_image arm 16 "" --set ram_mib=48 --check --mem-limit 600; rc=$?
  expect '[ $rc = 2 ] && grep -q "KiB per ARM node with its image.s 4[0-9][0-9][0-9][0-9] KiB more .*more than the 600 MiB of --mem-limit" "$TMP/emu.out"' \
    "exit status $rc; $(cat "$TMP/emu.out")"
  emu stack arm 16 "" --set ram_mib=48 --check --mem-limit 600; rc=$?
  expect '[ $rc = 0 ]' "a small image: exit status $rc; $(cat "$TMP/emu.out")"
}
# Intercommunicators (tests/mpi/intercomm.c): groups of the even and the
# odd ranks, of different sizes, and of one rank each.
intercomm_arm_5() { same_as_open_mpi intercomm arm 5 ""; }
intercomm_mixed_8() { same_as_open_mpi intercomm mixed 8 ""; }
intercomm_arm_2() { same_as_open_mpi intercomm arm 2 ""; }
intercomm_riscv_3() { same_as_open_mpi intercomm riscv 3 ""; }
# Communicators made and freed past the 4,096 context pairs, a freed
# one's context taken again (tests/mpi/contexts.c).
contexts_arm_4() { same_as_open_mpi contexts arm 4 ""; }
contexts_mixed_6() { same_as_open_mpi contexts mixed 6 ""; }
contexts_riscv_4() { same_as_open_mpi contexts riscv 4 ""; }
# One-sided communication with fences (tests/mpi/rma.c).
rma_arm_5() { same_as_open_mpi rma arm 5 ""; }
rma_mixed_3() { same_as_open_mpi rma mixed 3 ""; }
rma_riscv_2() { same_as_open_mpi rma riscv 2 ""; }
# Locks, post-start-complete-wait and dynamic windows (tests/mpi/rma_sync.c):
# a counter kept whole by exclusive locks alone, lock_all with flushes,
# PSCW rings, memory attached at an address another rank was told. The
# targets serve the requests while they wait in the library.
rma_sync_arm_5() { same_as_open_mpi rma_sync arm 5 ""; }
rma_sync_mixed_4() { same_as_open_mpi rma_sync mixed 4 ""; }
rma_sync_riscv_2() { same_as_open_mpi rma_sync riscv 2 ""; }
# An origin that completes its accumulates only locally, faster than its
# target adds them up, holds back until the target has served enough: 4
# MiB of them pass a router that holds 1 MiB for a node.
rma_sync_flow_control() { same_as_open_mpi rma_sync arm 2 "-f" "-f" --set held_max=1048576; }
# Request-based operations in passive target epochs (MPI_Rput, MPI_Rget,
# MPI_Raccumulate, MPI_Rget_accumulate: completed by MPI_Wait, a loop of
# MPI_Test, MPI_Waitall), and shared windows on MPI_COMM_TYPE_SHARED's
# communicators (tests/mpi/rma_req.c).
rma_req_arm_4() { same_as_open_mpi rma_req arm 4 ""; }
rma_req_mixed_5() { same_as_open_mpi rma_req mixed 5 ""; }
rma_req_riscv_2() { same_as_open_mpi rma_req riscv 2 ""; }
# A request-based operation outside a passive target epoch, or past the
# window; a shared window's query of another flavor; an error handler of
# one kind set on the other (communicator, window); a shared window of
# two nodes, which share no memory.
rma_req_own_answers() {
  cat > "$TMP/want" <<'EOF'
bad rput in a fence epoch: MPI_ERR_RMA_SYNC
bad rget of a target not locked: MPI_ERR_RMA_SYNC
bad rput past the window: MPI_ERR_RMA_RANGE
bad shared query of an allocated window: MPI_ERR_RMA_FLAVOR
bad communicator's handler on a window: MPI_ERR_ARG
bad window's handler on a communicator: MPI_ERR_ARG
bad shared window of two nodes: MPI_ERR_RMA_SHARED
bad done: MPI_SUCCESS
EOF
  own_answers rma_req mixed 3
}
# Wrong synchronization refused where it is made, naming the class.
rma_sync_own_answers() {
  cat > "$TMP/want" <<'EOF'
bad unlock of no lock: MPI_ERR_RMA_SYNC
bad lock of no type: MPI_ERR_LOCKTYPE
bad lock of no rank: MPI_ERR_RANK
bad put outside any epoch: MPI_ERR_RMA_SYNC
bad second lock of one target: MPI_ERR_RMA_SYNC
bad lock_all while locked: MPI_ERR_RMA_SYNC
bad put past the window: MPI_ERR_RMA_RANGE
bad flush of a target not locked: MPI_ERR_RMA_SYNC
bad free while locked: MPI_ERR_RMA_SYNC
bad unlock_all of no lock_all: MPI_ERR_RMA_SYNC
bad wait with no post: MPI_ERR_RMA_SYNC
bad test with no post: MPI_ERR_RMA_SYNC
bad complete with no start: MPI_ERR_RMA_SYNC
bad post of no group: MPI_ERR_GROUP
bad attach to a created window: MPI_ERR_RMA_FLAVOR
bad done: MPI_SUCCESS
EOF
  own_answers rma_sync mixed 3
}
# An operation outside an epoch, or to a target type the library does not
# take, ends the run naming the call (a window's errors are fatal by default).
error_rma_outside_epoch() { fails_naming rmaepoch 2 "rank 2: MPI_Put: MPI_ERR_RMA_SYNC: outside an access epoch to rank 0: call MPI_Win_fence, MPI_Win_lock, MPI_Win_lock_all or MPI_Win_start first"; }
error_rma_target_type() { fails_naming rmatype 2 "rank 2: MPI_Put: MPI_ERR_TYPE: target datatype [0-9]* is not contiguous, which MPI_Put does not take yet"; }
groups_arm_7() { same_as_open_mpi groups arm 7 ""; }
groups_mixed_4() { same_as_open_mpi groups mixed 4 ""; }
# A long and the other types of the node's own size: refused between the
# ISAs of a mixed machine (point to point, collectives, one-sided; a
# derived type holding one), taken between nodes of one ISA, and on a
# machine of one ISA everywhere (tests/mpi/mixed_types.c); under the
# default handler the run ends naming the type, the two nodes and the
# types to use instead.
mixed_types_as_answered() {
  local arch want
  for arch in mixed arm; do
    emu mixed_types $arch 4 ""; local rc=$?
    expect '[ $rc = 0 ]' "$arch: $(head -3 "$TMP/emu.out")"
    tr -d '\r' < "$(latest)/node-000.log" > "$TMP/log"
    want=$([ $arch = mixed ] && echo MPI_ERR_TYPE || echo MPI_SUCCESS)
    expect 'grep -q "all ok" "$TMP/log"' "$arch: $(cat "$TMP/log")"
    for call in "long between ranks 0 and 1" "two unsigned longs between ranks 1 and 0" \
                "long allreduce on every rank" "long put to the next rank" \
                "long allreduce between the two parities"; do
      expect 'grep -qx "$call: $want" "$TMP/log"' "$arch: $call: $(grep "^$call" "$TMP/log")"
    done
    for call in "long between ranks 0 and 2" "int64_t between ranks 0 and 1" \
                "long allreduce on the ranks of one parity" "int64_t allreduce on every rank" \
                "int64_t allreduce between the two parities"; do
      expect 'grep -qx "$call: MPI_SUCCESS" "$TMP/log"' "$arch: $call: $(grep "^$call" "$TMP/log")"
    done
  done
  emu mixed_types mixed 4 "-f"; rc=$?
  expect '[ $rc = 1 ] && grep -q "node 0 exited with status [0-9]*: MPI error: rank 0: MPI_Send: MPI_ERR_TYPE: MPI_LONG" "$TMP/emu.out"' \
    "exit $rc: $(head -4 "$TMP/emu.out")"
  expect 'grep -q "rank 0: MPI_Send: MPI_ERR_TYPE: MPI_LONG differs in size between this ARM node and node 1 (RISC-V) and is not converted: use a fixed-size type, MPI_INT32_T, MPI_INT64_T, ... (docs/mpi.md)" "$(latest)/node-000.log"' \
    "$(cat "$(latest)/node-000.log")"
}
# Distributed arrays (MPI_Type_create_darray): block, cyclic and
# undistributed dimensions, C and Fortran order, each rank's part packed
# (tests/mpi/darray.c).
darray_arm_4() { same_as_open_mpi darray arm 4 ""; }
darray_mixed_6() { same_as_open_mpi darray mixed 6 ""; }
darray_riscv_4() { same_as_open_mpi darray riscv 4 ""; }
# An undistributed dimension over several processes: MPI_ERR_ARG (as
# MPICH answers; Open MPI takes it).
darray_own_answers() {
  cat > "$TMP/want" <<'EOF'
bad none over 4 processes: MPI_ERR_ARG
EOF
  own_answers darray mixed 4
}
# Subarrays, indexed and hindexed blocks, Type_dup, Get_address, true
# extents and Get_elements (none of them linked).
types_more_arm_4() { same_as_open_mpi types_more arm 4 ""; }
types_more_mixed_3() { same_as_open_mpi types_more mixed 3 ""; }
# A struct of absolute addresses received at MPI_BOTTOM by MPI_Irecv or a
# persistent receive (its packed copy was never unpacked: the members
# kept their old values).
bottom_arm_3() { same_as_open_mpi bottom arm 3 ""; }
bottom_mixed_4() { same_as_open_mpi bottom mixed 4 ""; }
# MPI_Cancel, MPI_Test_cancelled and MPI_Request_get_status (none of
# them linked): a receive nobody sends to is cancelled, a received send
# is not, and get_status leaves the request for Wait.
cancel_arm_4() { same_as_open_mpi cancel arm 4 ""; }
cancel_mixed_3() { same_as_open_mpi cancel mixed 3 ""; }
# MPI_Mprobe, MPI_Improbe, MPI_Mrecv and MPI_Imrecv (none of them
# linked): a matched message is seen by no later probe or receive, and
# the matched receive gets it, long (two NIC messages) or of a vector
# type; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC; a receive posted before
# the probe keeps its message.
mprobe_arm_4() { same_as_open_mpi mprobe arm 4 ""; }
mprobe_mixed_3() { same_as_open_mpi mprobe mixed 3 ""; }
# MPI_Alloc_mem, MPI_Free_mem, MPI_Pcontrol, the MPI_Count forms of the
# type calls, MPI_Status_set_elements(_x), MPI_Status_set_cancelled and
# the type names (none of them linked), each checked against the
# standard's values.
misc_calls_arm_3() { same_as_open_mpi misc_calls arm 3 ""; }
misc_calls_mixed_2() { same_as_open_mpi misc_calls mixed 2 ""; }
# MPI_Type_get_envelope and MPI_Type_get_contents (neither linked): each
# constructor's combiner and arguments in the standard's order, a type
# freed by the program given back by a type made of it, and every type
# rebuilt from its contents alone packing and receiving as the original.
type_contents_arm_3() { same_as_open_mpi type_contents arm 3 ""; }
type_contents_mixed_4() { same_as_open_mpi type_contents mixed 4 ""; }
# The program's error handlers (MPI_Comm_create_errhandler,
# MPI_Comm_call_errhandler, MPI_Errhandler_free: none of them linked):
# called once per error with the communicator and the code, which the
# call returns; kept by a communicator after the handle is freed;
# inherited by a duplicate.
errhandler_arm_4() { same_as_open_mpi errhandler arm 4 ""; }
errhandler_mixed_3() { same_as_open_mpi errhandler mixed 3 ""; }
# Requests at their edges (tests/mpi/requests.c, one part a run).
# MPI_Waitsome and MPI_Testsome that complete a failed (truncated)
# receive return MPI_ERR_IN_STATUS with each status's error (they
# returned MPI_ERR_TRUNCATE).
requests_some_arm_4() { same_as_open_mpi requests arm 4 "some"; }
requests_some_mixed_3() { same_as_open_mpi requests mixed 3 "some"; }
# MPI_Request_free of a receive whose message is sent later returns, and
# the receive completes on its own (it waited for the message, and the
# run deadlocked).
requests_free_arm_4() { same_as_open_mpi requests arm 4 "free"; }
requests_free_mixed_3() { same_as_open_mpi requests mixed 3 "free"; }
# Receives from MPI_PROC_NULL of a type that is not contiguous keep no
# memory (80 MB of them ran a node out of heap).
requests_procnull_arm_2() { same_as_open_mpi requests arm 2 "procnull"; }
# 30 receives from MPI_ANY_SOURCE with MPI_ANY_TAG, completed by
# MPI_Waitany: a later receive took an earlier one's message when it
# arrived while the library looked (MPI_ERR_TRUNCATE, wrong lengths).
requests_order_arm_2() { same_as_open_mpi requests arm 2 "order"; }
requests_order_mixed_2() { same_as_open_mpi requests mixed 2 "order"; }
requests_order_riscv_3() { same_as_open_mpi requests riscv 3 "order"; }
# The collectives of varying counts with types that are not contiguous
# (a resized vector of a matrix's column block, strided elements, a type
# per peer, in place too): they were refused with MPI_ERR_TYPE.
vcoll_types_arm_4() { same_as_open_mpi vcoll_types arm 4 ""; }
vcoll_types_mixed_5() { same_as_open_mpi vcoll_types mixed 5 ""; }
icoll_arm_6() { same_as_open_mpi icoll arm 6 ""; }
icoll_mixed_8() { same_as_open_mpi icoll mixed 8 ""; }
progress_arm_6() { same_as_open_mpi progress arm 6 ""; }
# MPI_Probe, MPI_Mprobe, MPI_Waitany and MPI_Waitsome on receives wait in
# the NIC: while rank 1 computes, rank 0's waits cost it a few doorbells,
# not one a poll (tests/mpi/waits.c: about 50,000 when they polled, 34 now).
waits_in_the_nic() {  # ARCH
  same_as_open_mpi waits "$1" 2 ""
  local d; d=$(jq '.engine.doorbells' "$(latest)/summary.json")
  expect '[ "$d" -lt 200 ]' "$d doorbells: the waits polled"
}
waits_arm_2() { waits_in_the_nic arm; }
waits_mixed_2() { waits_in_the_nic mixed; }
progress_mixed_4() { same_as_open_mpi progress mixed 4 ""; }
error_before_init() { fails_naming noinit 0 "MPI_Send: MPI_ERR_OTHER: called before MPI_Init"; }
error_main_returns() {
  emu errors arm 4 return; local rc=$?
  expect '[ $rc = 1 ]'
  expect 'grep -q "node 2 exited with status 3" "$TMP/emu.out"' "$(head -3 "$TMP/emu.out")"
}
# A bad setting is refused by the run tool before any node starts.
error_unknown_setting() {
  local before; before=$(ls "$RUNS" 2>/dev/null | wc -l)
  emu basics arm 2 "MPIR_CVAR_ALLTOAL_INTRA_ALGORITHM=pex"; local rc=$?
  expect '[ $rc = 2 ]' "exit status $rc: $(head -3 "$TMP/emu.out")"
  expect 'grep -q "setting .MPIR_CVAR_ALLTOAL_INTRA_ALGORITHM=pex.: not one the MPI library has; accepted: .*ALLTOALL" "$TMP/emu.out"' \
    "$(head -3 "$TMP/emu.out")"
  emu basics arm 2 "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pexx"; rc=$?
  expect '[ $rc = 2 ]'
  expect 'grep -q "no algorithm .pexx. for ALLTOALL; accepted: auto, p2p or an algorithm" "$TMP/emu.out"' "$(head -3 "$TMP/emu.out")"
  expect '[ "$(ls "$RUNS" 2>/dev/null | wc -l)" = "$before" ]' "a refused run left a run directory"
}
# Under MPI_ERRORS_RETURN a truncated receive returns its class, and the
# program goes on.
error_truncate_returns() {
  emu errors arm 4 trunc; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  expect 'grep -q "trunc: MPI_Recv returned MPI_ERR_TRUNCATE" "$(latest)/node-001.log"'
}
# app mpi on the project's own image, which holds no program.
error_no_program() {
  # the project's own image holds no MPI program: refused before any node starts
  "$WORMSIM" --app mpi --nodes 2 --kernel "$KERNEL" --runs-dir "$RUNS/np" > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "exit $rc: $(cat "$TMP/o")"
  expect 'grep -q "app mpi: the image .* holds no MPI program; build and run one with make run MPI=" "$TMP/o"' "$(cat "$TMP/o")"
  expect '[ ! -e "$RUNS/np" ]' "a run directory was made"
}
mpicc_refuses_bad_input() {
  "$MPICC" --arch sparc tests/mpi/basics.c > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 2 ] && grep -q "accepted: arm, riscv" "$TMP/o"' "$(cat "$TMP/o")"
  "$MPICC" -o "$TMP/x.elf" "$TMP/none.c" > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "no C file" "$TMP/o"' "$(cat "$TMP/o")"
  "$MPICC" --frobnicate tests/mpi/basics.c > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "unknown option .--frobnicate." "$TMP/o"' "$(cat "$TMP/o")"
  expect '[ ! -e "$TMP/x.elf" ]'
}
# A program built as a Makefile builds it: each file compiled with -c
# (-D NAME, -I DIR, -f.., -MMD), the objects linked with -l m (the option,
# -c and .o files were refused); its image runs. Under -c, -o names one
# object.
mpicc_compiles_and_links_objects() {
  mkdir -p "$TMP/mk"
  printf '#include <math.h>\ndouble half_root(double x) { return sqrt(x) / HALF; }\n' > "$TMP/mk/util.c"
  printf '#include <mpi.h>\n#include <stdio.h>\ndouble half_root(double);\nint main(int c, char **v) { int r;\n  MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n  if (r == 0) printf("half root %%.2f\\n", half_root(16.0));\n  return MPI_Finalize(); }\n' > "$TMP/mk/main.c"
  local cc; cc=$(cd "$(dirname "$MPICC")" && pwd)/$(basename "$MPICC")
  (cd "$TMP/mk" && "$cc" -c -D HALF=2 -I . -fno-strict-aliasing -MMD util.c && "$cc" -c -o main-arm.o main.c &&
     "$cc" -o prog.elf main-arm.o util.o -l m) \
    > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 0 ] && [ -f "$TMP/mk/util.o" ] && [ -f "$TMP/mk/util.d" ] && [ -f "$TMP/mk/prog.elf" ]' "$(cat "$TMP/o")"
  "$WORMSIM" --app mpi --nodes 2 --kernel "$TMP/mk/prog.elf" --runs-dir "$RUNS" --output none > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ] && grep -q "half root 2.00" "$(latest)/node-000.log"' "$(cat "$TMP/o")"
  "$MPICC" -c -o "$TMP/mk/two.o" "$TMP/mk/util.c" "$TMP/mk/main.c" > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q -- "-o with -c names one object" "$TMP/o"' "$(cat "$TMP/o")"
  "$MPICC" -c "$TMP/mk/util.o" > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q -- "-c needs a C file" "$TMP/o"' "$(cat "$TMP/o")"
}
# An option's value is not another option: --arch -o is refused naming
# --arch's values, not read as the ISA '-o' with x.elf left over as a file.
mpicc_option_values_are_not_options() {
  "$MPICC" --arch -o "$TMP/x.elf" tests/mpi/basics.c > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 2 ] && grep -q -- "--arch needs a value: arm or riscv, not the option .-o." "$TMP/o"' "$(cat "$TMP/o")"
  "$MPICC" -o --arch riscv tests/mpi/basics.c > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q -- "-o needs a file name, not the option .--arch." "$TMP/o"' "$(cat "$TMP/o")"
  "$MPICC" tests/mpi/basics.c --arch > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q -- "--arch needs a value: arm or riscv" "$TMP/o"' "$(cat "$TMP/o")"
  "$MPICC" -o "" tests/mpi/basics.c > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q -- "-o needs a file name" "$TMP/o"' "$(cat "$TMP/o")"
  expect '[ ! -e "$TMP/x.elf" ] && [ ! -e basics.elf ] && [ ! -e --arch ]'
}
# An image whose directory does not exist is refused, as cc refuses it,
# and nothing is created.
mpicc_output_directory_must_exist() {
  "$MPICC" -o "$TMP/none/x.elf" tests/mpi/basics.c > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 2 ] && grep -q "cannot write $TMP/none/x.elf: no directory $TMP/none" "$TMP/o"' "$(cat "$TMP/o")"
  expect '[ ! -e "$TMP/none" ]'
  "$MPICC" -o "$TMP/x.elf" tests/mpi/basics.c > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ] && [ -s "$TMP/x.elf" ]' "$(cat "$TMP/o")"
}
# An image is of a program: files without main are refused at the link,
# as cc refuses them (the image's entry calls main weakly, so that the
# project's own images link), and no image is written; -c compiles them.
mpicc_requires_main() {
  printf '#include <mpi.h>\nint twice(int x) { return 2 * x; }\n' > "$TMP/nomain.c"
  local a rc
  for a in arm riscv; do
    "$MPICC" --arch $a -o "$TMP/nomain.elf" "$TMP/nomain.c" > "$TMP/o" 2>&1; rc=$?
    expect '[ $rc = 1 ] && grep -q "required symbol .main. not defined" "$TMP/o"' "$(cat "$TMP/o")"
    expect '[ ! -e "$TMP/nomain.elf" ]'
  done
  "$MPICC" -c -o "$TMP/nomain.o" "$TMP/nomain.c" > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ] && [ -s "$TMP/nomain.o" ]' "$(cat "$TMP/o")"
}
# A call the library lacks stops the build, as docs/mpi.md says: a file's
# access mode (MPI-IO) at compile time (the constant is not declared),
# MPI_Comm_idup at link time; the doc quotes each error.
unsupported_calls_as_documented() {
  printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v);\n  return MPI_MODE_RDONLY + MPI_Finalize(); }\n' > "$TMP/win.c"
  printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Comm k; MPI_Request r; MPI_Init(&c, &v);\n  MPI_Comm_idup(MPI_COMM_WORLD, &k, &r); return MPI_Finalize(); }\n' > "$TMP/idup.c"
  "$MPICC" -o "$TMP/win.elf" "$TMP/win.c" > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 1 ] && grep -q "error: .MPI_MODE_RDONLY. undeclared" "$TMP/o"' "$(cat "$TMP/o")"
  "$MPICC" -o "$TMP/idup.elf" "$TMP/idup.c" > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 1 ] && grep -q "undefined reference to .MPI_Comm_idup." "$TMP/o"' "$(cat "$TMP/o")"
  expect 'grep -q "MPI_MODE_RDONLY. undeclared" docs/mpi.md && grep -q "undefined reference to .MPI_Comm_idup." docs/mpi.md' \
    "docs/mpi.md does not quote the two errors"
}
# make (all) writes build/bin/wormsim-mpicc, as docs/mpi.md says: the
# dry run of every target names it.
make_builds_mpicc() {
  make -n -B all > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 0 ] && grep -q "build/bin/wormsim-mpicc" "$TMP/o"' "rc $rc: $(tail -3 "$TMP/o")"
}
# make run MPI=: the documented command; and MPI= with APP= is refused.
make_run_mpi() {
  rm -rf build/mpi   # make run makes the images' directory itself
  make -s run MPI=tests/mpi/basics.c NODES=4 ARGS='-n 8' RUNS_DIR="$RUNS" > "$TMP/o" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(tail -5 "$TMP/o")"
  expect 'grep -q "basics: all ok" "$TMP/o"'
  make -s run MPI=tests/mpi/basics.c APP=hello NODES=4 RUNS_DIR="$RUNS" > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc != 0 ] && grep -q "give APP= or MPI=, not both" "$TMP/o"' "$(cat "$TMP/o")"
}

# gdb on a rank of an MPI program: the program's and the library's sources.
gdb_on_a_rank() {
  emu basics arm 4 "-n 4" --gdb 1 & local pid=$!
  RUNS_DIR=$RUNS timeout 60 tests/gdb-attach.sh "" 1 "$TMP/basics-arm.elf" -batch -ex "break MPI_Alltoall" \
    -ex continue -ex bt -ex continue > "$TMP/gdb" 2>&1
  wait $pid; local rc=$?
  expect '[ $rc = 0 ]' "$(head -3 "$TMP/emu.out")"
  expect 'grep -q "Breakpoint 1, MPI_Alltoall (.*) at apps/mpi/coll.c" "$TMP/gdb"' "$(tail -5 "$TMP/gdb")"
  expect 'grep -q "in collectives (.*) at tests/mpi/basics.c" "$TMP/gdb"' "$(tail -5 "$TMP/gdb")"
}

# docs/mpi.md's worked example, done as written (tests/tutorial/run.sh).
worked_example_as_written() {
  tests/tutorial/run.sh docs/mpi.md > "$TMP/we" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(tail -15 "$TMP/we")"
}

for x in basics_arm_8 neighbor_arm_9 neighbor_mixed_12 neighbor_riscv_3 neighbor_nonblocking_tiny_grid basics_riscv_6 basics_mixed_16 basics_long_messages probe_long_arm_2 probe_long_mixed_3 basics_rendezvous probe_long_rendezvous window_past_held_max cart_arm_8 cart_mixed_12 cart_dims_and_edges cart_reorder_lays_the_grid_on_the_machine basics_p2p_algorithms \
         basics_named_algorithms basics_algorithm_that_cannot_run basics_deterministic \
         alltoall_latency_64 plan_kept_across_calls alltoall_figures_of_the_docs figures_ignore_the_data_layout alltoall_latency_mixed_16 \
         subcomm_arm_8 subcomm_mixed_7 subcomm_runs_project_algorithms subcomm_named_algorithms libc_calls_mixed vcoll_arm_6 vcoll_mixed_8 types_mixed_5 types_arm_8 reduce_ops_arm_4 reduce_ops_mixed_5 in_place_arm_5 in_place_mixed_8 in_place_p2p testsome_arm_5 testsome_mixed_2 ops_local_arm_4 ops_local_mixed_3 groups_arm_7 groups_mixed_4 intercomm_arm_5 intercomm_mixed_8 intercomm_arm_2 intercomm_riscv_3 contexts_arm_4 contexts_mixed_6 contexts_riscv_4 rma_arm_5 rma_mixed_3 rma_riscv_2 rma_sync_arm_5 rma_sync_mixed_4 rma_sync_riscv_2 rma_sync_flow_control rma_sync_own_answers rma_req_arm_4 rma_req_mixed_5 rma_req_riscv_2 rma_req_own_answers darray_arm_4 darray_mixed_6 darray_riscv_4 darray_own_answers mixed_types_as_answered stack_arm_2 stack_mixed_3 big_image_mixed_3 error_image_over_ram_mib c_types_arm_4 c_types_riscv_3 types_more_arm_4 types_more_mixed_3 bottom_arm_3 bottom_mixed_4 cancel_arm_4 cancel_mixed_3 mprobe_arm_4 mprobe_mixed_3 misc_calls_arm_3 misc_calls_mixed_2 type_contents_arm_3 type_contents_mixed_4 attrs_arm_4 attrs_mixed_3 info_arm_3 info_mixed_2 error_classes_arm_3 error_classes_riscv_2 attrs_own_answers info_own_answers error_classes_own_answers errhandler_arm_4 errhandler_mixed_3 requests_some_arm_4 requests_some_mixed_3 requests_free_arm_4 requests_free_mixed_3 requests_procnull_arm_2 requests_order_arm_2 requests_order_mixed_2 requests_order_riscv_3 vcoll_types_arm_4 vcoll_types_mixed_5 icoll_arm_6 icoll_mixed_8 progress_arm_6 progress_mixed_4 waits_arm_2 waits_mixed_2 error_bad_rank error_bad_tag error_bad_root error_call_errhandler error_null_buffer error_in_place_buffer error_in_place_receive error_buffers_return error_root_minus_one error_roots_return error_rma_outside_epoch error_rma_target_type error_inter_collective error_inter_calls_return error_null_request error_null_outputs_return error_negative_count error_request_arrays_return error_null_counts error_null_displs error_bcast_in_place error_gather_in_place error_in_place_return error_abort error_freed_keyval error_copy_callback error_info_nthkey error_info_key_too_long error_match_size error_limits error_c_abort error_out_of_memory more_ram_meets_the_request error_before_init error_main_returns \
         error_unknown_setting error_truncate_returns error_no_program mpicc_refuses_bad_input mpicc_compiles_and_links_objects mpicc_option_values_are_not_options mpicc_output_directory_must_exist mpicc_requires_main unsupported_calls_as_documented make_builds_mpicc make_run_mpi gdb_on_a_rank worked_example_as_written; do
  t $x $x
done
echo "mpi: $pass passed, $fail failed"
[ $fail = 0 ]
