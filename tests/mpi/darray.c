/* Distributed arrays (MPI-3.1 4.1.4, MPI_Type_create_darray): for each
 * case below every rank makes its part of a global array of ints (each
 * element holds its own index in memory order) and packs the array with
 * it; rank 0 prints, rank by rank, the elements each owns in the type
 * map's order, and the type's size, extent and true extent, and checks
 * what MPI_Type_get_envelope and MPI_Type_get_contents give back. Block,
 * cyclic (with and without a block size) and undistributed dimensions,
 * C and Fortran order, 1 to 3 dimensions, ranks owning nothing; and the
 * refusals of arguments that describe no distribution (with -x, one that
 * Open MPI takes). Runs on 4
 * or 6 ranks (the cases' grids need one of those); tests/mpi/run.sh
 * compares the output with Open MPI's. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

struct dcase {
    const char *name;
    int ndims, gsizes[3], distribs[3], dargs[3], psizes4[3], psizes6[3], order;
};

#define B MPI_DISTRIBUTE_BLOCK
#define C MPI_DISTRIBUTE_CYCLIC
#define N MPI_DISTRIBUTE_NONE
#define D MPI_DISTRIBUTE_DFLT_DARG

static const struct dcase cases[] = {
    { "block x block, C", 2, { 6, 5 }, { B, B }, { D, D }, { 2, 2 }, { 3, 2 }, MPI_ORDER_C },
    { "cyclic x block, Fortran", 2, { 7, 4 }, { C, B }, { D, D }, { 2, 2 }, { 2, 3 }, MPI_ORDER_FORTRAN },
    { "cyclic(2) x none, C", 2, { 9, 3 }, { C, N }, { 2, D }, { 4, 1 }, { 6, 1 }, MPI_ORDER_C },
    { "block(3) 1-D, some own none", 1, { 7 }, { B }, { 3 }, { 4 }, { 6 }, MPI_ORDER_C },
    { "3-D cyclic(2) x block x cyclic, C", 3, { 5, 4, 6 }, { C, B, C }, { 2, D, D }, { 2, 1, 2 }, { 1, 2, 3 },
      MPI_ORDER_C },
    { "3-D none x cyclic x block(3), Fortran", 3, { 3, 5, 6 }, { N, C, B }, { D, D, 3 }, { 1, 2, 2 }, { 1, 2, 3 },
      MPI_ORDER_FORTRAN },
};

static void one(const struct dcase *k)
{
    const int *psizes = size == 4 ? k->psizes4 : k->psizes6;
    int total = 1;
    for (int i = 0; i < k->ndims; i++)
        total *= k->gsizes[i];
    MPI_Datatype t;
    MPI_Type_create_darray(size, rank, k->ndims, k->gsizes, k->distribs, k->dargs, psizes, k->order, MPI_INT, &t);
    MPI_Type_commit(&t);
    int tsize, *global = malloc((size_t)total * sizeof *global);
    MPI_Aint lb, extent, tlb, textent;
    MPI_Type_size(t, &tsize);
    MPI_Type_get_extent(t, &lb, &extent);
    MPI_Type_get_true_extent(t, &tlb, &textent);
    for (int i = 0; i < total; i++)
        global[i] = i;
    int n = tsize / (int)sizeof(int), pos = 0, *mine = malloc((size_t)(n ? n : 1) * sizeof *mine);
    MPI_Pack(global, 1, t, mine, n * (int)sizeof(int), &pos, MPI_COMM_SELF);

    int ni, na, nd, comb, ints[16];
    MPI_Aint addrs[1];
    MPI_Datatype types[1];
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    int ok = comb == MPI_COMBINER_DARRAY && ni == 4 * k->ndims + 4 && na == 0 && nd == 1;
    if (ok) {
        MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types);
        ok = ints[0] == size && ints[1] == rank && ints[2] == k->ndims && types[0] == MPI_INT &&
             ints[ni - 1] == k->order;
        for (int i = 0; i < k->ndims; i++)
            ok &= ints[3 + i] == k->gsizes[i] && ints[3 + k->ndims + i] == k->distribs[i] &&
                  ints[3 + 2 * k->ndims + i] == k->dargs[i] && ints[3 + 3 * k->ndims + i] == psizes[i];
    }

    int *counts = malloc((size_t)size * sizeof *counts), *displs = malloc((size_t)size * sizeof *displs);
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int sum = 0;
    for (int r = 0; rank == 0 && r < size; r++) {
        displs[r] = sum;
        sum += counts[r];
    }
    int *all = malloc((size_t)(sum ? sum : 1) * sizeof *all);
    MPI_Gatherv(mine, n, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    int64_t sizes[3] = { tsize, extent, textent }, *every = malloc((size_t)size * sizeof sizes);
    MPI_Gather(sizes, 3, MPI_INT64_T, every, 3, MPI_INT64_T, 0, MPI_COMM_WORLD);   /* one size on both ISAs */
    if (rank == 0) {
        printf("%s, lb %ld, extent %ld\n", k->name, (long)lb, (long)extent);
        for (int r = 0; r < size; r++) {
            printf("  rank %d (size %ld", r, (long)every[3 * r]);
            if (every[3 * r])        /* (an empty part's true extent is the library's own) */
                printf(", true extent %ld", (long)every[3 * r + 2]);
            printf("):");
            for (int i = 0; i < counts[r]; i++)
                printf(" %d", all[displs[r] + i]);
            printf("\n");
        }
        int covered = sum == total;  /* every element owned once */
        char *seen = calloc((size_t)total, 1);
        for (int i = 0; i < sum && covered; i++)
            covered = all[i] >= 0 && all[i] < total && !seen[all[i]]++;
        free(seen);
        ok &= covered;
    }
    check(k->name, ok);
    free(all);
    free(every);
    free(counts);
    free(displs);
    free(mine);
    free(global);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4 && size != 6) {
        if (rank == 0)
            printf("darray: needs 4 or 6 ranks\n");
        MPI_Finalize();
        return 1;
    }
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
        one(&cases[i]);
    /* refused: blocks that do not cover the dimension, a grid of the wrong
     * size; with -x (the library's own answer, as MPICH's: Open MPI takes
     * it), an undistributed dimension over several processes */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype t;
    int g = 10, blk = B, cyc = C, none = N, two = 2, p = size, half = size / 2;
    int e1 = MPI_Type_create_darray(size, rank, 1, &g, &blk, &two, &p, MPI_ORDER_C, MPI_INT, &t);
    int e2 = MPI_Type_create_darray(size, rank, 1, &g, &cyc, &two, &half, MPI_ORDER_C, MPI_INT, &t);
    if (rank == 0)
        printf("refused: %s %s\n", class_name(e1), class_name(e2));
    if (argc > 1 && !strcmp(argv[1], "-x")) {
        int e3 = MPI_Type_create_darray(size, rank, 1, &g, &none, &two, &p, MPI_ORDER_C, MPI_INT, &t);
        if (rank == 0)
            printf("bad none over %d processes: %s\n", size, class_name(e3));
    }
    if (rank == 0)
        printf("darray: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
