#!/usr/bin/env bash
# make gdb NODE=k [RUN=dir]: attach gdb-multiarch to node k of a run started
# with GDB=k. Extra arguments go to gdb (the tests use -batch -ex ...).
set -u
given=${1:-}; run=${1:-${RUNS_DIR:-runs}/latest}; node=${2:-}; elf=${3:-build/arm/node.elf}; shift 3 2>/dev/null || shift $#
info="$run/gdb"
if [ -n "$given" ] && [ ! -d "$run" ]; then
  echo "make gdb: no run directory '$run' (RUN= a run directory; default: the latest under ${RUNS_DIR:-runs}/)" >&2
  exit 2
fi
# live: the run has its gdbstub up (its gdb file, written whole by a
# rename) and has not ended (no summary.json yet).
live() { [ -f "$info" ] && [ ! -f "$run/summary.json" ]; }
# A run started a moment ago (make run ... GDB=k &, then make gdb NODE=k)
# may not have its gdbstub yet, and runs/latest may still name the run
# before it: with no RUN given, wait up to 20 s for a live one, and say so.
if [ -z "$given" ] && ! live; then
  echo "make gdb: no run under ${RUNS_DIR:-runs}/ has its gdbstub up yet; waiting up to 20 s for one (make run ... GDB=<node>)" >&2
  for _ in $(seq 200); do
    live && break
    sleep 0.1
  done
fi
if [ ! -e "$run" ]; then
  echo "make gdb: no run under ${RUNS_DIR:-runs}/ ($run does not exist); start one with: make run ... GDB=<node>" >&2
  exit 2
fi
if [ ! -f "$info" ]; then
  echo "make gdb: $run was not started with a gdbstub; start one with: make run ... GDB=<node>" >&2
  exit 2
fi
gnode=$(awk '$1=="node"{print $2}' "$info"); port=$(awk '$1=="port"{print $2}' "$info")
kernel=$(awk '$1=="kernel"{print $2}' "$info")
# An ended run first: its stub is gone, whichever node was asked for.
if [ -f "$run/summary.json" ]; then
  echo "make gdb: the run in $run has ended (its summary.json is written): its gdbstub is gone; start one with: make run ... GDB=${node:-$gnode}" >&2
  exit 2
fi
if [ -n "$node" ] && [ "$node" != "$gnode" ]; then
  echo "make gdb: node $node has no gdbstub in $run; node $gnode has (make gdb NODE=$gnode)" >&2
  exit 2
fi
command -v gdb-multiarch >/dev/null || { echo "make gdb: gdb-multiarch is missing; install it with: sudo apt-get install gdb-multiarch" >&2; exit 1; }
[ -f "$kernel" ] || kernel=$elf
# A node of another host (wormsim-mpi): its gdbstub listens on that host's loopback.
ghost=$(awk '$1=="host"{print $2}' "$info")
if [ -n "$ghost" ] && [ "$ghost" != "$(hostname)" ]; then
  echo "make gdb: node $gnode runs on host $ghost; forward its gdbstub first: ssh -N -L $port:127.0.0.1:$port $ghost &" >&2
fi
# A call of the node's code from gdb (print net_rank(), call f()) runs that
# code on the node: its instructions count in the node's simulated clock
# (icount), so the run's figures would differ from those of the run
# without gdb. Calls are off; the user may turn them on knowingly.
echo "make gdb: gdb may not call the node's functions (print f()): they would run on the node and move its simulated clock; 'set may-call-functions on' allows it" >&2
exec gdb-multiarch -q "$kernel" -ex 'set may-call-functions off' -ex "target remote 127.0.0.1:$port" "$@"
