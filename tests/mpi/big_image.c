/* Static arrays of tens of MiB, as benchmarks keep their buffers (OSU's
 * one-sided bandwidth tests: two of 128 MiB): the image spans more than
 * the node's default 32 MiB, and runs with NET='ram_mib=N' large enough
 * (tests/mpi/run.sh). Each rank fills its 40 MiB array, sends the last
 * MiB of it to the next rank, checks what the previous rank sent and that
 * its own array kept its pattern, and allocates 4 MiB of heap, which lies
 * above the image; and a table of 16 KiB with an initialiser (.data past
 * the linker scripts' 4 KiB image region) holds its values.
 * tests/mpi/run.sh compares the output with Open MPI's. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

#define BIG (40u << 20)              /* bytes of the static array */
#define PIECE (1u << 20)             /* bytes sent to the next rank */
#define HEAP (4u << 20)              /* bytes asked of malloc */

static unsigned char big[BIG];       /* zeros at start: .bss */
static unsigned char got[PIECE];
static int table[4096] = { 11, 22, 33, [2048] = 44, [4095] = 55 };   /* 16 KiB of .data */

static unsigned char pattern(int r, size_t i)
{
    return (unsigned char)(r * 37 + i * 7 + (i >> 12));
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

static int holds_pattern(const unsigned char *p, int r, size_t from, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != pattern(r, from + i))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check("static array zero at start", all_zero(big, BIG));
    int sum = 0;
    for (int i = 0; i < 4096; i++)
        sum += table[i];
    check("initialised table as initialised", sum == 165 && table[2048] == 44 && table[4095] == 55);
    table[rank] += rank;

    for (size_t i = 0; i < BIG; i++)
        big[i] = pattern(rank, i);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(big + BIG - PIECE, PIECE, MPI_UNSIGNED_CHAR, next, 0, got, PIECE, MPI_UNSIGNED_CHAR, prev, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check("last MiB from the previous rank", holds_pattern(got, prev, BIG - PIECE, PIECE));
    check("own array kept", holds_pattern(big, rank, 0, BIG));

    unsigned char *heap = malloc(HEAP);
    int heap_ok = heap != NULL;
    if (heap_ok) {
        for (size_t i = 0; i < HEAP; i++)
            heap[i] = pattern(rank + 1, i);
        heap_ok = holds_pattern(heap, rank + 1, 0, HEAP) && holds_pattern(big, rank, 0, BIG);
    }
    check("heap beside the array", heap_ok);
    check("table written", table[rank] == (rank < 3 ? 11 * (rank + 1) : 0) + rank && table[4095] == 55);
    free(heap);

    if (rank == 0)
        printf(fails ? "FAILED\n" : "all ok\n");
    MPI_Finalize();
    return 0;
}
