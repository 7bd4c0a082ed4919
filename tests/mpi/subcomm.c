/* Collectives on sub-communicators, checked against values every rank can
 * compute; only rank 0 prints, what every rank found, so the output is the
 * same under any MPI (tests/mpi/run.sh compares it with Open MPI's). On
 * the emulated machine they run the project's algorithms over the
 * communicator's ranks (apps/mpi/view.c). Communicators: the halves of
 * world by parity, ranked backwards (key -rank); all but rank 0, ranked
 * by a shuffle (key 37 rank mod 101: distinct keys, in no rank order);
 * and the two halves at once, their collectives of different sizes in
 * flight together. Arguments: -n ELEMENTS (a block). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static int n = 8;

/* The value world rank w puts in element i of block b. */
static int val(int w, int b, int i) { return w * 10007 + b * 101 + i; }

/* Every collective of the library's project algorithms on comm; world[r]
 * is the world rank of comm's rank r. 1 if all held on this rank. */
static int collectives(MPI_Comm comm, const int *world)
{
    int r, p, ok = 1;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int *send = malloc((size_t)p * n * sizeof *send), *recv = malloc((size_t)p * n * sizeof *recv);
    /* alltoall: block b of rank r goes to rank b */
    for (int b = 0; b < p; b++)
        for (int i = 0; i < n; i++)
            send[b * n + i] = val(world[r], b, i);
    MPI_Alltoall(send, n, MPI_INT, recv, n, MPI_INT, comm);
    for (int s = 0; s < p; s++)
        for (int i = 0; i < n; i++)
            ok &= recv[s * n + i] == val(world[s], r, i);
    /* allgather */
    MPI_Allgather(send, n, MPI_INT, recv, n, MPI_INT, comm);
    for (int s = 0; s < p; s++)
        for (int i = 0; i < n; i++)
            ok &= recv[s * n + i] == val(world[s], 0, i);
    /* bcast from the last rank */
    for (int i = 0; i < n; i++)
        recv[i] = r == p - 1 ? val(world[r], 5, i) : -1;
    MPI_Bcast(recv, n, MPI_INT, p - 1, comm);
    for (int i = 0; i < n; i++)
        ok &= recv[i] == val(world[p - 1], 5, i);
    /* scatter from rank 0, gather back to rank 1 (rank 0 if alone) */
    int root = p > 1 ? 1 : 0;
    MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, 0, comm);
    for (int i = 0; i < n; i++)
        ok &= recv[i] == val(world[0], r, i);
    MPI_Gather(recv, n, MPI_INT, send, n, MPI_INT, root, comm);
    for (int s = 0; r == root && s < p; s++)
        for (int i = 0; i < n; i++)
            ok &= send[s * n + i] == val(world[0], s, i);
    /* reductions of int sums and maxima */
    for (int i = 0; i < n; i++)
        send[i] = val(world[r], 0, i);
    MPI_Reduce(send, recv, n, MPI_INT, MPI_SUM, root, comm);
    for (int i = 0; r == root && i < n; i++) {
        long want = 0;
        for (int s = 0; s < p; s++)
            want += val(world[s], 0, i);
        ok &= recv[i] == want;
    }
    MPI_Allreduce(send, recv, n, MPI_INT, MPI_MAX, comm);
    for (int i = 0; i < n; i++) {
        int want = val(world[0], 0, i);
        for (int s = 1; s < p; s++)
            want = val(world[s], 0, i) > want ? val(world[s], 0, i) : want;
        ok &= recv[i] == want;
    }
    MPI_Scan(send, recv, n, MPI_INT, MPI_SUM, comm);
    for (int i = 0; i < n; i++) {
        long want = 0;
        for (int s = 0; s <= r; s++)
            want += val(world[s], 0, i);
        ok &= recv[i] == want;
    }
    MPI_Barrier(comm);
    free(send);
    free(recv);
    return ok;
}

/* The world ranks of comm's ranks, gathered. */
static int *world_of(MPI_Comm comm)
{
    int p;
    MPI_Comm_size(comm, &p);
    int *w = malloc((size_t)p * sizeof *w);
    MPI_Allgather(&rank, 1, MPI_INT, w, 1, MPI_INT, comm);
    return w;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int c;
    while ((c = getopt(argc, argv, "n:")) != -1)
        if (c == 'n')
            n = atoi(optarg);
    MPI_Comm half, rest;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    int *w = world_of(half);
    check("halves, backwards", collectives(half, w));
    free(w);
    /* all but rank 0, in the order of 37 rank mod 101 (size <= 101) */
    MPI_Comm_split(MPI_COMM_WORLD, rank ? 0 : MPI_UNDEFINED, (37 * rank) % 101, &rest);
    int ok = 1;
    if (rest != MPI_COMM_NULL) {
        w = world_of(rest);
        ok = collectives(rest, w);
        free(w);
        MPI_Comm_free(&rest);
    }
    check("all but rank 0, shuffled", ok);
    /* both halves again, twice: the kept plan of one half's call is not
     * the other's (another size on odd machines) */
    w = world_of(half);
    ok = collectives(half, w) & collectives(half, w);
    free(w);
    check("halves, plans kept", ok);
    MPI_Comm_free(&half);
    w = world_of(MPI_COMM_WORLD);
    check("whole machine after", collectives(MPI_COMM_WORLD, w));
    free(w);
    if (rank == 0)
        printf("subcomm: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
