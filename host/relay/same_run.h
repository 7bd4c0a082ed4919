/* What every rank of wormsim-mpi must share: rank 0's machine is the one
 * that runs, and a node host that read other options, parameters, node
 * images or QEMU templates would start nodes unlike the ones the router
 * and summary.json describe. Each rank sums up its run (same_run_note),
 * rank 0's goes to every rank, and a rank whose sum differs refuses the
 * run before any node starts, naming the first item that differs.
 */
#ifndef SAME_RUN_H
#define SAME_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "../fnv.h"            /* the sums: fnv1a from FNV_START */

enum same_item {
    SAME_OPTIONS,           /* the run's command-line words */
    SAME_PARAMS,            /* the network and node parameters, as params.conf */
    SAME_IMAGE_ARM,         /* the node images' loaded bytes and entry (0: no node of that ISA) */
    SAME_IMAGE_RISCV,
    SAME_TEMPLATE_ARM,      /* the QEMU templates' words */
    SAME_TEMPLATE_RISCV,
    SAME_ITEMS
};

#define SAME_SHOWN 512      /* bytes of the options kept to be shown */

struct same_run {
    uint64_t sum[SAME_ITEMS];
    char options[SAME_SHOWN];        /* the words, space-separated (cut short if longer) */
};

/* Item i summed over words (each with its terminating 0). */
void same_words(struct same_run *s, int i, char *const *words, int n);
/* The first item that differs, or -1. */
int same_first_diff(const struct same_run *a, const struct same_run *b);
/* What item i is, for a message ("node image (arm)"). */
const char *same_item_name(int i);

#endif
