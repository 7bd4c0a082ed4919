/* Matched probe and receive (MPI-3.1 3.8.2, 3.8.3) on a ring: a message
 * MPI_Mprobe matched is no longer seen by a probe or a receive, and
 * MPI_Mrecv receives exactly it, however many came after; MPI_Improbe
 * finds nothing before a send; MPI_Imrecv completes the matched receive
 * through a request; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC; a message
 * longer than the NIC's largest, a non-contiguous receive type, an
 * MPI_Issend (complete once its matched message is received), a receive
 * posted before the probe (it keeps the first message) and another
 * communicator's message (not matched). Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Message msg;
    MPI_Status st, st2;
    int flag, n, ok;

    /* two messages, tags 1 then 2: Mprobe takes the first; a probe of any
     * tag then sees the second, and a receive of any tag takes it */
    int a[3] = { rank, 1, 11 }, b[2] = { rank, 2 }, ra[3] = { -1, -1, -1 }, rb[2] = { -1, -1 };
    MPI_Send(a, 3, MPI_INT, to, 1, MPI_COMM_WORLD);
    MPI_Send(b, 2, MPI_INT, to, 2, MPI_COMM_WORLD);
    MPI_Mprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    ok = st.MPI_SOURCE == from && st.MPI_TAG == 1 && n == 3 && msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st2);
    ok &= st2.MPI_TAG == 2 && st2.MPI_SOURCE == from;
    MPI_Recv(rb, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st2);
    ok &= st2.MPI_TAG == 2 && rb[0] == from && rb[1] == 2;
    MPI_Mrecv(ra, 3, MPI_INT, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    ok &= msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == from && st.MPI_TAG == 1 && n == 3 && ra[0] == from &&
          ra[1] == 1 && ra[2] == 11;
    check("mprobe, then others, mrecv", ok);

    /* Improbe: nothing of tag 3 before the barrier, the message after */
    MPI_Improbe(from, 3, MPI_COMM_WORLD, &flag, &msg, &st);
    ok = flag == 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int x = 100 + rank, y = -1;
    MPI_Send(&x, 1, MPI_INT, to, 3, MPI_COMM_WORLD);
    do
        MPI_Improbe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, &msg, &st);
    while (!flag);
    ok &= st.MPI_SOURCE == from && st.MPI_TAG == 3;
    MPI_Request rq;
    MPI_Imrecv(&y, 1, MPI_INT, &msg, &rq);
    ok &= msg == MPI_MESSAGE_NULL;
    MPI_Wait(&rq, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    ok &= rq == MPI_REQUEST_NULL && y == 100 + from && st.MPI_SOURCE == from && st.MPI_TAG == 3 && n == 1;
    check("improbe, imrecv", ok);

    /* MPI_PROC_NULL: MPI_MESSAGE_NO_PROC, and a receive of nothing */
    y = -1;
    MPI_Mprobe(MPI_PROC_NULL, 4, MPI_COMM_WORLD, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    ok = msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && n == 0;
    MPI_Mrecv(&y, 1, MPI_INT, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    ok &= msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && n == 0 && y == -1;
    MPI_Improbe(MPI_PROC_NULL, 4, MPI_COMM_WORLD, &flag, &msg, &st);
    ok &= flag == 1 && msg == MPI_MESSAGE_NO_PROC;
    MPI_Imrecv(&y, 1, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, &st);
    ok &= msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && y == -1;
    check("MPI_PROC_NULL: MESSAGE_NO_PROC", ok);

    /* 70,000 ints (280,000 bytes, two NIC messages), after a short one */
    int big = 70000, *l = malloc(big * sizeof *l), *rl = malloc(big * sizeof *rl);
    for (int i = 0; i < big; i++)
        l[i] = rank * 7 + i;
    MPI_Send(&x, 1, MPI_INT, to, 5, MPI_COMM_WORLD);
    MPI_Request lq;                  /* a correct program does not rely on its buffering */
    MPI_Isend(l, big, MPI_INT, to, 6, MPI_COMM_WORLD, &lq);
    MPI_Mprobe(from, 6, MPI_COMM_WORLD, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    ok = n == big && st.MPI_TAG == 6;
    MPI_Recv(&y, 1, MPI_INT, from, MPI_ANY_TAG, MPI_COMM_WORLD, &st2);
    ok &= y == 100 + from && st2.MPI_TAG == 5;
    MPI_Mrecv(rl, big, MPI_INT, &msg, &st);
    MPI_Wait(&lq, MPI_STATUS_IGNORE);
    for (int i = 0; i < big; i++)
        ok &= rl[i] == from * 7 + i;
    check("a long message", ok);
    if (rank == 0)
        printf("long message: %d ints from rank %d\n", n, st.MPI_SOURCE);

    /* a vector of every other int receives 4 ints */
    MPI_Datatype every2;
    MPI_Type_vector(4, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    int four[4] = { rank, rank + 1, rank + 2, rank + 3 }, spread[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
    MPI_Send(four, 4, MPI_INT, to, 7, MPI_COMM_WORLD);
    MPI_Mprobe(from, 7, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(spread, 1, every2, &msg, &st);
    MPI_Get_count(&st, every2, &n);
    ok = n == 1;
    for (int i = 0; i < 8; i++)
        ok &= spread[i] == (i % 2 ? -1 : from + i / 2);
    MPI_Type_free(&every2);
    check("mrecv of a vector type", ok);

    /* an Issend completes once its matched message is received */
    MPI_Request sq;
    MPI_Issend(&x, 1, MPI_INT, to, 8, MPI_COMM_WORLD, &sq);
    MPI_Mprobe(from, 8, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(&y, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    check("issend, mprobe, mrecv", y == 100 + from && sq == MPI_REQUEST_NULL);

    /* a receive posted before the probe keeps the first message of its
     * pattern; Mprobe matches the second */
    int first = -1, second = -1, v[2] = { 1000 + rank, 2000 + rank };
    MPI_Irecv(&first, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &rq);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&v[0], 1, MPI_INT, to, 9, MPI_COMM_WORLD);
    MPI_Send(&v[1], 1, MPI_INT, to, 9, MPI_COMM_WORLD);
    MPI_Mprobe(from, 9, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(&second, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    check("a posted receive comes first", first == 1000 + from && second == 2000 + from);

    /* another communicator's message is not matched */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Send(&x, 1, MPI_INT, to, 10, dup);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
    ok = flag == 0;
    MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &msg, &st);
    MPI_Mrecv(&y, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    ok &= y == 100 + from && st.MPI_TAG == 10;
    MPI_Comm_free(&dup);
    check("one communicator's messages", ok);

    free(l);
    free(rl);
    if (rank == 0)
        printf(fails ? "mprobe: FAILED\n" : "mprobe: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
