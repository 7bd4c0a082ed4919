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

static int nsteps(const struct app_shape *sh) { return red_tree_steps(RED_BINOMIAL, sh); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int root = red_root(sh), child = red_tree_child(RED_BINOMIAL, sh, root, node, step);
    if (child < 0)
        return;
    coll_emit_msg(e, child);
    red_tree_subtree(RED_BINOMIAL, sh, root, child, step, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = red_tree_parent(RED_BINOMIAL, sh, red_root(sh), node, step);
    return from[0] >= 0;
}

static long msg(const struct app_shape *sh) { return red_tree_max_subtree(RED_BINOMIAL, sh); }
static long all(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_scatter_binomial = {
    .op = COLL_SCATTER,
    .name = "binomial",
    .app = "scatter_binomial",
    .restr = APP_ANY,
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = all,
};
