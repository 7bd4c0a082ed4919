#!/usr/bin/env bash
# node-code-diff: the node functions whose instructions differ between a
# git revision's node images and the current build's. A node's simulated
# time counts the instructions it retires, so a change to node code (a
# refactor, a function moved to another file) leaves every stored result
# valid only if no function differs; otherwise the stored results must be
# regenerated (make reproduce) before the change lands.
#
#   experiments/node-code-diff.sh [REV]     (default HEAD; run make first)
#
# It builds REV's node images (make nodes) in a temporary worktree, then
# compares each function of each ISA's image, instruction by instruction,
# with numbers and register names masked: code that only moved has other
# addresses and offsets, not other instructions (and RISC-V's addi of a
# PC-relative address, printed as mv when its offset is 0, is still addi).
# Prints "same" or the differing functions. Exit: 0 same, 1 some differ, 2
# bad use or a build that failed.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
REV=${1:-HEAD}
die() { echo "node-code-diff: $*" >&2; exit 2; }
. "$HERE/experiments/usage.sh"
case "$REV" in
  -h|--help) usage; exit 0 ;;
  -*) die "unknown option '$REV'; usage: experiments/node-code-diff.sh [REV] (or -h, --help)" ;;
esac
[ $# -le 1 ] || die "one revision at most (got $#: $*)"
git -C "$HERE" rev-parse --verify -q "$REV^{commit}" >/dev/null || die "'$REV' is not a revision of this repository"
declare -A OBJDUMP=([arm]=arm-none-eabi-objdump [riscv]=riscv64-unknown-elf-objdump)
for a in arm riscv; do
  [ -f "$HERE/build/$a/node.elf" ] || die "build/$a/node.elf is missing: run make first"
  command -v "${OBJDUMP[$a]}" >/dev/null || die "${OBJDUMP[$a]} is missing (tests/check-deps.sh all)"
done

TMP=$(mktemp -d /tmp/wormsim-codediff.XXXXXX)
cleanup() { git -C "$HERE" worktree remove --force "$TMP/tree" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
git -C "$HERE" worktree add -q --detach "$TMP/tree" "$REV" 2>"$TMP/err" || die "cannot check out $REV: $(cat "$TMP/err")"
make -C "$TMP/tree" -s nodes >"$TMP/build.log" 2>&1 || { tail -5 "$TMP/build.log" >&2; die "$REV's node images do not build"; }

# fns OBJDUMP ELF DIR: one file per function, its instructions masked;
# only the function's own bytes (nm -S), not the padding after it
fns() {
  mkdir -p "$3"
  "${1%objdump}nm" -S --defined-only "$2" | awk 'NF == 4 { print $4, $1, $2 }' > "$3.sizes"
  "$1" -d --no-show-raw-insn "$2" | awk -v out="$3" -v sizes="$3.sizes" '
    function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    BEGIN { while ((getline l < sizes) > 0) { split(l, w, " "); sz[w[1]] = hex(w[3]) } }
    /^[0-9a-f]+ <.*>:$/ { name = $2; gsub(/[<>:]/, "", name); f = out "/" name
                          end = (name in sz) ? hex($1) + sz[name] : -1; next }
    /^ *[0-9a-f]+:\t/ && f != "" { a = $1; sub(/:$/, "", a); if (end >= 0 && hex(a) >= end) next
        sub(/^ *[0-9a-f]+:\t/, ""); gsub(/<[^>]*>/, ""); sub(/[@;#] .*/, "")
        gsub(/[-A-Za-z_.]*[0-9][-0-9A-Za-z_.]*/, "N"); gsub(/[ \t]+$/, "")
        sub(/^mv\tN,N$/, "add\tN,N,N")   # RISC-V addi rd,rs,0 prints as mv: the same instruction
        print > f }'
}
rc=0
for a in arm riscv; do
  fns "${OBJDUMP[$a]}" "$TMP/tree/build/$a/node.elf" "$TMP/old-$a"
  fns "${OBJDUMP[$a]}" "$HERE/build/$a/node.elf" "$TMP/new-$a"
  d=$(diff -rq "$TMP/old-$a" "$TMP/new-$a" | sed -E "s|^Files $TMP/old-$a/([^ ]*) and .* differ$|\1|;
                                                   s|^Only in $TMP/old-$a: (.*)|\1 (only in $REV)|;
                                                   s|^Only in $TMP/new-$a: (.*)|\1 (only in the build)|" | sort)
  if [ -n "$d" ]; then
    rc=1; echo "$a: $(echo "$d" | wc -l) functions differ from $REV's:"; echo "$d" | sed 's/^/  /'
  fi
done
[ $rc = 0 ] && echo "same: every node function's instructions are $REV's, on arm and riscv"
exit $rc
