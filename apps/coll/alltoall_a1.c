/* alltoall_a1: complete exchange by Algorithm A1, divide and conquer once
 * on a 2D torus.
 *
 * Source:     "Divide-and-conquer complete exchange on a 2D torus"
 *             (seeds/000), section 2.3 (Stages 1-3, Figures 4-6), 3.1 and
 *             Table 1.
 * Machines:   a 2D N x N torus, N = 2^n >= 8. P(i,j) is row i (our
 *             dimension 1), column j (our dimension 0).
 * Schedule:   Stage 1 (2 steps), collect at the masters of each 2x2 basic
 *             cell, P(2a,2b) for the even rows and P(2a+1,2b+1) for the
 *             odd rows:
 *               step 1: the two nodes of a cell row exchange; each keeps
 *                 the blocks for the rows of its column's parity (N^2/2);
 *               step 2: each slave sends all it holds to the master in its
 *                 column (N^2). A master now holds its cell's blocks for
 *                 all rows of its parity, 2N^2 blocks.
 *             Stage 2 (2(N/8-1) + 4 steps): the masters of each parity form
 *             an (N/2) x (N/2) torus (cell coordinates p = i/2, q = j/2)
 *             and do a complete exchange of "chunks": the chunk from
 *             master S to master D is S's cell's blocks for D's row of its
 *             cell (8 blocks). Per the routing patterns of Stage 2, with
 *             k = (p + q) mod 4:
 *               phase 1, N/8-1 steps: k = 0: to q+4, 1: to p+4, 2: to q-4,
 *                 3: to p-4 (8 hops); rings of N/8 masters;
 *               phase 2, N/8-1 steps: the other dimension, same signs;
 *               phase 3, 2 steps: step 1 the even k exchange with q +- 2
 *                 (+ if q mod 4 is 0 or 1, else -), the odd k with p +- 2;
 *                 step 2 the other way round;
 *               phase 4, 2 steps: with q+1 if p+q is even, else q-1; then
 *                 with p+1 if p+q is even, else p-1.
 *             A chunk rides each phase-1 and phase-2 ring until the master
 *             from which phases 3-4 can bring it home, and moves at an
 *             exchange step when its destination is reachable only from
 *             the partner. Readings where the text is garbled: the rings
 *             forward every chunk that must go further (store and forward,
 *             as in Suh's and the diagonal-propagation algorithms the paper
 *             follows); in phase 3 the moves in i are decided by p mod 4
 *             (the text's "q = 0 or 1" would make them a shift, not an
 *             exchange) and step 2 swaps the dimensions of step 1 (the
 *             text repeats "Even"). tests/unit/test_sched.c checks that
 *             these rules deliver every block exactly once and are
 *             stepwise contention-free (except at N = 16, where the 8-hop
 *             moves are exactly N/2 and dimension-ordered routing sends
 *             the "-" ones the + way: 2 messages per channel).
 *             Stage 3 (1 step): each master gives its row-mate slave the
 *             blocks for it (N^2).
 * Steps:      2 + 2(N/8 - 1) + 4 + 1 = N/4 + 5, Table 1's (N/4 + 5) t_s
 *             (section 3.1 says phases 3 and 4 have one step each, which
 *             would give N/4 + 3; its own pseudo-code has two each).
 * Start-ups:  N/4 + 4 on a master, 2 on a slave.
 * Memory:     2N^2 blocks on a master; largest message
 *             max(N^2, 2N^2 (N/8-1)/(N/8)) blocks (the first ring step).
 * Cost:       (N/4 + 5) t_s + transmission: a master sends N^3/4 + 3.5 N^2
 *             blocks (N^2/2, the rings N^2 (N/8 - 1) each, 4 N^2 in phases
 *             3-4, N^2 in stage 3); Table 1 gives (N^3 + 10 N^2)/4 m t_d,
 *             counting one step of N^2 for each of phases 3 and 4.
 */
#include <stdlib.h>
#include <string.h>
#include "coll.h"

/* Stage 2 on an M x M torus of masters, master v = q + M p. Boundaries:
 * B0 before phase 1, B1 after it, B2 after phase 2, B3..B6 after each of
 * the four exchange steps. orig[b][v]: the masters whose chunks can be at
 * v at boundary b; reach[b][v]: the masters a chunk at v at b can still
 * reach. Chunks at v at a boundary are exactly orig x reach. */
#define NB 7
struct tables {
    int M, R, words;
    unsigned *orig, *reach;                   /* [NB][M*M][words] */
};

static unsigned *set_of(const struct tables *t, unsigned *base, int b, int v)
{
    return base + ((size_t)b * t->M * t->M + (size_t)v) * (size_t)t->words;
}

static int wrap(int x, int M) { return ((x % M) + M) % M; }

/* The next master in v's ring in phase ph (1 or 2), dir = +1; the
 * previous one with dir = -1. */
static int ring_next(int M, int ph, int v, int dir)
{
    int p = v / M, q = v % M, k = (p + q) % 4;
    int along_q = (ph == 1) == (k % 2 == 0);
    int s = (k < 2 ? 4 : -4) * dir;
    return along_q ? wrap(q + s, M) + M * p : q + M * wrap(p + s, M);
}

/* The partner of v at exchange step x = 0..3 (phase 3 steps 1-2, phase 4
 * steps 1-2). */
static int exch_partner(int M, int x, int v)
{
    int p = v / M, q = v % M;
    if (x < 2) {
        int along_q = ((p + q) % 2 == 0) == (x == 0);
        if (along_q)
            return wrap(q + (q % 4 < 2 ? 2 : -2), M) + M * p;
        return q + M * wrap(p + (p % 4 < 2 ? 2 : -2), M);
    }
    int s = (p + q) % 2 == 0 ? 1 : -1;
    return x == 2 ? wrap(q + s, M) + M * p : q + M * wrap(p + s, M);
}

static void set_or(unsigned *a, const unsigned *b, int w)
{
    for (int i = 0; i < w; i++)
        a[i] |= b[i];
}

static const struct tables *tables_for(int M)
{
    static struct tables t;
    if (t.M == M)
        return &t;
    free(t.orig);
    free(t.reach);
    int n = M * M;
    t.M = M;
    t.R = M / 4 - 1;
    t.words = (n + 31) / 32;
    size_t sz = (size_t)NB * n * t.words * sizeof(unsigned);
    t.orig = malloc(sz);
    t.reach = malloc(sz);
    if (!t.orig || !t.reach) {
        free(t.orig);
        free(t.reach);
        memset(&t, 0, sizeof t);
        return NULL;
    }
    memset(t.orig, 0, sz);
    memset(t.reach, 0, sz);
    int w = t.words;
    for (int v = 0; v < n; v++) {
        set_of(&t, t.orig, 0, v)[v / 32] |= 1u << (v % 32);
        set_of(&t, t.reach, NB - 1, v)[v / 32] |= 1u << (v % 32);
    }
    for (int ph = 1; ph <= 2; ph++)              /* orig through the rings */
        for (int v = 0; v < n; v++)
            for (int k = 0, u = v; k <= t.R; k++, u = ring_next(M, ph, u, -1))
                set_or(set_of(&t, t.orig, ph, v), set_of(&t, t.orig, ph - 1, u), w);
    for (int x = 0; x < 4; x++)                  /* orig through the exchanges */
        for (int v = 0; v < n; v++) {
            set_or(set_of(&t, t.orig, 3 + x, v), set_of(&t, t.orig, 2 + x, v), w);
            set_or(set_of(&t, t.orig, 3 + x, v), set_of(&t, t.orig, 2 + x, exch_partner(M, x, v)), w);
        }
    for (int x = 3; x >= 0; x--)                 /* reach back through the exchanges */
        for (int v = 0; v < n; v++) {
            set_or(set_of(&t, t.reach, 2 + x, v), set_of(&t, t.reach, 3 + x, v), w);
            set_or(set_of(&t, t.reach, 2 + x, v), set_of(&t, t.reach, 3 + x, exch_partner(M, x, v)), w);
        }
    for (int ph = 2; ph >= 1; ph--)              /* reach back through the rings */
        for (int v = 0; v < n; v++)
            for (int k = 0, u = v; k <= t.R; k++, u = ring_next(M, ph, u, 1))
                set_or(set_of(&t, t.reach, ph - 1, v), set_of(&t, t.reach, ph, u), w);
    return &t;
}

static int has(const unsigned *set, int v) { return set[v / 32] >> (v % 32) & 1; }

/* The chunks (S in sset, D in dset) of subnetwork sg as one message to
 * `to`: for each S its cell's four nodes, for each D the two nodes of D's
 * row of its cell. */
static void emit_chunks(struct coll_emit *e, int to, int N, int sg, const unsigned *sset,
                        const unsigned *dset)
{
    int M = N / 2, p = N * N, nd = 0;
    coll_emit_msg(e, to);
    if (!e->cur)
        return;
    int dnode[2 * 32 * 32];                  /* the destination nodes of dset, in order */
    for (int D = 0; D < M * M; D++)
        if (has(dset, D))
            for (int c = 0; c < 2; c++)
                dnode[nd++] = 2 * (D % M) + c + N * (2 * (D / M) + sg);
    for (int S = 0; S < M * M; S++) {
        if (!has(sset, S))
            continue;
        for (int c = 0; c < 4; c++) {
            int s = 2 * (S % M) + c % 2 + N * (2 * (S / M) + c / 2);
            for (int k = 0; k < nd; k++)
                coll_emit_blk(e, coll_lab(s, dnode[k], p));
        }
    }
}

static int nsteps(const struct app_shape *sh) { return sh->dims[0] / 4 + 5; }

/* The physical rank of master v of subnetwork sg. */
static int phys(int N, int sg, int v)
{
    int M = N / 2;
    return 2 * (v % M) + sg + N * (2 * (v / M) + sg);
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int N = sh->dims[0], M = N / 2, i = node / N, j = node % N, last = nsteps(sh);
    int master = i % 2 == j % 2;
    if (step == 1) {                         /* keep the rows of my column's parity */
        coll_emit_grid(e, (j ^ 1) + N * i, N, i, 1, j, 1, (j % 2) ^ 1, 2, 0, N);
        return;
    }
    if (step == 2) {                         /* slave to the master in its column */
        if (!master)
            coll_emit_grid(e, j + N * (i ^ 1), N, i, 1, j & ~1, 2, j % 2, 2, 0, N);
        return;
    }
    if (step == last) {                      /* master to its row-mate */
        if (master)
            coll_emit_grid(e, (j ^ 1) + N * i, N, 0, N, 0, N, i, N, j ^ 1, 1);
        return;
    }
    if (!master)
        return;
    const struct tables *t = tables_for(M);
    if (!t) {
        e->plan->overflow = 1;
        return;
    }
    int sg = i % 2, v = j / 2 + M * (i / 2), u = step - 2;     /* stage-2 step 1..2R+4 */
    if (u <= 2 * t->R) {                     /* ring step r of phase ph */
        int ph = u <= t->R ? 1 : 2, r = ph == 1 ? u : u - t->R;
        int entry = v, next = ring_next(M, ph, v, 1);
        for (int k = 1; k < r; k++)
            entry = ring_next(M, ph, entry, -1);
        unsigned dset[32] = { 0 };
        for (int k = 1, w = next; k <= t->R + 1 - r; k++, w = ring_next(M, ph, w, 1))
            set_or(dset, set_of(t, t->reach, ph, w), t->words);
        emit_chunks(e, phys(N, sg, next), N, sg, set_of(t, t->orig, ph - 1, entry), dset);
        return;
    }
    int x = u - 2 * t->R - 1, partner = exch_partner(M, x, v);
    emit_chunks(e, phys(N, sg, partner), N, sg, set_of(t, t->orig, 2 + x, v),
                set_of(t, t->reach, 3 + x, partner));
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int N = sh->dims[0], M = N / 2, i = node / N, j = node % N, last = nsteps(sh);
    int master = i % 2 == j % 2;
    if (step == 1) {
        from[0] = (j ^ 1) + N * i;
        return 1;
    }
    if (step == 2 || step == last) {
        from[0] = step == 2 ? j + N * (i ^ 1) : (j ^ 1) + N * i;
        return step == 2 ? master : !master;
    }
    if (!master)
        return 0;
    int sg = i % 2, v = j / 2 + M * (i / 2), u = step - 2, R = M / 4 - 1;
    if (u <= 2 * R)
        from[0] = phys(N, sg, ring_next(M, u <= R ? 1 : 2, v, -1));
    else
        from[0] = phys(N, sg, exch_partner(M, u - 2 * R - 1, v));
    return 1;
}

static long msg(const struct app_shape *sh)
{
    long N = sh->dims[0], r = N / 8;
    long ring = 2 * N * N * (r - 1) / r;
    return ring > N * N ? ring : N * N;
}
static long hold(const struct app_shape *sh) { long N = sh->dims[0]; return 2 * N * N; }

const struct coll_algo coll_alltoall_a1 = {
    COLL_FACTS(alltoall, a1),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = hold,
};
