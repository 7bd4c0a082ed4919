/* Which predefined operator applies to which basic type (MPI-3.1 5.9.2),
 * under MPI_ERRORS_RETURN: every reduction is called with every pair, and
 * rank 0 prints the table of what was accepted (tests/mpi/run.sh compares
 * it with Open MPI's run). A pair that does not apply is refused with
 * MPI_ERR_OP on every rank alike, before any rank sends: no rank succeeds
 * where another fails, and none waits for a peer that has returned. The
 * pairs that apply give the values every rank can compute. */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

static const MPI_Datatype types[] = { MPI_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_SHORT, MPI_INT, MPI_UNSIGNED,
                                      MPI_INT64_T, MPI_FLOAT, MPI_DOUBLE, MPI_C_BOOL, MPI_2INT, MPI_DOUBLE_INT };
static const char *const type_names[] = { "CHAR", "UNSIGNED_CHAR", "BYTE", "SHORT", "INT", "UNSIGNED",
                                          "INT64_T", "FLOAT", "DOUBLE", "C_BOOL", "2INT", "DOUBLE_INT" };
static const MPI_Op ops[] = { MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR,
                              MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC };
enum { NTYPES = sizeof types / sizeof types[0], NOPS = sizeof ops / sizeof ops[0] };

/* Each reduction of one element of t with op: 1 if accepted, 0 if
 * refused with MPI_ERR_OP, -1 for anything else; ok cleared if the ranks
 * disagree. */
static int call(int which, MPI_Datatype t, MPI_Op op, int *ok)
{
    double in[4] = { 0 }, out[4 * 16] = { 0 };   /* room for any type, a block a rank of 16 */
    MPI_Request rq;
    int e = MPI_SUCCESS;
    switch (which) {
    case 0: e = MPI_Reduce(in, out, 1, t, op, size - 1, MPI_COMM_WORLD); break;
    case 1: e = MPI_Allreduce(in, out, 1, t, op, MPI_COMM_WORLD); break;
    case 2: e = MPI_Scan(in, out, 1, t, op, MPI_COMM_WORLD); break;
    case 3: e = MPI_Exscan(in, out, 1, t, op, MPI_COMM_WORLD); break;
    case 4: e = MPI_Reduce_scatter_block(out, in, 1, t, op, MPI_COMM_WORLD); break;
    case 5:
        if (!(e = MPI_Iallreduce(in, out, 1, t, op, MPI_COMM_WORLD, &rq)))
            e = MPI_Wait(&rq, MPI_STATUS_IGNORE);
        break;
    default:
        if (!(e = MPI_Iscan(in, out, 1, t, op, MPI_COMM_WORLD, &rq)))
            e = MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
    int cls = MPI_SUCCESS, r, lo, hi;
    if (e)
        MPI_Error_class(e, &cls);
    r = cls == MPI_SUCCESS ? 1 : cls == MPI_ERR_OP ? 0 : -1;
    MPI_Allreduce(&r, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&r, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    *ok &= lo == hi && lo >= 0;
    return r;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* the table: a pair is accepted by every call or by none */
    int agreed = 1, same = 1;
    if (rank == 0)
        printf("%-14s SUM PROD MAX MIN LAND LOR LXOR BAND BOR BXOR MAXLOC MINLOC\n", "");
    for (int i = 0; i < NTYPES; i++) {
        if (rank == 0)
            printf("%-14s", type_names[i]);
        for (int j = 0; j < NOPS; j++) {
            int first = call(0, types[i], ops[j], &agreed);
            for (int k = 1; k < 7; k++)
                same &= call(k, types[i], ops[j], &agreed) == first;
            if (rank == 0)
                printf(" %d", first);
        }
        if (rank == 0)
            printf("\n");
    }
    check("every rank agrees", agreed);
    check("every reduction agrees", same);

    /* MPI_OP_NULL and a contiguous derived type with a predefined operator:
     * refused alike on every rank */
    int ok = 1;
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    ok &= call(1, MPI_INT, MPI_OP_NULL, &ok) == 0;
    ok &= call(0, pair, MPI_SUM, &ok) == 0;
    check("MPI_OP_NULL, a derived type", ok);
    MPI_Type_free(&pair);

    /* values of pairs that apply */
    bool b = rank == 0, land, lor, lxor;
    MPI_Allreduce(&b, &land, 1, MPI_C_BOOL, MPI_LAND, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &lor, 1, MPI_C_BOOL, MPI_LOR, MPI_COMM_WORLD);
    MPI_Allreduce(&b, &lxor, 1, MPI_C_BOOL, MPI_LXOR, MPI_COMM_WORLD);
    check("MPI_C_BOOL LAND, LOR, LXOR", land == (size == 1) && lor && lxor);
    int bits = 1 << rank, band, bor, bxor;
    MPI_Allreduce(&bits, &bor, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    MPI_Allreduce(&bits, &bxor, 1, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
    bits = ~bits;
    MPI_Allreduce(&bits, &band, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD);
    check("MPI_INT BAND, BOR, BXOR", bor == (1 << size) - 1 && bxor == bor && band == ~bor);
    double d = rank + 0.5, dmax, dsum;
    MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    check("MPI_DOUBLE MAX, SUM", dmax == size - 0.5 && dsum == size * size / 2.0);
    int loc[2] = { rank % 2, rank }, mloc[2];
    MPI_Allreduce(loc, mloc, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    check("MPI_2INT MAXLOC", mloc[0] == (size > 1) && mloc[1] == (size > 1));   /* the lowest odd rank */

    if (rank == 0)
        printf("reduce_ops: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return fails != 0;
}
