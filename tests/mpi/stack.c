/* Local arrays of hundreds of KiB, as C programs keep them (MPICH's
 * datatype/transpose_pack: two int[100][100] in main): each rank holds a
 * matrix and its transpose on its stack, packs the transpose by an
 * hvector of a vector type, sends it to the next rank and checks what
 * the previous rank sent, and that its static data beside the stack is
 * as it was. tests/mpi/run.sh compares the output with Open MPI's. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

#define N 200                        /* 160,000 bytes a matrix */

static int beside[1024];             /* static data, which the stack must not reach */

static int transposed_ok(int (*b)[N], int from)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (b[i][j] != from * 100000 + j * N + i)
                return 0;
    return 1;
}

static int exchange_transpose(void)
{
    int a[N][N], b[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            a[i][j] = rank * 100000 + i * N + j;
    MPI_Datatype column, xpose;
    MPI_Type_vector(N, 1, N, MPI_INT, &column);
    MPI_Type_create_hvector(N, 1, sizeof(int), column, &xpose);
    MPI_Type_commit(&xpose);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(a, 1, xpose, next, 0, b, N * N, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&xpose);
    MPI_Type_free(&column);
    return transposed_ok(b, prev);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 1024; i++)
        beside[i] = i;
    check("transpose in locals", exchange_transpose());
    int intact = 1;
    for (int i = 0; i < 1024; i++)
        intact &= beside[i] == i;
    check("static data intact", intact);
    if (rank == 0 && !fails)
        printf("stack: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
