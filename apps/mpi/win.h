/* One-sided communication's inside, shared by apps/mpi/win.c (windows,
 * operations, fences) and apps/mpi/win_sync.c (passive target,
 * post-start-complete-wait, dynamic windows).
 *
 * Every message of a window goes on its own communicator's point-to-point
 * context (a split of the program's, so no program message meets them),
 * with one of these tags: */
#ifndef MPI_WIN_H
#define MPI_WIN_H

#include "mpii.h"

#define MAX_WINS MPII_MAX_WINS
enum win_tag {
    TAG_OP = 1,                      /* a fence's operations, and their data */
    TAG_REPLY,                       /* a fence's answers to gets */
    TAG_REQ,                         /* a request of a lock or PSCW epoch (struct rma, then its data) */
    TAG_ANSWER,                      /* a get's bytes, answering a TAG_REQ */
    TAG_GRANT,                       /* a lock granted */
    TAG_ACK,                         /* an unlock or flush done: every earlier request applied */
    TAG_POST,                        /* MPI_Win_post: the target's window is exposed */
};

/* RMA_LOCK .. RMA_DONE are requests only (win_sync.c). */
enum rma_kind { RMA_PUT = 1, RMA_GET, RMA_ACC, RMA_GACC, RMA_CAS, RMA_LOCK, RMA_UNLOCK, RMA_FLUSH, RMA_DONE };

/* An operation's header on the wire: the same layout on every ISA. A
 * lock's and an unlock's `op` is the lock type; an unlock's `count` is 1
 * when the lock was taken with MPI_MODE_NOCHECK (nothing to release). */
struct rma {
    int32_t kind, op, type, count;   /* count elements of basic type `type` at the target (accumulates) */
    int64_t at, len;                 /* bytes from the window's base (a dynamic window's: the address);
                                        bytes of data (sent, or asked for) */
};

/* An operation at its origin: queued until the fence, or sent at once in
 * a lock or PSCW epoch (then only a get's answer is waited for). */
struct rma_op {
    struct rma h;
    int target;
    unsigned char *data;             /* the origin's packed data (put, accumulates; compare-and-swap: the
                                        new value, then the one compared) */
    void *result;                    /* get, get-accumulate, compare-and-swap: where the answer goes, */
    MPI_Datatype rtype;              /* unpacked as this type */
};

struct region {                      /* memory attached to a dynamic window */
    uintptr_t base;
    MPI_Aint size;
};

struct win {
    int used;
    MPI_Comm comm;                   /* the window's own: a split of the program's */
    void *base;
    MPI_Aint size;
    int disp_unit, flavor, model;
    int epoch;                       /* 1 between fences (the access epoch is open) */
    MPI_Aint *sizes;                 /* every rank's window size in bytes, and disp unit */
    int *units;
    struct rma_op *ops;              /* a fence epoch's, queued */
    int nops, cap;
    char name[MPI_MAX_OBJECT_NAME];
    /* Lock and PSCW epochs (win_sync.c); arrays of one entry a rank. */
    unsigned char *lock;             /* as origin: the lock held at each target (LOCK_*), 0 if none */
    unsigned char *access;           /* as origin: the targets of the open PSCW access epoch */
    size_t *unacked;                 /* as origin: bytes of requests sent to each since its last ACK */
    size_t flow;                     /* as origin: the most of them before it waits for an ACK */
    int lock_all, accessing;         /* MPI_Win_lock_all held; MPI_Win_start's epoch open */
    struct rma_op *gets;             /* as origin: operations sent whose answers are still to come, in order */
    int ngets, gcap;
    unsigned long *asked, *answered; /* as origin: per target, operations sent that get an answer, and
                                        answers taken (a request-based get is complete once its target's
                                        answered count reaches its asked count when it was sent) */
    int gen;                         /* which window of the slot this is (a request outlives its window) */
    int excl, shared;                /* as target: the exclusive lock's holder (-1: none); shared holders */
    int *waiting, nwaiting;          /* as target: lock requests not yet granted, in order (rank * 2 + excl) */
    int exposed, expected, done;     /* as target: MPI_Win_post's epoch; its origins; their DONEs served */
    struct region *regions;          /* a dynamic window's attached memory */
    int nregions;
};

/* Whether the target answers an operation (its old bytes back): every
 * kind but a put and an accumulate, whatever the origin's result pointer
 * (MPI_BOTTOM is a null one, with a type of absolute addresses). */
static inline int rma_answered(const struct rma *h)
{
    return h->kind != RMA_PUT && h->kind != RMA_ACC;
}

/* The bytes of data that follow an operation's header (a compare-and-swap
 * sends the new value and the one compared). */
static inline size_t rma_data_len(const struct rma *h)
{
    return (size_t)h->len * (h->kind == RMA_CAS ? 2 : 1);
}

struct win *mpii_win_of(MPI_Win w);
#define WIN_OR_ERR(w, handle)                                                                       \
    struct win *w = mpii_win_of(handle);                                                            \
    if (!w)                                                                                         \
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_WIN, "window %d is not valid", handle)

/* win.c: operation h of rank src served at this target: its data (if
 * any) comes on data_tag, a get's answer goes back on answer_tag. An
 * operation sent to its target (header, then data), on tag; a get's
 * answer taken into its result. Each returns the error class. */
int mpii_win_serve_op(struct win *w, int src, const struct rma *h, int data_tag, int answer_tag);
int mpii_win_send_op(struct win *w, const struct rma_op *o, int tag);
int mpii_win_take_answer(struct win *w, const struct rma_op *o, int tag);
/* Room for one more in *ops (n of *cap used), or MPI_ERR_NO_MEM naming what. */
int mpii_win_room(struct win *w, struct rma_op **ops, int n, int *cap, const char *what);

/* win_sync.c: each rank's state, made with the window and freed with it;
 * whether the origin is in a lock or PSCW epoch to target; an operation
 * sent to its target at once in such an epoch; whether any such epoch of
 * the window is open (which MPI_Win_free refuses). */
int mpii_win_sync_init(struct win *w, int nranks);
void mpii_win_sync_free(struct win *w);
int mpii_win_synced(const struct win *w, int target);
int mpii_win_issue(struct win *w, struct rma_op *o);
const char *mpii_win_sync_open(const struct win *w);
/* Whether the origin holds a lock (MPI_Win_lock or MPI_Win_lock_all) on
 * target: a passive target epoch, where request-based operations go. */
int mpii_win_passive(const struct win *w, int target);

#endif
