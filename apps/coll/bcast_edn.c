/* bcast_edn: broadcast on an all-port 2D mesh by levels of extended
 * dominating nodes (EDN).
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 6, The EDN
 *             Approach (after Tsai and McKinley [20]): "The EDN model
 *             broadens the concept of node domination to include nodes
 *             reachable in a single communication step under a given
 *             routing algorithm (XY routing in the case of 2D mesh
 *             networks) ... uses multiple levels of EDNs ... In the first
 *             two message-passing steps, called startup steps, the source
 *             node delivers the message to the highest-level EDNs ...
 *             there are four such nodes. The level-3 EDNs proceed to
 *             'dominate' the twelve level-2 EDNs by delivering the message
 *             to them in step 3 ... this method can complete the broadcast
 *             operation in a mesh of size 2^k x 2^k in at most (k + 2)
 *             steps, while avoiding channel contention".
 * Machines:   the all-port 2^k x 2^k mesh, k >= 1 (XY routing: dimension 0
 *             first, as the network routes). Any root.
 * Reading:    the figures (22, 23) are not in the text; this rebuilds the
 *             levels from the counts the text gives (16 x 16: 4 level-3, 16
 *             level-2, then every level-1 EDN, then all nodes): the level-j
 *             EDNs are one node per 2^j x 2^j block (4 per 2^(j+1) block),
 *             each level containing the next. Blocks of side m are paired
 *             left (L, even block column) and right (R); the EDN of an L
 *             block sits at L(m), of an R block at R(m), where L(1) = R(1)
 *             = (0,0), L(m) = (m/2, 0) + R(m/2), R(m) = (0, m/2) + L(m/2).
 *             In a level step (side m -> m/2, h = m/2) every EDN dominates
 *             the three new EDNs of its pair it can reach with three
 *             different first hops under XY routing:
 *               L EDN: south to its block's quadrant (1,1), west to its
 *                      quadrant (0,0), east to the R block's quadrant (1,0);
 *               R EDN: north to its quadrant (0,0), west to the L block's
 *                      quadrant (0,1), east to its quadrant (1,1).
 *             The L EDN is in the upper half of its block and the R EDN in
 *             the lower, so their horizontal runs use different rows and
 *             every vertical run is in its own column or half: the 6
 *             routes of a pair share no channel, and each stays inside its
 *             pair (XY routes keep to the box of their ends): contention
 *             -free. The startup steps carry the message from the root to
 *             the four top-level EDNs (one per quadrant of the mesh): the
 *             first of 1, 2 or 3 steps in which a contention-free way
 *             exists, searched in a fixed order (2 for most roots). A
 *             message the levels would send to the root is left out (the
 *             root holds the message; it still dominates from its place).
 * Steps:      U + k - 1, U = 1..3 startup steps; at most k + 2, at least
 *             the lower bound ceil(log5(n^2)).
 * Start-ups:  an EDN sends at most 3 messages per level step (one per
 *             outgoing channel), the root at most 4 in a startup step.
 * Cost:       (U + k - 1)(t_s + l t_f) with all ports busy.
 */
#include <stdio.h>
#include "coll.h"

#define EDN_T 4                       /* top-level EDNs */

struct pt { int x, y; };

static struct pt pos_l(int m);
static struct pt pos_r(int m)
{
    if (m == 1)
        return (struct pt){ 0, 0 };
    struct pt q = pos_l(m / 2);
    return (struct pt){ q.x, m / 2 + q.y };
}
static struct pt pos_l(int m)
{
    if (m == 1)
        return (struct pt){ 0, 0 };
    struct pt q = pos_r(m / 2);
    return (struct pt){ m / 2 + q.x, q.y };
}

static int rank_of(const struct app_shape *sh, int x, int y) { return x + sh->dims[0] * y; }

/* The EDN of the block of side m containing (x, y). */
static struct pt edn_of(int m, int x, int y)
{
    int ox = x - x % m, oy = y - y % m;
    struct pt q = (ox / m) % 2 ? pos_r(m) : pos_l(m);
    return (struct pt){ ox + q.x, oy + q.y };
}

/* The (up to) three nodes the EDN of block side m at (x, y) dominates;
 * 0 if (x, y) is no such EDN. */
static int dominated(int m, int x, int y, struct pt out[3])
{
    int ox = x - x % m, oy = y - y % m, h = m / 2;
    int right = (ox / m) % 2;
    struct pt e = edn_of(m, x, y), ql = pos_l(h), qr = pos_r(h);
    if (e.x != x || e.y != y || m < 2)
        return 0;
    if (!right) {
        out[0] = (struct pt){ ox + h + qr.x, oy + h + qr.y };          /* south */
        out[1] = (struct pt){ ox + ql.x, oy + ql.y };                  /* west */
        out[2] = (struct pt){ ox + m + h + qr.x, oy + qr.y };          /* east */
    } else {
        out[0] = (struct pt){ ox + ql.x, oy + ql.y };                  /* north */
        out[1] = (struct pt){ ox - m + ql.x, oy + h + ql.y };          /* west */
        out[2] = (struct pt){ ox + h + qr.x, oy + h + qr.y };          /* east */
    }
    return 3;
}

/* --- the startup steps ----------------------------------------------------- */

/* Channels of the XY route a -> b (mesh side n): (node, dim, dir) ids. */
static int route(int n, struct pt a, struct pt b, int *ch)
{
    int k = 0;
    while (a.x != b.x) {
        int d = b.x > a.x ? 1 : -1;
        ch[k++] = ((a.x + n * a.y) * 2 + 0) * 2 + (d > 0);
        a.x += d;
    }
    while (a.y != b.y) {
        int d = b.y > a.y ? 1 : -1;
        ch[k++] = ((a.x + n * a.y) * 2 + 1) * 2 + (d > 0);
        a.y += d;
    }
    return k;
}

struct startup {
    int n, root;                      /* what it was computed for */
    int U;                            /* startup steps */
    int nt;                           /* targets (top EDNs other than the root) */
    struct pt t[EDN_T];
    int step[EDN_T];                  /* step (1..U) each target gets the message */
    int from[EDN_T];                  /* -1: the root; else the target index */
};

#define EDN_MAX_SIDE 256                /* the startup search's channel map */
static unsigned edn_used[EDN_MAX_SIDE * EDN_MAX_SIDE * 4 / 32];
static int edn_ch[EDN_T * 2 * EDN_MAX_SIDE];

/* Do the messages of step s share a channel? */
static int clash(const struct startup *st, struct pt root, int s)
{
    int bad = 0, nch = 0;
    for (int i = 0; i < st->nt && !bad; i++) {
        if (st->step[i] != s)
            continue;
        struct pt a = st->from[i] < 0 ? root : st->t[st->from[i]];
        int k = route(st->n, a, st->t[i], edn_ch + nch);
        for (int j = nch; j < nch + k && !bad; j++) {
            unsigned c = (unsigned)edn_ch[j];
            bad = (edn_used[c / 32] >> (c % 32)) & 1;
            edn_used[c / 32] |= 1u << (c % 32);
        }
        nch += k;
    }
    for (int j = 0; j < nch; j++)
        edn_used[edn_ch[j] / 32] = 0;
    return bad;
}

/* Try every (step, sender) for targets i.. with U steps, in a fixed order;
 * a sender other than the root must have the message by an earlier step,
 * and every step must carry something. */
static int search(struct startup *st, struct pt root, int U, int i)
{
    if (i == st->nt) {
        for (int j = 0; j < st->nt; j++)
            if (st->from[j] >= 0 && st->step[st->from[j]] >= st->step[j])
                return 0;
        for (int s = 1; s <= U; s++) {
            int any = 0;
            for (int j = 0; j < st->nt; j++)
                any |= st->step[j] == s;
            if (!any || clash(st, root, s))
                return 0;
        }
        return 1;
    }
    for (int s = 1; s <= U; s++)
        for (int f = -1; f < st->nt; f++) {
            if (f == i)
                continue;
            st->step[i] = s;
            st->from[i] = f;
            if (search(st, root, U, i + 1))
                return 1;
        }
    return 0;
}

static const struct startup *startup_of(const struct app_shape *sh)
{
    static struct startup st = { .n = -1 };
    int n = sh->dims[0], root = sh->cx ? sh->cx->root : 0;
    if (st.n == n && st.root == root)
        return &st;
    st.n = n;
    st.root = root;
    st.nt = 0;
    struct pt r = { root % n, root / n };
    int m = n / 2;
    for (int q = 0; q < 4; q++) {
        struct pt e = edn_of(m, (q % 2) * m, (q / 2) * m);
        if (e.x != r.x || e.y != r.y)
            st.t[st.nt++] = e;
    }
    for (st.U = 1; st.U <= 3; st.U++)
        if (search(&st, r, st.U, 0))
            return &st;
    st.U = -1;                                        /* never: 3 steps always do */
    return &st;
}

/* --- the schedule ----------------------------------------------------------- */

static int k_of(const struct app_shape *sh) { return ilog2(sh->dims[0]); }

static int nsteps(const struct app_shape *sh)
{
    return startup_of(sh)->U + k_of(sh) - 1;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int n = sh->dims[0], x = node % n, y = node / n;
    const struct startup *st = startup_of(sh);
    if (step <= st->U) {
        for (int i = 0; i < st->nt; i++) {
            struct pt a = st->from[i] < 0 ? (struct pt){ sh->cx->root % n, sh->cx->root / n }
                                          : st->t[st->from[i]];
            if (st->step[i] == step && a.x == x && a.y == y) {
                coll_emit_msg(e, rank_of(sh, st->t[i].x, st->t[i].y));
                coll_emit_blk(e, 0);
            }
        }
        return;
    }
    int m = n >> (step - st->U);                      /* block side before this level step */
    struct pt d[3];
    int nd = dominated(m, x, y, d);
    for (int i = 0; i < nd; i++) {
        if (rank_of(sh, d[i].x, d[i].y) == sh->cx->root)
            continue;                                 /* the root has it from the start */
        coll_emit_msg(e, rank_of(sh, d[i].x, d[i].y));
        coll_emit_blk(e, 0);
    }
}

/* Startup: the root and the top EDNs. Level step: the two EDNs of the
 * node's pair of blocks. */
static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int n = sh->dims[0], x = node % n, y = node / n, k = 0;
    const struct startup *st = startup_of(sh);
    if (step <= st->U) {
        from[k++] = sh->cx->root;
        for (int i = 0; i < st->nt; i++)
            from[k++] = rank_of(sh, st->t[i].x, st->t[i].y);
        return k;
    }
    int m = n >> (step - st->U);
    int px = x - x % (2 * m);                         /* the pair's left block */
    struct pt a = edn_of(m, px, y), b = edn_of(m, px + m, y);
    from[k++] = rank_of(sh, a.x, a.y);
    from[k++] = rank_of(sh, b.x, b.y);
    return k;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }

static int check(const struct app_shape *sh, char *err, size_t errlen)
{
    if (sh->dims[0] > EDN_MAX_SIDE) {
        snprintf(err, errlen, "bcast_edn takes meshes up to %dx%d, not %dx%d", EDN_MAX_SIDE, EDN_MAX_SIDE,
                 sh->dims[0], sh->dims[1]);
        return -1;
    }
    return 0;
}

const struct coll_algo coll_bcast_edn = {
    COLL_FACTS(bcast, edn),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = one,
    .check = check,
};
