/* The collectives of varying counts (MPI-3.1 sections 5.5-5.8 and 5.10):
 * MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv, MPI_Alltoallw,
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter, by the library's own
 * algorithms over point to point (the project's schedules move blocks of
 * one length):
 *   gatherv, scatterv    linear, through the root (mpii_gather_linear and
 *                        mpii_scatter_linear, which MPI_Gather and
 *                        MPI_Scatter's own algorithm is too)
 *   allgatherv           direct: step i = 1..p-1 sends this rank's block
 *                        to rank + i and receives rank - i's
 *   alltoallv, alltoallw pairwise: step i = 0..p-1 sends to rank + i and
 *                        receives from rank - i
 *   reduce_scatter       MPI_Reduce of the whole vector to rank 0, then a
 *                        scatterv of its pieces */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

#define TAG_VCOLL 2

static int comm_of(MPI_Comm comm, struct mpii_comm **c)
{
    if (!(*c = mpii_comm(comm)))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, "communicator %d is not valid", comm);
    return MPI_SUCCESS;
}

int mpii_contig_type(MPI_Comm comm, MPI_Datatype t, int *size)
{
    *size = mpii_type_size(t);
    if (!mpii_type_usable(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    if (!mpii_type_contig(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not contiguous, which this call does not take yet", t);
    return MPI_SUCCESS;
}

static int counts_ok(MPI_Comm comm, const struct mpii_comm *c, const int *counts, const int *displs)
{
    for (int r = 0; r < c->size; r++)
        if (counts[r] < 0 || (displs && displs[r] < 0))
            return mpii_err(comm, MPI_ERR_COUNT, "rank %d's count %d or displacement %d is negative", r, counts[r],
                            displs ? displs[r] : 0);
    return MPI_SUCCESS;
}

#define SEND(c, buf, len, to) mpii_send(c, (c)->ctx + 1, buf, len, to, TAG_VCOLL, 0)
#define RECV(c, buf, len, from) mpii_recv(c, (c)->ctx + 1, buf, len, from, TAG_VCOLL, NULL)

int mpii_gather_linear(struct mpii_comm *c, const void *send, size_t slen, void *recv, const int *counts,
                       const int *displs, size_t unit, int root)
{
    if (c->rank != root)
        return SEND(c, send, slen, root);
    int e = MPI_SUCCESS;
    for (int r = 0; r < c->size && !e; r++) {
        unsigned char *at = (unsigned char *)recv + (size_t)(displs ? displs[r] : r) * unit;
        if (r != root)
            e = RECV(c, at, (size_t)(counts ? counts[r] : 1) * unit, r);
        else if (send != MPI_IN_PLACE && send != at)
            memcpy(at, send, slen);
    }
    return e;
}

int mpii_scatter_linear(struct mpii_comm *c, const void *send, const int *counts, const int *displs, size_t unit,
                        void *recv, size_t rlen, int root)
{
    if (c->rank != root)
        return RECV(c, recv, rlen, root);
    int e = MPI_SUCCESS;
    for (int r = 0; r < c->size && !e; r++) {
        const unsigned char *at = (const unsigned char *)send + (size_t)(displs ? displs[r] : r) * unit;
        size_t len = (size_t)(counts ? counts[r] : 1) * unit;
        if (r != root)
            e = SEND(c, at, len, r);
        else if (recv != MPI_IN_PLACE && at != recv)
            memcpy(recv, at, len);
    }
    return e;
}

int MPI_Gatherv(const void *send, int scount, MPI_Datatype st, void *recv, const int rcounts[], const int displs[],
                MPI_Datatype rt, int root, MPI_Comm comm)
{
    MPII_ENTER("MPI_Gatherv");
    struct mpii_comm *c;
    size_t none;
    int e = mpii_check(comm, &c, 0, MPI_BYTE, root, 0, &none), ss = 0, rs = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_ROOT_SEND, root, send, recv)))
        return e;
    if (send != MPI_IN_PLACE && (e = mpii_contig_type(comm, st, &ss)))
        return e;
    if (c->rank == root && ((e = mpii_contig_type(comm, rt, &rs)) || (e = counts_ok(comm, c, rcounts, displs))))
        return e;
    return mpii_gather_linear(c, send, (size_t)scount * ss, recv, rcounts, displs, rs, root);
}

int MPI_Scatterv(const void *send, const int scounts[], const int displs[], MPI_Datatype st, void *recv, int rcount,
                 MPI_Datatype rt, int root, MPI_Comm comm)
{
    MPII_ENTER("MPI_Scatterv");
    struct mpii_comm *c;
    size_t none;
    int e = mpii_check(comm, &c, 0, MPI_BYTE, root, 0, &none), ss = 0, rs = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_ROOT_RECV, root, send, recv)))
        return e;
    if (recv != MPI_IN_PLACE && (e = mpii_contig_type(comm, rt, &rs)))
        return e;
    if (c->rank == root && ((e = mpii_contig_type(comm, st, &ss)) || (e = counts_ok(comm, c, scounts, displs))))
        return e;
    return mpii_scatter_linear(c, send, scounts, displs, ss, recv, (size_t)rcount * rs, root);
}

int MPI_Allgatherv(const void *send, int scount, MPI_Datatype st, void *recv, const int rcounts[], const int displs[],
                   MPI_Datatype rt, MPI_Comm comm)
{
    MPII_ENTER("MPI_Allgatherv");
    struct mpii_comm *c;
    int e = comm_of(comm, &c), rs = 0, ss = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv)) ||
        (e = mpii_contig_type(comm, rt, &rs)) || (e = counts_ok(comm, c, rcounts, displs)))
        return e;
    int p = c->size, me = c->rank;
    unsigned char *mine = (unsigned char *)recv + (size_t)displs[me] * rs;
    if (send != MPI_IN_PLACE) {
        if ((e = mpii_contig_type(comm, st, &ss)))
            return e;
        memcpy(mine, send, (size_t)scount * ss);
    }
    for (int i = 1; i < p && !e; i++) {
        int to = (me + i) % p, from = (me - i + p) % p;
        e = SEND(c, mine, (size_t)rcounts[me] * rs, to);
        if (!e)
            e = RECV(c, (unsigned char *)recv + (size_t)displs[from] * rs, (size_t)rcounts[from] * rs, from);
    }
    return e;
}

/* Pairwise exchange of byte ranges: send[r] and recv[r] of each peer. */
static int pairwise(struct mpii_comm *c, const unsigned char *const *sp, const size_t *sl, unsigned char *const *rp,
                    const size_t *rl)
{
    int p = c->size, me = c->rank, e = MPI_SUCCESS;
    for (int i = 0; i < p && !e; i++) {
        int to = (me + i) % p, from = (me - i + p) % p;
        e = SEND(c, sp[to], sl[to], to);
        if (!e)
            e = RECV(c, rp[from], rl[from], from);
    }
    return e;
}

/* Alltoallv and w: byte pointers and lengths per peer, then pairwise.
 * MPI_IN_PLACE sends a copy of recv. */
static int alltoall_bytes(MPI_Comm comm, struct mpii_comm *c, const void *send, const int *scounts,
                          const int *sdispls, const int *ssize, int sdisp_bytes, void *recv, const int *rcounts,
                          const int *rdispls, const int *rsize, int rdisp_bytes)
{
    int p = c->size, e = MPI_SUCCESS;
    const unsigned char **sp = malloc((size_t)p * sizeof *sp);
    unsigned char **rp = malloc((size_t)p * sizeof *rp), *copy = NULL;
    size_t *sl = malloc((size_t)p * sizeof *sl), *rl = malloc((size_t)p * sizeof *rl), total = 0;
    if (!sp || !rp || !sl || !rl)
        e = mpii_err(comm, MPI_ERR_NO_MEM, "no node memory for %d peers' lists", p);
    for (int r = 0; r < p && !e; r++) {
        rl[r] = (size_t)rcounts[r] * (size_t)rsize[r];
        rp[r] = (unsigned char *)recv + (size_t)rdispls[r] * (rdisp_bytes ? 1 : (size_t)rsize[r]);
        if (rp[r] + rl[r] - (unsigned char *)recv > (long)total)
            total = (size_t)(rp[r] + rl[r] - (unsigned char *)recv);
    }
    if (!e && send == MPI_IN_PLACE) {
        if (!(copy = malloc(total ? total : 1)))
            e = mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes for MPI_IN_PLACE", (unsigned long)total);
        else
            memcpy(copy, recv, total);
    }
    for (int r = 0; r < p && !e; r++) {
        if (copy) {
            sp[r] = copy + (rp[r] - (unsigned char *)recv);
            sl[r] = rl[r];
        } else {
            sl[r] = (size_t)scounts[r] * (size_t)ssize[r];
            sp[r] = (const unsigned char *)send + (size_t)sdispls[r] * (sdisp_bytes ? 1 : (size_t)ssize[r]);
        }
    }
    if (!e)
        e = pairwise(c, sp, sl, rp, rl);
    free(sp);
    free(rp);
    free(sl);
    free(rl);
    free(copy);
    return e;
}

int MPI_Alltoallv(const void *send, const int scounts[], const int sdispls[], MPI_Datatype st, void *recv,
                  const int rcounts[], const int rdispls[], MPI_Datatype rt, MPI_Comm comm)
{
    MPII_ENTER("MPI_Alltoallv");
    struct mpii_comm *c;
    int e = comm_of(comm, &c), ss = 0, rs = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv)) ||
        (e = mpii_contig_type(comm, rt, &rs)) || (e = counts_ok(comm, c, rcounts, rdispls)))
        return e;
    if (send != MPI_IN_PLACE &&
        ((e = mpii_contig_type(comm, st, &ss)) || (e = counts_ok(comm, c, scounts, sdispls))))
        return e;
    int *ssz = malloc((size_t)c->size * sizeof *ssz), *rsz = malloc((size_t)c->size * sizeof *rsz);
    if (!ssz || !rsz)
        e = mpii_err(comm, MPI_ERR_NO_MEM, "no node memory for %d peers' sizes", c->size);
    for (int r = 0; r < c->size && !e; r++)
        ssz[r] = ss, rsz[r] = rs;
    if (!e)
        e = alltoall_bytes(comm, c, send, scounts, sdispls, ssz, 0, recv, rcounts, rdispls, rsz, 0);
    free(ssz);
    free(rsz);
    return e;
}

int MPI_Alltoallw(const void *send, const int scounts[], const int sdispls[], const MPI_Datatype st[], void *recv,
                  const int rcounts[], const int rdispls[], const MPI_Datatype rt[], MPI_Comm comm)
{
    MPII_ENTER("MPI_Alltoallw");
    struct mpii_comm *c;
    int e = comm_of(comm, &c);
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv)) ||
        (e = counts_ok(comm, c, rcounts, rdispls)))
        return e;
    int *ssz = malloc((size_t)c->size * sizeof *ssz), *rsz = malloc((size_t)c->size * sizeof *rsz);
    if (!ssz || !rsz)
        e = mpii_err(comm, MPI_ERR_NO_MEM, "no node memory for %d peers' sizes", c->size);
    for (int r = 0; r < c->size && !e; r++) {
        e = mpii_contig_type(comm, rt[r], &rsz[r]);
        if (!e && send != MPI_IN_PLACE)
            e = mpii_contig_type(comm, st[r], &ssz[r]);
    }
    if (!e && send != MPI_IN_PLACE)
        e = counts_ok(comm, c, scounts, sdispls);
    if (!e)
        e = alltoall_bytes(comm, c, send, scounts, sdispls, ssz, 1, recv, rcounts, rdispls, rsz, 1);
    free(ssz);
    free(rsz);
    return e;
}

int MPI_Reduce_scatter(const void *send, void *recv, const int rcounts[], MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    MPII_ENTER("MPI_Reduce_scatter");
    struct mpii_comm *c;
    int e = comm_of(comm, &c), sz = 0, n = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv)) ||
        (e = mpii_contig_type(comm, t, &sz)) || (e = counts_ok(comm, c, rcounts, NULL)) ||
        (e = mpii_op_check(comm, op, t)))
        return e;
    int *displs = malloc((size_t)c->size * sizeof *displs);
    for (int r = 0; displs && r < c->size; r++)
        displs[r] = n, n += rcounts[r];
    void *whole = displs ? malloc((size_t)(n ? n : 1) * (size_t)sz) : NULL;
    if (!whole)
        e = mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes for the whole vector", (unsigned long)n * (unsigned long)sz);
    if (!e)
        e = MPI_Reduce(send == MPI_IN_PLACE ? recv : send, whole, n, t, op, 0, comm);
    if (!e)
        e = MPI_Scatterv(whole, rcounts, displs, t, recv, rcounts[c->rank], t, 0, comm);
    mpii_call = "MPI_Reduce_scatter";
    free(displs);
    free(whole);
    return e;
}

int *mpii_even_counts(MPI_Comm comm, int n, int *e)
{
    struct mpii_comm *c = mpii_comm(comm);
    int *counts = NULL;
    if (!c)
        *e = mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, "communicator %d is not valid", comm);
    else if (n < 0)
        *e = mpii_err(comm, MPI_ERR_COUNT, "count %d is negative", n);
    else if (!(counts = malloc((size_t)c->size * sizeof *counts)))
        *e = mpii_err(comm, MPI_ERR_NO_MEM, "no node memory for %d counts", c->size);
    for (int r = 0; counts && r < c->size; r++)
        counts[r] = n;
    return counts;
}

int MPI_Reduce_scatter_block(const void *send, void *recv, int rcount, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    MPII_ENTER("MPI_Reduce_scatter_block");
    int e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv), *counts = NULL;
    if (e || !(counts = mpii_even_counts(comm, rcount, &e)))
        return e;
    e = MPI_Reduce_scatter(send, recv, counts, t, op, comm);
    mpii_call = "MPI_Reduce_scatter_block";
    free(counts);
    return e;
}
