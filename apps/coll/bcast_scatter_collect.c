/* bcast_scatter_collect: broadcast of a long message by a scatter of its p
 * segments followed by a collect (all-to-all broadcast) of them.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 5, Message
 *             Partitioning Approaches to Broadcast (after Barnett et al.
 *             [19]): "the source node partitions the message and performs
 *             a scatter operation across its row, with each node receiving
 *             a particular segment of the message (... the approach in
 *             Figure 10, which would require 3 steps to reach 8 nodes).
 *             Next, each node in the row of the source performs a scatter
 *             in its column. Finally, every node collects the remaining
 *             segments ... collecting in rows and then in columns ... the
 *             nodes in each row form a logical ring ... This algorithm
 *             avoids channel contention." Section 7 names the collect the
 *             all-to-all broadcast by rings, "w_i steps in each dimension".
 * Machines:   a mesh or torus of any number of dimensions (the survey shows
 *             the 2D mesh; one dimension after the other generalises it,
 *             as the survey does for the collect). Any root.
 * Reading:    segments = p; segment k (label k) is the one node k receives
 *             in the scatter and relays in the collect. The scatter goes
 *             dimension by dimension, 0 (the row) first: in dimension i the
 *             nodes that hold segments (those agreeing with the root on
 *             coordinates i, i+1, ...) each scatter along their line by
 *             recursive halving (Figure 10(a)): a line interval [lo, hi)
 *             with its holder h is cut into [lo, mid) and [mid, hi),
 *             mid = lo + ceil((hi-lo)/2); h sends the segments of the half
 *             it is not in to the end of that half nearest to it, and both
 *             go on with their halves. A segment of node k goes to the node
 *             whose coordinates 0..i equal k's. Positions on a line are the
 *             coordinates on a mesh, the offsets from the root's coordinate
 *             (mod w_i) on a torus, so every message stays inside its
 *             interval and goes the short (+) way. Scatter messages MOVE
 *             their segments (a scatter: the sender keeps none of them), so
 *             after the scatter node k holds segment k alone, the root
 *             included. The collect is allgather_ring: dimension 0, 1, ...
 *             each a ring c -> c+1 mod w_i, w_i - 1 steps.
 * Steps:      sum_i ceil(log2 w_i)  +  sum_i (w_i - 1).
 *             (The survey's "w_i steps per dimension" counts one more per
 *             ring than needed.)
 * Start-ups:  the root sends sum_i ceil(log2 w_i) messages in the scatter;
 *             every node sends sum_i (w_i - 1) in the collect.
 * Cost:       with segments of l/p bytes, scatter: each step halves the
 *             data, the root sends (p-1) l/p bytes in all; collect: node
 *             sends (p - 1) l/p bytes; time about
 *             (sum_i ceil(log2 w_i) + sum_i (w_i - 1)) t_s + 2 l t_f.
 *             Contention-free: scatter messages stay inside disjoint line
 *             intervals; ring messages use one channel of their line each.
 */
#include <stdio.h>
#include "coll.h"

extern const struct coll_algo coll_allgather_ring;

static int log2c(int w)
{
    int s = 0;
    while ((1 << s) < w)
        s++;
    return s;
}

static int scatter_steps(const struct app_shape *sh)
{
    int n = 0;
    for (int i = 0; i < sh->ndims; i++)
        n += log2c(sh->dims[i]);
    return n;
}

static int nsteps(const struct app_shape *sh)
{
    return scatter_steps(sh) + coll_allgather_ring.nsteps(sh);
}

/* The dimension of scatter step `step` and the halving round r within it. */
static int scatter_dim(const struct app_shape *sh, int step, int *r)
{
    for (int i = 0; i < sh->ndims; i++) {
        int s = log2c(sh->dims[i]);
        if (step <= s) {
            *r = step;
            return i;
        }
        step -= s;
    }
    return -1;
}

/* Position of coordinate c on a line of dimension i (root coordinate rc). */
static int pos_of(const struct app_shape *sh, int i, int c, int rc)
{
    return sh->topo == TOPO_TORUS ? (c - rc + sh->dims[i]) % sh->dims[i] : c;
}
static int coord_of(const struct app_shape *sh, int i, int pos, int rc)
{
    return sh->topo == TOPO_TORUS ? (pos + rc) % sh->dims[i] : pos;
}

/* The halving of one line in dimension i at round r: the interval of the
 * node at position `pos` and whether it sends at round r; fills the
 * interval [*lo, *hi) it sends to and the destination position. The holder
 * of every interval starts at the root's position; after a round, the
 * holder's half keeps the holder, the other half's holder is its end
 * nearest to the holder. Returns 1 if `pos` sends at round r. */
static int halving(int w, int hpos, int r, int pos, int *lo, int *hi, int *dst)
{
    int a = 0, b = w, h = hpos;                 /* interval containing pos, its holder */
    for (int t = 1; t <= r; t++) {
        if (b - a <= 1)
            return 0;
        int mid = a + (b - a + 1) / 2;
        int hl = h < mid;                       /* holder in the lower half */
        int pl = pos < mid;
        int nh = hl ? mid : mid - 1;            /* holder of the other half */
        if (t == r) {
            if (pos != h)
                return 0;
            *lo = hl ? mid : a;
            *hi = hl ? b : mid;
            *dst = nh;
            return 1;
        }
        if (pl) {
            b = mid;
            if (!hl)
                h = nh;
        } else {
            a = mid;
            if (hl)
                h = nh;
        }
    }
    return 0;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int S = scatter_steps(sh);
    if (step > S) {
        coll_allgather_ring.sends(sh, node, step - S, e);
        return;
    }
    int r = 0, i = scatter_dim(sh, step, &r);
    int c[SHAPE_MAX_DIMS], rc[SHAPE_MAX_DIMS];
    shape_coords(sh, node, c);
    shape_coords(sh, sh->cx->root, rc);
    for (int j = i + 1; j < sh->ndims; j++)     /* holders agree with the root above i */
        if (c[j] != rc[j])
            return;
    int w = sh->dims[i], lo, hi, dst;
    if (!halving(w, pos_of(sh, i, rc[i], rc[i]), r, pos_of(sh, i, c[i], rc[i]), &lo, &hi, &dst))
        return;
    int d[SHAPE_MAX_DIMS];
    for (int j = 0; j < SHAPE_MAX_DIMS; j++)
        d[j] = c[j];
    d[i] = coord_of(sh, i, dst, rc[i]);
    coll_emit_msg(e, shape_rank(sh, d));
    coll_emit_mode(e, COLL_MOVE);
    /* The segments of the nodes that agree with me below i, have position
     * in [lo, hi) in dimension i, and anything above i; ascending labels. */
    for (int k = 0; k < sh->nodes; k++) {
        int kc[SHAPE_MAX_DIMS], ok = 1;
        shape_coords(sh, k, kc);
        for (int j = 0; j < i && ok; j++)
            ok = kc[j] == c[j];
        int kp = pos_of(sh, i, kc[i], rc[i]);
        if (ok && kp >= lo && kp < hi)
            coll_emit_blk(e, k);
    }
}

/* The one node that sends to `node` at `step`: in the scatter, the holder
 * of its line whose halving sends to it; in the collect, the ring's. */
static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int S = scatter_steps(sh);
    if (step > S)
        return coll_allgather_ring.senders(sh, node, step - S, from);
    int r = 0, i = scatter_dim(sh, step, &r);
    int c[SHAPE_MAX_DIMS], rc[SHAPE_MAX_DIMS];
    shape_coords(sh, node, c);
    shape_coords(sh, sh->cx->root, rc);
    for (int j = i + 1; j < sh->ndims; j++)
        if (c[j] != rc[j])
            return 0;
    int w = sh->dims[i], me = pos_of(sh, i, c[i], rc[i]), lo, hi, dst;
    for (int q = 0; q < w; q++)
        if (halving(w, pos_of(sh, i, rc[i], rc[i]), r, q, &lo, &hi, &dst) && dst == me) {
            c[i] = coord_of(sh, i, q, rc[i]);
            from[0] = shape_rank(sh, c);
            return 1;
        }
    return 0;
}

/* Most blocks in one message: the first halving of a dimension sends
 * ceil(w_i/2) lines' worth of the dimensions above; a ring message of
 * dimension i carries w_0 ... w_(i-1). */
static long msg_blocks(const struct app_shape *sh)
{
    long best = coll_allgather_ring.max_msg_blocks(sh);
    for (int i = 0; i < sh->ndims; i++) {
        long m = (sh->dims[i] + 1) / 2;
        for (int j = i + 1; j < sh->ndims; j++)
            m *= sh->dims[j];
        if (sh->dims[i] > 1 && m > best)
            best = m;
    }
    return best;
}

static long hold(const struct app_shape *sh) { return sh->nodes; }

/* The caller's wish is kept as given so that check() can refuse it. */
static int segments(const struct app_shape *sh)
{
    return sh->cx && sh->cx->segs != 0 ? sh->cx->segs : sh->nodes;
}

static int check(const struct app_shape *sh, char *err, size_t errlen)
{
    if (sh->cx && sh->cx->segs != 0 && sh->cx->segs != sh->nodes) {
        snprintf(err, errlen, "it cuts the message into one segment per node: "
                 "segs=%d is not accepted on %d nodes (give segs=%d or leave it out)",
                 sh->cx->segs, sh->nodes, sh->nodes);
        return -1;
    }
    return 0;
}

const struct coll_algo coll_bcast_scatter_collect = {
    COLL_FACTS(bcast, scatter_collect),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg_blocks,
    .max_hold = hold,
    .segments = segments,
    .check = check,
};
