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

static int rank, size, fails;

static void check(const char *what, int ok)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%-28s %s\n", what, all ? "ok" : "FAILED");
    fails += !all;
}

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
    collectives(n);
    check("MPI_Comm_split, MPI_Comm_dup", split());
    if (rank == 0)
        printf("basics: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
