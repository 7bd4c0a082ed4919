/* One-sided communication (MPI-3.1 chapter 11) with fence
 * synchronization (11.5.1): windows made by MPI_Win_create and
 * MPI_Win_allocate; MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate
 * MPI_Fetch_and_op and MPI_Compare_and_swap between fences.
 *
 * A node has no agent that could reach into another's memory, so an
 * operation is carried out at the fence that ends its epoch, by
 * messages on the window's own communicator (a split of the program's,
 * so no program message meets them):
 *   1. the ranks tell each other how many operations each has for each
 *      (an MPI_Alltoall of counts);
 *   2. each sends its operations, a header (struct rma) and the origin's
 *      data, in the order the program called them (sends complete at
 *      once, apps/mpi/p2p.c);
 *   3. each serves the operations aimed at it, each origin's in its
 *      order, origin by origin: a put's data lands in the window, an
 *      accumulate's is combined into it, a get's bytes (and a
 *      get-accumulate's or compare-and-swap's old ones) go back;
 *   4. each takes the answers to its own gets, in the order it called
 *      them, into their result buffers.
 * So when the fence returns every operation of the epoch is done at its
 * origin and, when the target's fence returns, at its target, as 11.5.1
 * asks; a target applies operations only inside its fence, so loads and
 * stores of the window between fences see them all or none. Operations
 * to one target from one origin are applied in program order, which
 * gives accumulates the standard's default ordering (11.7.2). The
 * fence's assertions are taken as hints and not used (11.5.5 allows).
 *
 * Target datatypes are contiguous (a basic type, or a derived one of
 * contiguous bytes); an accumulate's is a basic type, with a predefined
 * operator, MPI_REPLACE or (get-accumulate) MPI_NO_OP. Origin datatypes
 * may be any committed type. In a lock or PSCW epoch an operation goes to
 * its target at once instead (apps/mpi/win_sync.c). The request-based
 * operations (MPI_Rput, ...) take a passive target epoch (below); a
 * shared window has one rank, a node's memory being its own. */
#include <stdlib.h>
#include <string.h>
#include "win.h"

static struct win wins[MAX_WINS];

struct win *mpii_win_of(MPI_Win w) { return w >= 0 && w < MAX_WINS && wins[w].used ? &wins[w] : NULL; }

/* A window of comm's ranks over base (size bytes, disp_unit), in *out;
 * flavor says who owns base. Every rank learns every rank's size and
 * unit, so an operation's range is checked where it is called. */
static int win_make(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, int flavor,
                    MPI_Win *out)
{
    COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, out);
    int e = mpii_info_check(comm, info);
    if (e)
        return e;
    if (size < 0)
        return mpii_err(comm, MPI_ERR_SIZE, "size %ld; accepted: 0 or more bytes", (long)size);
    if (disp_unit <= 0)
        return mpii_err(comm, MPI_ERR_DISP, "disp_unit %d; accepted: 1 or more bytes", disp_unit);
    int slot = 0;
    while (slot < MAX_WINS && wins[slot].used)
        slot++;
    if (slot == MAX_WINS)
        return mpii_err(comm, MPI_ERR_INTERN, "more than %d windows at once", MAX_WINS);
    struct win *w = &wins[slot];
    static int made;
    *w = (struct win){ .base = base, .size = size, .disp_unit = disp_unit, .flavor = flavor,
                       .model = MPI_WIN_SEPARATE, .comm = MPI_COMM_NULL, .gen = ++made };
    w->sizes = malloc((size_t)c->size * sizeof *w->sizes);
    w->units = malloc((size_t)c->size * sizeof *w->units);
    if (!w->sizes || !w->units) {
        free(w->sizes);
        free(w->units);
        return mpii_err(comm, MPI_ERR_NO_MEM, "%d bytes for a window", (int)(c->size * sizeof(MPI_Aint)));
    }
    const char *call = mpii_call;
    int64_t mine[2] = { size, disp_unit }, *all = malloc((size_t)c->size * sizeof mine);
    e = all ? MPI_Comm_split(comm, 0, c->rank, &w->comm) : mpii_err(comm, MPI_ERR_NO_MEM, "for a window");
    if (!e)
        e = MPI_Allgather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, w->comm);
    mpii_call = call;
    for (int r = 0; !e && r < c->size; r++) {
        w->sizes[r] = (MPI_Aint)all[2 * r];
        w->units[r] = (int)all[2 * r + 1];
    }
    free(all);
    if (!e)
        e = mpii_win_sync_init(w, c->size);
    if (e) {
        if (w->comm != MPI_COMM_NULL)
            MPI_Comm_free(&w->comm);
        free(w->sizes);
        free(w->units);
        mpii_call = call;
        return e;
    }
    mpii_comms[w->comm].errh = MPI_ERRORS_ARE_FATAL;   /* a window's own default (11.6) */
    w->used = 1;
    *out = slot;
    return MPI_SUCCESS;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    MPII_ENTER("MPI_Win_create");
    return win_make(base, size, disp_unit, info, comm, MPI_WIN_FLAVOR_CREATE, win);
}

/* A window of no memory until the program attaches some (MPI_Win_attach,
 * apps/mpi/win_sync.c); an operation's displacement is the target's
 * address (MPI_Get_address), checked at the target (11.2.4). */
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    MPII_ENTER("MPI_Win_create_dynamic");
    return win_make(NULL, 0, 1, info, comm, MPI_WIN_FLAVOR_DYNAMIC, win);
}

/* A window of memory the library allocates (flavor ALLOCATE or SHARED). */
static int win_alloc(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, int flavor,
                     MPI_Win *win)
{
    OUT_OR_ERR(comm, baseptr);
    void *base = size > 0 ? malloc((size_t)size) : NULL;
    if (size > 0 && !base)
        return mpii_err(comm, MPI_ERR_NO_MEM, "%ld bytes for a window", (long)size);
    int e = win_make(base, size, disp_unit, info, comm, flavor, win);
    if (e)
        free(base);
    else
        *(void **)baseptr = base;
    return e;
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    MPII_ENTER("MPI_Win_allocate");
    return win_alloc(size, disp_unit, info, comm, baseptr, MPI_WIN_FLAVOR_ALLOCATE, win);
}

/* A shared memory window (MPI-3.1 11.2.3): its processes must share
 * memory, and each node is a process with its own, so comm has one rank:
 * what MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) gives. The window is
 * then that rank's memory, which MPI_Win_shared_query gives back. */
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                            MPI_Win *win)
{
    MPII_ENTER("MPI_Win_allocate_shared");
    COMM_OR_ERR(c, comm);
    if (c->size != 1)
        return mpii_err(comm, MPI_ERR_RMA_SHARED, "communicator %d has %d ranks, on as many nodes, which share no "
                        "memory; accepted: a communicator of one rank, as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) "
                        "gives", comm, c->size);
    return win_alloc(size, disp_unit, info, comm, baseptr, MPI_WIN_FLAVOR_SHARED, win);
}

/* Rank rank's part of a shared window (MPI_PROC_NULL: the first part of
 * some bytes, or none). */
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    MPII_ENTER("MPI_Win_shared_query");
    WIN_OR_ERR(w, win);
    OUT_OR_ERR(w->comm, size);
    OUT_OR_ERR(w->comm, disp_unit);
    OUT_OR_ERR(w->comm, baseptr);
    if (w->flavor != MPI_WIN_FLAVOR_SHARED)
        return mpii_err(w->comm, MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_allocate_shared");
    int n = mpii_comms[w->comm].size;
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= n))
        return mpii_err(w->comm, MPI_ERR_RANK, "rank %d; accepted: 0..%d or MPI_PROC_NULL", rank, n - 1);
    if (rank == MPI_PROC_NULL && !w->size) {
        *size = 0;
        *disp_unit = w->disp_unit;
        *(void **)baseptr = NULL;
        return MPI_SUCCESS;
    }
    *size = w->size;                 /* one rank: its own */
    *disp_unit = w->disp_unit;
    *(void **)baseptr = w->base;
    return MPI_SUCCESS;
}

int MPI_Win_free(MPI_Win *win)
{
    MPII_ENTER("MPI_Win_free");
    OUT_OR_ERR(MPI_COMM_WORLD, win);
    WIN_OR_ERR(w, *win);
    if (w->nops)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "%d operations not yet completed by MPI_Win_fence", w->nops);
    const char *open = mpii_win_sync_open(w);
    if (open)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "%s", open);
    int e = MPI_Barrier(w->comm);
    mpii_call = "MPI_Win_free";
    if (e)
        return e;
    if (w->flavor == MPI_WIN_FLAVOR_ALLOCATE || w->flavor == MPI_WIN_FLAVOR_SHARED)
        free(w->base);
    free(w->sizes);
    free(w->units);
    free(w->ops);
    mpii_win_sync_free(w);
    MPI_Comm_free(&w->comm);
    w->used = 0;
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

/* --- operations, queued at the origin ----------------------------------- */

/* The checks every operation makes where it is called, then its place in
 * the queue (*op, its header filled but the data); target_count of
 * target_type must hold the origin's bytes, `acc` asks a basic target
 * type and an operator that applies to it. *op is NULL for target
 * MPI_PROC_NULL: the operation does nothing (MPI-3.1 11.3). */
static int queue(struct win *w, int count, MPI_Datatype t, int target, MPI_Aint disp, int tcount,
                 MPI_Datatype tt, int kind, MPI_Op op, struct rma_op **out)
{
    struct mpii_comm *c = &mpii_comms[w->comm];
    int acc = kind == RMA_ACC || kind == RMA_GACC || kind == RMA_CAS;
    *out = NULL;
    if (target == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (target < 0 || target >= c->size)
        return mpii_err(w->comm, MPI_ERR_RANK, "target_rank %d; accepted: 0..%d or MPI_PROC_NULL", target,
                        c->size - 1);
    if (!w->epoch && !mpii_win_synced(w, target))
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "outside an access epoch to rank %d: call MPI_Win_fence, "
                        "MPI_Win_lock, MPI_Win_lock_all or MPI_Win_start first", target);
    if (count < 0 || tcount < 0)
        return mpii_err(w->comm, MPI_ERR_COUNT, "count %d; accepted: 0 or more", count < 0 ? count : tcount);
    if (!mpii_type_usable(t) || !mpii_type_usable(tt))
        return mpii_err(w->comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed",
                        mpii_type_usable(t) ? tt : t);
    int e = mpii_isa_mixed ? mpii_isa_peer(w->comm, c, t, target) : MPI_SUCCESS;   /* apps/mpi/isa.c */
    if (!e && mpii_isa_mixed)
        e = mpii_isa_peer(w->comm, c, tt, target);
    if (e)
        return e;
    if (!mpii_type_contig(tt) || (acc && !mpii_basic_size(tt)))
        return mpii_err(w->comm, MPI_ERR_TYPE, "target datatype %d is not %s, which %s does not take yet", tt,
                        acc ? "a basic type" : "contiguous", mpii_call);
    if (acc && op != MPI_REPLACE && !(op == MPI_NO_OP && kind == RMA_GACC) &&
        (op > MPI_MINLOC || mpii_reduce(NULL, NULL, 0, tt, op)))
        return mpii_err(w->comm, MPI_ERR_OP, "operator %d on datatype %d; accepted: a predefined operator that "
                        "applies to it, or MPI_REPLACE%s", op, tt, kind == RMA_GACC ? " or MPI_NO_OP" : "");
    int dynamic = w->flavor == MPI_WIN_FLAVOR_DYNAMIC;
    int64_t len = (int64_t)tcount * mpii_type_size(tt), at = (int64_t)disp * w->units[target];
    if (dynamic)                     /* an address (MPI_Get_address's, unsigned), which the target checks */
        at = (int64_t)(unsigned long)disp;
    if (!(kind == RMA_GACC && op == MPI_NO_OP) && (int64_t)count * mpii_type_size(t) != len)
        return mpii_err(w->comm, MPI_ERR_TYPE, "the origin's %lld bytes against the target's %lld",
                        (long long)count * mpii_type_size(t), (long long)len);
    if (!dynamic && (disp < 0 || at + len > w->sizes[target]))
        return mpii_err(w->comm, MPI_ERR_RMA_RANGE, "bytes [%lld, %lld) of rank %d's window of %ld bytes",
                        (long long)at, (long long)(at + len), target, (long)w->sizes[target]);
    if ((e = mpii_win_room(w, &w->ops, w->nops, &w->cap, "operations queued")))
        return e;
    struct rma_op *o = &w->ops[w->nops];
    *o = (struct rma_op){ .h = { .kind = kind, .op = op, .type = tt, .at = at, .len = len }, .target = target };
    if (acc)                         /* elements of the basic type, for the reduction */
        o->h.count = (int32_t)(len / mpii_basic_size(tt));
    *out = o;
    return MPI_SUCCESS;
}

/* Operation o, complete at its origin: sent to its target now in a lock
 * or PSCW epoch, else counted in the fence's queue. */
static int commit(struct win *w, struct rma_op *o)
{
    if (mpii_win_synced(w, o->target))
        return mpii_win_issue(w, o);
    w->nops++;
    return MPI_SUCCESS;
}

int mpii_win_room(struct win *w, struct rma_op **ops, int n, int *cap, const char *what)
{
    if (n < *cap)
        return MPI_SUCCESS;
    int more = *cap ? 2 * *cap : 16;
    struct rma_op *o = realloc(*ops, (size_t)more * sizeof *o);
    if (!o)
        return mpii_err(w->comm, MPI_ERR_NO_MEM, "%d %s", more, what);
    *ops = o;
    *cap = more;
    return MPI_SUCCESS;
}

/* The origin's data packed into o (put, accumulates), the op committed. */
static int take_data(struct win *w, struct rma_op *o, const void *origin, int count, MPI_Datatype t)
{
    if (o->h.len && !(o->data = malloc((size_t)o->h.len)))
        return mpii_err(w->comm, MPI_ERR_NO_MEM, "%lld bytes of an operation", (long long)o->h.len);
    if (o->h.len)
        mpii_pack(origin, count, t, o->data);
    return commit(w, o);
}

/* The operations' bodies, shared by their calls and their request-based
 * forms (below); *o is the operation sent or queued, NULL for target
 * MPI_PROC_NULL. */
static int put(struct win *w, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, int kind,
               MPI_Op op)
{
    struct rma_op *o;
    int e = queue(w, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, kind,
                  op, &o);
    return e || !o ? e : take_data(w, o, origin_addr, origin_count, origin_datatype);
}

static int get(struct win *w, void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype)
{
    struct rma_op *o;
    int e = queue(w, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                  RMA_GET, MPI_OP_NULL, &o);
    if (e || !o)
        return e;
    o->result = origin_addr;         /* queue() checked its bytes against the target's */
    o->rtype = origin_datatype;
    return commit(w, o);
}

static int get_accumulate(struct win *w, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                          void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op)
{
    struct rma_op *o;
    int e = queue(w, op == MPI_NO_OP ? 0 : origin_count, origin_datatype, target_rank, target_disp, target_count,
                  target_datatype, RMA_GACC, op, &o);
    if (e || !o)
        return e;
    if (!mpii_type_usable(result_datatype) ||
        (int64_t)result_count * mpii_type_size(result_datatype) != o->h.len)
        return mpii_err(w->comm, MPI_ERR_TYPE, "the result buffer's %lld bytes against the target's %lld",
                        (long long)result_count * mpii_type_size(result_datatype), (long long)o->h.len);
    o->result = result_addr;
    o->rtype = result_datatype;
    if (op == MPI_NO_OP)
        return commit(w, o);
    return take_data(w, o, origin_addr, origin_count, origin_datatype);
}

int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    MPII_ENTER("MPI_Put");
    WIN_OR_ERR(w, win);
    return put(w, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
               target_datatype, RMA_PUT, MPI_OP_NULL);
}

int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    MPII_ENTER("MPI_Accumulate");
    WIN_OR_ERR(w, win);
    return put(w, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
               target_datatype, RMA_ACC, op);
}

int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    MPII_ENTER("MPI_Get");
    WIN_OR_ERR(w, win);
    return get(w, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
               target_datatype);
}

int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                       int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    MPII_ENTER("MPI_Get_accumulate");
    WIN_OR_ERR(w, win);
    return get_accumulate(w, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                          result_datatype, target_rank, target_disp, target_count, target_datatype, op);
}

/* --- request-based operations (MPI-3.1 11.3.5) -------------------------- */

/* Only in a passive target epoch: every operation goes to its target when
 * it is called (apps/mpi/win_sync.c), its data copied first, so a put's
 * or an accumulate's request is complete at once (its buffer may be
 * used again, 11.3.5), and a get's when its answer is taken, as
 * MPI_Win_flush_local would take it. */
static int passive_or_err(struct win *w, int target, MPI_Request *request)
{
    OUT_OR_ERR(w->comm, request);
    *request = MPI_REQUEST_NULL;
    int n = mpii_comms[w->comm].size;
    if (target != MPI_PROC_NULL && target >= 0 && target < n && !mpii_win_passive(w, target))
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "outside a passive target epoch of rank %d: request-based "
                        "operations need MPI_Win_lock or MPI_Win_lock_all first", target);
    return MPI_SUCCESS;
}

/* The request of an operation just issued to target: a get's ticket is
 * the answers asked of target so far, its own the last. */
static int request_of(struct win *w, MPI_Win win, int target, int answered, MPI_Request *request)
{
    unsigned long ticket = answered && target != MPI_PROC_NULL ? w->asked[target] : 0;
    return mpii_req_rma(w->comm, win, w->gen, target, ticket, request);
}

int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request *request)
{
    MPII_ENTER("MPI_Rput");
    WIN_OR_ERR(w, win);
    int e = passive_or_err(w, target_rank, request);
    if (!e)
        e = put(w, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, RMA_PUT, MPI_OP_NULL);
    return e ? e : request_of(w, win, target_rank, 0, request);
}

int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                    MPI_Request *request)
{
    MPII_ENTER("MPI_Raccumulate");
    WIN_OR_ERR(w, win);
    int e = passive_or_err(w, target_rank, request);
    if (!e)
        e = put(w, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, RMA_ACC, op);
    return e ? e : request_of(w, win, target_rank, 0, request);
}

int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request *request)
{
    MPII_ENTER("MPI_Rget");
    WIN_OR_ERR(w, win);
    int e = passive_or_err(w, target_rank, request);
    if (!e)
        e = get(w, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype);
    return e ? e : request_of(w, win, target_rank, 1, request);
}

int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                        MPI_Win win, MPI_Request *request)
{
    MPII_ENTER("MPI_Rget_accumulate");
    WIN_OR_ERR(w, win);
    int e = passive_or_err(w, target_rank, request);
    if (!e)
        e = get_accumulate(w, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                           result_datatype, target_rank, target_disp, target_count, target_datatype, op);
    return e ? e : request_of(w, win, target_rank, 1, request);
}

int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    int e = MPI_Get_accumulate(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp, 1,
                               datatype, op, win);
    mpii_call = "MPI_Fetch_and_op";
    return e;
}

/* One element of a basic type: if the target's equals *compare_addr it
 * becomes *origin_addr; the old value goes to *result_addr (11.3.5). */
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    MPII_ENTER("MPI_Compare_and_swap");
    WIN_OR_ERR(w, win);
    struct rma_op *o;
    int e = queue(w, 1, datatype, target_rank, target_disp, 1, datatype, RMA_CAS, MPI_REPLACE, &o);
    if (e || !o)
        return e;
    size_t len = (size_t)o->h.len;
    if (!(o->data = malloc(2 * len)))
        return mpii_err(w->comm, MPI_ERR_NO_MEM, "%d bytes of an operation", (int)(2 * len));
    memcpy(o->data, origin_addr, len);
    memcpy(o->data + len, compare_addr, len);
    o->result = result_addr;
    o->rtype = datatype;
    return commit(w, o);
}

/* --- an operation sent, served and answered (fences and the other epochs) - */

/* Whether the bytes [h->at, h->at + h->len) are all in this target's
 * window (a dynamic window's: in one attached region); *at: the first.
 * The origin checked them against our size, but never trust. */
static int target_bytes(const struct win *w, const struct rma *h, unsigned char **at)
{
    if (h->at < 0 || h->len < 0)
        return 0;
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        *at = (unsigned char *)w->base + h->at;
        return h->at + h->len <= w->size;
    }
    *at = (unsigned char *)(uintptr_t)h->at;
    for (int i = 0; i < w->nregions; i++) {
        const struct region *r = &w->regions[i];
        if ((uint64_t)h->at >= r->base && (uint64_t)(h->at + h->len) <= r->base + (uint64_t)r->size)
            return 1;
    }
    return 0;
}

int mpii_win_serve_op(struct win *w, int src, const struct rma *h, int data_tag, int answer_tag)
{
    struct mpii_comm *c = &mpii_comms[w->comm];
    unsigned char *at = NULL, *tmp = NULL;
    int e = MPI_SUCCESS;
    if (!target_bytes(w, h, &at))
        return mpii_err(w->comm, MPI_ERR_RMA_RANGE, "rank %d's bytes [%lld, %lld) of this window, %s", src,
                        (long long)h->at, (long long)(h->at + h->len),
                        w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? "which has no memory attached there" : "past its end");
    if (h->kind != RMA_PUT && h->kind != RMA_ACC)
        e = mpii_send(c, c->ctx, at, (size_t)h->len, src, answer_tag, 0);
    if (e || !h->len || h->kind == RMA_GET || (h->kind == RMA_GACC && h->op == MPI_NO_OP))
        return e;                    /* no data follows (take_data sends none of 0 bytes) */
    if (h->kind == RMA_PUT || (h->kind != RMA_CAS && h->op == MPI_REPLACE))
        return mpii_recv(c, c->ctx, at, (size_t)h->len, src, data_tag, NULL);
    size_t got = rma_data_len(h);
    if (!(tmp = malloc(got ? got : 1)))
        return mpii_err(w->comm, MPI_ERR_NO_MEM, "%lld bytes of an accumulate", (long long)got);
    e = mpii_recv(c, c->ctx, tmp, got, src, data_tag, NULL);
    if (!e && h->kind == RMA_CAS && !memcmp(tmp + h->len, at, (size_t)h->len))
        memcpy(at, tmp, (size_t)h->len);
    else if (!e && h->kind != RMA_CAS)
        mpii_reduce(tmp, at, h->count, h->type, h->op);
    free(tmp);
    return e;
}

int mpii_win_send_op(struct win *w, const struct rma_op *o, int tag)
{
    struct mpii_comm *c = &mpii_comms[w->comm];
    int e = mpii_send(c, c->ctx, &o->h, sizeof o->h, o->target, tag, 0);
    if (!e && o->data)
        e = mpii_send(c, c->ctx, o->data, rma_data_len(&o->h), o->target, tag, 0);
    return e;
}

int mpii_win_take_answer(struct win *w, const struct rma_op *o, int tag)
{
    unsigned char *b = malloc((size_t)o->h.len ? (size_t)o->h.len : 1);
    int e = b ? mpii_recv(&mpii_comms[w->comm], mpii_comms[w->comm].ctx, b, (size_t)o->h.len, o->target, tag, NULL)
              : mpii_err(w->comm, MPI_ERR_NO_MEM, "%lld bytes of a get", (long long)o->h.len);
    if (!e)
        mpii_unpack(b, (size_t)o->h.len, o->rtype, o->result);
    free(b);
    return e;
}

/* --- the fence ------------------------------------------------------------ */

/* Steps 2-4 of the fence (above), given how many operations each rank
 * sends this one (in[r]). */
static int complete(struct win *w, const int *in)
{
    struct mpii_comm *c = &mpii_comms[w->comm];
    int e = MPI_SUCCESS;
    for (int i = 0; i < w->nops && !e; i++)
        e = mpii_win_send_op(w, &w->ops[i], TAG_OP);
    for (int src = 0; src < c->size && !e; src++)
        for (int k = 0; k < in[src] && !e; k++) {
            struct rma h;
            e = mpii_recv(c, c->ctx, &h, sizeof h, src, TAG_OP, NULL);
            if (!e)
                e = mpii_win_serve_op(w, src, &h, TAG_OP, TAG_REPLY);
        }
    for (int i = 0; i < w->nops && !e; i++)
        if (rma_answered(&w->ops[i].h))
            e = mpii_win_take_answer(w, &w->ops[i], TAG_REPLY);
    return e;
}

int MPI_Win_fence(int assert, MPI_Win win)
{
    MPII_ENTER("MPI_Win_fence");
    WIN_OR_ERR(w, win);
    int n = mpii_comms[w->comm].size, *out = calloc((size_t)n, sizeof *out), *in = calloc((size_t)n, sizeof *in);
    int e = out && in ? MPI_SUCCESS : mpii_err(w->comm, MPI_ERR_NO_MEM, "%d bytes for a fence",
                                                (int)(2 * n * sizeof *out));
    for (int i = 0; i < w->nops && !e; i++)
        out[w->ops[i].target]++;
    if (!e)
        e = MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, w->comm);
    mpii_call = "MPI_Win_fence";
    if (!e)
        e = complete(w, in);
    free(out);
    free(in);
    for (int i = 0; i < w->nops; i++)
        free(w->ops[i].data);
    w->nops = 0;
    w->epoch = !(assert & MPI_MODE_NOSUCCEED);
    return e;
}

/* --- what a window is ------------------------------------------------------ */

int MPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val, int *flag)
{
    MPII_ENTER("MPI_Win_get_attr");
    WIN_OR_ERR(w, win);
    OUT_OR_ERR(w->comm, attribute_val);
    OUT_OR_ERR(w->comm, flag);
    void *v = keyval == MPI_WIN_BASE          ? w->base
              : keyval == MPI_WIN_SIZE        ? (void *)&w->size
              : keyval == MPI_WIN_DISP_UNIT   ? (void *)&w->disp_unit
              : keyval == MPI_WIN_CREATE_FLAVOR ? (void *)&w->flavor
              : keyval == MPI_WIN_MODEL       ? (void *)&w->model
                                              : NULL;
    *flag = keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL;
    if (!*flag && keyval != MPI_KEYVAL_INVALID)
        return mpii_err(w->comm, MPI_ERR_KEYVAL, "keyval %d; accepted: MPI_WIN_BASE, MPI_WIN_SIZE, "
                        "MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL", keyval);
    if (*flag)
        *(void **)attribute_val = v;
    return MPI_SUCCESS;
}

int MPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    MPII_ENTER("MPI_Win_get_group");
    WIN_OR_ERR(w, win);
    int e = MPI_Comm_group(w->comm, group);
    mpii_call = "MPI_Win_get_group";
    return e;
}

int MPI_Win_set_name(MPI_Win win, const char *name)
{
    MPII_ENTER("MPI_Win_set_name");
    WIN_OR_ERR(w, win);
    return mpii_name_set(w->comm, w->name, name, "win_name");
}

int MPI_Win_get_name(MPI_Win win, char *name, int *resultlen)
{
    MPII_ENTER("MPI_Win_get_name");
    WIN_OR_ERR(w, win);
    return mpii_name_get(w->comm, w->name, name, resultlen);
}

/* The predefined handlers, or one of MPI_Win_create_errhandler's
 * (apps/mpi/env.c), kept as the window's communicator's: an error of a
 * call on the window calls it with the window (mpii_win_of_comm). */
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    MPII_ENTER("MPI_Win_set_errhandler");
    WIN_OR_ERR(w, win);
    if (!mpii_errh_valid(errhandler, 1))
        return mpii_err(w->comm, MPI_ERR_ARG, "error handler %d; accepted for a window: MPI_ERRORS_ARE_FATAL, "
                        "MPI_ERRORS_RETURN or one of MPI_Win_create_errhandler's, not freed", errhandler);
    mpii_comms[w->comm].errh = errhandler;
    return MPI_SUCCESS;
}

/* The window's handler called with errorcode, as an error of a call on
 * the window would (MPI-3.1 8.3.5); MPI_SUCCESS once it has. */
int MPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    MPII_ENTER("MPI_Win_call_errhandler");
    WIN_OR_ERR(w, win);
    mpii_err(w->comm, errorcode, "error code %d, raised by the program", errorcode);
    return MPI_SUCCESS;
}

MPI_Win mpii_win_of_comm(MPI_Comm comm)
{
    for (int i = 0; i < MAX_WINS; i++)
        if (wins[i].used && wins[i].comm == comm)
            return i;
    return MPI_WIN_NULL;
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    MPII_ENTER("MPI_Win_get_errhandler");
    WIN_OR_ERR(w, win);
    OUT_OR_ERR(w->comm, errhandler);
    *errhandler = mpii_comms[w->comm].errh;
    mpii_errh_ref(*errhandler);
    return MPI_SUCCESS;
}
