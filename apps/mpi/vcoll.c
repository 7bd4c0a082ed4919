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
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, mpii_comm_invalid, comm);
    return MPI_SUCCESS;
}

int mpii_contig_type(MPI_Comm comm, MPI_Datatype t, int *size)
{
    *size = mpii_type_size(t);
    if (!mpii_type_usable(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    if (!mpii_type_contig(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not contiguous, which this call does not take yet", t);
    return mpii_isa_checked(comm, t, MPI_SUCCESS);
}

/* A call's counts and, when it takes them (takes_displs), displacements:
 * arrays of the communicator's size, none null, no entry negative. */
static int counts_ok(MPI_Comm comm, const struct mpii_comm *c, const int *counts, const int *displs, int takes_displs)
{
    if (!counts || (takes_displs && !displs))
        return mpii_err(comm, MPI_ERR_ARG, "the %s array is a null pointer", counts ? "displacements" : "counts");
    for (int r = 0; r < c->size; r++)
        if (counts[r] < 0 || (displs && displs[r] < 0))
            return mpii_err(comm, MPI_ERR_COUNT, "rank %d's count %d or displacement %d is negative", r, counts[r],
                            displs ? displs[r] : 0);
    return MPI_SUCCESS;
}

#define SEND(c, buf, len, to) mpii_send(c, (c)->ctx + 1, buf, len, to, TAG_VCOLL, 0)
#define RECV(c, buf, len, from) mpii_recv(c, (c)->ctx + 1, buf, len, from, TAG_VCOLL, NULL)

/* --- blocks of any committed datatype (MPI-3.1 5.5-5.8) ------------------
 * A block of a type that is not contiguous travels packed, as in point to
 * point (apps/mpi/typemap.c): the sender packs a copy, the receiver
 * unpacks what came. A call whose types are all contiguous takes the byte
 * paths of this file instead; the two meet on the wire, so each rank
 * chooses for its own types. */

static int typed_ok(MPI_Comm comm, MPI_Datatype t)
{
    if (!mpii_type_usable(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    return mpii_isa_checked(comm, t, MPI_SUCCESS);
}

static void *packing_room(MPI_Comm comm, size_t len, int *e)
{
    void *tmp = malloc(len ? len : 1);
    *e = tmp ? MPI_SUCCESS : mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes to pack a block", (unsigned long)len);
    return tmp;
}

/* count elements of t at p, to rank to */
static int send_elems(MPI_Comm comm, struct mpii_comm *c, const void *p, int count, MPI_Datatype t, int to)
{
    size_t len = (size_t)count * (size_t)mpii_type_size(t);
    if (mpii_type_contig(t))
        return SEND(c, p, len, to);
    int e;
    void *tmp = packing_room(comm, len, &e);
    if (tmp) {
        mpii_pack(p, count, t, tmp);
        e = SEND(c, tmp, len, to);
    }
    free(tmp);
    return e;
}

/* count elements of t into p, from rank from */
static int recv_elems(MPI_Comm comm, struct mpii_comm *c, void *p, int count, MPI_Datatype t, int from)
{
    size_t len = (size_t)count * (size_t)mpii_type_size(t);
    if (mpii_type_contig(t))
        return RECV(c, p, len, from);
    MPI_Status st = { 0 };
    int e;
    void *tmp = packing_room(comm, len, &e);
    if (tmp && !(e = mpii_recv(c, c->ctx + 1, tmp, len, from, TAG_VCOLL, &st)))
        mpii_unpack(tmp, (size_t)st.count_bytes_, t, p);
    free(tmp);
    return e;
}

/* A rank's own block: scount elements of st at s into place r as rt. */
static int copy_elems(MPI_Comm comm, const void *s, int scount, MPI_Datatype st, void *r, MPI_Datatype rt)
{
    size_t len = (size_t)scount * (size_t)mpii_type_size(st);
    int e;
    void *tmp = packing_room(comm, len, &e);
    if (tmp) {
        mpii_pack(s, scount, st, tmp);
        mpii_unpack(tmp, len, rt, r);
    }
    free(tmp);
    return e;
}

static unsigned char *block_at(const void *base, int displ, MPI_Datatype t)
{
    return (unsigned char *)base + (MPI_Aint)displ * mpii_type_extent(t);
}

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

/* Linear through the root, blocks of any type. */
static int gatherv_typed(MPI_Comm comm, struct mpii_comm *c, const void *send, int scount, MPI_Datatype st,
                         void *recv, const int *rcounts, const int *displs, MPI_Datatype rt, int root)
{
    if (c->rank != root)
        return send_elems(comm, c, send, scount, st, root);
    int e = MPI_SUCCESS;
    for (int r = 0; r < c->size && !e; r++) {
        unsigned char *at = block_at(recv, displs[r], rt);
        if (r != root)
            e = recv_elems(comm, c, at, rcounts[r], rt, r);
        else if (send != MPI_IN_PLACE)
            e = copy_elems(comm, send, scount, st, at, rt);
    }
    return e;
}

static int scatterv_typed(MPI_Comm comm, struct mpii_comm *c, const void *send, const int *scounts,
                          const int *displs, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt, int root)
{
    if (c->rank != root)
        return recv_elems(comm, c, recv, rcount, rt, root);
    int e = MPI_SUCCESS;
    for (int r = 0; r < c->size && !e; r++) {
        const unsigned char *at = block_at(send, displs[r], st);
        if (r != root)
            e = send_elems(comm, c, at, scounts[r], st, r);
        else if (recv != MPI_IN_PLACE)
            e = copy_elems(comm, at, scounts[r], st, recv, rt);
    }
    return e;
}

int MPI_Gatherv(const void *send, int scount, MPI_Datatype st, void *recv, const int rcounts[], const int displs[],
                MPI_Datatype rt, int root, MPI_Comm comm)
{
    MPII_ENTER("MPI_Gatherv");
    struct mpii_comm *c;
    size_t none;
    int e = mpii_check(comm, &c, 0, MPI_BYTE, root, MPII_ROOTED, &none), ss = 0, rs = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_ROOT_SEND, root, send, recv)))
        return e;
    if (send != MPI_IN_PLACE && (e = typed_ok(comm, st)))
        return e;
    if (c->rank == root && ((e = typed_ok(comm, rt)) || (e = counts_ok(comm, c, rcounts, displs, 1))))
        return e;
    int own = send == MPI_IN_PLACE || mpii_type_contig(st), all = c->rank != root || mpii_type_contig(rt);
    if (!own || !all)
        return gatherv_typed(comm, c, send, scount, st, recv, rcounts, displs, rt, root);
    ss = send == MPI_IN_PLACE ? 0 : mpii_type_size(st);
    rs = c->rank == root ? mpii_type_size(rt) : 0;
    return mpii_gather_linear(c, send, (size_t)scount * ss, recv, rcounts, displs, rs, root);
}

int MPI_Scatterv(const void *send, const int scounts[], const int displs[], MPI_Datatype st, void *recv, int rcount,
                 MPI_Datatype rt, int root, MPI_Comm comm)
{
    MPII_ENTER("MPI_Scatterv");
    struct mpii_comm *c;
    size_t none;
    int e = mpii_check(comm, &c, 0, MPI_BYTE, root, MPII_ROOTED, &none), ss = 0, rs = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_ROOT_RECV, root, send, recv)))
        return e;
    if (recv != MPI_IN_PLACE && (e = typed_ok(comm, rt)))
        return e;
    if (c->rank == root && ((e = typed_ok(comm, st)) || (e = counts_ok(comm, c, scounts, displs, 1))))
        return e;
    int own = recv == MPI_IN_PLACE || mpii_type_contig(rt), all = c->rank != root || mpii_type_contig(st);
    if (!own || !all)
        return scatterv_typed(comm, c, send, scounts, displs, st, recv, rcount, rt, root);
    rs = recv == MPI_IN_PLACE ? 0 : mpii_type_size(rt);
    ss = c->rank == root ? mpii_type_size(st) : 0;
    return mpii_scatter_linear(c, send, scounts, displs, ss, recv, (size_t)rcount * rs, root);
}

/* Direct, blocks of any type: this rank's block (in place in recv) to
 * rank + i, rank - i's from it. */
static int allgatherv_typed(MPI_Comm comm, struct mpii_comm *c, const void *send, int scount, MPI_Datatype st,
                            void *recv, const int *rcounts, const int *displs, MPI_Datatype rt)
{
    int p = c->size, me = c->rank, e = MPI_SUCCESS;
    unsigned char *mine = block_at(recv, displs[me], rt);
    if (send != MPI_IN_PLACE)
        e = copy_elems(comm, send, scount, st, mine, rt);
    for (int i = 1; i < p && !e; i++) {
        int to = (me + i) % p, from = (me - i + p) % p;
        e = send_elems(comm, c, mine, rcounts[me], rt, to);
        if (!e)
            e = recv_elems(comm, c, block_at(recv, displs[from], rt), rcounts[from], rt, from);
    }
    return e;
}

int MPI_Allgatherv(const void *send, int scount, MPI_Datatype st, void *recv, const int rcounts[], const int displs[],
                   MPI_Datatype rt, MPI_Comm comm)
{
    MPII_ENTER("MPI_Allgatherv");
    struct mpii_comm *c;
    int e = comm_of(comm, &c), rs = 0, ss = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv)) ||
        (e = typed_ok(comm, rt)) || (e = counts_ok(comm, c, rcounts, displs, 1)) ||
        (send != MPI_IN_PLACE && (e = typed_ok(comm, st))))
        return e;
    if (!mpii_type_contig(rt) || (send != MPI_IN_PLACE && !mpii_type_contig(st)))
        return allgatherv_typed(comm, c, send, scount, st, recv, rcounts, displs, rt);
    rs = mpii_type_size(rt);
    int p = c->size, me = c->rank;
    unsigned char *mine = (unsigned char *)recv + (size_t)displs[me] * rs;
    if (send != MPI_IN_PLACE) {
        ss = mpii_type_size(st);
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

/* Pairwise, blocks of any type: peer r's block is counts[r] elements of
 * its type (types[r], or t for all) at displs[r], in its extents or
 * (bytes) in bytes. Every block to send is packed first, from recv's
 * blocks under MPI_IN_PLACE, so none is overwritten before it leaves. */
struct blocks { const int *counts, *displs; const MPI_Datatype *types; MPI_Datatype t; int bytes; };

static MPI_Datatype type_of(const struct blocks *b, int r) { return b->types ? b->types[r] : b->t; }

static unsigned char *peer_block(const void *base, const struct blocks *b, int r)
{
    return (unsigned char *)base + (b->bytes ? (MPI_Aint)b->displs[r] : (MPI_Aint)b->displs[r] * mpii_type_extent(type_of(b, r)));
}

static int alltoall_typed(MPI_Comm comm, struct mpii_comm *c, const void *send, const struct blocks *sb, void *recv,
                          const struct blocks *rb)
{
    int p = c->size, me = c->rank, e = MPI_SUCCESS;
    const void *from_buf = send == MPI_IN_PLACE ? recv : send;
    const struct blocks *out = send == MPI_IN_PLACE ? rb : sb;
    size_t *off = malloc((size_t)(p + 1) * sizeof *off);
    unsigned char *packed = NULL;
    if (!off)
        return mpii_err(comm, MPI_ERR_NO_MEM, "no node memory for %d peers' offsets", p);
    off[0] = 0;
    for (int r = 0; r < p; r++)
        off[r + 1] = off[r] + (size_t)out->counts[r] * (size_t)mpii_type_size(type_of(out, r));
    if ((packed = packing_room(comm, off[p], &e)))
        for (int r = 0; r < p; r++)
            mpii_pack(peer_block(from_buf, out, r), out->counts[r], type_of(out, r), packed + off[r]);
    for (int i = 0; i < p && !e; i++) {
        int to = (me + i) % p, from = (me - i + p) % p;
        e = SEND(c, packed + off[to], off[to + 1] - off[to], to);
        if (!e)
            e = recv_elems(comm, c, peer_block(recv, rb, from), rb->counts[from], type_of(rb, from), from);
    }
    free(packed);
    free(off);
    return e;
}

int MPI_Alltoallv(const void *send, const int scounts[], const int sdispls[], MPI_Datatype st, void *recv,
                  const int rcounts[], const int rdispls[], MPI_Datatype rt, MPI_Comm comm)
{
    MPII_ENTER("MPI_Alltoallv");
    struct mpii_comm *c;
    int e = comm_of(comm, &c), ss = 0, rs = 0;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv)) ||
        (e = typed_ok(comm, rt)) || (e = counts_ok(comm, c, rcounts, rdispls, 1)))
        return e;
    if (send != MPI_IN_PLACE &&
        ((e = typed_ok(comm, st)) || (e = counts_ok(comm, c, scounts, sdispls, 1))))
        return e;
    if (!mpii_type_contig(rt) || (send != MPI_IN_PLACE && !mpii_type_contig(st))) {
        struct blocks sb = { scounts, sdispls, NULL, st, 0 }, rb = { rcounts, rdispls, NULL, rt, 0 };
        return alltoall_typed(comm, c, send, &sb, recv, &rb);
    }
    rs = mpii_type_size(rt);
    ss = send == MPI_IN_PLACE ? 0 : mpii_type_size(st);
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
        (e = counts_ok(comm, c, rcounts, rdispls, 1)))
        return e;
    int *ssz = malloc((size_t)c->size * sizeof *ssz), *rsz = malloc((size_t)c->size * sizeof *rsz);
    if (!ssz || !rsz)
        e = mpii_err(comm, MPI_ERR_NO_MEM, "no node memory for %d peers' sizes", c->size);
    int contig = 1;
    for (int r = 0; r < c->size && !e; r++) {
        if (!(e = typed_ok(comm, rt[r])))
            rsz[r] = mpii_type_size(rt[r]), contig &= mpii_type_contig(rt[r]);
        if (!e && send != MPI_IN_PLACE && !(e = typed_ok(comm, st[r])))
            ssz[r] = mpii_type_size(st[r]), contig &= mpii_type_contig(st[r]);
    }
    if (!e && send != MPI_IN_PLACE)
        e = counts_ok(comm, c, scounts, sdispls, 1);
    if (!e && !contig) {
        struct blocks sb = { scounts, sdispls, st, MPI_DATATYPE_NULL, 1 }, rb = { rcounts, rdispls, rt, MPI_DATATYPE_NULL, 1 };
        e = alltoall_typed(comm, c, send, &sb, recv, &rb);
    } else if (!e)
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
        (e = mpii_contig_type(comm, t, &sz)) || (e = counts_ok(comm, c, rcounts, NULL, 0)) ||
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
        *e = mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, mpii_comm_invalid, comm);
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
