/* bcast_pandasingal: broadcast on a 2D mesh by Panda and Singal's
 * row-then-column multidestination worms.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 8: "In a 2D mesh,
 *             however, if the source multicasts to all nodes in its row,
 *             and each node in the row then multicasts to all nodes in
 *             their respective columns, then the time required is
 *             2(t_s + (sqrt(N) - 1 + m) t_f). Panda and Singal [32] have
 *             proposed just such an approach", against "t_s + (N - 1 +
 *             m) t_f" for a single worm.
 * Machines:   a 2D mesh, any port model; the routers copy worms to their
 *             nodes (NIC_MDW_PATH: each leg dimension-ordered).
 * Reading:    a worm conforms to the dimension-ordered base routing
 *             (Panda's BRCP), so it cannot turn back: the root's row is two
 *             worms, one each way from the root, and so is each column
 *             from the row. Under one port a node's two worms leave one
 *             after the other.
 * Schedule:   step 1 (if the mesh is wider than 1): the root sends its row
 *             worms; step 2 (if it is taller than 1): every node of the
 *             root's row sends its column worms.
 * Steps:      2 (1 on a single row or column).
 * Start-ups:  2 per sending node and step (one per direction).
 * Cost:       2 (t_s + (max(x_r, W-1-x_r) + m) t_f) + the second worm's
 *             start-up under one port: at most 2 (t_s + (sqrt(N) - 1 + m)
 *             t_f) on a square mesh, as the survey says. Row worms use
 *             + and - X links only, column worms Y links in disjoint
 *             columns: no two worms share a channel.
 */
#include "coll.h"
#include "ucast.h"
#include "../../netdev/nic_shm.h"

/* 1: the step sends along the root's row; 0: along the columns. */
static int row_step(const struct app_shape *sh, int step)
{
    return sh->dims[0] > 1 && step == 1;
}

static int nsteps(const struct app_shape *sh)
{
    return (sh->dims[0] > 1) + (sh->dims[1] > 1);
}

/* The worms from (x, y) along dimension d, one per direction. */
static void line_worms(const struct app_shape *sh, int x, int y, int d, struct coll_emit *e)
{
    static int to[COLL_MAX_SET];
    int W = sh->dims[0], k = sh->dims[d], at = d ? y : x;
    for (int dir = 1; dir >= -1; dir -= 2) {
        int n = 0;
        for (int i = at + dir; i >= 0 && i < k; i += dir)
            to[n++] = d ? x + W * i : i + W * y;
        if (n) {
            coll_emit_worm(e, NIC_MDW_PATH, to, n);
            coll_emit_blk(e, 0);
        }
    }
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int W = sh->dims[0], root = sh->cx->root;
    if (row_step(sh, step)) {
        if (node == root)
            line_worms(sh, root % W, root / W, 0, e);
    } else if (node / W == root / W) {
        line_worms(sh, node % W, node / W, 1, e);
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int W = sh->dims[0], root = sh->cx->root;
    if (row_step(sh, step)) {
        if (node == root || node / W != root / W)
            return 0;
        from[0] = root;
    } else {
        if (node / W == root / W)
            return 0;
        from[0] = node % W + W * (root / W);
    }
    return 1;
}

const struct coll_algo coll_bcast_pandasingal = {
    COLL_FACTS(bcast, pandasingal),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = ucast_one,
    .max_hold = ucast_one,
    .worms = 1,
};
