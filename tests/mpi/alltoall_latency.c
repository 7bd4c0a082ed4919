/* An all-to-all latency benchmark in the style of the OSU micro-benchmarks'
 * collective tests: for each message size from -m MIN:MAX (powers of two),
 * -x warm-up and -i timed iterations of MPI_Alltoall between barriers; the
 * average latency over the ranks, and its minimum and maximum, in
 * microseconds. Written for this project; it calls what such benchmarks
 * call (getopt, posix_memalign, sysconf, MPI_Wtime, MPI_Reduce with
 * MPI_IN_PLACE). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_sizes(const char *s, long *lo, long *hi)
{
    char *end;
    *lo = strtol(s, &end, 10);
    if (*end == ':')
        *hi = strtol(end + 1, &end, 10);
    else
        *hi = *lo, *lo = 1;
    return *end || *lo < 1 || *hi < *lo ? -1 : 0;
}

int main(int argc, char **argv)
{
    int rank, size, c, iters = 10, warmup = 2;
    long lo = 1, hi = 1024;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    while ((c = getopt(argc, argv, "m:i:x:")) != -1) {
        if (c == 'm' && !parse_sizes(optarg, &lo, &hi))
            continue;
        if (c == 'i' && (iters = atoi(optarg)) > 0)
            continue;
        if (c == 'x' && (warmup = atoi(optarg)) >= 0)
            continue;
        if (rank == 0)
            fprintf(stderr, "usage: %s [-m MIN:MAX] [-i ITERATIONS] [-x WARMUP]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long page = sysconf(_SC_PAGESIZE);
    void *sbuf, *rbuf;
    if (posix_memalign(&sbuf, (size_t)page, (size_t)hi * size) || posix_memalign(&rbuf, (size_t)page, (size_t)hi * size)) {
        fprintf(stderr, "rank %d: no memory for %ld bytes\n", rank, hi * size * 2);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    memset(sbuf, rank & 0xff, (size_t)hi * size);
    if (rank == 0)
        printf("# all-to-all latency, %d ranks\n# %-10s %12s %12s %12s\n", size, "bytes", "avg (us)", "min (us)",
               "max (us)");
    for (long n = lo; n <= hi; n *= 2) {
        double t = 0;
        for (int i = 0; i < warmup + iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            MPI_Alltoall(sbuf, (int)n, MPI_CHAR, rbuf, (int)n, MPI_CHAR, MPI_COMM_WORLD);
            if (i >= warmup)
                t += MPI_Wtime() - t0;
        }
        double lat = t * 1e6 / iters, mn = lat, mx = lat;
        MPI_Reduce(&lat, &mn, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&lat, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            MPI_Reduce(MPI_IN_PLACE, &lat, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        else
            MPI_Reduce(&lat, NULL, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%-12ld %12.2f %12.2f %12.2f\n", n, lat / size, mn, mx);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
