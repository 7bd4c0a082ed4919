/* MPI neighbourhood collectives (MPI-3.1 section 7.6): MPI_Neighbor_allgather,
 * MPI_Neighbor_allgatherv, MPI_Neighbor_alltoall, MPI_Neighbor_alltoallv and
 * MPI_Neighbor_alltoallw, on a communicator's Cartesian topology
 * (apps/mpi/topo.c), graph or distributed graph (apps/mpi/graph.c).
 *
 * Algorithm: direct, one round. Each rank sends block k to its k-th
 * destination, in the order of its destinations, then receives block k
 * from its k-th source, in the order of its sources; a send leaves
 * without waiting for its receiver (the NIC holds it, apps/mpi/p2p.c),
 * so no order of the ranks' calls deadlocks. Cost per rank: outdegree
 * sends and indegree receives, alpha (in + out) + beta (bytes in + out).
 *
 * Neighbours (MPI-3.1 7.6): a Cartesian topology's, per dimension, the
 * rank at -1 then the rank at +1, both as sources and as destinations,
 * MPI_PROC_NULL off a non-periodic end (nothing sent, the receive buffer
 * left as it is); a graph's, MPI_Graph_neighbors' list both ways; a
 * distributed graph's, its sources and its destinations.
 *
 * Matching, on the communicator's collective context, by order: the
 * blocks between two ranks go in list order on both sides (the
 * non-overtaking rule). On a grid a block sent to the rank at -1 is that
 * rank's block from its +1 side; where both neighbours of a dimension are
 * one rank (a periodic dimension of 1 or 2 ranks) the receiver therefore
 * takes its +1 block first, the one its neighbour sent first (to its -1
 * side), and each block lands where the standard puts it. The nonblocking
 * forms (MPI_Ineighbor_*) are the same round as a schedule
 * (apps/mpi/icoll.c), on the schedule's own tag. */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

#define TAG_NEIGHBOUR 4   /* the blocking forms' tag */

/* A rank's neighbours for one collective call: sources and destinations. */
struct hood {
    int nin, nout;
    int *in, *out;                   /* one block: out follows in */
};

/* The neighbours of communicator c (handle comm), or an error class. */
static int hood_of(MPI_Comm comm, struct mpii_comm *c, struct hood *h)
{
    *h = (struct hood){ 0 };
    if (!c->cart && !c->graph)
        return mpii_err(comm, MPI_ERR_TOPOLOGY, "communicator %d has no topology (Cartesian, graph or distributed "
                        "graph)", comm);
    int nin = c->cart ? 2 * c->cart->ndims : c->graph->nin, nout = c->cart ? nin : c->graph->nout;
    int *b = malloc(((size_t)nin + (size_t)nout + 1) * sizeof *b);
    if (!b)
        return mpii_err(comm, MPI_ERR_NO_MEM, "%d neighbours' lists", nin + nout);
    *h = (struct hood){ nin, nout, b, b + nin };
    if (c->cart) {
        mpii_cart_neighbours(c, h->in);
        memcpy(h->out, h->in, (size_t)nin * sizeof *b);
    } else {
        memcpy(h->in, graph_in(c->graph), (size_t)nin * sizeof *b);
        memcpy(h->out, graph_out(c->graph), (size_t)nout * sizeof *b);
    }
    return MPI_SUCCESS;
}

/* The receive order of the top: where a grid dimension's two neighbours
 * are one rank, its +1 block before its -1 block (their places and
 * lengths swapped; the rank is the same). */
static void receive_order(const struct mpii_comm *c, const struct hood *h, unsigned char **rp, size_t *rl)
{
    for (int k = 0; c->cart && k + 1 < h->nin; k += 2)
        if (h->in[k] == h->in[k + 1] && h->in[k] != MPI_PROC_NULL) {
            unsigned char *p = rp[k];
            size_t l = rl[k];
            rp[k] = rp[k + 1], rl[k] = rl[k + 1];
            rp[k + 1] = p, rl[k + 1] = l;
        }
}

/* The blocking round: every send, then every receive (see the top). */
static int exchange(struct mpii_comm *c, const struct mpii_round *r)
{
    int e = MPI_SUCCESS;
    for (int k = 0; k < r->nout && !e; k++)
        e = mpii_send(c, c->ctx + 1, r->sp[k], r->sl[k], r->out[k], TAG_NEIGHBOUR, 0);
    for (int k = 0; k < r->nin && !e; k++)
        e = mpii_recv(c, c->ctx + 1, r->rp[k], r->rl[k], r->in[k], TAG_NEIGHBOUR, NULL);
    return e;
}

/* Counts and displacements of one side, one per neighbour: none negative. */
static int counts_ok(MPI_Comm comm, const char *side, int n, const int *counts, const int *idispls,
                     const MPI_Aint *adispls)
{
    for (int k = 0; k < n; k++)
        if (counts[k] < 0 || (idispls && idispls[k] < 0) || (adispls && adispls[k] < 0))
            return mpii_err(comm, MPI_ERR_COUNT, "the %s count or displacement of neighbour %d is negative", side, k);
    return MPI_SUCCESS;
}

/* The general form all five calls reduce to: per neighbour k, a count
 * and a displacement (in elements of the side's type, idispls, or in
 * bytes, adispls) and a type; a side's arrays NULL means the one count
 * cnt at k cnt (allgather's send side sends the same block to each). */
struct side {
    const void *buf;
    int cnt, same;                   /* same: every block is the buffer's start (allgather's send) */
    const int *counts, *idispls;
    const MPI_Aint *adispls;
    MPI_Datatype type;
    const MPI_Datatype *types;
};

static int layout(MPI_Comm comm, const char *name, const struct side *s, int n, const unsigned char **p,
                  size_t *l)
{
    int e = counts_ok(comm, name, s->counts ? n : 0, s->counts, s->idispls, s->adispls), size = 0;
    if (!e && s->cnt < 0)
        e = mpii_err(comm, MPI_ERR_COUNT, "%s count %d; accepted: 0 or more", name, s->cnt);
    if (!e && !s->types)
        e = mpii_contig_type(comm, s->type, &size);
    for (int k = 0; k < n && !e; k++) {
        if (s->types && (e = mpii_contig_type(comm, s->types[k], &size)))
            break;
        size_t cnt = (size_t)(s->counts ? s->counts[k] : s->cnt);
        size_t at = s->same ? 0
                  : s->adispls ? (size_t)s->adispls[k]
                  : (size_t)(s->idispls ? s->idispls[k] : (long)k * s->cnt) * (size_t)size;
        p[k] = (const unsigned char *)s->buf + at;
        l[k] = cnt * (size_t)size;
    }
    return e;
}

/* A neighbourhood collective: blocking if request is NULL. */
static int neighbour_call(MPI_Comm comm, const struct side *send, const struct side *recv, MPI_Request *request)
{
    COMM_OR_ERR(c, comm);
    struct hood h;
    int e = hood_of(comm, c, &h);
    if (e)
        return e;
    if (send->buf == MPI_IN_PLACE || recv->buf == MPI_IN_PLACE) {
        free(h.in);
        return mpii_err(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE; the neighbourhood collectives do not take it");
    }
    const unsigned char **sp = malloc(((size_t)h.nout + 1) * sizeof *sp);
    unsigned char **rp = malloc(((size_t)h.nin + 1) * sizeof *rp);
    size_t *sl = malloc(((size_t)h.nout + 1) * sizeof *sl), *rl = malloc(((size_t)h.nin + 1) * sizeof *rl);
    if (!sp || !rp || !sl || !rl)
        e = mpii_err(comm, MPI_ERR_NO_MEM, "%d neighbours' blocks", h.nin + h.nout);
    if (!e)
        e = layout(comm, "send", send, h.nout, sp, sl);
    if (!e)
        e = layout(comm, "receive", recv, h.nin, (const unsigned char **)rp, rl);
    if (!e) {
        receive_order(c, &h, rp, rl);
        const struct mpii_round r = { h.nout, h.out, sp, sl, h.nin, h.in, rp, rl };
        e = request ? mpii_ineighbour(comm, c, &r, request) : exchange(c, &r);
    }
    free(sp);
    free(rp);
    free(sl);
    free(rl);
    free(h.in);
    return e;
}

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    MPII_ENTER("MPI_Neighbor_allgather");
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .cnt = sendcount, .same = 1, .type = sendtype },
                          &(struct side){ .buf = recvbuf, .cnt = recvcount, .type = recvtype }, NULL);
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    MPII_ENTER("MPI_Neighbor_allgatherv");
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .cnt = sendcount, .same = 1, .type = sendtype },
                          &(struct side){ .buf = recvbuf, .counts = recvcounts,
                                          .idispls = displs, .type = recvtype }, NULL);
}

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm)
{
    MPII_ENTER("MPI_Neighbor_alltoall");
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .cnt = sendcount, .type = sendtype },
                          &(struct side){ .buf = recvbuf, .cnt = recvcount, .type = recvtype }, NULL);
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm)
{
    MPII_ENTER("MPI_Neighbor_alltoallv");
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .counts = sendcounts,
                                                .idispls = sdispls, .type = sendtype },
                          &(struct side){ .buf = recvbuf, .counts = recvcounts,
                                          .idispls = rdispls, .type = recvtype }, NULL);
}

int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    MPII_ENTER("MPI_Neighbor_alltoallw");
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .counts = sendcounts,
                                                .adispls = sdispls, .types = sendtypes },
                          &(struct side){ .buf = recvbuf, .counts = recvcounts,
                                          .adispls = rdispls, .types = recvtypes }, NULL);
}

int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Ineighbor_allgather");
    OUT_OR_ERR(comm, request);
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .cnt = sendcount, .same = 1, .type = sendtype },
                          &(struct side){ .buf = recvbuf, .cnt = recvcount, .type = recvtype }, request);
}

int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    MPII_ENTER("MPI_Ineighbor_allgatherv");
    OUT_OR_ERR(comm, request);
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .cnt = sendcount, .same = 1, .type = sendtype },
                          &(struct side){ .buf = recvbuf, .counts = recvcounts, .idispls = displs, .type = recvtype },
                          request);
}

int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Ineighbor_alltoall");
    OUT_OR_ERR(comm, request);
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .cnt = sendcount, .type = sendtype },
                          &(struct side){ .buf = recvbuf, .cnt = recvcount, .type = recvtype }, request);
}

int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Ineighbor_alltoallv");
    OUT_OR_ERR(comm, request);
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .counts = sendcounts,
                                                .idispls = sdispls, .type = sendtype },
                          &(struct side){ .buf = recvbuf, .counts = recvcounts, .idispls = rdispls, .type = recvtype },
                          request);
}

int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request *request)
{
    MPII_ENTER("MPI_Ineighbor_alltoallw");
    OUT_OR_ERR(comm, request);
    return neighbour_call(comm, &(struct side){ .buf = sendbuf, .counts = sendcounts,
                                                .adispls = sdispls, .types = sendtypes },
                          &(struct side){ .buf = recvbuf, .counts = recvcounts,
                                          .adispls = rdispls, .types = recvtypes },
                          request);
}
