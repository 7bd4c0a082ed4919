/* gather_binomial: gather up the spanning binomial tree.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, Fig. 10(b):
 *             "The dual operation, gather, is implemented by simply
 *             reversing the direction of message transmission" of the
 *             scatter tree (apps/coll/scatter_binomial.c).
 * Machines:   any p (the SBT of ranks XOR the root when p is a power of
 *             two, else of ranks minus the root mod p: apps/coll/reduce.h).
 * Schedule:   T = ceil(lg p); at step t, m = 2^(t-1): relative rank r with
 *             r mod 2m = m sends to r - m all it holds, the blocks of
 *             relative ranks r .. min(r+m, p)-1 (the scatter's step T+1-t
 *             backwards; the message doubles every step).
 * Steps:      ceil(lg p).
 * Start-ups:  one send per node but the root, which receives ceil(lg p).
 * Cost:       ~ ceil(lg p) t_s + (p-1) l t_f at the root.
 */
#include "reduce.h"

static int nsteps(const struct app_shape *sh) { return red_tree_steps(RED_BINOMIAL, sh); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int root = red_root(sh), g = nsteps(sh) + 1 - step;
    int parent = red_tree_parent(RED_BINOMIAL, sh, root, node, g);
    if (parent < 0)
        return;
    coll_emit_msg(e, parent);
    red_tree_subtree(RED_BINOMIAL, sh, root, node, g, e);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = red_tree_child(RED_BINOMIAL, sh, red_root(sh), node, nsteps(sh) + 1 - step);
    return from[0] >= 0;
}

static long msg(const struct app_shape *sh) { return red_tree_max_subtree(RED_BINOMIAL, sh); }
static long all(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_gather_binomial = {
    .op = COLL_GATHER,
    .name = "binomial",
    .app = "gather_binomial",
    .restr = APP_ANY,
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = all,
};
