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

const struct coll_algo coll_gather_rd = {
    COLL_FACTS(gather, rd),
    .nsteps = red_dims_steps,
    .sends = red_dims_gather_sends,
    .senders = red_dims_gather_senders,
    .max_msg_blocks = red_dims_max_subtree,
    .max_hold = red_nodes,
};
