/* scan_chain: scan (parallel prefix) on a mesh or torus by a chain along
 * each dimension in turn, Kumar's result buffer fed only from below.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7, Reduction and
 *             Scan: on meshes and tori the all-to-all broadcast pattern
 *             (one line per dimension, dimension after dimension) serves
 *             scan too, but "care must be taken to ensure that the final
 *             result buffer at every node is based only on data from
 *             lower-labeled nodes"; with a subset "a dimension-ordered
 *             chain can be used to circulate reduction/scan data" (Fig.
 *             21). Our reading, with the two buffers of Kumar's scan
 *             (apps/coll/scan_std_exchange.c): in each line the partials
 *             travel up a dimension-ordered chain, so every message that
 *             reaches a result buffer comes from a lower label; the line's
 *             total then travels back down without touching the results.
 * Machines:   a mesh or torus of any number of dimensions (one-port).
 * Schedule:   labels 0 = result, 1 = partial (both start as the node's
 *             data). Dimensions 0, 1, ... in turn, skipping widths of 1;
 *             before dimension i the partial of node c is the total of its
 *             box (the nodes equal to c above i-1) and its result the part
 *             of that box at or below c (ranks grow with c_i, dimension 0
 *             fastest). Up, t = 1..w_i - 1: the node with c_i = t-1 sends
 *             its partial (COLL_SCAN_RULE) to c_i = t, which adds it to its
 *             partial and, the sender being lower, to its result: the
 *             partials become prefixes of the line, the last one its total.
 *             Down, t = 1..w_i - 1 (not after the last dimension): the node
 *             with c_i = w_i - t sends that total (COLL_REPLACE) to c_i =
 *             w_i - t - 1, overwriting its partial only.
 * Steps:      2 sum_i (w_i - 1) - (w_last - 1), w_last the last width > 1.
 * Start-ups:  at most 2 per node and dimension, one vector of l bytes each.
 * Cost:       steps x (t_s + l t_f); nearest neighbours, contention-free,
 *             but most nodes idle at a step: it favours few long vectors.
 */
#include "reduce.h"

static int last_dim(const struct app_shape *sh)
{
    int last = sh->ndims - 1;
    while (last > 0 && sh->dims[last] == 1)
        last--;
    return last;
}

static int phase_steps(const struct app_shape *sh, int i)
{
    return (sh->dims[i] - 1) * (i < last_dim(sh) ? 2 : 1);
}

static int nsteps(const struct app_shape *sh)
{
    int n = 0;
    for (int i = 0; i < sh->ndims; i++)
        n += phase_steps(sh, i);
    return n;
}

/* The sender at `step` on node's line and whether it goes up; *i the
 * dimension. The receiver is the sender's +1 (up) or -1 (down) in i. */
static int sender_pos(const struct app_shape *sh, int step, int *i, int *up)
{
    for (*i = 0; *i < sh->ndims; (*i)++) {
        int w = sh->dims[*i];
        if (step <= phase_steps(sh, *i)) {
            *up = step <= w - 1;
            return *up ? step - 1 : w - (step - (w - 1));
        }
        step -= phase_steps(sh, *i);
    }
    return -1;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int i, up, pos = sender_pos(sh, step, &i, &up), c[SHAPE_MAX_DIMS];
    shape_coords(sh, node, c);
    if (pos < 0 || c[i] != pos)
        return;
    c[i] += up ? 1 : -1;
    coll_emit_msg(e, shape_rank(sh, c));
    coll_emit_mode(e, up ? COLL_SCAN_RULE : COLL_REPLACE);
    coll_emit_blk(e, 1);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int i, up, pos = sender_pos(sh, step, &i, &up), c[SHAPE_MAX_DIMS];
    shape_coords(sh, node, c);
    if (pos < 0 || c[i] != pos + (up ? 1 : -1))
        return 0;
    c[i] = pos;
    from[0] = shape_rank(sh, c);
    return 1;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long two(const struct app_shape *sh) { (void)sh; return 2; }

const struct coll_algo coll_scan_chain = {
    COLL_FACTS(scan, chain),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = two,
};
