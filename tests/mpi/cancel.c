/* MPI_Cancel, MPI_Test_cancelled (MPI-3.1 3.8.4) and
 * MPI_Request_get_status (3.7.3) on a ring: a receive nobody sends to is
 * cancelled, and so is a started persistent one, which then runs again;
 * a send already received is not cancelled; get_status reports a
 * receive's completion and status without freeing the request, and Wait
 * then gives the same status. Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int to = (rank + 1) % size, from = (rank + size - 1) % size, z = -1, flag = -1, x = rank, y = -1;
    MPI_Request rq;
    MPI_Status st;

    MPI_Irecv(&z, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &rq);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    check("cancel an unmatched receive", flag == 1 && rq == MPI_REQUEST_NULL && z == -1);

    MPI_Recv_init(&y, 1, MPI_INT, from, 5, MPI_COMM_WORLD, &rq);
    MPI_Start(&rq);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    int ok = flag == 1 && rq != MPI_REQUEST_NULL && y == -1;
    MPI_Barrier(MPI_COMM_WORLD);     /* no rank sends before every rank has cancelled */
    MPI_Start(&rq);
    MPI_Send(&x, 1, MPI_INT, to, 5, MPI_COMM_WORLD);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    ok &= flag == 0 && y == from && st.MPI_SOURCE == from;
    MPI_Request_free(&rq);
    check("cancel a persistent receive, start it again", ok);

    MPI_Request s;
    MPI_Isend(&x, 1, MPI_INT, to, 6, MPI_COMM_WORLD, &s);
    MPI_Recv(&y, 1, MPI_INT, from, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);     /* every send has been received */
    MPI_Cancel(&s);
    MPI_Wait(&s, &st);
    MPI_Test_cancelled(&st, &flag);
    check("a received send is not cancelled", flag == 0 && y == from);

    int g = -1, n = -1, again = -1;
    MPI_Request_get_status(MPI_REQUEST_NULL, &g, &st);
    if (rank == 0)
        printf("get_status of MPI_REQUEST_NULL: flag %d source %d tag %d\n", g, st.MPI_SOURCE, st.MPI_TAG);
    check("get_status of MPI_REQUEST_NULL", g == 1 && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
    int two[2] = { rank, -rank }, got[2] = { -1, -1 };
    MPI_Irecv(got, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq);
    MPI_Request_get_status(rq, &g, MPI_STATUS_IGNORE);
    ok = g == 0;
    MPI_Barrier(MPI_COMM_WORLD);     /* every rank has asked before any sends */
    MPI_Send(two, 2, MPI_INT, to, 7, MPI_COMM_WORLD);
    for (g = 0; !g;)
        MPI_Request_get_status(rq, &g, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    ok &= rq != MPI_REQUEST_NULL && st.MPI_SOURCE == from && st.MPI_TAG == 7 && n == 2;
    MPI_Wait(&rq, &st);
    MPI_Get_count(&st, MPI_INT, &again);
    ok &= rq == MPI_REQUEST_NULL && st.MPI_SOURCE == from && st.MPI_TAG == 7 && again == 2 && got[0] == from &&
          got[1] == -from;
    check("get_status, then wait", ok);
    if (rank == 0 && !fails)
        printf("cancel: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
