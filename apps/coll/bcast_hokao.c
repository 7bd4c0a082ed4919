/* bcast_hokao: broadcast by Ho and Kao's algorithm on an all-port
 * hypercube: dimension-simple paths splitting the cube into subcubes of
 * nearly equal size, and McKinley and Trefftz's Double Tree (DT) in the
 * small ones.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, "Trees
 *             designed for wormhole routing", Figures 8 and 9. DT: "the
 *             source node s sending the message to node s-bar, whose
 *             address is the bitwise complement of s. Subsequently, nodes
 *             s and s-bar become the roots of partial spanning binomial
 *             trees ... Addresses in the first tree are resolved by
 *             changing 0's to 1's, while addresses in the backward tree are
 *             resolved by changing 1's to 0's"; ceil(n/2) steps. Ho-Kao:
 *             "a single node can send a message to all the nodes along an
 *             ascending [dimension-simple] path simultaneously ... an
 *             n-dimensional cube can be partitioned into n + 1 subcubes
 *             such that each subcube contains one node on the
 *             dimension-simple path ... partitioned equally or nearly
 *             equally ... the time required is Theta(n / log2(n+1))"; the
 *             7-cube: one step along the path, then DT in eight 4-cubes.
 * Machines:   an all-port hypercube of N = 2^n nodes.
 * Reading:    this network's e-cube routing resolves the LOWEST differing
 *             bit first (the paper's example resolves top to bottom), so
 *             every path here is the mirror image: descending. In a
 *             subcube of source w and k free dimensions (positions 0..k-1,
 *             ascending), path node u_i (i = 0..k) is w with its top i
 *             positions complemented; the worm to u_i leaves w on position
 *             k-i and then climbs, so the k worms share no channel.
 *             Partition: u_0..u_k are split recursively, [a, b] into
 *             [a, c-1] and [c, b] with c = a + ceil((b-a+1)/2), on position
 *             k - c (u_i has it set iff i >= c): a balanced binary split,
 *             so part i is a subcube of k - depth_i free dimensions,
 *             depth_i = floor or ceil of log2(k+1), containing u_i, which
 *             broadcasts in it next (the recursion). DT (mirrored too): with
 *             y the position vector of x XOR w and c = floor(k/2), the
 *             forward tree holds pop(y) <= c, node y reached at step pop(y)
 *             from y minus its lowest bit, children y | 2^i for i below its
 *             lowest bit; the worm to the complement leaves w on position 0,
 *             so w sends to position 0's neighbour one step late (a leaf).
 *             The backward tree, rooted at the complement (reached in step
 *             1), holds the rest, the same tree on the complemented
 *             addresses, one step later. Forward worms set bits and
 *             backward worms clear them: no shared channel.
 *             Which one: a subcube of k dimensions uses DT when DT is
 *             strictly faster than one path step plus the largest part
 *             (only k = 4), else the path: H(k) = min(DT(k), 1 +
 *             H(k - floor(log2(k+1)))), DT(k) = ceil(k/2) for k >= 3, DT(2)
 *             = 2 (the complement's worm takes the root's position-0
 *             channel), DT(1) = 1. H(n) for n = 1..10: 1 2 2 2 3 3 3 4 4 4.
 * Schedule:   level by level from the root: a path step (the subcube source
 *             sends to u_1..u_k at once) or the DT steps of a subcube;
 *             every worm stays inside its own subcube, so subcubes never
 *             contend.
 * Steps:      H(n) as above (bcast_sbt: n); the lower bound of an all-port
 *             n-cube (n ports: (n+1)^t >= 2^n) is ceil(n / log2(n+1)).
 * Start-ups:  a subcube source sends k messages at once in a path step;
 *             under all-port they leave by different channels.
 * Cost:       H(n) (t_s + l t_f + D t_hop) with D <= n, staggered by the
 *             per-message sending latency at the sources.
 */
#include "coll.h"

static int popc(int x)
{
    int k = 0;
    for (; x; x &= x - 1)
        k++;
    return k;
}

static int lowbit(int x, int k)
{
    for (int i = 0; i < k; i++)
        if (x >> i & 1)
            return i;
    return k;
}

static int dt_steps(int k)
{
    int c = k / 2, t = k - c;
    if (c > t)
        t = c;
    if (c >= 1 && t < 2)
        t = 2;
    return k == 0 ? 0 : t;
}

static int hk_steps(int k);
static int use_dt(int k) { return k >= 1 && dt_steps(k) < 1 + hk_steps(k - ilog2(k + 1)); }
static int hk_steps(int k) { return k == 0 ? 0 : use_dt(k) ? dt_steps(k) : 1 + hk_steps(k - ilog2(k + 1)); }

/* A subcube: source w, free dimensions dim[0..k) ascending. */
struct sub {
    int w, k, dim[SHAPE_MAX_DIMS];
};

static int to_pos(const struct sub *s, int x)            /* position vector of x XOR w */
{
    int y = 0;
    for (int i = 0; i < s->k; i++)
        y |= ((x ^ s->w) >> s->dim[i] & 1) << i;
    return y;
}

static int to_node(const struct sub *s, int y)
{
    int x = s->w;
    for (int i = 0; i < s->k; i++)
        x ^= (y >> i & 1) << s->dim[i];
    return x;
}

static int top(int i, int k) { return ((1 << k) - 1) & ~((1 << (k - i)) - 1); }  /* u_i's positions */

/* Narrow s to the part of node x after a path step. */
static void descend(struct sub *s, int x)
{
    int k = s->k, y = to_pos(s, x), a = 0, b = k, fixed = 0;
    while (a < b) {
        int c = a + (b - a + 2) / 2, q = k - c;
        if (y >> q & 1)
            a = c;
        else
            b = c - 1;
        fixed |= 1 << q;
    }
    s->w = to_node(s, top(a, k));
    int n = 0;
    for (int i = 0; i < k; i++)
        if (!(fixed >> i & 1))
            s->dim[n++] = s->dim[i];
    s->k = n;
}

static void send1(const struct sub *s, int y, struct coll_emit *e)
{
    coll_emit_msg(e, to_node(s, y));
    coll_emit_blk(e, 0);
}

/* DT in subcube s at local step tau: what node y sends. */
static void dt_sends(const struct sub *s, int y, int tau, struct coll_emit *e)
{
    int k = s->k, c = k / 2, K = (1 << k) - 1;
    if (popc(y) <= c) {                                  /* forward tree */
        if (y == 0) {
            if (tau == 1) {
                send1(s, K, e);                          /* the complement */
                for (int i = 1; i < k && c >= 1; i++)
                    send1(s, 1 << i, e);
            } else if (tau == 2 && c >= 1) {
                send1(s, 1, e);                          /* delayed: position 0 was the complement's */
            }
        } else if (y != 1 && tau == popc(y) + 1 && popc(y) + 1 <= c) {
            for (int i = 0; i < lowbit(y, k); i++)
                send1(s, y | 1 << i, e);
        }
    } else {                                             /* backward tree, z = complemented y */
        int z = K ^ y;
        if (tau == popc(z) + 2 && popc(z) + 1 < k - c)
            for (int i = 0; i < lowbit(z, k); i++)
                send1(s, y & ~(1 << i), e);
    }
}

/* Who sends to node y in DT at local step tau (-1: nobody). */
static int dt_sender(const struct sub *s, int y, int tau)
{
    int k = s->k, c = k / 2, K = (1 << k) - 1;
    if (y == 0)
        return -1;
    if (popc(y) <= c) {
        int at = y == 1 ? 2 : popc(y);
        return tau == at ? y & (y - 1) : -1;
    }
    int z = K ^ y;
    if (z == 0)
        return tau == 1 ? 0 : -1;
    return tau == 1 + popc(z) ? K ^ (z & (z - 1)) : -1;
}

static void whole(const struct app_shape *sh, struct sub *s)
{
    s->w = sh->cx->root;
    s->k = ilog2(sh->nodes);
    for (int i = 0; i < s->k; i++)
        s->dim[i] = i;
}

static int nsteps(const struct app_shape *sh) { return hk_steps(ilog2(sh->nodes)); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    struct sub s;
    whole(sh, &s);
    for (int start = 1; s.k > 0; start++) {
        if (use_dt(s.k)) {
            dt_sends(&s, to_pos(&s, node), step - start + 1, e);
            return;
        }
        if (step == start) {
            if (node == s.w)
                for (int i = 1; i <= s.k; i++)
                    send1(&s, top(i, s.k), e);
            return;
        }
        descend(&s, node);
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    struct sub s;
    whole(sh, &s);
    for (int start = 1; s.k > 0; start++) {
        int y = to_pos(&s, node);
        if (use_dt(s.k)) {
            int f = dt_sender(&s, y, step - start + 1);
            if (f < 0)
                return 0;
            from[0] = to_node(&s, f);
            return 1;
        }
        if (step == start) {
            for (int i = 1; i <= s.k; i++)
                if (y == top(i, s.k)) {
                    from[0] = s.w;
                    return 1;
                }
            return 0;
        }
        descend(&s, node);
    }
    return 0;
}

static long one(const struct app_shape *sh)
{
    (void)sh;
    return 1;
}

/* Every message is the one block, but a path step has a source send k <= n
 * of them, and the executor's label room for one step is 4 max_hold + 2
 * max_msg_blocks: so max_msg_blocks is raised to make n + 1 labels fit. */
static long msg_room(const struct app_shape *sh)
{
    long n = ilog2(sh->nodes), m = (n - 2) / 2;
    return m < 1 ? 1 : m;
}

const struct coll_algo coll_bcast_hokao = {
    COLL_FACTS(bcast, hokao),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg_room,
    .max_hold = one,
};
