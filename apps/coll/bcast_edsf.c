/* bcast_edsf: broadcast of a long message pipelined through two
 * edge-disjoint spanning fences (EDSF).
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 5, Message
 *             Partitioning Approaches to Broadcast (after Barnett et al.
 *             [19]): "The EDSF algorithm embeds two disjoint spanning
 *             trees, or fences, in the mesh ... The source node partitions
 *             the message and alternately pipelines the pieces through the
 *             two fences ... Beginning in step 0, the source node
 *             alternates between sending segments east and south ... Black
 *             nodes forward segments to the east in even numbered steps,
 *             and to the south in odd-numbered steps. Conversely, white
 *             nodes forward segments to the south in even numbered steps,
 *             and to the east in odd-numbered steps. To accommodate any
 *             node as the source, the mesh is actually considered as a
 *             logical torus, with some segments being wormholed across the
 *             network to the west and north."
 * Machines:   a one-port 2D mesh (section 5 is the one-port section; [19]
 *             is the Touchstone Delta) with both sides even: the logical
 *             torus is two-coloured as a checkerboard only then (with an
 *             odd side a wrap-around link joins two nodes of one colour,
 *             and a node would get two segments in one step). Any root.
 * Reading:    coordinates (x, y) are taken relative to the root on the
 *             logical W x H torus (x = dimension 0 = east, y = dimension
 *             1 = south), colour = (x + y) mod 2, 0 = black. A fence is a
 *             comb: fence A has the root's row as its rail (east) and every
 *             other column as a post (south from the rail), and reaches
 *             column 0 below the root by the wrap-around links (W-1, y) ->
 *             (0, y) (wormholed west across the row); fence B is the same
 *             turned: the root's column as rail (south), every other row as
 *             a post (east), and row 0 by the wraps (x, H-1) -> (x, 0)
 *             (wormholed north). The two use disjoint directed links: a
 *             node x, y >= 1 gets A from the north and B from the west;
 *             a node of row 0 gets A from the west and B from the north
 *             (wrap); a node of column 0, B from the north and A from the
 *             west (wrap). Even segments (labels 0, 2, ...) go down fence
 *             A, odd ones down B: "each half of the message down one
 *             fence". Each node sends at every step along the link the
 *             colour rule gives, the next segment of the fence that link
 *             belongs to. With the colour rule a segment goes straight on
 *             at the next step and turns a corner after two.
 * Steps:      S + W + H for S segments (paper steps 0 .. S-1+W+H): the
 *             last node reached is (0, H-1) on fence A (W-1 hops east, H-1
 *             south, two corners, the wrap) or (W-1, 0) on fence B.
 * Segments:   the caller's segs=, else W + H (the pipeline then costs about
 *             2(W+H) t_s + 2 l t_f; the time (S+W+H)(t_s + l t_f / S) is
 *             least at S = sqrt((W+H) l t_f / t_s), which needs len).
 * Start-ups:  at most one message per step per node, of one segment; a node
 *             sends at most 2 ceil(S/2) segments, every node receives S.
 * Cost:       (S + W + H)(t_s + (l/S) t_f). Contention-free: per step a node
 *             sends on one link and receives on one; a wrap message uses
 *             the only west (north) channels of its row (column) in use.
 */
#include <stdio.h>
#include "coll.h"

#define EDSF_MAX_SEGS 4096                /* segs= accepted: 2 .. this */

struct lt { int W, H, rx, ry; };                  /* the logical torus */

static struct lt torus_of(const struct app_shape *sh)
{
    int c[SHAPE_MAX_DIMS];
    shape_coords(sh, sh->cx->root, c);
    return (struct lt){ sh->dims[0], sh->dims[1], c[0], c[1] };
}

static void logical(const struct lt *t, const struct app_shape *sh, int node, int *x, int *y)
{
    int c[SHAPE_MAX_DIMS];
    shape_coords(sh, node, c);
    *x = (c[0] - t->rx + t->W) % t->W;
    *y = (c[1] - t->ry + t->H) % t->H;
}

static int physical(const struct lt *t, const struct app_shape *sh, int x, int y)
{
    int c[SHAPE_MAX_DIMS] = { 0 };
    c[0] = (x + t->rx) % t->W;
    c[1] = (y + t->ry) % t->H;
    return shape_rank(sh, c);
}

/* The step (paper's, from 0) at which segment 0 of fence A (f = 0) or the
 * first segment of B (f = 1, k = 1) would reach (x, y), less k: segment k
 * of fence f arrives at k + arrive(f, x, y). -1 at the root (it "has" k
 * at k - 1: it sends it at step k). */
static int arrive(const struct lt *t, int f, int x, int y)
{
    if (x == 0 && y == 0)
        return -1;
    if (f == 1) {                                 /* fence B: fence A turned */
        if (x == 0)
            return y - 1;                         /* the rail (root's column) */
        if (y == 0)
            return x + t->H + 1;                  /* row 0 by the wrap from (x, H-1) */
        return x + y;
    }
    if (y == 0)
        return x - 1;                             /* the rail (root's row) */
    if (x == 0)
        return y + t->W + 1;                      /* column 0 by the wrap from (W-1, y) */
    return x + y;
}

/* The fence whose link goes into (x, y) from the west (east = 1) or the
 * north (east = 0); -1 for the root. */
static int fence_into(int x, int y, int east)
{
    if (x == 0 && y == 0)
        return -1;
    int edge = x == 0 || y == 0;
    return east ? (edge ? 0 : 1) : (edge ? 1 : 0);
}

/* The segments fixed by segments(); the default when asked without a call
 * (the run tool's memory check). */
static int segs_of(const struct app_shape *sh)
{
    return sh->cx && sh->cx->segs > 0 ? sh->cx->segs : sh->dims[0] + sh->dims[1];
}

static int nsteps(const struct app_shape *sh)
{
    return segs_of(sh) + sh->dims[0] + sh->dims[1];
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    struct lt t = torus_of(sh);
    int x, y, tau = step - 1, S = segs_of(sh);
    logical(&t, sh, node, &x, &y);
    int black = (x + y) % 2 == 0;
    int east = black ? tau % 2 == 0 : tau % 2 == 1;
    int ux = east ? (x + 1) % t.W : x, uy = east ? y : (y + 1) % t.H;
    int f = fence_into(ux, uy, east);
    if (f < 0)
        return;
    int k = tau - arrive(&t, f, ux, uy);          /* the segment the link carries now */
    if (k < 0 || k >= S || k % 2 != f)
        return;
    coll_emit_msg(e, physical(&t, sh, ux, uy));
    coll_emit_blk(e, k);
}

/* A node hears from its west and north neighbours on the logical torus. */
static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)step;
    struct lt t = torus_of(sh);
    int x, y;
    logical(&t, sh, node, &x, &y);
    from[0] = physical(&t, sh, (x + t.W - 1) % t.W, y);
    from[1] = physical(&t, sh, x, (y + t.H - 1) % t.H);
    return from[0] == from[1] ? 1 : 2;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long all(const struct app_shape *sh) { return segs_of(sh); }

static int segments(const struct app_shape *sh)
{
    return sh->cx && sh->cx->segs != 0 ? sh->cx->segs : sh->dims[0] + sh->dims[1];
}

static int check(const struct app_shape *sh, char *err, size_t errlen)
{
    if (sh->dims[0] % 2 || sh->dims[1] % 2) {
        snprintf(err, errlen, "bcast_edsf needs a 2D mesh with both sides even (the checkerboard of "
                 "the logical torus), not %dx%d; accepted: 2x2, 4x2, 4x4, 6x6, 8x8 ...",
                 sh->dims[0], sh->dims[1]);
        return -1;
    }
    if (sh->cx && (sh->cx->segs < 2 || sh->cx->segs > EDSF_MAX_SEGS)) {
        snprintf(err, errlen, "segs=%d is not a segment count from 2 to %d (each fence "
                 "carries half of the segments)",
                 sh->cx->segs, EDSF_MAX_SEGS);
        return -1;
    }
    return 0;
}

const struct coll_algo coll_bcast_edsf = {
    COLL_FACTS(bcast, edsf),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = all,
    .segments = segments,
    .check = check,
};
