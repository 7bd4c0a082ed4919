# What a run says on the console and keeps for its replay (host/out/replay.h),
# sourced by tests/qemu/run.sh: the nodes' output after the summary, the
# files named, the command and build in the run directory, and
# wormsim --replay saying whether the figures match.

# The console shows node 0's output, or every node's, or none.
console_shows_the_nodes_output() {
  ws --app hello --topo mesh --dims 2x2 > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  expect 'grep -q "^  output of node 0:$" "$TMP/o"' "$(cat "$TMP/o")"
  expect 'grep -q "^    hello from node 0 of 4, mesh, coordinates (0,0)$" "$TMP/o"' "$(cat "$TMP/o")"
  expect '! grep -q "hello from node 1" "$TMP/o"'
  expect 'grep -q "^  results .*: summary.json, command, params.conf, .*node-\*.log$" "$TMP/o"' "$(grep results "$TMP/o")"
  ws --app hello --topo mesh --dims 2x2 --output all --trace > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  for i in 0 1 2 3; do expect "grep -q '^      $i| hello from node $i of 4' '$TMP/o'" "$(cat "$TMP/o")"; done
  expect 'grep -q "trace.json (open it in ui.perfetto.dev)$" "$TMP/o"' "$(grep results "$TMP/o")"
  ws --app hello --topo mesh --dims 2x2 --output none > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  expect '! grep -q "hello from" "$TMP/o"'
  ws --app hello --topo mesh --dims 2x2 --output every > "$TMP/o" 2>&1; expect '[ $? = 2 ]'
  expect 'grep -q "^wormsim: --output .every.: accepted: node0, all, none$" "$TMP/o"' "$(cat "$TMP/o")"
}

# The run directory holds its command, the build's commit and the images'
# hashes; --replay runs it again, cold, and every figure matches.
replay_matches_the_run() {
  ws --app alltoall_pex --topo mesh --dims 4x4 --args len=256 > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  local d; d=$(latest)
  expect '[ -s "$d/command" ]'
  expect '[ "$(summary ".invocation.images.arm.sha256")" = "$(sha256sum "$KERNEL" | cut -d" " -f1)" ]' "$(summary .invocation)"
  expect '[ "$(summary ".invocation.argv | index(\"--app\")")" != null ] && [ "$(summary ".invocation.cwd")" = "$PWD" ]'
  if git rev-parse HEAD >/dev/null 2>&1; then
    expect '[ "$(summary .invocation.commit)" = "$(git rev-parse HEAD)" ]' "$(summary .invocation.commit)"
  fi
  local n0; n0=$(ndirs)
  "$WORMSIM" --replay "$d" > "$TMP/r" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/r")"
  expect 'grep -q "^replay: every figure matches" "$TMP/r"' "$(cat "$TMP/r")"
  expect '[ $(ndirs) = $((n0 + 1)) ]'
  same_results "$d" "$(latest)"
  # make replay, on the latest run by default
  make -s replay RUNS_DIR="$RUNS" > "$TMP/r" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(tail -5 "$TMP/r")"
  expect 'grep -q "^replay: every figure matches" "$TMP/r"' "$(cat "$TMP/r")"
  # the command file, run by a shell, makes the same run
  bash "$d/command" > "$TMP/c" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/c")"
  same_results "$d" "$(latest)"
}

# A replay whose figures differ says which, and exits 1.
replay_names_what_differs() {
  ws --app alltoall_pex --topo mesh --dims 4x4 --args len=256 > /dev/null 2>&1; expect '[ $? = 0 ]'
  local d="$TMP/changed"; cp -r "$(latest)" "$d"
  sed -i 's/"sim_time_ns": \([0-9]*\)/"sim_time_ns": 1\1/' "$d/summary.json"
  sed -i '3s/,[0-9]*$/,999999/' "$d/links.csv"
  "$WORMSIM" --replay "$d" > "$TMP/r" 2>&1; rc=$?; expect "[ $rc = 1 ]" "rc $rc: $(cat "$TMP/r")"
  expect 'grep -q "^  summary.json sim_time_ns: 1[0-9]* then, [0-9]* now$" "$TMP/r"' "$(cat "$TMP/r")"
  expect 'grep -q "^  links.csv: differs from line 3$" "$TMP/r"' "$(cat "$TMP/r")"
  expect 'grep -q "^replay: the figures differ" "$TMP/r"'
}

# A run directory is the user's to edit: what --replay prints of its
# summary.json (keys, image names, hashes) reaches the terminal without a
# control byte.
replay_shows_no_control_bytes() {
  ws --app hello --topo mesh --dims 2x2 > /dev/null 2>&1; rc=$?; expect '[ $rc = 0 ]'
  local d="$TMP/hostile"; cp -r "$(latest)" "$d"
  jq '. + {"\u001b]0;title\u0007": 1} | .invocation.images += {"x\u001b[2J": {"path": "/nonexistent", "sha256": "\u001b[31m"}}' \
     "$(latest)/summary.json" > "$d/summary.json"
  "$WORMSIM" --replay "$d" > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 1 ]' "rc $rc: $(cat "$TMP/r")"
  expect 'grep -q "summary.json ?\]0;title?: absent now\|summary.json ?\]0;title?: 1 then" "$TMP/r"' "$(cat -v "$TMP/r")"
  expect '! grep -q "$(printf "\033")" "$TMP/r"' "$(cat -v "$TMP/r")"
}

# make heatmap puts a run's app and args in the plot's title: text from a
# file the user may edit, which must stay text for gnuplot.
heatmap_keeps_a_run_dirs_text_as_text() {
  ws --app alltoall_pex --topo mesh --dims 2x2 --args len=64 > /dev/null 2>&1; rc=$?; expect '[ $rc = 0 ]'
  local d="$TMP/hm"; cp -r "$(latest)" "$d"
  jq --arg t "$TMP" '.app = "a\"; system \"touch \($t)/pwn1\"; #`touch \($t)/pwn2`" | .args = "x\u0027; system \"touch \($t)/pwn3\"\n#"' \
     "$(latest)/summary.json" > "$d/summary.json"
  experiments/heatmap.sh "$d" "$TMP/hm.png" > "$TMP/h" 2>&1; rc=$?
  expect '[ $rc = 0 ] && [ -s "$TMP/hm.png" ]' "rc $rc: $(cat "$TMP/h")"
  expect '[ ! -e "$TMP/pwn1" ] && [ ! -e "$TMP/pwn2" ] && [ ! -e "$TMP/pwn3" ]' "$(ls "$TMP")"
}

# refused PATTERN COMMAND...: the command exits 2 and says PATTERN (grep).
refused() {
  local pat=$1 rc; shift
  "$@" > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 2 ]' "rc $rc: $(cat "$TMP/r")"
  expect 'grep -q -- "$pat" "$TMP/r"' "$(cat "$TMP/r")"
}

# What --replay refuses, before any node starts.
replay_refuses_what_is_not_a_run() {
  local n0; n0=$(ndirs)
  refused '^wormsim: --replay: no run directory' "$WORMSIM" --replay "$TMP/nothing"
  mkdir -p "$TMP/old"; echo '{"ok": true}' > "$TMP/old/summary.json"
  refused 'has no "invocation": its run predates recorded commands' "$WORMSIM" --replay "$TMP/old"
  echo '{"invocation": {"argv": ["--app"], "cwd": "relative"}}' > "$TMP/old/summary.json"
  refused '"cwd", an absolute path' "$WORMSIM" --replay "$TMP/old"
  echo '{"invocation": {"argv": null, "cwd": null, "not_replayable": "option 6 is not UTF-8 text"}}' > "$TMP/old/summary.json"
  refused 'cannot be replayed: option 6 is not UTF-8 text' "$WORMSIM" --replay "$TMP/old"
  echo '{"invocation": {"argv": ["--app", 7], "cwd": "/"}}' > "$TMP/old/summary.json"
  refused 'argv\[1\] is not a string' "$WORMSIM" --replay "$TMP/old"
  refused '^wormsim: --replay takes no other option' "$WORMSIM" --replay "$TMP/old" --app hello
  expect '[ $(ndirs) = $n0 ]'
}

# netsim --replay hands a run's recorded messages to the network alone
# (host/out/msg_replay.h): on the run's machine and parameters every
# message crosses it at its recorded times and every link counts what
# links.csv holds (jumping or stepping every cycle alike); with --set it
# is a what-if and says how many kept them; a changed time or link
# counter is named with exit 1; a directory that is not a run's, or
# options that shape other traffic, exit 2 with the reason.
netsim_replays_a_runs_messages() {
  local NETSIM=${NETSIM:-build/host/netsim}
  ws --app alltoall_pex --topo mesh --dims 4x4 --preset delta --args len=1024 > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  local d; d=$(latest)
  "$NETSIM" --replay "$d" --json > "$TMP/r" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/r")"
  local n; n=$(jq .messages "$TMP/r")
  expect '[ "$n" -ge 240 ] && [ "$(jq .as_recorded "$TMP/r")" = "$n" ]' "$(cat "$TMP/r")"
  expect '[ "$n" = $(($(wc -l < "$d/messages.csv") - 1)) ]'
  echo "info: $n messages replayed at their recorded times"
  "$NETSIM" --replay "$d" --no-jump --json > "$TMP/r2" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/r2")"
  expect '[ "$(jq -r .digest "$TMP/r2")" = "$(jq -r .digest "$TMP/r")" ]'
  "$NETSIM" --replay "$d" --set vcs=1 --json > "$TMP/w" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/w")"
  expect '[ "$(jq .as_recorded "$TMP/w")" -lt "$n" ]' "$(cat "$TMP/w")"
  make -s net-replay RUNS_DIR="$RUNS" NET='vcs=1' > "$TMP/m" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/m")"
  expect '[ "$(awk "NR == 2 { print \$2 }" "$TMP/m")" = "$(jq .as_recorded "$TMP/w")" ]' "$(cat "$TMP/m")"
  # a node's parameter would change nothing: the messages enter at their recorded times
  refused "^netsim: --replay --set t_send_ns: a replay hands the network each message at its recorded time, so only the network's parameters change it; accepted: flit_bytes .* port_model$" \
    "$NETSIM" --replay "$d" --set 'vcs=4 t_send_ns=1'
  refused "^netsim: --replay --set cpu_ps: " make -s net-replay RUNS_DIR="$RUNS" NET='cpu_ps=1'
  "$NETSIM" --replay "$d" --set "t_send_ns=$(sed -n 's/^t_send_ns *= *\([0-9]*\).*/\1/p' "$d/params.conf")" > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "the run's own value: rc $rc: $(cat "$TMP/r")"
  local c="$TMP/chg"; cp -r "$d" "$c"
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "t_arrive_ns") k = i } NR == 5 { $k = $k + 1 } 1' \
      "$d/messages.csv" > "$c/messages.csv"
  "$NETSIM" --replay "$c" > "$TMP/r" 2>&1; rc=$?; expect '[ $rc = 1 ]' "rc $rc: $(cat "$TMP/r")"
  expect 'grep -q "^netsim: 1 of the $n messages of .* crossed the network at other times than in the run; the first, line 5 " "$TMP/r"' "$(cat "$TMP/r")"
  cp "$d/messages.csv" "$c/messages.csv"; sed -i '3s/,[0-9]*$/,999999/' "$c/links.csv"
  "$NETSIM" --replay "$c" > "$TMP/r" 2>&1; rc=$?; expect '[ $rc = 1 ]' "rc $rc: $(cat "$TMP/r")"
  expect 'grep -q "^netsim: the links the replay.s network counted differ from .*/links.csv from line 3$" "$TMP/r"' "$(cat "$TMP/r")"
  refused '^netsim: --replay takes the run.s machine, parameters and messages; --topo does not go with it' "$NETSIM" --replay "$d" -t torus
  refused '^netsim: --replay needs a run directory' "$NETSIM" --replay ""
  cp "$d/messages.csv" "$c/messages.csv"; sed -i 's/,1024,/,x,/' "$c/messages.csv"
  refused 'messages.csv line [0-9]*: len .x. is not a whole number of 0 or more$' "$NETSIM" --replay "$c"
  rm "$c/messages.csv"
  refused "is not a run directory .*: it has no messages.csv$" "$NETSIM" --replay "$c"
  cp "$d/messages.csv" "$c/messages.csv"
  echo '{"topology": "mesh"}' > "$c/summary.json"
  refused 'summary.json names no "topology" and "dims"' "$NETSIM" --replay "$c"
  echo 'vcs = many' > "$c/params.conf"
  refused '^netsim: --replay .*params.conf.*vcs' "$NETSIM" --replay "$c"
  # a flood in the NICs: the relays the NICs made (no start-up) and each
  # node's own worms (posted t_send_ns before they could enter) alike
  ws --app allgather_flood_nic --topo torus --dims 5x5 --port-model all-port --args len=100 > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  "$NETSIM" --replay "$(latest)" --json > "$TMP/r" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/r")"
  n=$(jq .messages "$TMP/r")
  expect '[ "$n" = 600 ] && [ "$(jq .as_recorded "$TMP/r")" = 600 ]' "$(cat "$TMP/r")"
  expect '[ "$(csv_col "$(latest)/messages.csv" kind | sort -u)" = flood ]'
  expect '[ "$(csv_col "$d/messages.csv" kind | sort -u)" = data ]'
  # what does not replay is refused before it runs: a multidestination
  # worm's copies, fetch-and-increment packets and rendezvous requests and
  # clears (not in messages.csv)
  ws --app mcast_dualpath --topo mesh --dims 4x4 --args len=64 > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  expect '[ "$(csv_col "$(latest)/messages.csv" kind | sort -u | tr "\n" " ")" = "data mdw " ]'
  refused 'messages.csv line [0-9]*: a copy of a multidestination worm .kind mdw.: the replay sends unicast worms' \
    "$NETSIM" --replay "$(latest)"
  ws --app fetchinc --nodes 4 --args mode=hw > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  expect '[ "$(summary .fetch_inc_packets)" -gt 0 ]'
  refused 'the run sent [0-9]* fetch-and-increment packets .summary.json., which messages.csv does not hold' \
    "$NETSIM" --replay "$(latest)"
  ws --app alltoall_pex --dims 2x2 --args len=200 --set eager_max=100 > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  expect '[ "$(summary .rendezvous_packets)" = 24 ]' "$(summary .rendezvous_packets)"
  refused 'the run sent 24 rendezvous requests and clears .summary.json, eager_max = 100., which messages.csv does not hold' \
    "$NETSIM" --replay "$(latest)"
  # a failed run replays what it recorded, and the replay says the run failed
  ws --app crash --nodes 4 --args 'node=2 kind=panic' > "$TMP/o" 2>&1; rc=$?
  expect '[ $rc = 1 ]' "rc $rc: $(cat "$TMP/o")"
  "$NETSIM" --replay "$(latest)" > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/r")"
  expect 'grep -q "^netsim: --replay .*: the run failed (node 2: .*); its messages.csv holds what it sent before it ended, and only that replays$" "$TMP/r"' "$(cat "$TMP/r")"
  "$NETSIM" --replay "$d" > "$TMP/r" 2>&1
  expect '! grep -q "the run failed" "$TMP/r"' "$(cat "$TMP/r")"
}

# A run made with a node under gdb replays unattended: no figure depends
# on gdb, so the replay leaves --gdb out (in any of its forms), says so,
# compares, and records the command that ran. (The run's argv gets the
# option by sed: a JSON tool would rewrite the summary's numbers, 0.0 as 0.)
replay_of_a_gdb_run_runs_unattended() {
  ws --app alltoall_gen --topo mesh --dims 2x2 --args len=64 > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "rc $rc: $(cat "$TMP/o")"
  local d; d=$(latest)
  local argv; argv=$(jq -c .invocation.argv "$d/summary.json")
  cp "$d/summary.json" "$TMP/s0"
  local form
  for form in '"--gdb", "1",' '"-g3",' '"--gdb=2",'; do
    sed "s/^\( *\"argv\": \[\)\$/\1 $form/" "$TMP/s0" > "$d/summary.json"
    expect '[ "$(jq -c .invocation.argv "$d/summary.json")" != "$argv" ]' "$(grep -A2 argv "$d/summary.json")"
    timeout 60 "$WORMSIM" --replay "$d" > "$TMP/r" 2>&1; rc=$?
    expect '[ $rc = 0 ] && grep -q "^replay: every figure matches" "$TMP/r"' "$form: rc $rc: $(grep -v "^  " "$TMP/r")"
    expect 'grep -q "^replay: the run had node [0-9] under gdb (--gdb); the replay runs it unattended" "$TMP/r"' "$(cat "$TMP/r")"
    expect '[ "$(jq -c .invocation.argv "$(latest)/summary.json")" = "$argv" ] && ! grep -q -- "-g" "$(latest)/command"' \
           "$form: $(cat "$(latest)/command")"
  done
}

# A run a signal stopped kept the figures of where it stopped; its replay
# runs to the end, so they differ: the replay says why before listing them
# (Ctrl-C on a 16 KB exchange of 64 nodes, stopped once its nodes booted).
replay_of_a_stopped_run_says_so() {
  local before; before=$(readlink "$RUNS/latest")
  # (the tool itself, not ws: $! of a function is a subshell's)
  "$WORMSIM" "${POOL_OPT[@]}" --kernel "$KERNEL" --runs-dir "$RUNS" --app alltoall_pex --topo mesh --dims 8x8 \
    --args len=16384 > "$TMP/o" 2>&1 & local pid=$!
  local i; for i in $(seq 100); do [ "$(readlink "$RUNS/latest")" = "$before" ] || break; sleep 0.1; done
  sleep 1; kill -INT $pid; wait $pid; rc=$?
  local d; d=$(latest)
  expect '[ "$(summary .interrupted_by_signal)" = 2 ]' "rc $rc: $(tail -3 "$TMP/o")"
  timeout 120 "$WORMSIM" --replay "$d" > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 1 ]' "rc $rc: $(grep -v "^  " "$TMP/r")"
  expect 'grep -q "^replay: the run was stopped by signal 2 (Interrupt); the replay runs to the end, so its figures will differ" "$TMP/r"' \
         "$(grep "^replay" "$TMP/r")"
  # a run that ended by itself says nothing of the kind
  ws --app hello --topo mesh --dims 2x2 > /dev/null 2>&1; expect '[ $? = 0 ]'
  "$WORMSIM" --replay "$(latest)" > "$TMP/r" 2>&1; rc=$?
  expect '[ $rc = 0 ] && ! grep -q "stopped by signal" "$TMP/r"' "rc $rc: $(grep "^replay" "$TMP/r")"
}

for r in console_shows_the_nodes_output replay_matches_the_run replay_names_what_differs \
         replay_shows_no_control_bytes heatmap_keeps_a_run_dirs_text_as_text replay_refuses_what_is_not_a_run \
         netsim_replays_a_runs_messages replay_of_a_gdb_run_runs_unattended replay_of_a_stopped_run_says_so; do
  t $r $r
done
