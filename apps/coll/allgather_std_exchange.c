/* allgather_std_exchange: all-to-all broadcast by the standard exchange
 * pattern on a hypercube.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7: "The same
 *             message-passing pattern can be used for other operations ...
 *             In each step of all-to-all broadcast, every node sends its
 *             own message as well as all those it has received from other
 *             nodes; the message size in step i is m 2^(i-1)", and All-to-All
 *             Broadcast: time n t_s + (N-1) l t_f.
 * Machines:   a hypercube of N = 2^n nodes.
 * Schedule:   step k = 1..n: node i exchanges with node i XOR 2^(k-1) all
 *             the blocks it holds: those of the nodes equal to i on bits
 *             k-1..n-1 (2^(k-1) blocks).
 * Steps:      n = log2 N, all between neighbours.
 * Start-ups:  n sends per node; 2^(k-1) blocks in step k.
 * Cost:       n t_s + (N-1) l t_f.
 */
#include "coll.h"

static int nsteps(const struct app_shape *sh) { return ilog2(sh->nodes); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    (void)sh;
    int bit = 1 << (step - 1), free_bits = bit - 1;
    coll_emit_msg(e, node ^ bit);
    for (int sub = 0;; sub = (sub - free_bits) & free_bits) {
        coll_emit_blk(e, (node & ~free_bits) | sub);
        if (sub == free_bits)
            break;
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)sh;
    from[0] = node ^ (1 << (step - 1));
    return 1;
}

static long half(const struct app_shape *sh) { return sh->nodes / 2; }
static long all(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_allgather_std_exchange = {
    COLL_FACTS(allgather, std_exchange),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = half,
    .max_hold = all,
};
