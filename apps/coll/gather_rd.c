/* gather_rd: gather by recursive doubling in each dimension of a mesh or
 * torus, the last dimension first.
 *
 * Source:     McKinley, Tsai and Robinson (1994), sections 4 and 5: gather
 *             is the dual of scatter, "implemented by simply reversing the
 *             direction of message transmission" (Fig. 10(b)), here of the
 *             dimension-by-dimension tree of section 5 (Barnett et al.,
 *             Fig. 11, 12; apps/coll/scatter_rd.c).
 * Machines:   a mesh or torus of any number of dimensions (one-port).
 * Schedule:   the scatter_rd schedule backwards: its step T+1-t at step t,
 *             child to parent, each child sending all it holds (its
 *             coordinates below i, its half-line in i, anything above i).
 * Steps:      sum over i of ceil(lg w_i).
 * Start-ups:  one send per node but the root, which receives at every step.
 * Cost:       that of scatter_rd; contention-free likewise.
 */
#include "reduce.h"

static int nsteps(const struct app_shape *sh) { return red_tree_steps(RED_DIMS, sh); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int root = red_root(sh), g = nsteps(sh) + 1 - step;
    int parent = red_tree_parent(RED_DIMS, sh, root, node, g);
    if (parent < 0)
        return;
    coll_emit_msg(e, parent);
    red_tree_subtree(RED_DIMS, sh, root, node, g, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = red_tree_child(RED_DIMS, sh, red_root(sh), node, nsteps(sh) + 1 - step);
    return from[0] >= 0;
}

static long msg(const struct app_shape *sh) { return red_tree_max_subtree(RED_DIMS, sh); }
static long all(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_gather_rd = {
    .op = COLL_GATHER,
    .name = "rd",
    .app = "gather_rd",
    .restr = APP_MESH_OR_TORUS,
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = all,
};
