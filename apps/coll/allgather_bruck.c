/* allgather_bruck: all-to-all broadcast by Bruck's concatenation for any
 * node count.
 *
 * Source:     Bruck, Ho, Kipnis, Upfal and Weathersby (1997), "Efficient
 *             algorithms for all-to-all communications in multiport
 *             message-passing systems", IEEE TPDS 8(11): the concatenation
 *             algorithm with one port; the allgather of MPICH for p not a
 *             power of two (Thakur, Rabenseifner and Gropp, 2005).
 * Machines:   any p.
 * Schedule:   step k = 1..ceil(lg p), d = 2^(k-1): node i sends the blocks
 *             i, i+1, ..., i+c-1 (mod p), c = min(d, p - d), to node i - d
 *             (mod p) and receives i+d, ..., i+d+c-1 from node i + d. Before
 *             step k node i holds i..i+d-1; after the last, all p. The
 *             paper's final local rotation is not needed: blocks are placed
 *             by their labels.
 * Steps:      ceil(lg p).
 * Start-ups:  ceil(lg p) sends per node; 2^(k-1) blocks in step k, p - 2^(K-1)
 *             in the last step K: p - 1 blocks in all.
 * Cost:       ceil(lg p) alpha + (p-1) L beta without contention.
 */
#include "coll.h"

static int nsteps(const struct app_shape *sh) { return ilog2(next_pow2(sh->nodes)); }

static int dist(int step) { return 1 << (step - 1); }

static int count(int p, int step)
{
    int d = dist(step);
    return d < p - d ? d : p - d;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int p = sh->nodes, d = dist(step);
    coll_emit_msg(e, (node - d + p) % p);
    for (int j = 0; j < count(p, step); j++)
        coll_emit_blk(e, (node + j) % p);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = (node + dist(step)) % sh->nodes;
    return 1;
}

static long most(const struct app_shape *sh)
{
    int m = 0;
    for (int k = 1; k <= nsteps(sh); k++)
        if (count(sh->nodes, k) > m)
            m = count(sh->nodes, k);
    return m;
}

static long all(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_allgather_bruck = {
    COLL_FACTS(allgather, bruck),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = most,
    .max_hold = all,
};
