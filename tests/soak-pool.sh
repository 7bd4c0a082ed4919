#!/usr/bin/env bash
# make bench's pool soak: many runs on one node pool, hostile programs
# between normal ones. The hostile ones attack the next run on their nodes
# (apps/faults.c, crash: forge patches the code and forges any check,
# taint changes all but the image and runs on after EXIT saying hello,
# scribble writes over read-only data; and a node that faults). Every
# normal run must give its cold twin's results bit for bit, whatever ran
# on its nodes before (among them crash kind=peek, which reads RAM it never
# wrote, past its heap's break, and must find zeros after a taint); then
# nothing may be left behind (QEMUs, sockets, memfds, /dev/shm files).
#   SOAK_POOL_RUNS=1000  SOAK_SEED=1
set -u
cd "$(dirname "$0")/.."
WORMSIM=${WORMSIM:-build/host/wormsim}; KERNEL=${KERNEL:-build/arm/node.elf}
KERNEL_RISCV=${KERNEL_RISCV:-build/riscv/node.elf}
N=${SOAK_POOL_RUNS:-1000}; RANDOM=${SOAK_SEED:-1}
TMP=$(mktemp -d /tmp/wormsim-soak-pool.XXXXXX)
P=soak-$$
shm0=$(ls /dev/shm | sort)
ws() { "$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$TMP/runs" "$@"; }
# The files of a run that must not depend on what ran before it.
results() { local d=$1; cat "$d"/messages.csv "$d"/links.csv "$d"/steps.csv "$d"/node-*.log &&
            jq -S 'del(.wall_s, .engine, .placement, .invocation)' "$d/summary.json"; }
latest() { echo "$TMP/runs/$(readlink "$TMP/runs/latest")"; }

# The normal runs, and their cold twins' results.
normals=("--arch arm --app alltoall_pex --dims 4x4 --args len=1024"
         "--arch riscv --app alltoall_pex --dims 4x4 --args len=1024"
         "--arch mixed --app bcast_rd --dims 4x4 --args len=256"
         "--arch arm --app alltoall_gen --topo mesh --dims 4x4 --args len=512"
         "--arch riscv --app crash --dims 4x4 --args kind=peek")
for i in "${!normals[@]}"; do
  # shellcheck disable=SC2086
  ws ${normals[$i]} > /dev/null 2>&1 || { echo "soak-pool: cold run failed: ${normals[$i]}"; exit 1; }
  results "$(latest)" > "$TMP/cold-$i"
done
hostile=("forge" "taint" "scribble" "undef")

"$WORMSIM" --serve "$P" > "$TMP/pool.out" 2>&1 & pool=$!
trap 'kill -KILL $pool 2>/dev/null; rm -rf "$TMP"' EXIT
for i in $(seq 100); do grep -q "@wormsim-pool-$P\$" /proc/net/unix && break; sleep 0.05; done

t0=$SECONDS; normal=0; same=0; attacks=0; bad=()
for i in $(seq "$N"); do
  if [ $((RANDOM % 2)) = 0 ]; then
    k=$((RANDOM % ${#hostile[@]})); arch=$([ $((RANDOM % 2)) = 0 ] && echo arm || echo riscv)
    ws --pool "$P" --arch $arch --app crash --dims 4x4 --args "node=$((RANDOM % 16)) kind=${hostile[$k]}" \
      > /dev/null 2>&1
    attacks=$((attacks + 1))
  else
    k=$((RANDOM % ${#normals[@]}))
    # shellcheck disable=SC2086
    if ws --pool "$P" ${normals[$k]} > "$TMP/out" 2>&1 && cmp -s <(results "$(latest)") "$TMP/cold-$k"; then
      same=$((same + 1))
    else
      bad+=("run $i: ${normals[$k]}: $(grep -m1 -E 'FAILED|error' "$TMP/out")")
    fi
    normal=$((normal + 1))
  fi
  rm -rf "$TMP/runs"/2*
  [ $((i % 100)) = 0 ] && echo "soak-pool: $i/$N runs, $((SECONDS - t0)) s" >&2
done
kill -TERM $pool; wait $pool
sleep 1
qemus=$(pgrep -fc "path=wormsim-$pool-" || true)
socks=$(grep -c "wormsim-$pool-\|wormsim-pool-$P" /proc/net/unix || true)
shm_new=$(comm -13 <(echo "$shm0") <(ls /dev/shm | sort) | grep -v '^wormsim-fuzz' | grep -c . || true)
echo "soak-pool: $N runs on one pool in $((SECONDS - t0)) s: $attacks hostile, $normal normal, $same of them" \
     "bit-identical to their cold twins; $(tail -1 "$TMP/pool.out")"
echo "soak-pool: left behind: $qemus QEMU processes, $socks sockets, $shm_new /dev/shm files"
[ ${#bad[@]} = 0 ] || printf '  %s\n' "${bad[@]:0:20}"
[ "$same" = "$normal" ] && [ "$qemus" = 0 ] && [ "$socks" = 0 ] && [ "$shm_new" = 0 ]
