/* The networks beside the data network (seed 002 section 8, "Support
 * Outside the Data Network"): what the router keeps of them, and their
 * latency models. docs/network.md, "Hardware beside the data network",
 * gives the parameters.
 *
 * Barrier circuits, as the Cray T3D's: NIC_BARRIERS circuits, each an AND
 * tree over one bit per node. A node sets its bit (BARRIER_SET); when
 * every node's bit is set the circuit fires, clears every bit, and wakes
 * the nodes waiting on it (BARRIER_WAIT) by interrupt. It fires
 *     t_last_set + 2 ceil(lg N) barrier_stage_ns
 * (up the tree and back). A node that waits after the circuit fired is
 * answered at once. Setting a bit again without a wait in between, or
 * waiting on a circuit without having set one's bit, is the node's error
 * (rules on its own descriptors, so no host order decides them).
 *
 * The control network, as the CM-5's: a binary tree with the nodes at its
 * leaves that broadcasts, reduces and scans 64-bit values. Every node
 * posts each operation (CTRL); when all have, every node is answered at
 *     t_last_post + 2 ceil(lg N) ctrl_stage_ns
 * with its result. Nodes that post different operations or roots in the
 * same round: once all have posted, the lowest-ranked one that differs
 * from node 0 is in error (a rule on the round, not on the host's order).
 *
 * Fetch-and-increment registers (the T3D's): NIC_FI_REGS in every NIC.
 * They live here; the request and the reply are packets of the data
 * network (engine_hw.c), so they take its latency and contention.
 *
 * Everything here is a function of the descriptors' simulated times
 * only, never of the order the host read them in.
 */
#ifndef HWNET_H
#define HWNET_H

#include <stdint.h>
#include <stddef.h>
#include "machine.h"

struct hwnet_circuit {
    int set;                      /* nodes whose bit is set */
    uint64_t t_last;              /* the latest of their set times */
    uint64_t fired;               /* times it fired */
    uint64_t t_fire;              /* when it fired last */
};

struct hwnet {
    int n, levels;                /* nodes, ceil(lg n) */
    uint64_t bar_ns, ctrl_ns;     /* a whole barrier, a whole control operation, after the last node */
    struct hwnet_circuit bar[NIC_BARRIERS];
    uint64_t *bar_set;            /* [node * NIC_BARRIERS + c]: 1 + the circuit's `fired` when the node
                                     set its bit since; 0: not set */
    int ctrl_posted;              /* nodes in the current control operation */
    uint32_t *ctrl_op, *ctrl_root;/* [node]: what it posted */
    uint64_t ctrl_t_last;
    int64_t *ctrl_val;            /* [node]: its value, then its result */
    uint64_t *fi;                 /* [node * NIC_FI_REGS + reg] */
};

/* -1 if there is no memory. */
int  hwnet_init(struct hwnet *h, int nodes, const struct params *p);
void hwnet_free(struct hwnet *h);

/* Node sets its bit of circuit c at t. 1 if the circuit fired (at
 * h->bar[c].t_fire), 0 if not yet, -1 with the reason in err. */
int hwnet_barrier_set(struct hwnet *h, int node, uint32_t c, uint64_t t, char *err, size_t errlen);
/* Node waits on circuit c at t. 1 with *answer if it fired since the
 * node's set, 0 if the node must wait for it, -1 with the reason in err. */
int hwnet_barrier_wait(struct hwnet *h, int node, uint32_t c, uint64_t t, uint64_t *answer,
                       char *err, size_t errlen);
/* How many nodes have set their bit of circuit c. */
int hwnet_barrier_count(const struct hwnet *h, uint32_t c);

/* Node posts control operation op (enum nic_ctrl: kind | combiner << 8)
 * with root and value at t. 1 if that completed the operation: every
 * node's result is in h->ctrl_val[] and the time in *answer; 0 if others
 * have still to post; -1 with the reason in err if this one is no
 * operation; -2 with it and the node at fault in *culprit once all have
 * posted and one differs from node 0's. */
int hwnet_ctrl(struct hwnet *h, int node, uint32_t op, uint32_t root, int64_t value, uint64_t t,
               uint64_t *answer, int *culprit, char *err, size_t errlen);
/* "REDUCE MAX" ... */
void hwnet_ctrl_name(uint32_t op, char *buf, size_t len);

/* The register's value, then one more. */
uint64_t hwnet_fetch_inc(struct hwnet *h, int node, uint32_t reg);

#endif
