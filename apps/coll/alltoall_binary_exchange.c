/* alltoall_binary_exchange: complete exchange by the binary exchange
 * algorithm for 2D meshes.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7, Complete
 *             Exchange, Figure 27 and Table 2 (after Gupta, Hawkinson and
 *             Baxter [24, 25]).
 * Machines:   a 2D mesh of 2^d x 2^d nodes (N = 4^d).
 * Schedule:   the standard exchange with the mesh halved alternately in X
 *             and Y: phase 1 pairs each node with the corresponding node
 *             of the other half of a vertical division (x XOR 2^(d-1)),
 *             phase 2 of a horizontal one (y XOR 2^(d-1)), phase 3
 *             x XOR 2^(d-2) inside the quarters, and so on down to x XOR 1
 *             and y XOR 1. Each node sends the N/2 blocks it holds for the
 *             other side and rearranges what it keeps. All pairs share a
 *             row or a column.
 *             Invariant before phase k: node i holds (s, d) with s equal
 *             to i outside the rank bits of phases 1..k-1 and d equal to i
 *             on them (N blocks).
 * Steps:      2d = log2 N phases.
 * Start-ups:  log2 N sends per node; N/2 blocks per message.
 * Cost:       log2 N (t_s + (N/2) l t_f) without contention. A phase
 *             between nodes 2^b apart has 2^b messages on the channel that
 *             crosses the middle of each 2^(b+1)-wide group: the "actual
 *             number of message-passing steps" the paper labels each phase
 *             with (8 x 8: 4, 4, 2, 2, 1, 1). tests/unit/test_sched.c
 *             checks these loads.
 */
#include "coll.h"

/* The rank bit exchanged at step k: x bits are 0..d-1, y bits d..2d-1. */
static int step_bit(const struct app_shape *sh, int step)
{
    int d = ilog2(sh->dims[0]), level = (step - 1) / 2;
    return (step - 1) % 2 == 0 ? d - 1 - level : 2 * d - 1 - level;
}

static int nsteps(const struct app_shape *sh) { return ilog2(sh->nodes); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int p = sh->nodes, done = 0;
    for (int k = 1; k < step; k++)
        done |= 1 << step_bit(sh, k);
    int bit = 1 << step_bit(sh, step);
    coll_emit_masked(e, node ^ bit, p, node & ~done, done,
                     (node & done) | ((node ^ bit) & bit), (p - 1) & ~done & ~bit);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = node ^ (1 << step_bit(sh, step));
    return 1;
}

static long half(const struct app_shape *sh) { return sh->nodes / 2; }
static long hold(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_alltoall_binary_exchange = {
    COLL_FACTS(alltoall, binary_exchange),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = half,
    .max_hold = hold,
};
