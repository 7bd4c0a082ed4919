#!/usr/bin/env bash
# The router and the relay under libFuzzer (tests/fuzz/fuzz_router.c and
# fuzz_relay.c, ASan + UBSan).
#   run.sh                      make test's slice, for each: replay every
#                               committed input (tests/fuzz/corpus,
#                               corpus-relay), then a short campaign
#                               (FUZZ_TEST_SECONDS, default 60, for the
#                               router; FUZZ_RELAY_TEST_SECONDS, default 20)
#   run.sh --campaign SECONDS   make fuzz: a long campaign of each on
#                               FUZZ_JOBS processes (default nproc), SECONDS
#                               for the router and a quarter of it for the
#                               relay; their corpora kept in $BUILD/fuzz/
#                               between campaigns
# A finding (crash, leak, an input taking over 30 s, out-of-memory, undefined
# behaviour) fails
# the run; its input is kept in $BUILD/fuzz/findings: add it to the
# committed corpus once fixed, so every make test replays it.
set -u
cd "$(dirname "$0")/../.."
FUZZ=${FUZZ:-build/fuzz/fuzz_router}
FUZZ_RELAY=${FUZZ_RELAY:-build/fuzz/fuzz_relay}
BUILD=${BUILD:-build}
FINDINGS=$BUILD/fuzz/findings
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=1:malloc_context_size=2:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
OPTS=(-timeout=30 -rss_limit_mb=2048 -print_final_stats=1)
mkdir -p "$FINDINGS"
TMP=$(mktemp -d /tmp/wormsim-fuzz.XXXXXX)
# the harness's run directories (one per fuzzing process), on tmpfs
export WORMSIM_FUZZ_DIR; WORMSIM_FUZZ_DIR=$(mktemp -d /dev/shm/wormsim-fuzz-run.XXXXXX)
trap 'rm -rf "$TMP" "$WORMSIM_FUZZ_DIR"' EXIT

for f in "$FUZZ" "$FUZZ_RELAY"; do
  [ -x "$f" ] || { echo "fuzz: $f is missing; build it with: make $f"; echo "fuzz: 0 passed, 1 failed"; exit 1; }
done
# name, harness, committed corpus, test campaign seconds
targets=("router $FUZZ tests/fuzz/corpus ${FUZZ_TEST_SECONDS:-60}"
         "relay $FUZZ_RELAY tests/fuzz/corpus-relay ${FUZZ_RELAY_TEST_SECONDS:-20}")

stat_of() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }
cov_of() { grep -o 'cov: [0-9]*' "$1" | tail -1 | cut -d' ' -f2; }

if [ "${1:-}" = --campaign ]; then
  secs=${2:-3600}; jobs=${FUZZ_JOBS:-$(nproc)}
  [[ $secs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: --campaign '$secs' is not a number of seconds" >&2; exit 2; }
  [[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: FUZZ_JOBS '$jobs' is not a positive integer" >&2; exit 2; }
  rc_all=0; total=0
  for t in "${targets[@]}"; do
    read -r name bin seeds _ <<< "$t"
    s=$secs; [ $name = relay ] && s=$(( secs / 4 > 0 ? secs / 4 : 1 ))
    corpus=$BUILD/fuzz/corpus-$name; mkdir -p "$corpus"
    echo "fuzz: $name, $s s on $jobs processes; corpus $corpus, findings $FINDINGS"
    fork=(); [ "$jobs" -gt 1 ] && fork=(-fork="$jobs" -ignore_crashes=0)
    "$bin" "${OPTS[@]}" "${fork[@]}" -max_total_time="$s" -artifact_prefix="$FINDINGS/" "$corpus" "$seeds" 2>&1 |
      tee "$TMP/log" | grep -E '^#[0-9]+.*(pulse|NEW|DONE|REDUCE)' | awk 'NR % 50 == 1'
    rc=${PIPESTATUS[0]}
    execs=$(grep -oE '^#[0-9]+' "$TMP/log" | tail -1 | tr -d '#')
    total=$((total + ${execs:-0}))
    echo "fuzz: $name: $execs executions, coverage $(cov_of "$TMP/log") edges, corpus $(ls "$corpus" | wc -l) inputs, exit $rc"
    [ "$rc" = 0 ] || { grep -E 'ERROR|SUMMARY|artifact' "$TMP/log" | head -20; rc_all=1; }
  done
  echo "fuzz: $total executions in all"
  exit $rc_all
fi

pass=0; fail=0
echo "fuzz tests (router and relay under ASan + UBSan)"
for t in "${targets[@]}"; do
  read -r name bin seeds secs <<< "$t"
  # 1. Every committed input, once: each once crashed or hung the harness, or widened its coverage.
  if "$bin" "${OPTS[@]}" -runs=0 -artifact_prefix="$FINDINGS/" "$seeds" > "$TMP/replay" 2>&1; then
    pass=$((pass + 1)); echo "  ok    ${name}_replays_committed_corpus ($(ls "$seeds" | wc -l) inputs, coverage $(cov_of "$TMP/replay") edges)"
  else
    fail=$((fail + 1)); echo "  FAIL  ${name}_replays_committed_corpus"; grep -E 'ERROR|SUMMARY|artifact|Test unit' "$TMP/replay" | head -20 | sed 's/^/      | /'
  fi
  # 2. A short campaign from the committed inputs.
  rm -rf "$TMP/corpus"; mkdir -p "$TMP/corpus"
  if "$bin" "${OPTS[@]}" -max_total_time="$secs" -artifact_prefix="$FINDINGS/" "$TMP/corpus" "$seeds" > "$TMP/camp" 2>&1; then
    pass=$((pass + 1))
    echo "  ok    ${name}_campaign_${secs}s ($(stat_of number_of_executed_units "$TMP/camp") executions, coverage $(cov_of "$TMP/camp") edges, no finding)"
  else
    fail=$((fail + 1)); echo "  FAIL  ${name}_campaign_${secs}s"; grep -E 'ERROR|SUMMARY|artifact|Test unit|#0|#1 |#2 ' "$TMP/camp" | head -30 | sed 's/^/      | /'
  fi
done
echo "fuzz: $pass passed, $fail failed"
[ $fail = 0 ]
