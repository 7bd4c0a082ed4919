/* alltoall_std_exchange: complete exchange by the standard exchange
 * algorithm for hypercubes.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7, Complete
 *             Exchange, Figure 25 (after Johnsson and Ho [14]).
 * Machines:   a hypercube of N = 2^n nodes.
 * Schedule:   step k = 1..n: node i sends to node i XOR 2^(k-1) all the
 *             blocks it holds that are destined for the subcube on the
 *             other side of bit k-1 (N/2 blocks), and receives as many.
 *             Invariant before step k: node i holds the blocks (s, d) with
 *             s equal to i on bits k-1..n-1 and d equal to i on bits
 *             0..k-2 (N blocks). After step n it holds exactly (s, i) for
 *             every s. The blocks of a message are gathered from where the
 *             node keeps them and scattered on arrival: the local
 *             rearrangement between steps.
 * Steps:      n = log2 N, all between neighbours.
 * Start-ups:  n sends per node; N/2 blocks per message.
 * Cost:       n (t_s + (N/2) l t_f), plus the rearrangement.
 */
#include "coll.h"

static int nsteps(const struct app_shape *sh) { return ilog2(sh->nodes); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int p = sh->nodes, bit = 1 << (step - 1), done = bit - 1;   /* bits 0..step-2 */
    coll_emit_masked(e, node ^ bit, p, node & ~done, done,
                     (node & done) | ((node ^ bit) & bit), (p - 1) & ~done & ~bit);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)sh;
    from[0] = node ^ (1 << (step - 1));
    return 1;
}

static long half(const struct app_shape *sh) { return sh->nodes / 2; }
static long hold(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_alltoall_std_exchange = {
    COLL_FACTS(alltoall, std_exchange),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = half,
    .max_hold = hold,
};
