/* allreduce_tree: N/N reduction by reducing up the spanning binomial tree
 * and broadcasting the result down the same tree.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, Fig. 10: "Should
 *             the result need to be distributed back to all the nodes, then
 *             the tree structure in Figure 10(a) could be used, but with
 *             only the single result message being broadcast."
 * Machines:   any p. The tree is rooted at node 0 (binomial over ranks:
 *             XOR 0 = the rank itself; the SBT on a hypercube).
 * Schedule:   T = ceil(lg p). Steps 1..T: reduce_binomial to node 0 (label
 *             0, COMBINE). Steps T+1..2T: the SBT broadcast of the result,
 *             step T+g the scatter tree's step g, label 0 in REPLACE mode
 *             (the receiver's own partial is overwritten by the total).
 * Steps:      2 ceil(lg p).
 * Start-ups:  at most ceil(lg p) + 1 sends per node (node 0: ceil(lg p)).
 * Cost:       2 ceil(lg p) (t_s + l t_f) plus ceil(lg p) combines.
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

const struct coll_algo coll_allreduce_tree = {
    .op = COLL_ALLREDUCE,
    .name = "tree",
    .app = "allreduce_tree",
    .restr = APP_ANY,
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
};
