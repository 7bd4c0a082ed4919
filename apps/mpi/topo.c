/* MPI Cartesian topologies (MPI-3.1 chapter 7): MPI_Dims_create,
 * MPI_Cart_create, MPI_Cart_get, MPI_Cartdim_get, MPI_Cart_rank,
 * MPI_Cart_coords, MPI_Cart_shift, MPI_Cart_sub, MPI_Cart_map and
 * MPI_Topo_test, and a communicator's topology freed or copied. Graph
 * topologies are apps/mpi/graph.c.
 *
 * A grid's ranks are numbered row-major, the last dimension varying
 * fastest (MPI-3.1 7.5.4). The machine numbers its nodes with dimension 0
 * varying fastest (netdev/topo.h). With reorder, a grid whose dimensions
 * are the machine's own, in any order, on a communicator of the whole
 * machine in node order, is laid on the machine: grid dimension k is a
 * machine dimension of its length (the machine's last first, the order
 * in which the numberings agree, so such a grid keeps every rank where it
 * is), so grid neighbours are machine neighbours. Any other grid keeps
 * the communicator's order (reorder is a permission, MPI-3.1 7.5.1).
 */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"
#include "../../netdev/net.h"

#define CART_OR_ERR(g, c, comm)                                                                \
    struct mpii_cart *g = (c)->cart;                                                           \
    if (!g)                                                                                    \
        return mpii_err(comm, MPI_ERR_TOPOLOGY, "communicator %d has no Cartesian topology", comm)

/* The rank of grid coordinates x (each within its dimension). */
static int grid_rank(const struct mpii_cart *g, const int *x)
{
    int r = 0;
    for (int k = 0; k < g->ndims; k++)
        r = r * g->dims[k] + x[k];
    return r;
}

static void grid_coords(const struct mpii_cart *g, int r, int *x)
{
    for (int k = g->ndims - 1; k >= 0; k--) {
        x[k] = r % g->dims[k];
        r /= g->dims[k];
    }
}

/* The grid's checks: 0 <= ndims <= MPII_MAX_DIMS (0: a grid of one rank,
 * MPI-3.1 7.5.1), every dims[k] > 0, the product at most n; the product
 * in *size. */
static int grid_ok(MPI_Comm comm, int ndims, const int *dims, int n, int *size)
{
    if (ndims < 0 || ndims > MPII_MAX_DIMS)
        return mpii_err(comm, MPI_ERR_DIMS, "ndims %d; accepted: 0..%d", ndims, MPII_MAX_DIMS);
    int p = 1;
    for (int k = 0; k < ndims; k++) {
        if (dims[k] < 1)
            return mpii_err(comm, MPI_ERR_DIMS, "dims[%d] = %d; accepted: 1 or more", k, dims[k]);
        if (dims[k] > n / p)                 /* p * dims[k] > n, without overflow */
            return mpii_err(comm, MPI_ERR_ARG, "a grid of more than the communicator's %d ranks", n);
        p *= dims[k];
    }
    *size = p;
    return MPI_SUCCESS;
}

/* With reorder: grid dimension k is machine dimension perm[k], one of the
 * same length, each used once, the machine's last first. 1 if the grid
 * can lie on the machine so; else 0. */
static int on_machine(const struct mpii_comm *c, int ndims, const int *dims, int size, int *perm)
{
    const struct topo_shape *m = net_topology();
    if (!c->identity || size != m->nodes || ndims != m->ndims ||
        (m->topo != TOPO_MESH && m->topo != TOPO_TORUS && m->topo != TOPO_HYPERCUBE))
        return 0;
    int used[TOPO_MAX_DIMS] = { 0 };
    for (int k = 0; k < ndims; k++) {
        perm[k] = -1;
        for (int d = m->ndims - 1; d >= 0 && perm[k] < 0; d--)
            if (!used[d] && m->dims[d] == dims[k])
                perm[k] = d, used[d] = 1;
        if (perm[k] < 0)
            return 0;
    }
    return 1;
}

/* The grid rank of this communicator's rank r: its own rank, or, laid on
 * the machine, the rank of its node's machine coordinates. */
static int grid_place(const struct mpii_cart *g, const int *perm, int laid, int r)
{
    if (!laid)
        return r;
    int m[TOPO_MAX_DIMS], x[MPII_MAX_DIMS];
    net_coords(r, m);
    for (int k = 0; k < g->ndims; k++)
        x[k] = m[perm[k]];
    return grid_rank(g, x);
}

int mpii_split_with_topology(MPI_Comm comm, int color, int key, struct mpii_cart *g, struct mpii_graph *gr,
                             const char *call, MPI_Comm *out)
{
    int e = MPI_Comm_split(comm, color, key, out);
    mpii_call = call;
    if (e || *out == MPI_COMM_NULL) {
        free(g);
        free(gr);
        return e;
    }
    mpii_comms[*out].cart = g;
    mpii_comms[*out].graph = gr;
    return MPI_SUCCESS;
}

/* The divisors of n, largest first, in d (at most 1600 for n < 2^31);
 * their count. */
static int divisors(int n, int *d, int cap)
{
    static int lo[800], hi[800];             /* (static: a node's stack is small; one thread) */
    int small = 0, nd = 0;
    for (int q = 1; q <= n / q && small < 800; q++)
        if (n % q == 0) {
            lo[small] = q;
            hi[small++] = n / q;
        }
    for (int i = 0; i < small && nd < cap; i++)        /* n/q from q = 1 up: largest first */
        d[nd++] = hi[i];
    for (int i = small - 1; i >= 0 && nd < cap; i--)   /* then q, down, once if q = n/q */
        if (lo[i] != hi[i])
            d[nd++] = lo[i];
    return nd;
}

/* The factors cur[depth..k) of left, each a divisor in div[0..nd) (largest
 * first), at most maxf and none above the one before: the search for
 * MPI_Dims_create's choice, kept in best (*spread: its largest less its
 * smallest; -1 before the first). */
static void closest(int left, int k, int maxf, const int *div, int nd, int *cur, int depth, int *best,
                    int *spread)
{
    if (depth == k - 1) {                    /* the last factor is what is left */
        if (left > maxf)
            return;
        cur[depth] = left;
        int s = cur[0] - left;
        if (*spread < 0 || s < *spread || (s == *spread && cur[0] < best[0])) {
            *spread = s;
            for (int i = 0; i < k; i++)
                best[i] = cur[i];
        }
        return;
    }
    for (int i = 0; i < nd; i++) {
        int q = div[i];
        if (q > maxf || left % q)
            continue;
        long long room = 1;                  /* the k - depth factors from here are at most q each */
        for (int j = depth; j < k && room < left; j++)
            room *= q;
        if (room < left)
            break;                           /* smaller divisors fit even less */
        cur[depth] = q;
        closest(left / q, k, q, div, nd, cur, depth + 1, best, spread);
    }
}

int MPI_Dims_create(int nnodes, int ndims, int dims[])
{
    MPII_ENTER("MPI_Dims_create");
    if (nnodes < 1)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "nnodes %d; accepted: 1 or more", nnodes);
    if (ndims < 0 || ndims > MPII_MAX_DIMS)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_DIMS, "ndims %d; accepted: 0..%d", ndims, MPII_MAX_DIMS);
    if (ndims > 0)
        OUT_OR_ERR(MPI_COMM_WORLD, dims);
    int left = nnodes, free_dims = 0;
    for (int k = 0; k < ndims; k++) {
        if (dims[k] < 0)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_DIMS, "dims[%d] = %d; accepted: 0 (to choose) or more", k,
                            dims[k]);
        if (dims[k] == 0)
            free_dims++;
        else if (left % dims[k])
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_DIMS, "dims[%d] = %d does not divide the %d nodes left", k,
                            dims[k], left);
        else
            left /= dims[k];
    }
    if (!free_dims) {
        if (left != 1)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_DIMS, "the dims given multiply to %d, not %d", nnodes / left,
                            nnodes);
        return MPI_SUCCESS;
    }
    /* As close to each other as possible (MPI-3.1 7.5.2): of every way to
     * write what is left as free_dims factors, the one whose largest and
     * smallest differ least (then the smaller largest), in non-increasing
     * order. 72 in two is 9 x 8, where taking the largest prime factor
     * first gives 12 x 6. */
    static int div[1600];
    int f[MPII_MAX_DIMS], cur[MPII_MAX_DIMS], spread = -1;
    int nd = divisors(left, div, 1600);
    closest(left, free_dims, left, div, nd, cur, 0, f, &spread);
    for (int k = 0, i = 0; k < ndims; k++)
        if (dims[k] == 0)
            dims[k] = f[i++];
    return MPI_SUCCESS;
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm *comm_cart)
{
    MPII_ENTER("MPI_Cart_create");
    COMM_OR_ERR(c, comm_old);
    OUT_OR_ERR(comm_old, comm_cart);
    int size, e = grid_ok(comm_old, ndims, dims, c->size, &size);
    if (e)
        return e;
    struct mpii_cart *g = malloc(sizeof *g);
    if (!g)
        return mpii_err(comm_old, MPI_ERR_NO_MEM, "%d bytes for a Cartesian topology", (int)sizeof *g);
    g->ndims = ndims;
    for (int k = 0; k < ndims; k++)
        g->dims[k] = dims[k], g->periods[k] = periods[k] != 0;
    int perm[MPII_MAX_DIMS], laid = reorder && on_machine(c, ndims, dims, size, perm);
    int me = c->rank < size ? grid_place(g, perm, laid, c->rank) : 0;
    return mpii_split_with_topology(comm_old, c->rank < size ? 0 : MPI_UNDEFINED, me, g, NULL, "MPI_Cart_create",
                                    comm_cart);
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    MPII_ENTER("MPI_Cart_map");
    COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, newrank);
    (void)periods;
    int size, e = grid_ok(comm, ndims, dims, c->size, &size);
    if (e)
        return e;
    struct mpii_cart g = { .ndims = ndims };
    for (int k = 0; k < ndims; k++)
        g.dims[k] = dims[k];
    int perm[MPII_MAX_DIMS], laid = on_machine(c, ndims, dims, size, perm);
    *newrank = c->rank < size ? grid_place(&g, perm, laid, c->rank) : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int *status)
{
    MPII_ENTER("MPI_Topo_test");
    COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, status);
    *status = c->cart ? MPI_CART : c->graph ? c->graph->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

void mpii_topo_free(struct mpii_comm *c)
{
    free(c->cart);
    free(c->graph);
    c->cart = NULL;
    c->graph = NULL;
}

int mpii_topo_copy(MPI_Comm comm, struct mpii_comm *to, const struct mpii_comm *from)
{
    if (from->cart && !(to->cart = malloc(sizeof *to->cart)))
        return mpii_err(comm, MPI_ERR_NO_MEM, "%d bytes for a Cartesian topology", (int)sizeof *to->cart);
    if (from->cart)
        *to->cart = *from->cart;
    if (from->graph && !(to->graph = malloc(from->graph->bytes)))
        return mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes for a graph topology", (unsigned long)from->graph->bytes);
    if (from->graph)
        memcpy(to->graph, from->graph, from->graph->bytes);
    return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    MPII_ENTER("MPI_Cartdim_get");
    COMM_OR_ERR(c, comm);
    CART_OR_ERR(g, c, comm);
    OUT_OR_ERR(comm, ndims);
    *ndims = g->ndims;
    return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    MPII_ENTER("MPI_Cart_get");
    COMM_OR_ERR(c, comm);
    CART_OR_ERR(g, c, comm);
    if (g->ndims > 0 && maxdims > 0) {
        OUT_OR_ERR(comm, dims);
        OUT_OR_ERR(comm, periods);
        OUT_OR_ERR(comm, coords);
    }
    int x[MPII_MAX_DIMS];
    grid_coords(g, c->rank, x);
    for (int k = 0; k < g->ndims && k < maxdims; k++) {
        dims[k] = g->dims[k];
        periods[k] = g->periods[k];
        coords[k] = x[k];
    }
    return MPI_SUCCESS;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    MPII_ENTER("MPI_Cart_rank");
    COMM_OR_ERR(c, comm);
    CART_OR_ERR(g, c, comm);
    OUT_OR_ERR(comm, rank);
    int x[MPII_MAX_DIMS];
    for (int k = 0; k < g->ndims; k++) {
        int n = g->dims[k], v = coords[k];
        if (g->periods[k])
            v = ((v % n) + n) % n;
        else if (v < 0 || v >= n)
            return mpii_err(comm, MPI_ERR_ARG, "coords[%d] = %d; accepted: 0..%d (dimension %d is not periodic)",
                            k, coords[k], n - 1, k);
        x[k] = v;
    }
    *rank = grid_rank(g, x);
    return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    MPII_ENTER("MPI_Cart_coords");
    COMM_OR_ERR(c, comm);
    CART_OR_ERR(g, c, comm);
    if (rank < 0 || rank >= c->size)
        return mpii_err(comm, MPI_ERR_RANK, "rank %d; accepted: 0..%d", rank, c->size - 1);
    if (g->ndims > 0 && maxdims > 0)
        OUT_OR_ERR(comm, coords);
    int x[MPII_MAX_DIMS];
    grid_coords(g, rank, x);
    for (int k = 0; k < g->ndims && k < maxdims; k++)
        coords[k] = x[k];
    return MPI_SUCCESS;
}

/* The ranks disp away from rank r along dimension direction of grid g:
 * the source (-disp) and the destination (+disp), MPI_PROC_NULL off a
 * non-periodic end (MPI-3.1 7.5.6). */
static void grid_shift(const struct mpii_cart *g, int r, int direction, int disp, int *rank_source, int *rank_dest)
{
    int x[MPII_MAX_DIMS], n = g->dims[direction], at;
    grid_coords(g, r, x);
    at = x[direction];
    for (int s = -1; s <= 1; s += 2) {       /* the source (-disp), then the destination (+disp) */
        long long v = at + (long long)s * disp;  /* (no overflow at |disp| near INT_MAX) */
        int *out = s < 0 ? rank_source : rank_dest;
        if (g->periods[direction])
            v = ((v % n) + n) % n;
        if (v < 0 || v >= n) {
            *out = MPI_PROC_NULL;
            continue;
        }
        x[direction] = (int)v;
        *out = grid_rank(g, x);
    }
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    MPII_ENTER("MPI_Cart_shift");
    COMM_OR_ERR(c, comm);
    CART_OR_ERR(g, c, comm);
    OUT_OR_ERR(comm, rank_source);
    OUT_OR_ERR(comm, rank_dest);
    if (direction < 0 || direction >= g->ndims)
        return mpii_err(comm, MPI_ERR_ARG, "direction %d; accepted: 0..%d", direction, g->ndims - 1);
    grid_shift(g, c->rank, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}

void mpii_cart_neighbours(const struct mpii_comm *c, int *list)
{
    for (int d = 0; d < c->cart->ndims; d++)
        grid_shift(c->cart, c->rank, d, 1, &list[2 * d], &list[2 * d + 1]);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    MPII_ENTER("MPI_Cart_sub");
    COMM_OR_ERR(c, comm);
    CART_OR_ERR(g, c, comm);
    OUT_OR_ERR(comm, newcomm);
    int x[MPII_MAX_DIMS], color = 0, key = 0;
    struct mpii_cart *s = malloc(sizeof *s);
    if (!s)
        return mpii_err(comm, MPI_ERR_NO_MEM, "%d bytes for a Cartesian topology", (int)sizeof *s);
    s->ndims = 0;
    grid_coords(g, c->rank, x);
    for (int k = 0; k < g->ndims; k++)
        if (remain_dims[k]) {                /* kept: it orders the ranks of the sub-grid */
            key = key * g->dims[k] + x[k];
            s->dims[s->ndims] = g->dims[k];
            s->periods[s->ndims++] = g->periods[k];
        } else                               /* dropped: it tells the sub-grids apart */
            color = color * g->dims[k] + x[k];
    /* every dimension dropped: a zero-dimensional grid of one (MPI-3.1 7.5.7) */
    return mpii_split_with_topology(comm, color, key, s, NULL, "MPI_Cart_sub", newcomm);
}
