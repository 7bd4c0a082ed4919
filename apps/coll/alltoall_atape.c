/* alltoall_atape: all-to-all personalized exchange on a banyan network
 * by a Latin square (ATAPE).
 *
 * Source:     Yang and Wang, all-to-all personalized exchange in banyan
 *             networks (seed 004, second part): "All-to-All Personalized
 *             Exchange Algorithm Using a Latin Square", "The second
 *             construction of a Latin square" and "Generating Permutations
 *             for All-to-All Personalized Exchange in Banyan Networks".
 * Machines:   an n x n banyan, n = 2^m (TOPO=banyan, host/net/net_topo.c): log2 n
 *             stages of 2x2 switches, one input and one output port per
 *             processor.
 * Schedule:   the Latin square LatinSquare(List{tau(0), .., tau(n-1)}):
 *             round i = 0..n-1 (step i+1) processor j sends its block for
 *             a_{i,j} to a_{i,j}, where
 *               row 0 = tau(j), tau = tau_{m-2} .. tau_1 tau_0 the
 *                 banyan's interstage permutations (tau_i swaps bits 0
 *                 and i+1), the network's permutation with every switch
 *                 straight;
 *               row i = phi_{k_i}(row i-1), phi_k flipping bit k-1, where
 *                 k_1, k_2, .. is BuildBasicList(m): phi_1 phi_2 phi_1
 *                 phi_3 phi_1 phi_2 phi_1 .. (k_i = 1 + the trailing zero
 *                 bits of i).
 *             The extracted slides lose the body of BuildLatinSquare; we
 *             read it as "row 0 is the list, row i applies the i-th basic
 *             permutation of BL to row i-1", which gives the slides' 8x8
 *             square entry for entry (tests/unit/test_atape.c). Every row
 *             is one of the banyan's admissible permutations (each stage
 *             set to I or phi_1), so no two worms of a round share a link.
 *             The block a processor keeps for itself (the one round where
 *             a_{i,j} = j) is copied, not sent: that round it sends
 *             nothing.
 * Steps:      n, one round of the square each (1 on 2 processors, whose
 *             row 0 moves nothing).
 * Start-ups:  n - 1 sends (and receives) per node; one block per message.
 * Cost:       n rounds of one contention-free permutation each: about
 *             (n - 1) (alpha + L beta) + (log n + 1) hop delays, O(n + log n)
 *             (the slides' bound, which matches their Omega(n + log n)
 *             lower bound for the banyan).
 */
#include "coll.h"

/* tau: tau_0 first, then tau_1, .., tau_{m-2}. */
static int tau(int x, int m)
{
    for (int i = 0; i + 2 <= m; i++) {
        int a = x & 1, b = x >> (i + 1) & 1;
        if (a != b)
            x ^= 1 | 1 << (i + 1);
    }
    return x;
}

/* tau's inverse: each tau_i is its own inverse, so undo them last first. */
static int tau_inv(int x, int m)
{
    for (int i = m - 2; i >= 0; i--) {
        int a = x & 1, b = x >> (i + 1) & 1;
        if (a != b)
            x ^= 1 | 1 << (i + 1);
    }
    return x;
}

/* What the first i basic permutations of BL do together: each phi_k
 * flips bit k-1 and they commute, so row i = row 0 XOR the flips of
 * k_1 .. k_i, which is the i-th Gray code (the slides' remark that BL
 * applied to 0 runs through the Gray code). */
static int row_mask(int i) { return i ^ i >> 1; }

/* The square's row of a step. On 2 processors (one switch) row 0 is the
 * identity, a round in which both keep their own block and nothing
 * moves: the schedule starts at row 1 there. On 4 and more, row 0 sends
 * (tau(1) = 2) and every row has messages. */
static int row_of(const struct app_shape *sh, int step) { return step - 1 + (sh->nodes == 2); }

static int nsteps(const struct app_shape *sh) { return sh->nodes == 2 ? 1 : sh->nodes; }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int to = tau(node, ilog2(sh->nodes)) ^ row_mask(row_of(sh, step));
    if (to == node)
        return;                          /* its own block: copied, not sent */
    coll_emit_msg(e, to);
    coll_emit_blk(e, coll_lab(node, to, sh->nodes));
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int src = tau_inv(node ^ row_mask(row_of(sh, step)), ilog2(sh->nodes));
    if (src == node)
        return 0;
    from[0] = src;
    return 1;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long hold(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_alltoall_atape = {
    COLL_FACTS(alltoall, atape),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = hold,
};
