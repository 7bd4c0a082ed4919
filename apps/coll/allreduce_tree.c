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

const struct coll_algo coll_allreduce_tree = {
    COLL_FACTS(allreduce, tree),
    .nsteps = red_updown_nsteps,
    .sends = red_updown_sends,
    .senders = red_updown_senders,
    .max_msg_blocks = red_one,
    .max_hold = red_one,
};
