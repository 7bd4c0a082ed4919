/* gather_binomial: gather up the spanning binomial tree.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, Fig. 10(b):
 *             "The dual operation, gather, is implemented by simply
 *             reversing the direction of message transmission" of the
 *             scatter tree (apps/coll/scatter_binomial.c).
 * Machines:   any p (the SBT of ranks XOR the root when p is a power of
 *             two, else of ranks minus the root mod p: apps/coll/reduce.h).
 * Schedule:   T = ceil(lg p); at step t, m = 2^(t-1): relative rank r with
 *             r mod 2m = m sends to r - m all it holds, the blocks of
 *             relative ranks r .. min(r+m, p)-1 (the scatter's step T+1-t
 *             backwards; the message doubles every step).
 * Steps:      ceil(lg p).
 * Start-ups:  one send per node but the root, which receives ceil(lg p).
 * Cost:       ~ ceil(lg p) t_s + (p-1) l t_f at the root.
 */
#include "reduce.h"

const struct coll_algo coll_gather_binomial = {
    COLL_FACTS(gather, binomial),
    .nsteps = red_binomial_steps,
    .sends = red_binomial_gather_sends,
    .senders = red_binomial_gather_senders,
    .max_msg_blocks = red_binomial_max_subtree,
    .max_hold = red_nodes,
};
