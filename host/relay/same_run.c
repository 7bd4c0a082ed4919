/* The sum of a rank's run (same_run.h). */
#include <string.h>
#include "same_run.h"

void same_words(struct same_run *s, int i, char *const *words, int n)
{
    uint64_t h = FNV_START;
    for (int k = 0; k < n; k++)
        h = fnv1a(h, words[k], strlen(words[k]) + 1);
    s->sum[i] = h;
    if (i != SAME_OPTIONS)
        return;
    size_t o = 0;
    s->options[0] = 0;
    for (int k = 0; k < n && o + 1 < sizeof s->options; k++) {
        size_t len = strlen(words[k]), room = sizeof s->options - o - 1 - (k > 0);
        if (k)
            s->options[o++] = ' ';
        memcpy(s->options + o, words[k], len < room ? len : room);
        o += len < room ? len : room;
        s->options[o] = 0;
    }
}

int same_first_diff(const struct same_run *a, const struct same_run *b)
{
    for (int i = 0; i < SAME_ITEMS; i++)
        if (a->sum[i] != b->sum[i])
            return i;
    return -1;
}

const char *same_item_name(int i)
{
    static const char *const name[SAME_ITEMS] = {
        [SAME_OPTIONS] = "options", [SAME_PARAMS] = "parameters (--preset, --set)",
        [SAME_IMAGE_ARM] = "ARM node image", [SAME_IMAGE_RISCV] = "RISC-V node image",
        [SAME_TEMPLATE_ARM] = "ARM QEMU template", [SAME_TEMPLATE_RISCV] = "RISC-V QEMU template",
    };
    return i >= 0 && i < SAME_ITEMS ? name[i] : "?";
}
