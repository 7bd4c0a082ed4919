/* alltoall_pex_gen: complete exchange by Pairwise Exchange for a General
 * mesh (PEX-GEN).
 *
 * Source:     Thakur, Choudhary and Fox (1993), section 3.2, Figure 2.
 * Machines:   any p.
 * Schedule:   q = 2^ceil(lg p); step j = 1..q-1: node m exchanges block
 *             (m, m XOR j) with node m XOR j if m XOR j < p, else it idles
 *             this step.
 * Steps:      q - 1 (q = p when p is a power of two: then it is PEX).
 * Start-ups:  p - 1 sends per node (each pair meets exactly once); one
 *             block per message.
 * Cost:       sum over the q-1 steps of [alpha + L max(beta_ex, f(j) beta_sat)]
 *             over the nodes busy at step j; the paper bounds f(j) by PEX's,
 *             which holds on meshes whose rows are 2^k long (tested); with
 *             other row lengths XOR partners cross row ends and PEX's f(j)
 *             is no bound.
 */
#include "coll.h"

static int nsteps(const struct app_shape *sh) { return (int)next_pow2(sh->nodes) - 1; }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int partner = node ^ step;
    if (partner >= sh->nodes)
        return;
    coll_emit_msg(e, partner);
    coll_emit_blk(e, coll_lab(node, partner, sh->nodes));
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = node ^ step;
    return from[0] < sh->nodes;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long hold(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_alltoall_pex_gen = {
    COLL_FACTS(alltoall, pex_gen),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = hold,
};
