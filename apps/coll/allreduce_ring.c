/* allreduce_ring: N/N reduction by a reduce-scatter and an all-to-all
 * broadcast around a logical ring in each dimension.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7, Reduction and
 *             Scan: "the same message passing pattern used in all-to-all
 *             broadcast in meshes and tori can also be used to implement
 *             reduction" (the ring per dimension of All-to-All Broadcast,
 *             apps/coll/allgather_ring.c). Our reading: the vector is cut
 *             into S = p segments (segment k belongs to node k mod p); the
 *             ring pattern is run once combining (reduce-scatter: each node
 *             ends with its own segments reduced over the machine) and once
 *             copying back (all-to-all broadcast of the reduced segments).
 * Machines:   a mesh or torus of any number of dimensions (one-port).
 * Schedule:   segments: p, or the caller's segs= if a multiple of p (another is refused).
 *             Reduce-scatter, dimensions 0, 1, ..., n-1: in dimension i
 *             (width w_i) ring step t = 1..w_i - 1 node c sends to c_i + 1
 *             mod w_i (COMBINE) the segments whose owner has c's
 *             coordinates below i and coordinate i = c_i - t mod w_i (any
 *             above i); the segment group g travels g+1, g+2, ..., g and
 *             arrives with the whole line's contributions.
 *             All-to-all broadcast, dimensions n-1, ..., 0: ring step t node
 *             c sends to c_i + 1 (REPLACE) the segments whose owner has its
 *             coordinates below i and coordinate i = c_i - (t-1): what it
 *             got at step t-1 (its own at t = 1), as in allgather_ring.
 * Steps:      2 sum over i of (w_i - 1).
 * Start-ups:  one send per node per step, S/p * prod_(j>i) w_j blocks in
 *             dimension i: total (S/p)(p - 1) blocks each way.
 * Cost:       2 sum_i (w_i - 1)(t_s + (l/w_0...w_i) t_f), i.e. about
 *             2 sum (w_i - 1) t_s + 2 l t_f for large p. Contention-free:
 *             every message goes the + way along its own line, except a
 *             mesh line's wrap-around message, which goes the - way.
 */
#include <stdio.h>
#include "reduce.h"

/* A segs= given is kept for check() to refuse if it is not a multiple of the nodes. */
static int segments(const struct app_shape *sh)
{
    int want = sh->cx ? sh->cx->segs : 0;
    return want > 0 ? want : sh->nodes;
}

/* segs= is a multiple of the node count or absent: another count was
 * replaced by the node count. */
static int check(const struct app_shape *sh, char *err, size_t errlen)
{
    if (sh->cx && sh->cx->segs > 0 && sh->cx->segs % sh->nodes) {
        snprintf(err, errlen, "segs=%d is not a multiple of the %d nodes (whole segments a node); "
                 "accepted: segs=%d, %d, ... or none", sh->cx->segs, sh->nodes, sh->nodes, 2 * sh->nodes);
        return -1;
    }
    return 0;
}

static int segs(const struct app_shape *sh)
{
    return sh->cx && sh->cx->segs > 0 ? sh->cx->segs : segments(sh);
}

static int ring_steps(const struct app_shape *sh)
{
    int n = 0;
    for (int i = 0; i < sh->ndims; i++)
        n += sh->dims[i] - 1;
    return n;
}

static int nsteps(const struct app_shape *sh) { return 2 * ring_steps(sh); }

/* The dimension and ring step of `step`; *combine: the reduce-scatter half. */
static int dim_of(const struct app_shape *sh, int step, int *t, int *combine)
{
    int half = ring_steps(sh);
    *combine = step <= half;
    if (!*combine)
        step -= half;
    for (int k = 0; k < sh->ndims; k++) {
        int i = *combine ? k : sh->ndims - 1 - k;
        if (step <= sh->dims[i] - 1) {
            *t = step;
            return i;
        }
        step -= sh->dims[i] - 1;
    }
    return -1;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int t, combine, i = dim_of(sh, step, &t, &combine), w;
    if (i < 0)
        return;
    int c[SHAPE_MAX_DIMS], lo[SHAPE_MAX_DIMS], n[SHAPE_MAX_DIMS];
    shape_coords(sh, node, c);
    for (int j = 0; j < sh->ndims; j++) {
        lo[j] = j < i ? c[j] : 0;
        n[j] = j < i ? 1 : sh->dims[j];
    }
    w = sh->dims[i];
    lo[i] = ((c[i] - (combine ? t : t - 1)) % w + w) % w;
    n[i] = 1;
    coll_emit_msg(e, shape_along(sh, node, i, 1));
    coll_emit_mode(e, combine ? COLL_COMBINE : COLL_REPLACE);
    red_emit_box(sh, lo, n, segs(sh) / sh->nodes, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int t, combine, i = dim_of(sh, step, &t, &combine);
    if (i < 0)
        return 0;
    from[0] = shape_along(sh, node, i, -1);
    return 1;
}

static long msg(const struct app_shape *sh)
{
    int first = 0;
    while (first < sh->ndims - 1 && sh->dims[first] == 1)
        first++;
    return (long)segs(sh) / sh->dims[first];
}
static long all(const struct app_shape *sh) { return segs(sh); }

const struct coll_algo coll_allreduce_ring = {
    COLL_FACTS(allreduce, ring),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = all,
    .segments = segments,
    .check = check,
};
