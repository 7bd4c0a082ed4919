/* More derived datatypes: MPI_Type_create_subarray (MPI-3.1 4.1.3, C
 * and Fortran order, 2 and 3 dimensions), MPI_Type_create_indexed_block
 * and _hindexed_block (4.1.2), MPI_Type_dup (4.1.10), MPI_Get_address
 * (4.1.5), MPI_Type_get_true_extent (4.1.8) and MPI_Get_elements
 * (4.1.11). Rank 0 prints which elements each type moved, its bounds
 * and sizes; tests/mpi/run.sh compares them with Open MPI's, and each is
 * also checked against the element positions the standard gives. Needs
 * 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

/* print, on rank 0, the indices of a[0..n) that were written (>= 0) */
static void moved(const char *what, const double *a, int n, int from)
{
    if (rank != 0)
        return;
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        if (a[i] >= 0)
            printf(" %g", a[i] - 1000 * from);
    printf("\n");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int to = (rank + 1) % size, from = (rank + size - 1) % size, ok;
    double a[48], b[48];
    MPI_Aint lb, ext, tlb, text;
    int sz;

    /* the 3 x 4 block at (1, 2) of a 6 x 8 array */
    int sizes[2] = { 6, 8 }, sub[2] = { 3, 4 }, st[2] = { 1, 2 };
    MPI_Datatype sc, sf;
    MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_DOUBLE, &sc);
    MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_FORTRAN, MPI_DOUBLE, &sf);
    MPI_Type_commit(&sc);
    MPI_Type_commit(&sf);
    for (int i = 0; i < 48; i++)
        a[i] = 1000 * rank + i, b[i] = -1;
    MPI_Sendrecv(a, 1, sc, to, 0, b, 1, sc, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    moved("subarray C", b, 48, from);
    ok = 1;
    for (int i = 0; i < 6; i++)                  /* row-major: element (i, j) at 8 i + j */
        for (int j = 0; j < 8; j++)
            ok &= b[8 * i + j] == (i >= 1 && i < 4 && j >= 2 && j < 6 ? 1000 * from + 8 * i + j : -1);
    MPI_Type_get_extent(sc, &lb, &ext);
    MPI_Type_get_true_extent(sc, &tlb, &text);
    MPI_Type_size(sc, &sz);
    if (rank == 0)
        printf("subarray C: lb %ld extent %ld true lb %ld true extent %ld size %d\n", (long)lb, (long)ext, (long)tlb,
               (long)text, sz);
    ok &= lb == 0 && ext == 48 * 8 && tlb == (8 + 2) * 8 && text == ((3 * 8 + 5) - (8 + 2) + 1) * 8 && sz == 12 * 8;
    check("subarray, C order", ok);

    for (int i = 0; i < 48; i++)
        b[i] = -1;
    MPI_Sendrecv(a, 1, sf, to, 1, b, 1, sf, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    moved("subarray Fortran", b, 48, from);
    ok = 1;
    for (int j = 0; j < 8; j++)                  /* column-major: element (i, j) at i + 6 j */
        for (int i = 0; i < 6; i++)
            ok &= b[i + 6 * j] == (i >= 1 && i < 4 && j >= 2 && j < 6 ? 1000 * from + i + 6 * j : -1);
    MPI_Type_get_true_extent(sf, &tlb, &text);
    ok &= tlb == (1 + 6 * 2) * 8 && text == ((3 + 6 * 5) - (1 + 6 * 2) + 1) * 8;
    check("subarray, Fortran order", ok);

    /* a face of a 4 x 5 x 6 block: y = 3 */
    int s3[3] = { 4, 5, 6 }, u3[3] = { 4, 1, 6 }, t3[3] = { 0, 3, 0 }, c3[120], d3[120];
    MPI_Datatype face;
    MPI_Type_create_subarray(3, s3, u3, t3, MPI_ORDER_C, MPI_INT, &face);
    MPI_Type_commit(&face);
    for (int i = 0; i < 120; i++)
        c3[i] = 1000 * rank + i, d3[i] = -1;
    MPI_Sendrecv(c3, 1, face, to, 2, d3, 1, face, from, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ok = 1;
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 5; y++)
            for (int z = 0; z < 6; z++)
                ok &= d3[30 * x + 6 * y + z] == (y == 3 ? 1000 * from + 30 * x + 6 * y + z : -1);
    check("subarray, 3 dimensions", ok);

    /* indexed_block: blocks of 2 at 1, 5, 9, 16; hindexed_block in bytes */
    int disp[4] = { 1, 5, 9, 16 };
    MPI_Aint hdisp[3] = { 0, 3 * sizeof(double), 10 * sizeof(double) };
    MPI_Datatype ib, hb, dup;
    MPI_Type_create_indexed_block(4, 2, disp, MPI_DOUBLE, &ib);
    MPI_Type_create_hindexed_block(3, 2, hdisp, MPI_DOUBLE, &hb);
    MPI_Type_commit(&ib);
    MPI_Type_commit(&hb);
    for (int i = 0; i < 48; i++)
        b[i] = -1;
    MPI_Sendrecv(a, 1, ib, to, 3, b, 1, ib, from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    moved("indexed_block", b, 24, from);
    ok = 1;
    for (int i = 0; i < 24; i++) {
        int in = 0;
        for (int k = 0; k < 4; k++)
            in |= i >= disp[k] && i < disp[k] + 2;
        ok &= b[i] == (in ? 1000 * from + i : -1);
    }
    MPI_Type_get_extent(ib, &lb, &ext);
    MPI_Type_size(ib, &sz);
    if (rank == 0)
        printf("indexed_block: lb %ld extent %ld size %d\n", (long)lb, (long)ext, sz);
    check("indexed_block", ok && lb == 8 && ext == 17 * 8 && sz == 8 * 8);
    for (int i = 0; i < 48; i++)
        b[i] = -1;
    MPI_Sendrecv(a, 2, hb, to, 4, b, 2, hb, from, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    moved("hindexed_block, 2 of them", b, 48, from);
    ok = 1;
    for (int i = 0; i < 48; i++) {
        int j = i % 12, in = i < 24 && (j < 2 || j == 3 || j == 4 || j >= 10);
        ok &= b[i] == (in ? 1000 * from + i : -1);
    }
    check("hindexed_block", ok);

    /* a duplicate keeps the map, the bounds and the commit */
    MPI_Type_dup(sc, &dup);
    MPI_Aint dlb, dext;
    MPI_Type_get_extent(dup, &dlb, &dext);
    for (int i = 0; i < 48; i++)
        b[i] = rank == 0 ? 7000 + i : -1;
    MPI_Bcast(b, 1, dup, 0, MPI_COMM_WORLD);
    ok = dlb == 0 && dext == 48 * 8;
    for (int i = 0; i < 48; i++) {
        int in = i / 8 >= 1 && i / 8 < 4 && i % 8 >= 2 && i % 8 < 6;
        ok &= rank == 0 || b[i] == (in ? 7000 + i : -1);
    }
    check("type_dup in bcast", ok);

    /* Get_address: differences are offsets */
    struct { char c; double d[2]; int i; } s;
    MPI_Aint p0, p1, p2;
    MPI_Get_address(&s, &p0);
    MPI_Get_address(&s.d[1], &p1);
    MPI_Get_address(&s.i, &p2);
    check("get_address", p1 - p0 == (MPI_Aint)((char *)&s.d[1] - (char *)&s) &&
                         p2 - p0 == (MPI_Aint)((char *)&s.i - (char *)&s));

    /* Get_elements: 5 ints into a type of 4 blocks of 2 ints, whole
     * elements and a partial one; the count of the partial one is
     * MPI_UNDEFINED */
    int src[20], dst[20], ne = -1, ne2 = -1, ne3 = -1, nc = -1;
    MPI_Datatype ibi;
    MPI_Type_create_indexed_block(4, 2, disp, MPI_INT, &ibi);
    MPI_Type_commit(&ibi);
    for (int i = 0; i < 20; i++)
        src[i] = i;
    MPI_Status stt;
    MPI_Sendrecv(src, 5, MPI_INT, to, 5, dst, 1, ibi, from, 5, MPI_COMM_WORLD, &stt);
    MPI_Get_elements(&stt, ibi, &ne);
    MPI_Get_elements(&stt, MPI_INT, &ne2);
    MPI_Get_count(&stt, ibi, &nc);
    MPI_Sendrecv(src, 16, MPI_INT, to, 6, dst, 2, ibi, from, 6, MPI_COMM_WORLD, &stt);
    MPI_Get_elements(&stt, ibi, &ne3);
    if (rank == 0)
        printf("get_elements: %d %d count %s; two whole %d\n", ne, ne2, nc == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined",
               ne3);
    check("get_elements", ne == 5 && ne2 == 5 && nc == MPI_UNDEFINED && ne3 == 16);

    /* ... and of a struct of an int and 256 chars, whose basic elements
     * differ in size: an int and 16 chars are 17 elements, 2 chars end
     * inside the int; a status set to 5 elements holds an int and 4 chars
     * (MPICH's datatype/getpartelm) */
    MPI_Datatype ic;
    int icl[2] = { 1, 256 };
    MPI_Aint icd[2] = { 0, sizeof(int) };
    MPI_Datatype ict[2] = { MPI_INT, MPI_CHAR };
    MPI_Type_create_struct(2, icl, icd, ict, &ic);
    MPI_Type_commit(&ic);
    int pe = -1, pe2 = -1, pe5 = -1, pc = -1, pb = -1, icbuf[80];
    MPI_Sendrecv(src, 5, MPI_INT, to, 7, icbuf, 1, ic, from, 7, MPI_COMM_WORLD, &stt);
    MPI_Get_elements(&stt, ic, &pe);
    MPI_Get_count(&stt, ic, &pc);
    MPI_Sendrecv(src, 2, MPI_CHAR, to, 8, icbuf, 1, ic, from, 8, MPI_COMM_WORLD, &stt);
    MPI_Get_elements(&stt, ic, &pe2);
    MPI_Status_set_elements(&stt, ic, 5);
    MPI_Get_elements(&stt, ic, &pe5);
    MPI_Get_count(&stt, MPI_BYTE, &pb);
    if (rank == 0)
        printf("get_elements of int and chars: %d, count %s; in the int: %s; set 5: %d elements, %d bytes\n", pe,
               pc == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined", pe2 == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined",
               pe5, pb);
    check("get_elements, mixed sizes", pe == 17 && pc == MPI_UNDEFINED && pe2 == MPI_UNDEFINED && pe5 == 5 &&
                                       pb == (int)sizeof(int) + 4);
    MPI_Type_free(&ic);

    /* 16 MiB of bytes, as a contiguous type of 1 MiB and as an hindexed
     * type of 16 blocks of 1 MiB (MPICH's datatype/large_type, smaller):
     * made in well under a millisecond, not a step a byte */
    MPI_Datatype mib, big;
    int bl[16];
    MPI_Aint bd[16], bsize = 0, blb = -1, bext = 0;
    MPI_Count bsize_x = 0;
    for (int i = 0; i < 16; i++) {
        bl[i] = 1 << 20;
        bd[i] = (MPI_Aint)i << 20;
    }
    double b0 = MPI_Wtime();
    MPI_Type_contiguous(1 << 20, MPI_BYTE, &mib);
    MPI_Type_create_hindexed(16, bl, bd, MPI_BYTE, &big);
    double made = MPI_Wtime() - b0;
    MPI_Type_commit(&big);
    MPI_Type_size_x(big, &bsize_x);
    MPI_Type_get_true_extent(big, &blb, &bext);
    bsize = (MPI_Aint)bsize_x;
    check("large types made at once", made < 1e-3 && bsize == 16 << 20 && blb == 0 && bext == 16 << 20);
    MPI_Type_free(&mib);
    MPI_Type_free(&big);

    /* a type of no data (hindexed blocks of length 0): a count of zero,
     * no elements (MPI-3.1 3.2.5; MPICH's datatype/hindexed_zeros) */
    MPI_Datatype none;
    int zl[3] = { 0, 0, 0 }, zc = -1, ze = -1, zerr;
    MPI_Aint zd[3] = { 0, 4, 16 };
    MPI_Type_create_hindexed(3, zl, zd, MPI_INT, &none);
    MPI_Type_commit(&none);
    MPI_Sendrecv(NULL, 1, none, to, 9, NULL, 2, none, from, 9, MPI_COMM_WORLD, &stt);
    zerr = MPI_Get_count(&stt, none, &zc);
    MPI_Get_elements(&stt, none, &ze);
    check("count of a type of no data", zerr == MPI_SUCCESS && zc == 0 && ze == 0);
    MPI_Type_free(&none);

    MPI_Datatype *all[] = { &sc, &sf, &face, &ib, &hb, &dup, &ibi };
    for (unsigned i = 0; i < sizeof all / sizeof *all; i++)
        MPI_Type_free(all[i]);
    if (rank == 0 && !fails)
        printf("types_more: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
