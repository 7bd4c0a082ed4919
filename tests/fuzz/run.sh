#!/usr/bin/env bash
# The router under libFuzzer (tests/fuzz/fuzz_router.c, ASan + UBSan).
#   run.sh                      make test's slice: replay every committed
#                               input (tests/fuzz/corpus), then a short
#                               campaign (FUZZ_TEST_SECONDS, default 60)
#   run.sh --campaign SECONDS   make fuzz: a long campaign on FUZZ_JOBS
#                               processes (default nproc), its corpus kept
#                               in $BUILD/fuzz/corpus between campaigns
# A finding (crash, leak, an input taking over 30 s, out-of-memory, undefined
# behaviour) fails
# the run; its input is kept in $BUILD/fuzz/findings: add it to
# tests/fuzz/corpus once fixed, so every make test replays it.
set -u
cd "$(dirname "$0")/../.."
FUZZ=${FUZZ:-build/fuzz/fuzz_router}
BUILD=${BUILD:-build}
SEEDS=tests/fuzz/corpus
FINDINGS=$BUILD/fuzz/findings
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=1:malloc_context_size=2:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
OPTS=(-timeout=30 -rss_limit_mb=2048 -print_final_stats=1)
mkdir -p "$FINDINGS"
TMP=$(mktemp -d /tmp/wormsim-fuzz.XXXXXX)
# the harness's run directories (one per fuzzing process), on tmpfs
export WORMSIM_FUZZ_DIR; WORMSIM_FUZZ_DIR=$(mktemp -d /dev/shm/wormsim-fuzz-run.XXXXXX)
trap 'rm -rf "$TMP" "$WORMSIM_FUZZ_DIR"' EXIT

[ -x "$FUZZ" ] || { echo "fuzz: $FUZZ is missing; build it with: make $FUZZ"; echo "fuzz: 0 passed, 1 failed"; exit 1; }

stat_of() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }
cov_of() { grep -o 'cov: [0-9]*' "$1" | tail -1 | cut -d' ' -f2; }

if [ "${1:-}" = --campaign ]; then
  secs=${2:-3600}; jobs=${FUZZ_JOBS:-$(nproc)}
  [[ $secs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: --campaign '$secs' is not a number of seconds" >&2; exit 2; }
  [[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: FUZZ_JOBS '$jobs' is not a positive integer" >&2; exit 2; }
  mkdir -p "$BUILD/fuzz/corpus"
  echo "fuzz: $secs s on $jobs processes; corpus $BUILD/fuzz/corpus, findings $FINDINGS"
  fork=(); [ "$jobs" -gt 1 ] && fork=(-fork="$jobs" -ignore_crashes=0)
  "$FUZZ" "${OPTS[@]}" "${fork[@]}" -max_total_time="$secs" -artifact_prefix="$FINDINGS/" \
    "$BUILD/fuzz/corpus" "$SEEDS" 2>&1 | tee "$TMP/log" | grep -E '^#[0-9]+.*(pulse|NEW|DONE|REDUCE)' | awk 'NR % 50 == 1'
  rc=${PIPESTATUS[0]}
  execs=$(grep -oE '^#[0-9]+' "$TMP/log" | tail -1 | tr -d '#')
  echo "fuzz: $execs executions, coverage $(cov_of "$TMP/log") edges, corpus $(ls "$BUILD/fuzz/corpus" | wc -l) inputs, exit $rc"
  [ "$rc" = 0 ] || { grep -E 'ERROR|SUMMARY|artifact' "$TMP/log" | head -20; exit 1; }
  exit 0
fi

pass=0; fail=0
echo "fuzz tests (router under ASan + UBSan)"
# 1. Every committed input, once: each once crashed or hung the router.
if "$FUZZ" "${OPTS[@]}" -runs=0 -artifact_prefix="$FINDINGS/" "$SEEDS" > "$TMP/replay" 2>&1; then
  pass=$((pass + 1)); echo "  ok    replay_committed_corpus ($(ls "$SEEDS" | wc -l) inputs, coverage $(cov_of "$TMP/replay") edges)"
else
  fail=$((fail + 1)); echo "  FAIL  replay_committed_corpus"; grep -E 'ERROR|SUMMARY|artifact|Test unit' "$TMP/replay" | head -20 | sed 's/^/      | /'
fi
# 2. A short campaign from the committed inputs.
secs=${FUZZ_TEST_SECONDS:-60}
mkdir -p "$TMP/corpus"
if "$FUZZ" "${OPTS[@]}" -max_total_time="$secs" -artifact_prefix="$FINDINGS/" "$TMP/corpus" "$SEEDS" > "$TMP/camp" 2>&1; then
  pass=$((pass + 1))
  echo "  ok    campaign_${secs}s ($(stat_of number_of_executed_units "$TMP/camp") executions, coverage $(cov_of "$TMP/camp") edges, no finding)"
else
  fail=$((fail + 1)); echo "  FAIL  campaign_${secs}s"; grep -E 'ERROR|SUMMARY|artifact|Test unit|#0|#1 |#2 ' "$TMP/camp" | head -30 | sed 's/^/      | /'
fi
echo "fuzz: $pass passed, $fail failed"
[ $fail = 0 ]
