/* alltoall_quadrant_exchange: complete exchange by the quadrant exchange
 * algorithm for 2D meshes.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7, Complete
 *             Exchange, Figure 28 and Table 2 (after Gupta et al. [24]).
 * Machines:   a 2D mesh of 2^j x 2^j nodes (N = 4^j).
 * Schedule:   The mesh is quartered, then each quarter in parallel, j
 *             levels in all. At a level whose submeshes have side 2h, a
 *             quadruple is four nodes on the corners of a rectangle, one in
 *             each quarter of their submesh: (x, y), (x+h, y), (x, y+h),
 *             (x+h, y+h) with x, y in the top-left quarter. A quadruple
 *             exchanges in a stage of three steps (Figure 28(a)): with the
 *             horizontal partner, with the vertical one, with the diagonal
 *             one; in each, a node sends the N/4 blocks it holds for the
 *             partner's quarter. After its stage a node holds only blocks
 *             for its own quarter, N of them.
 *             The figures that give the quadruples of each stage are lost
 *             from the extracted text; the prose says the h^2 quadruples of
 *             a level take h stages ("2^(j-1) stages are required to
 *             quarter a 2^j x 2^j mesh") and that every step is
 *             contention-free. Our reading: stage s (0..h-1) of a level
 *             takes the quadruples whose top-left corner has
 *             (y - x) mod h = s (relative to its submesh). Those h
 *             quadruples use h different rows and h different columns, so
 *             under XY routing no two messages of a step share a channel
 *             (the horizontal and vertical steps use disjoint rows and
 *             columns; the diagonal messages turn in four distinct
 *             columns). The levels run one after the other; the quarters
 *             of a level run their stages at the same time.
 *             Invariant before level l (b = j - l, h = 2^b): node i holds
 *             (s, d) with s equal to i on the x and y bits 0..b and d equal
 *             to i on the x and y bits above b.
 * Steps:      3 (2^(j-1) + ... + 1) = 3 (sqrt N - 1).
 * Start-ups:  3 j = 3 log2 sqrt N sends per node (a node is in one stage
 *             per level); N/4 blocks per message. The paper's Table 2
 *             lists (3N/4)(sqrt N - 1) messages per node: steps times
 *             message size, counting the steps a node sits out.
 * Cost:       3 (sqrt N - 1) (t_s + (N/4) l t_f), stepwise contention-free.
 */
#include "coll.h"

/* The level (1..j) and stage within it (0..h-1) of step `step`. */
static void level_of(int j, int step, int *level, int *stage)
{
    int g = (step - 1) / 3;
    *level = 1;
    while (g >= 1 << (j - *level)) {
        g -= 1 << (j - *level);
        (*level)++;
    }
    *stage = g;
}

/* The partner of `node` at `step`, or -1 if it sits this step out. */
static int partner_of(const struct app_shape *sh, int node, int step)
{
    int j = ilog2(sh->dims[0]), side = sh->dims[0], level, stage;
    level_of(j, step, &level, &stage);
    int h = 1 << (j - level), x = node % side, y = node / side;
    if (((y % h) - (x % h) + h) % h != stage)
        return -1;
    switch ((step - 1) % 3) {
    case 0: x ^= h; break;                 /* horizontal */
    case 1: y ^= h; break;                 /* vertical */
    default: x ^= h; y ^= h; break;        /* diagonal */
    }
    return x + side * y;
}

static int nsteps(const struct app_shape *sh) { return 3 * (sh->dims[0] - 1); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int partner = partner_of(sh, node, step);
    if (partner < 0)
        return;
    int j = ilog2(sh->dims[0]), level, stage;
    level_of(j, step, &level, &stage);
    int b = j - level, p = sh->nodes;
    int xhigh = (1 << j) - (1 << (b + 1));               /* x bits above b */
    int high = xhigh | xhigh << j;                       /* ... and y bits above b */
    int quarter = 1 << b | 1 << (j + b);                 /* the bits that pick the quarter */
    coll_emit_masked(e, partner, p, node & ~high, high,
                     (node & high) | (partner & quarter), (p - 1) & ~high & ~quarter);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = partner_of(sh, node, step);
    return from[0] >= 0;
}

static long quarter(const struct app_shape *sh) { return sh->nodes / 4; }
static long hold(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_alltoall_quadrant_exchange = {
    COLL_FACTS(alltoall, quadrant_exchange),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = quarter,
    .max_hold = hold,
};
