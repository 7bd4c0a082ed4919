#!/usr/bin/env bash
# pad-image: put padding into a source tree's node image, for the test
# that no figure depends on anything its run does not execute
# (tests/sweep/run.sh, figures_ignore_other_code).
#
#   tests/sweep/pad-image.sh TREE
#
# In TREE (a copy of this repository) it adds, each run by no stored cell:
#   - an app aaa_pad, first in apps/apps.def, with its own code (a loop),
#     a string of odd length (.rodata), three words (.data) and five
#     bytes (.bss);
#   - an algorithm alltoall_aaa_pad, first in apps/coll/algos.def;
#   - a function pattern_pad at the head of apps/pattern.c, which every
#     collective app links (the pad app calls it, so the linker keeps it).
# Every table, string and function after them moves, by amounts that are
# no multiple of 8. Exit: 0 done, 2 bad use or a tree it cannot edit.
set -u
die() { echo "pad-image: $*" >&2; exit 2; }
case "${1:-}" in
  -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -*) die "unknown option '$1'; usage: tests/sweep/pad-image.sh TREE (or -h, --help)" ;;
  "") die "usage: tests/sweep/pad-image.sh TREE" ;;
esac
T=$1
for f in apps/apps.def apps/coll/algos.def apps/pattern.c; do
  [ -f "$T/$f" ] || die "'$T' has no $f: not a copy of this repository"
done
grep -q '^APP(hello,' "$T/apps/apps.def" || die "$T/apps/apps.def has no APP(hello, line to put the pad before"
grep -q '^COLL_ALGO(' "$T/apps/coll/algos.def" || die "$T/apps/coll/algos.def has no COLL_ALGO line"
grep -q 'aaa_pad' "$T/apps/apps.def" && die "$T is padded already"

sed -i '0,/^APP(hello,/s//APP(aaa_pad,      APP_ANY,  "padding: runs in no test (tests\/sweep\/pad-image.sh)")\nAPP_ARGS(aaa_pad, APP_NO_KEYS)\nAPP(hello,/' \
  "$T/apps/apps.def"
sed -i '0,/^COLL_ALGO(/s//COLL_ALGO(alltoall, aaa_pad, APP_HYPERCUBE_OR_MESH2D_POW2, "padding: the direct algorithm under another name")\nCOLL_ALGO(/' \
  "$T/apps/coll/algos.def"
sed -i '0,/^#include "apps.h"$/s//#include "apps.h"\n\nint pattern_pad(int x);\nint pattern_pad(int x) { return x * 7 + (x >> 3); }/' \
  "$T/apps/pattern.c"
cat > "$T/apps/aaa_pad.c" <<'PAD'
#include "apps.h"

int pattern_pad(int x);
static const char pad_text[] = "an odd-length string";   /* 21 bytes */
int pad_words[3] = { 1, 2, 3 };
char pad_zeros[5];                                         /* .bss */

int app_aaa_pad(void)
{
    volatile int s = 0;
    for (int i = 0; i < 10; i++)
        s += i + pad_text[i] + pad_words[i % 3] + pad_zeros[i % 5]++;
    return pattern_pad(s) == 12345;
}
PAD
cat > "$T/apps/coll/aaa_pad.c" <<'PAD'
#include "coll.h"

const struct coll_algo coll_alltoall_aaa_pad = {
    COLL_FACTS(alltoall, aaa_pad),
    .nsteps = coll_xor_nsteps,
    .sends = coll_xor_sends,
    .senders = coll_xor_senders,
    .max_msg_blocks = coll_xor_msg_blocks,
    .max_hold = coll_xor_held_blocks,
};
PAD
grep -q '^APP(aaa_pad,' "$T/apps/apps.def" && grep -q '^COLL_ALGO(alltoall, aaa_pad,' "$T/apps/coll/algos.def" &&
  grep -q '^int pattern_pad(int x) {' "$T/apps/pattern.c" || die "could not pad $T"
