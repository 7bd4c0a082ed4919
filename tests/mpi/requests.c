/* Requests at their edges, on a ring:
 *   some     MPI_Waitsome and MPI_Testsome (MPI-3.1 3.7.5) that complete a
 *            receive which failed (truncated, under MPI_ERRORS_RETURN)
 *            return MPI_ERR_IN_STATUS, each status's MPI_ERROR saying
 *            which failed and which succeeded, every completed request
 *            counted, the failed one too
 *   free     MPI_Request_free of a receive whose message is sent only
 *            later (3.7.3): the call returns, and the receive completes
 *            on its own, taking the first of its messages, as posted
 *            first (persistent, started, too)
 *   procnull receives from MPI_PROC_NULL of a type that is not
 *            contiguous, 40 of 2 MB of data each: 80 MB in all, more
 *            than a node's heap, so none may keep memory; MPI_Iprobe and
 *            MPI_Probe of MPI_PROC_NULL find it at once (3.11)
 *   order    receives from MPI_ANY_SOURCE with MPI_ANY_TAG, completed by
 *            MPI_Waitany, each get the message they match in posting
 *            order (3.5)
 * One of them as argv[1], all without. Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static int class_of(int code)
{
    int c;
    MPI_Error_class(code, &c);
    return c;
}

/* Two receives from `from`, tag 1 with room for 1 int (2 come: truncated)
 * and tag 2 with room for 4 (2 come), completed by Waitsome (test 0) or
 * Testsome (test 1). */
static void some(int to, int from, int test)
{
    int two[2] = { rank, rank }, small = -1, room[4] = { -1, -1, -1, -1 }, idx[2], oc, done = 0, ok = 1;
    int in_status = 0, seen[2] = { 0, 0 };
    MPI_Request q[2];
    MPI_Status st[2];
    MPI_Irecv(&small, 1, MPI_INT, from, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(room, 4, MPI_INT, from, 2, MPI_COMM_WORLD, &q[1]);
    MPI_Send(two, 2, MPI_INT, to, 1, MPI_COMM_WORLD);
    MPI_Send(two, 2, MPI_INT, to, 2, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);     /* both have come */
    for (int rounds = 0; done < 2 && rounds < 1000000; rounds++) {
        for (int k = 0; k < 2; k++)
            st[k].MPI_ERROR = -99;
        int e = test ? MPI_Testsome(2, q, &oc, idx, st) : MPI_Waitsome(2, q, &oc, idx, st);
        if (oc == MPI_UNDEFINED)
            break;
        for (int k = 0; k < oc; k++) {
            int i = idx[k];
            ok &= i >= 0 && i < 2 && !seen[i] && q[i] == MPI_REQUEST_NULL;
            seen[i & 1] = 1;
            if (e == MPI_ERR_IN_STATUS)   /* each status says how its request ended */
                ok &= i == 0 ? class_of(st[k].MPI_ERROR) == MPI_ERR_TRUNCATE : st[k].MPI_ERROR == MPI_SUCCESS;
            else
                ok &= e == MPI_SUCCESS && i == 1;
            if (i == 0)
                in_status = e == MPI_ERR_IN_STATUS;
        }
        done += oc;
    }
    ok &= done == 2 && in_status && room[0] == from && room[1] == from && room[2] == -1;
    check(test ? "testsome: MPI_ERR_IN_STATUS" : "waitsome: MPI_ERR_IN_STATUS", ok);
}

/* A receive freed before its message is sent: the first of two messages
 * of its tag is its own, the second the receive's after it. */
static void freed(int to, int from)
{
    int a = -1, b = -1, c = -1, d = -1, v[2] = { 10 + rank, 20 + rank };
    MPI_Request q, p;
    MPI_Irecv(&a, 1, MPI_INT, from, 5, MPI_COMM_WORLD, &q);
    MPI_Request_free(&q);
    int ok = q == MPI_REQUEST_NULL;
    MPI_Recv_init(&c, 1, MPI_INT, from, 6, MPI_COMM_WORLD, &p);
    MPI_Start(&p);
    MPI_Request_free(&p);
    ok &= p == MPI_REQUEST_NULL;
    MPI_Barrier(MPI_COMM_WORLD);     /* every rank freed its receives before any sends */
    MPI_Send(&v[0], 1, MPI_INT, to, 5, MPI_COMM_WORLD);
    MPI_Send(&v[1], 1, MPI_INT, to, 5, MPI_COMM_WORLD);
    MPI_Send(&v[0], 1, MPI_INT, to, 6, MPI_COMM_WORLD);
    MPI_Send(&v[1], 1, MPI_INT, to, 6, MPI_COMM_WORLD);
    MPI_Recv(&b, 1, MPI_INT, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&d, 1, MPI_INT, from, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* the freed receives were posted first: each took the first message */
    check("request_free of a pending receive", ok && a == 10 + from && b == 20 + from && c == 10 + from &&
                                                d == 20 + from);
}

static void procnull(void)
{
    MPI_Datatype every2;
    int n = 500000;                  /* 2 MB of data in 4 MB */
    MPI_Type_vector(n, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    int *buf = malloc(2 * n * sizeof *buf), ok = buf != NULL;
    for (int k = 0; k < 40 && ok; k++) {
        MPI_Request q;
        MPI_Status st;
        int cnt = -1;
        ok &= MPI_Irecv(buf, 1, every2, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &q) == MPI_SUCCESS;
        ok &= MPI_Wait(&q, &st) == MPI_SUCCESS;
        MPI_Get_count(&st, every2, &cnt);
        ok &= st.MPI_SOURCE == MPI_PROC_NULL && cnt == 0;
    }
    free(buf);
    MPI_Type_free(&every2);
    check("irecv from MPI_PROC_NULL keeps nothing", ok);

    /* a probe of MPI_PROC_NULL finds at once source MPI_PROC_NULL, tag
     * MPI_ANY_TAG and count 0 (MPI-3.1 3.11; MPICH's pt2pt/probenull) */
    MPI_Status ps = { .MPI_SOURCE = -7, .MPI_TAG = -7 }, bs = ps;
    int flag = 0, pc = -1, bc = -1;
    MPI_Iprobe(MPI_PROC_NULL, 10, MPI_COMM_WORLD, &flag, &ps);
    MPI_Get_count(&ps, MPI_INT, &pc);
    if (flag)                        /* MPI_Probe would wait for ever where Iprobe finds nothing */
        MPI_Probe(MPI_PROC_NULL, 10, MPI_COMM_WORLD, &bs);
    MPI_Get_count(&bs, MPI_INT, &bc);
    check("probe of MPI_PROC_NULL", flag && ps.MPI_SOURCE == MPI_PROC_NULL && ps.MPI_TAG == MPI_ANY_TAG && pc == 0 &&
                                    bs.MPI_SOURCE == MPI_PROC_NULL && bs.MPI_TAG == MPI_ANY_TAG && bc == 0);
}

/* Receives posted from MPI_ANY_SOURCE with MPI_ANY_TAG, 30 of lengths
 * 30 down to 1, completed by MPI_Waitany while rank 0 sends messages of
 * those lengths in that order: each receive gets the message of its
 * length, the one matching it in posting order (MPI-3.1 3.5; MPICH's
 * pt2pt/anyall), however the messages arrive while the library looks. */
#define NORD 30
static void order(void)
{
    static int buf[NORD][NORD];
    int ok = 1;
    if (rank == 0) {
        for (int i = 0; i < NORD; i++)
            for (int j = 0; j < NORD; j++)
                buf[i][j] = i * NORD + j;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < NORD; i++)
            MPI_Send(buf[i], NORD - i, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Request r[NORD];
        for (int i = 0; i < NORD; i++)
            MPI_Irecv(buf[i], NORD - i, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[i]);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; k < NORD; k++) {
            int idx = -1, cnt = -1;
            MPI_Status st;
            ok &= MPI_Waitany(NORD, r, &idx, &st) == MPI_SUCCESS && idx >= 0;
            if (idx < 0)
                break;
            MPI_Get_count(&st, MPI_INT, &cnt);
            ok &= cnt == NORD - idx && buf[idx][0] == idx * NORD && buf[idx][cnt - 1] == idx * NORD + cnt - 1;
        }
    } else
        MPI_Barrier(MPI_COMM_WORLD);
    check("wildcard receives in posting order", ok);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    const char *only = argc > 1 ? argv[1] : "";
    if (!*only || !strcmp(only, "some")) {
        some(to, from, 0);
        some(to, from, 1);
    }
    if (!*only || !strcmp(only, "free"))
        freed(to, from);
    if (!*only || !strcmp(only, "procnull"))
        procnull();
    if (!*only || !strcmp(only, "order"))
        order();
    if (rank == 0)
        printf(fails ? "requests: FAILED\n" : "requests: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
