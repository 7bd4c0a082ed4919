/* The broadcast of Tseng et al. (seed 001) on an all-port k-D torus
 * n x ... x n with dimension-ordered routing: the construction shared by
 * bcast_tseng2d, bcast_tseng3d and bcast_tsengkd.
 *
 * Reading of the paper (the extracted text lost most formulas; this is the
 * reading that reproduces every stated step count and example):
 *   Coordinates are taken relative to the root (torus symmetry), paper
 *   dimension j = our dimension j-1 (x = dimension 0 is routed first, in
 *   the paper as in our network: the paper's first step sends p0 -> p(t,t)
 *   and p0 -> p(0,2t) at once, which only X-first routing keeps apart).
 *   e_{a,b} = e_a + e_b, e_{a,-b} = e_a - e_b.
 *   Stage i = 1..k turns U_(i-1) into U_i, where
 *     U_i = SPAN(0; e_{1,k}, e_{1,k-1}, ..., e_{1,k-i+1}), e_{1,1} = e_1
 *   (U_1 the line (a,0,..,0,a), U_2 the plane x_1 = x_(k-1) + x_k in 3-D,
 *   U_k the torus). Stage i sees the torus as n "super-nodes" W_d, the
 *   level sets f_i(x) = d of
 *     f_1(x) = x_k;   f_i(x) = x_1 - (x_(k-i+2) + ... + x_k), i >= 2,
 *   (3-D: XY-planes, then the planes x - z = d, then x - y - z = d: the
 *   paper's perspectives of Fig. 3 and 4, partitioned "along e_3", then
 *   "along e_1"). U_(i-1) lies in W_0 and U_i holds one translate of
 *   U_(i-1) in each W_d, namely d e_{1,k-i+1} + U_(i-1).
 *   Distribution (5.1): the super-nodes form a path of n; recursively cut
 *   a segment of m into 2k+1 consecutive parts P_-k..P_k of at most
 *   ceil(m/(2k+1)) super-nodes, the segment's source in P_0 (the paper
 *   takes n = (2k+1)t; for any n: below the top the sizes are
 *   floor(m/(2k+1)) or one more, extras paired on P_j and P_-j (sizes());
 *   at the top, P_0 has ceil(n/(2k+1)) or fewer and each side about half
 *   the rest, chosen so that every message goes the way the router takes,
 *   see try_top); in one step every holder u in the source
 *   super-node sends to u + alpha_j r_|j| for each part j != 0, alpha_j
 *   the signed distance from the source to P_j's source, r the rows of
 *   the routing matrix (Definition 6):
 *     stage 1:   r_j = e_{j,k} (j < k), r_k = e_k;
 *     stage i>1: r_1 = e_1, r_j = e_{j,-k} (2 <= j <= k-i+1),
 *                r_j = -e_j (j >= k-i+2);
 *   every row has f_i(r) = 1, so the message lands alpha_j super-nodes
 *   away, in P_j. The recursion stops when parts have one super-node:
 *   ceil(log_(2k+1) n) steps. (A part's source is where its own P_0's
 *   source lies, so the layout is consistent at every level.)
 *   Alignment (5.2): in W_d the holders are v_d + U_(i-1); they move by
 *   w' = d e_{1,k-i+1} - v_d reduced modulo SPAN(U_(i-1)) to dimensions
 *   2..k-i+1 (stage 1: 1..k-1; Lemma 6). One step; none in stage k.
 *   2-D (section 3) is k = 2 with the last stage's distances swapped:
 *   x moves 2t, y moves t (p(i,i) -> p(i-2t,i), p(i,i+t) ...).
 *
 * Why every step is contention-free under our routing (dimension 0 first,
 * shorter way, ties + ): the rows have distinct first dimensions, so a
 * sender's 2k messages leave on 2k different channels; a dimension-j line
 * holds one node of any translate of U_(i-1) (Lemma 3) and the second leg
 * (along e_k) of row e_{j,-k} from u is on the line u + alpha e_j + SPAN(e_k),
 * which no other message uses (Lemma 4); every path moves f_i monotonically
 * from the source to the target super-node, so different segments use
 * disjoint channels; the alignment moves only along dimensions where the
 * translates of U_(i-1) meet each line once. Every leg is shorter than
 * n/2, or exactly n/2 going + (the top level is laid out so, and deeper
 * segments are shorter than n/2), so the router's shorter way is the
 * intended way; the unit tests check every step of every n they try.
 *
 * COPY (every node receives M once): a distribution target whose
 * super-node then aligns away keeps its copy (a "relay"); later stages
 * reach it again, so the message to a relay is not sent, and the relay
 * forwards from its own copy. Leaving messages out keeps every step
 * contention-free and, as tested, never empties a step.
 *
 * Steps: k ceil(log_(2k+1) n) + k - 1 (Theorem 2), less one when n <= 3:
 * then only P_1 and P_-1 are used in stage 1, whose sources (row e_{1,k})
 * already lie on the line U_1, and the paper's alignment step is empty.
 */
#include <stdio.h>
#include "tseng.h"

#define KMAX 8                               /* 2k messages per step <= COLL_MAX_MSGS */

struct tg {
    int k, n, P, L;                          /* P = 2k+1 parts, L levels */
    int top[KMAX + 1];                       /* stage i: the path of super-nodes is top..top+n-1 */
    int tsz[KMAX + 1][2 * KMAX + 1];         /* stage i: the sizes of the top-level parts */
    enum tseng_variant v;
    int root[SHAPE_MAX_DIMS];
};

int tseng_levels(int k, int n)
{
    int L = 0;
    for (long p = 1; p < n; p *= 2 * k + 1)
        L++;
    return L;
}

int tseng_paper_steps(int k, int n) { return k * tseng_levels(k, n) + k - 1; }

static int mod(int a, int n) { return ((a % n) + n) % n; }

/* Sizes of the parts of a segment of m super-nodes (sz[j + k], j = -k..k):
 * floor(m/(2k+1)) or one more; the extras go in pairs to P_1 and P_-1,
 * P_2 and P_-2 ..., and the odd one (or the one that keeps P_0 from being
 * empty) to P_0, so the source stays within a super-node of the middle. */
static void sizes(const struct tg *g, int m, int sz[2 * KMAX + 1])
{
    int q = m / g->P, r = m % g->P, k = g->k;
    for (int j = 0; j < g->P; j++)
        sz[j] = q;
    if (r % 2 || !q) {
        sz[k]++;
        r--;
    }
    for (int j = 1; r > 0; j++, r -= 2) {
        sz[k + j]++;
        if (r > 1)
            sz[k - j]++;
    }
}

/* Where the source of a segment of m super-nodes sits, from its start. */
static int pos(const struct tg *g, int m)
{
    if (m <= 1)
        return 0;
    int sz[2 * KMAX + 1], below = 0;
    sizes(g, m, sz);
    for (int j = 0; j < g->k; j++)
        below += sz[j];
    return below + pos(g, sz[g->k]);
}

/* Row r (1-based) of stage i's routing matrix, the one part +-a uses. */
static void row(const struct tg *g, int i, int a, int vec[SHAPE_MAX_DIMS])
{
    int k = g->k, r = a;
    if (g->v == TSENG_SEC3 && i == k && k == 2)
        r = 3 - a;                           /* section 3: x carries 2t, y carries t */
    for (int j = 0; j < k; j++)
        vec[j] = 0;
    if (i == 1) {
        vec[r - 1] = 1;
        vec[k - 1] = 1;
    } else if (r == 1) {
        vec[0] = 1;
    } else if (r <= k - i + 1) {
        vec[r - 1] = 1;
        vec[k - 1] = -1;
    } else {
        vec[r - 1] = -1;
    }
}

static int f(const struct tg *g, int i, const int *x)
{
    if (i == 1)
        return x[g->k - 1];
    int s = x[0];
    for (int m = g->k - i + 2; m <= g->k; m++)
        s -= x[m - 1];
    return s;
}

/* y in U_(i-1) (mod n)? */
static int member(const struct tg *g, int i, const int *y)
{
    int k = g->k, n = g->n;
    if (i == 1) {
        for (int j = 0; j < k; j++)
            if (mod(y[j], n))
                return 0;
        return 1;
    }
    for (int j = 2; j <= k - i + 1; j++)
        if (mod(y[j - 1], n))
            return 0;
    return mod(f(g, i, y), n) == 0;
}

/* The segment of level `lv` (0 = the whole path) that holds super-node d,
 * and the translation T of U_(i-1) its source super-node receives. */
struct seg { int start, m, src, lvl; int T[SHAPE_MAX_DIMS]; };

/* The sizes of the parts of segment s (the top level has its own). */
static void seg_parts(const struct tg *g, int i, const struct seg *s, int sz[2 * KMAX + 1])
{
    if (s->lvl == 0)
        for (int j = 0; j < g->P; j++)
            sz[j] = g->tsz[i][j];
    else
        sizes(g, s->m, sz);
}

static void descend(const struct tg *g, int i, int d, int lv, struct seg *s)
{
    int sz[2 * KMAX + 1], r[SHAPE_MAX_DIMS];
    s->start = g->top[i];
    s->m = g->n;
    s->lvl = 0;
    s->src = 0;
    for (int j = 0; j < g->k; j++)
        s->T[j] = 0;
    for (int l = 0; l < lv && s->m > 1; l++) {
        int src = s->src, c = s->start;
        seg_parts(g, i, s, sz);
        for (int j = -g->k; j <= g->k; c += sz[j + g->k], j++) {
            if (d < c || d >= c + sz[j + g->k])
                continue;
            if (j) {
                int alpha = c + pos(g, sz[j + g->k]) - src;
                row(g, i, j < 0 ? -j : j, r);
                for (int q = 0; q < g->k; q++)
                    s->T[q] += alpha * r[q];
            }
            s->start = c;
            s->m = sz[j + g->k];
            break;
        }
        s->lvl = l + 1;
        s->src = s->start + pos(g, s->m);
    }
}

/* The alignment move of super-node d in stage i (zero: none). */
static int align_move(const struct tg *g, int i, int d, int w[SHAPE_MAX_DIMS])
{
    struct seg s;
    int k = g->k, any = 0;
    descend(g, i, d, g->L, &s);
    for (int j = 0; j < k; j++)
        w[j] = 0;
    if (i == 1) {
        for (int j = 0; j < k - 1; j++)
            w[j] = (j == 0 ? d : 0) - s.T[j];
    } else {
        for (int j = 2; j <= k - i + 1; j++)
            w[j - 1] = (j == k - i + 1 ? d : 0) - s.T[j - 1];
    }
    for (int j = 0; j < k; j++) {
        w[j] = mod(w[j], g->n);
        any |= w[j] != 0;
    }
    return any;
}

static int align_nonempty(const struct tg *g, int i)
{
    int w[SHAPE_MAX_DIMS];
    if (i == g->k)
        return 0;
    for (int d = g->top[i]; d < g->top[i] + g->n; d++)
        if (align_move(g, i, d, w))
            return 1;
    return 0;
}

/* The super-node of x in stage i, as an index of the path top..top+n-1. */
static int snode(const struct tg *g, int i, const int *x)
{
    return g->top[i] + mod(f(g, i, x) - g->top[i], g->n);
}

/* Did x already receive M as a relay: a distribution target of an
 * earlier stage whose super-node then aligned away (it keeps its copy)? */
static int relay(const struct tg *g, int before, const int *x)
{
    struct seg s;
    int w[SHAPE_MAX_DIMS], y[SHAPE_MAX_DIMS];
    for (int i = 1; i < before; i++) {
        int d = snode(g, i, x);
        if (!align_move(g, i, d, w))
            continue;
        descend(g, i, d, g->L, &s);
        for (int j = 0; j < g->k; j++)
            y[j] = x[j] - s.T[j];
        if (member(g, i, y))
            return 1;
    }
    return 0;
}

/* May part j's source, alpha away, be reached by row |j| of stage i under
 * the router's shorter-way rule? Every leg of alpha r_|j| must be shorter
 * than n/2, or exactly n/2 going + (the router's tie). */
static int reachable(const struct tg *g, int i, int j, int alpha)
{
    int r[SHAPE_MAX_DIMS];
    row(g, i, j < 0 ? -j : j, r);
    for (int q = 0; q < g->k; q++) {
        int leg = alpha * r[q];
        if (2 * leg >= g->n + (leg > 0) || -2 * leg >= g->n)
            return 0;
    }
    return 1;
}

/* The top level of stage i: a central part P_0 of sz0 super-nodes with the
 * source at pos(sz0), `neg` super-nodes on the - side and the rest on the
 * + side, each side cut into k parts as evenly as possible (the inner
 * parts larger, or for side h with bit h of `outer` the outer ones; on a
 * small torus this leaves the inner parts empty rather than the outer);
 * 0 if some part's source is out of reach. Deeper levels
 * are safe: their segments have at most ceil(n/(2k+1)) <= n/2 super-nodes,
 * so every offset inside one is below n/2. */
static int try_top(struct tg *g, int i, int sz0, int neg, int outer)
{
    int k = g->k, c = (g->n + g->P - 1) / g->P, pos0 = pos(g, sz0), *sz = g->tsz[i];
    int side[2] = { neg - pos0, g->n - sz0 - (neg - pos0) };
    if (side[0] < 0 || side[1] < 0 || side[0] > k * c || side[1] > k * c)
        return 0;
    sz[k] = sz0;
    for (int h = 0; h < 2; h++)
        for (int j = 1; j <= k; j++)
            sz[k + (h ? j : -j)] = side[h] / k + ((outer >> h & 1 ? k + 1 - j : j) <= side[h] % k);
    g->top[i] = -pos0 - side[0];
    for (int j = -k, at = g->top[i]; j <= k; at += sz[k + j], j++)
        if (j && sz[k + j] && !reachable(g, i, j, at + pos(g, sz[k + j])))
            return 0;
    return 1;
}

/* The first layout in reach, the - side nearest half the path; 0 if none
 * (tseng_check() then refuses the machine; the unit tests find none). */
static int top_layout(struct tg *g, int i)
{
    int c = (g->n + g->P - 1) / g->P, half = (g->n - 1) / 2;
    static const int dn[] = { 0, 1, -1, 2, -2 };
    for (int a = 0; a < 5; a++)
        for (int sz0 = c; sz0 >= 1; sz0--)
            for (int outer = 0; outer < 4; outer++)
                if (try_top(g, i, sz0, half + dn[a], outer))
                    return 1;
    try_top(g, i, c, half, 0);
    return 0;
}

static int setup(const struct app_shape *sh, enum tseng_variant v, struct tg *g)
{
    int ok = 1;
    g->k = sh->ndims;
    g->n = sh->dims[0];
    g->P = 2 * g->k + 1;
    g->L = tseng_levels(g->k, g->n);
    g->v = v;
    for (int i = 1; i <= g->k; i++)
        ok &= top_layout(g, i);
    int root = sh->cx ? sh->cx->root : 0;
    shape_coords(sh, root, g->root);
    return ok;
}

/* Stage and level of `step` (level 0: the alignment step); 0 if none. */
static int phase(const struct tg *g, int step, int *lv)
{
    for (int i = 1; i <= g->k; i++) {
        if (step <= g->L) {
            *lv = step;
            return i;
        }
        step -= g->L;
        if (align_nonempty(g, i)) {
            if (step == 1) {
                *lv = 0;
                return i;
            }
            step--;
        }
    }
    return 0;
}

int tseng_nsteps(const struct app_shape *sh, enum tseng_variant v)
{
    struct tg g;
    setup(sh, v, &g);
    int t = g.k * g.L;
    for (int i = 1; i < g.k; i++)
        t += align_nonempty(&g, i);
    return t;
}

static void rel(const struct tg *g, const struct app_shape *sh, int node, int x[SHAPE_MAX_DIMS])
{
    shape_coords(sh, node, x);
    for (int j = 0; j < g->k; j++)
        x[j] = mod(x[j] - g->root[j], g->n);
}

static int absr(const struct tg *g, const struct app_shape *sh, const int *x, const int *by, int sign)
{
    int c[SHAPE_MAX_DIMS];
    for (int j = 0; j < SHAPE_MAX_DIMS; j++)
        c[j] = 0;
    for (int j = 0; j < g->k; j++)
        c[j] = mod(x[j] + sign * by[j] + g->root[j], g->n);
    return shape_rank(sh, c);
}


/* Send M from x to x + by, unless the target holds it already (COPY). */
static void put(const struct tg *g, const struct app_shape *sh, int i, const int *x, const int *by,
                struct coll_emit *e)
{
    int y[SHAPE_MAX_DIMS];
    for (int j = 0; j < g->k; j++)
        y[j] = mod(x[j] + by[j], g->n);
    if (relay(g, i, y))
        return;
    coll_emit_msg(e, absr(g, sh, x, by, 1));
    coll_emit_blk(e, 0);
}

void tseng_sends(const struct app_shape *sh, enum tseng_variant v, int node, int step, struct coll_emit *e)
{
    struct tg g;
    struct seg s;
    int x[SHAPE_MAX_DIMS], y[SHAPE_MAX_DIMS], r[SHAPE_MAX_DIMS], lv, sz[2 * KMAX + 1];
    setup(sh, v, &g);
    int i = phase(&g, step, &lv);
    if (!i)
        return;
    rel(&g, sh, node, x);
    int d = snode(&g, i, x);
    descend(&g, i, d, lv ? lv - 1 : g.L, &s);
    for (int j = 0; j < g.k; j++)
        y[j] = x[j] - s.T[j];
    if (d != s.src || !member(&g, i, y))
        return;                               /* not a holder of this segment's source */
    if (!lv) {
        if (align_move(&g, i, d, r))
            put(&g, sh, i, x, r, e);
        return;
    }
    if (s.m <= 1)
        return;
    seg_parts(&g, i, &s, sz);
    for (int j = -g.k, c = s.start; j <= g.k; c += sz[j + g.k], j++) {
        if (!j || !sz[j + g.k])
            continue;
        int alpha = c + pos(&g, sz[j + g.k]) - s.src;
        row(&g, i, j < 0 ? -j : j, r);
        for (int q = 0; q < g.k; q++)
            r[q] *= alpha;
        put(&g, sh, i, x, r, e);
    }
}

int tseng_senders(const struct app_shape *sh, enum tseng_variant v, int node, int step, int from[COLL_MAX_MSGS])
{
    struct tg g;
    struct seg s;
    int x[SHAPE_MAX_DIMS], r[SHAPE_MAX_DIMS], lv, sz[2 * KMAX + 1];
    setup(sh, v, &g);
    int i = phase(&g, step, &lv);
    if (!i)
        return 0;
    rel(&g, sh, node, x);
    if (relay(&g, i, x))
        return 0;                             /* holds M already: nobody sends it to x */
    int d = snode(&g, i, x);
    if (!lv) {
        if (!align_move(&g, i, d, r))
            return 0;
        from[0] = absr(&g, sh, x, r, -1);
        return 1;
    }
    descend(&g, i, d, lv - 1, &s);
    if (s.m <= 1)
        return 0;
    seg_parts(&g, i, &s, sz);
    for (int j = -g.k, c = s.start; j <= g.k; c += sz[j + g.k], j++) {
        if (d < c || d >= c + sz[j + g.k])
            continue;
        int alpha = c + pos(&g, sz[j + g.k]) - s.src;
        if (!j || d != c + pos(&g, sz[j + g.k]))
            return 0;
        row(&g, i, j < 0 ? -j : j, r);
        for (int q = 0; q < g.k; q++)
            r[q] *= alpha;
        from[0] = absr(&g, sh, x, r, -1);
        return 1;
    }
    return 0;
}

long tseng_one(const struct app_shape *sh)
{
    (void)sh;
    return 1;
}

int tseng_check(const struct app_shape *sh, enum tseng_variant v, char *err, size_t errlen)
{
    struct tg g;
    if (sh->ndims > KMAX) {
        snprintf(err, errlen, "at most %d dimensions (2k messages per step)", KMAX);
        return -1;
    }
    if (!setup(sh, v, &g)) {
        snprintf(err, errlen, "no contention-free layout of the %d super-nodes", sh->dims[0]);
        return -1;
    }
    return 0;
}

/* The hooks of each variant (tseng.h). */
#define TSENG_HOOKS(name, V)                                                                       \
    int tseng_##name##_nsteps(const struct app_shape *sh) { return tseng_nsteps(sh, V); }          \
    void tseng_##name##_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e) \
    {                                                                                              \
        tseng_sends(sh, V, node, step, e);                                                         \
    }                                                                                              \
    int tseng_##name##_senders(const struct app_shape *sh, int node, int step,                     \
                               int from[COLL_MAX_MSGS])                                            \
    {                                                                                              \
        return tseng_senders(sh, V, node, step, from);                                             \
    }                                                                                              \
    int tseng_##name##_check(const struct app_shape *sh, char *err, size_t errlen)                 \
    {                                                                                              \
        return tseng_check(sh, V, err, errlen);                                                    \
    }
TSENG_HOOKS(sec3, TSENG_SEC3)
TSENG_HOOKS(def6, TSENG_DEF6)
#undef TSENG_HOOKS
