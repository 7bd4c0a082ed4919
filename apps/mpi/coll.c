/* MPI collectives (MPI-3.1 chapter 5) on the project's algorithms.
 *
 * On MPI_COMM_WORLD, any communicator of every node in node order, and
 * any other of two ranks or more (seen as a line of its ranks,
 * apps/mpi/view.c), a collective runs the algorithm of
 * apps/coll/algos.def that the setting MPIR_CVAR_<OP>_INTRA_ALGORITHM
 * names (apps/mpi/cvar.c), or that `auto` picks for the shape and length
 * (apps/coll/auto.c), when the call's buffers are what that library
 * takes: contiguous blocks of bytes, and for the reductions int32, int64
 * or double with SUM, MAX, MIN, BAND, BOR or BXOR. Anywhere else (another
 * type or operator, a shape or length the algorithm refuses) the
 * library's own algorithm over point to point runs ("p2p"):
 *   barrier    dissemination, ceil(lg p) rounds (Hensgen, Finkel, Manber)
 *   bcast      binomial tree from the root, ceil(lg p) rounds
 *   reduce     linear: the root combines every rank's vector in rank order
 *              (right for operators that do not commute)
 *   allreduce  reduce to rank 0, then bcast
 *   gather, scatter   linear, through the root
 *   allgather  gather to rank 0, then bcast
 *   alltoall   pairwise: step i = 0..p-1 sends to rank + i, receives from
 *              rank - i (MPICH's pairwise for any p)
 *   scan, exscan      a chain: rank r waits for r - 1's prefix
 * An explicit setting that cannot run is said once per node, then p2p runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpii.h"
#include "../coll/coll.h"
#include "../mpi_app.h"
#include "../../netdev/net.h"

#define TAG_COLL 1                   /* every p2p collective's tag, on the collective context */

/* The algorithm of op to try from the project's library, or NULL for p2p:
 * on every node in node order (an identity communicator), or on a
 * sub-communicator of two ranks or more, seen as a line of its ranks
 * (apps/mpi/view.c). The choice is the same on every rank: it depends on
 * the setting and the communicator only. */
static const char *project_algo(const struct mpii_comm *c, const char *op)
{
    const char *a = mpii_cvar_algorithm(op);
    return strcmp(a, "p2p") && (c->identity || c->size >= 2) ? a : NULL;
}

static void refused(const struct mpii_comm *c, const char *algo, const char *why)
{
    static int said;
    if (strcmp(algo, "auto") && !said++)
        printf("MPI: rank %d: %s: algorithm '%s' cannot run this call (%s%s); the library's p2p algorithm runs\n",
               net_rank(), mpii_call, algo, why, c->identity ? "" : "; a sub-communicator is a line of its ranks");
}


#define P2P (-1)                     /* project(): the library's own algorithm is to run */

/* The plan of the last call of each operation (the project's persistent
 * form, coll_init_call and coll_start): a program's repeated call of one
 * shape, as a benchmark's loop makes, runs it again instead of planning
 * anew, as the project's collective apps do; a call of another shape
 * replaces it. A plan depends on the machine and the call only, so every
 * whole-machine communicator shares it. */
static struct kept {
    int used;
    uint32_t comm;                   /* KEPT_WHOLE, or a sub-communicator's context */
    int size, rank;
    struct coll_call call;
    char algo[MPI_SETTING_MAX];
    struct coll_req *req;
} kept[COLL_NOPS];

#define KEPT_WHOLE UINT32_MAX
static uint32_t kept_comm(const struct mpii_comm *c) { return c->identity ? KEPT_WHOLE : c->ctx; }

static int same_call(const struct kept *k, const struct mpii_comm *comm, const struct coll_call *c)
{
    return k->used && k->comm == kept_comm(comm) && k->size == comm->size && k->rank == comm->rank &&
           k->call.len == c->len && k->call.cx.root == c->cx.root && k->call.cx.rop == c->cx.rop &&
           k->call.cx.dtype == c->cx.dtype && !strcmp(k->algo, c->algo);
}

static void forget(struct kept *k)
{
    if (k->used)
        coll_free(k->req);
    k->used = 0;
}

/* Plan call (coll_init_call) for communicator c: 0, 1 (a failure) or 2
 * (the algorithm cannot run it), with the reason in err. A
 * sub-communicator's plan is made in its view (apps/mpi/view.c), and an
 * algorithm of multidestination worms, whose worms follow the machine's
 * own paths, never runs on one. */
static int plan(const struct mpii_comm *c, const struct coll_call *call, struct coll_req **req, char *err,
                size_t errlen)
{
    mpii_view(c->identity ? NULL : c);
    int rc = coll_init_call(call, req, err, errlen);
    mpii_view(NULL);
    if (!rc && !c->identity && coll_req_algo(*req)->worms) {
        snprintf(err, errlen, "it sends multidestination worms, which follow the machine's paths");
        coll_free(*req);
        *req = NULL;
        rc = 2;
    }
    return rc;
}

/* Run call on the project's algorithm that the operation's setting names
 * (or auto picks): MPI_SUCCESS, an error class, or P2P where it cannot run
 * the call (said once if the algorithm was named). */
static int project(const struct mpii_comm *c, MPI_Comm comm, const char *opname, struct coll_call *call,
                   const void *send, void *recv)
{
    const char *algo = project_algo(c, opname);
    char err[200];
    if (!algo)
        return P2P;
    call->algo = algo;
    struct kept *k = &kept[call->op];
    if (!same_call(k, c, call)) {
        forget(k);
        int rc = plan(c, call, &k->req, err, sizeof err);
        for (int op = 0; rc == 2 && op < COLL_NOPS; op++)      /* room: the other kept plans go */
            if (kept[op].used) {
                forget(&kept[op]);
                rc = plan(c, call, &k->req, err, sizeof err);
            }
        if (rc == 1)
            return mpii_err(comm, MPI_ERR_INTERN, "algorithm '%s' failed: %s", algo, err);
        if (rc) {
            refused(c, algo, err);
            return P2P;
        }
        k->used = 1;
        k->comm = kept_comm(c);
        k->size = c->size;
        k->rank = c->rank;
        k->call = *call;
        snprintf(k->algo, sizeof k->algo, "%s", algo);
    }
    mpii_view(c->identity ? NULL : c);
    int rc = coll_start(k->req, send, recv, err, sizeof err);
    mpii_view(NULL);
    if (!rc)
        return MPI_SUCCESS;
    if (rc == 1)
        return mpii_err(comm, MPI_ERR_INTERN, "algorithm '%s' failed: %s", algo, err);
    refused(c, algo, err);
    return P2P;
}

static int coll_types(MPI_Datatype t, MPI_Op op, enum coll_dtype *d, enum coll_rop *r)
{
    static const MPI_Op mops[] = { MPI_SUM, MPI_MAX, MPI_MIN, MPI_BAND, MPI_BOR, MPI_BXOR };
    static const enum coll_rop rops[] = { COLL_SUM, COLL_MAX, COLL_MIN, COLL_BAND, COLL_BOR, COLL_BXOR };
    int sz = mpii_type_size(t), k = -1;
    for (int i = 0; i < 6; i++)
        if (mops[i] == op)
            k = i;
    if (k < 0)
        return -1;
    *r = rops[k];
    if (t == MPI_DOUBLE)
        *d = COLL_DOUBLE;
    else if (t == MPI_INT || t == MPI_INT32_T || ((t == MPI_LONG) && sz == 4))
        *d = COLL_INT32;
    else if (t == MPI_LONG_LONG || t == MPI_INT64_T || ((t == MPI_LONG) && sz == 8))
        *d = COLL_INT64;
    else
        return -1;
    return 0;
}

/* --- checks ------------------------------------------------------------ */

static int check(MPI_Comm comm, struct mpii_comm **cp, int count, MPI_Datatype t, int root, size_t *len)
{
    return mpii_isa_checked(comm, t, mpii_check(comm, cp, count, t, root, MPII_CONTIG, len));
}


int mpii_in_place_ok(MPI_Comm comm, enum mpii_in_place where, int root, const void *send, const void *recv)
{
    if (send != MPI_IN_PLACE && recv != MPI_IN_PLACE)
        return MPI_SUCCESS;
    COMM_OR_ERR(c, comm);
    if (root != MPII_NO_ROOT && (root < 0 || root >= c->size))
        return mpii_err(comm, MPI_ERR_ROOT, "root %d; accepted: 0..%d", root, c->size - 1);
    int at_root = root == MPII_NO_ROOT || c->rank == root;
    const char *other = where == MPII_IP_ROOT_RECV ? "receive" : "send";
    if (where == MPII_IP_NONE)
        return mpii_err(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not a buffer of %s", mpii_call);
    if (!at_root && (where == MPII_IP_ROOT_SEND ? send : recv) == MPI_IN_PLACE)
        return mpii_err(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE as the %s buffer of rank %d; only the root (%d) gives "
                        "it", other, c->rank, root);
    if (at_root && (where == MPII_IP_ROOT_RECV ? send : recv) == MPI_IN_PLACE)
        return mpii_err(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE as the %s buffer; it is given as the %s%s buffer",
                        where == MPII_IP_ROOT_RECV ? "send" : "receive", where == MPII_IP_SEND ? "" : "root's ",
                        other);
    return MPI_SUCCESS;
}

static void *scratch(MPI_Comm comm, size_t len, int *e)
{
    void *p = malloc(len ? len : 1);
    if (!p)
        *e = mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes of node memory for the call", (unsigned long)len);
    return p;
}

#define SEND(buf, len, to) mpii_send(c, c->ctx + 1, buf, len, to, TAG_COLL, 0)
#define RECV(buf, len, from) mpii_recv(c, c->ctx + 1, buf, len, from, TAG_COLL, NULL)

/* --- types that are not contiguous -------------------------------------------
 * Bcast, Gather, Scatter, Allgather and Alltoall run on the packed bytes
 * of such a type (apps/mpi/typemap.c): pack what this rank sends, run the
 * call on MPI_BYTE, unpack what it receives. */

static int packed_len(MPI_Comm comm, int count, MPI_Datatype t, size_t *len)
{
    if (count < 0)
        return mpii_err(comm, MPI_ERR_COUNT, "count %d is negative", count);
    if (!mpii_type_usable(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    *len = (size_t)count * (size_t)mpii_type_size(t);
    return MPI_SUCCESS;
}

/* A packed copy of count elements (NULL for MPI_IN_PLACE or none). */
static void *pack_copy(MPI_Comm comm, const void *in, long count, MPI_Datatype t, int *e)
{
    if (in == MPI_IN_PLACE || count <= 0)
        return NULL;
    size_t len = (size_t)count * (size_t)mpii_type_size(t);
    void *p = scratch(comm, len, e);
    if (p)
        mpii_pack(in, (int)count, t, p);
    return p;
}

/* The size of comm; an intercommunicator's remote group's (the blocks of
 * its Allgather's receive buffer, MPI-3.1 5.7). */
static int size_of(MPI_Comm comm)
{
    struct mpii_comm *c = mpii_comm_any(comm);
    return c ? c->size : 0;
}

static int rank_of(MPI_Comm comm)
{
    struct mpii_comm *c = mpii_comm(comm);
    return c ? c->rank : 0;
}

enum packed_op { P_GATHER, P_SCATTER, P_ALLGATHER, P_ALLTOALL };

/* Gather, Scatter, Allgather or Alltoall on packed bytes. The send side
 * holds `sn` elements of st (0 where this rank sends nothing), the receive
 * side `rn` of rt. MPI_IN_PLACE is refused: where the call does not take
 * it, as every call refuses it (mpii_in_place_ok); elsewhere as not taken
 * yet. */
static int run_packed(enum packed_op op, MPI_Comm comm, const void *send, int scount, MPI_Datatype st, long sn,
                      void *recv, int rcount, MPI_Datatype rt, long rn, int root)
{
    static const enum mpii_in_place where[] = { MPII_IP_ROOT_SEND, MPII_IP_ROOT_RECV, MPII_IP_SEND, MPII_IP_SEND };
    size_t sl = 0, rl = 0;
    int e = mpii_in_place_ok(comm, where[op], op <= P_SCATTER ? root : MPII_NO_ROOT, send, recv);
    if (e)
        return e;
    if (send == MPI_IN_PLACE || recv == MPI_IN_PLACE)
        return mpii_err(comm, MPI_ERR_ARG, "MPI_IN_PLACE with a datatype that is not contiguous is not taken yet");
    if ((sn && (e = packed_len(comm, scount, st, &sl))) || (rn && (e = packed_len(comm, rcount, rt, &rl))))
        return e;
    void *ps = pack_copy(comm, send, sn, st, &e);
    void *pr = !e && rn ? scratch(comm, (size_t)rn * (size_t)mpii_type_size(rt), &e) : NULL;
    int sb = (int)sl, rb = (int)rl;
    if (!e)
        switch (op) {
        case P_GATHER: e = MPI_Gather(ps, sb, MPI_BYTE, pr, rb, MPI_BYTE, root, comm); break;
        case P_SCATTER: e = MPI_Scatter(ps, sb, MPI_BYTE, pr, rb, MPI_BYTE, root, comm); break;
        case P_ALLGATHER: e = MPI_Allgather(ps, sb, MPI_BYTE, pr, rb, MPI_BYTE, comm); break;
        case P_ALLTOALL: e = MPI_Alltoall(ps, sb, MPI_BYTE, pr, rb, MPI_BYTE, comm); break;
        }
    if (!e && rn)
        mpii_unpack(pr, (size_t)rn * (size_t)mpii_type_size(rt), rt, recv);
    free(ps);
    free(pr);
    return e;
}

/* --- barrier ------------------------------------------------------------ */

int MPI_Barrier(MPI_Comm comm)
{
    MPII_ENTER("MPI_Barrier");
    struct mpii_comm *c;
    size_t len;
    int e = check(comm, &c, 0, MPI_BYTE, MPII_NO_ROOT, &len);
    if (e)
        return e == MPII_IS_INTER ? mpii_ic_barrier(comm) : e;
    struct coll_call call = { .op = COLL_BARRIER };
    if ((e = project(c, comm, "BARRIER", &call, NULL, NULL)) != P2P)
        return e;
    e = MPI_SUCCESS;
    for (int d = 1; d < c->size && !e; d *= 2) {
        e = SEND(NULL, 0, (c->rank + d) % c->size);
        if (!e)
            e = RECV(NULL, 0, (c->rank - d + c->size) % c->size);
    }
    return e;
}

/* --- bcast -------------------------------------------------------------- */

static int bcast_p2p(struct mpii_comm *c, void *buf, size_t len, int root)
{
    int p = c->size, rel = (c->rank - root + p) % p, e = MPI_SUCCESS, mask = 1;
    while (mask < p && !(rel & mask))
        mask <<= 1;
    if (rel)
        e = RECV(buf, len, (rel - mask + root) % p);
    for (mask >>= 1; mask > 0 && !e; mask >>= 1)
        if (rel + mask < p)
            e = SEND(buf, len, (rel + mask + root) % p);
    return e;
}

/* This rank in a Bcast of packed bytes on intercommunicator comm (MPI-3.1
 * 5.2.2): the root's group (root MPI_ROOT or MPI_PROC_NULL) is as the
 * root (me == root), a rank of MPI_PROC_NULL packing for nothing; the
 * other group (root a rank of it) receives. me, rank_of's, elsewhere. */
static int __attribute__((noinline)) bcast_me(MPI_Comm comm, int root, int me)
{
    return !mpii_inter(comm) ? me : root < 0 ? root : MPI_PROC_NULL;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    MPII_ENTER("MPI_Bcast");
    int ip = mpii_in_place_ok(comm, MPII_IP_NONE, MPII_NO_ROOT, buf, buf);
    if (ip)
        return ip;
    if (!mpii_type_contig(t)) {
        size_t len;
        int e = packed_len(comm, count, t, &len), me = bcast_me(comm, root, rank_of(comm));
        void *p = e ? NULL : scratch(comm, len, &e);
        if (p && me == root)
            mpii_pack(buf, count, t, p);
        if (p && !(e = MPI_Bcast(p, (int)len, MPI_BYTE, root, comm)) && me != root)
            mpii_unpack(p, len, t, buf);
        free(p);
        mpii_call = "MPI_Bcast";
        return e;
    }
    struct mpii_comm *c;
    size_t len;
    int e = check(comm, &c, count, t, root, &len);
    if (e)
        return e == MPII_IS_INTER ? mpii_ic_bcast(comm, buf, len, root) : e;
    struct coll_call call = { .op = COLL_BCAST, .len = len, .cx = { .root = root } };
    if ((e = project(c, comm, "BCAST", &call, buf, buf)) != P2P)
        return e;
    return bcast_p2p(c, buf, len, root);
}

/* --- reduce, allreduce ---------------------------------------------------- */

static int reduce_p2p(MPI_Comm comm, struct mpii_comm *c, const void *send, void *recv, int count,
                      MPI_Datatype t, MPI_Op op, int root, size_t len)
{
    int e = MPI_SUCCESS;
    if (c->rank != root)
        return SEND(send, len, root);
    unsigned char *acc = scratch(comm, len, &e), *in = acc ? scratch(comm, len, &e) : NULL;
    /* acc = x_r op (x_{r+1} op ... x_{p-1}), r from p-1 down to 0 */
    for (int r = c->size - 1; r >= 0 && !e && in; r--) {
        unsigned char *x = r == c->size - 1 ? acc : in;
        if (r == root)
            memcpy(x, send, len);
        else
            e = RECV(x, len, r);
        if (!e && r < c->size - 1 && mpii_reduce(in, acc, count, t, op))
            e = mpii_err(comm, MPI_ERR_OP, "operator %d does not apply to datatype %d", op, t);
    }
    if (!e)
        memcpy(recv, acc, len);
    free(acc);
    free(in);
    return e;
}

enum reduction_kind { RED_REDUCE, RED_ALLREDUCE, RED_SCAN, RED_EXSCAN };
static int reduction(enum reduction_kind k, const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op,
                     int root, MPI_Comm comm);

int MPI_Reduce(const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)
{
    MPII_ENTER("MPI_Reduce");
    return reduction(RED_REDUCE, send, recv, count, t, op, root, comm);
}

int MPI_Allreduce(const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    MPII_ENTER("MPI_Allreduce");
    return reduction(RED_ALLREDUCE, send, recv, count, t, op, MPII_NO_ROOT, comm);
}

/* --- gather, scatter, allgather --------------------------------------------- */

static int same_bytes(MPI_Comm comm, int scount, MPI_Datatype st, int rcount, MPI_Datatype rt, size_t *len)
{
    struct mpii_comm *c;
    size_t sl = 0, rl = 0;
    int e = check(comm, &c, scount, st, MPII_NO_ROOT, &sl);
    if (!e)
        e = check(comm, &c, rcount, rt, MPII_NO_ROOT, &rl);
    if (!e && sl != rl)
        e = mpii_err(comm, MPI_ERR_TRUNCATE, "%lu bytes sent against %lu expected per rank", (unsigned long)sl,
                     (unsigned long)rl);
    *len = rl;
    return e;
}

int MPI_Gather(const void *send, int scount, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt, int root,
               MPI_Comm comm)
{
    MPII_ENTER("MPI_Gather");
    if (!mpii_type_contig(st) || (rank_of(comm) == root && !mpii_type_contig(rt))) {
        int e = run_packed(P_GATHER, comm, send, scount, st, scount, recv, rcount, rt,
                           rank_of(comm) == root ? (long)rcount * size_of(comm) : 0, root);
        mpii_call = "MPI_Gather";
        return e;
    }
    struct mpii_comm *c;
    size_t len, dummy;
    int e = check(comm, &c, 0, MPI_BYTE, root, &dummy);
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_ROOT_SEND, root, send, recv)))
        return e;
    if (send == MPI_IN_PLACE) {
        e = check(comm, &c, rcount, rt, MPII_NO_ROOT, &len);
        send = (unsigned char *)recv + (size_t)root * len;
    } else if (c->rank == root)
        e = same_bytes(comm, scount, st, rcount, rt, &len);
    else
        e = check(comm, &c, scount, st, MPII_NO_ROOT, &len);
    if (e)
        return e;
    struct coll_call call = { .op = COLL_GATHER, .len = len, .cx = { .root = root } };
    if ((e = project(c, comm, "GATHER", &call, send, recv)) != P2P)
        return e;
    return mpii_gather_linear(c, send, len, recv, NULL, NULL, len, root);
}

int MPI_Scatter(const void *send, int scount, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt, int root,
                MPI_Comm comm)
{
    MPII_ENTER("MPI_Scatter");
    if (!mpii_type_contig(rt) || (rank_of(comm) == root && !mpii_type_contig(st))) {
        int e = run_packed(P_SCATTER, comm, send, scount, st, rank_of(comm) == root ? (long)scount * size_of(comm) : 0,
                           recv, rcount, rt, rcount, root);
        mpii_call = "MPI_Scatter";
        return e;
    }
    struct mpii_comm *c;
    size_t len, dummy;
    int e = check(comm, &c, 0, MPI_BYTE, root, &dummy);
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_ROOT_RECV, root, send, recv)))
        return e;
    int in_place = recv == MPI_IN_PLACE;
    if (c->rank == root && !in_place)
        e = same_bytes(comm, scount, st, rcount, rt, &len);
    else if (c->rank == root)
        e = check(comm, &c, scount, st, MPII_NO_ROOT, &len);
    else
        e = check(comm, &c, rcount, rt, MPII_NO_ROOT, &len);
    if (e)
        return e;
    if (in_place)
        recv = (unsigned char *)send + (size_t)root * len;
    struct coll_call call = { .op = COLL_SCATTER, .len = len, .cx = { .root = root } };
    if ((e = project(c, comm, "SCATTER", &call, send, recv)) != P2P)
        return e;
    return mpii_scatter_linear(c, send, NULL, NULL, len, recv, len, root);
}

int MPI_Allgather(const void *send, int scount, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt,
                  MPI_Comm comm)
{
    MPII_ENTER("MPI_Allgather");
    if (!mpii_type_contig(st) || !mpii_type_contig(rt)) {
        int e = run_packed(P_ALLGATHER, comm, send, scount, st, scount, recv, rcount, rt,
                           (long)rcount * size_of(comm), 0);
        mpii_call = "MPI_Allgather";
        return e;
    }
    struct mpii_comm *c;
    size_t len;
    int e = check(comm, &c, rcount, rt, MPII_NO_ROOT, &len);
    if (e)
        return e == MPII_IS_INTER ? mpii_ic_allgather(comm, send, scount, st, recv, rcount, rt) : e;
    if ((e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv)))
        return e;
    if (send == MPI_IN_PLACE)
        send = (unsigned char *)recv + (size_t)c->rank * len;
    else if ((e = same_bytes(comm, scount, st, rcount, rt, &len)))
        return e;
    struct coll_call call = { .op = COLL_ALLGATHER, .len = len };
    if ((e = project(c, comm, "ALLGATHER", &call, send, recv)) != P2P)
        return e;
    e = mpii_gather_linear(c, send, len, recv, NULL, NULL, len, 0);
    return e ? e : bcast_p2p(c, recv, len * (size_t)c->size, 0);
}

/* --- alltoall ------------------------------------------------------------- */

int MPI_Alltoall(const void *send, int scount, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt,
                 MPI_Comm comm)
{
    MPII_ENTER("MPI_Alltoall");
    if (!mpii_type_contig(st) || !mpii_type_contig(rt)) {
        int e = run_packed(P_ALLTOALL, comm, send, scount, st, (long)scount * size_of(comm), recv, rcount, rt,
                           (long)rcount * size_of(comm), 0);
        mpii_call = "MPI_Alltoall";
        return e;
    }
    struct mpii_comm *c;
    size_t len;
    int e = check(comm, &c, rcount, rt, MPII_NO_ROOT, &len);
    void *copy = NULL;
    if (e || (e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv)))
        return e;
    if (send == MPI_IN_PLACE) {
        if (!(copy = scratch(comm, len * (size_t)c->size, &e)))
            return e;
        memcpy(copy, recv, len * (size_t)c->size);
        send = copy;
    } else if ((e = same_bytes(comm, scount, st, rcount, rt, &len)))
        return e;
    struct coll_call call = { .op = COLL_ALLTOALL, .len = len };
    if ((e = project(c, comm, "ALLTOALL", &call, send, recv)) == P2P) {
        int p = c->size, me = c->rank;
        e = MPI_SUCCESS;
        for (int i = 0; i < p && !e; i++) {
            int to = (me + i) % p, from = (me - i + p) % p;
            e = SEND((const unsigned char *)send + (size_t)to * len, len, to);
            if (!e)
                e = RECV((unsigned char *)recv + (size_t)from * len, len, from);
        }
    }
    free(copy);
    return e;
}

/* --- scan, exscan ---------------------------------------------------------- */

static int scan_p2p(MPI_Comm comm, struct mpii_comm *c, const void *send, void *recv, int count, MPI_Datatype t,
                    MPI_Op op, size_t len, int exclusive)
{
    int e = MPI_SUCCESS;
    unsigned char *prefix = scratch(comm, len, &e);
    if (!prefix)
        return e;
    /* prefix = x_0 op ... op x_{r-1} from rank r - 1; rank r sends prefix op x_r */
    if (c->rank > 0)
        e = RECV(prefix, len, c->rank - 1);
    unsigned char *out = scratch(comm, len, &e);
    if (out && !e) {
        memcpy(out, send, len);
        if (c->rank > 0 && mpii_reduce(prefix, out, count, t, op))
            e = mpii_err(comm, MPI_ERR_OP, "operator %d does not apply to datatype %d", op, t);
        if (!e && c->rank < c->size - 1)
            e = SEND(out, len, c->rank + 1);
        if (!e && !exclusive)
            memcpy(recv, out, len);
        else if (!e && c->rank > 0)
            memcpy(recv, prefix, len);   /* exscan: rank 0's recv is undefined, left alone */
    }
    free(prefix);
    free(out);
    return e;
}

/* Reduce, Allreduce, Scan and Exscan: the project's algorithm where the
 * call is one it takes (Exscan: never), else the library's own. */
static int reduction(enum reduction_kind k, const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op,
                     int root, MPI_Comm comm)
{
    static const char *const names[] = { "REDUCE", "ALLREDUCE", "SCAN", NULL };
    struct mpii_comm *c;
    size_t len;
    int e = check(comm, &c, count, t, root, &len);
    if (!e)
        e = mpii_op_check(comm, op, t);
    if (!e)
        e = mpii_in_place_ok(comm, k == RED_REDUCE ? MPII_IP_ROOT_SEND : MPII_IP_SEND, root, send, recv);
    if (e)
        return e == MPII_IS_INTER ? mpii_ic_allreduce(comm, send, recv, count, t, op) : e;
    if (send == MPI_IN_PLACE)
        send = recv;
    static const enum coll_op ops[] = { COLL_REDUCE, COLL_ALLREDUCE, COLL_SCAN };
    enum coll_dtype d;
    enum coll_rop r;
    if (names[k] && !coll_types(t, op, &d, &r)) {
        struct coll_call call = { .op = ops[k], .len = len, .cx = { .root = k == RED_REDUCE ? root : 0, .rop = r,
                                                                     .dtype = d } };
        if ((e = project(c, comm, names[k], &call, send, recv)) != P2P)
            return e;
    }
    switch (k) {
    case RED_REDUCE: return reduce_p2p(comm, c, send, recv, count, t, op, root, len);
    case RED_ALLREDUCE:
        e = reduce_p2p(comm, c, send, recv, count, t, op, 0, len);
        return e ? e : bcast_p2p(c, recv, len, 0);
    case RED_SCAN: return scan_p2p(comm, c, send, recv, count, t, op, len, 0);
    default: return scan_p2p(comm, c, send, recv, count, t, op, len, 1);
    }
}

int MPI_Scan(const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    MPII_ENTER("MPI_Scan");
    return reduction(RED_SCAN, send, recv, count, t, op, MPII_NO_ROOT, comm);
}

int MPI_Exscan(const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    MPII_ENTER("MPI_Exscan");
    return reduction(RED_EXSCAN, send, recv, count, t, op, MPII_NO_ROOT, comm);
}
