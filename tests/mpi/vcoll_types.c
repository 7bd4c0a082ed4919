/* The collectives of varying counts with derived datatypes that are not
 * contiguous (MPI-3.1 5.5-5.8): the column blocks of a matrix gathered
 * and scattered by MPI_Gatherv and MPI_Scatterv with a resized vector,
 * MPI_Allgatherv into strided places, MPI_Alltoallv of vectors (also
 * MPI_IN_PLACE) and MPI_Alltoallw with a type per peer, received as
 * contiguous ints by some ranks and as vectors by others. Rank 0 prints
 * a digest of each result; each is also checked against the element
 * positions the standard gives. Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

enum { N = 3 };                      /* rows of the matrix; each rank has column blocks of 2 */

static long digest(const int *a, int n)
{
    long d = 0;
    for (int i = 0; i < n; i++)
        d = (d * 31 + a[i] + 7) % 1000003;
    return d;
}

static void show(const char *what, const int *a, int n, int ok)
{
    long d = digest(a, n);
    if (rank == 0)
        printf("%s: digest %ld\n", what, d);
    check(what, ok);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int W = 2 * size, ok;
    int *m = malloc(N * W * sizeof *m), *cnt = malloc(size * sizeof *cnt), *dsp = malloc(size * sizeof *dsp);
    int loc[N][2];

    /* the N x 2 column block at column 2r, as one element */
    MPI_Datatype blk, col2;
    MPI_Type_vector(N, 2, W, MPI_INT, &blk);
    MPI_Type_create_resized(blk, 0, sizeof(int), &col2);
    MPI_Type_commit(&col2);
    for (int r = 0; r < size; r++)
        cnt[r] = 1, dsp[r] = 2 * r;

    for (int i = 0; i < N * W; i++)
        m[i] = rank == 0 ? i : -1;
    MPI_Scatterv(m, cnt, dsp, col2, loc, 2 * N, MPI_INT, 0, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 2; j++)
            ok &= loc[i][j] == i * W + 2 * rank + j;
    show("scatterv of column blocks", &loc[0][0], 2 * N, ok);

    for (int i = 0; i < N; i++)
        for (int j = 0; j < 2; j++)
            loc[i][j] = 1000 * rank + 10 * i + j;
    for (int i = 0; i < N * W; i++)
        m[i] = -1;
    MPI_Gatherv(loc, 2 * N, MPI_INT, m, cnt, dsp, col2, 0, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; rank == 0 && i < N; i++)
        for (int c = 0; c < W; c++)
            ok &= m[i * W + c] == 1000 * (c / 2) + 10 * i + c % 2;
    show("gatherv of column blocks", m, N * W, ok);

    /* the root's own block in place: Gatherv with MPI_IN_PLACE */
    for (int i = 0; i < N * W; i++)
        m[i] = rank == 0 ? 5 : -1;
    MPI_Gatherv(rank == 0 ? MPI_IN_PLACE : (void *)loc, 2 * N, MPI_INT, m, cnt, dsp, col2, 0, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; rank == 0 && i < N; i++)
        for (int c = 0; c < W; c++)
            ok &= m[i * W + c] == (c < 2 ? 5 : 1000 * (c / 2) + 10 * i + c % 2);
    show("gatherv, root in place", m, N * W, ok);

    /* Allgatherv: every rank's block of 2 into every other int of recv */
    MPI_Datatype every2, ev;
    MPI_Type_vector(2, 1, 2, MPI_INT, &every2);
    MPI_Type_create_resized(every2, 0, 4 * sizeof(int), &ev);   /* one element: ints 0 and 2 of 4 */
    MPI_Type_commit(&ev);
    int *ag = malloc(4 * size * sizeof *ag), two[2] = { 10 * rank, 10 * rank + 1 };
    for (int i = 0; i < 4 * size; i++)
        ag[i] = -1;
    for (int r = 0; r < size; r++)
        cnt[r] = 1, dsp[r] = r;
    MPI_Allgatherv(two, 2, MPI_INT, ag, cnt, dsp, ev, MPI_COMM_WORLD);
    ok = 1;
    for (int r = 0; r < size; r++)
        ok &= ag[4 * r] == 10 * r && ag[4 * r + 2] == 10 * r + 1 && ag[4 * r + 1] == -1 && ag[4 * r + 3] == -1;
    show("allgatherv into strided places", ag, 4 * size, ok);

    /* Alltoallv: to peer r, r % 3 elements of ev (2 ints each, every other),
     * from the block at 4 r; received the same way */
    int *sb = malloc(12 * size * sizeof *sb), *rb = malloc(12 * size * sizeof *rb);
    int *sc = malloc(size * sizeof *sc), *sd = malloc(size * sizeof *sd), *rc = malloc(size * sizeof *rc),
        *rd = malloc(size * sizeof *rd);
    for (int r = 0; r < size; r++) {
        sc[r] = (rank + r) % 3, sd[r] = 3 * r;
        rc[r] = (r + rank) % 3, rd[r] = 3 * r;
    }
    for (int i = 0; i < 12 * size; i++)
        sb[i] = 1000 * rank + i, rb[i] = -1;
    MPI_Alltoallv(sb, sc, sd, ev, rb, rc, rd, ev, MPI_COMM_WORLD);
    ok = 1;
    for (int r = 0; r < size; r++)     /* from r: its elements 3 rank .., i.e. ints 12 rank + 4 k + {0, 2} */
        for (int i = 0; i < 12; i++) {
            int k = i / 4, in = k < rc[r] && i % 2 == 0;
            ok &= rb[12 * r + i] == (in ? 1000 * r + 12 * rank + i : -1);
        }
    show("alltoallv of strided elements", rb, 12 * size, ok);

    /* the same in place: the blocks to send are recv's own */
    for (int i = 0; i < 12 * size; i++)
        rb[i] = 1000 * rank + i;
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rb, rc, rd, ev, MPI_COMM_WORLD);
    ok = 1;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 12; i++) {
            int k = i / 4, in = k < rc[r] && i % 2 == 0;
            ok &= rb[12 * r + i] == (in ? 1000 * r + 12 * rank + i : 1000 * rank + 12 * r + i);
        }
    show("alltoallv in place", rb, 12 * size, ok);

    /* Alltoallw: 2 ints to each peer, from ints 4 r and 4 r + 2 (ev) on
     * even ranks and 2 r, 2 r + 1 (ints) on odd ones; received as 2 ints
     * at byte 8 r on even ranks and as ev at byte 16 r on odd ones */
    MPI_Datatype *st = malloc(size * sizeof *st), *rt = malloc(size * sizeof *rt);
    for (int r = 0; r < size; r++) {
        st[r] = rank % 2 ? MPI_INT : ev;
        sc[r] = rank % 2 ? 2 : 1;
        sd[r] = (rank % 2 ? 2 * r : 4 * r) * (int)sizeof(int);
        rt[r] = rank % 2 ? ev : MPI_INT;
        rc[r] = rank % 2 ? 1 : 2;
        rd[r] = (rank % 2 ? 4 * r : 2 * r) * (int)sizeof(int);
    }
    for (int i = 0; i < 12 * size; i++)
        sb[i] = 1000 * rank + i, rb[i] = -1;
    MPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, MPI_COMM_WORLD);
    ok = 1;
    for (int r = 0; r < size; r++) {
        int a = r % 2 ? 1000 * r + 2 * rank : 1000 * r + 4 * rank, b = r % 2 ? a + 1 : a + 2;
        if (rank % 2)
            ok &= rb[4 * r] == a && rb[4 * r + 2] == b && rb[4 * r + 1] == -1 && rb[4 * r + 3] == -1;
        else
            ok &= rb[2 * r] == a && rb[2 * r + 1] == b;
    }
    show("alltoallw, a type per peer", rb, 4 * size, ok);

    MPI_Type_free(&col2);
    MPI_Type_free(&blk);
    MPI_Type_free(&ev);
    MPI_Type_free(&every2);
    if (rank == 0 && !fails)
        printf("vcoll_types: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
