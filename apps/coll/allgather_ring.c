/* allgather_ring: all-to-all broadcast by a logical ring in each dimension.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7, All-to-All
 *             Broadcast: "In one-port meshes and tori, a generalization of
 *             this method can be used, whereby the nodes forward the
 *             messages around a logical ring in each dimension ... the
 *             message can be wormhole-routed across the mesh ... The
 *             message size increases by a factor of w_i with each
 *             dimension" (the collect phase of scatter-collect, sec. 5).
 * Machines:   a mesh or torus of any number of dimensions.
 * Schedule:   dimensions 0, 1, ... in turn; in dimension i (size w_i) the
 *             nodes of each line form the ring c_i -> c_i + 1 mod w_i (on a
 *             mesh the last node's message to the first is wormhole-routed
 *             back along the line). At the ring's step t = 1..w_i - 1 a
 *             node passes to its successor what it got at step t-1 (its
 *             holding at the start of the dimension when t = 1): the blocks
 *             of the nodes whose coordinate i is c_i - (t-1), equal to its
 *             own above i and anything below i (w_0 ... w_(i-1) blocks).
 * Steps:      sum over i of (w_i - 1). (The survey writes w_i steps per
 *             dimension; a ring of w_i nodes needs w_i - 1.)
 * Start-ups:  sum (w_i - 1) sends per node, one per step.
 * Cost:       sum_i (w_i - 1)(t_s + w_0 ... w_(i-1) l t_f): total
 *             transmission (N-1) l t_f. Contention-free: every message of a
 *             step goes the + way along its own line, except the mesh's
 *             wrap-around message, which goes the - way.
 */
#include "coll.h"

/* The dimension of `step` and the ring step t within it. */
static int dim_of(const struct app_shape *sh, int step, int *t)
{
    *t = 0;
    for (int i = 0; i < sh->ndims; i++) {
        if (step <= sh->dims[i] - 1) {
            *t = step;
            return i;
        }
        step -= sh->dims[i] - 1;
    }
    return -1;
}

static int nsteps(const struct app_shape *sh)
{
    int n = 0;
    for (int i = 0; i < sh->ndims; i++)
        n += sh->dims[i] - 1;
    return n;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int t, i = dim_of(sh, step, &t), below = 1;
    if (i < 0)
        return;
    for (int k = 0; k < i; k++)
        below *= sh->dims[k];
    int origin = shape_along(sh, node, i, -(t - 1));          /* the ring member the blocks entered at */
    int base = origin - origin % below;                  /* its coordinates from i up */
    coll_emit_msg(e, shape_along(sh, node, i, 1));
    for (int low = 0; low < below; low++)
        coll_emit_blk(e, base + low);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int t, i = dim_of(sh, step, &t);
    if (i < 0)
        return 0;
    from[0] = shape_along(sh, node, i, -1);
    return 1;
}

static long msg(const struct app_shape *sh)
{
    int last = sh->ndims - 1;
    while (last > 0 && sh->dims[last] == 1)
        last--;
    return sh->nodes / sh->dims[last];
}
static long all(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_allgather_ring = {
    COLL_FACTS(allgather, ring),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = all,
};
