# The files of a run are what docs/files.md says, key by key and column by
# column (tests/qemu/files_doc.py), sourced by tests/qemu/run.sh: runs of
# every kind the page's "when" column names (a collective traced, with
# rendezvous; an indirect network; a fault; a deadlock traced; one in
# PROBE_ANY; fetchinc; a
# check that finds wrong bytes) and netsim --json of each kind.
run_files_are_documented() {
  local d=() n
  files_run() {   # options of one run: it makes a run directory, whatever its outcome
    n=$(readlink "$RUNS/latest"); ws "$@" > "$TMP/o" 2>&1
    expect '[ "$(readlink "$RUNS/latest")" != "$n" ]' "no run directory: $*: $(cat "$TMP/o")"
    d+=("$(latest)")
  }
  files_run --app alltoall_pex --topo mesh --dims 2x2 --args len=512 --set eager_max=256 --trace
  files_run --app alltoall_gen --topo banyan --nodes 4 --args len=64
  files_run --app crash --topo mesh --dims 2x2 --args node=1
  files_run --app deadlock --topo mesh --dims 2x2 --trace
  files_run --app deadlock --topo mesh --dims 2x2 --args wait=probe_any
  files_run --app fetchinc --topo mesh --dims 2x2 --args items=16
  files_run --app alltoall_pex --topo mesh --dims 2x2 --args 'len=64 corrupt=1'
  "$NETSIM" --dims 4x4 --pattern uniform --sweep 0.1:0.2:0.1 --cycles 2000 --json > "$TMP/traffic.json"
  "$NETSIM" --topo mesh --dims 2x2 --burst 2 --json > "$TMP/burst.json"
  "$NETSIM" --replay "${d[1]}" --json > "$TMP/replay.json"
  python3 tests/qemu/files_doc.py docs/files.md docs/network.md --exempt placement \
    --netsim traffic="$TMP/traffic.json" --netsim burst="$TMP/burst.json" --netsim replay="$TMP/replay.json" \
    "${d[@]}" > "$TMP/problems"
  expect '[ $? = 0 ]' "docs/files.md differs from the runs: $(head -30 "$TMP/problems")"
}
t run_files_are_documented run_files_are_documented
