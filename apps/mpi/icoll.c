/* MPI's nonblocking collectives (MPI-3.1 section 5.12): MPI_Ibarrier,
 * Ibcast, Ireduce, Iallreduce, Igather(v), Iscatter(v), Iallgather(v),
 * Ialltoall(v, w), Ireduce_scatter(_block), Iscan and Iexscan.
 *
 * Each call builds a schedule, as MPICH's do: rounds of sends, receives
 * and local steps (copies and reductions), a round starting when the one
 * before it is complete. The call starts the first round; MPI_Test makes
 * what progress the arrived messages allow, MPI_Wait finishes it, and
 * every blocking receive of the program meanwhile progresses every active
 * schedule, so a program that waits for something else first does not
 * deadlock. Sends are eager (apps/mpi/p2p.c), so a round waits only on
 * its receives. The schedules are the library's own, over point to point:
 *   ibarrier   dissemination, ceil(lg p) rounds
 *   ibcast     binomial tree from the root
 *   ireduce    linear: the root receives every vector, then combines them
 *              in rank order (right for operators that do not commute)
 *   iallreduce ireduce to rank 0, then ibcast
 *   igather(v), iscatter(v)    linear, through the root
 *   iallgather(v), ialltoall(v, w)   direct: one round, a message to every rank
 *   ireduce_scatter(_block)   ireduce of the whole vector to rank 0, then
 *                             iscatterv of its pieces
 *   iscan, iexscan             a chain: rank r waits for r - 1's prefix
 *   ineighbor_*                one round: every block to the topology's
 *                              destinations, then from its sources
 *                              (apps/mpi/neighbor.c lists them)
 * They take basic and contiguous types. Each runs on its communicator's
 * collective context with a tag of its own (MPII_TAG_ICOLL + the number
 * of nonblocking collectives started on it before, all ranks counting
 * alike, below MPII_TAG_CREATE; mpii.h).
 */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

enum sop_kind { S_SEND, S_RECV, S_COPY, S_REDUCE, S_FENCE };
struct sop {
    enum sop_kind kind;
    int peer;
    void *dst;                       /* RECV: where; COPY, REDUCE: the inout side */
    const void *src;                 /* SEND: what; COPY, REDUCE: the in side */
    size_t len;
    int count;
    MPI_Datatype type;
    MPI_Op op;
    int done;
};
struct mpii_sched {
    struct mpii_comm *c;
    MPI_Comm comm;
    uint32_t ctx;
    int tag;
    int n, cap, next;                /* ops; the first op of the current round */
    struct sop *ops;
    void *mem[8];                    /* scratch the schedule owns */
    int nmem, active, err;
    int running;                     /* in progress(): a send there may make room (p2p.c), whose
                                        progress pokes the schedules, this one among them */
    int in_order;                    /* a round may receive twice from one peer: the second waits
                                        for the first (a neighbourhood's, with multiple edges) */
};

#define MAX_ACTIVE 64
static struct mpii_sched *active[MAX_ACTIVE];
static int nactive, sole;            /* sole: the one schedule being waited on blocks */

/* --- building ------------------------------------------------------------- */

static struct sop *add(struct mpii_sched *s, enum sop_kind k)
{
    if (s->err)
        return NULL;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        struct sop *o = realloc(s->ops, (size_t)cap * sizeof *o);
        if (!o) {
            s->err = mpii_err(s->comm, MPI_ERR_NO_MEM, "%d steps of a nonblocking collective", cap);
            return NULL;
        }
        s->ops = o;
        s->cap = cap;
    }
    struct sop *o = &s->ops[s->n++];
    *o = (struct sop){ .kind = k };
    return o;
}

static void send_(struct mpii_sched *s, int peer, const void *buf, size_t len)
{
    struct sop *o = add(s, S_SEND);
    if (o)
        o->peer = peer, o->src = buf, o->len = len;
}

static void recv_(struct mpii_sched *s, int peer, void *buf, size_t len)
{
    struct sop *o = add(s, S_RECV);
    if (o)
        o->peer = peer, o->dst = buf, o->len = len;
}

static void copy_(struct mpii_sched *s, void *dst, const void *src, size_t len)
{
    struct sop *o = add(s, S_COPY);
    if (o)
        o->dst = dst, o->src = src, o->len = len;
}

/* inout = in op inout */
static void reduce_(struct mpii_sched *s, const void *in, void *inout, int count, MPI_Datatype t, MPI_Op op)
{
    struct sop *o = add(s, S_REDUCE);
    if (o)
        o->src = in, o->dst = inout, o->count = count, o->type = t, o->op = op;
}

static void fence(struct mpii_sched *s)
{
    add(s, S_FENCE);
}

static void *scratch(struct mpii_sched *s, size_t len)
{
    void *p = s->err || s->nmem == 8 ? NULL : malloc(len ? len : 1);
    if (!p && !s->err)
        s->err = mpii_err(s->comm, MPI_ERR_NO_MEM, "%lu bytes for a nonblocking collective", (unsigned long)len);
    if (p)
        s->mem[s->nmem++] = p;
    return p;
}

static void release(struct mpii_sched *s)
{
    for (int i = 0; i < s->nmem; i++)
        free(s->mem[i]);
    free(s->ops);
    free(s);
}

/* --- running ------------------------------------------------------------- */

/* Make progress; with block, finish. 1 when complete. */
static int rounds(struct mpii_sched *s, int block);

static int progress(struct mpii_sched *s, int block)
{
    if (s->running)
        return 0;                    /* re-entered from one of its own sends: it goes on there */
    s->running = 1;
    int done = rounds(s, block);
    s->running = 0;
    return done;
}

/* Whether receive i of the current round (from s->next) must wait for
 * an earlier one from the same peer, not yet done: the messages of one
 * peer come in order (the non-overtaking rule), and so must their
 * receives. */
static int behind_same_peer(const struct mpii_sched *s, int i)
{
    for (int j = s->next; j < i; j++)
        if (s->ops[j].kind == S_RECV && !s->ops[j].done && s->ops[j].peer == s->ops[i].peer)
            return 1;
    return 0;
}

static int rounds(struct mpii_sched *s, int block)
{
    while (s->next < s->n && !s->err) {
        int end = s->next;
        while (end < s->n && s->ops[end].kind != S_FENCE)
            end++;
        int pending = 0;
        for (int i = s->next; i < end && !s->err; i++) {
            struct sop *o = &s->ops[i];
            if (o->kind == S_SEND && !o->done)
                s->err = mpii_send(s->c, s->ctx, o->src, o->len, o->peer, s->tag, 0), o->done = 1;
        }
        for (int i = s->next; i < end && !s->err; i++) {
            struct sop *o = &s->ops[i];
            if (o->kind != S_RECV || o->done)
                continue;
            if (!block && ((s->in_order && pending && behind_same_peer(s, i)) ||
                           !mpii_arrived(s->c, s->ctx, o->peer, s->tag))) {
                pending = 1;
                continue;
            }
            s->err = mpii_recv(s->c, s->ctx, o->dst, o->len, o->peer, s->tag, NULL);
            o->done = 1;
        }
        if (pending)
            return 0;
        for (int i = s->next; i < end && !s->err; i++) {
            struct sop *o = &s->ops[i];
            if (o->kind == S_COPY && o->dst != o->src)
                memmove(o->dst, o->src, o->len);
            if (o->kind == S_REDUCE && mpii_reduce(o->src, o->dst, o->count, o->type, o->op))
                s->err = mpii_err(s->comm, MPI_ERR_OP, "operator %d does not apply to datatype %d", o->op, o->type);
        }
        s->next = end < s->n ? end + 1 : end;
    }
    return 1;
}

static void deactivate(struct mpii_sched *s)
{
    for (int i = 0; i < nactive; i++)
        if (active[i] == s) {
            active[i] = active[--nactive];
            break;
        }
}

int mpii_sched_busy(void)
{
    return nactive > 0 && !sole;
}

void mpii_sched_poke(void)
{
    for (int i = 0; i < nactive; i++)
        progress(active[i], 0);
}

int mpii_sched_test(struct mpii_sched *s)
{
    return progress(s, 0);
}

/* Waiting on the only active schedule: its receives block in the NIC, at
 * the exact times. With others active, every one is polled in turn. */
int mpii_sched_wait(struct mpii_sched *s)
{
    if (nactive == 1) {
        sole = 1;
        progress(s, 1);
        sole = 0;
    } else
        while (!progress(s, 0))
            mpii_sched_poke();
    int e = s->err;
    deactivate(s);
    release(s);
    return e;
}

static struct mpii_sched *start(MPI_Comm comm, struct mpii_comm *c)
{
    struct mpii_sched *s = calloc(1, sizeof *s);
    if (!s) {
        mpii_err(comm, MPI_ERR_NO_MEM, "a nonblocking collective's schedule");
        return NULL;
    }
    s->c = c;
    s->comm = comm;
    s->ctx = c->ctx + 1;
    s->tag = MPII_TAG_ICOLL + (int)(c->icoll++ % (MPII_TAG_CREATE - MPII_TAG_ICOLL));
    return s;
}

/* The schedule built: register it, start its first round. */
static int launch(struct mpii_sched *s, MPI_Request *request)
{
    int e = s->err;
    if (!e && nactive == MAX_ACTIVE)
        e = mpii_err(s->comm, MPI_ERR_INTERN, "more than %d nonblocking collectives at once", MAX_ACTIVE);
    if (!e)
        e = mpii_req_sched(s->comm, s, request);
    if (e) {
        release(s);
        return e;
    }
    active[nactive++] = s;
    progress(s, 0);
    return MPI_SUCCESS;
}

/* --- checks ------------------------------------------------------------- */

static int check(MPI_Comm comm, struct mpii_comm **cp, int count, MPI_Datatype t, int root, size_t *len)
{
    return mpii_isa_checked(comm, t, mpii_check(comm, cp, count, t, root, MPII_CONTIG, len));
}

/* A second type of the call (the send side, or the root's other side):
 * s->err set unless it is valid, committed and contiguous. */
static void type_ok(struct mpii_sched *s, MPI_Datatype t)
{
    if (!s->err && (!mpii_type_usable(t) || !mpii_type_contig(t)))
        s->err = mpii_err(s->comm, MPI_ERR_TYPE, "datatype %d is not valid, not committed or not contiguous", t);
}

/* The operator of a reduction: s->err set unless it applies to t, on
 * every rank, before any round starts (apps/mpi/dtype.c). */
static void op_ok(struct mpii_sched *s, MPI_Op op, MPI_Datatype t)
{
    if (!s->err)
        s->err = mpii_op_check(s->comm, op, t);
}

/* A call's start: its checks (the request's pointer, MPI_IN_PLACE where
 * the call takes it by `where`, the communicator, count, type and root),
 * then its schedule s, on c, of p ranks, this one me. */
#define BEGIN(name, count, type, root, where, send, recv)                                   \
    MPII_ENTER(name);                                                                       \
    OUT_OR_ERR(comm, request);                                                              \
    struct mpii_comm *c;                                                                    \
    size_t len;                                                                             \
    int e_ = mpii_in_place_ok(comm, where, root, send, recv);                               \
    if (e_ || (e_ = check(comm, &c, count, type, root, &len)))                              \
        return e_;                                                                          \
    struct mpii_sched *s = start(comm, c);                                                  \
    if (!s)                                                                                 \
        return MPI_ERR_NO_MEM;                                                              \
    int p = c->size, me = c->rank;                                                          \
    (void)p, (void)me, (void)len

/* --- the schedules ------------------------------------------------------- */

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Ibarrier", 0, MPI_BYTE, MPII_NO_ROOT, MPII_IP_NONE, NULL, NULL);
    for (int d = 1; d < p; d *= 2) {
        send_(s, (me + d) % p, NULL, 0);
        recv_(s, (me - d + p) % p, NULL, 0);
        fence(s);
    }
    return launch(s, request);
}

static void bcast_rounds(struct mpii_sched *s, void *buf, size_t len, int root)
{
    int p = s->c->size, rel = (s->c->rank - root + p) % p, mask = 1;
    while (mask < p && !(rel & mask))
        mask <<= 1;
    if (rel) {
        recv_(s, (rel - mask + root) % p, buf, len);
        fence(s);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < p)
            send_(s, (rel + mask + root) % p, buf, len);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Ibcast", count, t, root, MPII_IP_NONE, buf, buf);
    bcast_rounds(s, buf, len, root);
    return launch(s, request);
}

/* The root: every vector into a scratch row, then acc = x_r op acc from
 * r = p - 2 down to 0, acc starting as x_{p-1}. */
static void reduce_rounds(struct mpii_sched *s, const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op,
                          int root, size_t len)
{
    int p = s->c->size, me = s->c->rank;
    op_ok(s, op, t);
    if (me != root) {
        send_(s, root, send, len);
        return;
    }
    unsigned char *all = scratch(s, len * (size_t)p);
    if (!all)
        return;
    for (int r = 0; r < p; r++)
        if (r == root)
            copy_(s, all + (size_t)r * len, send, len);
        else
            recv_(s, r, all + (size_t)r * len, len);
    fence(s);
    for (int r = p - 2; r >= 0; r--)
        reduce_(s, all + (size_t)r * len, all + (size_t)(p - 1) * len, count, t, op);
    copy_(s, recv, all + (size_t)(p - 1) * len, len);
    fence(s);
}

int MPI_Ireduce(const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *request)
{
    BEGIN("MPI_Ireduce", count, t, root, MPII_IP_ROOT_SEND, send, recv);
    reduce_rounds(s, send == MPI_IN_PLACE ? recv : send, recv, count, t, op, root, len);
    return launch(s, request);
}

int MPI_Iallreduce(const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request)
{
    BEGIN("MPI_Iallreduce", count, t, MPII_NO_ROOT, MPII_IP_SEND, send, recv);
    const void *in = send;
    if (send == MPI_IN_PLACE) {      /* the vector is read at the call's time, as MPI says */
        void *copy = scratch(s, len);
        if (copy)
            memcpy(copy, recv, len);
        in = copy;
    }
    reduce_rounds(s, in, recv, count, t, op, 0, len);
    fence(s);
    bcast_rounds(s, recv, len, 0);
    return launch(s, request);
}

static void gatherv_rounds(struct mpii_sched *s, const void *send, size_t slen, void *recv, const int *counts,
                           const int *displs, size_t unit, int root)
{
    int p = s->c->size, me = s->c->rank;
    if (me != root) {
        send_(s, root, send, slen);
        return;
    }
    for (int r = 0; r < p; r++) {
        unsigned char *at = (unsigned char *)recv + (size_t)displs[r] * unit;
        if (r == root) {
            if (send != MPI_IN_PLACE)
                copy_(s, at, send, slen);
        } else
            recv_(s, r, at, (size_t)counts[r] * unit);
    }
}

static void scatterv_rounds(struct mpii_sched *s, const void *send, const int *counts, const int *displs,
                            size_t unit, void *recv, size_t rlen, int root)
{
    int p = s->c->size, me = s->c->rank;
    if (me != root) {
        recv_(s, root, recv, rlen);
        return;
    }
    for (int r = 0; r < p; r++) {
        const unsigned char *at = (const unsigned char *)send + (size_t)displs[r] * unit;
        if (r != root)
            send_(s, r, at, (size_t)counts[r] * unit);
        else if (recv != MPI_IN_PLACE)
            copy_(s, recv, at, (size_t)counts[r] * unit);
    }
}

/* counts[r] = n, displs[r] = r n, in s's scratch */
static int *even(struct mpii_sched *s, int n, int **displs)
{
    int p = s->c->size, *c = scratch(s, 2 * (size_t)p * sizeof(int));
    if (!c)
        return NULL;
    *displs = c + p;
    for (int r = 0; r < p; r++)
        c[r] = n, (*displs)[r] = r * n;
    return c;
}

int MPI_Igather(const void *send, int scount, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt, int root,
                MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Igather", send == MPI_IN_PLACE ? 0 : scount, send == MPI_IN_PLACE ? MPI_BYTE : st, root,
          MPII_IP_ROOT_SEND, send, recv);
    if (me == root)
        type_ok(s, rt);
    size_t unit = me == root ? (size_t)mpii_type_size(rt) : 1, slen = len;
    int *displs, *counts = even(s, me == root ? rcount : 0, &displs);
    if (counts)
        gatherv_rounds(s, send, slen, recv, counts, displs, unit, root);
    return launch(s, request);
}

int MPI_Igatherv(const void *send, int scount, MPI_Datatype st, void *recv, const int rcounts[], const int displs[],
                 MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Igatherv", send == MPI_IN_PLACE ? 0 : scount, send == MPI_IN_PLACE ? MPI_BYTE : st, root,
          MPII_IP_ROOT_SEND, send, recv);
    if (me == root)
        type_ok(s, rt);
    gatherv_rounds(s, send, len, recv, rcounts, displs, me == root ? (size_t)mpii_type_size(rt) : 1, root);
    return launch(s, request);
}

int MPI_Iscatter(const void *send, int scount, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Iscatter", recv == MPI_IN_PLACE ? 0 : rcount, recv == MPI_IN_PLACE ? MPI_BYTE : rt, root,
          MPII_IP_ROOT_RECV, send, recv);
    if (me == root)
        type_ok(s, st);
    size_t unit = me == root ? (size_t)mpii_type_size(st) : 1;
    int *displs, *counts = even(s, me == root ? scount : 0, &displs);
    if (counts)
        scatterv_rounds(s, send, counts, displs, unit, recv, len, root);
    return launch(s, request);
}

int MPI_Iscatterv(const void *send, const int scounts[], const int displs[], MPI_Datatype st, void *recv, int rcount,
                  MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Iscatterv", recv == MPI_IN_PLACE ? 0 : rcount, recv == MPI_IN_PLACE ? MPI_BYTE : rt, root,
          MPII_IP_ROOT_RECV, send, recv);
    if (me == root)
        type_ok(s, st);
    scatterv_rounds(s, send, scounts, displs, me == root ? (size_t)mpii_type_size(st) : 1, recv, len, root);
    return launch(s, request);
}

/* Direct: this rank's block to every other rank, every rank's block from
 * it, one round. */
static void allgatherv_rounds(struct mpii_sched *s, const void *send, void *recv, const int *counts,
                              const int *displs, size_t unit)
{
    int p = s->c->size, me = s->c->rank;
    unsigned char *mine = (unsigned char *)recv + (size_t)displs[me] * unit;
    size_t mlen = (size_t)counts[me] * unit;
    if (send != MPI_IN_PLACE)
        memcpy(mine, send, mlen);
    for (int i = 1; i < p; i++) {
        int to = (me + i) % p, from = (me - i + p) % p;
        send_(s, to, mine, mlen);
        recv_(s, from, (unsigned char *)recv + (size_t)displs[from] * unit, (size_t)counts[from] * unit);
    }
}

int MPI_Iallgather(const void *send, int scount, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt,
                   MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Iallgather", rcount, rt, MPII_NO_ROOT, MPII_IP_SEND, send, recv);
    if (send != MPI_IN_PLACE)
        type_ok(s, st);
    (void)scount;
    int *displs, *counts = even(s, rcount, &displs);
    if (counts)
        allgatherv_rounds(s, send, recv, counts, displs, (size_t)mpii_type_size(rt));
    return launch(s, request);
}

int MPI_Iallgatherv(const void *send, int scount, MPI_Datatype st, void *recv, const int rcounts[],
                    const int displs[], MPI_Datatype rt, MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Iallgatherv", 0, rt, MPII_NO_ROOT, MPII_IP_SEND, send, recv);
    if (send != MPI_IN_PLACE)
        type_ok(s, st);
    (void)scount;
    allgatherv_rounds(s, send, recv, rcounts, displs, (size_t)mpii_type_size(rt));
    return launch(s, request);
}

static void alltoallv_rounds(struct mpii_sched *s, const void *send, const int *scounts, const int *sdispls,
                             size_t sunit, void *recv, const int *rcounts, const int *rdispls, size_t runit)
{
    int p = s->c->size, me = s->c->rank;
    for (int i = 0; i < p; i++) {
        int to = (me + i) % p, from = (me - i + p) % p;
        const unsigned char *sp = (const unsigned char *)send + (size_t)sdispls[to] * sunit;
        unsigned char *rp = (unsigned char *)recv + (size_t)rdispls[from] * runit;
        if (i == 0)
            copy_(s, rp, sp, (size_t)rcounts[me] * runit);
        else {
            send_(s, to, sp, (size_t)scounts[to] * sunit);
            recv_(s, from, rp, (size_t)rcounts[from] * runit);
        }
    }
}

/* MPI_IN_PLACE: the send side is a copy of recv taken at the call. */
static const void *in_place(struct mpii_sched *s, const void *send, const void *recv, size_t len)
{
    if (send != MPI_IN_PLACE)
        return send;
    void *copy = scratch(s, len);
    if (copy)
        memcpy(copy, recv, len);
    return copy;
}

int MPI_Ialltoall(const void *send, int scount, MPI_Datatype st, void *recv, int rcount, MPI_Datatype rt,
                  MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Ialltoall", rcount, rt, MPII_NO_ROOT, MPII_IP_SEND, send, recv);
    if (send != MPI_IN_PLACE)
        type_ok(s, st);
    (void)scount;
    int *displs, *counts = even(s, rcount, &displs);
    const void *from = in_place(s, send, recv, len * (size_t)p);
    size_t unit = (size_t)mpii_type_size(rt);
    if (counts && from)
        alltoallv_rounds(s, from, counts, displs, unit, recv, counts, displs, unit);
    return launch(s, request);
}

int MPI_Ialltoallv(const void *send, const int scounts[], const int sdispls[], MPI_Datatype st, void *recv,
                   const int rcounts[], const int rdispls[], MPI_Datatype rt, MPI_Comm comm, MPI_Request *request)
{
    BEGIN("MPI_Ialltoallv", 0, rt, MPII_NO_ROOT, MPII_IP_SEND, send, recv);
    if (send != MPI_IN_PLACE)
        type_ok(s, st);
    size_t runit = (size_t)mpii_type_size(rt), end = 0;
    for (int r = 0; r < p; r++)
        if ((size_t)(rdispls[r] + rcounts[r]) * runit > end)
            end = (size_t)(rdispls[r] + rcounts[r]) * runit;
    const void *from = in_place(s, send, recv, end);
    if (from)
        alltoallv_rounds(s, from, send == MPI_IN_PLACE ? rcounts : scounts, send == MPI_IN_PLACE ? rdispls : sdispls,
                         send == MPI_IN_PLACE ? runit : (size_t)mpii_type_size(st), recv, rcounts, rdispls, runit);
    return launch(s, request);
}

/* Alltoallw: per-peer types, displacements in bytes. */
int MPI_Ialltoallw(const void *send, const int scounts[], const int sdispls[], const MPI_Datatype st[], void *recv,
                   const int rcounts[], const int rdispls[], const MPI_Datatype rt[], MPI_Comm comm,
                   MPI_Request *request)
{
    BEGIN("MPI_Ialltoallw", 0, MPI_BYTE, MPII_NO_ROOT, MPII_IP_SEND, send, recv);
    int *sb = scratch(s, 2 * (size_t)p * sizeof(int)), *rb = sb ? sb + p : NULL;
    size_t end = 0;
    for (int r = 0; sb && r < p && !s->err; r++) {
        size_t su = send == MPI_IN_PLACE ? 1 : (size_t)mpii_type_size(st[r]), ru = (size_t)mpii_type_size(rt[r]);
        if (!mpii_type_contig(rt[r]) || (send != MPI_IN_PLACE && !mpii_type_contig(st[r])))
            s->err = mpii_err(comm, MPI_ERR_TYPE, "rank %d's datatype is not valid, not committed or not contiguous", r);
        sb[r] = (int)(send == MPI_IN_PLACE ? (size_t)rcounts[r] * ru : (size_t)scounts[r] * su);
        rb[r] = (int)((size_t)rcounts[r] * ru);
        if ((size_t)rdispls[r] + (size_t)rb[r] > end)
            end = (size_t)rdispls[r] + (size_t)rb[r];
    }
    const void *from = sb && !s->err ? in_place(s, send, recv, end) : NULL;
    /* byte counts, byte displacements: units of 1 */
    if (from)
        alltoallv_rounds(s, from, sb, send == MPI_IN_PLACE ? rdispls : sdispls, 1, recv, rb, rdispls, 1);
    return launch(s, request);
}

/* Reduce_scatter: the whole vector reduced at rank 0, then its pieces
 * scattered. */
int MPI_Ireduce_scatter(const void *send, void *recv, const int rcounts[], MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                        MPI_Request *request)
{
    BEGIN("MPI_Ireduce_scatter", 0, t, MPII_NO_ROOT, MPII_IP_SEND, send, recv);
    int n = 0, *displs = scratch(s, (size_t)p * sizeof(int));
    for (int r = 0; displs && r < p; r++)
        displs[r] = n, n += rcounts[r];
    size_t unit = (size_t)mpii_type_size(t);
    unsigned char *whole = displs ? scratch(s, (size_t)n * unit) : NULL;
    const void *in = whole ? in_place(s, send, recv, (size_t)n * unit) : NULL;
    if (in) {
        reduce_rounds(s, in, whole, n, t, op, 0, (size_t)n * unit);
        fence(s);
        scatterv_rounds(s, whole, rcounts, displs, unit, recv, (size_t)rcounts[me] * unit, 0);
    }
    return launch(s, request);
}

int MPI_Ireduce_scatter_block(const void *send, void *recv, int rcount, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request)
{
    MPII_ENTER("MPI_Ireduce_scatter_block");
    OUT_OR_ERR(comm, request);
    int e = mpii_in_place_ok(comm, MPII_IP_SEND, MPII_NO_ROOT, send, recv), *counts = NULL;
    if (e || !(counts = mpii_even_counts(comm, rcount, &e)))
        return e;
    e = MPI_Ireduce_scatter(send, recv, counts, t, op, comm, request);   /* counts copied into its schedule */
    free(counts);
    return e;
}

/* Rank r: prefix from r - 1, then out = prefix op x_r to r + 1. */
static int scan_sched(MPI_Comm comm, const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op,
                      MPI_Request *request, int exclusive)
{
    BEGIN(exclusive ? "MPI_Iexscan" : "MPI_Iscan", count, t, MPII_NO_ROOT, MPII_IP_SEND, send, recv);
    op_ok(s, op, t);
    unsigned char *prefix = scratch(s, len), *out = scratch(s, len);
    if (prefix && out) {
        memcpy(out, send == MPI_IN_PLACE ? recv : send, len);
        if (me > 0) {
            recv_(s, me - 1, prefix, len);
            fence(s);
            reduce_(s, prefix, out, count, t, op);
            fence(s);
        }
        if (me < p - 1)
            send_(s, me + 1, out, len);
        if (!exclusive)
            copy_(s, recv, out, len);
        else if (me > 0)
            copy_(s, recv, prefix, len);
    }
    return launch(s, request);
}

int MPI_Iscan(const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return scan_sched(comm, send, recv, count, t, op, request, 0);
}

int MPI_Iexscan(const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                MPI_Request *request)
{
    return scan_sched(comm, send, recv, count, t, op, request, 1);
}

int mpii_ineighbour(MPI_Comm comm, struct mpii_comm *c, const struct mpii_round *r, MPI_Request *request)
{
    struct mpii_sched *s = start(comm, c);
    if (!s)
        return MPI_ERR_NO_MEM;
    s->in_order = 1;
    for (int k = 0; k < r->nout; k++)
        if (r->out[k] != MPI_PROC_NULL)
            send_(s, r->out[k], r->sp[k], r->sl[k]);
    for (int k = 0; k < r->nin; k++)
        if (r->in[k] != MPI_PROC_NULL)
            recv_(s, r->in[k], r->rp[k], r->rl[k]);
    return launch(s, request);
}
