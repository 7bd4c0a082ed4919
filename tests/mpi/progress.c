/* Matching, progress and object lifetimes, checked against values every
 * rank can compute; rank 0 prints what every rank found (tests/mpi/run.sh
 * compares it with Open MPI's run). Needs 4 ranks or more.
 *   - a message goes to the earliest posted receive it fits, and a
 *     receive waited on first takes a message no earlier receive fits;
 *   - MPI_Test on the later of two receives of one pattern, with one
 *     message there, says not yet;
 *   - synchronous sends both ways with the receives posted first, and
 *     MPI_Issend both ways then MPI_Recv, complete;
 *   - MPI_Wait on a receive progresses a nonblocking barrier;
 *   - MPI_SOURCE is the rank in a communicator whose ranks are permuted;
 *   - a truncated receive's error stays with that receive;
 *   - a communicator and a datatype freed while a receive of them is
 *     pending: the receive completes normally;
 *   - a pending receive takes its Ssend's message while its rank waits
 *     in a collective or for another receive (MPI's progress rule), with
 *     few or more receives pending than one NIC wait takes, messages no
 *     receive was posted for keeping their order meanwhile. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

static int matching(void)
{
    int ok = 1, v = rank, a = -1, b = -1;
    if (rank == 0) {
        MPI_Request q[2];
        MPI_Irecv(&a, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &q[1]);
        MPI_Wait(&q[1], MPI_STATUS_IGNORE);          /* rank 2's tag 7: rank 1 sends only after this */
        MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        ok = a == 1 && b == 2;
    } else if (rank == 2)
        MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    else if (rank == 1) {
        MPI_Recv(&a, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    return ok;
}

static int test_later(void)
{
    int ok = 1, a = 0, b = 0, one = 1, f = 1;
    if (rank == 0) {
        MPI_Request q[2];
        MPI_Irecv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(&b, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &q[1]);
        MPI_Barrier(MPI_COMM_WORLD);                  /* rank 1's first message is sent */
        for (int k = 0; k < 3; k++)
            MPI_Test(&q[1], &f, MPI_STATUS_IGNORE);
        ok = !f;
        MPI_Send(&one, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        ok &= a == 1 && b == 2;
    } else if (rank == 1) {
        int two = 2;
        MPI_Send(&one, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(&a, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&two, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else
        MPI_Barrier(MPI_COMM_WORLD);
    return ok;
}

static int synchronous(void)
{
    int ok = 1, in = -1, v = rank;
    if (rank < 2) {
        int o = 1 - rank;
        MPI_Request q;
        MPI_Irecv(&in, 1, MPI_INT, o, 0, MPI_COMM_WORLD, &q);
        MPI_Ssend(&v, 1, MPI_INT, o, 0, MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        ok = in == o;
        MPI_Issend(&v, 1, MPI_INT, o, 1, MPI_COMM_WORLD, &q);
        MPI_Recv(&in, 1, MPI_INT, o, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        ok &= in == o;
    }
    return ok;
}

static int wait_progresses(void)
{
    int x = -1, v = rank;
    MPI_Request b, q;
    MPI_Ibarrier(MPI_COMM_WORLD, &b);
    if (rank == 0) {
        MPI_Irecv(&x, 1, MPI_INT, 2, 4, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);              /* rank 2 sends after its barrier completes */
    }
    MPI_Wait(&b, MPI_STATUS_IGNORE);
    if (rank == 2)
        MPI_Send(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
    return rank != 0 || x == 2;
}

static int permuted_source(void)
{
    MPI_Comm c;
    int cr, ok = 1;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank == 0 ? -1 : size - rank, &c);
    MPI_Comm_rank(c, &cr);
    if (cr == 0)
        for (int i = 1; i < size; i++) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, c, &st);
            ok &= v == st.MPI_SOURCE;
        }
    else
        MPI_Send(&cr, 1, MPI_INT, 0, 0, c);
    MPI_Comm_free(&c);
    return ok;
}

static int error_stays(void)
{
    int ok = 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        int a = -1, b = -1;
        MPI_Request q[2];
        MPI_Status st;
        MPI_Irecv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &q[0]);    /* two ints come: truncated */
        MPI_Irecv(&b, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &q[1]);
        int eb = MPI_Wait(&q[1], &st);
        ok = eb == MPI_SUCCESS && b == 3;
        int ea = MPI_Wait(&q[0], &st);
        int cls;
        MPI_Error_class(ea, &cls);
        ok &= cls == MPI_ERR_TRUNCATE;
    } else if (rank == 1) {
        int s[2] = { 1, 2 }, t = 3;
        MPI_Send(s, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(&t, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return ok;
}

static int freed_while_pending(void)
{
    int ok = 1, x = -1, v = 42, buf[4] = { 0 }, s[2] = { 5, 6 };
    MPI_Comm d;
    MPI_Datatype vec;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (rank == 0) {
        MPI_Request q[2];
        MPI_Irecv(&x, 1, MPI_INT, 2, 0, d, &q[0]);
        MPI_Irecv(buf, 1, vec, 1, 0, MPI_COMM_WORLD, &q[1]);
        MPI_Comm_free(&d);
        MPI_Type_free(&vec);
        MPI_Comm e;
        MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &e);   /* may take the freed slots */
        MPI_Datatype w;
        MPI_Type_contiguous(3, MPI_INT, &w);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        ok = x == 42 && buf[0] == 5 && buf[1] == 0 && buf[2] == 6;
        MPI_Comm_free(&e);
        MPI_Type_free(&w);
    } else {
        if (rank == 2)
            MPI_Send(&v, 1, MPI_INT, 0, 0, d);
        if (rank == 1)
            MPI_Send(s, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Comm_free(&d);
        MPI_Type_free(&vec);
        MPI_Comm e;
        MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &e);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Comm_free(&e);
    }
    return ok;
}

/* MPI_Waitsome returns every request complete at the call, not one: four
 * small sends from rank 0 to rank 1, complete once sent (eager), and
 * their receives, complete once a barrier after the sends has passed. */
static int waitsome_takes_all(void)
{
    int v[4] = { 1, 2, 3, 4 }, w[4] = { 0 }, outcount = 0, idx[4];
    MPI_Request rq[4];
    MPI_Status st[4];
    if (rank == 0)
        for (int i = 0; i < 4; i++)
            MPI_Isend(&v[i], 1, MPI_INT, 1, 40 + i, MPI_COMM_WORLD, &rq[i]);
    if (rank == 1)
        for (int i = 0; i < 4; i++)
            MPI_Irecv(&w[i], 1, MPI_INT, 0, 40 + i, MPI_COMM_WORLD, &rq[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank > 1)
        return 1;
    MPI_Waitsome(4, rq, &outcount, idx, st);
    int ok = outcount == 4;
    for (int k = 0; ok && k < outcount; k++)
        ok = idx[k] == k && (rank == 0 || (w[k] == k + 1 && st[k].MPI_TAG == 40 + k));
    return ok;
}

/* A blocking collective on a sub-communicator while a nonblocking one of
 * world runs: rank 3 waits for world's Ibcast, which rank 2 forwards only
 * from inside its next call, the barrier of its half; rank 0 waits for 3's
 * message meanwhile. The barrier must progress the Ibcast (a collective
 * that blocks in the NIC without it deadlocks). */
static int blocking_beside_nonblocking(void)
{
    int v = rank == 0 ? 77 : 0, tok = 0, ok = 1;
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Request rq;
    MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    if (rank == 0)
        MPI_Recv(&tok, 1, MPI_INT, 3, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 3) {
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    if (rank == 1)
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Barrier(half);
    if (rank == 0 || rank == 2 || rank > 3)
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    ok &= v == 77 && (rank != 0 || tok == 77);
    MPI_Comm_free(&half);
    return ok;
}

/* MPI's progress rule (MPI-3.1 3.7.4): a posted receive is matched when
 * its Ssend comes, whatever its rank waits for meanwhile.
 *   - through a collective: rank 0's receive of 1's Ssend is pending while
 *     rank 0 is in the barrier, which rank 1 joins only once acknowledged;
 *   - through a wait on another receive: rank 0 waits for 1's message,
 *     which 1 sends only after 2's message, which 2 sends only once its
 *     Ssend to rank 0's other pending receive is acknowledged;
 *   - the same with more receives pending (70) than one NIC wait takes. */
static int ssend_through_collective(void)
{
    int x = 0, y = 41, ok = 1;
    if (rank == 0) {
        MPI_Request q;
        MPI_Irecv(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &q);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        ok = x == 41;
    } else {
        if (rank == 1)
            MPI_Ssend(&y, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return ok;
}

static int ssend_through_wait(int pending)
{
    int v = 100 + rank, ok = 1;
    if (rank == 0) {
        MPI_Request *q = malloc((size_t)(pending + 1) * sizeof *q);
        int *got = calloc((size_t)pending + 1, sizeof *got);
        MPI_Irecv(&got[0], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &q[0]);
        for (int k = 1; k <= pending; k++)
            MPI_Irecv(&got[k], 1, MPI_INT, 2, 100 + k, MPI_COMM_WORLD, &q[k]);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        MPI_Waitall(pending, q + 1, MPI_STATUSES_IGNORE);
        ok = got[0] == 102;
        for (int k = 1; k <= pending; k++)
            ok &= got[k] == 102;
        free(q);
        free(got);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 2) {
        for (int k = pending; k >= 1; k--)           /* the last posted first */
            MPI_Ssend(&v, 1, MPI_INT, 0, 100 + k, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    }
    return ok;
}

/* A wait on one of more receives than one NIC wait takes polls, and the
 * polling's progress, which looks at every pending receive, may complete
 * the very receive waited for: rank 0 waits for the last of 70 receives
 * first, its message coming while the earlier ones are looked at. */
static int many_pending_last_first(void)
{
    enum { N = 70 };
    int ok = 1, got[N];
    if (rank == 0) {
        MPI_Request q[N];
        for (int k = 0; k < N; k++)
            MPI_Irecv(&got[k], 1, MPI_INT, 1, k, MPI_COMM_WORLD, &q[k]);
        MPI_Wait(&q[N - 1], MPI_STATUS_IGNORE);
        MPI_Waitall(N - 1, q, MPI_STATUSES_IGNORE);
        for (int k = 0; k < N; k++)
            ok &= got[k] == 1000 + k;
    } else if (rank == 1) {
        for (int k = N - 1; k >= 0; k--) {
            volatile int spin = 0;
            for (int i = 0; i < (k == N - 1 ? 20000 : 300); i++)   /* the first after rank 0 waits */
                spin += i;
            int v = 1000 + k;
            MPI_Send(&v, 1, MPI_INT, 0, k, MPI_COMM_WORLD);
        }
    }
    return ok;
}

/* Messages no receive is posted for, arriving while a rank waits with
 * more receives pending than one NIC wait takes, are received later in
 * the order they were sent: rank 1 sends tags 50 and 51 before the
 * message rank 0 waits for; rank 0 then receives from 1 with any tag. */
static int unexpected_beside_many(void)
{
    enum { N = 70 };
    int ok = 1, got[N], a = 0, b = 0, v = 7;
    if (rank == 0) {
        MPI_Request q[N];
        MPI_Status s1, s2;
        for (int k = 0; k < N; k++)
            MPI_Irecv(&got[k], 1, MPI_INT, 2, 100 + k, MPI_COMM_WORLD, &q[k]);
        MPI_Recv(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&a, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &s1);
        MPI_Recv(&b, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &s2);
        ok = s1.MPI_TAG == 50 && s2.MPI_TAG == 51 && a == 50 && b == 51;
        MPI_Send(&v, 1, MPI_INT, 2, 3, MPI_COMM_WORLD);
        MPI_Waitall(N, q, MPI_STATUSES_IGNORE);
        for (int k = 0; k < N; k++)
            ok &= got[k] == 100 + k;
    } else if (rank == 1) {
        int x = 50, y = 51;
        MPI_Send(&x, 1, MPI_INT, 0, 50, MPI_COMM_WORLD);
        MPI_Send(&y, 1, MPI_INT, 0, 51, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int k = 0; k < N; k++) {
            int w = 100 + k;
            MPI_Send(&w, 1, MPI_INT, 0, 100 + k, MPI_COMM_WORLD);
        }
    }
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 4) {
        if (rank == 0)
            printf("progress: needs 4 ranks or more\n");
        MPI_Finalize();
        return 1;
    }
    check("earliest posted receive", matching());
    check("MPI_Test on the later receive", test_later());
    check("Ssend and Issend both ways", synchronous());
    check("MPI_Wait progresses Ibarrier", wait_progresses());
    check("MPI_SOURCE, permuted ranks", permuted_source());
    check("an error stays with its receive", error_stays());
    check("freed while pending", freed_while_pending());
    check("MPI_Waitsome takes all complete", waitsome_takes_all());
    check("sub-communicator beside Ibcast", blocking_beside_nonblocking());
    check("Ssend through a barrier", ssend_through_collective());
    check("Ssend through a wait", ssend_through_wait(1));
    check("Ssend through a wait, 70 more", ssend_through_wait(70));
    check("the last of 70 receives first", many_pending_last_first());
    check("unexpected beside 70 pending", unexpected_beside_many());
    if (rank == 0)
        printf("progress: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
