/* mcast_umesh: multicast by the U-mesh algorithm on a one-port mesh.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 5,
 *             "Contention-Free Multicast", Figures 14 and 16: "the source
 *             and destination addresses are sorted into a dimension-ordered
 *             chain. The source node successively divides the chain in
 *             half. If the source is in the lower half, then it sends a
 *             copy of the message to the smallest node in the upper half
 *             ... If the source is in the upper half, then it sends a copy
 *             of the message to the largest node in the lower half. The
 *             source continues this procedure until the chain contains only
 *             its own address."
 * Machines:   a mesh of any number of dimensions (dimension-order routing,
 *             dimension 0 first).
 * Reading:    dimension order compares coordinates on dimension 0 (routed
 *             first) first, then 1, ... (a column-wise listing in 2D; not
 *             the rank order): apps/coll/ucast.h says why.
 *             Every node that receives becomes the holder of its half,
 *             standing at one end of it, and applies the same rule: from
 *             the low end it sends to the smallest node of the upper half
 *             (the chain algorithm), from the high end to the largest of
 *             the lower half. Halves: the lower gets ceil(L/2) of L nodes.
 * Schedule:   level t = 1..ceil(log2(m+1)) of the halving
 *             (apps/coll/ucast.h); nodes outside the set take no part.
 * Steps:      ceil(log2(m + 1)) for m destinations; ceil(log2 N) for a
 *             broadcast (set=all), whatever the widths.
 * Start-ups:  one message per node per step at most.
 * Cost:       ceil(log2(m+1)) (t_s + l t_f + D t_hop); the messages of one
 *             step join nodes of disjoint chain intervals (Figure 14(a)-(c)),
 *             so they share no channel.
 */
#include "ucast.h"

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    ucast_sends(sh, UCAST_MESH, node, step, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    return ucast_senders(sh, UCAST_MESH, node, step, from);
}

const struct coll_algo coll_mcast_umesh = {
    COLL_FACTS(mcast, umesh),
    .nsteps = ucast_nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = ucast_one,
    .max_hold = ucast_one,
};
