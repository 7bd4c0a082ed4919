/* Types on a mixed machine (apps/mpi/isa.c, docs/mpi.md): MPI_LONG and
 * the other types of the node's own C size move between nodes of one ISA
 * as any type, and are refused with MPI_ERR_TYPE, where the call is made,
 * between nodes of the two ISAs (point to point, at the sender and at a
 * receiver naming its source; a collective on a communicator of both,
 * an intercommunicator's too;
 * a one-sided operation; a derived type holding one), while the
 * fixed-size types move everywhere. Rank 0 prints each answer; on a
 * machine of one ISA every call succeeds. With -f, rank 0's send of a
 * long to rank 1 under the default handler ends the run. The library's
 * own answers (no other MPI runs ISAs of two sizes of long); needs 4
 * ranks or more. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

static void say(const char *what, int e)
{
    int worst;
    MPI_Allreduce(&e, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %s\n", what, class_name(worst));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long v = 1000L + rank, got = -1;
    if (argc > 1 && !strcmp(argv[1], "-f")) {   /* the default handler: the run ends, naming it */
        if (rank == 0)
            MPI_Send(&v, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int e = MPI_SUCCESS;

    /* ranks 0 and 2: the same ISA on a machine of arm,riscv */
    if (rank == 0)
        e = MPI_Send(&v, 1, MPI_LONG, 2, 1, MPI_COMM_WORLD);
    else if (rank == 2)
        e = MPI_Recv(&got, 1, MPI_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    say("long between ranks 0 and 2", e ? e : rank == 2 && got != 1000 ? MPI_ERR_OTHER : MPI_SUCCESS);

    /* ranks 0 and 1: the two ISAs on a mixed machine */
    e = MPI_SUCCESS;
    if (rank == 0)
        e = MPI_Send(&v, 1, MPI_LONG, 1, 2, MPI_COMM_WORLD);
    else if (rank == 1)
        e = MPI_Recv(&got, 1, MPI_LONG, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    say("long between ranks 0 and 1", e);
    check("a long that came came whole", e != MPI_SUCCESS || rank != 1 || got == 1000);

    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_UNSIGNED_LONG, &two);
    MPI_Type_commit(&two);
    unsigned long pair[2] = { 7, 8 }, back[2] = { 0, 0 };
    e = MPI_SUCCESS;
    if (rank == 1)
        e = MPI_Send(pair, 1, two, 0, 3, MPI_COMM_WORLD);
    else if (rank == 0)
        e = MPI_Recv(back, 1, two, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    say("two unsigned longs between ranks 1 and 0", e);
    MPI_Type_free(&two);

    int64_t w = 5000 + rank, w0 = -1;
    e = MPI_SUCCESS;
    if (rank == 0)
        e = MPI_Send(&w, 1, MPI_INT64_T, 1, 4, MPI_COMM_WORLD);
    else if (rank == 1)
        e = MPI_Recv(&w0, 1, MPI_INT64_T, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    say("int64_t between ranks 0 and 1", e ? e : rank == 1 && w0 != 5000 ? MPI_ERR_OTHER : MPI_SUCCESS);

    long sum = 0;
    e = MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    say("long allreduce on every rank", e);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
    e = MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, half);
    say("long allreduce on the ranks of one parity", e);
    int64_t wsum = 0;
    e = MPI_Allreduce(&w, &wsum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    say("int64_t allreduce on every rank",
        e ? e : wsum != 5000LL * size + (int64_t)size * (size - 1) / 2 ? MPI_ERR_OTHER : MPI_SUCCESS);
    MPI_Comm inter;                  /* the even ranks and the odd ones: one ISA each on arm,riscv */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 9, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    e = MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, inter);
    say("long allreduce between the two parities", e);
    e = MPI_Allreduce(&w, &wsum, 1, MPI_INT64_T, MPI_SUM, inter);
    say("int64_t allreduce between the two parities", e);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);

    long *mem;
    MPI_Win win;
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    e = MPI_Put(&v, 1, MPI_LONG, (rank + 1) % size, 0, 1, MPI_LONG, win);
    MPI_Win_fence(0, win);
    say("long put to the next rank", e);
    MPI_Win_free(&win);

    if (rank == 0)
        printf("mixed_types: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return 0;
}
