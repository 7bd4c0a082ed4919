#!/usr/bin/env bash
# make bench's soak: many short runs mixing every way a run can go wrong
# (node faults, a node reaching for semihosting, hangs, doorbell storms,
# EXIT then running on, deadlocks, bad descriptors, message floods) with
# good runs, signals to the run tool and SIGKILL to single QEMUs. Then it
# counts what was left behind: QEMU processes, the router's sockets,
# NIC memfds and /dev/shm files. Every run must also end the way its case
# says (exit 0, 1, or 128 + the signal).
#   SOAK_RUNS=1000  SOAK_JOBS=nproc  SOAK_SEED=1
set -u
cd "$(dirname "$0")/.."
WORMSIM=${WORMSIM:-build/host/wormsim}; KERNEL=${KERNEL:-build/arm/node.elf}
KERNEL_RISCV=${KERNEL_RISCV:-build/riscv/node.elf}
N=${SOAK_RUNS:-1000}; JOBS=${SOAK_JOBS:-$(nproc)}; RANDOM=${SOAK_SEED:-1}
TMP=$(mktemp -d /tmp/wormsim-soak.XXXXXX); trap 'rm -rf "$TMP"' EXIT
shm0=$(ls /dev/shm | sort)

# one_run I CASE ARG DELAY: runs case CASE, writes "I CASE:ARG rc expected pid" to $TMP/res/I
one_run() {
  local i=$1 c=$2 arg=$3 delay=$4 want=1 pid rc
  local ws=("$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$TMP/runs/$i" --timeout 60)
  local cmd
  case $c in
    ok)        want=0; cmd=(--app pingpong --nodes 4 --arch "$arg" --args 'len=64 iters=2') ;;
    crash)     cmd=(--app crash --nodes 3 --arch "${arg#*:}" --args "node=1 kind=${arg%%:*}") ;;
    hang)      cmd=(--app hang --nodes 3 --args "node=2 how=$arg" --hang-timeout 1) ;;
    deadlock)  cmd=(--app deadlock --nodes 3) ;;
    baddesc)   cmd=(--app baddesc --nodes 3 --args "node=1 what=$arg" --set held_max=4194304) ;;
    signal|qemukill)
               [ $c = signal ] && want=$((128 + $(kill -l "$arg")))
               cmd=(--app hang --nodes 4 --args 'node=1' --hang-timeout 30) ;;
  esac
  "${ws[@]}" "${cmd[@]}" > /dev/null 2>&1 &
  pid=$!
  if [ $c = signal ]; then
    sleep "$delay"; kill -"$arg" $pid 2>/dev/null
  elif [ $c = qemukill ]; then
    local q= k
    for k in $(seq 50); do                        # its QEMUs may still be starting
      q=$(pgrep -f "path=wormsim-$pid-" | shuf -n 1 --random-source=<(yes "$i"))
      [ -n "$q" ] && break; sleep 0.1
    done
    sleep "$delay"; [ -n "$q" ] && kill -KILL "$q"
  fi
  wait $pid; rc=$?
  echo "$i $c:$arg $rc $want $pid" > "$TMP/res/$i"
  rm -rf "$TMP/runs/$i"
}

mkdir -p "$TMP/res" "$TMP/runs"
crashes=(dabort:arm store:riscv undef:arm pabort:riscv panic:arm semihost:arm semihost:riscv undef:mixed)
hangs=(spin doorbell exit)
bads=(dst len op off ring time backwards flood)
sigs=(TERM INT HUP KILL)
t0=$SECONDS
for i in $(seq "$N"); do
  k=$((RANDOM % 10))
  case $k in
    0|1) c=ok; arg=$([ $((RANDOM % 3)) = 0 ] && echo riscv || echo arm) ;;
    2) c=crash; arg=${crashes[RANDOM % ${#crashes[@]}]} ;;
    3) c=hang; arg=${hangs[RANDOM % ${#hangs[@]}]} ;;
    4) c=deadlock; arg=- ;;
    5|6) c=baddesc; arg=${bads[RANDOM % ${#bads[@]}]} ;;
    7|8) c=signal; arg=${sigs[RANDOM % ${#sigs[@]}]} ;;
    9) c=qemukill; arg=KILL ;;
  esac
  delay=0.$((RANDOM % 10))$((RANDOM % 10))
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  one_run "$i" "$c" "$arg" "$delay" 2>/dev/null &
  [ $((i % 100)) = 0 ] && echo "soak: $i/$N started, $((SECONDS - t0)) s" >&2
done
wait
sleep 2                                  # QEMUs of a killed router follow it (PR_SET_PDEATHSIG)

cat "$TMP"/res/* > "$TMP/all"
runs=$(wc -l < "$TMP/all")
wrong=$(awk '$3 != $4' "$TMP/all")
pids=$(awk '{print $5}' "$TMP/all")
qemus=0; socks=0
for p in $pids; do
  qemus=$((qemus + $(pgrep -f "path=wormsim-$p-" | wc -l)))
  socks=$((socks + $(grep -c "wormsim-$p-" /proc/net/unix || true)))
done
memfds=0                                 # NIC memory still held by a process of this soak's runs
for p in $pids; do [ -d /proc/$p ] && memfds=$((memfds + $(ls -l /proc/$p/fd 2>/dev/null | grep -c "memfd:wormsim-nic" || true))); done
shm_new=$(comm -13 <(echo "$shm0") <(ls /dev/shm | sort) | grep -c . || true)
echo "soak: $runs runs in $((SECONDS - t0)) s on $JOBS jobs; by case:"
awk '{split($2, a, ":"); n[a[1]]++; if ($3 == $4) ok[a[1]]++} END { for (c in n) printf "  %-9s %4d runs, %4d ended as expected\n", c, n[c], ok[c] }' "$TMP/all" | sort
echo "soak: left behind: $qemus QEMU processes, $socks router sockets, $memfds NIC memfds, $shm_new /dev/shm files"
if [ -n "$wrong" ]; then
  echo "soak: runs that did not end as their case says (run case rc expected pid):"; echo "$wrong" | head -20
fi
[ "$runs" = "$N" ] && [ -z "$wrong" ] && [ $qemus = 0 ] && [ $socks = 0 ] && [ "$memfds" = 0 ] && [ "$shm_new" = 0 ]
