/* The C library calls MPI programs make beyond MPI (tests/mpi/run.sh):
 * getopt_long, atexit, srand/rand, getenv, sysconf, gettimeofday,
 * clock_gettime and the sleeps (usleep, nanosleep, sleep). Rank 0 prints what every MPI prints alike. Arguments:
 * --size N. */
#include <mpi.h>
#include <errno.h>
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
    /* each sleep lasts at least what it asks, on MPI_Wtime's clock too */
    struct timespec nap = { 0, 2000000 }, left, bad = { 0, 1000000000 };
    double s0 = MPI_Wtime();
    int slept = usleep(1500) == 0 && MPI_Wtime() - s0 >= 1.5e-3;
    s0 = MPI_Wtime();
    slept &= nanosleep(&nap, &left) == 0 && MPI_Wtime() - s0 >= 2e-3;
    s0 = MPI_Wtime();
    slept &= sleep(1) == 0 && MPI_Wtime() - s0 >= 1.0;
    slept &= nanosleep(&bad, NULL) == -1 && errno == EINVAL;
    if (rank == 0)
        printf("sleeps %s\n", slept ? "ok" : "FAILED");
    if (rank == 0)
        printf("size %d, rand %s, HOME_OF_NOBODY %s, page %ld, clocks %s\n", size, rand() > 0 ? "positive" : "not",
               getenv("HOME_OF_NOBODY") ? "set" : "unset", sysconf(_SC_PAGESIZE), clocks ? "ok" : "FAILED");
    MPI_Finalize();
    exit(0);
}
