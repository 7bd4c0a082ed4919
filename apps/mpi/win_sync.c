/* One-sided communication's passive target (MPI-3.1 11.5.3: MPI_Win_lock,
 * MPI_Win_unlock, MPI_Win_lock_all, MPI_Win_unlock_all, MPI_Win_flush
 * and its _all, _local and _local_all forms, MPI_Win_sync), general
 * active target synchronization (11.5.2: MPI_Win_post, MPI_Win_start,
 * MPI_Win_complete, MPI_Win_wait, MPI_Win_test), and dynamic windows'
 * memory (11.2.4: MPI_Win_attach, MPI_Win_detach).
 *
 * A node has no agent that acts while its program computes, so a target
 * serves the requests made of its windows whenever its program is inside
 * the library: every wait of the library that blocks in the NIC also
 * waits for them and serves them as they come (apps/mpi/p2p.c, await),
 * and every poll serves those already there. MPI-3.1 11.7.3 allows this
 * (progress of passive target communication may need the target to call
 * MPI); a target that computes for a long time delays its origins' locks
 * by as long, in simulated time, as on such an implementation.
 *
 * Protocol, on the window's communicator (apps/mpi/win.h's tags); every
 * request of one origin goes on TAG_REQ, so the target serves them in the
 * order they were made:
 *   MPI_Win_lock      REQ{LOCK, type}  -> the target grants it (GRANT) at
 *                     once if no lock held conflicts, else when the locks
 *                     before it are released, first come first served
 *   an operation      REQ{op} [data]   -> applied; a get's bytes go back
 *                     (ANSWER), taken by the origin when it next completes
 *   MPI_Win_flush     REQ{FLUSH}       -> ACK: all of the origin's earlier
 *                     requests are applied
 *   MPI_Win_unlock    REQ{UNLOCK}      -> the lock released, the waiting
 *                     ones granted that now can be; ACK
 *   MPI_Win_post      POST to each origin of its group
 *   MPI_Win_start     waits for the POST of each target of its group
 *   MPI_Win_complete  REQ{DONE} to each target; its gets' answers taken
 *   MPI_Win_wait      serves requests until every origin's DONE came
 * An operation in a lock or PSCW epoch goes to its target when it is
 * called (win.c), so MPI_Win_flush_local completes it at the origin by
 * taking its answer, and a put needs no more. With MPI_MODE_NOCHECK a
 * lock is not asked for, and MPI_Win_start does not wait for the POSTs.
 */
#include <stdlib.h>
#include <string.h>
#include "win.h"
#include "../../netdev/net.h"

enum { LOCK_SHARED_HELD = 1, LOCK_EXCL_HELD, LOCK_NOCHECK = 4 };

int mpii_win_count, mpii_win_serving;

/* --- the window's state ----------------------------------------------- */

int mpii_win_sync_init(struct win *w, int nranks)
{
    w->lock = calloc((size_t)nranks, 2);
    w->waiting = malloc((size_t)nranks * sizeof *w->waiting);
    w->unacked = calloc((size_t)nranks, sizeof *w->unacked);
    w->asked = calloc((size_t)nranks, 2 * sizeof *w->asked);
    if (!w->lock || !w->waiting || !w->unacked || !w->asked) {
        free(w->lock);
        free(w->waiting);
        free(w->unacked);
        free(w->asked);
        return mpii_err(w->comm, MPI_ERR_NO_MEM, "%d bytes for a window's locks",
                        nranks * (int)(2 + sizeof *w->waiting + sizeof *w->unacked + 2 * sizeof *w->asked));
    }
    w->access = w->lock + nranks;
    w->answered = w->asked + nranks;
    w->flow = net_held_max() / 4 / (size_t)nranks;
    w->excl = -1;
    mpii_win_count++;
    return MPI_SUCCESS;
}

void mpii_win_sync_free(struct win *w)
{
    free(w->lock);
    free(w->waiting);
    free(w->unacked);
    free(w->asked);
    free(w->gets);
    free(w->regions);
    mpii_win_count--;
}

int mpii_win_synced(const struct win *w, int target)
{
    return w->lock[target] || w->access[target];
}

int mpii_win_passive(const struct win *w, int target)
{
    return w->lock[target] != 0;
}

/* Why the window cannot be freed now, or NULL. */
const char *mpii_win_sync_open(const struct win *w)
{
    if (w->lock_all)
        return "MPI_Win_lock_all's epoch is open: call MPI_Win_unlock_all first";
    for (int r = 0; r < mpii_comms[w->comm].size; r++)
        if (w->lock[r])
            return "a lock is held: call MPI_Win_unlock first";
    if (w->accessing)
        return "MPI_Win_start's epoch is open: call MPI_Win_complete first";
    if (w->exposed)
        return "MPI_Win_post's epoch is open: call MPI_Win_wait first";
    return NULL;
}

/* --- as origin ------------------------------------------------------- */

static int request(struct win *w, int target, int kind, int op, int count)
{
    struct rma h = { .kind = kind, .op = op, .count = count };
    struct mpii_comm *c = &mpii_comms[w->comm];
    return mpii_send(c, c->ctx, &h, sizeof h, target, TAG_REQ, 0);
}

/* An empty message of tag from target (a GRANT, an ACK, a POST). */
static int reply(struct win *w, int target, int tag)
{
    struct mpii_comm *c = &mpii_comms[w->comm];
    return mpii_recv(c, c->ctx, NULL, 0, target, tag, NULL);
}

static int answer(struct win *w, int target, int tag)
{
    struct mpii_comm *c = &mpii_comms[w->comm];
    return mpii_send(c, c->ctx, NULL, 0, target, tag, 0);
}

static int flush(struct win *w, int target);

/* Flow control: an origin never has more than w->flow bytes of requests
 * at a target that the target has not acknowledged, and of their answers
 * (a quarter of the router's held_max shared by the window's ranks), or
 * one request's if larger, so that an origin faster than its target,
 * which serves them only when it is in the library, cannot fill the
 * NIC's room for it, nor answers not yet taken the origin's. */
int mpii_win_issue(struct win *w, struct rma_op *o)
{
    size_t bytes = sizeof o->h + (o->data ? rma_data_len(&o->h) : 0) +
                   (rma_answered(&o->h) ? (size_t)o->h.len : 0);
    int e = w->unacked[o->target] && w->unacked[o->target] + bytes > w->flow ? flush(w, o->target) : MPI_SUCCESS;
    if (!e)
        e = mpii_win_send_op(w, o, TAG_REQ);
    free(o->data);
    o->data = NULL;
    w->unacked[o->target] += bytes;
    if (e || !rma_answered(&o->h))
        return e;
    if ((e = mpii_win_room(w, &w->gets, w->ngets, &w->gcap, "operations awaiting answers")))
        return e;
    w->gets[w->ngets++] = *o;
    w->asked[o->target]++;
    return MPI_SUCCESS;
}

/* The answers still to come from target (every target: -1), taken in
 * the order their operations were made; at most `most` of them. */
static int take_some(struct win *w, int target, int most)
{
    int e = MPI_SUCCESS, kept = 0;
    for (int i = 0; i < w->ngets; i++) {
        struct rma_op *o = &w->gets[i];
        if ((target < 0 || o->target == target) && most > 0) {
            if (!e)
                e = mpii_win_take_answer(w, o, TAG_ANSWER);
            w->answered[o->target]++;
            most--;
        } else
            w->gets[kept++] = *o;
    }
    w->ngets = kept;
    return e;
}

static int take_answers(struct win *w, int target)
{
    return take_some(w, target, w->ngets);
}

/* A request-based get (mpii_req_rma): done once target's answers taken
 * reach its ticket, taken one by one in order, without waiting unless
 * block. A window freed since was unlocked, which took them all. Without
 * block, an answer of several messages (longer than msg_max) whose first
 * has come is taken whole: the rest is on its way, as its target sends
 * them together. */
int mpii_win_answered(MPI_Win win, int gen, int target, unsigned long ticket, int block, int *err)
{
    struct win *w = mpii_win_of(win);
    *err = MPI_SUCCESS;
    if (!w || w->gen != gen)
        return 1;
    struct mpii_comm *c = &mpii_comms[w->comm];
    while (w->answered[target] < ticket) {
        if (!block && !mpii_arrived(c, c->ctx, target, TAG_ANSWER))
            return 0;
        if ((*err = take_some(w, target, 1)))
            return 1;
    }
    return 1;
}

/* MPI_Win_flush of target: its requests applied there, its answers here. */
static int flush(struct win *w, int target)
{
    int e = MPI_SUCCESS;
    if (!w->unacked[target])
        return take_answers(w, target);
    e = request(w, target, RMA_FLUSH, 0, 0);
    if (!e)
        e = take_answers(w, target);
    if (!e)
        e = reply(w, target, TAG_ACK);
    w->unacked[target] = 0;
    return e;
}

static int lock_type_ok(struct win *w, int type)
{
    if (type == MPI_LOCK_EXCLUSIVE || type == MPI_LOCK_SHARED)
        return MPI_SUCCESS;
    return mpii_err(w->comm, MPI_ERR_LOCKTYPE, "lock_type %d; accepted: MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED",
                    type);
}

static int rank_ok(struct win *w, int rank)
{
    int n = mpii_comms[w->comm].size;
    if (rank >= 0 && rank < n)
        return MPI_SUCCESS;
    return mpii_err(w->comm, MPI_ERR_RANK, "rank %d; accepted: 0..%d", rank, n - 1);
}

static int lock(struct win *w, int type, int rank, int assert)
{
    int held = type == MPI_LOCK_EXCLUSIVE ? LOCK_EXCL_HELD : LOCK_SHARED_HELD;
    if (assert & MPI_MODE_NOCHECK) {
        w->lock[rank] = (unsigned char)(held | LOCK_NOCHECK);
        return MPI_SUCCESS;
    }
    int e = request(w, rank, RMA_LOCK, type, 0);
    if (!e)
        e = reply(w, rank, TAG_GRANT);
    if (!e)
        w->lock[rank] = (unsigned char)held;
    return e;
}

static int unlock(struct win *w, int rank)
{
    int held = w->lock[rank], e;
    e = request(w, rank, RMA_UNLOCK, (held & 3) == LOCK_EXCL_HELD ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED,
                !!(held & LOCK_NOCHECK));
    if (!e)
        e = take_answers(w, rank);
    if (!e)
        e = reply(w, rank, TAG_ACK);
    w->lock[rank] = 0;
    w->unacked[rank] = 0;
    return e;
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    MPII_ENTER("MPI_Win_lock");
    WIN_OR_ERR(w, win);
    int e = lock_type_ok(w, lock_type);
    if (!e)
        e = rank_ok(w, rank);
    if (e)
        return e;
    if (w->lock[rank] || w->lock_all)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "rank %d's window is already locked by this rank", rank);
    return lock(w, lock_type, rank, assert);
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
    MPII_ENTER("MPI_Win_unlock");
    WIN_OR_ERR(w, win);
    int e = rank_ok(w, rank);
    if (e)
        return e;
    if (!w->lock[rank] || w->lock_all)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "rank %d's window is not locked by MPI_Win_lock", rank);
    return unlock(w, rank);
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
    MPII_ENTER("MPI_Win_lock_all");
    WIN_OR_ERR(w, win);
    int n = mpii_comms[w->comm].size, e = MPI_SUCCESS;
    for (int r = 0; r < n; r++)
        if (w->lock[r])
            return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "rank %d's window is already locked by this rank", r);
    for (int r = 0; r < n && !e; r++)      /* every request out first, then the grants */
        if (!(assert & MPI_MODE_NOCHECK))
            e = request(w, r, RMA_LOCK, MPI_LOCK_SHARED, 0);
    for (int r = 0; r < n && !e; r++) {
        if (!(assert & MPI_MODE_NOCHECK))
            e = reply(w, r, TAG_GRANT);
        w->lock[r] = (unsigned char)(LOCK_SHARED_HELD | (assert & MPI_MODE_NOCHECK ? LOCK_NOCHECK : 0));
    }
    w->lock_all = !e;
    return e;
}

int MPI_Win_unlock_all(MPI_Win win)
{
    MPII_ENTER("MPI_Win_unlock_all");
    WIN_OR_ERR(w, win);
    int n = mpii_comms[w->comm].size, e = MPI_SUCCESS;
    if (!w->lock_all)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "no MPI_Win_lock_all epoch is open");
    for (int r = 0; r < n && !e; r++)
        e = request(w, r, RMA_UNLOCK, MPI_LOCK_SHARED, !!(w->lock[r] & LOCK_NOCHECK));
    if (!e)
        e = take_answers(w, -1);
    for (int r = 0; r < n && !e; r++)
        e = reply(w, r, TAG_ACK);
    memset(w->lock, 0, (size_t)n);
    memset(w->unacked, 0, (size_t)n * sizeof *w->unacked);
    w->lock_all = 0;
    return e;
}

/* The flushes: local completes at the origin only (the answers taken). */
static int flush_call(MPI_Win win, int rank, int local)
{
    WIN_OR_ERR(w, win);
    int e = rank < 0 ? MPI_SUCCESS : rank_ok(w, rank), n = mpii_comms[w->comm].size;
    if (e)
        return e;
    if (rank >= 0 && !w->lock[rank])
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "rank %d's window is not locked by this rank", rank);
    for (int r = rank < 0 ? 0 : rank; r < (rank < 0 ? n : rank + 1) && !e; r++)
        if (w->lock[r])
            e = local ? take_answers(w, r) : flush(w, r);
    return e;
}

int MPI_Win_flush(int rank, MPI_Win win)
{
    MPII_ENTER("MPI_Win_flush");
    return flush_call(win, rank, 0);
}

int MPI_Win_flush_all(MPI_Win win)
{
    MPII_ENTER("MPI_Win_flush_all");
    return flush_call(win, -1, 0);
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
    MPII_ENTER("MPI_Win_flush_local");
    return flush_call(win, rank, 1);
}

int MPI_Win_flush_local_all(MPI_Win win)
{
    MPII_ENTER("MPI_Win_flush_local_all");
    return flush_call(win, -1, 1);
}

/* The window's public and private copies are one memory here: nothing
 * to do (11.5.4). */
int MPI_Win_sync(MPI_Win win)
{
    MPII_ENTER("MPI_Win_sync");
    WIN_OR_ERR(w, win);
    (void)w;
    return MPI_SUCCESS;
}

/* --- post, start, complete, wait -------------------------------------- */

/* The window's ranks of group's members, in out[] (n of them); each must
 * be one. */
static int group_ranks(struct win *w, MPI_Group group, int **out, int *n)
{
    if (!mpii_group_ok(group))
        return mpii_err(w->comm, MPI_ERR_GROUP, "group %d is not valid", group);
    const char *call = mpii_call;
    MPI_Group wg = MPI_GROUP_NULL;
    int e = MPI_Group_size(group, n), *in = NULL;
    if (!e)
        e = MPI_Comm_group(w->comm, &wg);
    if (!e && (!(in = malloc((size_t)(*n + 1) * sizeof *in)) || !(*out = malloc((size_t)(*n + 1) * sizeof **out))))
        e = mpii_err(w->comm, MPI_ERR_NO_MEM, "a group of %d ranks", *n);
    for (int i = 0; !e && i < *n; i++)
        in[i] = i;
    if (!e)
        e = MPI_Group_translate_ranks(group, *n, in, wg, *out);
    if (wg != MPI_GROUP_NULL)
        MPI_Group_free(&wg);
    mpii_call = call;
    for (int i = 0; !e && i < *n; i++)
        if ((*out)[i] == MPI_UNDEFINED)
            e = mpii_err(w->comm, MPI_ERR_GROUP, "the group's rank %d is not in the window's group", i);
    free(in);
    if (e && *out) {
        free(*out);
        *out = NULL;
    }
    return e;
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    MPII_ENTER("MPI_Win_post");
    WIN_OR_ERR(w, win);
    int *ranks = NULL, n, e;
    (void)assert;                    /* the assertions are hints (11.5.5) */
    if (w->exposed)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_post's epoch is already open: call MPI_Win_wait");
    if ((e = group_ranks(w, group, &ranks, &n)))
        return e;
    w->exposed = 1;
    w->expected = n;
    w->done = 0;
    for (int i = 0; i < n && !e; i++)
        e = answer(w, ranks[i], TAG_POST);
    free(ranks);
    return e;
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    MPII_ENTER("MPI_Win_start");
    WIN_OR_ERR(w, win);
    int *ranks = NULL, n, e;
    if (w->accessing)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_start's epoch is already open: call MPI_Win_complete");
    if ((e = group_ranks(w, group, &ranks, &n)))
        return e;
    for (int i = 0; i < n && !e; i++) {
        if (!(assert & MPI_MODE_NOCHECK))
            e = reply(w, ranks[i], TAG_POST);
        w->access[ranks[i]] = 1;
    }
    free(ranks);
    w->accessing = 1;
    return e;
}

int MPI_Win_complete(MPI_Win win)
{
    MPII_ENTER("MPI_Win_complete");
    WIN_OR_ERR(w, win);
    int n = mpii_comms[w->comm].size, e = MPI_SUCCESS;
    if (!w->accessing)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "no MPI_Win_start epoch is open");
    for (int r = 0; r < n && !e; r++)
        if (w->access[r])
            e = request(w, r, RMA_DONE, 0, 0);
    if (!e)
        e = take_answers(w, -1);
    for (int r = 0; r < n; r++)
        if (w->access[r])
            w->access[r] = 0, w->unacked[r] = 0;
    w->accessing = 0;
    return e;
}

/* The requests of w there served; whether its post's origins are done. */
static int exposure_done(struct win *w);

int MPI_Win_wait(MPI_Win win)
{
    MPII_ENTER("MPI_Win_wait");
    WIN_OR_ERR(w, win);
    if (!w->exposed)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "no MPI_Win_post epoch is open");
    struct net_pattern p;
    mpii_pattern(&p, &mpii_comms[w->comm], mpii_comms[w->comm].ctx, MPI_ANY_SOURCE, TAG_REQ);
    while (!exposure_done(w))
        mpii_await_pattern(&p);
    w->exposed = 0;
    return MPI_SUCCESS;
}

int MPI_Win_test(MPI_Win win, int *flag)
{
    MPII_ENTER("MPI_Win_test");
    WIN_OR_ERR(w, win);
    OUT_OR_ERR(w->comm, flag);
    if (!w->exposed)
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "no MPI_Win_post epoch is open");
    *flag = exposure_done(w);
    if (*flag)
        w->exposed = 0;
    return MPI_SUCCESS;
}

/* --- dynamic windows' memory ----------------------------------------- */

int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    MPII_ENTER("MPI_Win_attach");
    WIN_OR_ERR(w, win);
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return mpii_err(w->comm, MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_create_dynamic");
    if (size < 0)
        return mpii_err(w->comm, MPI_ERR_SIZE, "size %ld; accepted: 0 or more bytes", (long)size);
    struct region *r = realloc(w->regions, (size_t)(w->nregions + 1) * sizeof *r);
    if (!r)
        return mpii_err(w->comm, MPI_ERR_NO_MEM, "%d regions attached", w->nregions + 1);
    w->regions = r;
    w->regions[w->nregions++] = (struct region){ (uintptr_t)base, size };
    return MPI_SUCCESS;
}

int MPI_Win_detach(MPI_Win win, const void *base)
{
    MPII_ENTER("MPI_Win_detach");
    WIN_OR_ERR(w, win);
    for (int i = 0; i < w->nregions; i++)
        if (w->regions[i].base == (uintptr_t)base) {
            w->regions[i] = w->regions[--w->nregions];
            return MPI_SUCCESS;
        }
    return mpii_err(w->comm, MPI_ERR_RMA_ATTACH, "no memory attached at %p", base);
}

/* --- as target ------------------------------------------------------- */

static int conflicts(const struct win *w, int excl)
{
    return w->excl >= 0 || (excl && w->shared > 0);
}

static int grant(struct win *w, int rank, int excl)
{
    if (excl)
        w->excl = rank;
    else
        w->shared++;
    return answer(w, rank, TAG_GRANT);
}

/* Lock requests that no longer conflict granted, in the order they came. */
static int grant_waiting(struct win *w)
{
    int e = MPI_SUCCESS;
    while (w->nwaiting && !e && !conflicts(w, w->waiting[0] & 1)) {
        int x = w->waiting[0];
        memmove(w->waiting, w->waiting + 1, (size_t)--w->nwaiting * sizeof *w->waiting);
        e = grant(w, x >> 1, x & 1);
    }
    return e;
}

/* Request h of rank src. A request no origin of this library sends is
 * refused, naming it, as any value a node wrote is checked. */
static int serve_request(struct win *w, int src, const struct rma *h)
{
    int excl = h->op == MPI_LOCK_EXCLUSIVE;
    switch (h->kind) {
    case RMA_LOCK:
        if (w->nwaiting || conflicts(w, excl)) {
            if (w->nwaiting == mpii_comms[w->comm].size)
                return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "rank %d asks a second lock while waiting", src);
            w->waiting[w->nwaiting++] = src * 2 + excl;
            return MPI_SUCCESS;
        }
        return grant(w, src, excl);
    case RMA_UNLOCK:
        if (!h->count) {             /* a lock this target granted */
            if (excl ? w->excl != src : w->shared <= 0)
                return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "rank %d releases a lock it does not hold", src);
            if (excl)
                w->excl = -1;
            else
                w->shared--;
        }
        {
            int e = answer(w, src, TAG_ACK);
            return e ? e : grant_waiting(w);
        }
    case RMA_FLUSH:
        return answer(w, src, TAG_ACK);
    case RMA_DONE:
        w->done++;
        return MPI_SUCCESS;
    case RMA_PUT: case RMA_GET: case RMA_ACC: case RMA_GACC: case RMA_CAS:
        return mpii_win_serve_op(w, src, h, TAG_REQ, TAG_ANSWER);
    default:
        return mpii_err(w->comm, MPI_ERR_RMA_SYNC, "rank %d sent a request of kind %d", src, (int)h->kind);
    }
}

/* Every request of w there served, one at a time. */
static void serve_there(struct win *w)
{
    struct mpii_comm *c = &mpii_comms[w->comm];
    if (mpii_win_serving)
        return;
    mpii_win_serving = 1;
    while (mpii_arrived(c, c->ctx, MPI_ANY_SOURCE, TAG_REQ)) {
        struct rma h;
        MPI_Status st;
        if (mpii_recv(c, c->ctx, &h, sizeof h, MPI_ANY_SOURCE, TAG_REQ, &st) ||
            serve_request(w, st.MPI_SOURCE, &h))
            break;                   /* the window's handler saw it (fatal by default) */
    }
    mpii_win_serving = 0;
}

static int exposure_done(struct win *w)
{
    serve_there(w);
    return w->done >= w->expected;
}

int mpii_win_patterns(struct net_pattern *p, int *which, int room)
{
    int n = 0;
    if (!mpii_win_count || mpii_win_serving)
        return 0;
    for (int i = 0; i < MAX_WINS && n < room; i++) {
        struct win *w = mpii_win_of(i);
        if (!w)
            continue;
        mpii_pattern(&p[n], &mpii_comms[w->comm], mpii_comms[w->comm].ctx, MPI_ANY_SOURCE, TAG_REQ);
        which[n++] = i;
    }
    return n;
}

void mpii_win_serve(int which)
{
    struct win *w = mpii_win_of(which);
    if (w)
        serve_there(w);
}

void mpii_win_serve_all(void)
{
    for (int i = 0; mpii_win_count && !mpii_win_serving && i < MAX_WINS; i++)
        mpii_win_serve(i);
}
