/* The rooted trees of the scatter, gather, reduction and barrier
 * schedules (apps/coll/reduce.h states them). Pure C, host and node. */
#include "reduce.h"

int red_ceil_lg(long x)
{
    return ilog2(next_pow2(x));
}

int red_root(const struct app_shape *sh)
{
    return sh->cx ? sh->cx->root : 0;
}

/* Relative ranks of the binomial tree: XOR on power-of-two machines (the
 * hypercube's SBT from any source), else rotation. */
static int rel(const struct app_shape *sh, int node, int root)
{
    int p = sh->nodes;
    return is_pow2(p) ? node ^ root : (node - root + p) % p;
}

static int absr(const struct app_shape *sh, int r, int root)
{
    int p = sh->nodes;
    return is_pow2(p) ? r ^ root : (r + root) % p;
}

/* The dimension of scatter step g of RED_DIMS and the halving mask there. */
static int dims_step(const struct app_shape *sh, int g, int *mask)
{
    for (int i = 0; i < sh->ndims; i++) {
        int L = red_ceil_lg(sh->dims[i]);
        if (g <= L) {
            *mask = 1 << (L - g);
            return i;
        }
        g -= L;
    }
    return -1;
}

int red_tree_steps(enum red_tree k, const struct app_shape *sh)
{
    if (k == RED_BINOMIAL)
        return red_ceil_lg(sh->nodes);
    int T = 0;
    for (int i = 0; i < sh->ndims; i++)
        T += red_ceil_lg(sh->dims[i]);
    return T;
}

/* RED_DIMS: node's relative coordinate in the dimension i of step g, or -1
 * if a coordinate above i differs from the root's (not yet reached). */
static int dims_rel(const struct app_shape *sh, int root, int node, int i, int c[SHAPE_MAX_DIMS],
                    int rc[SHAPE_MAX_DIMS])
{
    shape_coords(sh, node, c);
    shape_coords(sh, root, rc);
    for (int j = i + 1; j < sh->ndims; j++)
        if (c[j] != rc[j])
            return -1;
    return (c[i] - rc[i] + sh->dims[i]) % sh->dims[i];
}

int red_tree_child(enum red_tree k, const struct app_shape *sh, int root, int node, int g)
{
    if (k == RED_BINOMIAL) {
        int m = 1 << (red_tree_steps(k, sh) - g), r = rel(sh, node, root);
        return r % (2 * m) == 0 && r + m < sh->nodes ? absr(sh, r + m, root) : -1;
    }
    int m, i = dims_step(sh, g, &m), c[SHAPE_MAX_DIMS], rc[SHAPE_MAX_DIMS];
    if (i < 0)
        return -1;
    int r = dims_rel(sh, root, node, i, c, rc);
    if (r < 0 || r % (2 * m) != 0 || r + m >= sh->dims[i])
        return -1;
    c[i] = (rc[i] + r + m) % sh->dims[i];
    return shape_rank(sh, c);
}

int red_tree_parent(enum red_tree k, const struct app_shape *sh, int root, int node, int g)
{
    if (k == RED_BINOMIAL) {
        int m = 1 << (red_tree_steps(k, sh) - g), r = rel(sh, node, root);
        return r % (2 * m) == m ? absr(sh, r - m, root) : -1;
    }
    int m, i = dims_step(sh, g, &m), c[SHAPE_MAX_DIMS], rc[SHAPE_MAX_DIMS];
    if (i < 0)
        return -1;
    int r = dims_rel(sh, root, node, i, c, rc);
    if (r < 0 || r % (2 * m) != m)
        return -1;
    c[i] = (rc[i] + r - m) % sh->dims[i];
    return shape_rank(sh, c);
}

void red_emit_box(const struct app_shape *sh, const int lo[SHAPE_MAX_DIMS], const int n[SHAPE_MAX_DIMS],
                  int reps, struct coll_emit *e)
{
    int k[SHAPE_MAX_DIMS] = { 0 }, c[SHAPE_MAX_DIMS] = { 0 }, nd = sh->ndims;
    for (int q = 0; q < reps; q++)
        for (;;) {
            for (int j = 0; j < nd; j++)
                c[j] = (lo[j] + k[j]) % sh->dims[j];
            coll_emit_blk(e, shape_rank(sh, c) + q * sh->nodes);
            int j = 0;                                  /* odometer, dimension 0 fastest */
            while (j < nd && ++k[j] == n[j])
                k[j++] = 0;
            if (j == nd)
                break;
        }
}

void red_tree_subtree(enum red_tree k, const struct app_shape *sh, int root, int child, int g,
                      struct coll_emit *e)
{
    if (k == RED_BINOMIAL) {
        int m = 1 << (red_tree_steps(k, sh) - g), r = rel(sh, child, root);
        for (int x = r; x < r + m && x < sh->nodes; x++)
            coll_emit_blk(e, absr(sh, x, root));
        return;
    }
    int m = 1, i = dims_step(sh, g, &m), c[SHAPE_MAX_DIMS], rc[SHAPE_MAX_DIMS];
    int lo[SHAPE_MAX_DIMS], n[SHAPE_MAX_DIMS];
    if (i < 0)
        return;
    int r = dims_rel(sh, root, child, i, c, rc);
    for (int j = 0; j < sh->ndims; j++) {
        lo[j] = j < i ? c[j] : 0;
        n[j] = j < i ? 1 : sh->dims[j];
    }
    lo[i] = c[i];
    n[i] = r + m < sh->dims[i] ? m : sh->dims[i] - r;
    red_emit_box(sh, lo, n, 1, e);
}

long red_tree_max_subtree(enum red_tree k, const struct app_shape *sh)
{
    long best = 0;
    if (k == RED_BINOMIAL) {
        int T = red_tree_steps(k, sh);
        for (int g = 1; g <= T; g++) {                  /* the root's message is the largest */
            long m = 1l << (T - g), n = (2 * m < sh->nodes ? 2 * m : sh->nodes) - m;
            if (n > best)
                best = n;
        }
        return best;
    }
    for (int i = 0; i < sh->ndims; i++) {
        long above = 1;
        for (int j = i + 1; j < sh->ndims; j++)
            above *= sh->dims[j];
        int L = red_ceil_lg(sh->dims[i]);
        for (int t = 1; t <= L; t++) {
            long m = 1l << (L - t), n = ((2 * m < sh->dims[i] ? 2 * m : sh->dims[i]) - m) * above;
            if (n > best)
                best = n;
        }
    }
    return best;
}

void red_up_sends(enum red_tree k, const struct app_shape *sh, int root, int node, int t, int label,
                  struct coll_emit *e)
{
    int parent = red_tree_parent(k, sh, root, node, red_tree_steps(k, sh) + 1 - t);
    if (parent < 0)
        return;
    coll_emit_msg(e, parent);
    coll_emit_blk(e, label);
}

int red_up_senders(enum red_tree k, const struct app_shape *sh, int root, int node, int t,
                   int from[COLL_MAX_MSGS])
{
    from[0] = red_tree_child(k, sh, root, node, red_tree_steps(k, sh) + 1 - t);
    return from[0] >= 0;
}

void red_down_sends(enum red_tree k, const struct app_shape *sh, int root, int node, int t, int label,
                    enum coll_mode mode, struct coll_emit *e)
{
    int child = red_tree_child(k, sh, root, node, t);
    if (child < 0)
        return;
    coll_emit_msg(e, child);
    coll_emit_mode(e, mode);
    coll_emit_blk(e, label);
}

int red_down_senders(enum red_tree k, const struct app_shape *sh, int root, int node, int t,
                     int from[COLL_MAX_MSGS])
{
    from[0] = red_tree_parent(k, sh, root, node, t);
    return from[0] >= 0;
}

int red_updown_nsteps(const struct app_shape *sh) { return 2 * red_tree_steps(RED_BINOMIAL, sh); }

void red_updown_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int T = red_tree_steps(RED_BINOMIAL, sh);
    if (step <= T)
        red_up_sends(RED_BINOMIAL, sh, 0, node, step, 0, e);
    else
        red_down_sends(RED_BINOMIAL, sh, 0, node, step - T, 0, COLL_REPLACE, e);
}

int red_updown_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int T = red_tree_steps(RED_BINOMIAL, sh);
    return step <= T ? red_up_senders(RED_BINOMIAL, sh, 0, node, step, from)
                     : red_down_senders(RED_BINOMIAL, sh, 0, node, step - T, from);
}

long red_one(const struct app_shape *sh) { (void)sh; return 1; }

/* The per-tree hooks (reduce.h); a gathering step t runs the scatter's
 * step g = T + 1 - t backwards. */
#define RED_TREE_HOOKS(t, K)                                                                       \
    int red_##t##_steps(const struct app_shape *sh) { return red_tree_steps(K, sh); }              \
    void red_##t##_scatter_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e) \
    {                                                                                              \
        int root = red_root(sh), child = red_tree_child(K, sh, root, node, step);                  \
        if (child < 0)                                                                             \
            return;                                                                                \
        coll_emit_msg(e, child);                                                                   \
        red_tree_subtree(K, sh, root, child, step, e);                                             \
    }                                                                                              \
    int red_##t##_scatter_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]) \
    {                                                                                              \
        from[0] = red_tree_parent(K, sh, red_root(sh), node, step);                                \
        return from[0] >= 0;                                                                       \
    }                                                                                              \
    void red_##t##_gather_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e) \
    {                                                                                              \
        int root = red_root(sh), g = red_tree_steps(K, sh) + 1 - step;                            \
        int parent = red_tree_parent(K, sh, root, node, g);                                        \
        if (parent < 0)                                                                            \
            return;                                                                                \
        coll_emit_msg(e, parent);                                                                  \
        red_tree_subtree(K, sh, root, node, g, e);                                                 \
    }                                                                                              \
    int red_##t##_gather_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]) \
    {                                                                                              \
        from[0] = red_tree_child(K, sh, red_root(sh), node, red_tree_steps(K, sh) + 1 - step);     \
        return from[0] >= 0;                                                                       \
    }                                                                                              \
    void red_##t##_reduce_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e) \
    {                                                                                              \
        red_up_sends(K, sh, red_root(sh), node, step, 0, e);                                       \
    }                                                                                              \
    int red_##t##_reduce_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]) \
    {                                                                                              \
        return red_up_senders(K, sh, red_root(sh), node, step, from);                              \
    }                                                                                              \
    long red_##t##_max_subtree(const struct app_shape *sh) { return red_tree_max_subtree(K, sh); }
RED_TREE_HOOKS(binomial, RED_BINOMIAL)
RED_TREE_HOOKS(dims, RED_DIMS)
#undef RED_TREE_HOOKS

long red_nodes(const struct app_shape *sh) { return sh->nodes; }
