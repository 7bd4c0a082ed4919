/* reduce_binomial: N/1 reduction up the spanning binomial tree.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, Fig. 10(b):
 *             "The same structure can be used to implement all-to-one
 *             reduction, in which case the reduction operation is performed
 *             pairwise on data items as they proceed towards the root" (the
 *             gather tree, apps/coll/gather_binomial.c).
 * Machines:   any p; any root (the SBT of ranks XOR the root when p is a
 *             power of two, else of ranks minus the root mod p).
 * Schedule:   T = ceil(lg p); at step t, m = 2^(t-1): relative rank r with
 *             r mod 2m = m sends its partial vector (label 0, COMBINE) to
 *             r - m, which has by then combined those of its whole subtree
 *             r .. min(r+m, p)-1 below r.
 * Steps:      ceil(lg p).
 * Start-ups:  one send per node but the root; every message the whole
 *             vector of l bytes.
 * Cost:       ceil(lg p) (t_s + l t_f + combine time).
 */
#include "reduce.h"

const struct coll_algo coll_reduce_binomial = {
    COLL_FACTS(reduce, binomial),
    .nsteps = red_binomial_steps,
    .sends = red_binomial_reduce_sends,
    .senders = red_binomial_reduce_senders,
    .max_msg_blocks = red_one,
    .max_hold = red_one,
};
