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

/* In a node's process before it execs its QEMU: mergeable, and no address
 * randomisation. -1 with errno if the kernel refused. */
int merge_child(void);

#endif
