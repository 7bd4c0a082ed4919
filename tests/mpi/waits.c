/* Blocking waits that take nothing yet wait in the NIC: MPI_Probe,
 * MPI_Mprobe, and MPI_Waitany and MPI_Waitsome on receives, each while
 * rank 1 computes for a while before it sends. rank 0 prints what it got
 * (tests/mpi/run.sh compares it with Open MPI's run, and checks from the
 * run's doorbells that rank 0 did not poll meanwhile). Needs 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

/* Some milliseconds of rank 1's own work. */
static void work(void)
{
    volatile int s = 0;
    for (int i = 0; i < 200000; i++)
        s += i;
}

static int probes(void)
{
    int ok = 1, v = 0;
    if (rank == 0) {
        MPI_Status st;
        MPI_Message m;
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ok = st.MPI_SOURCE == 1 && st.MPI_TAG == 4 && v == 40;
        MPI_Mprobe(1, 5, MPI_COMM_WORLD, &m, &st);
        MPI_Mrecv(&v, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
        ok &= v == 50;
    } else if (rank == 1) {
        for (int t = 4; t <= 5; t++) {
            work();
            v = 10 * t;
            MPI_Send(&v, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
        }
    }
    return ok;
}

/* Rank 0 tells rank 1 to send the next message only once its wait has
 * returned, so that each wait finds exactly one message come, whatever
 * the host's load (under Open MPI, a loaded host let two arrive before
 * MPI_Waitsome, which then returned both). */
#define NEXT 20

static int waitany_waitsome(void)
{
    int ok = 1, got[3] = { 0, 0, 0 };
    if (rank == 0) {
        MPI_Request q[3];
        int idx, n, ids[3];
        for (int k = 0; k < 3; k++)
            MPI_Irecv(&got[k], 1, MPI_INT, 1, 10 + k, MPI_COMM_WORLD, &q[k]);
        MPI_Waitany(3, q, &idx, MPI_STATUS_IGNORE);
        ok = idx == 2 && got[2] == 12;                   /* the last posted comes first */
        MPI_Send(NULL, 0, MPI_INT, 1, NEXT, MPI_COMM_WORLD);
        MPI_Waitsome(3, q, &n, ids, MPI_STATUSES_IGNORE);
        ok &= n == 1 && ids[0] == 0 && got[0] == 10;
        MPI_Send(NULL, 0, MPI_INT, 1, NEXT, MPI_COMM_WORLD);
        MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
        ok &= got[1] == 11;
    } else if (rank == 1) {
        int order[3] = { 2, 0, 1 };
        for (int k = 0; k < 3; k++) {
            if (k > 0)
                MPI_Recv(NULL, 0, MPI_INT, 0, NEXT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            work();
            int v = 10 + order[k];
            MPI_Send(&v, 1, MPI_INT, 0, 10 + order[k], MPI_COMM_WORLD);
        }
    }
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check("MPI_Probe and MPI_Mprobe", probes());
    check("MPI_Waitany, MPI_Waitsome", waitany_waitsome());
    if (rank == 0)
        printf("waits: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
