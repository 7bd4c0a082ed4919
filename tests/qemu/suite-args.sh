# ARGS against the keys each app declares (apps/apps.def, and per
# operation apps/coll/algos.def), sourced by tests/qemu/run.sh. A word the
# app does not take is refused by the run tool with exit 2, a message
# naming what is accepted, and no run started (bad_input); the accepted
# forms of each family still reach the nodes and run.

args_pingpong_not_a_node() { bad_input --app pingpong --nodes 4 --args 'a=99' -- \
                               "^wormsim: app pingpong: a=99 is not a node; accepted: a=0\.\.3$"; }
args_pingpong_len_nan()    { bad_input --app pingpong --nodes 4 --args 'len=abc' -- \
                               "^wormsim: app pingpong: len=abc is not a whole number; accepted: a length in bytes, such as len=1024$"; }
args_pingpong_same_node()  { bad_input --app pingpong --nodes 4 --args 'a=2 b=2' -- \
                               "app pingpong: a=2 and b=2 are the same node; accepted: two different nodes"; }
args_pingpong_len_max()    { bad_input --app pingpong --nodes 4 --args 'len=262145' -- \
                               "app pingpong: len=262145 is not a message length from 1 to 262144 bytes"; }
args_octal()               { bad_input --app pingpong --nodes 4 --args 'len=010' -- \
                               "len=010 is not a whole number \(decimal without a leading 0, or hexadecimal after 0x\)"; }
args_crash_kind()          { bad_input --app crash --nodes 4 --args 'kind=xyz' -- \
                               "app crash: kind=xyz is not known; accepted: dabort store undef pabort panic semihost"; }
args_crash_kind_prefix()   { bad_input --app crash --nodes 4 --args 'node=1 kind=dabortx' -- "app crash: kind=dabortx is not known"; }
args_hang_how()            { bad_input --app hang --nodes 4 --args 'how=xyz' -- \
                               "app hang: how=xyz is not known; accepted: spin doorbell exit"; }
args_baddesc_what()        { bad_input --app baddesc --nodes 4 --args 'what=xyz' -- \
                               "app baddesc: what=xyz is not known; accepted: dst len op off ring step steps time backwards flood record"; }
args_unknown_and_bogus()   { bad_input --app alltoall_pex --dims 4x4 --args 'lenn=16 bogus' -- \
                               "^wormsim: app alltoall_pex: unknown key 'lenn'; accepted keys: len, sync, runs, oneshot, corrupt$"; }
args_not_key_value()       { bad_input --app alltoall_pex --dims 4x4 --args 'len=16 bogus' -- \
                               "app alltoall_pex: 'bogus' is not a key=value word; accepted keys: len, sync, runs, oneshot, corrupt"; }
args_given_twice()         { bad_input --app bcast_rd --topo mesh --dims 4x4 --args 'root=1 len=64 root=2' -- \
                               "app bcast_rd: root is given twice \(root=1 and root=2\); give it once"; }
args_coll_unknown_key()    { bad_input --app reduce_rd --topo mesh --dims 3x2 --args 'len=64 segs=2' -- \
                               "app reduce_rd: unknown key 'segs'; accepted keys: len, root, op, type, sync, runs, oneshot, corrupt"; }
args_coll_corrupt_range()  { bad_input --app alltoall_gen --dims 4x4 --args 'len=64 corrupt=16' -- \
                               "app alltoall_gen: corrupt=16 is not a node; accepted: corrupt=0\.\.15"; }
args_barrier_len()         { bad_input --app barrier_tree --dims 4x4 --args 'len=64' -- \
                               "app barrier_tree: len=64 is not a barrier's length \(it moves no data\); accepted: len=0"; }
args_mcast_two_sets()      { bad_input --app mcast_umesh --topo mesh --dims 4x4 --args 'set=1,2 m=3' -- \
                               "app mcast_umesh: set= and m= seed= both choose the multicast set"; }
args_hello_takes_none()    { bad_input --app hello --nodes 4 --args 'x=1' -- "app hello: unknown key 'x'; accepted keys: none"; }
args_netapi_takes_none() { bad_input --app netapi --nodes 4 --args 'node=1' -- "app netapi: unknown key 'node'; accepted keys: none"; }

# --list-apps prints each app's keys from the same declaration.
args_list_apps() {
  ws --list-apps > "$TMP/l" 2>&1; expect '[ $? = 0 ]'
  expect 'grep -q "^  pingpong .*(ARGS: a=<node> \[0\], b=<node> \[p-1\], len=<bytes> \[256\], iters=1\.\.1000000 \[4\])$" "$TMP/l"' \
         "$(grep pingpong "$TMP/l")"
  expect 'grep -q "^  crash .*kind=dabort|store|undef|pabort|panic|semihost|scribble|mark|forge|taint|peek|fakefault|reset|off \[dabort\], addr=0\.\.2147483647 \[16\])$" "$TMP/l"' \
         "$(grep crash "$TMP/l")"
  expect 'grep -q "^  hello  *every node prints its rank and coordinates$" "$TMP/l"'
  expect '[ "$(grep -c "^  alltoall_.*(ARGS: len=<bytes> \[1024\], sync=0\.\.1 \[1\], runs=1\.\.10000 \[1\], oneshot=0\.\.1 \[0\], corrupt=<node>)$" "$TMP/l")" = "$(grep -c "^COLL_ALGO(alltoall," apps/coll/algos.def)" ]'
}

# Accepted: every family's words reach the nodes, hexadecimal included.
args_ok_pingpong() {
  ws --app pingpong --nodes 4 --args 'a=1 b=0x2 len=0x40 iters=2' > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  ok_run
  expect 'grep -q "pingpong 1 <-> 2: 2 x 64 bytes" "$(latest)/node-001.log"' "$(cat "$(latest)/node-001.log")"
  expect '[ "$(summary .messages)" = 4 ] && [ "$(summary .bytes)" = 256 ]'
}
args_ok_collectives() {
  coll_ok --app alltoall_gen --topo mesh --dims 3x2 --args 'len=0x20 sync=0 oneshot=1 runs=2'
  expect '[ "$(summary .bytes)" = $((2 * 6 * 5 * 32)) ]'
  coll_ok --app mcast_umesh --topo mesh --dims 4x4 --args 'len=100 root=3 m=5 seed=9'
  coll_ok --app bcast_rd --topo mesh --dims 4x4 --args 'len=256 root=5 set=all'
  coll_ok --app allreduce_ring --topo mesh --dims 3x2 --args 'len=48 segs=6 op=max type=long'
  coll_ok --app barrier_dissemination --topo mesh --dims 3x2 --args 'len=0 late=2 delay=1000'
}
args_ok_crash() {
  ws --app crash --nodes 4 --args 'node=1 kind=store addr=0x20' > "$TMP/f" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/f")"
  expect '[ "$(summary .fault.node)" = 1 ] && [ "$(summary .fault.kind)" = "data abort" ]' "$(summary .fault)"
  expect '[ "$(summary .fault.addr)" = 32 ]' "$(summary .fault)"
}
args_ok_baddesc() {
  ws --app baddesc --nodes 4 --args 'what=op node=3' > "$TMP/x" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc: $(cat "$TMP/x")"
  expect 'summary .error | grep -Eq "^node 3: descriptor [0-9]+ has unknown operation 153"' "$(summary .error)"
}
args_ok_hang() {
  ws --app hang --nodes 4 --args 'how=spin node=2' --hang-timeout 2 > "$TMP/h" 2>&1; local rc=$?
  expect '[ $rc = 1 ]' "exit $rc"
  expect 'grep -q "node 2 is running" "$TMP/h"' "$(cat "$TMP/h")"
  expect 'grep -q "node 0 waits in RECV(src=2, tag=0)" "$TMP/h"'
}

# A comma between keys reads as one value; the refusal says how ARGS
# separates its keys (it said only that "1024,iters=3" is not a number).
args_commas_between_keys() { bad_input --app pingpong --nodes 4 --args 'len=1024,iters=3' -- \
                               "len=1024,iters=3 is not a whole number; .* \(ARGS separates its keys by spaces: ARGS='len=1024 iters=3'\)$"
                             bad_input --app pingpong --nodes 4 --args 'len=1024, iters=3' -- \
                               "\(ARGS separates its keys by spaces: ARGS='len=1024 iters=3'\)$"; }

# The default --timeout grows with the messages ARGS ask for: pingpong
# iters=1000000 was cut at the 62 s of a 4-node run. The extra wall time
# of 10,000 iterations over 2, times 100, must fit in the extra limit of
# 1,000,000 over 2 (--check prints the limits).
args_limits_cover_the_messages() {
  local k=(--kernel "$KERNEL" --runs-dir "$RUNS" --app pingpong --nodes 4)
  lim() { "$WORMSIM" "${k[@]}" --check --args "iters=$1" 2>&1 | sed -n 's/.*limits \([0-9]*\) s in all.*/\1/p'; }
  wall() { "$WORMSIM" "${k[@]}" --output none --args "iters=$1" > "$TMP/w" 2>&1 || return 1; summary .wall_s; }
  local small big ws wb
  small=$(lim 2); big=$(lim 1000000); ws=$(wall 2); wb=$(wall 10000)
  expect '[ -n "$small" ] && [ -n "$big" ] && [ -n "$ws" ] && [ -n "$wb" ]' "limits '$small' '$big', walls '$ws' '$wb': $(cat "$TMP/w")"
  expect 'awk -v s="$small" -v b="$big" -v ws="$ws" -v wb="$wb" "BEGIN { exit !(b - s >= 100 * (wb - ws)) }"' \
         "limit $small s at iters=2 and $big s at 1000000; the runs took $ws s and $wb s at 2 and 10000"
  # the control network's broadcast: len= counts its operations (8 bytes each)
  k=(--kernel "$KERNEL" --runs-dir "$RUNS" --app bcast_hw --nodes 4)
  lim() { "$WORMSIM" "${k[@]}" --check --args "len=$1" 2>&1 | sed -n 's/.*limits \([0-9]*\) s in all.*/\1/p'; }
  wall() { "$WORMSIM" "${k[@]}" --output none --args "len=$1" > "$TMP/w" 2>&1 || return 1; summary .wall_s; }
  small=$(lim 8); big=$(lim 1048576); ws=$(wall 8); wb=$(wall 65536)
  expect '[ -n "$small" ] && [ -n "$big" ] && [ -n "$ws" ] && [ -n "$wb" ]' "limits '$small' '$big', walls '$ws' '$wb': $(cat "$TMP/w")"
  expect 'awk -v s="$small" -v b="$big" -v ws="$ws" -v wb="$wb" "BEGIN { exit !(b - s >= 16 * (wb - ws)) }"' \
         "bcast_hw: limit $small s at len=8 and $big s at 1048576; the runs took $ws s and $wb s at 8 and 65536"
}

for a in args_pingpong_not_a_node args_pingpong_len_nan args_pingpong_same_node args_pingpong_len_max args_octal \
         args_crash_kind args_crash_kind_prefix args_hang_how args_baddesc_what args_unknown_and_bogus \
         args_not_key_value args_given_twice args_coll_unknown_key args_coll_corrupt_range args_barrier_len \
         args_mcast_two_sets args_hello_takes_none args_netapi_takes_none args_list_apps \
         args_ok_pingpong args_ok_collectives args_ok_crash args_ok_baddesc args_ok_hang \
         args_commas_between_keys args_limits_cover_the_messages; do t $a $a; done
