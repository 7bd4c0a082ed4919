/* barrier_tree: barrier by gathering notices up the spanning binomial tree
 * and broadcasting the release down it.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 2, Fig. 1(f) (a
 *             barrier process collects a notice from every process, then
 *             broadcasts), built on the trees of section 4, Fig. 10(c):
 *             "The root processor collects notices from nodes that they
 *             have reached the barrier and, after hearing from all other
 *             nodes, informs the nodes that they may proceed".
 * Machines:   any p; the root is node 0 (binomial over ranks, the SBT on a
 *             hypercube).
 * Schedule:   T = ceil(lg p). Steps 1..T: the gather tree, a child sends
 *             its token (label 0, COMBINE: it stands for its whole subtree)
 *             to its parent once its own children's have arrived. Steps
 *             T+1..2T: the broadcast tree, the token (REPLACE) from parent
 *             to child.
 * Steps:      2 ceil(lg p).
 * Start-ups:  at most ceil(lg p) + 1 empty messages per node.
 * Cost:       2 ceil(lg p) t_s.
 */
#include "reduce.h"

static int nsteps(const struct app_shape *sh) { return 2 * red_tree_steps(RED_BINOMIAL, sh); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int T = red_tree_steps(RED_BINOMIAL, sh);
    if (step <= T)
        red_up_sends(RED_BINOMIAL, sh, 0, node, step, 0, e);
    else
        red_down_sends(RED_BINOMIAL, sh, 0, node, step - T, 0, COLL_REPLACE, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int T = red_tree_steps(RED_BINOMIAL, sh);
    return step <= T ? red_up_senders(RED_BINOMIAL, sh, 0, node, step, from)
                     : red_down_senders(RED_BINOMIAL, sh, 0, node, step - T, from);
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }

const struct coll_algo coll_barrier_tree = {
    .op = COLL_BARRIER,
    .name = "tree",
    .app = "barrier_tree",
    .restr = APP_ANY,
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
};
