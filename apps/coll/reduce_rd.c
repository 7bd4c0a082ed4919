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

const struct coll_algo coll_reduce_rd = {
    COLL_FACTS(reduce, rd),
    .nsteps = red_dims_steps,
    .sends = red_dims_reduce_sends,
    .senders = red_dims_reduce_senders,
    .max_msg_blocks = red_one,
    .max_hold = red_one,
};
