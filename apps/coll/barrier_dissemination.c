/* barrier_dissemination: the dissemination barrier.
 *
 * Source:     Hensgen, Finkel and Manber (1988), "Two algorithms for
 *             barrier synchronization", the standard dissemination barrier;
 *             offered beside the tree barrier of McKinley, Tsai and Robinson
 *             (1994), whose Fig. 10(c) shows the tree one
 *             (apps/coll/barrier_tree.c).
 * Machines:   any p.
 * Schedule:   round k = 1..ceil(lg p): node i sends its token (label 0,
 *             COMBINE) to node (i + 2^(k-1)) mod p and receives from node
 *             (i - 2^(k-1)) mod p. After round k node i's token depends on
 *             nodes i - 2^k + 1 .. i (mod p), so after ceil(lg p) rounds on
 *             every node.
 * Steps:      ceil(lg p).
 * Start-ups:  ceil(lg p) empty messages per node, one a round.
 * Cost:       ceil(lg p) t_s, half the tree barrier's steps.
 */
#include "reduce.h"

static int nsteps(const struct app_shape *sh) { return red_ceil_lg(sh->nodes); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    coll_emit_msg(e, (node + (1 << (step - 1))) % sh->nodes);
    coll_emit_blk(e, 0);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int p = sh->nodes;
    from[0] = ((node - (1 << (step - 1))) % p + p) % p;
    return 1;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }

const struct coll_algo coll_barrier_dissemination = {
    COLL_FACTS(barrier, dissemination),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
};
