/* The C library calls MPI programs make beyond MPI (tests/mpi/run.sh):
 * getopt_long, atexit, srand/rand, getenv, sysconf, gettimeofday and
 * clock_gettime. Rank 0 prints what every MPI prints alike. Arguments:
 * --size N. */
#include <mpi.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int rank;
static void bye(void)
{
    if (rank == 0)
        printf("atexit ran\n");
}

int main(int argc, char **argv)
{
    static struct option longs[] = { { "size", required_argument, 0, 's' }, { 0, 0, 0, 0 } };
    int c, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    while ((c = getopt_long(argc, argv, "s:", longs, NULL)) != -1)
        if (c == 's')
            size = atoi(optarg);
    atexit(bye);
    srand(3);
    struct timeval tv;
    struct timespec ts, res;
    double w0 = MPI_Wtime();
    int clocks = gettimeofday(&tv, NULL) == 0 && clock_gettime(CLOCK_MONOTONIC, &ts) == 0 &&
                 clock_getres(CLOCK_MONOTONIC, &res) == 0 && MPI_Wtime() >= w0;
    if (rank == 0)
        printf("size %d, rand %s, HOME_OF_NOBODY %s, page %ld, clocks %s\n", size, rand() > 0 ? "positive" : "not",
               getenv("HOME_OF_NOBODY") ? "set" : "unset", sysconf(_SC_PAGESIZE), clocks ? "ok" : "FAILED");
    MPI_Finalize();
    exit(0);
}
