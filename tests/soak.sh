#!/usr/bin/env bash
# make bench's soak: many short runs mixing every way a run can go wrong
# (node faults, a node reaching for semihosting, hangs, doorbell storms,
# EXIT then running on, deadlocks, bad descriptors, message floods) with
# good runs, signals to the run tool and SIGKILL to single QEMUs. Then it
# counts what was left behind: QEMU processes, the router's sockets,
# NIC memfds and /dev/shm files. Every run must also end the way its case
# says: its exit status (0, 1, or 128 + the signal) and the cause in
# summary.json.
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
  local i=$1 c=$2 arg=$3 delay=$4 want=1 pid rc why
  local ws=("$WORMSIM" --kernel "$KERNEL" --kernel-riscv "$KERNEL_RISCV" --runs-dir "$TMP/runs/$i" --timeout 60)
  local cmd
  case $c in                               # why: what summary.json's error must say
    ok)        want=0; why='^$'; cmd=(--app pingpong --nodes 4 --arch "$arg" --args 'len=64 iters=2') ;;
    crash)     why='^node 1: '; cmd=(--app crash --nodes 3 --arch "${arg#*:}" --args "node=1 kind=${arg%%:*}") ;;
    hang)      why=$(case $arg in exit) echo '^node 2 posted EXIT' ;; doorbell) echo 'a doorbell storm' ;; *) echo 'look hung' ;; esac)
               cmd=(--app hang --nodes 3 --args "node=2 how=$arg" --hang-timeout $([ "$arg" = exit ] && echo 5 || echo 1)) ;;
    deadlock)  why='^deadlock: '; cmd=(--app deadlock --nodes 3) ;;
    baddesc)   why='^node 1: '; cmd=(--app baddesc --nodes 3 --args "node=1 what=$arg" --set held_max=4194304) ;;
    signal|qemukill)
               why='^node [0-9]+: its QEMU was killed by signal 9'
               if [ $c = signal ]; then
                 want=$((128 + $(kill -l "$arg"))); why="^interrupted by signal $((want - 128))"
                 [ "$arg" = KILL ] && why='^-$'             # a killed router writes nothing
               fi
               cmd=(--app hang --nodes 4 --args 'node=1' --hang-timeout 30) ;;
  esac
  "${ws[@]}" "${cmd[@]}" > /dev/null 2>&1 &
  pid=$!
  # Signals are aimed at the run tool, not at the shell's child before it
  # becomes the run tool (which a shell starts with SIGINT ignored).
  local w; for w in $(seq 100); do [[ $(readlink /proc/$pid/exe 2>/dev/null) == */wormsim ]] && break; sleep 0.02; done
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
  local sum="$TMP/runs/$i/latest/summary.json" said=-
  [ -f "$sum" ] && said=$(jq -r '.error // ""' "$sum")
  local said_ok=yes; [[ $said =~ $why ]] || said_ok=no
  # a signal in its first milliseconds, before it had made a run directory,
  # ends it with nothing to say and nothing to leave
  [ $c = signal ] && [ "$said" = - ] && [ ! -e "$TMP/runs/$i" ] && said_ok=yes
  echo "$i $c:$arg $rc $want $pid $said_ok" > "$TMP/res/$i"
  [ $said_ok = yes ] || echo "$i $c:$arg: error '$said' does not match '$why'" > "$TMP/res/$i.why"
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

cat "$TMP"/res/[0-9]* 2>/dev/null | grep -v ": error" > "$TMP/all"
runs=$(wc -l < "$TMP/all")
wrong=$(awk '$3 != $4 || $6 != "yes"' "$TMP/all")
pids=$(awk '{print $5}' "$TMP/all")
qemus=0; socks=0
for p in $pids; do
  qemus=$((qemus + $(pgrep -f "path=wormsim-$p-" | wc -l)))
  socks=$((socks + $(grep -c "wormsim-$p-" /proc/net/unix || true)))
done
memfds=0                                 # NIC memory or node RAM still held by a process of this soak's runs
for p in $pids; do [ -d /proc/$p ] && memfds=$((memfds + $(ls -l /proc/$p/fd 2>/dev/null | grep -c "memfd:wormsim-\(nic\|ram\)" || true))); done
shm_new=$(comm -13 <(echo "$shm0") <(ls /dev/shm | sort) | grep -v '^wormsim-fuzz' | grep -c . || true)
echo "soak: $runs runs in $((SECONDS - t0)) s on $JOBS jobs; by case:"
awk '{split($2, a, ":"); n[a[1]]++; if ($3 == $4 && $6 == "yes") ok[a[1]]++} END { for (c in n) printf "  %-9s %4d runs, %4d ended as expected\n", c, n[c], ok[c] }' "$TMP/all" | sort
echo "soak: left behind: $qemus QEMU processes, $socks router sockets, $memfds NIC memfds, $shm_new /dev/shm files"
if [ -n "$wrong" ]; then
  echo "soak: runs that did not end as their case says (run case rc expected pid error-matched):"; echo "$wrong" | head -20
  cat "$TMP"/res/*.why 2>/dev/null | head -20
fi
[ "$runs" = "$N" ] && [ -z "$wrong" ] && [ $qemus = 0 ] && [ $socks = 0 ] && [ "$memfds" = 0 ] && [ "$shm_new" = 0 ]
