/* What the project's MPI test programs share (tests/mpi/*.c): check()
 * prints, on rank 0, one line "WHAT ok" or "WHAT FAILED" for a check every
 * rank made, ok only if it held on every rank; fails counts the failed.
 * The programs set rank and size after MPI_Init. */
#ifndef TESTS_MPI_CHECK_H
#define TESTS_MPI_CHECK_H

#include <mpi.h>
#include <stdio.h>

static int rank, size, fails;

static void check(const char *what, int ok)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%-30s %s\n", what, all ? "ok" : "FAILED");
    fails += !all;
}

#endif
