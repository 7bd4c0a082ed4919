/* reduce_binomial: N/1 reduction up the spanning binomial tree.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, Fig. 10(b):
 *             "The same structure can be used to implement all-to-one
 *             reduction, in which case the reduction operation is performed
 *             pairwise on data items as they proceed towards the root" (the
 *             gather tree, apps/coll/gather_binomial.c).
 * Machines:   any p; any root (the SBT of ranks XOR the root when p is a
 *             power of two, else of ranks minus the root mod p).
 * Schedule:   T = ceil(lg p); at step t, m = 2^(t-1): relative rank r with
 *             r mod 2m = m sends its partial vector (label 0, COMBINE) to
 *             r - m, which has by then combined those of its whole subtree
 *             r .. min(r+m, p)-1 below r.
 * Steps:      ceil(lg p).
 * Start-ups:  one send per node but the root; every message the whole
 *             vector of l bytes.
 * Cost:       ceil(lg p) (t_s + l t_f + combine time).
 */
#include "reduce.h"

static int nsteps(const struct app_shape *sh) { return red_tree_steps(RED_BINOMIAL, sh); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    red_up_sends(RED_BINOMIAL, sh, red_root(sh), node, step, 0, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    return red_up_senders(RED_BINOMIAL, sh, red_root(sh), node, step, from);
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }

const struct coll_algo coll_reduce_binomial = {
    .op = COLL_REDUCE,
    .name = "binomial",
    .app = "reduce_binomial",
    .restr = APP_ANY,
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
};
