#!/usr/bin/env bash
# The experiment tools (experiments/): the sweep's definitions, CSV,
# resume and stop, the determinism of parallel runs, the CI slice of the
# Thakur et al. reproduction with its plots and docs, and the stored
# results against the current build.
set -u
cd "$(dirname "$0")/../.."
export WORMSIM=${WORMSIM:-build/host/wormsim} KERNEL=${KERNEL:-build/arm/node.elf}
SWEEP=experiments/sweep.sh
TMP=$(mktemp -d /tmp/wormsim-sweep.XXXXXX); trap 'rm -rf "$TMP"' EXIT
. tests/harness.sh
HEADER="app,topo,dims,nodes,len,preset,port_model,net,args,arch,group,status,coll_ns,coll_ns_node0,sim_time_ns,steps,sends_per_node,startups_per_node,messages,bytes,bytes_per_node,max_msg_bytes,max_link_sharing,max_link_worms,min_link_worms,max_link_flits,wall_s,run_dir"
rows() { echo $(( $(wc -l < "$1") - 1 )); }
# csv_cols CSV COLUMN..: those columns of every row, by header name (Python's
# csv: quoted values may hold commas), comma-joined; csv_without CSV
# COLUMN..: every other column.
csv_pick() {   # mode CSV COLUMN..
  python3 -B -c 'import csv, sys
mode, path, names = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = list(csv.DictReader(open(path, newline="")))
head = list(rows[0].keys()) if rows else []
missing = [n for n in names if n not in head]
if missing: sys.exit("csv: %s has no column %s" % (path, ", ".join(missing)))
keep = names if mode == "cols" else [h for h in head if h not in names]
w = csv.writer(sys.stdout, lineterminator="\n")
for r in rows: w.writerow([r[k] for k in keep])' "$@"
}
csv_cols() { csv_pick cols "$@"; }
csv_without() { csv_pick without "$@"; }
# The key columns of a row (COLUMNS_CSV's before the figures, experiments/sweep-cell.sh).
KEY_COLS="app topo dims nodes len preset port_model net args arch"
# field CSV ROWMATCH COLUMN: the named column of the first row matching an awk condition
field() { awk -F, -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } '"$2"' { print $k; exit }' "$1"; }

# A bad definition is refused before anything runs: exit 2, the file and
# line, the bad field and what is accepted.
bad() {  # bad CONTENT EXPECTED-MESSAGE
  local want=$2
  printf '%s\n' "$1" > "$TMP/bad.sweep"
  "$SWEEP" -o "$TMP/bad" "$TMP/bad.sweep" > "$TMP/e" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "rc $rc: $(cat "$TMP/e")"
  expect 'grep -qF -- "$want" "$TMP/e"' "got: $(cat "$TMP/e")"
  expect '[ ! -e "$TMP/bad/results.csv" ]'
}
bad_definitions_are_refused() {
  bad $'apps = alltoall_pex alltoall_nope\ndims = 4x4' "bad.sweep:1: apps: unknown app 'alltoall_nope'; accepted: hello mpi pingpong alltoall_pex"
  bad $'apps = alltoall_pex\ndims = 4x4\ntopo = ring' "bad.sweep:3: topo: group [bad]: ring 4x4: unknown topology 'ring'; accepted: mesh, torus, hypercube, banyan, fattree"
  bad $'apps = alltoall_pex\ndimz = 4x4' "bad.sweep:2: unknown key 'dimz'; accepted: apps dims len net"
  bad $'[a]\napps = alltoall_pex\ndims = 4x4\nlen = 1k' "bad.sweep:4: len: '1k' is not a number of bytes (0 for the apps that move none)"
  bad $'[a]\napps = alltoall_pex\n[b]\napps = alltoall_gen\ndims = 4x4' "group [a] has no 'dims'"
  # an empty len list would run nothing and say nothing
  bad $'apps = alltoall_pex\ndims = 4x4\nlen =' "bad.sweep:3: len: no length given; accepted: block lengths in bytes (0 for the apps that move none), or no len line for 1024"
  bad $'len = 64\n[a]\napps = alltoall_pex\ndims = 4x4\nlen =  ' "bad.sweep:5: len: no length given"
  bad $'apps = alltoall_pex\ndims = 4x4\nport_model = two-port' "port_model 'two-port' is unknown; accepted: one-port, all-port"
  bad $'apps = alltoall_pex\ndims = 12\ntopo = banyan' "group [bad]: banyan 12: DIMS does not apply to a banyan"
  bad $'apps = alltoall_pex\ndims = n=12\ntopo = banyan' "banyan n=12: a banyan needs NODES a power of two"
  bad $'apps = alltoall_pex\ndims = 4x4\narch = arm,riscv' "arch: 'arm,riscv' is a list, which the CSV key cannot hold"
  bad $'apps = alltoall_pex\ndims = 4by4' "dims: '4by4' is not a shape"
  bad $'apps = alltoall_pex\ndims = 4x4\npreset = nosuch' "cannot read parameter file presets/nosuch.conf"
  bad $'apps = alltoall_pex\ndims = 4x4\nfoo bar' "not 'key = value' or '[group]'"
  "$SWEEP" --jobs 0 experiments/thakur-ci.sweep > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 2 ]'
  expect 'grep -q "jobs .0. is not a positive integer" "$TMP/e"'
  "$SWEEP" nosuchsweep > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 2 ]'
  expect 'grep -q "no sweep definition .nosuchsweep. (accepted: a file, or one of: .*thakur" "$TMP/e"'
}

# timeout is held to the run tool's --timeout bounds, 1 to 86400 s, before
# any run: a run refused for its timeout would leave a refused row that a
# corrected timeout (not part of the key) never replaces.
timeout_outside_the_run_tools_bounds_is_refused() {
  bad $'apps = alltoall_pex\ndims = 2x2\ntimeout = 0' \
    "bad.sweep:3: timeout: '0' is not a whole number of seconds from 1 to 86400; accepted: 1 to 86400 (the bounds of wormsim --timeout), or none for 600 + nodes"
  bad $'apps = alltoall_pex\ndims = 2x2\n\ntimeout = 86401' "bad.sweep:4: timeout: '86401' is not a whole number of seconds from 1 to 86400"
  bad $'apps = alltoall_pex\ndims = 2x2\ntimeout = 1.5' "bad.sweep:3: timeout: '1.5' is not a whole number of seconds from 1 to 86400"
  local t; for t in 1 86400; do
    printf 'apps = alltoall_pex\ndims = 2x2\ntimeout = %s\n' $t > "$TMP/tmo.sweep"
    "$SWEEP" --list -o "$TMP/tmo" "$TMP/tmo.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
    expect '[ $RC = 0 ] && grep -q "1 runs to do" "$TMP/e"' "timeout = $t: rc $RC: $(cat "$TMP/e")"
  done
}

# A machine the run tool refuses is named at the line of the key at fault,
# or at the lines of both keys of a shape that does not fit its topology;
# a key of another group is not this group's.
machine_faults_name_the_keys_line() {
  bad $'apps = alltoall_pex\ndims = 2x2\n\nport_model = two-port' "bad.sweep:4: port_model: group [bad]: torus 2x2: port_model 'two-port' is unknown"
  bad $'apps = alltoall_pex\ndims = 2x2\narch = x86\ntopo = mesh' "bad.sweep:3: arch: group [bad]: mesh 2x2: unknown arch 'x86'"
  bad $'preset = nosuch\n[g]\napps = alltoall_pex\ndims = 2x2' "bad.sweep:1: preset: group [g]: torus 2x2: cannot read parameter file presets/nosuch.conf"
  bad $'[g]\napps = alltoall_pex\ndims = 2x2\nnet = vcs=4 | nosuch=1' "bad.sweep:4: net: group [g]: torus 2x2, net=nosuch=1: unknown parameter 'nosuch'"
  bad $'apps = alltoall_pex\ndims = n=16 12\ntopo = banyan' "bad.sweep:2: dims (line 2), topo (line 3): group [bad]: banyan 12: DIMS does not apply to a banyan"
  bad $'[a]\napps = alltoall_pex\ndims = 2x2\ntopo = mesh\n[b]\napps = alltoall_pex\ndims = 1000x1000' \
    "bad.sweep:7: dims: group [b]: torus 1000x1000: DIMS='1000x1000' is malformed"
}

# A key given twice in one group, or a value twice in one list, is
# refused: the second line would replace the first without a word, and a
# repeated value would run one cell twice into one run directory. A
# group's key over a default is no repeat.
repeats_are_refused() {
  bad $'apps = alltoall_pex\ndims = 2x2\nlen = 8\nlen = 16' "bad.sweep:4: len: given twice in one group, on lines 3 and 4"
  bad $'len = 8\n[a]\napps = alltoall_pex\ndims = 2x2\n[b]\nlen = 32\napps = alltoall_pex\ndims = 2x2\nlen = 64' \
    "bad.sweep:9: len: given twice in one group, on lines 6 and 9"
  bad $'apps = alltoall_pex\ndims = 2x2\nlen = 64 64' "bad.sweep:3: len: '64' is given twice"
  bad $'apps = alltoall_pex\ndims = 2x2 4x4 2x2' "bad.sweep:2: dims: '2x2' is given twice"
  bad $'apps = alltoall_pex alltoall_gen alltoall_pex\ndims = 2x2' "bad.sweep:1: apps: 'alltoall_pex' is given twice"
  bad $'apps = alltoall_pex\ndims = 2x2\nnet = vcs=4 | vcs=2 |  vcs=4 ' "bad.sweep:3: net: 'vcs=4' is given twice"
  # port_model in net would run the other port model under the row's port_model
  bad $'apps = alltoall_pex\ndims = 2x2\nnet = vcs=4 | vcs=2 port_model=all-port' \
    "bad.sweep:3: net: 'vcs=2 port_model=all-port' sets port_model, which is a key of its own (the row's port_model column); accepted: a port_model line"
  bad $'apps = alltoall_pex\ndims = 2x2\nport_model = one-port\nnet = port_model=all-port' "bad.sweep:4: net: 'port_model=all-port' sets port_model"
  printf 'len = 8\n[a]\napps = alltoall_pex\ndims = 2x2\nlen = 16\n' > "$TMP/over.sweep"
  "$SWEEP" --list -o "$TMP/over" "$TMP/over.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && [ "$(awk "{ print \$4 }" "$TMP/l")" = 16 ]' "rc $RC: $(cat "$TMP/l" "$TMP/e")"
}

# The runs --only and --max-nodes leave out are counted where the runs to
# do are: a sweep whose every run they drop said only "0 runs to do".
left_out_runs_are_counted() {
  printf 'apps = alltoall_pex\ndims = 2x2 4x4\nlen = 8 16\n[a]\n[b]\ntopo = mesh\n' > "$TMP/lo.sweep"
  "$SWEEP" --list --max-nodes 8 -o "$TMP/lo" "$TMP/lo.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && grep -q "4 runs to do, 0 already in .*, 4 left out by --max-nodes 8$" "$TMP/e"' "rc $RC: $(cat "$TMP/e")"
  "$SWEEP" --list --only b --max-nodes 2 -o "$TMP/lo" "$TMP/lo.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && grep -q "0 runs to do, 0 already in .*, 4 left out by --only b, 4 left out by --max-nodes 2$" "$TMP/e"' \
    "rc $RC: $(cat "$TMP/e")"
  "$SWEEP" --list -o "$TMP/lo" "$TMP/lo.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && grep -q "8 runs to do, 0 already in [^,]*$" "$TMP/e"' "rc $RC: $(cat "$TMP/e")"
}

# An empty alternative of net is the defaults', wherever it stands: first,
# last or alone.
empty_net_alternative_is_the_defaults() {
  local net
  for net in 'vcs=3 |' '| vcs=3'; do
    printf 'apps = alltoall_pex\ndims = 2x2\nlen = 8\nnet = %s\n' "$net" > "$TMP/alt.sweep"
    "$SWEEP" --list -o "$TMP/alt" "$TMP/alt.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
    expect '[ $RC = 0 ] && grep -q "2 runs to do" "$TMP/e"' "net = $net: rc $RC: $(cat "$TMP/l" "$TMP/e")"
  done
  printf 'apps = alltoall_pex\ndims = 2x2\nlen = 8\nnet = vcs=3 | | vcs=4\n' > "$TMP/alt.sweep"
  "$SWEEP" --list -o "$TMP/alt" "$TMP/alt.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && grep -q "3 runs to do" "$TMP/e"' "rc $RC: $(cat "$TMP/l" "$TMP/e")"
}

# A group without port_model takes its preset's, as a run of the preset
# alone would (a sweep ran one-port whatever its preset said); one given
# in the definition still wins.
port_model_is_the_presets() {
  printf 'port_model = all-port\n' > "$TMP/allport.conf"
  printf 'apps = alltoall_pex\ndims = 2x2\nlen = 8\npreset = %s\n[its]\n[given]\nport_model = one-port\n' \
    "$TMP/allport.conf" > "$TMP/pm.sweep"
  "$SWEEP" --list -o "$TMP/pm" "$TMP/pm.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && [ "$(awk "{ print \$6 }" "$TMP/l" | sort | tr "\n" " ")" = "all-port one-port " ]' \
    "rc $RC: $(cat "$TMP/l" "$TMP/e")"
  printf 'apps = alltoall_pex\ndims = 2x2\nlen = 8\npreset = delta\n' > "$TMP/pm.sweep"
  "$SWEEP" --list -o "$TMP/pm" "$TMP/pm.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && [ "$(awk "{ print \$6 }" "$TMP/l")" = one-port ]' "rc $RC: $(cat "$TMP/l" "$TMP/e")"
}

# A sweep runs every app with len= (ARGS), so an app whose ARGS take no
# len (wormsim --list-apps) is refused, before a run makes a refused row
# of each of its cells; the apps that take len, and mpi's argv, are not.
apps_without_len_are_refused() {
  bad $'apps = alltoall_pex hello\ndims = 2x2' "bad.sweep:1: apps: 'hello' takes no len (wormsim --list-apps), and a sweep runs every app with len="
  bad $'[a]\napps = alltoall_pex\ndims = 2x2\n[b]\ndims = 2x2\napps = hang' "bad.sweep:6: apps: 'hang' takes no len"
  printf 'apps = barrier_tree pingpong mpi\ndims = 2x2\nlen = 0\n' > "$TMP/len.sweep"
  "$SWEEP" --list -o "$TMP/len" "$TMP/len.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && grep -q "3 runs to do" "$TMP/e"' "rc $RC: $(cat "$TMP/e")"
  # --list only reads: no results directory appears for it
  expect '[ ! -e "$TMP/len" ]' "--list made $(ls -R "$TMP/len" 2>&1 | head -5)"
}

# The args of a run whose app takes its machine and length are checked
# before any run, at the args line: a refused row for every cell would
# stay beside the corrected args' rows (args is part of the key). A
# machine or length the app refuses, with or without the args, is still a
# refused row (refused_run_is_recorded).
args_are_checked_before_any_run() {
  bad $'apps = alltoall_pex\ndims = 2x2\nlen = 64\nargs = snyc=0' \
    "bad.sweep:4: args: group [bad]: alltoall_pex on torus 2x2, len 64: app alltoall_pex: unknown key 'snyc'; accepted keys: len, sync, runs, oneshot, corrupt"
  bad $'args = len=8\n[g]\napps = alltoall_gen\ndims = 2x2\nlen = 64' "bad.sweep:1: args: group [g]: alltoall_gen on torus 2x2, len 64: app alltoall_gen: len is given twice"
  bad $'apps = alltoall_pex\ndims = 2x2 4x4\nargs = corrupt=9' "bad.sweep:3: args: group [bad]: alltoall_pex on torus 2x2, len 1024: app alltoall_pex: corrupt=9 is not a node"
  printf 'apps = alltoall_pex\ndims = 2x2 5x4\nlen = 0 64\nargs = sync=0\n' > "$TMP/args.sweep"
  "$SWEEP" --list -o "$TMP/args" "$TMP/args.sweep" > "$TMP/l" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && grep -q "4 runs to do" "$TMP/e"' "rc $RC: $(cat "$TMP/e")"
}

# A key results.csv holds unquoted is refused with a comma or a quote in
# it: a preset's path with a comma made a row one column too long, which
# the sweep's summary then read as a failed run (and a resume never
# matched).
csv_keys_hold_no_comma() {
  cp presets/default.conf "$TMP/a,b.conf"
  bad $'topo = mesh\napps = alltoall_pex\ndims = 2x2\npreset = '"$TMP/a,b.conf" \
    "bad.sweep:4: preset: '$TMP/a,b.conf' holds a comma or a quote, which results.csv's preset column cannot hold; accepted: a value without commas and quotes"
  bad $'preset = "delta"\n[g]\napps = alltoall_pex\ndims = 2x2' "bad.sweep:1: preset: '\"delta\"' holds a comma or a quote"
  bad $'apps = alltoall_pex\ndims = 2x2\nnet = vcs=2,alloc=age' "bad.sweep:3: net: 'vcs=2,alloc=age' holds a comma or a quote, which results.csv's net column"
  bad $'apps = alltoall_pex\ndims = 2x2\nargs = sync="0"' "bad.sweep:3: args: 'sync=\"0\"' holds a comma or a quote"
  # so is the group a definition without [group] lines names after its
  # file (an ok run of 'c,d.sweep' was named not ok, its row one column
  # too long); a [name] line makes the file's name no key of the rows
  printf 'topo = mesh\napps = alltoall_pex\ndims = 2x2\nlen = 64\n' > "$TMP/c,d.sweep"
  "$SWEEP" -o "$TMP/bad" "$TMP/c,d.sweep" > "$TMP/e" 2>&1; local rc=$?
  expect '[ $rc = 2 ] && [ ! -e "$TMP/bad/results.csv" ]' "rc $rc: $(cat "$TMP/e")"
  expect 'grep -qF -- "c,d.sweep:0: a definition without [group] lines names its group after its file, '"'c,d'"', which results.csv'"'"'s group column cannot hold" "$TMP/e"' \
    "got: $(cat "$TMP/e")"
  printf '[g]\n' >> "$TMP/c,d.sweep"; printf 'apps = alltoall_pex\ndims = 2x2\n' >> "$TMP/c,d.sweep"
  "$SWEEP" --list -o "$TMP/bad" "$TMP/c,d.sweep" > /dev/null 2> "$TMP/e"; rc=$?
  expect '[ $rc = 0 ] && grep -q "1 runs to do" "$TMP/e"' "rc $rc: $(cat "$TMP/e")"
}

# The report's lines (compare, paper) are the report's to read, but a
# mistake in one is refused before any run, naming its line: the sweep
# ran every run and only make report refused the line.
report_lines_are_checked_before_any_run() {
  local ok=$'topo = mesh\napps = alltoall_pex alltoall_gen\ndims = 2x2\nlen = 64'
  bad "$ok"$'\ncompare = alltoall_pex alltoall_gen by coll_nss' \
    "sweep: $TMP/bad.sweep:5: compare ... by: 'coll_nss' is not a column of the sweep's results.csv; accepted: app, topo, dims, nodes, len"
  bad "$ok"$'\ncompare = alltoall_pex alltoall_bruck' \
    "bad.sweep:5: compare: 'alltoall_bruck' is no app of this sweep (none of its rows, no apps line); accepted: alltoall_pex, alltoall_gen"
  bad $'compare = alltoall_pex\n'"$ok" "bad.sweep:1: compare: give two apps or more"
  bad "$ok"$'\npaper = experiments/paper/nosuch.csv by paper_s' "bad.sweep:5: paper: no file experiments/paper/nosuch.csv ($PWD/experiments/paper/nosuch.csv); accepted: a CSV file, its path absolute or from the top of the tree"
  bad "$ok"$'\npaper = experiments/paper/thakur.csv by seconds' \
    "bad.sweep:5: paper: $PWD/experiments/paper/thakur.csv lacks the column seconds; its columns: table, app"
  # every apps line counts for a compare, the defaults' and a group's
  printf '%s\n' "$ok" 'compare = alltoall_pex alltoall_direct' '[more]' 'apps = alltoall_direct' 'dims = 2x2' \
    'paper = experiments/paper/thakur.csv by paper_s' > "$TMP/rep.sweep"
  "$SWEEP" --list -o "$TMP/rep" "$TMP/rep.sweep" > /dev/null 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && grep -q "1 runs to do" "$TMP/e"' "rc $RC: $(cat "$TMP/e")"
}

# The CI slice with one job, then with two: the same rows, the same
# simulated figures (only wall_s and run_dir may differ).
slice_runs_and_parallel_is_deterministic() {
  local t0=$(date +%s)
  "$SWEEP" --jobs 1 -o "$TMP/j1" experiments/thakur-ci.sweep 2> "$TMP/e1"; RC=$?; expect '[ $RC = 0 ]' "$(tail -5 "$TMP/e1")"
  local t1=$(date +%s)
  "$SWEEP" --jobs 2 -o "$TMP/j2" experiments/thakur-ci.sweep 2> "$TMP/e2"; RC=$?; expect '[ $RC = 0 ]' "$(tail -5 "$TMP/e2")"
  local t2=$(date +%s)
  echo "CI slice (8 runs): $((t1 - t0)) s with 1 job, $((t2 - t1)) s with 2" > "$TMP/slice-time"
  expect '[ "$(rows "$TMP/j1/results.csv")" = 8 ] && [ "$(rows "$TMP/j2/results.csv")" = 8 ]'
  strip() { csv_without "$1" wall_s run_dir | sort; }
  expect 'diff <(strip "$TMP/j1/results.csv") <(strip "$TMP/j2/results.csv") > "$TMP/d"' "$(cat "$TMP/d")"
  # the progress line and the summary
  expect 'grep -q "sweep thakur-ci: 8/8 done (0 skipped, 0 failed, 0 refused), elapsed .*, estimate" "$TMP/e2"'
  expect 'grep -q "sweep thakur-ci: finished in .*; 8 rows in" "$TMP/e2"'
  cp -r "$TMP/j2" "$TMP/slice"
}

# The CSV: the header, one whole row per run, figures that match the
# schedule: PEX on 16 nodes is 15 steps, 15 sends per node, 240 messages.
csv_columns_and_values() {
  local c=$TMP/slice/results.csv
  expect '[ "$(head -1 "$c")" = "$HEADER" ]' "$(head -1 "$c")"
  expect '[ "$(awk -F, "NF != 28" "$c" | wc -l)" = 0 ]'
  expect '[ "$(csv_cols "$c" status | grep -vcx ok)" = 0 ]'
  local r='$1 == "alltoall_pex" && $5 == 256'
  expect '[ "$(field "$c" "$r" steps)" = 15 ] && [ "$(field "$c" "$r" sends_per_node)" = 15 ] && [ "$(field "$c" "$r" startups_per_node)" = 30 ]'
  expect '[ "$(field "$c" "$r" messages)" = 240 ] && [ "$(field "$c" "$r" bytes)" = $((240 * 256)) ] && [ "$(field "$c" "$r" max_msg_bytes)" = 256 ]'
  expect '[ "$(field "$c" "$r" coll_ns)" -gt 0 ] && [ "$(field "$c" "$r" coll_ns)" -lt "$(field "$c" "$r" sim_time_ns)" ]'
  expect '[ -f "$TMP/slice/$(field "$c" "$r" run_dir)/summary.json" ]'
  # PEX-GEN on 20 nodes: q - 1 = 31 steps
  expect '[ "$(field "$c" "\$1 == \"alltoall_pex_gen\"" steps)" = 31 ]'
}

# The slice against the paper: the calibration cell (4x4 PEX, 256 B) within
# 10 %, the other cells within a factor 2.
slice_matches_the_paper() {
  local c=$TMP/slice/results.csv
  # both files by header name: the paper's (after its # lines) and the slice's
  awk -F, 'NR == FNR { if ($0 ~ /^#/) next; if (!ph) { for (i = 1; i <= NF; i++) h[$i] = i; ph = 1; next }
                       p[$h["app"], $h["dims"], $h["len"]] = $h["paper_s"]; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { a = $c["app"]; d = $c["dims"]; l = $c["len"]; k = a SUBSEP d SUBSEP l
      if (!(k in p)) { print "no paper value for " a " " d " " l; bad = 1; next }
      r = $c["coll_ns"] / 1e9 / p[k]; printf "%s %s %s: ratio %.2f\n", a, d, l, r
      if (r < 0.5 || r > 2) bad = 1; if (a == "alltoall_pex" && d == "4x4" && l == 256 && (r < 0.9 || r > 1.1)) bad = 1 }
    END { exit bad }' experiments/paper/thakur.csv "$c" > "$TMP/r"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/r")"
}

# Run again: nothing runs, nothing changes. Add a length: only the new runs.
resume_skips_finished_runs() {
  local o=$TMP/slice before; before=$(md5sum "$o/results.csv")
  local stamp; stamp=$(find "$o/runs" -name summary.json -newer "$o/results.csv" | wc -l)
  "$SWEEP" -o "$o" experiments/thakur-ci.sweep 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]'
  expect 'grep -q "0 runs to do, 8 already in" "$TMP/e"'
  expect '[ "$(md5sum "$o/results.csv")" = "$before" ]'
  sed 's/^len    = 256 4096/len    = 256 4096 512/' experiments/thakur-ci.sweep > "$TMP/more.sweep"
  "$SWEEP" -o "$o" "$TMP/more.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect 'grep -q "4 runs to do, 8 already in" "$TMP/e"'
  expect '[ "$(rows "$o/results.csv")" = 12 ]'
  expect '[ "$(csv_cols "$o/results.csv" $KEY_COLS | sort | uniq -d | wc -l)" = 0 ]' "a key twice"
}

# timing.csv holds the sessions that made the stored rows: a resumed
# session adds its line, and a session that starts with no row (the
# results removed for a regeneration) starts the file anew, so that the
# sweep's summed time (docs/results.md, make bench) is not the old rows'
# time plus the new.
timing_is_the_stored_rows_sessions() {
  local o=$TMP/timing
  printf 'topo = mesh\napps = barrier_tree\ndims = 2x2\nlen = 0\n' > "$TMP/timing.sweep"
  sessions() { echo $(( $(wc -l < "$o/timing.csv") - 1 )); }
  "$SWEEP" --cold --jobs 1 -o "$o" "$TMP/timing.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect '[ "$(sessions)" = 1 ]' "$(cat "$o/timing.csv")"
  "$SWEEP" --cold --jobs 1 -o "$o" "$TMP/timing.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect '[ "$(sessions)" = 2 ]' "a resumed session adds a line: $(cat "$o/timing.csv")"
  expect '[ "$(tail -1 "$o/timing.csv" | cut -d, -f3)" = 0 ]' "$(cat "$o/timing.csv")"
  rm "$o/results.csv"
  "$SWEEP" --cold --jobs 1 -o "$o" "$TMP/timing.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect '[ "$(sessions)" = 1 ]' "the regeneration kept the removed rows' sessions: $(cat "$o/timing.csv")"
  expect '[ "$(head -1 "$o/timing.csv")" = "date,jobs,runs,done,elapsed_s" ]' "$(cat "$o/timing.csv")"
  expect '[ "$(tail -1 "$o/timing.csv" | cut -d, -f3,4)" = 1,1 ]' "$(cat "$o/timing.csv")"
}

# Stopped in the middle (SIGTERM, as Ctrl-C would): whole rows only, no
# router or QEMU left, and the next start does only what is missing.
stop_leaves_whole_rows_and_no_processes() {
  local o=$TMP/stop
  printf 'topo = mesh\npreset = delta\napps = alltoall_pex\ndims = 4x4 8x8\nlen = 256 1024 2048\n' > "$TMP/stop.sweep"
  "$SWEEP" --jobs 1 -o "$o" "$TMP/stop.sweep" 2> "$TMP/e" &
  local sp=$! i pids=""
  for i in $(seq 1 300); do [ -s "$o/results.csv" ] && [ "$(rows "$o/results.csv")" -ge 1 ] && break; sleep 0.1; done
  for i in $(seq 1 100); do pids=$(pgrep -f -- "--runs-dir $o/runs/" | tr '\n' ' '); [ -n "$pids" ] && break; sleep 0.1; done
  expect '[ -n "$pids" ]' "no run in progress to stop"
  local pools; pools=$(pgrep -f -- "--serve sweep-$sp-" | tr '\n' ' ')
  expect '[ -n "$pools" ]' "the sweep runs on no node pool"
  kill -TERM $sp; wait $sp; local rc=$?
  expect '[ $rc = 130 ]' "rc $rc"
  expect 'grep -q "stopped; .* run it again to resume" "$TMP/e"'
  sleep 0.5
  local p; for p in $pids $pools; do
    expect '! kill -0 $p 2>/dev/null' "wormsim $p still runs"
    expect '[ -z "$(pgrep -f "path=wormsim-$p-")" ]' "QEMUs of wormsim $p still run"
  done
  local n; n=$(rows "$o/results.csv")
  expect '[ "$n" -ge 1 ] && [ "$n" -lt 6 ]' "$n rows"
  expect '[ "$(awk -F, "NF != 28" "$o/results.csv" | wc -l)" = 0 ]'
  expect '[ "$(csv_cols "$o/results.csv" status | grep -vcx ok)" = 0 ]'
  "$SWEEP" --jobs 2 --max-nodes 16 -o "$o" "$TMP/stop.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect 'grep -q "$((3 - n < 0 ? 0 : 3 - n)) runs to do, $n already in" "$TMP/e"' "$(head -1 "$TMP/e") (had $n)"
  expect '[ "$(csv_cols "$o/results.csv" $KEY_COLS | sort | uniq -d | wc -l)" = 0 ]' "a key twice"
}

# A node pool that dies (the OOM killer, a signal) is started again before
# the next cell: only the cell it was serving fails, none is refused for
# want of a pool.
dead_pool_is_started_again() {
  local o=$TMP/pool
  printf 'topo = mesh\npreset = delta\napps = alltoall_pex\ndims = 4x4\nlen = 256 512 1024 2048\n' > "$TMP/pool.sweep"
  "$SWEEP" --jobs 1 -o "$o" "$TMP/pool.sweep" 2> "$TMP/e" &
  local sp=$! i
  for i in $(seq 1 300); do [ -s "$o/results.csv" ] && [ "$(rows "$o/results.csv")" -ge 1 ] && break; sleep 0.1; done
  local pool; pool=$(pgrep -f -- "--serve sweep-$sp-0")
  expect '[ -n "$pool" ]' "the sweep runs on no node pool"
  kill -KILL $pool
  wait $sp
  expect 'grep -q "node pool 0 ended (see .*pool-0.log); starting it again" "$TMP/e"' "$(cat "$TMP/e")"
  expect '[ "$(rows "$o/results.csv")" = 4 ]' "$(cat "$o/results.csv")"
  expect '[ "$(csv_cols "$o/results.csv" status | grep -cx refused)" = 0 ]' "$(cat "$o/results.csv")"
  expect '[ "$(csv_cols "$o/results.csv" status | grep -cx ok)" -ge 3 ]' "$(cat "$o/results.csv")"
  expect '[ -z "$(pgrep -f -- "--serve sweep-$sp-")" ]' "a pool outlived the sweep"
}

# GNU parallel runs the cells: its log has every run, and the runs of
# more than big_nodes nodes ran after the others, none beside another run.
# Runs go smallest machine first, so a pool only grows: with a 72-node
# machine (more than the 64 idle nodes a pool keeps after a small run)
# listed before a 4-node one, the pool starts 72 QEMUs, not 80, and the
# CSV's rows come in that order.
pool_starts_each_node_once() {
  local o=$TMP/grow
  printf 'topo = torus\napps = barrier_tree barrier_dissemination\ndims = 9x8 2x2\nlen = 0\n' > "$TMP/grow.sweep"
  "$SWEEP" --list -o "$o" "$TMP/grow.sweep" > "$TMP/l" 2> "$TMP/e"
  expect '[ "$(awk "{print \$3}" "$TMP/l" | tr "\n" " ")" = "2x2 2x2 9x8 9x8 " ]' "$(cat "$TMP/l" "$TMP/e")"
  "$SWEEP" --jobs 1 -o "$o" "$TMP/grow.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect '[ "$(awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"dims\") k = i; next } { printf \"%s \", \$k }" "$o/results.csv")" = "2x2 2x2 9x8 9x8 " ]' "$(cat "$o/results.csv")"
  expect 'grep -q "4 runs served, 72 nodes started, 80 handed over warm" "$o/pool-0.log"' "$(cat "$o/pool-0.log")"
}
big_runs_run_alone() {
  local o=$TMP/big
  printf 'topo = mesh\npreset = delta\napps = alltoall_pex\ndims = 4x4 2x2 4x2\nlen = 256 512\nbig_nodes = 8\n' > "$TMP/big.sweep"
  "$SWEEP" --jobs 2 -o "$o" "$TMP/big.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect '[ "$(rows "$o/results.csv")" = 6 ]'
  expect '[ "$(wc -l < "$o/joblog")" = 6 ]' "$(cat "$o/joblog")"
  # joblog lines (appended, no header): Seq Host Starttime JobRuntime ...
  # Command; a big run's interval
  # overlaps no other, and starts after every small run ended
  awk -F'\t' '{ s[NR] = $3; e[NR] = $3 + $4; big[NR] = ($9 ~ /\x1f4x4\x1f/) }
    END { for (i in s) for (j in s) if (i != j && big[i]) {
            if (s[i] < e[j] && s[j] < e[i]) { print "big run " i " overlaps run " j; bad = 1 }
            if (!big[j] && s[i] < e[j]) { print "big run " i " starts before small run " j " ended"; bad = 1 } }
          for (i in big) nb += big[i]; if (nb != 2) { print nb " big runs in the log"; bad = 1 }
          exit bad }' "$o/joblog" > "$TMP/r"; RC=$?
  expect '[ $RC = 0 ]' "$(cat "$TMP/r"; cat "$o/joblog")"
  # the other slot's pool (and its idle nodes' memory) was gone before the
  # first big run started
  local stop first
  stop=$(sed -n 's/^sweep: node pool 1 stopped at \([0-9.]*\) .*/\1/p' "$o/pool-1.log")
  first=$(awk -F'\t' '$9 ~ /\x1f4x4\x1f/ { if (f == "" || $3 < f) f = $3 } END { print f }' "$o/joblog")
  expect '[ -n "$stop" ] && [ -n "$first" ] && awk -v s="$stop" -v f="$first" "BEGIN { exit !(s <= f) }"' \
    "pool 1 stopped at '$stop', first big run at '$first': $(cat "$o/pool-1.log")"
}

# A run that failed is named at the sweep's end, with its cell and the
# error its summary.json gives, after the finished line.
failed_run_is_named_at_the_end() {
  printf 'topo = mesh\napps = bcast_hw\ndims = 2x2\nlen = 64\nargs = corrupt=1\n' > "$TMP/bad.sweep"
  "$SWEEP" -o "$TMP/bad" "$TMP/bad.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 1 ]' "$(cat "$TMP/e")"
  local run err
  run=$TMP/bad/$(field "$TMP/bad/results.csv" "NR > 1" run_dir)
  err=$(jq -r .error "$run/summary.json")
  expect '[ -n "$err" ] && [ "$err" != null ]' "$(cat "$run/summary.json")"
  expect '[ "$(tail -1 "$TMP/e")" = "  not ok: bcast_hw on mesh 2x2, len 64: $err ($run)" ]' "$(tail -3 "$TMP/e")"
}

# A machine the app refuses is a row with status refused and exit 3 (1 is
# for a run that failed), so that make reproduce can go on past it.
refused_run_is_recorded() {
  printf 'topo = mesh\npreset = delta\napps = alltoall_pex\ndims = 5x4\nlen = 256\n' > "$TMP/ref.sweep"
  "$SWEEP" -o "$TMP/ref" "$TMP/ref.sweep" > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 3 ]' "$(cat "$TMP/e")"
  expect '[ "$(field "$TMP/ref/results.csv" "NR > 1" status)" = refused ]'
  expect 'grep -q "needs a power-of-two node count, not 20" "$TMP/e"' "$(cat "$TMP/e")"
}

# A refused run's row names the directory of its command and wormsim.out
# (the run tool made no run directory), and the sweep's report lists it
# with the run tool's reason, as the sweep's last lines name a failed run.
refused_runs_are_named_in_the_report() {
  printf 'topo = mesh\npreset = delta\napps = alltoall_pex\ndims = 5x4\nlen = 256\n' > "$TMP/refr.sweep"
  "$SWEEP" -o "$TMP/refr" "$TMP/refr.sweep" > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 3 ]' "$(cat "$TMP/e")"
  local rd; rd=$(field "$TMP/refr/results.csv" "NR > 1" run_dir)
  expect '[[ "$rd" == runs/alltoall_pex-mesh5x4-256-* ]] && [ -f "$TMP/refr/$rd/wormsim.out" ]' "run_dir '$rd'"
  make -s --no-print-directory report SWEEP="$TMP/refr" > "$TMP/o" 2>&1; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/o")"
  expect 'grep -q "Runs: 1 refused\." "$TMP/refr/report.md"' "$(head -5 "$TMP/refr/report.md")"
  expect 'grep -qxF -- "- not ok (refused): alltoall_pex on mesh 5x4, len 256: app alltoall_pex needs a power-of-two node count, not 20 ($TMP/refr/$rd)" "$TMP/refr/report.md"' \
    "$(grep -A4 "Runs not ok" "$TMP/refr/report.md")"
}

# The progress line counts refused runs apart from failed ones, as the
# final line and the status column do.
progress_counts_refused_apart() {
  printf '[f]\ntopo = mesh\napps = bcast_hw\ndims = 2x2\nlen = 64\nargs = corrupt=1\n[r]\napps = alltoall_pex\ndims = 3x1\nlen = 64\n' > "$TMP/pr.sweep"
  "$SWEEP" --jobs 1 -o "$TMP/pr" "$TMP/pr.sweep" 2> "$TMP/e"; RC=$?; expect '[ $RC = 1 ]' "rc $RC: $(cat "$TMP/e")"
  expect '[ "$(csv_cols "$TMP/pr/results.csv" status | sort | tr "\n" " ")" = "fail refused " ]' "$(cat "$TMP/pr/results.csv")"
  expect 'grep -q "sweep pr: 2/2 done (0 skipped, 1 failed, 1 refused), elapsed" "$TMP/e"' "$(cat "$TMP/e")"
  expect 'grep -q "sweep pr: finished in .*; 2 rows in .*, 2 not ok (1 refused)$" "$TMP/e"' "$(cat "$TMP/e")"
}

# --mem-limit reaches every run: a limit below the machine's estimate is a
# refused row with wormsim's reason; a bad value stops the sweep first.
mem_limit_reaches_the_runs() {
  printf 'topo = mesh\napps = alltoall_pex\ndims = 4x4\nlen = 256\n' > "$TMP/mem.sweep"
  "$SWEEP" --mem-limit 1 -o "$TMP/mem" "$TMP/mem.sweep" > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 3 ]' "$(cat "$TMP/e")"
  expect '[ "$(field "$TMP/mem/results.csv" "NR > 1" status)" = refused ]'
  expect 'grep -q "more than the 1 MiB of --mem-limit" "$TMP/e"' "$(cat "$TMP/e")"
  "$SWEEP" --mem-limit 1x -o "$TMP/mem2" "$TMP/mem.sweep" > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 2 ] && [ ! -e "$TMP/mem2" ]'
  expect 'grep -q "mem-limit .1x. is not a positive whole number of MiB" "$TMP/e"' "$(cat "$TMP/e")"
}

# docs/results.md and the plots from the slice's CSV (experiments/report/);
# a heatmap of a run.
results_and_heatmap_from_the_slice() {
  mkdir -p "$TMP/res/thakur"; cp "$TMP/slice/results.csv" "$TMP/res/thakur/"
  cp -r "$TMP/slice/runs" "$TMP/res/thakur/"
  python3 -B experiments/report --results "$TMP/res" --out "$TMP/doc/results.md" --img "$TMP/doc/img" 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect 'grep -q "^| 256 | 0.00[0-9]* / 0.004 (" "$TMP/doc/results.md"' "$(grep "^| 256" "$TMP/doc/results.md" | head -2)"
  expect 'grep -q "Not run yet: .make sweep SWEEP=torus000" "$TMP/doc/results.md"'
  expect '[ "$(head -c 4 "$TMP/doc/img/thakur-4x4.png" | tail -c 3)" = PNG ]'
  # The findings are counted from the CSV: the slice's 8 cells; its 4x4 PEX
  # cell at 256 B (on the calibrated row) made 100 times slower by hand
  # leaves the factor-1.5 count.
  within() { tr '\n' ' ' < "$1" | grep -o "within a factor 1.5 [^.]*(\([0-9]*\) of 8)" | sed 's/.*(\([0-9]*\) of 8)/\1/'; }
  local w0 w1; w0=$(within "$TMP/doc/results.md")
  expect '[ -n "$w0" ] && [ "$w0" -ge 1 ]' "$(grep -A3 "Reading the findings" "$TMP/doc/results.md")"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
           NR > 1 && $c["app"] == "alltoall_pex" && $c["len"] == 256 { $c["coll_ns"] *= 100 } { print }' OFS=, \
    "$TMP/slice/results.csv" > "$TMP/res/thakur/results.csv"
  python3 -B experiments/report --results "$TMP/res" --out "$TMP/doc/edited.md" --img "$TMP/doc/img" 2> "$TMP/e"
  w1=$(within "$TMP/doc/edited.md")
  expect '[ "$w1" = $((w0 - 1)) ]' "within a factor 1.5: $w0 cells, after the edit $w1"
  local run; run=$TMP/slice/$(field "$TMP/slice/results.csv" '$1 == "alltoall_pex" && $5 == 4096' run_dir)
  experiments/heatmap.sh --metric blocked "$run" "$TMP/h.png" > /dev/null 2> "$TMP/e"; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect '[ "$(head -c 4 "$TMP/h.png" | tail -c 3)" = PNG ]'
  experiments/heatmap.sh --metric nope "$run" "$TMP/h.png" > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 2 ]'
  expect 'grep -q "is not one of: flits worms blocked busy" "$TMP/e"'
}

# docs/results.md is what the committed results make: the CSVs, the
# paper's numbers and the files kept beside them (results/*/kept/), with
# no run directory (those stay local); and a kept file of another run is
# refused, said on stderr, its claim left out.
results_doc_is_what_the_results_make() {
  mkdir -p "$TMP/clone"
  git archive HEAD results | tar -x -C "$TMP/clone" || exit 1    # as a clone has them
  local clean=$TMP/clone/results
  python3 -B experiments/report --results "$clean" --out "$TMP/doc2/results.md" --img "$TMP/doc2/img" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 0 ] && ! grep -q "^report: " "$TMP/e"' "rc $RC: $(cat "$TMP/e")"
  diff docs/results.md "$TMP/doc2/results.md" > "$TMP/d"; RC=$?
  expect '[ $RC = 0 ]' "docs/results.md is not what the committed results make: $(head -20 "$TMP/d")"
  jq '.sim_time_ns += 1' "$clean/thakur/kept/alltoall_pex-mesh8x8-16384/summary.json" > "$TMP/s.json" &&
    mv "$TMP/s.json" "$clean/thakur/kept/alltoall_pex-mesh8x8-16384/summary.json"
  python3 -B experiments/report --results "$clean" --out "$TMP/doc2/edited.md" --img "$TMP/doc2/img" 2> "$TMP/e"
  expect 'grep -q "kept/alltoall_pex-mesh8x8-16384 is of another run than thakur.s row" "$TMP/e"' "$(cat "$TMP/e")"
  expect '! grep -q "heatmap-pex-mesh8x8" "$TMP/doc2/edited.md"'
}

# make report on the slice, in a directory named after its definition
# (experiments/thakur-ci.sweep, which declares two comparisons and the
# paper's table): the table per machine and length, a PNG per machine, the
# winner of each comparison per cell, the paper's cells, a heatmap of the
# slowest run; a sweep that is not there is refused, the names accepted.
report_of_the_slice() {
  local d=$TMP/rep/thakur-ci
  mkdir -p "$TMP/rep" && cp -r "$TMP/slice" "$d"
  make -s --no-print-directory report SWEEP="$d" METRIC= > "$TMP/o" 2>&1; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/o")"
  expect 'grep -q "^| machine | len | alltoall_pex (us) | alltoall_gen (us) | alltoall_pex_gen (us) | alltoall_pex_gen_shift (us) |$" "$d/report.md"' \
    "$(head -20 "$d/report.md")"
  expect 'grep -q "^| mesh 4x4 | 256 | [0-9.]* | [0-9.]* | - | - |$" "$d/report.md"' "$(head -20 "$d/report.md")"
  expect '[ "$(head -c 4 "$d/coll_ns-mesh_4x4.png" | tail -c 3)" = PNG ]'
  expect '[ "$(grep -c "^Winner per cell (the smaller coll_ns.*): .* of the [0-9]* cells compared.$" "$d/report.md")" = 2 ]' \
    "$(grep -A2 "^Winner" "$d/report.md")"
  expect 'grep -q "^| mesh 5x4 | 4096 | [0-9.]* | [0-9.]* | alltoall_pex_gen[_shift]* | [0-9.]* % |$" "$d/report.md"'
  expect 'grep -q "8 of its 125 cells ran here" "$d/report.md"'
  expect '[ "$(head -c 4 "$d/heatmap-slowest.png" | tail -c 3)" = PNG ]'
  make -s --no-print-directory report SWEEP=nosuch > "$TMP/o" 2>&1; RC=$?
  expect '[ $RC != 0 ] && grep -q "no sweep .nosuch. .*accepted: .*thakur" "$TMP/o"' "rc $RC: $(cat "$TMP/o")"
}

# The stored results are what this build makes: a sample of every
# reproduction runs again with every simulated figure as stored
# (experiments/recheck.sh), and a stored value edited by hand is caught,
# the cell and the figure named.
stored_results_are_current() {
  local n; n=$(ls results/*/results.csv | wc -l)
  experiments/recheck.sh --out "$TMP/recheck" > "$TMP/rc" 2>&1; RC=$?
  expect '[ $RC = 0 ]' "$(cat "$TMP/rc")"
  expect '[ "$(grep -c "cells, every simulated figure as stored" "$TMP/rc")" = "$n" ]' "$(cat "$TMP/rc")"
  # the same --out again only compares what is there, and says so
  experiments/recheck.sh --out "$TMP/recheck" thakur > "$TMP/rc" 2>&1
  expect 'grep -q "^recheck thakur: 2 cells, every simulated figure as stored (2 of them from an earlier recheck in .*, not run again by this build: give a new --out to run them)$" "$TMP/rc"' "$(cat "$TMP/rc")"
  # a smaller sample there judges its own cells (the rows of the others are not its)
  experiments/recheck.sh --per 1 --out "$TMP/recheck" thakur > "$TMP/rc" 2>&1; RC=$?
  expect '[ $RC = 0 ] && grep -q "^recheck thakur: 1 cells, every simulated figure as stored (1 of them from an earlier" "$TMP/rc"' \
    "rc $RC: $(cat "$TMP/rc")"
  mkdir -p "$TMP/edited/thakur"
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                    NR == 2 { $c["coll_ns"] = $c["coll_ns"] + 1; cell = $c["app"] " " $c["dims"] " " $c["len"] } 1
                    END { print cell > "/dev/stderr" }' results/thakur/results.csv > "$TMP/edited/thakur/results.csv" 2> "$TMP/cell"
  experiments/recheck.sh --results "$TMP/edited" --out "$TMP/recheck" thakur > "$TMP/rc" 2>&1; RC=$?
  expect '[ $RC = 1 ]' "rc $RC: $(cat "$TMP/rc")"
  expect 'grep -q "^  $(cut -d" " -f1 "$TMP/cell"),mesh,$(cut -d" " -f2 "$TMP/cell"),$(cut -d" " -f3 "$TMP/cell"),.*: coll_ns is [0-9]*, stored [0-9]*$" "$TMP/rc"' "$(cat "$TMP/rc")"
  experiments/recheck.sh --per 0 > "$TMP/rc" 2>&1; RC=$?
  expect '[ $RC = 2 ] && grep -q "per .0. is not a positive integer" "$TMP/rc"'
  experiments/recheck.sh nosuch > "$TMP/rc" 2>&1; RC=$?
  expect '[ $RC = 2 ] && grep -q "no stored results .nosuch. (accepted: .*thakur" "$TMP/rc"'
}

# The kept copies of runs (results/*/kept/*/summary.json, read by the
# report when the run directories are gone) are this build's: each has
# the fields, and the fields of its parts, that a run of it writes now. A
# kept file from an older build lacks what summary.json gained since.
kept_runs_are_this_builds() {
  "$WORMSIM" --app alltoall_pex --nodes 4 --args len=16 --kernel "$KERNEL" --runs-dir "$TMP/kr" --output none \
    > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  local shape='[keys, (.network | keys), (.engine | keys), (.message_time | keys), (.per_node[0] | keys),
               (.steps[0] | keys), (.links | keys)]'
  local now; now=$(jq -c "$shape" "$TMP/kr/latest/summary.json")
  local f n=0
  for f in results/*/kept/*/summary.json; do
    n=$((n + 1))
    expect '[ "$(jq -c "$shape" "$f")" = "$now" ]' \
      "$f is not what this build writes (make reproduce REPRODUCE=<its sweep>): $(diff <(jq -c "$shape" "$f" | tr , '\n') <(echo "$now" | tr , '\n') | grep '^[<>]' | tr '\n' ' ')"
  done
  expect '[ $n -ge 2 ]' "kept runs found: $n"
}

# The fit's arithmetic (experiments/lsq.awk, ratios.awk) on figures worked
# out by hand: a linear system with a known solution, a singular one, and
# the error summary of four ratios.
fit_functions_give_known_answers() {
  local x
  x=$(printf '%s\n' "41 10 2 3" "85.5 20 4 6.5" "16 4 1 1" | awk -f experiments/lsq.awk)
  expect '[ "$x" = "5 7" ]' "lsq gave '$x', not '5 7'"
  printf '%s\n' "41 10 2 4" "82 20 4 8" | awk -f experiments/lsq.awk > "$TMP/o" 2> "$TMP/e"; RC=$?
  expect '[ $RC = 1 ] && grep -q "singular" "$TMP/e" && [ ! -s "$TMP/o" ]' "rc $RC: $(cat "$TMP/e")"
  printf '%s\n' "41 10 2 3" | awk -f experiments/lsq.awk > /dev/null 2> "$TMP/e"; RC=$?
  expect '[ $RC = 1 ] && grep -q "1 cells for 2 parameters" "$TMP/e"' "rc $RC: $(cat "$TMP/e")"
  x=$(printf '%s\n' "1 1.1" "1 0.8" "2 2" "4 5" | awk -f experiments/ratios.awk)
  expect '[ "$x" = "4 0.150 1.024 2" ]' "ratios gave '$x'"
}

# experiments/calibrate.sh recovers parameters it can know: "measured"
# times made by the emulator itself at alpha = 2000 ns and byte_ps = 1000
# (preset default, PEX on 4x4 at two lengths), fitted from a preset that
# starts at alpha = 4000 and byte_ps = 1500, come back within 3 %; the
# held-out cell is reported apart; --write stores the values; a bad table
# and a singular fit are refused.
calibrate_recovers_known_parameters() {
  local d=$TMP/cal
  mkdir -p "$d"
  sed 's/^t_send_ns .*/t_send_ns    = 1000/; s/^t_recv_ns .*/t_recv_ns    = 1000/; s/^byte_ps .*/byte_ps      = 1000/' \
    presets/default.conf > "$d/truth.conf"
  printf 'topo = mesh\npreset = %s\napps = alltoall_pex\ndims = 4x4\nlen = 256 4096 1024\n' "$d/truth.conf" > "$d/truth.sweep"
  "$SWEEP" -o "$d/truth" "$d/truth.sweep" > "$d/log" 2>&1; RC=$?
  expect '[ $RC = 0 ]' "$(tail -5 "$d/log")"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "app,dims,len,measured_s,role"; next }
           { print $c["app"] "," $c["dims"] "," $c["len"] "," $c["coll_ns"] / 1e9 "," ($c["len"] == 1024 ? "heldout" : "train") }' \
    "$d/truth/results.csv" > "$d/table.csv"
  sed 's/^t_send_ns .*/t_send_ns    = 2000/; s/^t_recv_ns .*/t_recv_ns    = 2000/; s/^byte_ps .*/  byte_ps\t=\t1500   # my guess/' \
    presets/default.conf > "$d/start.conf"
  experiments/calibrate.sh --preset "$d/start.conf" --table "$d/table.csv" --time-col measured_s --out "$d/fit" \
    --write > "$d/o" 2>&1; RC=$?
  expect '[ $RC = 0 ]' "$(cat "$d/o")"
  local a b
  a=$(( $(sed -n 's/^t_send_ns *= *//p' "$d/start.conf") + $(sed -n 's/^t_recv_ns *= *//p' "$d/start.conf") ))
  b=$(sed -n 's/^  byte_ps\t=\t\([0-9]*\)   # my guess$/\1/p' "$d/start.conf")
  expect '[ -n "$b" ]' "the byte_ps line lost its spacing or comment: $(grep byte_ps "$d/start.conf")"
  expect '[ $a -ge 1940 ] && [ $a -le 2060 ] && [ $b -ge 970 ] && [ $b -le 1030 ]' "fitted alpha $a, byte_ps $b: $(cat "$d/o")"
  expect 'grep -q "^train: 2 cells" "$d/o"' "$(cat "$d/o")"
  expect 'grep -q "^1 held-out cells not run: sweep them with .preset = $d/start.conf., .topo = mesh. and .port_model = one-port., then --iters 0 --heldout RESULTS.csv reports their error" "$d/o" && grep -q "^the runs: $d/fit$" "$d/o"' "$(cat "$d/o")"
  # the held-out cell swept with the fitted preset, its error beside the
  # training cells' at the same values (--iters 0: no fit)
  printf 'topo = mesh\npreset = %s\napps = alltoall_pex\ndims = 4x4\nlen = 1024\n' "$d/start.conf" > "$d/held.sweep"
  "$SWEEP" -o "$d/held" "$d/held.sweep" > "$d/log" 2>&1; RC=$?
  expect '[ $RC = 0 ]' "$(tail -5 "$d/log")"
  experiments/calibrate.sh --preset "$d/start.conf" --table "$d/table.csv" --time-col measured_s --out "$d/fit" \
    --iters 0 --heldout "$d/held/results.csv" > "$d/o" 2>&1; RC=$?
  expect '[ $RC = 0 ] && grep -q "^train: 2 cells" "$d/o" && grep -q "^heldout: 1 cells, median |r - 1| 0.0[0-3]" "$d/o"' "$(cat "$d/o")"
  expect '! grep -q "^round" "$d/o" && grep -q "^$d/start.conf is unchanged; --write stores t_send_ns=" "$d/o"' "$(cat "$d/o")"
  # the truth's own results are another preset's: refused before any run
  cal_bad "$(cat "$d/table.csv")\n" "--heldout: $d/truth/results.csv holds none of the 1 held-out cells of $TMP/calbad/t.csv run with preset p on mesh (one-port, no net setting)" \
    --time-col measured_s --heldout "$d/truth/results.csv"
  sed 's/,train$/,guess/' "$d/table.csv" > "$d/bad.csv"
  experiments/calibrate.sh --preset "$d/start.conf" --table "$d/bad.csv" --time-col measured_s --out "$d/bad" > "$d/o" 2>&1; RC=$?
  expect '[ $RC = 2 ] && grep -q "role .guess. is not train or heldout" "$d/o"' "rc $RC: $(cat "$d/o")"
  experiments/calibrate.sh --preset "$d/start.conf" --table "$d/table.csv" --time-col measured_s --fit 'alpha nosuch' \
    --out "$d/bad" > "$d/o" 2>&1; RC=$?
  expect '[ $RC = 2 ] && grep -q -- "--fit: .nosuch. is not a parameter" "$d/o"' "rc $RC: $(cat "$d/o")"
}

# A bad table of measured times is refused whole before any run: exit 2,
# the table's own line (comments and blank lines counted), what is wrong
# and what is accepted, and no output directory. A CRLF table, spaces
# around fields and a blank last line are read as the plain table (here
# they reach the count of training cells, which none of them has). The
# run tool judges each training cell's machine and length (--topo any of
# its topologies) before any run.
cal_bad() {  # cal_bad TABLE-CONTENT EXPECTED-MESSAGE [OPTIONS..]
  local d=$TMP/calbad want=$2 table=$1; shift 2
  mkdir -p "$d"; rm -rf "$d/out"; cp presets/default.conf "$d/p.conf"
  printf '%b' "$table" > "$d/t.csv"
  experiments/calibrate.sh --preset "$d/p.conf" --table "$d/t.csv" --time-col s --out "$d/out" "$@" > "$d/o" 2>&1; local rc=$?
  expect '[ $rc = 2 ]' "rc $rc: $(cat "$d/o")"
  expect 'grep -qF -- "$want" "$d/o"' "got: $(cat "$d/o")"
  expect '[ ! -e "$d/out" ]' "left $(ls "$d/out" 2>/dev/null)"
}
calibrate_refuses_bad_tables() {
  local h='app,dims,len,s,role\n' ok='alltoall_pex,4x4,256,0.003,train\n'
  cal_bad 'app,dims,len,role\n' "t.csv:1: the header has no column s (its columns: app, dims, len, role); accepted: a header naming app, dims, len, s (--time-col) and role"
  cal_bad '' "t.csv has no header line"
  cal_bad "# measured\napp,dims,len,s,role,s\nalltoall_pex,4x4,256,0.003,train,9\n" \
    "t.csv:2: the header names s twice (columns 4 and 6); accepted: app, dims, len, s (--time-col) and role, each once"
  cal_bad "# two\n# comments\n$h\n$ok"'alltoall_pex,4x4,1024,abc,train\n' "t.csv:6: s 'abc' is not a positive number of seconds"
  cal_bad "$h$ok"'alltoall_nope,4x4,1024,0.006,train\n' "t.csv:3: app 'alltoall_nope' is unknown or takes no len; accepted: mpi pingpong alltoall_pex"
  cal_bad "$h$ok"'hello,4x4,1024,0.006,train\n' "t.csv:3: app 'hello' is unknown or takes no len"
  cal_bad "$h$ok"'alltoall_pex,4by4,1024,0.006,train\n' "t.csv:3: dims '4by4' is not a shape; accepted: such as 4x4, 16x30, 4x4x4 or n=16"
  cal_bad "$h$ok"'alltoall_pex,4x4,1k,0.006,train\n' "t.csv:3: len '1k' is not a whole number of bytes"
  cal_bad "$h$ok"'alltoall_pex,4x4,1024,0.006\n' "t.csv:3: 4 fields where the header has 5"
  cal_bad "$h$ok"'alltoall_pex,4x4,1024,0.006,train\nalltoall_pex,4x4,256,0.004,heldout\n' \
    "t.csv:4: alltoall_pex 4x4 len 256 is also on line 2; accepted: each cell once"
  cal_bad "$h$ok"'alltoall_pex,4x4,1024,0.006,guess\n' "t.csv:3: role 'guess' is not train or heldout"
  cal_bad 'app, dims, len, s, role\r\nalltoall_pex, 4x4, 256, 0.003, heldout\r\n\n' \
    "0 training cells for 2 free parameters"
  # the run tool judges each training cell as its runs would start it
  cal_bad "$h$ok"'alltoall_pex,4x5,1024,0.006,train\n' \
    "t.csv:3: alltoall_pex on mesh 4x5, len 1024: app alltoall_pex needs a power-of-two node count, not 20"
  cal_bad "$h$ok"'alltoall_pex,4x4,1024,0.006,train\n' "t.csv:2: alltoall_pex on dragonfly 4x4, len 256: a dragonfly's DIMS are PxAxG" --topo dragonfly
  cp presets/default.conf "$TMP/calbad/a,b.conf"
  cal_bad "$h$ok"'alltoall_pex,4x4,1024,0.006,train\n' \
    "calibrate: --preset: the path $TMP/calbad/a,b.conf holds a comma or a quote, which the runs' results.csv cannot hold" \
    --preset "$TMP/calbad/a,b.conf"
  cal_bad "$h$ok"'alltoall_pex,4x4,1024,0.006,train\n' "--topo 'ring' is unknown; accepted: mesh, torus, hypercube, banyan, fattree, dragonfly" --topo ring
  # --heldout takes a sweep's results.csv with held-out cells to report
  cal_bad "$h$ok"'alltoall_pex,4x4,1024,0.006,train\nalltoall_pex,4x4,4096,0.02,heldout\n' \
    "--heldout $TMP/calbad/t.csv has no column preset; accepted: the results.csv of a sweep (experiments/sweep.sh)" --heldout "$TMP/calbad/t.csv"
  printf '%s\n' "$HEADER" > "$TMP/calbad/r.csv"
  cal_bad "$h$ok"'alltoall_pex,4x4,1024,0.006,train\n' "--heldout: $TMP/calbad/t.csv has no held-out cells (role heldout) to report" --heldout "$TMP/calbad/r.csv"
}

# The free parameters are numeric keys of the run tool's table, each once,
# with a value in the preset to start from; anything else is refused
# before any run, naming the key and what is accepted.
calibrate_refuses_bad_fit_keys() {
  local h='app,dims,len,s,role\nalltoall_pex,4x4,256,0.003,train\nalltoall_pex,4x4,1024,0.006,train\n'
  cal_bad "$h" "--fit: 'link_cycles' is not a parameter; accepted: alpha (t_send_ns + t_recv_ns) or the numeric keys of wormsim --list-params: t_send_ns t_recv_ns" --fit 'alpha link_cycles'
  cal_bad "$h" "--fit: 'switching' takes wormhole|cut-through|store-and-forward, not a number; accepted: alpha" --fit 'alpha switching'
  sed '/^credit_delay/d' presets/default.conf > "$TMP/calbad/nocredit.conf"
  cal_bad "$h" "the preset $TMP/calbad/nocredit.conf has no line 'credit_delay = N' to start the fit of credit_delay from; add one (the built-in value is 0)" \
    --fit 'alpha credit_delay' --preset "$TMP/calbad/nocredit.conf"
  cal_bad "$h" "--fit: 'byte_ps' is given twice; accepted: each key once" --fit 'byte_ps byte_ps'
  cal_bad "$h" "--fit: alpha is t_send_ns + t_recv_ns; accepted: alpha or those keys, not both" --fit 't_send_ns alpha'
  cal_bad "$h" "--fit names no parameter; accepted: alpha" --fit ' '
  sed -i '/^t_recv_ns/d' "$TMP/calbad/p.conf"; cp "$TMP/calbad/p.conf" "$TMP/calbad/norecv.conf"
  cal_bad "$h" "the preset $TMP/calbad/norecv.conf has no line 't_recv_ns = N'" --preset "$TMP/calbad/norecv.conf"
  expect '! grep -q "syntax error" "$TMP/calbad/o"' "$(cat "$TMP/calbad/o")"
}

# A calibration stopped during its runs stops them and their node pools,
# says so and exits 130, the preset unwritten; it ran on as an orphan
# sweep.
calibrate_stop_leaves_no_processes() {
  local d=$TMP/calstop
  mkdir -p "$d"; cp presets/default.conf "$d/p.conf"; cp "$d/p.conf" "$d/p0.conf"
  printf 'app,dims,len,s,role\nalltoall_pex,4x4,16384,0.05,train\nalltoall_pex,4x4,32768,0.1,train\n' > "$d/t.csv"
  experiments/calibrate.sh --preset "$d/p.conf" --table "$d/t.csv" --time-col s --out "$d/out" --iters 5 --write > "$d/o" 2> "$d/e" &
  local cp=$! i sp=""
  for i in $(seq 1 300); do sp=$(pgrep -f -- "sweep.sh -o $d/out/round1" | head -1); [ -n "$sp" ] && [ -n "$(pgrep -f -- "--serve sweep-$sp-")" ] && break; sleep 0.1; done
  expect '[ -n "$sp" ]' "no runs to stop: $(cat "$d/o" "$d/e")"
  local pools; pools=$(pgrep -f -- "--serve sweep-$sp-" | tr '\n' ' ')
  expect '[ -n "$pools" ]' "the runs have no node pool"
  kill -TERM $cp; wait $cp; local rc=$?
  expect '[ $rc = 130 ]' "rc $rc: $(cat "$d/o" "$d/e")"
  expect 'grep -q "calibrate: stopped; $d/p.conf is unchanged (the runs so far are in $d/out)" "$d/e"' "$(cat "$d/e")"
  sleep 0.5
  expect '! kill -0 $sp 2>/dev/null' "its sweep $sp still runs"
  local p; for p in $pools; do
    expect '! kill -0 $p 2>/dev/null' "node pool $p still runs"
    expect '[ -z "$(pgrep -f "path=wormsim-$p-")" ]' "QEMUs of pool $p still run"
  done
  expect 'cmp -s "$d/p.conf" "$d/p0.conf"'
}

# The runs of a calibration take the preset it reads and writes, with its
# port model: run where presets/p.conf is another file than ./p.conf, the
# runs of --preset p.conf (vcs = 3, all-port) have vcs = 3 and all-port.
calibrate_runs_the_presets_machine() {
  local d=$TMP/calpm
  mkdir -p "$d/presets"; cp presets/default.conf "$d/presets/p.conf"
  sed 's/^vcs .*/vcs = 3/; s/^port_model .*/port_model = all-port/' presets/default.conf > "$d/p.conf"
  printf 'app,dims,len,s,role\nalltoall_pex,2x2,256,0.00002,train\nalltoall_pex,2x2,1024,0.00003,train\n' > "$d/t.csv"
  local root=$PWD
  ( export WORMSIM=$(realpath "$WORMSIM") KERNEL=$(realpath "$KERNEL"); cd "$d" && "$root/experiments/calibrate.sh" --preset p.conf --table t.csv --time-col s --out "$d/out" --iters 1 ) > "$d/o" 2>&1
  expect '[ -s "$d/out/check/results.csv" ]' "$(cat "$d/o")"
  expect '[ "$(csv_cols "$d/out/check/results.csv" port_model | sort -u)" = all-port ]' "$(csv_cols "$d/out/check/results.csv" port_model)"
  local pc; pc=$(ls "$d"/out/check/runs/*/latest/params.conf | head -1)
  expect 'grep -q "^vcs *= 3 " "$pc"' "$(grep "^vcs" "$pc")"
}

# A figure depends only on what its run executes (docs/design.md, "How
# simulated time arises"). Node images padded with an app, an algorithm
# and a function that no stored cell runs, each first in its registry or
# file (tests/sweep/pad-image.sh), reproduce the stored sample bit for bit
# (experiments/recheck.sh); and runs on RISC-V and mixed nodes, which no
# stored cell uses, give the same times, records and messages with the
# padded images as with the plain ones.
figures_ignore_other_code() {
  git worktree add -q --detach "$TMP/pad" HEAD || exit 1
  tests/sweep/pad-image.sh "$TMP/pad" > "$TMP/p" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(cat "$TMP/p")"
  make -C "$TMP/pad" -s nodes > "$TMP/b" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "$(tail -5 "$TMP/b")"
  local k=$TMP/pad/build/arm/node.elf kr=$TMP/pad/build/riscv/node.elf
  expect 'arm-none-eabi-nm "$k" | grep -q " app_aaa_pad$" && riscv64-unknown-elf-nm "$kr" | grep -q " pattern_pad$"' \
    "the padded images lack the padding"
  KERNEL=$k KERNEL_RISCV=$kr experiments/recheck.sh --out "$TMP/padcheck" > "$TMP/rc" 2>&1; rc=$?
  expect '[ $rc = 0 ]' "padding moved a stored figure: $(cat "$TMP/rc")"
  local arch img run
  for arch in riscv mixed; do
    for img in plain padded; do
      [ $img = plain ] && set -- build/arm/node.elf build/riscv/node.elf || set -- "$k" "$kr"
      "$WORMSIM" --app alltoall_pex --dims 4x4 --topo mesh --arch $arch --args 'len=100 oneshot=1' \
        --kernel "$1" --kernel-riscv "$2" --runs-dir "$TMP/pr-$arch-$img" > "$TMP/o" 2>&1; rc=$?
      expect '[ $rc = 0 ]' "$(tail -5 "$TMP/o")"
      run=$(ls -d "$TMP/pr-$arch-$img"/2*/)
      { jq -c '[.sim_time_ns, .finish_ns]' "$run/summary.json"; cat "$run/records.csv" "$run/messages.csv"; } \
        > "$TMP/fig-$arch-$img"
    done
    expect 'cmp -s "$TMP/fig-$arch-plain" "$TMP/fig-$arch-padded"' \
      "$arch: $(diff "$TMP/fig-$arch-plain" "$TMP/fig-$arch-padded" | head -6)"
  done
}

# make recheck checks the stored results, those the repository holds: a
# sweep of one's own in results/ (make sweep SWEEP=mine writes there) is
# left out unless named, since its app may exist only in one's own tree.
own_sweeps_are_not_rechecked() {
  local own=results/own-sweep-$$ rc
  mkdir -p "$own" && cp results/banyan004/results.csv "$own/" || exit 1
  experiments/recheck.sh --list > "$TMP/l" 2>&1; rc=$?
  experiments/recheck.sh --list "own-sweep-$$" > "$TMP/l2" 2>&1
  rm -rf "$own"
  expect '[ $rc = 0 ] && grep -qx thakur "$TMP/l" && grep -qx banyan004 "$TMP/l"' "rc $rc: $(cat "$TMP/l")"
  expect '! grep -q own-sweep "$TMP/l"' "$(cat "$TMP/l")"
  expect '[ "$(cat "$TMP/l2")" = "own-sweep-$$" ]' "$(cat "$TMP/l2")"
  expect '[ "$(experiments/recheck.sh --list | wc -l)" = "$(git ls-files "results/*/results.csv" | grep -c "^results/[^/]*/results.csv$")" ]'
}

# experiments/node-code-diff.sh, in a worktree of HEAD: its build against
# HEAD is the same; one instruction more in a node function is named, on
# both ISAs, with exit 1.
node_code_diff_names_what_changed() {
  git worktree add -q --detach "$TMP/wt" HEAD || exit 1
  make -C "$TMP/wt" -s nodes > "$TMP/b" 2>&1; local rc=$?
  expect '[ $rc = 0 ]' "$(tail -5 "$TMP/b")"
  "$TMP/wt/experiments/node-code-diff.sh" HEAD > "$TMP/d" 2>&1; rc=$?
  expect '[ $rc = 0 ] && grep -q "^same: " "$TMP/d"' "rc $rc: $(cat "$TMP/d")"
  sed -i 's/^    uint32_t x = seed(s, d), w;$/    uint32_t x = seed(s, d) + (uint32_t)len, w;/' "$TMP/wt/apps/pattern.c"
  expect 'grep -q "seed(s, d) + (uint32_t)len" "$TMP/wt/apps/pattern.c"'
  make -C "$TMP/wt" -s nodes > "$TMP/b" 2>&1
  "$TMP/wt/experiments/node-code-diff.sh" HEAD > "$TMP/d" 2>&1; rc=$?
  expect '[ $rc = 1 ]' "rc $rc: $(cat "$TMP/d")"
  expect 'grep -q "^arm: .* differ" "$TMP/d" && grep -q "^riscv: .* differ" "$TMP/d" && grep -q "^  pattern_fill$" "$TMP/d"' "$(cat "$TMP/d")"
  "$TMP/wt/experiments/node-code-diff.sh" nosuchrev > "$TMP/d" 2>&1; rc=$?
  expect '[ $rc = 2 ] && grep -q "not a revision" "$TMP/d"' "rc $rc: $(cat "$TMP/d")"
}

# Every experiments/*.sh tool (the executable ones: usage.sh is sourced by
# them), run from an empty directory: --help prints its
# usage (the header comment's first line, no stray `set -u`, nothing on
# stderr) and exits 0; an unknown option is refused before any work, exit
# 2, the option named; neither leaves anything in the directory.
experiment_scripts_refuse_bad_options() {
  local s name first d rc
  for s in "$PWD"/experiments/*.sh; do
    [ -x "$s" ] || continue
    name=$(basename "$s"); first=$(sed -n '2s/^# \{0,1\}//p' "$s")
    d=$(mktemp -d "$TMP/opts.XXXXXX")
    (cd "$d" && timeout 30 "$s" --help < /dev/null > "$TMP/o" 2> "$TMP/e"); rc=$?
    expect '[ $rc = 0 ]' "$name --help: rc $rc: $(head -5 "$TMP/e")"
    expect 'grep -qxF -- "$first" "$TMP/o"' "$name --help does not print '$first': $(head -5 "$TMP/o")"
    expect '[ ! -s "$TMP/e" ] && ! grep -q "unbound variable" "$TMP/o" && ! grep -qx "set -u" "$TMP/o"' \
      "$name --help: $(tail -3 "$TMP/o") $(head -3 "$TMP/e")"
    expect '[ -z "$(ls -A "$d")" ]' "$name --help left $(ls -A "$d") in the directory"
    (cd "$d" && timeout 30 "$s" --no-such-option < /dev/null > "$TMP/o" 2>&1); rc=$?
    expect '[ $rc = 2 ]' "$name --no-such-option: rc $rc: $(head -5 "$TMP/o")"
    expect 'grep -q -- "unknown option .--no-such-option." "$TMP/o"' "$name --no-such-option: $(head -5 "$TMP/o")"
    expect '[ -z "$(ls -A "$d")" ]' "$name --no-such-option left $(ls -A "$d") in the directory"
  done
}

# Every experiments/*.sh tool takes the options its refusal of an unknown one
# lists, and lists each option its parser takes: each option word of the
# refusal, given a value and then --help, is not refused; each `-x)` or
# `--name)` pattern of the script is a word of the refusal.
experiment_scripts_take_the_options_they_list() {
  local s name d listed o taken
  for s in "$PWD"/experiments/*.sh; do
    [ -x "$s" ] || continue
    name=$(basename "$s"); d=$(mktemp -d "$TMP/opts.XXXXXX")
    listed=$(cd "$d" && timeout 30 "$s" --no-such-option < /dev/null 2>&1 | sed -n "s/.*unknown option '--no-such-option'; //p")
    expect '[ -n "$listed" ]' "$name: its refusal of --no-such-option lists nothing"
    for o in $(printf '%s\n' $listed | tr -d ',;()[]' | grep -E '^--?[a-z][-a-z]*$' | sort -u); do
      (cd "$d" && timeout 30 "$s" "$o" x --help < /dev/null > "$TMP/o" 2>&1)
      expect '! grep -q -- "unknown option .$o." "$TMP/o"' "$name lists $o and refuses it: $(head -3 "$TMP/o")"
    done
    taken=$(grep -oE '^ *-[-a-z|]*(=\*)?\)' "$s" | tr -d ' )' | sed 's/=\*$//' | tr '|' '\n' | grep -vx -- '-\*\|--\|' | sort -u)
    expect '[ -n "$taken" ]' "$name: no option patterns found"
    for o in $taken; do
      expect 'printf "%s\n" $listed | tr -d ",;()[]" | grep -qx -- "$o"' "$name takes $o, and its refusal does not list it: $listed"
    done
  done
}

# A sweep keeps a copy of its definition beside its results (sweep.def,
# each session's), and make report reads its compare lines from there
# when the definition is not in experiments/; without one, the report
# says so, and DEF= names one.
definition_goes_with_the_results() {
  mkdir -p "$TMP/own"
  printf 'topo = mesh\napps = alltoall_pex alltoall_gen\ndims = 2x2\nlen = 64\ncompare = alltoall_pex alltoall_gen by coll_ns\n' \
    > "$TMP/own/ownsweep.sweep"
  "$SWEEP" --list -o "$TMP/ownres" "$TMP/own/ownsweep.sweep" > /dev/null 2>&1; expect '[ ! -e "$TMP/ownres" ]'
  "$SWEEP" -o "$TMP/ownres" "$TMP/own/ownsweep.sweep" > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect 'cmp -s "$TMP/own/ownsweep.sweep" "$TMP/ownres/sweep.def"' "$(ls -A "$TMP/ownres")"
  make -s --no-print-directory report SWEEP="$TMP/ownres" > "$TMP/o" 2>&1; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/o")"
  expect 'grep -q "^## alltoall_pex against alltoall_gen by coll_ns$" "$TMP/ownres/report.md"' "$(head -12 "$TMP/ownres/report.md")"
  expect 'grep -q "^Winner per cell (the smaller coll_ns.*): alltoall_[a-z]* in 1 of the 1 cells compared.$" "$TMP/ownres/report.md"'
  # a later session's definition replaces the copy
  echo "# a second session" >> "$TMP/own/ownsweep.sweep"
  "$SWEEP" -o "$TMP/ownres" "$TMP/own/ownsweep.sweep" > "$TMP/e" 2>&1; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/e")"
  expect 'cmp -s "$TMP/own/ownsweep.sweep" "$TMP/ownres/sweep.def"'
  rm "$TMP/ownres/sweep.def"
  make -s --no-print-directory report SWEEP="$TMP/ownres" > "$TMP/o" 2>&1; RC=$?; expect '[ $RC = 0 ]' "$(cat "$TMP/o")"
  expect 'grep -q "^No sweep definition found (.*sweep.def. nor .experiments/ownres.sweep.): no comparison" "$TMP/ownres/report.md"' \
    "$(head -8 "$TMP/ownres/report.md")"
  expect 'grep -q "^report: no sweep definition for ownres" "$TMP/o"' "$(cat "$TMP/o")"
  make -s --no-print-directory report SWEEP="$TMP/ownres" DEF="$TMP/own/ownsweep.sweep" > "$TMP/o" 2>&1; RC=$?
  expect '[ $RC = 0 ] && grep -q "^## alltoall_pex against alltoall_gen by coll_ns$" "$TMP/ownres/report.md"' "$(cat "$TMP/o")"
  make -s --no-print-directory report SWEEP="$TMP/ownres" DEF="$TMP/own/nosuch.sweep" > "$TMP/o" 2>&1; RC=$?
  expect '[ $RC = 2 ] && grep -q "no sweep definition $TMP/own/nosuch.sweep" "$TMP/o"' "rc $RC: $(cat "$TMP/o")"
}

# make heatmap's OUT is checked before gnuplot runs: a missing directory
# or a directory as OUT is refused (exit 2, the path and the reason named,
# nothing on stdout, no file made); a gnuplot that fails leaves an
# earlier OUT as it was and no temporary file, and whatever it writes to
# its standard output never reaches heatmap.sh's; a stop (SIGTERM) while
# it draws leaves no temporary file either.
heatmap_output_is_checked() {
  "$WORMSIM" --app alltoall_pex --topo mesh --dims 2x2 --args len=16 --kernel "$KERNEL" --runs-dir "$TMP/hm" \
    --output none > "$TMP/o" 2>&1; rc=$?; expect '[ $rc = 0 ]' "$(cat "$TMP/o")"
  local run=$TMP/hm/latest rc
  # a directory holding one run directory (a sweep's cell) names it; a
  # machine it cannot draw names links.csv
  experiments/heatmap.sh "$TMP/hm" > "$TMP/o" 2> "$TMP/e"; rc=$?
  expect '[ $rc = 2 ] && grep -q "the run directory in it is $TMP/hm/[^ ]* (make heatmap RUN=" "$TMP/e"' "rc $rc: $(cat "$TMP/e")"
  "$WORMSIM" --app hello --topo hypercube --nodes 4 --kernel "$KERNEL" --runs-dir "$TMP/hc" --output none > "$TMP/o" 2>&1
  experiments/heatmap.sh "$TMP/hc/latest" > "$TMP/o" 2> "$TMP/e"; rc=$?
  expect '[ $rc = 2 ] && grep -q "only 2D meshes and tori are drawn (.*links.csv holds every link" "$TMP/e"' "rc $rc: $(cat "$TMP/e")"
  experiments/heatmap.sh "$run" "$TMP/nonexist/x.png" > "$TMP/o" 2> "$TMP/e"; rc=$?
  expect '[ $rc = 2 ] && [ ! -s "$TMP/o" ]' "rc $rc, $(wc -c < "$TMP/o") bytes on stdout: $(head -3 "$TMP/e")"
  expect '[ "$(cat "$TMP/e")" = "heatmap: cannot write $TMP/nonexist/x.png: its directory $TMP/nonexist does not exist; accepted: a file in an existing, writable directory" ]' "$(cat "$TMP/e")"
  expect '[ ! -e "$TMP/nonexist" ]'
  mkdir -p "$TMP/hmout"
  experiments/heatmap.sh "$run" "$TMP/hmout" > "$TMP/o" 2> "$TMP/e"; rc=$?
  expect '[ $rc = 2 ] && [ ! -s "$TMP/o" ] && grep -q "cannot write $TMP/hmout: it is a directory" "$TMP/e"' "rc $rc: $(cat "$TMP/e")"
  expect '[ -z "$(ls -A "$TMP/hmout")" ]' "left: $(ls -A "$TMP/hmout")"
  experiments/heatmap.sh "$run" "$TMP/hmout/h.png" > "$TMP/o" 2> "$TMP/e"; rc=$?
  expect '[ $rc = 0 ] && [ "$(cat "$TMP/o")" = "$TMP/hmout/h.png" ]' "rc $rc: $(cat "$TMP/e")"
  expect '[ "$(head -c 4 "$TMP/hmout/h.png" | tail -c 3)" = PNG ] && [ "$(ls -A "$TMP/hmout")" = h.png ]' "$(ls -A "$TMP/hmout")"
  # a gnuplot that cannot write its output and writes to stdout instead
  mkdir -p "$TMP/fakegp"; printf '#!/bin/sh\ncat > /dev/null; echo IMAGE-BYTES; exit 1\n' > "$TMP/fakegp/gnuplot"
  chmod +x "$TMP/fakegp/gnuplot"; cp "$TMP/hmout/h.png" "$TMP/h0.png"
  PATH=$TMP/fakegp:$PATH experiments/heatmap.sh "$run" "$TMP/hmout/h.png" > "$TMP/o" 2> "$TMP/e"; rc=$?
  expect '[ $rc != 0 ] && [ ! -s "$TMP/o" ]' "rc $rc, stdout: $(head -c 100 "$TMP/o")"
  expect 'cmp -s "$TMP/h0.png" "$TMP/hmout/h.png" && [ "$(ls -A "$TMP/hmout")" = h.png ]' "$(ls -A "$TMP/hmout")"
  # stopped while gnuplot draws: no temporary file stays beside OUT
  printf '#!/bin/sh\ncat > /dev/null; sleep 1\n' > "$TMP/fakegp/gnuplot"
  PATH=$TMP/fakegp:$PATH experiments/heatmap.sh "$run" "$TMP/hmout/h.png" > /dev/null 2>&1 & local pid=$!
  sleep 0.5; kill -TERM $pid; wait $pid; rc=$?
  expect '[ $rc = 143 ] && [ "$(ls -A "$TMP/hmout")" = h.png ]' "rc $rc: $(ls -A "$TMP/hmout")"
}

echo "sweep tool tests"
t0=$(date +%s)
t bad_definitions_are_refused bad_definitions_are_refused
t timeout_outside_the_run_tools_bounds_is_refused timeout_outside_the_run_tools_bounds_is_refused
t machine_faults_name_the_keys_line machine_faults_name_the_keys_line
t repeats_are_refused repeats_are_refused
t empty_net_alternative_is_the_defaults empty_net_alternative_is_the_defaults
t left_out_runs_are_counted left_out_runs_are_counted
t port_model_is_the_presets port_model_is_the_presets
t apps_without_len_are_refused apps_without_len_are_refused
t args_are_checked_before_any_run args_are_checked_before_any_run
t report_lines_are_checked_before_any_run report_lines_are_checked_before_any_run
t csv_keys_hold_no_comma csv_keys_hold_no_comma
t slice_runs_and_parallel_is_deterministic slice_runs_and_parallel_is_deterministic
t csv_columns_and_values csv_columns_and_values
t slice_matches_the_paper slice_matches_the_paper
t resume_skips_finished_runs resume_skips_finished_runs
t timing_is_the_stored_rows_sessions timing_is_the_stored_rows_sessions
t stop_leaves_whole_rows_and_no_processes stop_leaves_whole_rows_and_no_processes
t dead_pool_is_started_again dead_pool_is_started_again
t pool_starts_each_node_once pool_starts_each_node_once
t big_runs_run_alone big_runs_run_alone
t mem_limit_reaches_the_runs mem_limit_reaches_the_runs
t failed_run_is_named_at_the_end failed_run_is_named_at_the_end
t refused_run_is_recorded refused_run_is_recorded
t refused_runs_are_named_in_the_report refused_runs_are_named_in_the_report
t progress_counts_refused_apart progress_counts_refused_apart
t experiment_scripts_refuse_bad_options experiment_scripts_refuse_bad_options
t experiment_scripts_take_the_options_they_list experiment_scripts_take_the_options_they_list
t definition_goes_with_the_results definition_goes_with_the_results
t heatmap_output_is_checked heatmap_output_is_checked
t stored_results_are_current stored_results_are_current
t kept_runs_are_this_builds kept_runs_are_this_builds
t node_code_diff_names_what_changed node_code_diff_names_what_changed
git worktree remove --force "$TMP/wt" 2>/dev/null
t fit_functions_give_known_answers fit_functions_give_known_answers
t calibrate_recovers_known_parameters calibrate_recovers_known_parameters
t calibrate_refuses_bad_tables calibrate_refuses_bad_tables
t calibrate_refuses_bad_fit_keys calibrate_refuses_bad_fit_keys
t calibrate_stop_leaves_no_processes calibrate_stop_leaves_no_processes
t calibrate_runs_the_presets_machine calibrate_runs_the_presets_machine
t figures_ignore_other_code figures_ignore_other_code
t own_sweeps_are_not_rechecked own_sweeps_are_not_rechecked
git worktree remove --force "$TMP/pad" 2>/dev/null
# (the report generator's unit tests are a suite of their own: tests/report/run.sh)
t results_and_heatmap_from_the_slice results_and_heatmap_from_the_slice
t results_doc_is_what_the_results_make results_doc_is_what_the_results_make
t report_of_the_slice report_of_the_slice
[ -f "$TMP/slice-time" ] && cat "$TMP/slice-time"
echo "sweep tests took $(( $(date +%s) - t0 )) s"
echo "sweep: $pass passed, $fail failed"
[ $fail = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
