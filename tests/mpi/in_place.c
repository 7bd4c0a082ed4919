/* Every collective where MPI-3.1 takes MPI_IN_PLACE, given it there, in
 * its blocking and its nonblocking form, checked against values every
 * rank can compute; rank 0 prints what every rank found (tests/mpi/run.sh
 * compares it with Open MPI's run). -n N: the block of N ints (default
 * 3). Rank r's element i is val(r, i); the rooted calls' root is rank 1
 * (rank 0 on one rank). The receive side of the varying calls leaves a
 * gap of one int after each block, which must stay as it was. */
#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define GAP (-7)
static int n = 3, root, nb;          /* nb: the nonblocking form */
static MPI_Request rq;

static int val(int r, int i) { return 1000 * r + i; }
/* what rank s sends rank d in the all-to-all calls */
static int pair(int s, int d, int i) { return 100000 * s + 1000 * d + i; }
/* the sum over ranks of val(r, i), and over ranks 0..last */
static int sum_upto(int last, int i) { return 1000 * last * (last + 1) / 2 + (last + 1) * i; }

/* the blocking call, or the nonblocking one and its wait */
#define CALL(blocking, nonblocking)                      \
    do {                                                 \
        if (nb) {                                        \
            nonblocking;                                 \
            MPI_Wait(&rq, MPI_STATUS_IGNORE);            \
        } else                                           \
            blocking;                                    \
    } while (0)

static void say(const char *call, int ok)
{
    char what[64];
    if (nb)
        snprintf(what, sizeof what, "MPI_I%c%s, in place", tolower((unsigned char)call[0]), call + 1);
    else
        snprintf(what, sizeof what, "MPI_%s, in place", call);
    check(what, ok);
}

static int *ints(int count, int v)
{
    int *p = malloc((count ? count : 1) * sizeof(int));
    for (int i = 0; i < count; i++)
        p[i] = v;
    return p;
}

/* counts[r] = n, displs[r] = r (n + 1): a gap after each block */
static void spaced(int *counts, int *displs)
{
    for (int r = 0; r < size; r++)
        counts[r] = n, displs[r] = r * (n + 1);
}

static void reductions(void)
{
    int *b = ints(n, 0), ok = 1;
    for (int i = 0; i < n; i++)
        b[i] = val(rank, i);
    if (rank == root)
        CALL(MPI_Reduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD),
             MPI_Ireduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &rq));
    else
        CALL(MPI_Reduce(b, NULL, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD),
             MPI_Ireduce(b, NULL, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &rq));
    for (int i = 0; i < n; i++)
        ok &= b[i] == (rank == root ? sum_upto(size - 1, i) : val(rank, i));
    say("Reduce", ok);
    for (int i = 0; i < n; i++)
        b[i] = val(rank, i);
    CALL(MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
         MPI_Iallreduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    ok = 1;
    for (int i = 0; i < n; i++)
        ok &= b[i] == sum_upto(size - 1, i);
    say("Allreduce", ok);
    free(b);
}

static void scans(void)
{
    int *b = ints(n, 0), ok = 1;
    for (int i = 0; i < n; i++)
        b[i] = val(rank, i);
    CALL(MPI_Scan(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
         MPI_Iscan(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    for (int i = 0; i < n; i++)
        ok &= b[i] == sum_upto(rank, i);
    say("Scan", ok);
    for (int i = 0; i < n; i++)
        b[i] = val(rank, i);
    CALL(MPI_Exscan(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
         MPI_Iexscan(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    ok = 1;
    for (int i = 0; i < n && rank > 0; i++)   /* rank 0's is undefined */
        ok &= b[i] == sum_upto(rank - 1, i);
    say("Exscan", ok);
    free(b);
}

/* Gather and Gatherv to the root, its own block in place; v: spaced */
static void gathers(int v)
{
    int counts[64], displs[64], ok = 1, *all = ints(size * (n + 1), GAP), *mine = ints(n, 0);
    spaced(counts, displs);
    int at = v ? displs[rank] : rank * n;
    for (int i = 0; i < n; i++)
        mine[i] = val(rank, i), all[at + i] = rank == root ? val(rank, i) : GAP;
    const void *send = rank == root ? MPI_IN_PLACE : mine;
    if (v)
        CALL(MPI_Gatherv(send, n, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD),
             MPI_Igatherv(send, n, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD, &rq));
    else
        CALL(MPI_Gather(send, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD),
             MPI_Igather(send, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD, &rq));
    for (int r = 0; r < size && rank == root; r++) {
        for (int i = 0; i < n; i++)
            ok &= all[(v ? displs[r] : r * n) + i] == val(r, i);
        ok &= !v || all[displs[r] + n] == GAP;
    }
    say(v ? "Gatherv" : "Gather", ok);
    free(all);
    free(mine);
}

/* Scatter and Scatterv from the root, which keeps its block in place */
static void scatters(int v)
{
    int counts[64], displs[64], ok = 1, *all = ints(size * (n + 1), GAP), *mine = ints(n, GAP);
    spaced(counts, displs);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < n; i++)
            all[(v ? displs[r] : r * n) + i] = val(r, i);
    void *recv = rank == root ? MPI_IN_PLACE : mine;
    if (v)
        CALL(MPI_Scatterv(all, counts, displs, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD),
             MPI_Iscatterv(all, counts, displs, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD, &rq));
    else
        CALL(MPI_Scatter(all, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD),
             MPI_Iscatter(all, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD, &rq));
    const int *got = rank == root ? all + (v ? displs[rank] : rank * n) : mine;
    for (int i = 0; i < n; i++)
        ok &= got[i] == val(rank, i);
    say(v ? "Scatterv" : "Scatter", ok);
    free(all);
    free(mine);
}

/* Allgather and Allgatherv, each rank's block in place; v: spaced */
static void allgathers(int v)
{
    int counts[64], displs[64], ok = 1, *all = ints(size * (n + 1), GAP);
    spaced(counts, displs);
    for (int i = 0; i < n; i++)
        all[(v ? displs[rank] : rank * n) + i] = val(rank, i);
    if (v)
        CALL(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT, MPI_COMM_WORLD),
             MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT, MPI_COMM_WORLD,
                             &rq));
    else
        CALL(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, n, MPI_INT, MPI_COMM_WORLD),
             MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, n, MPI_INT, MPI_COMM_WORLD, &rq));
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < n; i++)
            ok &= all[(v ? displs[r] : r * n) + i] == val(r, i);
        ok &= !v || all[displs[r] + n] == GAP;
    }
    say(v ? "Allgatherv" : "Allgather", ok);
    free(all);
}

/* Alltoall, Alltoallv and Alltoallw (form 0, 1, 2), in place: the blocks
 * of the varying forms spaced, the w form's displacements in bytes */
static void alltoalls(int form)
{
    int counts[64], displs[64], bytes[64], ok = 1, *b = ints(size * (n + 1), GAP);
    MPI_Datatype types[64];
    spaced(counts, displs);
    for (int r = 0; r < size; r++) {
        bytes[r] = displs[r] * (int)sizeof(int), types[r] = MPI_INT;
        for (int i = 0; i < n; i++)
            b[(form ? displs[r] : r * n) + i] = pair(rank, r, i);
    }
    if (form == 0)
        CALL(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, n, MPI_INT, MPI_COMM_WORLD),
             MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, n, MPI_INT, MPI_COMM_WORLD, &rq));
    else if (form == 1)
        CALL(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, b, counts, displs, MPI_INT, MPI_COMM_WORLD),
             MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, b, counts, displs, MPI_INT, MPI_COMM_WORLD,
                            &rq));
    else
        CALL(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, b, counts, bytes, types, MPI_COMM_WORLD),
             MPI_Ialltoallw(MPI_IN_PLACE, NULL, NULL, NULL, b, counts, bytes, types, MPI_COMM_WORLD, &rq));
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < n; i++)
            ok &= b[(form ? displs[r] : r * n) + i] == pair(r, rank, i);
        ok &= !form || b[displs[r] + n] == GAP;
    }
    say(form == 0 ? "Alltoall" : form == 1 ? "Alltoallv" : "Alltoallw", ok);
    free(b);
}

/* Reduce_scatter (rank r's block r + 1 ints) and Reduce_scatter_block (n
 * ints each), in place: the whole vector in, this rank's block at its start */
static void reduce_scatters(int block)
{
    int counts[64], total = 0, at = 0, ok = 1;
    for (int r = 0; r < size; r++) {
        counts[r] = block ? n : r + 1;
        at += r < rank ? counts[r] : 0;
        total += counts[r];
    }
    int *b = ints(total, 0);
    for (int i = 0; i < total; i++)
        b[i] = val(rank, i);
    if (block)
        CALL(MPI_Reduce_scatter_block(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
             MPI_Ireduce_scatter_block(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    else
        CALL(MPI_Reduce_scatter(MPI_IN_PLACE, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
             MPI_Ireduce_scatter(MPI_IN_PLACE, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    for (int i = 0; i < counts[rank]; i++)
        ok &= b[i] == sum_upto(size - 1, at + i);
    say(block ? "Reduce_scatter_block" : "Reduce_scatter", ok);
    free(b);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-n"))
            n = atoi(argv[i + 1]);
    root = size > 1;
    if (size > 64 || n < 1 || n > 999) {
        if (rank == 0)
            printf("in_place: at most 64 ranks and -n 1..999\n");
        MPI_Finalize();
        return 1;
    }
    for (nb = 0; nb < 2; nb++) {
        reductions();
        scans();
        for (int v = 0; v < 2; v++) {
            gathers(v);
            scatters(v);
            allgathers(v);
            reduce_scatters(v);
        }
        for (int form = 0; form < 3; form++)
            alltoalls(form);
    }
    if (rank == 0)
        printf("in_place: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return 0;
}
