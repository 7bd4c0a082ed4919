/* MPI_Testsome and MPI_Waitsome (MPI-3.1 3.7.5): on a ring, each rank
 * posts receives of three tags, its neighbour sends them in reverse
 * order; Testsome reports what is complete, each index once and each
 * status with its tag; outcount is MPI_UNDEFINED once no request is
 * active, and 0 while some are active and none is complete. Persistent
 * requests are completed by Waitsome and stay allocated. Needs 2 ranks or
 * more. */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;

    /* nothing sent yet to tag 9: one active request, none complete */
    MPI_Request q[3], idle = MPI_REQUEST_NULL;
    int in[3] = { -1, -1, -1 }, out[3], idx[3], oc = -5, seen[3] = { 0, 0, 0 }, ok = 1;
    MPI_Irecv(&in[0], 1, MPI_INT, from, 9, MPI_COMM_WORLD, &q[0]);
    MPI_Testsome(1, q, &oc, idx, MPI_STATUSES_IGNORE);
    int none = oc == 0 && q[0] != MPI_REQUEST_NULL;
    MPI_Barrier(MPI_COMM_WORLD);     /* every rank has tested before any sends */
    check("testsome: none complete is 0", none);
    MPI_Send(&rank, 1, MPI_INT, to, 9, MPI_COMM_WORLD);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    ok = in[0] == from;
    MPI_Barrier(MPI_COMM_WORLD);

    for (int k = 0; k < 3; k++)
        MPI_Irecv(&in[k], 1, MPI_INT, from, 20 + k, MPI_COMM_WORLD, &q[k]);
    for (int k = 2; k >= 0; k--) {
        out[k] = 10 * rank + k;
        MPI_Send(&out[k], 1, MPI_INT, to, 20 + k, MPI_COMM_WORLD);
    }
    int got = 0, rounds = 0;
    MPI_Status sts[3];
    while (got < 3 && rounds < 1000000) {
        MPI_Testsome(3, q, &oc, idx, sts);
        if (oc == MPI_UNDEFINED)
            break;
        for (int k = 0; k < oc; k++) {
            ok &= idx[k] >= 0 && idx[k] < 3 && !seen[idx[k]] && sts[k].MPI_TAG == 20 + idx[k] &&
                  sts[k].MPI_SOURCE == from && q[idx[k]] == MPI_REQUEST_NULL;
            if (idx[k] >= 0 && idx[k] < 3)
                seen[idx[k]] = 1;
        }
        got += oc;
        rounds++;
    }
    for (int k = 0; k < 3; k++)
        ok &= in[k] == 10 * from + k;
    check("testsome: each once, its status", ok && got == 3);
    MPI_Testsome(3, q, &oc, idx, MPI_STATUSES_IGNORE);
    int oc2 = -5;
    MPI_Testsome(1, &idle, &oc2, idx, MPI_STATUSES_IGNORE);
    check("testsome: no active is UNDEFINED", oc == MPI_UNDEFINED && oc2 == MPI_UNDEFINED);
    MPI_Testsome(0, NULL, &oc, idx, MPI_STATUSES_IGNORE);
    check("testsome: no requests", oc == MPI_UNDEFINED);

    /* persistent ring: Startall, then Waitsome until both are done */
    int sb, rb, sum = 0, left;
    MPI_Request p[2];
    MPI_Recv_init(&rb, 1, MPI_INT, from, 5, MPI_COMM_WORLD, &p[0]);
    MPI_Send_init(&sb, 1, MPI_INT, to, 5, MPI_COMM_WORLD, &p[1]);
    ok = 1;
    for (int it = 0; it < 4; it++) {
        sb = 100 * rank + it;
        MPI_Startall(2, p);
        for (left = 2; left > 0;) {
            MPI_Waitsome(2, p, &oc, idx, MPI_STATUSES_IGNORE);
            if (oc == MPI_UNDEFINED)
                break;
            left -= oc;
        }
        ok &= left == 0 && rb == 100 * from + it && p[0] != MPI_REQUEST_NULL && p[1] != MPI_REQUEST_NULL;
        sum += rb;
    }
    MPI_Testsome(2, p, &oc, idx, MPI_STATUSES_IGNORE);   /* both inactive */
    ok &= oc == MPI_UNDEFINED;
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    check("waitsome: persistent ring", ok);
    int total;
    MPI_Reduce(&sum, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("persistent ring sum %d\n", total);
    if (rank == 0 && !fails)
        printf("testsome: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
