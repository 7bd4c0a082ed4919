/* alltoall_pex_gen_shift: PEX-GEN with a processor shift (PEX-GEN-SHIFT).
 *
 * Source:     Thakur, Choudhary and Fox (1993), section 3.3, Figures 3-4.
 * Machines:   any p.
 * Schedule:   q = 2^ceil(lg p), shift = floor((q - p)/2); node m has the
 *             virtual number v = m + shift; at step j = 1..q-1 its partner
 *             is vd - shift (plus q if negative) with vd = v XOR j, and it
 *             exchanges block (m, partner) if partner < p, else idles.
 *             The idle virtual numbers are split between both halves of
 *             0..q-1, which balances the contention over the steps.
 *             Reading: Figure 4 as extracted writes myvirtual =
 *             mod(mynumber + shift, p), but Figure 3(b) numbers the real
 *             processors 0..19 as virtual 6..25, i.e. mod q (a no-op since
 *             m + shift < q); mod p would give node p-shift the virtual 0
 *             while its partners still compute it as p, so pairs would not
 *             match (tests/unit/test_sched.c shows the mod-p reading fails).
 * Steps:      q - 1.
 * Start-ups:  p - 1 sends per node; one block per message.
 * Cost:       as PEX-GEN, with f(j) at most PEX's.
 */
#include "coll.h"

static int partner_of(const struct app_shape *sh, int node, int step)
{
    int q = (int)next_pow2(sh->nodes), shift = (q - sh->nodes) / 2;
    int d = ((node + shift) ^ step) - shift;
    if (d < 0)
        d += q;
    return d;
}

static int nsteps(const struct app_shape *sh) { return (int)next_pow2(sh->nodes) - 1; }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int partner = partner_of(sh, node, step);
    if (partner >= sh->nodes)
        return;
    coll_emit_msg(e, partner);
    coll_emit_blk(e, coll_lab(node, partner, sh->nodes));
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = partner_of(sh, node, step);
    return from[0] < sh->nodes;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long hold(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_alltoall_pex_gen_shift = {
    COLL_FACTS(alltoall, pex_gen_shift),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = hold,
};
