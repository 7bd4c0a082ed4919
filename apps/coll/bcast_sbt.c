/* bcast_sbt: broadcast by the spanning binomial tree on a hypercube.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, Figures 6(b)
 *             and 7: "In the first step of the algorithm, the source node
 *             sends the message to its neighbor whose address differs from
 *             its own in the lowest (alternatively highest) bit position.
 *             Next, these two nodes send to their respective neighbors in
 *             the second dimension. This recursive doubling process
 *             continues until, in the last step, half of the nodes in the
 *             network forward the message to the other half through the
 *             highest dimension. This algorithm requires n message-passing
 *             steps to reach all nodes in an n-cube".
 * Machines:   a hypercube of N = 2^n nodes, one-port or all-port.
 * Reading:    the lowest bit first; any root r by symmetry: node i plays
 *             relative address v = i XOR r.
 * Schedule:   step k = 1..n: the nodes with v < 2^(k-1) (they hold the
 *             message) send it to i XOR 2^(k-1).
 * Steps:      n = log2 N; the last node receives at n t_u.
 * Start-ups:  one send per node per step at most; the root sends n times.
 * Cost:       n (t_s + l t_f + t_hop): every message crosses one link, and
 *             the messages of a step cross distinct links of one dimension.
 */
#include "coll.h"

static int nsteps(const struct app_shape *sh) { return ilog2(sh->nodes); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int bit = 1 << (step - 1), v = node ^ sh->cx->root;
    if (v < bit) {
        coll_emit_msg(e, node ^ bit);
        coll_emit_blk(e, 0);
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int bit = 1 << (step - 1), v = node ^ sh->cx->root;
    if (v >= bit && v < 2 * bit) {        /* bit k-1 is v's highest bit */
        from[0] = node ^ bit;
        return 1;
    }
    return 0;
}

static long one(const struct app_shape *sh)
{
    (void)sh;
    return 1;
}

const struct coll_algo coll_bcast_sbt = {
    COLL_FACTS(bcast, sbt),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
};
