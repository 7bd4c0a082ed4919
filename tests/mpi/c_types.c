/* The basic C types MPI-3.1 3.2.2 lists beyond the usual ones: long
 * double, MPI_Offset, the complex types and the long double-int pair.
 * Each has its C type's size and the standard's name (the pair's size
 * left out: Open MPI counts its data alone); reductions take
 * them as 5.9.2 says (SUM, PROD, MAX and MIN on long double and
 * MPI_OFFSET, SUM and PROD on the complex types, MAXLOC and MINLOC on the
 * pair); a struct of a char and a long double has C's extent; a long
 * double goes point to point. Rank 0 prints the values (as doubles:
 * the node's printf has no %Lf), which
 * tests/mpi/run.sh compares with Open MPI's. long double is 8 bytes on an
 * ARM node and 16 on a RISC-V one: the program runs on nodes of one ISA. */
#include <mpi.h>
#include <complex.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

static int size_and_name(MPI_Datatype t, int c_size, const char *mpi_name)
{
    int sz = -1, len = 0;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Type_size(t, &sz);
    MPI_Type_get_name(t, name, &len);
    return sz == c_size && !strcmp(name, mpi_name);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    check("sizes and names",
          size_and_name(MPI_LONG_DOUBLE, sizeof(long double), "MPI_LONG_DOUBLE") &&
          size_and_name(MPI_OFFSET, sizeof(MPI_Offset), "MPI_OFFSET") &&
          (size_and_name(MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), "MPI_C_FLOAT_COMPLEX") ||
           size_and_name(MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), "MPI_C_COMPLEX")) &&   /* Open MPI's */
          size_and_name(MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex), "MPI_C_DOUBLE_COMPLEX") &&
          size_and_name(MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex), "MPI_C_LONG_DOUBLE_COMPLEX"));

    long double ld = rank + 0.5L, ldsum = 0, ldmax = 0;
    MPI_Allreduce(&ld, &ldsum, 1, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&ld, &ldmax, 1, MPI_LONG_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Offset off = (MPI_Offset)rank << 33, offsum = 0;
    MPI_Allreduce(&off, &offsum, 1, MPI_OFFSET, MPI_SUM, MPI_COMM_WORLD);
    float _Complex fc = rank + 1.0f * I, fcsum = 0;
    double _Complex dc = 1.0 + (rank + 1) * I, dcprod = 0;
    long double _Complex lc = rank + 2.0L * I, lcsum = 0;
    MPI_Allreduce(&fc, &fcsum, 1, MPI_C_FLOAT_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&dc, &dcprod, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    MPI_Allreduce(&lc, &lcsum, 1, MPI_C_LONG_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    struct { long double v; int i; } mine = { size - 1 - rank, rank }, best;
    MPI_Allreduce(&mine, &best, 1, MPI_LONG_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (rank == 0)
        printf("long double sum %.1f max %.1f; offset sum %lld; float complex sum %.1f%+.1fi; double complex "
               "product %.1f%+.1fi; long double complex sum %.1f%+.1fi; maxloc %.1f at %d\n",
               (double)ldsum, (double)ldmax, (long long)offsum, crealf(fcsum), cimagf(fcsum), creal(dcprod),
               cimag(dcprod), (double)creall(lcsum), (double)cimagl(lcsum), (double)best.v, best.i);
    long double want_sum = size * size / 2.0L;
    check("reductions", ldsum == want_sum && ldmax == size - 0.5L &&
                        offsum == ((MPI_Offset)size * (size - 1) / 2) << 33 && crealf(fcsum) == size * (size - 1) / 2.0f &&
                        cimagf(fcsum) == size && best.v == size - 1 && best.i == 0);

    /* MAX does not apply to a complex type (5.9.2): refused */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    double _Complex x = 1, y;
    int e = MPI_Allreduce(&x, &y, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX, MPI_COMM_WORLD), cls = -1;
    MPI_Error_class(e, &cls);
    check("max of complex refused", cls == MPI_ERR_OP);

    /* a struct of a char and a long double: C's extent */
    struct cl { char c; long double v; } sv[2];
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { offsetof(struct cl, c), offsetof(struct cl, v) }, lb, ext;
    MPI_Datatype tt[2] = { MPI_CHAR, MPI_LONG_DOUBLE }, st;
    MPI_Type_create_struct(2, bl, disp, tt, &st);
    MPI_Type_commit(&st);
    MPI_Type_get_extent(st, &lb, &ext);
    check("struct extent", lb == 0 && ext == (MPI_Aint)sizeof(struct cl));

    /* two of them around a ring */
    struct cl in[2];
    for (int i = 0; i < 2; i++)
        sv[i] = (struct cl){ (char)('a' + rank), rank * 10.25L + i };
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Sendrecv(sv, 2, st, to, 0, in, 2, st, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check("ring of structs", in[0].c == 'a' + from && in[1].v == from * 10.25L + 1);
    MPI_Type_free(&st);
    if (rank == 0 && !fails)
        printf("c_types: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
