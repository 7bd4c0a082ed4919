/* allreduce_std_exchange: N/N reduction by the standard exchange
 * (recursive doubling).
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7, after Fig. 25:
 *             "For N/N reduction, every node performs a reduction after
 *             each step and forwards the result in the next step; therefore
 *             the size of the message sent in every step is l. After the
 *             nth step, all nodes will hold the reduced value."
 * Machines:   a hypercube, or any power-of-two p (the pattern is over rank
 *             bits; only on the hypercube are the partners neighbours).
 * Schedule:   step k = 1..n: node i exchanges its partial vector (label 0,
 *             COMBINE) with node i XOR 2^(k-1); after step k it holds the
 *             reduction over the 2^k nodes equal to i on bits k..n-1.
 * Steps:      n = lg p.
 * Start-ups:  lg p sends per node, each of l bytes.
 * Cost:       lg p (t_s + l t_f + combine time); nearest-neighbour on a
 *             hypercube, so the same store-and-forward or wormhole.
 */
#include "reduce.h"

static int nsteps(const struct app_shape *sh) { return ilog2(sh->nodes); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    (void)sh;
    coll_emit_msg(e, node ^ (1 << (step - 1)));
    coll_emit_blk(e, 0);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)sh;
    from[0] = node ^ (1 << (step - 1));
    return 1;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }

const struct coll_algo coll_allreduce_std_exchange = {
    COLL_FACTS(allreduce, std_exchange),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
};
