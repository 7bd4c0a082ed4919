/* alltoall_pex: complete exchange by Pairwise Exchange (PEX).
 *
 * Source:     Thakur, Choudhary and Fox, "Complete Exchange on a Wormhole
 *             Routed Mesh" (1993), section 3.1, Figure 1 and Table 1.
 * Machines:   p a power of two (the paper's power-of-two mesh; any topology).
 * Schedule:   step i = 1..p-1: node j exchanges block (j, j XOR i) with
 *             node j XOR i. Every step is a set of pairwise exchanges.
 * Steps:      p - 1.
 * Start-ups:  p - 1 sends (and receives) per node; one block per message.
 * Cost:       T = (p-1) alpha + L sum_{i=1}^{p-1} max(beta_ex, f(i) beta_sat)
 *             with f(i) the most messages sharing a link at step i. On an
 *             r x c mesh (c = dims[0], ranks row-major) the paper gives
 *             f(i) = 2^{lg max(i mod c, i/c)}; the extracted text shows a
 *             ceiling, which gives 4 at i = 3 where only 2 messages can
 *             meet. We read it as 2^floor(lg max(i mod c, floor(i/c))),
 *             which tests/unit/test_sched.c finds exact under XY routing
 *             for every power-of-two mesh it tries, and which respects the
 *             paper's bound max(r, c)/2.
 */
#include "coll.h"

const struct coll_algo coll_alltoall_pex = {
    COLL_FACTS(alltoall, pex),
    .nsteps = coll_xor_nsteps,
    .sends = coll_xor_sends,
    .senders = coll_xor_senders,
    .max_msg_blocks = coll_xor_msg_blocks,
    .max_hold = coll_xor_held_blocks,
};
