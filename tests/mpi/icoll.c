/* The nonblocking collectives, checked against values every rank can
 * compute, and their progress: a rank that waits for a message a peer
 * sends only after its own MPI_Wait of the collective must not deadlock,
 * and ranks may wait on several in different orders. Rank 0 prints what
 * every rank found (tests/mpi/run.sh compares it with Open MPI's run). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = 5, ok;
    int *a = malloc(n * size * sizeof(int)), *b = malloc(n * size * sizeof(int));
    MPI_Request rq[4];

    /* rank 0 receives what rank 1 sends after its own wait of an
     * all-reduction, which needs rank 0's part after its receive: only
     * progress inside MPI_Recv lets both finish */
    int v = -1, x = rank, total = 0;
    for (volatile int k = 0; rank != 0 && k < 100000; k++)
        ;                            /* rank 0 starts first: nothing has arrived at its start */
    MPI_Iallreduce(&x, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[0]);
    if (rank == 0 && size > 1)
        MPI_Recv(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    if (rank == 1)
        MPI_Send(&rank, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    MPI_Ibarrier(MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    check("progress in MPI_Recv, MPI_Ibarrier", (rank != 0 || size == 1 || v == 1) && total == size * (size - 1) / 2);

    /* ibcast and iallreduce outstanding together, waited in opposite orders */
    for (int i = 0; i < n; i++)
        a[i] = rank == size - 1 ? 7 * i : -1, b[i] = rank + i;
    int sum[5];
    MPI_Ibcast(a, n, MPI_INT, size - 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Iallreduce(b, sum, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
    if (rank % 2) {
        MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    } else
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    ok = 1;
    for (int i = 0; i < n; i++)
        ok &= a[i] == 7 * i && sum[i] == size * (size - 1) / 2 + size * i;
    check("MPI_Ibcast, MPI_Iallreduce", ok);

    /* ireduce to rank 1 (or 0), tested until done */
    int root = size > 1, flag = 0, prod = 0, mine = 1 + rank % 3;
    MPI_Ireduce(&mine, &prod, 1, MPI_INT, MPI_PROD, root, MPI_COMM_WORLD, &rq[0]);
    while (!flag)
        MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    int want = 1;
    for (int r = 0; r < size; r++)
        want *= 1 + r % 3;
    check("MPI_Ireduce, MPI_Test", rank != root || prod == want);

    /* igather, iscatter, iallgather, ialltoall */
    for (int i = 0; i < n; i++)
        a[i] = rank * n + i;
    MPI_Igather(a, n, MPI_INT, b, n, MPI_INT, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    ok = 1;
    for (int i = 0; rank == 0 && i < n * size; i++)
        ok &= b[i] == i;
    int *c = malloc(n * sizeof(int));
    MPI_Iscatter(b, n, MPI_INT, c, n, MPI_INT, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < n; i++)
        ok &= c[i] == rank * n + i;
    check("MPI_Igather, MPI_Iscatter", ok);
    MPI_Iallgather(c, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD, &rq[0]);
    for (int d = 0; d < size; d++)
        for (int i = 0; i < n; i++)
            a[d * n + i] = (rank * size + d) * n + i;
    int *t = malloc(n * size * sizeof(int));
    MPI_Ialltoall(a, n, MPI_INT, t, n, MPI_INT, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    ok = 1;
    for (int i = 0; i < n * size; i++)
        ok &= b[i] == i;
    for (int s = 0; s < size; s++)
        for (int i = 0; i < n; i++)
            ok &= t[s * n + i] == (s * size + rank) * n + i;
    check("MPI_Iallgather, MPI_Ialltoall", ok);

    /* ialltoallv: rank s sends d + 1 copies of s to d */
    int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int)), *rc = malloc(size * sizeof(int)),
        *rd = malloc(size * sizeof(int)), sn = 0, rn = 0;
    for (int d = 0; d < size; d++)
        sc[d] = d + 1, sd[d] = sn, sn += d + 1, rc[d] = rank + 1, rd[d] = rn, rn += rank + 1;
    int *sb = malloc(sn * sizeof(int)), *rb = malloc(rn * sizeof(int));
    for (int i = 0; i < sn; i++)
        sb[i] = rank;
    MPI_Ialltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    ok = 1;
    for (int s = 0; s < size; s++)
        for (int i = 0; i < rank + 1; i++)
            ok &= rb[rd[s] + i] == s;
    check("MPI_Ialltoallv", ok);

    /* ialltoallw: the same exchange in bytes; ireduce_scatter_block: two
     * sums for each rank */
    MPI_Datatype *ty = malloc(size * sizeof *ty);
    for (int d = 0; d < size; d++)
        ty[d] = MPI_INT, sd[d] *= (int)sizeof(int), rd[d] *= (int)sizeof(int);
    for (int i = 0; i < rn; i++)
        rb[i] = -1;
    MPI_Ialltoallw(sb, sc, sd, ty, rb, rc, rd, ty, MPI_COMM_WORLD, &rq[0]);
    int *vec = malloc(2 * size * sizeof(int)), blk[2];
    for (int i = 0; i < 2 * size; i++)
        vec[i] = rank + i;
    MPI_Ireduce_scatter_block(vec, blk, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    ok = blk[0] == size * (size - 1) / 2 + size * 2 * rank && blk[1] == blk[0] + size;
    for (int s = 0; s < size; s++)
        for (int i = 0; i < rank + 1; i++)
            ok &= rb[rd[s] / (int)sizeof(int) + i] == s;
    check("Ialltoallw, Ireduce_scatter_block", ok);

    /* iscan and iexscan */
    int one = rank + 1, pre = 0, ex = -5;
    MPI_Iscan(&one, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[0]);
    MPI_Iexscan(&one, &ex, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    check("MPI_Iscan, MPI_Iexscan", pre == (rank + 1) * (rank + 2) / 2 && (rank == 0 || ex == rank * (rank + 1) / 2));

    if (rank == 0)
        printf("icoll: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
