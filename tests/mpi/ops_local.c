/* MPI_Reduce_local and MPI_Op_commutative (MPI-3.1 5.9.7): a predefined
 * operator and a user one on this rank's data alone, a user operator
 * that does not commute (2x2 matrix product) applied in the order the
 * standard gives (inoutbuf = inbuf op inoutbuf), and MPI_Scan of it
 * (each rank's prefix product in rank order). Needs 1 rank or more. */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

typedef struct { double a, b, c, d; } mat2;

static void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    mat2 *x = in, *y = inout;
    for (int i = 0; i < *len; i++) {
        mat2 r = { x[i].a * y[i].a + x[i].b * y[i].c, x[i].a * y[i].b + x[i].b * y[i].d,
                   x[i].c * y[i].a + x[i].d * y[i].c, x[i].c * y[i].b + x[i].d * y[i].d };
        y[i] = r;
    }
}

static void imax(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

static mat2 of_rank(int r)
{
    return r % 2 ? (mat2){ 1, 0, r, 1 } : (mat2){ 1, r + 1, 0, 1 };
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op mop, xop;
    MPI_Datatype mt;
    MPI_Type_contiguous(4, MPI_DOUBLE, &mt);
    MPI_Type_commit(&mt);
    MPI_Op_create(matmul, 0, &mop);
    MPI_Op_create(imax, 1, &xop);

    int c[4] = { -1, -1, -1, -1 };
    MPI_Op_commutative(MPI_SUM, &c[0]);
    MPI_Op_commutative(MPI_MAXLOC, &c[1]);
    MPI_Op_commutative(mop, &c[2]);
    MPI_Op_commutative(xop, &c[3]);
    if (rank == 0)
        printf("commutative: sum %d maxloc %d matmul %d imax %d\n", c[0], c[1], c[2], c[3]);
    check("op_commutative", c[0] == 1 && c[1] == 1 && c[2] == 0 && c[3] == 1);

    int a[4] = { 1, 20, 3, rank }, b[4] = { 10, 2, 30, -rank };
    MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM);
    int ok = b[0] == 11 && b[1] == 22 && b[2] == 33 && b[3] == 0;
    int d[3] = { 5, 1, 9 }, e[3] = { 2, 7, 9 };
    MPI_Reduce_local(d, e, 3, MPI_INT, xop);
    ok &= e[0] == 5 && e[1] == 7 && e[2] == 9;
    double x[2] = { 1.5, -2 }, y[2] = { 2, 4 };
    MPI_Reduce_local(x, y, 2, MPI_DOUBLE, MPI_PROD);
    ok &= y[0] == 3 && y[1] == -8;
    MPI_Reduce_local(x, y, 0, MPI_DOUBLE, MPI_MAX);
    if (rank == 0)
        printf("reduce_local: %d %d %d %d; %d %d %d; %g %g\n", b[0], b[1], b[2], b[3], e[0], e[1], e[2], y[0], y[1]);
    check("reduce_local", ok);

    /* in = rank 1's, inout = rank 0's: the result is m1 * m0 */
    mat2 m1 = of_rank(1), m0 = of_rank(0);
    MPI_Reduce_local(&m1, &m0, 1, mt, mop);
    if (rank == 0)
        printf("reduce_local matmul: %g %g %g %g\n", m0.a, m0.b, m0.c, m0.d);
    check("reduce_local order", m0.a == 1 && m0.b == 1 && m0.c == 1 && m0.d == 2);

    /* the scan's prefix on each rank, by Reduce_local in rank order */
    mat2 mine = of_rank(rank), pre, want = of_rank(0);
    MPI_Scan(&mine, &pre, 1, mt, mop, MPI_COMM_WORLD);
    for (int r = 1; r <= rank; r++) {
        mat2 next = of_rank(r);
        MPI_Reduce_local(&want, &next, 1, mt, mop);   /* next = want * next */
        want = next;
    }
    check("scan = reduce_local prefix", pre.a == want.a && pre.b == want.b && pre.c == want.c && pre.d == want.d);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int er = MPI_Reduce_local(x, y, 2, MPI_DOUBLE, MPI_BAND), cls;
    MPI_Error_class(er, &cls);
    check("reduce_local refuses BAND on DOUBLE", cls == MPI_ERR_OP);
    MPI_Op_free(&mop);
    MPI_Op_free(&xop);
    MPI_Type_free(&mt);
    if (rank == 0 && !fails)
        printf("ops_local: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
