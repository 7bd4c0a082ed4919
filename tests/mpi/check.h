/* What the project's MPI test programs share (tests/mpi/*.c): check()
 * prints, on rank 0, one line "WHAT ok" or "WHAT FAILED" for a check every
 * rank made, ok only if it held on every rank; fails counts the failed.
 * The programs set rank and size after MPI_Init. */
#ifndef TESTS_MPI_CHECK_H
#define TESTS_MPI_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, fails;

static void check(const char *what, int ok)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%-30s %s\n", what, all ? "ok" : "FAILED");
    fails += !all;
}

/* Rank 0 prints "WHAT: v(0) v(1) ..." of each rank's v (rma.c, rma_sync.c). */
static inline void show_ranks(const char *what, int v)
{
    int *all = malloc((size_t)size * sizeof *all);
    MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%s:", what);
        for (int r = 0; r < size; r++)
            printf(" %d", all[r]);
        printf("\n");
    }
    free(all);
}

/* The name of error code e's class, for the classes the programs print
 * (attrs.c, info.c, error_classes.c, rma.c, rma_sync.c, rma_req.c); "another class"
 * for the rest. */
static inline const char *class_name(int e)
{
    static const struct { int cls; const char *name; } names[] = {
        { MPI_SUCCESS, "MPI_SUCCESS" },           { MPI_ERR_ARG, "MPI_ERR_ARG" },
        { MPI_ERR_COMM, "MPI_ERR_COMM" },         { MPI_ERR_TYPE, "MPI_ERR_TYPE" },
        { MPI_ERR_OTHER, "MPI_ERR_OTHER" },       { MPI_ERR_KEYVAL, "MPI_ERR_KEYVAL" },
        { MPI_ERR_INFO, "MPI_ERR_INFO" },         { MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY" },
        { MPI_ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE" }, { MPI_ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY" },
        { MPI_ERR_RMA_SYNC, "MPI_ERR_RMA_SYNC" }, { MPI_ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE" },
        { MPI_ERR_RANK, "MPI_ERR_RANK" },         { MPI_ERR_LOCKTYPE, "MPI_ERR_LOCKTYPE" },
        { MPI_ERR_RMA_FLAVOR, "MPI_ERR_RMA_FLAVOR" }, { MPI_ERR_GROUP, "MPI_ERR_GROUP" },
        { MPI_ERR_RMA_SHARED, "MPI_ERR_RMA_SHARED" },
    };
    int c;
    MPI_Error_class(e, &c);
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].cls == c)
            return names[i].name;
    return "another class";
}

#endif
