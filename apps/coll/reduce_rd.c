/* reduce_rd: N/1 reduction by recursive doubling in each dimension of a
 * mesh or torus, the last dimension first.
 *
 * Source:     McKinley, Tsai and Robinson (1994), sections 4 and 5:
 *             reduction runs on the gather tree, the dual of the broadcast
 *             tree (Fig. 10(b)), here the dimension-by-dimension tree of
 *             Barnett et al. (section 5, Fig. 11, 12; apps/coll/gather_rd.c).
 * Machines:   a mesh or torus of any number of dimensions (one-port); any
 *             root.
 * Schedule:   the gather_rd schedule with one block: at each step a child
 *             sends its partial vector (label 0, COMBINE) to its parent,
 *             the scatter_rd edge of step T+1-t backwards.
 * Steps:      sum over i of ceil(lg w_i).
 * Start-ups:  one send per node but the root; every message l bytes.
 * Cost:       sum ceil(lg w_i) (t_s + l t_f + combine time); contention-free
 *             (the steps of scatter_rd reversed).
 */
#include "reduce.h"

static int nsteps(const struct app_shape *sh) { return red_tree_steps(RED_DIMS, sh); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    red_up_sends(RED_DIMS, sh, red_root(sh), node, step, 0, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    return red_up_senders(RED_DIMS, sh, red_root(sh), node, step, from);
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }

const struct coll_algo coll_reduce_rd = {
    .op = COLL_REDUCE,
    .name = "rd",
    .app = "reduce_rd",
    .restr = APP_MESH_OR_TORUS,
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
};
