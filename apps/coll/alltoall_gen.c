/* alltoall_gen: the General algorithm for any mesh (GEN).
 *
 * Source:     Thakur, Choudhary and Fox (1993), section 3.4, Figure 5.
 * Machines:   any p.
 * Schedule:   step i = 1..p-1: node j sends block (j, (j+i) mod p) to
 *             node (j+i) mod p and receives from node (j-i) mod p. Pairs
 *             do not exchange: the message out and the message in may
 *             cross links with different contention.
 * Steps:      p - 1.
 * Start-ups:  p - 1 sends per node; one block per message.
 * Cost:       T = (p-1) alpha + L sum_{i=1}^{p-1} max(beta_sr, f(i) beta_sat),
 *             f(i) = min(i mod c, c - i mod c) + min(i/c, (p-i)/c) on an
 *             r x c mesh (c = dims[0], integer division). Under XY routing
 *             this is an upper bound of the contention, not always reached
 *             (tests/unit/test_sched.c checks the bound for every step).
 */
#include "coll.h"

static int nsteps(const struct app_shape *sh) { return sh->nodes - 1; }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int to = (node + step) % sh->nodes;
    coll_emit_msg(e, to);
    coll_emit_blk(e, coll_lab(node, to, sh->nodes));
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = (node - step + sh->nodes) % sh->nodes;
    return 1;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long hold(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_alltoall_gen = {
    COLL_FACTS(alltoall, gen),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = hold,
};
