/* mcast_utorus: multicast by the U-torus algorithm on a one-port torus.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 5,
 *             "Contention-Free Multicast", Figures 17 and 18 (after
 *             Robinson, McKinley and Cheng [18]): "The source x_s and
 *             destinations are sorted into a dimension-ordered chain ...
 *             Next, the chain is 'rotated' so that x_s becomes the first
 *             element ... called an R-chain with respect to x_s. The
 *             U-torus algorithm takes an R-chain as input and uses the
 *             recursive doubling algorithm described earlier."
 * Machines:   a torus of any number of dimensions (dimension order,
 *             shorter way round, ties +; two dateline VC classes).
 * Reading:    dimension order compares coordinates on dimension 0 first
 *             (apps/coll/ucast.h); the R-chain is that chain of the source
 *             and destinations rotated to start at the source. The chain algorithm on it: the holder
 *             of each interval, its first node, sends to the first node of
 *             the upper half (apps/coll/ucast.h).
 * Schedule:   level t = 1..ceil(log2(m+1)) of the halving; nodes outside the
 *             set take no part.
 * Steps:      ceil(log2(m + 1)) for m destinations; ceil(log2 N) for a
 *             broadcast (set=all).
 * Start-ups:  one message per node per step at most.
 * Cost:       ceil(log2(m+1)) (t_s + l t_f + D t_hop). Contention-free
 *             as Robinson et al. claim it, "by exploiting ... the use of
 *             virtual channels": two messages of a step may cross one
 *             link the same way, one before and one after the wrap link of
 *             that dimension, hence on different dateline classes of
 *             virtual channels (Figure 18); no (channel, class) carries two.
 *             tests/unit/test_bcast_trees.c checks it for the bidirectional
 *             shorter-way routing of this network (docs/network.md).
 */
#include "ucast.h"

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    ucast_sends(sh, UCAST_RCHAIN, node, step, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    return ucast_senders(sh, UCAST_RCHAIN, node, step, from);
}

const struct coll_algo coll_mcast_utorus = {
    COLL_FACTS(mcast, utorus),
    .nsteps = ucast_nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = ucast_one,
    .max_hold = ucast_one,
};
