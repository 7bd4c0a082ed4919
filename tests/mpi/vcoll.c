/* The collectives of varying counts, MAXLOC/MINLOC and buffered sends,
 * checked against values every rank can compute; rank 0 prints what every
 * rank found (tests/mpi/run.sh compares it with Open MPI's run). Rank r
 * contributes r + 1 elements where counts vary. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

static int val(int r, int i) { return 1000 * r + i; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int)), total = 0, ok;
    for (int r = 0; r < size; r++)
        counts[r] = r + 1, displs[r] = total, total += r + 1;
    int *mine = malloc((rank + 1) * sizeof(int)), *all = malloc(total * sizeof(int));
    for (int i = 0; i <= rank; i++)
        mine[i] = val(rank, i);
    /* gatherv to the last rank, scatterv back */
    MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, size - 1, MPI_COMM_WORLD);
    ok = 1;
    for (int r = 0; rank == size - 1 && r < size; r++)
        for (int i = 0; i <= r; i++)
            ok &= all[displs[r] + i] == val(r, i);
    check("MPI_Gatherv", ok);
    int *back = calloc(rank + 1, sizeof(int));
    MPI_Scatterv(all, counts, displs, MPI_INT, back, rank + 1, MPI_INT, size - 1, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i <= rank; i++)
        ok &= back[i] == val(rank, i);
    check("MPI_Scatterv", ok);
    /* allgatherv */
    for (int i = 0; i < total; i++)
        all[i] = -1;
    MPI_Allgatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    ok = 1;
    for (int r = 0; r < size; r++)
        for (int i = 0; i <= r; i++)
            ok &= all[displs[r] + i] == val(r, i);
    check("MPI_Allgatherv", ok);
    /* alltoallv: rank s sends d + 1 elements val(s, d) to d */
    int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int)), *rc = malloc(size * sizeof(int)),
        *rd = malloc(size * sizeof(int)), sn = 0, rn = 0;
    for (int d = 0; d < size; d++) {
        sc[d] = d + 1, sd[d] = sn, sn += d + 1;
        rc[d] = rank + 1, rd[d] = rn, rn += rank + 1;
    }
    int *sb = malloc(sn * sizeof(int)), *rb = malloc(rn * sizeof(int));
    for (int d = 0; d < size; d++)
        for (int i = 0; i < sc[d]; i++)
            sb[sd[d] + i] = val(rank, d);
    MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD);
    ok = 1;
    for (int s = 0; s < size; s++)
        for (int i = 0; i < rc[s]; i++)
            ok &= rb[rd[s] + i] == val(s, rank);
    check("MPI_Alltoallv", ok);
    /* alltoallw: the same in bytes, displacements in bytes */
    MPI_Datatype *ty = malloc(size * sizeof *ty);
    for (int d = 0; d < size; d++) {
        ty[d] = MPI_INT;
        sd[d] *= (int)sizeof(int);
        rd[d] *= (int)sizeof(int);
        rb[d] = -1;
    }
    MPI_Alltoallw(sb, sc, sd, ty, rb, rc, rd, ty, MPI_COMM_WORLD);
    ok = 1;
    for (int s = 0; s < size; s++)
        for (int i = 0; i < rc[s]; i++)
            ok &= rb[rd[s] / (int)sizeof(int) + i] == val(s, rank);
    check("MPI_Alltoallw", ok);
    /* reduce_scatter: element i of everyone's vector is rank + i; rank r
     * gets counts[r] sums */
    int *vec = malloc(total * sizeof(int)), *part = malloc((rank + 1) * sizeof(int));
    for (int i = 0; i < total; i++)
        vec[i] = rank + i;
    MPI_Reduce_scatter(vec, part, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i <= rank; i++)
        ok &= part[i] == size * (size - 1) / 2 + size * (displs[rank] + i);
    int blk[2];
    MPI_Reduce_scatter_block(vec, blk, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ok &= blk[0] == size - 1 + 2 * rank && blk[1] == size + 2 * rank;
    check("MPI_Reduce_scatter(_block)", ok);
    /* maxloc, minloc: value (rank * 7) % size, ties to the lower rank */
    struct { double v; int i; } in = { (double)((rank * 7) % size), rank }, out;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    int best = 0;
    for (int r = 1; r < size; r++)
        if ((r * 7) % size > (best * 7) % size)
            best = r;
    ok = out.v == (double)((best * 7) % size) && out.i == best;
    struct { int v, i; } in2 = { rank % 3, rank }, out2;
    MPI_Allreduce(&in2, &out2, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
    ok &= out2.v == 0 && out2.i == 0;
    check("MPI_MAXLOC, MPI_MINLOC", ok);
    /* buffered send around a ring */
    int bsize = 64 + MPI_BSEND_OVERHEAD, got = -1, *detached, dsize;
    void *bbuf = malloc(bsize);
    MPI_Buffer_attach(bbuf, bsize);
    MPI_Bsend(&rank, 1, MPI_INT, (rank + 1) % size, 4, MPI_COMM_WORLD);
    MPI_Recv(&got, 1, MPI_INT, (rank - 1 + size) % size, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Buffer_detach(&detached, &dsize);
    check("MPI_Bsend", got == (rank - 1 + size) % size && dsize == bsize && (void *)detached == bbuf);
    if (rank == 0)
        printf("vcoll: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
