/* Graph topologies and the neighbourhood collectives (MPI-3.1 7.5.3-7.5.5
 * and 7.6): MPI_Graph_create on a ring with chords and what it reports,
 * MPI_Graph_map and MPI_Topo_test; a distributed graph made adjacent
 * (weighted) and one made by MPI_Dist_graph_create from edges each rank
 * gives of other ranks; then MPI_Neighbor_allgather, _allgatherv,
 * _alltoall, _alltoallv and _alltoallw on a Cartesian grid (one periodic
 * dimension of 3 ranks, one non-periodic), on a grid whose periodic
 * dimensions have 1 and 2 ranks, on the graph and on
 * both distributed graphs, each rank checking that block k came from its
 * k-th source and was the block that source meant for it; then the same
 * with MPI_Ineighbor_*, waited for after a barrier (the grid of 1 x 2
 * only with -t). Rank 0 prints
 * what every MPI prints alike: a distributed graph's neighbour order is
 * the implementation's (MPI-3.1 7.5.5), so its lists are printed sorted. */
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define MAXN 64

/* 1: the nonblocking forms (MPI_Ineighbor_*), each waited for after an
 * MPI_Barrier on its communicator, which every member makes meanwhile. */
static int nonblocking;

static void finish(MPI_Comm comm, MPI_Request *req)
{
    if (nonblocking) {
        MPI_Barrier(comm);
        MPI_Wait(req, MPI_STATUS_IGNORE);
    }
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* The sources and destinations of comm's topology, as the neighbourhood
 * collectives order them (MPI-3.1 7.6). */
static void hood(MPI_Comm comm, int *nin, int *in, int *nout, int *out)
{
    int kind;
    MPI_Topo_test(comm, &kind);
    if (kind == MPI_CART) {
        int nd;
        MPI_Cartdim_get(comm, &nd);
        for (int d = 0; d < nd; d++)
            MPI_Cart_shift(comm, d, 1, &in[2 * d], &in[2 * d + 1]);
        *nin = *nout = 2 * nd;
        memcpy(out, in, (size_t)*nin * sizeof *in);
    } else if (kind == MPI_GRAPH) {
        int me;
        MPI_Comm_rank(comm, &me);
        MPI_Graph_neighbors_count(comm, me, nin);
        MPI_Graph_neighbors(comm, me, MAXN, in);
        *nout = *nin;
        memcpy(out, in, (size_t)*nin * sizeof *in);
    } else {
        int w;
        MPI_Dist_graph_neighbors_count(comm, nin, nout, &w);
        int iw[MAXN], ow[MAXN];             /* (weights unread: real arrays, as any MPI takes) */
        MPI_Dist_graph_neighbors(comm, MAXN, in, iw, MAXN, out, ow);
    }
}

/* The value rank `from` puts in its k-th block to rank `to`, element i:
 * unique per sender, receiver, block and element. */
static int value(int from, int to, int k, int i) { return from * 1000000 + to * 10000 + k * 100 + i; }

/* The block number the k-th source of a Cartesian grid used for me: the
 * one it sent the other way in the same dimension (from my -1 side, its
 * +1 block; from my +1 side, its -1 block). On a graph the block number
 * is read from the value, which must then name the source and me. */
static int cart_block(int k) { return k % 2 ? k - 1 : k + 1; }

/* One neighbourhood alltoall of n ints a block (v: alltoallv with block
 * k of n + k ints; w: alltoallw of the same in bytes), checked. */
static int exchange_ok(MPI_Comm comm, int n, char how)
{
    int me, nin, nout, in[MAXN], out[MAXN], ok = 1;
    MPI_Comm_rank(comm, &me);
    hood(comm, &nin, in, &nout, out);
    int *sc = malloc(MAXN * sizeof(int)), *sd = malloc(MAXN * sizeof(int)), *rc = malloc(MAXN * sizeof(int)),
        *rd = malloc(MAXN * sizeof(int));
    MPI_Aint sa[MAXN], ra[MAXN];
    MPI_Datatype st[MAXN], rt[MAXN];
    int stot = 0, rtot = 0;
    for (int k = 0; k < nout; k++) {
        sc[k] = how == 'a' ? n : n + k;
        sd[k] = stot;
        stot += sc[k];
    }
    for (int k = 0; k < nin; k++)
        rc[k] = how == 'a' ? n : -1;         /* v, w: a receiver learns its block's length below */
    int *send = malloc((size_t)(stot + 1) * sizeof(int));
    for (int k = 0; k < nout; k++)
        for (int i = 0; i < sc[k]; i++)
            send[sd[k] + i] = out[k] == MPI_PROC_NULL ? -7 : value(me, out[k], k, i);
    if (how != 'a') {
        /* each source's block length: it sends n + j ints in its block j;
         * ask it which j it uses for me (an alltoall of block numbers) */
        int *mine = malloc((size_t)(nout + 1) * sizeof(int)), *theirs = malloc((size_t)(nin + 1) * sizeof(int));
        for (int k = 0; k < nout; k++)
            mine[k] = k;
        MPI_Neighbor_alltoall(mine, 1, MPI_INT, theirs, 1, MPI_INT, comm);
        for (int k = 0; k < nin; k++)
            rc[k] = in[k] == MPI_PROC_NULL ? 0 : n + theirs[k];
        free(mine);
        free(theirs);
    }
    for (int k = 0; k < nin; k++) {
        rd[k] = rtot;
        rtot += rc[k];
    }
    int *recv = malloc((size_t)(rtot + 1) * sizeof(int));
    for (int i = 0; i < rtot; i++)
        recv[i] = -1;
    MPI_Request req = MPI_REQUEST_NULL;
    if (how == 'a' && nonblocking)
        MPI_Ineighbor_alltoall(send, n, MPI_INT, recv, n, MPI_INT, comm, &req);
    else if (how == 'a')
        MPI_Neighbor_alltoall(send, n, MPI_INT, recv, n, MPI_INT, comm);
    else if (how == 'v' && nonblocking)
        MPI_Ineighbor_alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm, &req);
    else if (how == 'v')
        MPI_Neighbor_alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm);
    else {
        for (int k = 0; k < nout; k++) {
            sa[k] = (MPI_Aint)sd[k] * (MPI_Aint)sizeof(int);
            st[k] = MPI_INT;
        }
        for (int k = 0; k < nin; k++) {
            ra[k] = (MPI_Aint)rd[k] * (MPI_Aint)sizeof(int);
            rt[k] = MPI_INT;
        }
        if (nonblocking)
            MPI_Ineighbor_alltoallw(send, sc, sa, st, recv, rc, ra, rt, comm, &req);
        else
            MPI_Neighbor_alltoallw(send, sc, sa, st, recv, rc, ra, rt, comm);
    }
    finish(comm, &req);
    for (int k = 0; k < nin; k++) {
        if (in[k] == MPI_PROC_NULL) {        /* nothing came: left as it was */
            for (int i = 0; i < rc[k]; i++)
                ok &= recv[rd[k] + i] == -1;
            continue;
        }
        int kind, j;
        MPI_Topo_test(comm, &kind);
        j = kind == MPI_CART ? cart_block(k) : rc[k] ? (recv[rd[k]] / 100) % 100 : 0;
        for (int i = 0; i < rc[k]; i++)
            ok &= recv[rd[k] + i] == value(in[k], me, j, i);
    }
    free(send);
    free(recv);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    return ok;
}

/* Allgather and allgatherv: every source's one block, in source order. */
static int allgather_ok(MPI_Comm comm, int n, int v)
{
    int me, nin, nout, in[MAXN], out[MAXN], ok = 1;
    MPI_Comm_rank(comm, &me);
    hood(comm, &nin, in, &nout, out);
    int *send = malloc((size_t)(n + 1) * sizeof(int)), *recv = malloc((size_t)(nin * (n + 2) + 1) * sizeof(int));
    int rc[MAXN], rd[MAXN];
    for (int i = 0; i < n; i++)
        send[i] = value(me, 0, 0, i);
    for (int i = 0; i < nin * (n + 2); i++)
        recv[i] = -1;
    for (int k = 0; k < nin; k++) {
        rc[k] = n;
        rd[k] = k * (n + 2) + 1;             /* gaps between the blocks stay untouched */
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (v && nonblocking)
        MPI_Ineighbor_allgatherv(send, n, MPI_INT, recv, rc, rd, MPI_INT, comm, &req);
    else if (v)
        MPI_Neighbor_allgatherv(send, n, MPI_INT, recv, rc, rd, MPI_INT, comm);
    else if (nonblocking)
        MPI_Ineighbor_allgather(send, n, MPI_INT, recv, n, MPI_INT, comm, &req);
    else
        MPI_Neighbor_allgather(send, n, MPI_INT, recv, n, MPI_INT, comm);
    finish(comm, &req);
    for (int k = 0; k < nin; k++)
        for (int i = 0; i < n; i++) {
            int at = v ? rd[k] + i : k * n + i;
            ok &= recv[at] == (in[k] == MPI_PROC_NULL ? -1 : value(in[k], 0, 0, i));
        }
    if (v)
        for (int k = 0; k < nin; k++)
            ok &= recv[k * (n + 2)] == -1 && recv[k * (n + 2) + n + 1] == -1;
    free(send);
    free(recv);
    return ok;
}

static void all_collectives(const char *name, MPI_Comm comm)
{
    char what[64];
    int ok = 1;
    if (comm != MPI_COMM_NULL) {
        ok &= allgather_ok(comm, 5, 0);
        ok &= allgather_ok(comm, 3, 1);
        ok &= exchange_ok(comm, 4, 'a');
        ok &= exchange_ok(comm, 2, 'v');
        ok &= exchange_ok(comm, 3, 'w');
        ok &= exchange_ok(comm, 0, 'a');     /* empty blocks */
    }
    snprintf(what, sizeof what, "%s, %s", nonblocking ? "ineighbor" : "neighbourhood", name);
    check(what, ok);
}

static void print_sorted(const char *what, int n, int *list)
{
    qsort(list, (size_t)n, sizeof *list, cmp_int);
    printf("%s", what);
    for (int k = 0; k < n; k++)
        printf(" %d", list[k]);
    printf("\n");
}

int main(int argc, char **argv)
{
    int tiny_nonblocking = argc > 1 && !strcmp(argv[1], "-t");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* A graph of size - 1 nodes: a ring with a chord from each even node
     * to the node half way round (both ways), the last rank outside it. */
    int nn = size - 1, index[MAXN], edges[4 * MAXN], ne = 0;
    for (int i = 0; i < nn; i++) {
        int nb[3] = { (i + 1) % nn, (i + nn - 1) % nn, -1 }, half = (i + nn / 2) % nn;
        if (nn % 4 == 0 && i % 2 == 0 && half != i)      /* (so half's chord comes back) */
            nb[2] = half;
        for (int j = 0; j < 3; j++) {
            int dup = nb[j] < 0 || nb[j] == i;
            for (int q = 0; q < j; q++)
                dup |= nb[q] == nb[j];
            if (!dup)
                edges[ne++] = nb[j];
        }
        index[i] = ne;
    }
    MPI_Comm g;
    MPI_Graph_create(MPI_COMM_WORLD, nn, index, edges, 0, &g);
    int newrank;
    MPI_Graph_map(MPI_COMM_WORLD, nn, index, edges, &newrank);
    /* (where a node goes is the implementation's, MPI-3.1 7.5.8; a rank
     * outside the graph gets MPI_UNDEFINED here, where Open MPI 4.1 gives
     * it its own rank, so only the ranks inside are compared) */
    check("graph_map", rank >= nn || (newrank >= 0 && newrank < nn));
    check("graph outside: COMM_NULL", (rank < nn) == (g != MPI_COMM_NULL));
    if (rank == 0) {
        int kind, gn, ge, gi[MAXN], gx[4 * MAXN], cnt, nb[MAXN];
        MPI_Topo_test(g, &kind);
        MPI_Graphdims_get(g, &gn, &ge);
        MPI_Graph_get(g, MAXN, 4 * MAXN, gi, gx);
        printf("graph: topo %s, %d nodes, %d edges\n", kind == MPI_GRAPH ? "graph" : "other", gn, ge);
        for (int i = 0; i < gn; i++) {
            MPI_Graph_neighbors_count(g, i, &cnt);
            MPI_Graph_neighbors(g, i, MAXN, nb);
            printf("  node %d: index %d, %d neighbours:", i, gi[i], cnt);
            for (int k = 0; k < cnt; k++)
                printf(" %d", nb[k]);
            printf("\n");
        }
    }
    MPI_Comm gd = MPI_COMM_NULL;
    if (g != MPI_COMM_NULL) {
        MPI_Comm_dup(g, &gd);
        int kind;
        MPI_Topo_test(gd, &kind);
        check("graph dup keeps it", kind == MPI_GRAPH);
    } else
        check("graph dup keeps it", 1);

    /* A distributed graph, adjacent: sources rank - 1 and rank - 2,
     * destinations rank + 1 and rank + 2 (mod size), weighted. */
    int src[2] = { (rank + size - 1) % size, (rank + size - 2) % size };
    int dst[2] = { (rank + 1) % size, (rank + 2) % size }, sw[2] = { 10 + rank, 20 + rank }, dw[2] = { 30, 40 };
    MPI_Comm da;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, sw, 2, dst, dw, MPI_INFO_NULL, 0, &da);
    int din, dout, dweighted, gs[MAXN], gsw[MAXN], gdst[MAXN], gdw[MAXN], kind;
    MPI_Topo_test(da, &kind);
    MPI_Dist_graph_neighbors_count(da, &din, &dout, &dweighted);
    MPI_Dist_graph_neighbors(da, MAXN, gs, gsw, MAXN, gdst, gdw);
    check("dist_graph_adjacent", kind == MPI_DIST_GRAPH && din == 2 && dout == 2 && dweighted && gs[0] == src[0] &&
                                     gs[1] == src[1] && gsw[1] == 20 + rank && gdst[1] == dst[1] && gdw[0] == 30);

    /* A distributed graph from edges given by other ranks: rank r gives,
     * for node (r + 1) mod size, the edges to its two successors; rank 0
     * also gives an edge 1 -> 0. Unweighted. */
    int s1 = (rank + 1) % size, deg = 2, d1[3] = { (s1 + 1) % size, (s1 + 2) % size, 0 };
    int ss[2] = { s1, 1 }, degs[2] = { 2, 1 };
    MPI_Comm dg;
    /* (MPI_UNWEIGHTED is an address no array has, which the compiler
     * takes for an empty array the call would read) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
    if (rank == 0)
        MPI_Dist_graph_create(MPI_COMM_WORLD, 2, ss, degs, d1, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
    else
        MPI_Dist_graph_create(MPI_COMM_WORLD, 1, ss, &deg, d1, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
#pragma GCC diagnostic pop
    int nin, nout, w, in[MAXN], out[MAXN];
    MPI_Dist_graph_neighbors_count(dg, &nin, &nout, &w);
    MPI_Dist_graph_neighbors(dg, MAXN, in, gsw, MAXN, out, gdw);
    int line[2 * MAXN + 3] = { nin, nout, w };   /* every rank's lists, printed by rank 0 */
    memcpy(line + 3, in, (size_t)nin * sizeof *in);
    memcpy(line + 3 + nin, out, (size_t)nout * sizeof *out);
    int *lines = malloc((size_t)size * sizeof line);
    MPI_Gather(line, 2 * MAXN + 3, MPI_INT, lines, 2 * MAXN + 3, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 0; r < size; r++) {
            int *l = lines + r * (2 * MAXN + 3);
            printf("dist_graph rank %d: weighted %d,", r, l[2]);
            print_sorted(" sources", l[0], l + 3);
            printf("  ");
            print_sorted(" destinations", l[1], l + 3 + l[0]);
        }
    free(lines);

    int dims[2] = { 3, size / 3 }, periods[2] = { 1, 0 };
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    /* periodic dimensions of 1 and 2 ranks: both neighbours are one rank,
     * and each block still goes where MPI-3.1 7.6 puts it */
    int small[2] = { 1, 2 }, both[2] = { 1, 1 };
    MPI_Comm tiny;
    MPI_Cart_create(MPI_COMM_WORLD, 2, small, both, 0, &tiny);
    for (nonblocking = 0; nonblocking < 2; nonblocking++) {
        all_collectives("cart 3 x n/3, periodic x 1", cart);
        /* (Open MPI 4.1's MPI_Ineighbor_alltoallv fails there with
         * MPI_ERR_TRUNCATE, so its output is compared without it; -t runs it) */
        if (!nonblocking || tiny_nonblocking)
            all_collectives("cart 1 x 2, periodic", tiny);
        all_collectives("graph", g);
        all_collectives("graph, duplicated", gd);
        all_collectives("dist_graph adjacent", da);
        all_collectives("dist_graph from edges", dg);
    }

    /* Errors (their classes are the implementation's): a neighbourhood
     * collective without a topology, a graph's call on a grid. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    int x = 0, y = 0;
    check("no topology: an error", MPI_Neighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, MPI_COMM_WORLD) != 0);
    check("graph call on a grid: an error", MPI_Graph_neighbors_count(cart, 0, &x) != MPI_SUCCESS);

    if (rank == 0)
        printf(fails ? "some FAILED\n" : "all ok\n");
    MPI_Finalize();
    return 0;
}
