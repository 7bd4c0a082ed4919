/* An MPI program that checks point to point and the collectives against
 * values every rank can compute, and prints the same lines under any MPI:
 * only rank 0 prints, what every rank found (gathered). tests/mpi/run.sh
 * runs it on the emulated machine and under the host's Open MPI, and
 * compares the two outputs line for line. Arguments: -n ELEMENTS. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static int pingpong_ring(int n)
{
    int *out = malloc(n * sizeof *out), *in = malloc(n * sizeof *in), ok = 1;
    for (int i = 0; i < n; i++)
        out[i] = rank * 1000 + i;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    MPI_Status st;
    MPI_Sendrecv(out, n, MPI_INT, right, 7, in, n, MPI_INT, left, 7, MPI_COMM_WORLD, &st);
    int count;
    MPI_Get_count(&st, MPI_INT, &count);
    ok &= st.MPI_SOURCE == left && st.MPI_TAG == 7 && count == n;
    for (int i = 0; i < n; i++)
        ok &= in[i] == left * 1000 + i;
    free(out);
    free(in);
    return ok;
}

static int nonblocking(int n)
{
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    int ok = 1;
    MPI_Request rq[2];
    for (int i = 0; i < n; i++)
        a[i] = rank + i * 0.5;
    int peer = rank ^ 1;
    if (peer >= size)
        return 1;
    MPI_Irecv(b, n, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(a, n, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < n; i++)
        ok &= b[i] == peer + i * 0.5;
    free(a);
    free(b);
    return ok;
}

/* Receives match in the order they were posted, whatever order they are
 * waited in (MPI-3.1 3.5): A, posted first, takes the first message. */
static int posting_order(void)
{
    int ok = 1, a = 0, b = 0, one = 1, two = 2;
    if (size < 2 || rank > 1)
        return 1;
    if (rank == 0) {
        MPI_Send(&one, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&two, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
        return 1;
    }
    MPI_Request ra, rb;
    MPI_Status sa, sb;
    MPI_Irecv(&a, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &ra);
    MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rb);
    MPI_Wait(&rb, &sb);
    MPI_Wait(&ra, &sa);
    ok &= a == 1 && sa.MPI_TAG == 5 && b == 2 && sb.MPI_TAG == 6 && ra == MPI_REQUEST_NULL;
    return ok;
}

/* Persistent requests: a ring exchange set up once, started three times. */
static int persistent(void)
{
    int ok = 1, out = 0, in = -1, right = (rank + 1) % size, left = (rank - 1 + size) % size;
    MPI_Request rq[2];
    MPI_Recv_init(&in, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &rq[1]);
    for (int round = 0; round < 3; round++) {
        out = 100 * round + rank;
        MPI_Startall(2, rq);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        ok &= in == 100 * round + left && rq[0] != MPI_REQUEST_NULL;
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    return ok && rq[0] == MPI_REQUEST_NULL;
}

static int any_source(void)
{
    int ok = 1;
    if (rank == 0) {
        int seen = 0;
        for (int k = 1; k < size; k++) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            ok &= v == st.MPI_SOURCE * 3 && st.MPI_TAG == st.MPI_SOURCE;
            seen += st.MPI_SOURCE;
        }
        ok &= seen == size * (size - 1) / 2;
    } else {
        int v = rank * 3;
        MPI_Ssend(&v, 1, MPI_INT, 0, rank, MPI_COMM_WORLD);
    }
    return ok;
}

static int collectives(int n)
{
    int ok = 1;
    int *buf = malloc(n * size * sizeof(int)), *got = malloc(n * size * sizeof(int));
    /* bcast */
    for (int i = 0; i < n; i++)
        buf[i] = rank == size - 1 ? i * 7 : -1;
    MPI_Bcast(buf, n, MPI_INT, size - 1, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        ok &= buf[i] == i * 7;
    check("MPI_Bcast", ok);
    /* allreduce, sum and max */
    ok = 1;
    for (int i = 0; i < n; i++)
        buf[i] = rank + i;
    MPI_Allreduce(buf, got, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        ok &= got[i] == size * (size - 1) / 2 + size * i;
    MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        ok &= buf[i] == size - 1 + i;
    check("MPI_Allreduce", ok);
    /* reduce of doubles to the last rank, product */
    ok = 1;
    double d = 1.0 + (rank % 3), prod = 0;
    MPI_Reduce(&d, &prod, 1, MPI_DOUBLE, MPI_PROD, size - 1, MPI_COMM_WORLD);
    if (rank == size - 1) {
        double want = 1;
        for (int r = 0; r < size; r++)
            want *= 1.0 + (r % 3);
        ok = prod == want;
    }
    check("MPI_Reduce", ok);
    /* gather, scatter, allgather */
    ok = 1;
    for (int i = 0; i < n; i++)
        buf[i] = rank * n + i;
    MPI_Gather(buf, n, MPI_INT, got, n, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; rank == 0 && i < n * size; i++)
        ok &= got[i] == i;
    check("MPI_Gather", ok);
    ok = 1;
    MPI_Scatter(got, n, MPI_INT, buf, n, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        ok &= buf[i] == rank * n + i;
    check("MPI_Scatter", ok);
    ok = 1;
    MPI_Allgather(buf, n, MPI_INT, got, n, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < n * size; i++)
        ok &= got[i] == i;
    check("MPI_Allgather", ok);
    /* alltoall: block d of rank s holds s * size + d */
    ok = 1;
    for (int dst = 0; dst < size; dst++)
        for (int i = 0; i < n; i++)
            buf[dst * n + i] = (rank * size + dst) * n + i;
    MPI_Alltoall(buf, n, MPI_INT, got, n, MPI_INT, MPI_COMM_WORLD);
    for (int s = 0; s < size; s++)
        for (int i = 0; i < n; i++)
            ok &= got[s * n + i] == (s * size + rank) * n + i;
    check("MPI_Alltoall", ok);
    /* scan and exscan */
    ok = 1;
    int one = rank + 1, pre = -5, ex = -5;
    MPI_Scan(&one, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(&one, &ex, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ok &= pre == (rank + 1) * (rank + 2) / 2 && (rank == 0 || ex == rank * (rank + 1) / 2);
    check("MPI_Scan, MPI_Exscan", ok);
    MPI_Barrier(MPI_COMM_WORLD);
    free(buf);
    free(got);
    return 0;
}

static int split(void)
{
    MPI_Comm half;
    int color = rank % 2, r, s, ok = 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &half);
    MPI_Comm_rank(half, &r);
    MPI_Comm_size(half, &s);
    ok &= s == (size + 1 - color) / 2;
    int sum = rank, total;
    MPI_Allreduce(&sum, &total, 1, MPI_INT, MPI_SUM, half);
    int want = 0;
    for (int k = color; k < size; k += 2)
        want += k;
    ok &= total == want;
    /* ranks by key -rank: the highest world rank is rank 0 */
    int first = rank;
    MPI_Bcast(&first, 1, MPI_INT, 0, half);
    ok &= first == (size - 1) - ((size - 1 - color) % 2);
    MPI_Comm dup;
    MPI_Comm_dup(half, &dup);
    int cmp;
    MPI_Comm_compare(half, dup, &cmp);
    ok &= cmp == MPI_CONGRUENT;
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    return ok;
}

/* Groups: all but rank 0 make a communicator by MPI_Comm_create, the even
 * ranks one by MPI_Comm_create_group; ranks translate between them. */
static int groups(void)
{
    MPI_Group world, rest, evens;
    int ok = 1, zero = 0, n = (size + 1) / 2, *even = malloc(n * sizeof *even);
    for (int i = 0; i < n; i++)
        even[i] = 2 * i;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_excl(world, 1, &zero, &rest);
    MPI_Group_incl(world, n, even, &evens);
    int gs, gr, tr[2], from[2] = { 0, size - 1 };
    MPI_Group_size(rest, &gs);
    MPI_Group_rank(rest, &gr);
    ok &= gs == size - 1 && gr == (rank ? rank - 1 : MPI_UNDEFINED);
    MPI_Group_translate_ranks(world, 2, from, rest, tr);
    ok &= tr[0] == MPI_UNDEFINED && tr[1] == size - 2;
    MPI_Comm c;
    MPI_Comm_create(MPI_COMM_WORLD, rest, &c);
    if (rank == 0)
        ok &= c == MPI_COMM_NULL;
    else {
        int sum, one = 1;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
        ok &= sum == size - 1;
        MPI_Comm_free(&c);
    }
    if (rank % 2 == 0) {
        MPI_Comm ce;
        int r, max;
        MPI_Comm_create_group(MPI_COMM_WORLD, evens, 9, &ce);
        MPI_Comm_rank(ce, &r);
        MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, ce);
        ok &= r == rank / 2 && max == 2 * (n - 1);
        MPI_Comm_free(&ce);
    }
    MPI_Group_free(&rest);
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    free(even);
    return ok;
}

int main(int argc, char **argv)
{
    int n = 16, c;
    while ((c = getopt(argc, argv, "n:")) != -1)
        if (c == 'n')
            n = atoi(optarg);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf("basics: %d ranks, %d elements\n", size, n);
    check("MPI_Sendrecv ring", pingpong_ring(n));
    check("MPI_Isend/MPI_Irecv", nonblocking(n));
    check("MPI_ANY_SOURCE, MPI_Ssend", any_source());
    check("receives in posting order", posting_order());
    check("persistent requests", persistent());
    collectives(n);
    check("MPI_Comm_split, MPI_Comm_dup", split());
    check("groups, MPI_Comm_create(_group)", groups());
    if (rank == 0)
        printf("basics: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
