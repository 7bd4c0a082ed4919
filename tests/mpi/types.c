/* Derived datatypes and MPI_Pack, checked against values every rank can
 * compute; rank 0 prints what every rank found (tests/mpi/run.sh compares
 * it with Open MPI's run). Needs 2 ranks or more. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

struct rec { int id; double x; char tag[3]; };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ok, peer = rank ^ 1;
    if (peer >= size)
        peer = MPI_PROC_NULL;

    /* a column of a 4 x 5 matrix, sent as a vector, received both ways */
    int m[4][5], col[4], m2[4][5];
    MPI_Datatype column;
    MPI_Type_vector(4, 1, 5, MPI_INT, &column);
    MPI_Type_commit(&column);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            m[i][j] = 100 * rank + 10 * i + j, m2[i][j] = -1;
    MPI_Sendrecv(&m[0][2], 1, column, peer, 1, col, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request rq;
    MPI_Irecv(&m2[0][3], 1, column, peer, 2, MPI_COMM_WORLD, &rq);
    MPI_Send(&m[0][2], 1, column, peer, 2, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    ok = 1;
    for (int i = 0; peer != MPI_PROC_NULL && i < 4; i++)
        ok &= col[i] == 100 * peer + 10 * i + 2 && m2[i][3] == col[i] && m2[i][2] == -1 && m2[i][4] == -1;
    MPI_Aint lb, ext;
    int sz;
    MPI_Type_get_extent(column, &lb, &ext);
    MPI_Type_size(column, &sz);
    ok &= lb == 0 && ext == (3 * 5 + 1) * (MPI_Aint)sizeof(int) && sz == 4 * (int)sizeof(int);
    check("MPI_Type_vector", ok);

    /* a struct with padding */
    struct rec r[3], got[3];
    int lens[3] = { 1, 1, 3 };
    MPI_Aint displs[3] = { offsetof(struct rec, id), offsetof(struct rec, x), offsetof(struct rec, tag) };
    MPI_Datatype types[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR }, rtype;
    MPI_Type_create_struct(3, lens, displs, types, &rtype);
    MPI_Type_commit(&rtype);
    MPI_Type_get_extent(rtype, &lb, &ext);
    ok = ext == (MPI_Aint)sizeof(struct rec);
    memset(r, 0, sizeof r);
    memset(got, 0, sizeof got);
    for (int i = 0; i < 3; i++)
        r[i].id = rank * 10 + i, r[i].x = rank + i / 4.0, memcpy(r[i].tag, "ab", 3);
    MPI_Sendrecv(r, 3, rtype, peer, 3, got, 3, rtype, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; peer != MPI_PROC_NULL && i < 3; i++)
        ok &= got[i].id == peer * 10 + i && got[i].x == peer + i / 4.0 && !strcmp(got[i].tag, "ab");
    /* broadcast of the structs from the last rank */
    MPI_Bcast(r, 3, rtype, size - 1, MPI_COMM_WORLD);
    for (int i = 0; i < 3; i++)
        ok &= r[i].id == (size - 1) * 10 + i;
    check("MPI_Type_create_struct", ok);

    /* indexed: the upper triangle of a 4 x 4 matrix */
    int a[16], t[16], bl[4], di[4];
    for (int i = 0; i < 4; i++)
        bl[i] = 4 - i, di[i] = 5 * i;
    MPI_Datatype upper;
    MPI_Type_indexed(4, bl, di, MPI_INT, &upper);
    MPI_Type_commit(&upper);
    for (int i = 0; i < 16; i++)
        a[i] = rank * 16 + i, t[i] = -1;
    MPI_Sendrecv(a, 1, upper, peer, 4, t, 1, upper, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ok = 1;
    for (int i = 0; peer != MPI_PROC_NULL && i < 4; i++)
        for (int j = 0; j < 4; j++)
            ok &= t[4 * i + j] == (j >= i ? peer * 16 + 4 * i + j : -1);
    check("MPI_Type_indexed", ok);

    /* a matrix transpose by MPI_Alltoall: each rank owns a row of a
     * size x size matrix and sends element j to rank j, received as column
     * entries of a resized vector */
    int *row = malloc(size * sizeof(int)), *colv = malloc(size * sizeof(int));
    for (int j = 0; j < size; j++)
        row[j] = rank * size + j;
    MPI_Datatype one, spaced;
    MPI_Type_vector(1, 1, 1, MPI_INT, &one);
    MPI_Type_create_resized(one, 0, sizeof(int), &spaced);
    MPI_Type_commit(&spaced);
    MPI_Alltoall(row, 1, MPI_INT, colv, 1, spaced, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < size; i++)
        ok &= colv[i] == i * size + rank;
    /* gather of columns: every rank's column 2 of m, at the root as rows */
    int *rows = malloc(size * 4 * sizeof(int));
    MPI_Gather(&m[0][2], 1, column, rows, 4, MPI_INT, 0, MPI_COMM_WORLD);
    for (int s = 0; rank == 0 && s < size; s++)
        for (int i = 0; i < 4; i++)
            ok &= rows[4 * s + i] == 100 * s + 10 * i + 2;
    check("collectives of derived types", ok);

    /* MPI_Pack: an int, a double and a string in one MPI_PACKED message */
    char buf[64], in[64], s[6] = "hello", s2[6] = "";
    int pos = 0, n = 42 + rank, n2 = 0, psize;
    double d = 2.5 * rank, d2 = 0;
    MPI_Pack(&n, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Pack(&d, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Pack(s, 6, MPI_CHAR, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Pack_size(1, MPI_DOUBLE, MPI_COMM_WORLD, &psize);
    MPI_Sendrecv(buf, pos, MPI_PACKED, peer, 5, in, sizeof in, MPI_PACKED, peer, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    ok = psize >= (int)sizeof(double);
    if (peer != MPI_PROC_NULL) {
        pos = 0;
        MPI_Unpack(in, sizeof in, &pos, &n2, 1, MPI_INT, MPI_COMM_WORLD);
        MPI_Unpack(in, sizeof in, &pos, &d2, 1, MPI_DOUBLE, MPI_COMM_WORLD);
        MPI_Unpack(in, sizeof in, &pos, s2, 6, MPI_CHAR, MPI_COMM_WORLD);
        ok &= n2 == 42 + peer && d2 == 2.5 * peer && !strcmp(s2, "hello");
    }
    check("MPI_Pack, MPI_Unpack", ok);

    MPI_Type_free(&column);
    MPI_Type_free(&rtype);
    MPI_Type_free(&upper);
    MPI_Type_free(&one);
    MPI_Type_free(&spaced);
    check("MPI_Type_free", column == MPI_DATATYPE_NULL && spaced == MPI_DATATYPE_NULL);
    if (rank == 0)
        printf("types: %s\n", fails ? "FAILED" : "all ok");
    free(row);
    free(colv);
    free(rows);
    MPI_Finalize();
    return fails != 0;
}
