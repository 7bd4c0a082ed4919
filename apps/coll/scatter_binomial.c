/* scatter_binomial: scatter down the spanning binomial tree.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, Fig. 10(a):
 *             "Messages for individual nodes are sent from the source down
 *             the appropriate branch; each node stores its own messages and
 *             forwards the rest, as necessary, to its children", on the
 *             spanning binomial tree (SBT) of section 4.
 * Machines:   any p (on a hypercube, and any power-of-two p, the tree is
 *             the SBT of ranks XOR the root; else of ranks minus the root
 *             mod p: apps/coll/reduce.h).
 * Schedule:   T = ceil(lg p); at step g, m = 2^(T-g): relative rank r with
 *             r mod 2m = 0 and r + m < p sends to r + m the blocks of
 *             relative ranks r+m .. min(r+2m, p)-1 (highest dimension
 *             first, so the message halves every step).
 * Steps:      ceil(lg p).
 * Start-ups:  the root sends ceil(lg p) messages; no node receives twice.
 * Cost:       sum_g (t_s + m_g l t_f) ~ ceil(lg p) t_s + (p-1) l t_f at the
 *             root; on a hypercube every edge joins neighbours.
 */
#include "reduce.h"

const struct coll_algo coll_scatter_binomial = {
    COLL_FACTS(scatter, binomial),
    .nsteps = red_binomial_steps,
    .sends = red_binomial_scatter_sends,
    .senders = red_binomial_scatter_senders,
    .max_msg_blocks = red_binomial_max_subtree,
    .max_hold = red_nodes,
};
