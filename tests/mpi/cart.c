/* Cartesian topologies (MPI-3.1 chapter 7): MPI_Dims_create's choices,
 * a periodic 2D grid with its coordinates, ranks and shifts, a halo
 * exchange along each dimension, MPI_Cart_sub's rows, a grid of fewer
 * ranks than the communicator, a non-periodic grid's ends, MPI_Topo_test
 * and MPI_Comm_dup. Rank 0 prints what every MPI prints alike (reorder
 * is not used, so the output is Open MPI's too).
 * With -d AxB [-r]: only the halo exchange, on an A x B periodic grid
 * made with reorder if -r: each rank sends 1000 bytes to both neighbours
 * of each dimension (tests/mpi/run.sh reads the hops of those messages).
 * With -n N: only MPI_Dims_create's choices for N nodes in 2, 3 and 4
 * dimensions, and zero-dimensional grids (where MPIs differ: the
 * standard's "as close to each other as possible" is not every MPI's). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

#define HALO_BYTES 1000

/* Both neighbours of each dimension: send them this rank's number (and
 * padding), receive theirs; 1 if each came from the rank MPI_Cart_shift
 * named. */
static int halo(MPI_Comm g, int ndims)
{
    static int out[HALO_BYTES / sizeof(int)], in[HALO_BYTES / sizeof(int)];
    int me, ok = 1;
    MPI_Comm_rank(g, &me);
    out[0] = me;
    for (int d = 0; d < ndims; d++)
        for (int disp = -1; disp <= 1; disp += 2) {
            int src, dst;
            MPI_Cart_shift(g, d, disp, &src, &dst);
            in[0] = -1;
            MPI_Sendrecv(out, HALO_BYTES, MPI_BYTE, dst, 10 + d, in, HALO_BYTES, MPI_BYTE, src, 10 + d, g,
                         MPI_STATUS_IGNORE);
            ok &= src == MPI_PROC_NULL ? in[0] == -1 : in[0] == src;
        }
    return ok;
}

static void dims_line(int n, int nd, int a, int b, int c)
{
    int d[4] = { a, b, c, 0 };
    MPI_Dims_create(n, nd, d);
    if (rank == 0) {
        printf("dims_create(%d, %d):", n, nd);
        for (int k = 0; k < nd; k++)
            printf(" %d", d[k]);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    int opt, ga = 0, gb = 0, reorder = 0, nn = 0;
    while ((opt = getopt(argc, argv, "d:rn:")) != -1)
        if (opt == 'd')
            sscanf(optarg, "%dx%d", &ga, &gb);
        else if (opt == 'r')
            reorder = 1;
        else if (opt == 'n')
            nn = atoi(optarg);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (nn) {                                /* MPI_Dims_create alone, and zero dimensions */
        dims_line(nn, 2, 0, 0, 0);
        dims_line(nn, 3, 0, 0, 0);
        dims_line(nn, 4, 0, 0, 0);
        MPI_Comm z, zs;
        int nd = -1, keep = 0, one = 1;
        MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &z);
        if (z != MPI_COMM_NULL) {
            MPI_Cartdim_get(z, &nd);
            MPI_Comm_size(z, &one);
        }
        int line = size, flat = 0, snd = -1;
        MPI_Comm g;
        MPI_Cart_create(MPI_COMM_WORLD, 1, &line, &flat, 0, &g);
        MPI_Cart_sub(g, &keep, &zs);
        MPI_Cartdim_get(zs, &snd);
        int huge[2] = { 2, 2147483647 }, per[2] = { 0, 0 }, cls = 0;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm big = MPI_COMM_NULL;
        MPI_Error_class(MPI_Cart_create(MPI_COMM_WORLD, 2, huge, per, 0, &big), &cls);
        if (rank == 0) {
            printf("zero dimensions: cart_create %d rank(s), cartdim %d; cart_sub dropping all: cartdim %d\n", one,
                   nd, snd);
            printf("a grid of 2 x 2147483647: %s\n", cls == MPI_ERR_ARG && big == MPI_COMM_NULL ? "refused" : "made");
        }
        MPI_Finalize();
        return 0;
    }
    if (ga) {                                /* the halo exchange alone */
        int dims[2] = { ga, gb }, periods[2] = { 1, 1 };
        MPI_Comm g;
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &g);
        check("halo", g != MPI_COMM_NULL && halo(g, 2));
        MPI_Finalize();
        return 0;
    }
    dims_line(16, 2, 0, 0, 0);
    dims_line(12, 2, 0, 0, 0);
    dims_line(24, 3, 0, 0, 0);
    dims_line(7, 2, 0, 0, 0);
    dims_line(64, 3, 0, 0, 0);
    dims_line(12, 2, 0, 3, 0);
    dims_line(30, 3, 0, 0, 0);

    int dims[2] = { 0, 0 }, periods[2] = { 1, 1 }, coords[2], got[2], gp[2], r, nd, st;
    MPI_Dims_create(size, 2, dims);
    MPI_Comm g, row, dup;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &g);
    MPI_Comm_rank(g, &r);
    MPI_Cart_coords(g, r, 2, coords);
    MPI_Cart_get(g, 2, got, gp, coords);
    MPI_Cartdim_get(g, &nd);
    check("grid shape", nd == 2 && got[0] == dims[0] && got[1] == dims[1] && gp[0] == 1 && gp[1] == 1);
    int all_ranks = 1;
    for (int q = 0; q < size; q++) {
        int x[2], back;
        MPI_Cart_coords(g, q, 2, x);
        MPI_Cart_rank(g, x, &back);
        all_ranks &= back == q && x[0] == q / dims[1] && x[1] == q % dims[1];
    }
    check("coords and ranks", all_ranks);
    int wrap[2] = { coords[0] + dims[0], coords[1] - dims[1] }, w;
    MPI_Cart_rank(g, wrap, &w);
    check("periodic rank wraps", w == r);
    check("halo, periodic", halo(g, 2));

    int keep[2] = { 0, 1 }, rr, rs, sum, want = 0;
    MPI_Cart_sub(g, keep, &row);
    MPI_Comm_rank(row, &rr);
    MPI_Comm_size(row, &rs);
    MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, row);
    for (int k = 0; k < dims[1]; k++)
        want += coords[0] * dims[1] + k;
    check("cart_sub rows", rs == dims[1] && rr == coords[1] && sum == want);

    MPI_Topo_test(g, &st);
    int t_world;
    MPI_Topo_test(MPI_COMM_WORLD, &t_world);
    MPI_Comm_dup(g, &dup);
    int t_dup, nd_dup;
    MPI_Topo_test(dup, &t_dup);
    MPI_Cartdim_get(dup, &nd_dup);
    check("topo_test", st == MPI_CART && t_world == MPI_UNDEFINED && t_dup == MPI_CART && nd_dup == 2);

    int line = size - 1 > 0 ? size - 1 : 1, flat = 0;
    MPI_Comm small;
    MPI_Cart_create(MPI_COMM_WORLD, 1, &line, &flat, 0, &small);
    int null_ok = rank < line ? small != MPI_COMM_NULL : small == MPI_COMM_NULL;
    int ends = 1;
    if (small != MPI_COMM_NULL) {
        int src, dst, sr;
        MPI_Comm_rank(small, &sr);
        MPI_Cart_shift(small, 0, 1, &src, &dst);
        ends = (sr == 0 ? src == MPI_PROC_NULL : src == sr - 1) && (sr == line - 1 ? dst == MPI_PROC_NULL : dst == sr + 1);
        ends &= halo(small, 1);
        MPI_Comm_free(&small);
    }
    check("smaller grid, open ends", null_ok && ends);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&row);
    MPI_Comm_free(&g);
    if (rank == 0)
        printf("%s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return 0;
}
