/* bcast_rd: broadcast by recursive doubling in one dimension after the
 * other on a one-port mesh or torus (Barnett et al.).
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 5, "Dimensional
 *             Broadcast Tree Approach", Figures 11 and 12 (after Barnett et
 *             al. [17]): "In the first message-passing step, the source node
 *             sends the message halfway across the linear array,
 *             partitioning the network into two subnetworks. In subsequent
 *             steps, each node holding a copy of the message forwards it to
 *             a node in its partition that has not yet received the message
 *             ... generalized to higher-dimensional meshes by applying the
 *             above procedure to one dimension at a time ... the source
 *             node need not be positioned at the end or corner ... this
 *             algorithm requires sum_i ceil(log w_i) message-passing steps".
 * Machines:   a mesh or torus of any number of dimensions and widths.
 * Reading:    dimensions 0, 1, ... in turn. In dimension i the holders are
 *             the nodes equal to the root in every dimension above i; each
 *             runs recursive doubling on its line. The line is an interval
 *             of positions: on a mesh the coordinates 0..w-1 with the
 *             source where it stands, on a torus the offsets (c - c_root)
 *             mod w, the source at 0. An interval [lo, hi] of L >= 2 nodes
 *             is cut into [lo, lo + ceil(L/2) - 1] and the rest; its holder
 *             sends to the node of the other half at its own offset within
 *             its half (clamped to that half's size) - from the left end,
 *             halfway across, as in Figure 11 - which becomes that half's
 *             holder. ceil(log2 w) levels per line.
 * Schedule:   step = the steps of dimensions 0..i-1 + t, t = 1..ceil(log2
 *             w_i): level t of every line of dimension i at once.
 * Steps:      sum over i of ceil(log2 w_i) (>= ceil(log2 N), equal when the
 *             widths are powers of two; U-mesh and U-torus reach the bound
 *             for any widths).
 * Start-ups:  one message per node per step at most.
 * Cost:       sum_i ceil(log2 w_i) (t_s + l t_f + D t_hop). The messages of
 *             a step lie in disjoint intervals of lines (on a torus, an
 *             interval below the first level spans at most ceil(w/2)
 *             positions, so its worms go the direct way and stay in it):
 *             no channel contention.
 */
#include "coll.h"

static int clog2(int x)
{
    int k = 0;
    while ((1 << k) < x)
        k++;
    return k;
}

static int nsteps(const struct app_shape *sh)
{
    int t = 0;
    for (int i = 0; i < sh->ndims; i++)
        t += clog2(sh->dims[i]);
    return t;
}

/* The dimension of `step` and the level t within it (-1 if none). */
static int dim_of(const struct app_shape *sh, int step, int *t)
{
    for (int i = 0; i < sh->ndims; i++) {
        int l = clog2(sh->dims[i]);
        if (step <= l) {
            *t = step;
            return i;
        }
        step -= l;
    }
    return -1;
}

/* Level t on a line of w positions whose source is at position src: +1 if
 * position me sends to *peer at level t, -1 if it receives from *peer. */
static int line_step(int w, int src, int me, int t, int *peer)
{
    int lo = 0, hi = w - 1, h = src;
    for (int l = 1; lo < hi; l++) {
        int mid = lo + (hi - lo + 2) / 2, to;
        if (h < mid) {
            int off = h - lo, size = hi - mid + 1;
            to = mid + (off < size ? off : size - 1);
        } else {
            to = lo + (h - mid);             /* the lower half is never smaller */
        }
        if (l == t) {
            if (me == h) {
                *peer = to;
                return 1;
            }
            if (me == to) {
                *peer = h;
                return -1;
            }
            return 0;
        }
        if ((me < mid) != (h < mid))
            h = to;
        if (me < mid)
            hi = mid - 1;
        else
            lo = mid;
    }
    return 0;
}

/* Node's line position in dimension i, the source's, and back. */
static int pos_of(const struct app_shape *sh, int c, int s, int w)
{
    return sh->topo == TOPO_TORUS ? ((c - s) % w + w) % w : c;
}

static int coord_of(const struct app_shape *sh, int pos, int s, int w)
{
    return sh->topo == TOPO_TORUS ? (pos + s) % w : pos;
}

/* +1: node sends to *peer at step; -1: receives from *peer; 0: neither. */
static int act(const struct app_shape *sh, int node, int step, int *peer)
{
    int t, i = dim_of(sh, step, &t), c[SHAPE_MAX_DIMS], r[SHAPE_MAX_DIMS];
    if (i < 0)
        return 0;
    shape_coords(sh, node, c);
    shape_coords(sh, sh->cx->root, r);
    for (int k = i + 1; k < sh->ndims; k++)
        if (c[k] != r[k])
            return 0;                        /* its line is not reached yet */
    int w = sh->dims[i], p, dir = line_step(w, pos_of(sh, r[i], r[i], w), pos_of(sh, c[i], r[i], w), t, &p);
    if (dir) {
        c[i] = coord_of(sh, p, r[i], w);
        *peer = shape_rank(sh, c);
    }
    return dir;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int peer;
    if (act(sh, node, step, &peer) > 0) {
        coll_emit_msg(e, peer);
        coll_emit_blk(e, 0);
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    return act(sh, node, step, &from[0]) < 0 ? 1 : 0;
}

static long one(const struct app_shape *sh)
{
    (void)sh;
    return 1;
}

const struct coll_algo coll_bcast_rd = {
    COLL_FACTS(bcast, rd),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
};
