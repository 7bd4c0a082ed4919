/* alltoall_direct: the direct algorithm for hypercubes and its variant for
 * 2D meshes.
 *
 * Source:     McKinley, Tsai and Robinson, "Collective Communication in
 *             Wormhole-Routed Massively Parallel Computers" (1994),
 *             section 7, Complete Exchange: the direct algorithm for
 *             hypercubes [22] and for 2D meshes [23], Figure 26.
 * Machines:   a hypercube of N = 2^n nodes, or a 2D mesh of N = 2^k nodes
 *             numbered row-major (our ranks: dims[0] varies fastest, so a
 *             row is dimension 0).
 * Schedule:   step k = 1..N-1: node i sends M(i,j) to j = i XOR k and
 *             receives M(j,i) from it; every message goes straight from
 *             its source to its destination.
 * Steps:      N - 1.
 * Start-ups:  N - 1 sends per node; one block per message.
 * Cost:       (N-1)(t_s + l t_f). On a hypercube it is stepwise
 *             contention-free under e-cube routing; on a 2D mesh it is not
 *             (on the paper's 2 x 4 mesh, our DIMS=4x2, steps 2, 3, 6 and
 *             7 contend); tests/unit/test_sched.c checks both statements.
 */
#include "coll.h"

const struct coll_algo coll_alltoall_direct = {
    COLL_FACTS(alltoall, direct),
    .nsteps = coll_xor_nsteps,
    .sends = coll_xor_sends,
    .senders = coll_xor_senders,
    .max_msg_blocks = coll_xor_msg_blocks,
    .max_hold = coll_xor_held_blocks,
};
