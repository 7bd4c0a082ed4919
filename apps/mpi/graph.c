/* MPI graph topologies (MPI-3.1 sections 7.5.3, 7.5.4 and 7.5.5):
 * MPI_Graph_create, MPI_Graphdims_get, MPI_Graph_get,
 * MPI_Graph_neighbors_count, MPI_Graph_neighbors, MPI_Graph_map, and the
 * distributed graphs, MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create,
 * MPI_Dist_graph_neighbors_count and MPI_Dist_graph_neighbors. The
 * neighbourhood collectives over them are apps/mpi/neighbor.c.
 *
 * Reorder is a permission (MPI-3.1 7.5.1): no graph is reordered, every
 * rank keeps its rank. A graph of nnodes nodes is made of the
 * communicator's first nnodes ranks; the others get MPI_COMM_NULL.
 * A distributed graph made by MPI_Dist_graph_create lists each rank's
 * sources and destinations in the order of the ranks that gave the edges,
 * then of the edges as each gave them (the standard leaves the order to
 * the implementation and asks only that it be the same in both calls
 * that read it, and in the neighbourhood collectives). */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

static struct mpii_graph *graph_new(MPI_Comm comm, int kind, int nnodes, int nedges, int nin, int nout)
{
    size_t ints = (size_t)nnodes + (size_t)nedges + 2 * ((size_t)nin + (size_t)nout);
    size_t bytes = sizeof(struct mpii_graph) + ints * sizeof(int);
    struct mpii_graph *g = malloc(bytes);
    if (!g) {
        mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes for a graph topology", (unsigned long)bytes);
        return NULL;
    }
    *g = (struct mpii_graph){ .kind = kind, .weighted = 0, .nnodes = nnodes, .nedges = nedges, .nin = nin,
                              .nout = nout, .bytes = bytes };
    return g;
}

/* The communicator MPI_Comm_split makes of comm's ranks in their order,
 * with graph g (freed where it makes none). */
static int split_with_graph(MPI_Comm comm, int color, struct mpii_graph *g, const char *call, MPI_Comm *out)
{
    return mpii_split_with_topology(comm, color, mpii_comms[comm].rank, NULL, g, call, out);
}

#define GRAPH_OR_ERR(g, c, comm, k)                                                            \
    struct mpii_graph *g = (c)->graph;                                                         \
    if (!g || g->kind != (k))                                                                  \
        return mpii_err(comm, MPI_ERR_TOPOLOGY, "communicator %d has no %s topology", comm,    \
                        (k) == MPI_GRAPH ? "graph" : "distributed graph")

/* MPI_Graph_create's arguments (MPI-3.1 7.5.3): 0 <= nnodes <= n, index
 * non-decreasing from 0, every edge a node of the graph. */
static int graph_args_ok(MPI_Comm comm, int n, int nnodes, const int *index, const int *edges)
{
    if (nnodes < 0 || nnodes > n)
        return mpii_err(comm, MPI_ERR_ARG, "nnodes %d; accepted: 0..%d (the communicator's size)", nnodes, n);
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return mpii_err(comm, MPI_ERR_ARG, "index[%d] = %d is below index[%d] = %d; accepted: non-decreasing "
                            "from 0", i, index[i], i - 1, i ? index[i - 1] : 0);
    for (int k = 0; k < (nnodes ? index[nnodes - 1] : 0); k++)
        if (edges[k] < 0 || edges[k] >= nnodes)
            return mpii_err(comm, MPI_ERR_ARG, "edges[%d] = %d; accepted: 0..%d (a node of the graph)", k, edges[k],
                            nnodes - 1);
    return MPI_SUCCESS;
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm *comm_graph)
{
    MPII_ENTER("MPI_Graph_create");
    COMM_OR_ERR(c, comm_old);
    OUT_OR_ERR(comm_old, comm_graph);
    (void)reorder;
    int e = graph_args_ok(comm_old, c->size, nnodes, index, edges);
    if (e)
        return e;
    int me = c->rank, nedges = nnodes ? index[nnodes - 1] : 0;
    int from = me < nnodes && me ? index[me - 1] : 0, deg = me < nnodes ? index[me] - from : 0;
    struct mpii_graph *g = graph_new(comm_old, MPI_GRAPH, nnodes, nedges, deg, deg);
    if (!g)
        return MPI_ERR_NO_MEM;
    memcpy(graph_index(g), index, (size_t)nnodes * sizeof(int));
    memcpy(graph_edges(g), edges, (size_t)nedges * sizeof(int));
    memcpy(graph_in(g), edges + from, (size_t)deg * sizeof(int));   /* its neighbours, both ways */
    memcpy(graph_out(g), edges + from, (size_t)deg * sizeof(int));
    return split_with_graph(comm_old, me < nnodes ? 0 : MPI_UNDEFINED, g, "MPI_Graph_create", comm_graph);
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    MPII_ENTER("MPI_Graph_map");
    COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, newrank);
    int e = graph_args_ok(comm, c->size, nnodes, index, edges);
    if (!e)
        *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return e;
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    MPII_ENTER("MPI_Graphdims_get");
    COMM_OR_ERR(c, comm);
    GRAPH_OR_ERR(g, c, comm, MPI_GRAPH);
    OUT_OR_ERR(comm, nnodes);
    OUT_OR_ERR(comm, nedges);
    *nnodes = g->nnodes;
    *nedges = g->nedges;
    return MPI_SUCCESS;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    MPII_ENTER("MPI_Graph_get");
    COMM_OR_ERR(c, comm);
    GRAPH_OR_ERR(g, c, comm, MPI_GRAPH);
    if (maxindex < 0 || maxedges < 0)
        return mpii_err(comm, MPI_ERR_ARG, "maxindex %d, maxedges %d; accepted: 0 or more", maxindex, maxedges);
    if (maxindex > 0 && g->nnodes > 0)
        OUT_OR_ERR(comm, index);
    if (maxedges > 0 && g->nedges > 0)
        OUT_OR_ERR(comm, edges);
    memcpy(index, graph_index(g), (size_t)(maxindex < g->nnodes ? maxindex : g->nnodes) * sizeof(int));
    memcpy(edges, graph_edges(g), (size_t)(maxedges < g->nedges ? maxedges : g->nedges) * sizeof(int));
    return MPI_SUCCESS;
}

/* Rank r's neighbours in MPI_Graph_create's graph g: their count, and
 * where they start in its edges. */
static int graph_neighbours(const struct mpii_graph *g, int r, const int **list)
{
    const int *index = graph_index(g);
    int from = r ? index[r - 1] : 0;
    *list = graph_edges(g) + from;
    return index[r] - from;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    MPII_ENTER("MPI_Graph_neighbors_count");
    COMM_OR_ERR(c, comm);
    GRAPH_OR_ERR(g, c, comm, MPI_GRAPH);
    if (rank < 0 || rank >= g->nnodes)
        return mpii_err(comm, MPI_ERR_RANK, "rank %d; accepted: 0..%d", rank, g->nnodes - 1);
    OUT_OR_ERR(comm, nneighbors);
    const int *list;
    *nneighbors = graph_neighbours(g, rank, &list);
    return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    MPII_ENTER("MPI_Graph_neighbors");
    COMM_OR_ERR(c, comm);
    GRAPH_OR_ERR(g, c, comm, MPI_GRAPH);
    if (rank < 0 || rank >= g->nnodes)
        return mpii_err(comm, MPI_ERR_RANK, "rank %d; accepted: 0..%d", rank, g->nnodes - 1);
    if (maxneighbors < 0)
        return mpii_err(comm, MPI_ERR_ARG, "maxneighbors %d; accepted: 0 or more", maxneighbors);
    const int *list;
    int n = graph_neighbours(g, rank, &list);
    if (maxneighbors > 0 && n > 0)
        OUT_OR_ERR(comm, neighbors);
    memcpy(neighbors, list, (size_t)(maxneighbors < n ? maxneighbors : n) * sizeof(int));
    return MPI_SUCCESS;
}

/* A distributed graph's ranks and weights: each of the n ranks within
 * the communicator's size, each weight 0 or more (MPI-3.1 7.5.4). */
static int ranks_ok(MPI_Comm comm, int size, const char *what, int n, const int *ranks, const int *w)
{
    if (n < 0)
        return mpii_err(comm, MPI_ERR_ARG, "%s count %d; accepted: 0 or more", what, n);
    for (int k = 0; k < n; k++) {
        if (ranks[k] < 0 || ranks[k] >= size)
            return mpii_err(comm, MPI_ERR_RANK, "%s[%d] = %d; accepted: 0..%d", what, k, ranks[k], size - 1);
        if (w && w[k] < 0)
            return mpii_err(comm, MPI_ERR_ARG, "the weight of %s[%d] is %d; accepted: 0 or more", what, k, w[k]);
    }
    return MPI_SUCCESS;
}

/* Weights given (not MPI_UNWEIGHTED; MPI_WEIGHTS_EMPTY is a weighted
 * graph's empty list), and the array to read them from (NULL: none). */
static int weights_given(const int *w) { return w != MPI_UNWEIGHTED; }
static const int *weights_of(const int *w) { return w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY ? NULL : w; }

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *comm_dist_graph)
{
    MPII_ENTER("MPI_Dist_graph_create_adjacent");
    COMM_OR_ERR(c, comm_old);
    OUT_OR_ERR(comm_old, comm_dist_graph);
    (void)reorder;
    int e = mpii_info_check(comm_old, info);   /* its hints are not used */
    if (!e)
        e = ranks_ok(comm_old, c->size, "sources", indegree, sources, weights_of(sourceweights));
    if (!e)
        e = ranks_ok(comm_old, c->size, "destinations", outdegree, destinations, weights_of(destweights));
    if (e)
        return e;
    struct mpii_graph *g = graph_new(comm_old, MPI_DIST_GRAPH, 0, 0, indegree, outdegree);
    if (!g)
        return MPI_ERR_NO_MEM;
    g->weighted = weights_given(sourceweights) || weights_given(destweights);
    memcpy(graph_in(g), sources, (size_t)indegree * sizeof(int));
    memcpy(graph_out(g), destinations, (size_t)outdegree * sizeof(int));
    for (int k = 0; k < indegree; k++)
        graph_inw(g)[k] = weights_of(sourceweights) ? sourceweights[k] : 1;
    for (int k = 0; k < outdegree; k++)
        graph_outw(g)[k] = weights_of(destweights) ? destweights[k] : 1;
    return split_with_graph(comm_old, 0, g, "MPI_Dist_graph_create_adjacent", comm_dist_graph);
}

/* MPI_Dist_graph_create: the edges this rank gives, as (source,
 * destination, weight) triples in e[3 k ..]; every rank sends each rank
 * (itself too) the triples that name it, by the library's own
 * MPI_Alltoall (their counts) and MPI_Alltoallv. Those that name this
 * rank, in *got: the givers' in rank order, each one's in the order it
 * gave them. */
static int gather_edges(MPI_Comm comm, struct mpii_comm *c, const int *e, int ne, int **got, int *ngot)
{
    int p = c->size, err = MPI_SUCCESS;
    int *cnt = calloc(4 * (size_t)p, sizeof *cnt), *sent = malloc(((size_t)ne * 2 + 1) * 3 * sizeof *sent);
    int *sd = cnt + p, *rc = sd + p, *rd = rc + p, ns = 0;   /* (counts and displacements, in ints) */
    *got = NULL;
    *ngot = 0;
    if (!cnt || !sent)
        err = mpii_err(comm, MPI_ERR_NO_MEM, "%d edges' lists", ne);
    for (int r = 0; r < p && !err; r++) {          /* to rank r: the triples that name it */
        sd[r] = 3 * ns;
        for (int k = 0; k < ne; k++)
            if (e[3 * k] == r || e[3 * k + 1] == r)
                memcpy(sent + 3 * ns++, e + 3 * k, 3 * sizeof(int));
        cnt[r] = 3 * ns - sd[r];
    }
    if (!err)
        err = MPI_Alltoall(cnt, 1, MPI_INT, rc, 1, MPI_INT, comm);
    for (int r = 0; r < p && !err; r++) {
        rd[r] = 3 * *ngot;
        *ngot += rc[r] / 3;
    }
    if (!err && !(*got = malloc(((size_t)*ngot + 1) * 3 * sizeof(int))))
        err = mpii_err(comm, MPI_ERR_NO_MEM, "%d edges", *ngot);
    if (!err)
        err = MPI_Alltoallv(sent, cnt, sd, MPI_INT, *got, rc, rd, MPI_INT, comm);
    mpii_call = "MPI_Dist_graph_create";
    free(cnt);
    free(sent);
    return err;
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm *comm_dist_graph)
{
    MPII_ENTER("MPI_Dist_graph_create");
    COMM_OR_ERR(c, comm_old);
    OUT_OR_ERR(comm_old, comm_dist_graph);
    (void)reorder;
    int ne = 0, e = mpii_info_check(comm_old, info);   /* its hints are not used */
    if (!e)
        e = ranks_ok(comm_old, c->size, "sources", n, sources, NULL);
    for (int i = 0; i < n && !e; i++) {
        if (degrees[i] < 0)
            return mpii_err(comm_old, MPI_ERR_ARG, "degrees[%d] = %d; accepted: 0 or more", i, degrees[i]);
        ne += degrees[i];
    }
    if (!e)
        e = ranks_ok(comm_old, c->size, "destinations", ne, destinations, weights_of(weights));
    int *edges = e ? NULL : malloc(((size_t)ne + 1) * 3 * sizeof(int)), *got = NULL, ngot = 0;
    if (!e && !edges)
        e = mpii_err(comm_old, MPI_ERR_NO_MEM, "%d edges", ne);
    for (int i = 0, k = 0; i < n && !e; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            edges[3 * k] = sources[i];
            edges[3 * k + 1] = destinations[k];
            edges[3 * k + 2] = weights_of(weights) ? weights[k] : 1;
        }
    if (!e)
        e = gather_edges(comm_old, c, edges, ne, &got, &ngot);
    free(edges);
    int nin = 0, nout = 0;
    for (int k = 0; k < ngot && !e; k++) {
        nin += got[3 * k + 1] == c->rank;
        nout += got[3 * k] == c->rank;
    }
    struct mpii_graph *g = e ? NULL : graph_new(comm_old, MPI_DIST_GRAPH, 0, 0, nin, nout);
    if (!e && !g)
        e = MPI_ERR_NO_MEM;
    if (!e) {
        g->weighted = weights_given(weights);   /* every rank gives the same kind (MPI-3.1 7.5.4) */
        for (int k = 0, i = 0, o = 0; k < ngot; k++) {
            if (got[3 * k + 1] == c->rank) {
                graph_in(g)[i] = got[3 * k];
                graph_inw(g)[i++] = got[3 * k + 2];
            }
            if (got[3 * k] == c->rank) {
                graph_out(g)[o] = got[3 * k + 1];
                graph_outw(g)[o++] = got[3 * k + 2];
            }
        }
    }
    free(got);
    return e ? e : split_with_graph(comm_old, 0, g, "MPI_Dist_graph_create", comm_dist_graph);
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    MPII_ENTER("MPI_Dist_graph_neighbors_count");
    COMM_OR_ERR(c, comm);
    GRAPH_OR_ERR(g, c, comm, MPI_DIST_GRAPH);
    OUT_OR_ERR(comm, indegree);
    OUT_OR_ERR(comm, outdegree);
    OUT_OR_ERR(comm, weighted);
    *indegree = g->nin;
    *outdegree = g->nout;
    *weighted = g->weighted;
    return MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                             int destinations[], int destweights[])
{
    MPII_ENTER("MPI_Dist_graph_neighbors");
    COMM_OR_ERR(c, comm);
    GRAPH_OR_ERR(g, c, comm, MPI_DIST_GRAPH);
    if (maxindegree < 0 || maxoutdegree < 0)
        return mpii_err(comm, MPI_ERR_ARG, "maxindegree %d, maxoutdegree %d; accepted: 0 or more", maxindegree,
                        maxoutdegree);
    int nin = maxindegree < g->nin ? maxindegree : g->nin, nout = maxoutdegree < g->nout ? maxoutdegree : g->nout;
    if (nin > 0)
        OUT_OR_ERR(comm, sources);
    if (nout > 0)
        OUT_OR_ERR(comm, destinations);
    memcpy(sources, graph_in(g), (size_t)nin * sizeof(int));
    memcpy(destinations, graph_out(g), (size_t)nout * sizeof(int));
    if (g->weighted && weights_of(sourceweights))
        memcpy(sourceweights, graph_inw(g), (size_t)nin * sizeof(int));
    if (g->weighted && weights_of(destweights))
        memcpy(destweights, graph_outw(g), (size_t)nout * sizeof(int));
    return MPI_SUCCESS;
}
