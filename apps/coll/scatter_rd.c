/* scatter_rd: scatter by recursive halving in each dimension of a mesh or
 * torus, one dimension after the other.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 5: the
 *             dimensional broadcast tree of Barnett et al. (Fig. 11, 12:
 *             "the source node sends the message halfway across the linear
 *             array ... applying the above procedure to one dimension at a
 *             time"), used as the scatter of scatter-collect (Fig. 20: "the
 *             source node ... performs a scatter operation across its row
 *             ... Next, each node in the row of the source performs a
 *             scatter in its column"; "implemented using the approach in
 *             Figure 10"), each node forwarding only its children's blocks.
 * Machines:   a mesh or torus of any number of dimensions (one-port).
 * Schedule:   dimensions 0, 1, ... in turn; in dimension i (width w_i,
 *             L_i = ceil(lg w_i)) the nodes whose coordinates above i are
 *             the root's halve their line: at sub-step t, m = 2^(L_i - t),
 *             relative coordinate r = (c_i - root_i) mod w_i with r mod 2m =
 *             0 and r + m < w_i sends to r + m the blocks of the nodes with
 *             its coordinates below i, relative i-coordinate in r+m ..
 *             min(r+2m, w_i)-1, anything above i (apps/coll/reduce.h).
 * Steps:      sum over i of ceil(lg w_i).
 * Start-ups:  the root sends sum ceil(lg w_i) messages.
 * Cost:       sum over the steps of (t_s + blocks l t_f); contention-free:
 *             the messages of a step run on disjoint stretches of their own
 *             lines (a half-line crossing the mesh edge goes the - way,
 *             alone in that direction).
 */
#include "reduce.h"

const struct coll_algo coll_scatter_rd = {
    COLL_FACTS(scatter, rd),
    .nsteps = red_dims_steps,
    .sends = red_dims_scatter_sends,
    .senders = red_dims_scatter_senders,
    .max_msg_blocks = red_dims_max_subtree,
    .max_hold = red_nodes,
};
