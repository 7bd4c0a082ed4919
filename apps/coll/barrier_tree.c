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

const struct coll_algo coll_barrier_tree = {
    COLL_FACTS(barrier, tree),
    .nsteps = red_updown_nsteps,
    .sends = red_updown_sends,
    .senders = red_updown_senders,
    .max_msg_blocks = red_one,
    .max_hold = red_one,
};
