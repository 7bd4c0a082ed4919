#!/usr/bin/env bash
# The tutorial's test: docs/tutorial.md done as written, in a scratch copy
# of the tree (its tracked and unignored files, and a copy of the build so
# that only what the tutorial changes is rebuilt). Its fenced blocks are
# read by their info strings:
#   ```c file=PATH              the block is the whole of file PATH
#   ```c file=PATH after=TEXT   the block goes in PATH after the first line
#                               holding TEXT (a fixed string, up to the
#                               end of the info string)
#   ```sh                       shell commands: the block runs as one bash
#                               script (set -e), from the copy's top
#   ```text expect              each line must appear in the output of the
#                               sh block before it
# Any other block is illustration. Prints one line per step
# ("  ok    tutorial_step_N  what"), and ends at the first step that fails
# ("  FAIL  tutorial_step_N", what was expected and the output's tail),
# then "tutorial: N passed, N failed"; exit 1 on a failure.
#   tests/tutorial/run.sh [TUTORIAL.md]       (BUILD= the build to copy)
set -u
cd "$(dirname "$0")/../.."
DOC=${1:-docs/tutorial.md}
BUILD=${BUILD:-build}
[ -f "$DOC" ] || { echo "tutorial: no $DOC" >&2; exit 2; }
[ -d "$BUILD" ] || { echo "tutorial: no build in $BUILD; run make first" >&2; exit 2; }
command -v git >/dev/null && git rev-parse --show-toplevel >/dev/null 2>&1 ||
  { echo "tutorial: needs a git tree (it copies the tracked files)" >&2; exit 2; }
TMP=$(mktemp -d /tmp/wormsim-tutorial.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
COPY=$TMP/tree
mkdir -p "$COPY"
git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$COPY" 2>/dev/null
cp -a "$BUILD" "$COPY/build"

steps=0; out=""
fail() {
  echo "  FAIL  tutorial_step_$steps"
  echo "      |     expected: $1"
  [ -f "$2" ] && tail -25 "$2" | sed 's/^/      | /'
  echo "tutorial: $((steps - 1)) passed, 1 failed"
  exit 1
}
ok() { echo "  ok    tutorial_step_$steps  $1"; }

# "-u VAR" for each variable the Makefile takes from its user (USER_VARS).
unset_user_vars() {
  local v
  for v in $(sed -n '/^USER_VARS *=/,/[^\\]$/p' Makefile | sed 's/^USER_VARS *=//; s/\\$//'); do printf -- '-u %s ' "$v"; done
}
# run_sh FILE: a sh block, as one script from the copy's top. timeout
# leads its own process group: whatever the block left running ends with it.
run_sh() {
  out=$TMP/out-$steps
  local pid rc
  # the block sees the environment a user's shell has: none of make's or
  # the Makefile's own variables (BUILD would build outside the copy)
  ( cd "$COPY" && exec env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u BUILD -u V $(unset_user_vars) RUNS_DIR=runs \
      timeout 900 bash -e -o pipefail "$1" ) < /dev/null > "$out" 2>&1 & pid=$!
  wait $pid; rc=$?
  kill -TERM -- -$pid 2>/dev/null
  [ $rc = 0 ] || fail "exit status 0 of: $(grep -v '^#' "$1" | tr '\n' ';' | cut -c1-200) (it was $rc)" "$out"
  ok "$(grep -v '^#' "$1" | head -1 | cut -c1-70)"
}
# check_expect FILE: every line of FILE in the last sh block's output.
check_expect() {
  local line
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    grep -qF -- "$line" "$out" || fail "'$line' in the output" "$out"
  done < "$1"
}
# put_file INFO FILE: a file block (file=PATH [after=TEXT]).
put_file() {
  local path=${1#*file=} after=""
  path=${path%% *}
  case "$1" in *" after="*) after=${1#* after=} ;; esac
  case "$path" in /*|*..*) fail "file=$path to be a path inside the tree" "";; esac
  if [ -z "$after" ]; then
    mkdir -p "$(dirname "$COPY/$path")" && cp "$2" "$COPY/$path"
  else
    grep -qF -- "$after" "$COPY/$path" 2>/dev/null || fail "a line of $path holding '$after'" ""
    # the text through the environment: awk -v would read its backslashes as escapes
    T=$after F=$2 awk '{ print } !done && index($0, ENVIRON["T"]) { while ((getline l < ENVIRON["F"]) > 0) print l; done = 1 }
                       END { exit !done }' "$COPY/$path" > "$TMP/put" || fail "'$after' found by awk in $path" ""
    cp "$TMP/put" "$COPY/$path"
  fi
  ok "$path${after:+ (after '$after')}"
}

block=""; info=""; n=0
while IFS= read -r line || [ -n "$line" ]; do
  if [ -z "$info" ] && [[ $line =~ ^\`\`\`(.*)$ ]]; then
    info=${BASH_REMATCH[1]}; [ -n "$info" ] || info=plain
    n=$((n + 1)); block=$TMP/block-$n; : > "$block"
  elif [ -n "$info" ] && [ "$line" = '```' ]; then
    case "$info" in
      sh) steps=$((steps + 1)); run_sh "$block" ;;
      "text expect") check_expect "$block" ;;
      *file=*) steps=$((steps + 1)); put_file "$info" "$block" ;;
    esac
    info=""
  elif [ -n "$info" ]; then
    printf '%s\n' "$line" >> "$block"
  fi
done < "$DOC"
[ -z "$info" ] || fail "every block of $DOC closed" ""
[ $steps -gt 0 ] || fail "steps in $DOC" ""
echo "tutorial: $steps passed, 0 failed"
