/* mcast_ucube: multicast by the U-cube algorithm on a one-port hypercube.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 5,
 *             "Contention-Free Multicast", Figures 13-15: "A sequence d_1,
 *             ..., d_(m-1) of hypercube addresses is called a d_0-relative
 *             dimension-ordered chain if and only if d_0 XOR d_1, ..., d_0
 *             XOR d_(m-1) is a dimension-ordered chain. The source can
 *             easily sort the m - 1 destinations into a d_0-relative
 *             dimension-ordered chain ... then execute the chain algorithm".
 * Machines:   a hypercube (e-cube routing, lowest differing bit first).
 * Reading:    dimension order compares addresses on the first-routed
 *             dimension first; under e-cube (bit 0 first) that is the order
 *             of the bit-reversed addresses, so the chain is the source
 *             followed by the destinations sorted by bitrev(d XOR source).
 *             The chain algorithm
 *             (apps/coll/ucast.h): the holder of each chain interval,
 *             always its first node, sends to the first node of the upper
 *             half; both halves go on in parallel.
 * Schedule:   level t = 1..ceil(log2(m+1)) of the chain's halving; nodes
 *             outside the set and the source take no part (their routers
 *             only pass worms on).
 * Steps:      ceil(log2(m + 1)) for m destinations; ceil(log2 N) = n for a
 *             broadcast (set=all), where it is the spanning binomial tree
 *             (the first message crosses dimension 0, the last dimension
 *             n-1: bcast_sbt's tree).
 * Start-ups:  one message per step at most; the source sends
 *             ceil(log2(m+1)).
 * Cost:       ceil(log2(m+1)) (t_s + l t_f + D t_hop); the messages of a
 *             step are in disjoint intervals of a dimension-ordered chain
 *             (u < v < x < y, Figure 14(a)), hence arc-disjoint: no channel
 *             contention.
 */
#include "ucast.h"

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    ucast_sends(sh, UCAST_CUBE, node, step, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    return ucast_senders(sh, UCAST_CUBE, node, step, from);
}

const struct coll_algo coll_mcast_ucube = {
    COLL_FACTS(mcast, ucube),
    .nsteps = ucast_nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = ucast_one,
    .max_hold = ucast_one,
};
