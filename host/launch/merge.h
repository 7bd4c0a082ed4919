/* Nodes that share their identical pages: the kernel's samepage merging
 * (KSM, Linux Documentation/admin-guide/mm/ksm.rst), asked for with
 * wormsim --merge-pages.
 *
 * The QEMUs of one machine run one binary on one board, so most of a
 * QEMU's own memory (its heap of device objects, its relocated data) is
 * the same bytes in every node, once the addresses are the same: a node
 * so started is mergeable as a whole process (prctl PR_SET_MEMORY_MERGE,
 * kept across exec since Linux 6.7) and has no address randomisation.
 * ksmd then merges what is equal, some time after it was written. Guest
 * RAM is shared memory (@RAM@), which the kernel never merges. Nothing a
 * node computes depends on it: the node clock counts instructions. */
#ifndef MERGE_H
#define MERGE_H

#include <stddef.h>

/* 0 if this host can merge a node's pages: ksmd runs
 * (/sys/kernel/mm/ksm/run is 1) and the kernel merges whole processes.
 * Else -1 and what to do, in err. */
int merge_check(char *err, size_t errlen);

/* The passes ksmd has made over the mergeable pages
 * (/sys/kernel/mm/ksm/full_scans), or -1. A page is merged only once a
 * pass found it unchanged since the one before (ksm.rst): a start that
 * waits for merging waits two passes, whatever their length. */
long long merge_full_scans(void);

/* In a node's process before it execs its QEMU: mergeable, and no address
 * randomisation. -1 with errno if the kernel refused. */
int merge_child(void);

/* A paced start of merged nodes (run/start.c, wait_for_merging), in bytes. */
struct merge_pace {
    unsigned long long available;    /* the host's (MemAvailable); 0: unknown */
    unsigned long long rest_whole;   /* the nodes still to start, this one included, unmerged */
    unsigned long long rest_merged;  /* the same nodes merged, and this one's difference to whole */
    unsigned long long booting_extra;   /* what the nodes booting hold beyond merged */
    unsigned long long later;        /* what the nodes started take when the run runs */
    unsigned long long slack;        /* kept free */
    int booting, booting_max;        /* nodes booting now, and at most at once */
};

/* 1 if the next node may start: the host could hold the nodes still to
 * start and those booting whole, what the started ones take later and
 * the slack (or its memory is unknown); or fewer than booting_max boot
 * and it holds them merged with the same terms. *want: the figure of the
 * second rule. */
int merge_may_start(const struct merge_pace *p, unsigned long long *want);

#endif
