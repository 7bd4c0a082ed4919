#!/usr/bin/env bash
# Host tools without QEMU: netsim (the interconnect on synthetic traffic).
set -u
cd "$(dirname "$0")/../.."
NETSIM=${NETSIM:-build/host/netsim}
TMP=$(mktemp -d /tmp/wormsim-host.XXXXXX); trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0; failed=()
expect() { if ! eval "$1"; then echo "    expected: $1" >&2; [ $# -gt 1 ] && echo "    $2" >&2; exit 1; fi; }
t() {
  local name=$1; shift
  if ( "$@" ) > "$TMP/out" 2>&1; then pass=$((pass + 1)); echo "  ok    $name"
  else fail=$((fail + 1)); failed+=("$name"); echo "  FAIL  $name"; sed 's/^/      | /' "$TMP/out" | tail -20; fi
}
ns() { "$NETSIM" --json "$@"; }
field() { jq -r "$1" "$TMP/j"; }

# At a light load almost nothing contends: the mean latency of uniform
# traffic on an 8x8 torus is close to the uncontended one, which is
# (mean hops x hop + flits) cycles: 4 hops on average (0..4 per dimension,
# mean 2 each, with 1/63 weight for self excluded) and 8 flits.
low_load_latency_is_near_uncontended() {
  ns --dims 8x8 --rate 0.01 --cycles 20000 > "$TMP/j"; expect '[ $? = 0 ]'
  expect 'awk "BEGIN { exit !($(field .mean_latency) > 11.5 && $(field .mean_latency) < 13.5) }"' "mean $(field .mean_latency)"
  expect 'awk "BEGIN { exit !($(field .accepted) > 0.008 && $(field .accepted) < 0.012) }"'
}
accepted_follows_offered_until_saturation() {
  ns --dims 8x8 --rate 0.1 --cycles 5000 > "$TMP/j"
  expect 'awk "BEGIN { exit !($(field .accepted) > 0.09) }"'
  expect '[ "$(field .saturated)" = false ]'
  ns --dims 8x8 --rate 0.9 --cycles 3000 --warmup 500 > "$TMP/j"
  expect 'awk "BEGIN { exit !($(field .accepted) < 0.6) }"' "accepted $(field .accepted) at 0.9 offered"
}
same_seed_same_result() {
  ns --dims 4x4 --rate 0.3 --pattern hotspot --seed 7 | jq -c 'del(.wall_s, .flit_hops_per_s, .router_cycles_per_s)' > "$TMP/a"
  ns --dims 4x4 --rate 0.3 --pattern hotspot --seed 7 | jq -c 'del(.wall_s, .flit_hops_per_s, .router_cycles_per_s)' > "$TMP/b"
  ns --dims 4x4 --rate 0.3 --pattern hotspot --seed 8 | jq -c 'del(.wall_s, .flit_hops_per_s, .router_cycles_per_s)' > "$TMP/c"
  expect 'cmp -s "$TMP/a" "$TMP/b"'
  expect '! cmp -s "$TMP/a" "$TMP/c"'
}
every_pattern_runs() {
  for p in uniform transpose bitcomp bitrev tornado hotspot neighbor; do
    ns --dims 4x4 --pattern $p --rate 0.1 --cycles 2000 > "$TMP/j"; expect '[ $? = 0 ]' "$p"
    expect '[ "$(field .packets)" -gt 0 ]' "$p"
  done
  # bit complement on 16 nodes sends (x, y) to (3 - x, 3 - y): on a 4x4
  # torus one hop per dimension either way round, so 2 hops + 8 flits = 10;
  # on a 4x4 mesh x moves |3 - 2x| (3 or 1) and y too: the median is 4 + 8
  ns --dims 4x4 --pattern bitcomp --rate 0.01 --cycles 4000 > "$TMP/j"
  expect '[ "$(field .p50_latency)" = 10 ]' "p50 $(field .p50_latency)"
  ns --topo mesh --dims 4x4 --pattern bitcomp --rate 0.01 --cycles 4000 > "$TMP/j"
  expect '[ "$(field .p50_latency)" = 12 ]' "p50 $(field .p50_latency) max $(field .max_latency)"
}
sweep_prints_a_curve() {
  "$NETSIM" --dims 4x4 --sweep 0.05:0.25:0.1 --cycles 1000 > "$TMP/s"; expect '[ $? = 0 ]'
  expect '[ "$(grep -c "^ *0\.[0-9]" "$TMP/s")" = 3 ]' "$(cat "$TMP/s")"
}
bad_input() {
  "$NETSIM" --pattern zigzag > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "unknown pattern .zigzag.; accepted: uniform, transpose, bitcomp" "$TMP/e"'
  "$NETSIM" --rate 1.5 > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "rate .1.5. is not a number from 0 to 1" "$TMP/e"'
  "$NETSIM" --dims 3x3 --pattern bitrev > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "needs a power-of-two node count" "$TMP/e"'
  "$NETSIM" --sweep 0.5:0.1:0.1 > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  "$NETSIM" --set vcs=1 > "$TMP/e" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "at least 2 virtual channels" "$TMP/e"'
}

echo "host tool tests"
for x in low_load_latency_is_near_uncontended accepted_follows_offered_until_saturation same_seed_same_result \
         every_pattern_runs sweep_prints_a_curve bad_input; do t $x $x; done
echo "host: $pass passed, $fail failed"
[ $fail = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
