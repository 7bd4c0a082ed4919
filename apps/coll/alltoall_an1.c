/* alltoall_an1: complete exchange by Algorithm A(n-1), divide and conquer
 * on a 2D torus.
 *
 * Source:     "Divide-and-conquer complete exchange on a 2D torus" (the
 *             wormhole, one-port torus paper, seeds/000), section 2.2,
 *             Figures 1-4 and Table 1; Definitions 1-3 (basic cells,
 *             level-i subnetworks, master and slave nodes).
 * Machines:   a 2D N x N torus, N = 2^n >= 4. P(i,j) is row i (our
 *             dimension 1) and column j (our dimension 0).
 * Schedule:   Split stage, levels l = 1..n-1, h = 2^(l-1). The nodes still
 *             in play are the masters of level l-1: i = j (mod h) (every
 *             node at l = 1). They form basic cells of four, (i,j),
 *             (i,j+h), (i+h,j), (i+h,j+h), with (i,j) at the cell's top-left
 *             corner; the two on the backward diagonal are the cell's
 *             masters, the other two its slaves. A node holds the blocks
 *             from the h x h block of sources it represents, for the rows
 *             = i (mod h).
 *               step 1: the two nodes of a cell row exchange: each keeps
 *                 the blocks for the rows whose bit l-1 equals the bit l-1
 *                 of its column and sends the others (message size
 *                 2^(l-2) N^2);
 *               step 2: each slave sends everything to the master in its
 *                 column (2^(l-1) N^2), and leaves the play.
 *             A level-l master then holds the blocks from its 2h x 2h
 *             block for the rows = i (mod 2h): "the message size doubles".
 *             Exchange stage: the 2N masters of level n-1 form N/2
 *             subnetworks of four, (r, r), (r, r+N/2), (r+N/2, r),
 *             (r+N/2, r+N/2), which exchange in two steps: with the row
 *             partner (the blocks for its columns), then with the column
 *             partner (the blocks for its row). A master then holds every
 *             source's blocks for its row within its half of the columns.
 *             Merge stage, levels l = n-1..1: each level-l master gives its
 *             row-mate slave (i, j XOR h) the half of its columns that is
 *             the slave's (2^(l-1) N^2 blocks); after level 1 every node
 *             holds its own N^2 blocks.
 *             The paper's 16 x 16 example and Figure 2 fix the roles; the
 *             exact contents of each message are our reading of "collect
 *             messages destined to even (odd) rows" applied recursively.
 * Steps:      2(n-1) + 2 + (n-1) = 3 log2 N - 1 (Table 1: (3 log N - 1) t_s).
 * Start-ups:  2 log2 N on a node that stays a master to level n-1 (a
 *             send at each split level's row exchange, both exchange steps
 *             and each merge level), 2 on a level-1 slave.
 * Memory:     a level n-1 master holds N^3/2 blocks ("space complexity
 *             N^3 m / 2"); the largest message is N^3/4 blocks.
 * Cost:       (3 log N - 1) t_s + transmission: such a master sends
 *             1.25 N^3 - 1.5 N^2 blocks by our reading, where Table 1
 *             prints (2N^3 - 2N^2) m t_d; plus rearrangement.
 */
#include "coll.h"

enum phase { SPLIT_ROW, SPLIT_UP, EXCH_ROW, EXCH_COL, MERGE };

/* What step `step` is, and h for it. */
static enum phase phase_of(int n, int step, int *h)
{
    if (step <= 2 * (n - 1)) {
        *h = 1 << ((step - 1) / 2);
        return step % 2 ? SPLIT_ROW : SPLIT_UP;
    }
    if (step <= 2 * n) {
        *h = 1 << (n - 1);
        return step == 2 * n - 1 ? EXCH_ROW : EXCH_COL;
    }
    *h = 1 << (3 * n - step - 1);          /* merge level l = 3n - step */
    return MERGE;
}

static int nsteps(const struct app_shape *sh) { return 3 * ilog2(sh->dims[0]) - 1; }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int N = sh->dims[0], n = ilog2(N), h;
    int i = node / N, j = node % N, b;
    enum phase ph = phase_of(n, step, &h);
    int lo_i = i - i % h, lo_j = j - j % h, t = i % h;
    switch (ph) {
    case SPLIT_ROW:                              /* level-(l-1) masters */
        if (i % h != j % h)
            return;
        b = (j / h) & 1;
        coll_emit_grid(e, (j ^ h) + N * i, N, lo_i, h, lo_j, h, t | (b ^ 1) * h, 2 * h, 0, N);
        return;
    case SPLIT_UP:                               /* the slaves of level l */
        if (i % h != j % h || i % (2 * h) == j % (2 * h))
            return;
        b = (j / h) & 1;
        coll_emit_grid(e, j + N * (i ^ h), N, lo_i, h, j - j % (2 * h), 2 * h, t | b * h, 2 * h, 0, N);
        return;
    case EXCH_ROW:
        if (i % h != j % h)
            return;
        coll_emit_grid(e, (j ^ h) + N * i, N, lo_i, h, lo_j, h, i, h, (j ^ h) - (j ^ h) % h, h);
        return;
    case EXCH_COL:
        if (i % h != j % h)
            return;
        coll_emit_grid(e, j + N * (i ^ h), N, lo_i, h, 0, N, i ^ h, N, lo_j, h);
        return;
    case MERGE:                                  /* level-l masters */
        if (i % (2 * h) != j % (2 * h))
            return;
        coll_emit_grid(e, (j ^ h) + N * i, N, 0, N, 0, N, i, N, (j ^ h) - (j ^ h) % h, h);
        return;
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int N = sh->dims[0], n = ilog2(N), h;
    int i = node / N, j = node % N;
    switch (phase_of(n, step, &h)) {
    case SPLIT_ROW:
    case EXCH_ROW:
        from[0] = (j ^ h) + N * i;
        return i % h == j % h;
    case SPLIT_UP:
        from[0] = j + N * (i ^ h);
        return i % (2 * h) == j % (2 * h);
    case EXCH_COL:
        from[0] = j + N * (i ^ h);
        return i % h == j % h;
    case MERGE:
        from[0] = (j ^ h) + N * i;
        return i % h == j % h && i % (2 * h) != j % (2 * h);
    }
    return 0;
}

static long msg(const struct app_shape *sh) { long N = sh->dims[0]; return N * N * N / 4; }
static long hold(const struct app_shape *sh) { long N = sh->dims[0]; return N * N * N / 2; }

const struct coll_algo coll_alltoall_an1 = {
    COLL_FACTS(alltoall, an1),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = hold,
};
