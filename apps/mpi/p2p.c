/* MPI point to point (MPI-3.1 chapter 3) over the NIC's messages.
 *
 * Sends are eager: net_send() returns once the NIC holds the data, so
 * MPI_Send, MPI_Rsend and MPI_Isend complete at once (MPI allows a
 * standard send to buffer), unless the NIC has no room (below). MPI_Ssend
 * also waits for the receiver's acknowledgement, sent when the matching
 * receive completes. A message
 * longer than the NIC's msg_max goes as several (mpii.h).
 *
 * Matching order: a receive takes the first message, in arrival order, of
 * its source (or any) and tag (or any) within its communicator's context
 * (the NIC's masked match, netdev/net.h); MPI's rule that receives are
 * matched in the order they were posted holds because completing a
 * receive first completes every earlier pending receive that could take
 * the same messages.
 *
 * Probing a message longer than msg_max: only the whole gives the count
 * MPI_Probe reports, so the probe takes it out of the NIC into the library
 * (`held`, below), with every message of the same sender and
 * communicator that arrived before it, each whole and in order: what is
 * held of a sender and context is always the front of its queue, so
 * receives and probes, which look there before the NIC, keep MPI's
 * non-overtaking rule.
 */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"
#include "../../netdev/net.h"

/* What a receive or probe from MPI_PROC_NULL gives (MPI-3.1 3.11): source
 * MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
#define PROC_NULL_STATUS ((MPI_Status){ .MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG })

/* REQ_SSEND: an Issend whose data went, waiting for the receiver's
 * acknowledgement (ppeer: the node, ctx and tag its wire tag's).
 * REQ_RMA: a request-based get, waiting for its answer (ppeer: the
 * window, pcount: its generation, src: the target, seq: the ticket;
 * mpii_req_rma). */
enum { REQ_FREE = 0, REQ_DONE, REQ_RECV, REQ_COLL, REQ_PERSIST, REQ_SSEND, REQ_RMA };
struct req {
    int state;
    unsigned long seq;               /* posting order of receives */
    MPI_Comm comm;
    uint32_t ctx;
    void *buf;                       /* where the data lands: the user's, or a packed copy */
    size_t cap;
    int src, tag;
    MPI_Status st;
    void *user;                      /* a type not contiguous: unpacked into user at completion */
    MPI_Datatype type;               /* that type while its copy waits; user may be MPI_BOTTOM (0) */
    struct mpii_sched *sched;        /* REQ_COLL: a nonblocking collective (apps/mpi/icoll.c) */
    /* REQ_PERSIST: the call MPI_Start makes (enum persist_kind), and the
     * request it started, MPI_REQUEST_NULL while inactive */
    int pkind, pcount, ppeer, ptag;  /* (REQ_RECV: ppeer ORPHAN once MPI_Request_free freed it) */
    void *pbuf;
    MPI_Datatype ptype;
    MPI_Request inner;
    int prev, next;                  /* REQ_RECV: the posted-receive queue's links */
};
enum persist_kind { P_SEND, P_SSEND, P_BSEND, P_RECV };
/* A receive the program freed before it completed (MPI_Request_free): it
 * stays posted, completes on its own when its message comes (settle or
 * progress takes it, as any pending receive), and its slot, REQ_DONE
 * then, is reclaimed by the next MPI_Request_free. No node is this. */
#define ORPHAN INT_MIN
static struct req *reqs;
static int nreqs;
static unsigned long next_seq;

static int comm_rank_of_node(const struct mpii_comm *c, int node)
{
    if (c->identity)
        return node;                 /* rank = node: COMM_WORLD and its duplicates */
    for (int r = 0; r < c->size; r++)
        if (c->world[r] == node)
            return r;
    return MPI_UNDEFINED;
}

/* The router's bounds. It stops a node whose NIC queue, or whose arrived
 * and unreceived messages, pass held_max (net_held_max), each message
 * counting its payload and NIC_MSG_HELD_BYTES. Its queue is a fluid
 * model (host/engine/engine.c, engine_nic_queue_check): each send adds its
 * bytes, and the queue drains at the NIC's full rate (net_nic_rate). The
 * library keeps it under a quarter of held_max. It counts what it sends,
 * an upper bound of the model, and only when that passes the bound
 * computes how much the model has drained (from a clock reading a little
 * earlier than the sends' own times, so never under the router's), which
 * costs a division: once in a quarter of held_max of sends. A message
 * that would still pass the bound first waits for every earlier send to
 * leave (net_wait_sent), as a send waits for room in a real NIC's queue,
 * and then completes the pending receives whose messages came (progress):
 * while it waited, at most what its own NIC sent in that time arrived
 * through a one-port node's ejection channel, so its mailbox stays under
 * held_max too. An eager message leaves whether or not its receiver has
 * posted, so the wait ends. Between the pieces of one message (one longer
 * than the bound) it only waits: a receive there could wait for a peer
 * that is itself between pieces. So a window of MPI_Isend calls larger
 * than held_max, as osu_bw's and osu_bibw's 64 sends of 2 MiB, runs in
 * steps instead of stopping the run. Under rendezvous (net_eager_max) a
 * long message leaves only once its receiver has posted: two ranks that
 * both waited so for their sends would wait for ever (their posted
 * receives are the library's until a wait takes them), so the library
 * does not wait there, and the router's bound stands as it is. */
static void progress(void);
static size_t queued;                /* at least the fluid queue, bytes (exact as of queued_ns) */
static uint64_t queued_ns;
static size_t bound;                 /* a quarter of held_max, read at the first send */
static int making_room;

/* The fluid queue now, drained since queued_ns. */
static size_t queue_now(void)
{
    uint64_t now = net_time_ns(), dt = now - queued_ns;
    uint32_t bytes, ps;
    net_nic_rate(&bytes, &ps);
    if (dt > (1ull << 40) || !ps)    /* 18 minutes: drained whatever it held (and no overflow) */
        queued = 0;
    else {
        uint64_t drained = dt * 1000 * bytes / ps;
        queued = drained >= queued ? 0 : queued - (size_t)drained;
    }
    queued_ns = now;
    return queued;
}

/* 1 if `more` bytes would pass the bound, drained as the model says. */
static int past_bound(size_t more)
{
    if (!bound)
        bound = net_eager_max() ? SIZE_MAX : net_held_max() / 4;
    return bound != SIZE_MAX && queued + more > bound && queue_now() + more > bound;
}

static void drain(void)
{
    net_wait_sent();
    queued = 0;
    queued_ns = net_time_ns();
}

/* Room for a message of len bytes: drained, and the pending receives
 * completed, if it would pass the bound (its first piece's overhead
 * counted; send_piece counts the others). */
static void make_room(size_t len)
{
    if (making_room || !past_bound(len + NIC_MSG_HELD_BYTES))
        return;
    making_room = 1;                 /* progress may send (a nonblocking collective's round) */
    drain();
    progress();
    making_room = 0;
}

static void send_piece(int node, uint32_t wire, const void *p, size_t n)
{
    if (past_bound(n + NIC_MSG_HELD_BYTES))
        drain();
    queued += n + NIC_MSG_HELD_BYTES;
    net_send(node, (int)wire, p, n);
}

int mpii_send(struct mpii_comm *c, uint32_t ctx, const void *buf, size_t len, int dest, int tag, int sync)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int node = c->world[dest];
    uint32_t wire = mpii_wire(ctx, tag) | (sync ? MPII_BIT_SYNC : 0);
    size_t max = net_msg_max(), off = 0;
    const unsigned char *p = buf;
    make_room(len);
    for (;;) {
        size_t n = len - off < max ? len - off : max;
        send_piece(node, wire, p + off, n);
        off += n;
        if (n < max)
            break;
    }
    return MPI_SUCCESS;
}

/* Messages a probe took whole out of the NIC, in arrival order. */
struct held {
    int node;
    uint32_t wire;
    size_t len;
    unsigned char *data;
    struct held *next;
};
static struct held *held_head;

/* The first held message matching (node or NET_ANY, wire under mask), and
 * in *pp the link pointing to it; NULL if none. */
static struct held *held_find(int node, uint32_t wire, uint32_t mask, struct held ***pp)
{
    for (struct held **p = &held_head; *p; p = &(*p)->next)
        if ((node == NET_ANY || (*p)->node == node) && (((*p)->wire ^ wire) & mask) == 0) {
            if (pp)
                *pp = p;
            return *p;
        }
    return NULL;
}

/* The NIC pattern of receives of (src, tag) on ctx. */
static struct net_pattern pattern_of(const struct mpii_comm *c, uint32_t ctx, int src, int tag)
{
    return (struct net_pattern){ src == MPI_ANY_SOURCE ? NET_ANY : c->world[src],
                                 (int)mpii_wire(ctx, tag == MPI_ANY_TAG ? 0 : tag),
                                 tag == MPI_ANY_TAG ? MPII_MASK_ANYTAG : MPII_MASK_TAG };
}

void mpii_pattern(struct net_pattern *p, const struct mpii_comm *c, uint32_t ctx, int src, int tag)
{
    *p = pattern_of(c, ctx, src, tag);
}

/* The first held message of receives of (src, tag) on ctx; NULL if none. */
static struct held *held_find_of(const struct mpii_comm *c, uint32_t ctx, int src, int tag)
{
    struct net_pattern p = pattern_of(c, ctx, src, tag);
    return held_find(p.src, (uint32_t)p.tag, p.mask, NULL);
}

/* The status of a received message (node and wire tag its first
 * piece's, total bytes, got of them kept, trunc if they did not fit cap),
 * its Ssend acknowledged; the error class. */
static int message_status(struct mpii_comm *c, int node, uint32_t wire, size_t got, size_t total, int trunc,
                          size_t cap, MPI_Status *st)
{
    if (wire & MPII_BIT_SYNC)
        send_piece(node, (wire & ~MPII_BIT_SYNC) | MPII_BIT_ACK, NULL, 0);
    if (st) {
        st->MPI_SOURCE = comm_rank_of_node(c, node);
        st->MPI_TAG = (int)(wire & MPII_TAG_MASK);
        st->MPI_ERROR = trunc ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
        st->count_bytes_ = (int)(trunc ? got : total);
        st->cancelled_ = 0;
    }
    if (trunc)
        return mpii_err(c - mpii_comms, MPI_ERR_TRUNCATE, "a message of %lu bytes from rank %d tag %d for a "
                        "%lu-byte buffer", (unsigned long)total, comm_rank_of_node(c, node),
                        (int)(wire & MPII_TAG_MASK), (unsigned long)cap);
    return MPI_SUCCESS;
}

/* The first message of node matching (wire, mask), every piece, taken out
 * of the NIC onto the end of the held list; the error class (out of
 * memory: the message is lost). */
static int hold_one(MPI_Comm comm, int node, uint32_t wire, uint32_t mask, struct held **out)
{
    size_t max = net_msg_max(), cap = 0;
    struct held *h = calloc(1, sizeof *h);
    if (!h)
        return mpii_err(comm, MPI_ERR_NO_MEM, "no memory to hold a probed message");
    struct net_status ns;
    do {
        if (cap < h->len + max) {
            cap = 2 * (h->len + max);
            unsigned char *d = realloc(h->data, cap);
            if (!d) {
                free(h->data);
                free(h);
                return mpii_err(comm, MPI_ERR_NO_MEM, "no memory to hold a probed message of %lu bytes",
                                (unsigned long)cap);
            }
            h->data = d;
        }
        net_recv_masked(node, (int)wire, mask, h->data + h->len, max, &ns);
        h->len += ns.len;
        node = h->node = ns.src;
        wire = h->wire = (uint32_t)ns.tag;
        mask = MPII_MASK_TAG;        /* its other pieces */
    } while (ns.len == max);
    struct held **p = &held_head;
    while (*p)
        p = &(*p)->next;
    *p = *out = h;
    return MPI_SUCCESS;
}

/* A probe found `first`, the first piece of a message of context ctx:
 * when it is as long as msg_max, more pieces follow, and the message is
 * held whole, with every message of its sender in ctx before it. *len:
 * its length. Returns the error class. */
static int hold_if_long(MPI_Comm comm, uint32_t ctx, const struct net_status *first, size_t *len)
{
    *len = first->len;
    if (first->len < net_msg_max())
        return MPI_SUCCESS;
    struct held *h = NULL;
    do {                             /* the sender's messages in ctx, in order, until this one */
        int e = hold_one(comm, first->src, mpii_wire(ctx, 0), MPII_MASK_ANYTAG, &h);
        if (e)
            return e;
    } while (((h->wire ^ (uint32_t)first->tag) & MPII_MASK_TAG) != 0);
    *len = h->len;
    return MPI_SUCCESS;
}

/* Receive one MPI message: its pieces from the node and wire tag of the
 * first. */
static int recv_message(struct mpii_comm *c, uint32_t ctx, void *buf, size_t cap, int src, int tag,
                        MPI_Status *st)
{
    int node = src == MPI_ANY_SOURCE ? NET_ANY : c->world[src];
    uint32_t wire = mpii_wire(ctx, tag == MPI_ANY_TAG ? 0 : tag);
    uint32_t mask = tag == MPI_ANY_TAG ? MPII_MASK_ANYTAG : MPII_MASK_TAG;
    struct held **hp, *h = held_find(node, wire, mask, &hp);
    if (h) {                         /* a probed long message */
        size_t got = h->len < cap ? h->len : cap;
        memcpy(buf, h->data, got);
        *hp = h->next;
        int e = message_status(c, h->node, h->wire, got, h->len, h->len > cap, cap, st);
        free(h->data);
        free(h);
        return e;
    }
    size_t max = net_msg_max(), got = 0, total = 0;
    int trunc = 0;
    unsigned char *p = buf;
    struct net_status ns;
    for (;;) {
        size_t room = trunc || got >= cap ? 0 : cap - got;
        if (room > max)
            room = max;
        if (net_recv_masked(node, (int)wire, mask, p + got, room, &ns))
            trunc = 1;               /* consumed; the rest is drained */
        else
            got += ns.len;
        total += ns.len;
        node = ns.src;
        wire = (uint32_t)ns.tag;
        mask = MPII_MASK_TAG;
        if (ns.len < max)
            break;
    }
    return message_status(c, ns.src, wire, got, total, trunc, cap, st);
}

/* --- matching and progress ------------------------------------------------
 *
 * MPI matches an arrived message to the earliest posted receive it fits
 * (MPI-3.1 3.5). The NIC finds the first arrival of a pattern (source or
 * any, tag or any, one context); so before a receive takes a message, each
 * earlier pending receive of an overlapping pattern whose message is
 * there takes its own first (settle), and while one of them still waits,
 * the receive polls instead of blocking in the NIC, since a later arrival
 * may be that earlier receive's. Waiting anywhere (a receive, an Ssend's
 * acknowledgement, a probe) also completes pending receives whose messages
 * came and progresses the nonblocking collectives (progress), as an MPI
 * progress engine does. */

static int overlaps(const struct req *a, const struct mpii_comm *c, uint32_t ctx, int src, int tag)
{
    return a->state == REQ_RECV && a->ctx == ctx && &mpii_comms[a->comm] == c &&
           (a->src == MPI_ANY_SOURCE || src == MPI_ANY_SOURCE || a->src == src) &&
           (a->tag == MPI_ANY_TAG || tag == MPI_ANY_TAG || a->tag == tag);
}

/* The posted-receive queue: the pending receives in posting order, a list
 * through reqs[].next/prev (indices, which stay valid when reqs grows),
 * as an MPI implementation keeps it. A receive completed in the order
 * posted, the common case, is its head: finding what is posted before it
 * costs nothing. */
static int posted_head = -1, posted_tail = -1;

static void post(int i)
{
    reqs[i].prev = posted_tail;
    reqs[i].next = -1;
    if (posted_tail >= 0)
        reqs[posted_tail].next = i;
    else
        posted_head = i;
    posted_tail = i;
}

static void unpost(struct req *q)
{
    if (q->prev >= 0)
        reqs[q->prev].next = q->next;
    else
        posted_head = q->next;
    if (q->next >= 0)
        reqs[q->next].prev = q->prev;
    else
        posted_tail = q->prev;
}

/* A receive of a type that is not contiguous: its packed copy into place.
 * The packed copy is known by its type, not by the user's buffer, which
 * is MPI_BOTTOM (null) for a type of absolute addresses (MPI-3.1 4.1.5). */
static void unpack_into_user(struct req *q)
{
    if (q->type != MPI_DATATYPE_NULL) {
        mpii_unpack(q->buf, (size_t)q->st.count_bytes_, q->type, q->user);
        free(q->buf);
        q->buf = q->user;
        q->user = NULL;
    }
}

/* Take a pending receive's message, which has arrived. Its error, if any,
 * stays in its status (MPI_ERROR) for its own Wait to return. */
static void take(struct req *q)
{
    q->state = REQ_DONE;
    unpost(q);
    recv_message(&mpii_comms[q->comm], q->ctx, q->buf, q->cap, q->src, q->tag, &q->st);
    unpack_into_user(q);
}

static int take_in_order(struct req *q, int *took);

/* The first message there (held, then in the NIC) of (src, tag) on ctx:
 * its node and wire tag; 0 if none. */
static int first_there(const struct mpii_comm *c, uint32_t ctx, int src, int tag, int *node, uint32_t *wire)
{
    int from = src == MPI_ANY_SOURCE ? NET_ANY : c->world[src];
    uint32_t w = mpii_wire(ctx, tag == MPI_ANY_TAG ? 0 : tag);
    uint32_t mask = tag == MPI_ANY_TAG ? MPII_MASK_ANYTAG : MPII_MASK_TAG;
    struct held *h = held_find(from, w, mask, NULL);
    struct net_status ns;
    if (h) {
        *node = h->node;
        *wire = h->wire;
        return 1;
    }
    if (!net_probe_masked(from, (int)w, mask, &ns))
        return 0;
    *node = ns.src;
    *wire = (uint32_t)ns.tag;
    return 1;
}

/* The earliest pending receive posted before `before` that the message
 * (node, wire) on ctx matches; NULL if none. */
static struct req *owner_of(const struct mpii_comm *c, uint32_t ctx, int node, uint32_t wire, unsigned long before)
{
    for (int i = posted_head; i >= 0 && reqs[i].seq < before; i = reqs[i].next) {
        struct req *r = &reqs[i];
        if (&mpii_comms[r->comm] == c && r->ctx == ctx && (r->src == MPI_ANY_SOURCE || c->world[r->src] == node) &&
            (r->tag == MPI_ANY_TAG || r->tag == (int)(wire & MPII_TAG_MASK)))
            return r;
    }
    return NULL;
}

/* MPI's order rule (MPI-3.1 3.5): a message goes to the earliest posted
 * receive it matches. So while the first message there of (src, tag) is
 * an earlier receive's, that receive takes its own first message (its
 * earlier ones settled the same way first); then what is first is the
 * caller's. Matching each message, not each receive's pattern, keeps to
 * the rule when messages arrive while receives are looked at. */
static void __attribute__((noinline)) hand_over(const struct mpii_comm *c, uint32_t ctx, int src, int tag,
                                                unsigned long before, int *took)
{
    int node;
    uint32_t wire;
    struct req *owner;
    while (first_there(c, ctx, src, tag, &node, &wire) && (owner = owner_of(c, ctx, node, wire, before)) != NULL)
        take_in_order(owner, took);
}

/* Pending receive q takes its first message, once every message there
 * before it that an earlier receive matches went there; 1 if it did, 0
 * if no message of its is left there (an earlier receive took what was),
 * and it still waits. *took counts the receives that took one, q too. */
static int __attribute__((noinline)) take_in_order(struct req *q, int *took)
{
    const struct mpii_comm *c = &mpii_comms[q->comm];
    int node;
    uint32_t wire;
    hand_over(c, q->ctx, q->src, q->tag, q->seq, took);
    if (!first_there(c, q->ctx, q->src, q->tag, &node, &wire))
        return 0;
    take(q);                         /* the message found, which no later arrival can pass */
    ++*took;
    return 1;
}

/* Earlier pending receives overlapping the pattern whose messages are
 * there take them, in posting order (each its own: take_in_order); 1 if
 * one of them still waits. *took is nonzero if one took one. */
static int settle(const struct mpii_comm *c, uint32_t ctx, int src, int tag, unsigned long before, int *took)
{
    int waiting = 0;
    for (int i = posted_head, next; i >= 0 && reqs[i].seq < before; i = next) {
        next = reqs[i].next;         /* take_in_order() unlinks i and earlier ones only */
        if (!overlaps(&reqs[i], c, ctx, src, tag))
            continue;
        if (mpii_arrived(c, reqs[i].ctx, reqs[i].src, reqs[i].tag)) {
            waiting |= !take_in_order(&reqs[i], took);
            ++*took;
        } else
            waiting = 1;
    }
    return waiting;
}

/* One round of progress while this node waits for something else. */
static void progress(void)
{
    for (int i = posted_head, next; i >= 0; i = next) {
        struct req *q = &reqs[i];
        int took = 0;
        if (!settle(&mpii_comms[q->comm], q->ctx, q->src, q->tag, q->seq, &took) &&
            mpii_arrived(&mpii_comms[q->comm], q->ctx, q->src, q->tag))
            take(q);
        next = took ? posted_head : q->next;   /* q and earlier ones may have left the queue */
        if (next == i)
            next = q->next;
    }
    mpii_sched_poke();
    if (mpii_win_live())
        mpii_win_serve_all();
}

/* --- waiting in the NIC with receives pending ----------------------------
 *
 * MPI's progress rule (MPI-3.1 3.7.4): a receive posted is matched when its
 * message comes, whatever its rank waits for meanwhile, so a sender in
 * MPI_Ssend is acknowledged even while the receiver waits for something
 * that sender does only after it. So a wait that would block in the NIC
 * for one message while receives are pending blocks for that one or any
 * of theirs (the NIC's PROBE_ANY, netdev/net.h), and each of theirs that
 * comes first is taken by the earliest pending receive it matches, as
 * progress would. */

/* The earliest pending receive that the MPI message (node, wire) fits,
 * whatever its communicator; NULL if none. */
static struct req *owner_any(int node, uint32_t wire)
{
    uint32_t ctx = (wire >> MPII_CTX_SHIFT) & (MPII_CTX_MAX - 1);
    for (int i = posted_head; i >= 0; i = reqs[i].next) {
        struct req *r = &reqs[i];
        if (r->ctx == ctx && (r->src == MPI_ANY_SOURCE || mpii_comms[r->comm].world[r->src] == node) &&
            (r->tag == MPI_ANY_TAG || r->tag == (int)(wire & MPII_TAG_MASK)))
            return r;
    }
    return NULL;
}

/* Block until a message of `own` (a NIC pattern) is there for the caller,
 * or the caller's pending receive `self` is complete (progress may take
 * it), the pending receives but `self` taking theirs meanwhile. Returns at
 * once when none is pending, the caller then blocking in its receive
 * (which takes a held message of its own first, so none of those comes
 * here). Each pending receive is a pattern of the wait, up to
 * AWAIT_PATTERNS; beyond them, the last pattern is any MPI message but an
 * acknowledgement, which the earliest pending receive it fits takes, or
 * which is held if none does (what is held of a sender stays the front of
 * its queue: every earlier message of it fitted a pattern of the wait, and
 * went). It polls while a nonblocking collective runs, or while a pending
 * receive's message is held (progress takes it). The windows' requests
 * (apps/mpi/win_sync.c) are patterns of the wait too, after its own,
 * served as they come. */
#define AWAIT_PATTERNS 16       /* of NET_PROBE_ANY_MAX: building them is each wake-up's cost */
/* What the caller does next: receive (so with nothing else pending, await
 * leaves the blocking to its RECV), probe (await blocks for its message
 * in any case), or look again at its requests (await returns as soon as a
 * pending receive has taken a message, as well). */
enum await_mode { AWAIT_RECV, AWAIT_PROBE, AWAIT_STEP };
static void await(struct net_pattern own, const struct req *self, enum await_mode mode)
{
    struct net_pattern p[MPII_MAX_WINS + AWAIT_PATTERNS];
    const struct mpii_comm *pc[MPII_MAX_WINS + AWAIT_PATTERNS];
    uint32_t pctx[MPII_MAX_WINS + AWAIT_PATTERNS];
    int which[MPII_MAX_WINS + AWAIT_PATTERNS];
    struct net_status ns;
    if (mode == AWAIT_RECV && posted_head < 0 && !mpii_sched_busy() && !mpii_win_live())
        return;                      /* the common case: nothing else waits */
    for (;;) {
        int n, i, held = 0, rest = 0, nwin;
        if (self && self->state != REQ_RECV)
            return;                  /* progress took the caller's own */
        p[0] = own;
        nwin = mpii_win_live() ? mpii_win_patterns(p + 1, which + 1, MPII_MAX_WINS) : 0;
        n = 1 + nwin;
        for (i = posted_head; i >= 0; i = reqs[i].next) {
            const struct req *q = &reqs[i];
            if (q == self)
                continue;
            if (held_head && held_find_of(&mpii_comms[q->comm], q->ctx, q->src, q->tag))
                held = 1;
            if (n == nwin + AWAIT_PATTERNS - 1) {
                rest = 1;            /* the wildcard stands for it, and for every later one */
                if (held_head)
                    continue;        /* (each is looked at for a held message) */
                break;
            }
            pc[n] = &mpii_comms[q->comm];
            pctx[n] = q->ctx;
            p[n] = pattern_of(pc[n], q->ctx, q->src, q->tag);
            n++;
        }
        if (rest)
            p[n++] = (struct net_pattern){ NET_ANY, (int)MPII_BIT_MPI, MPII_BIT_MPI | MPII_BIT_ACK };
        if (n == 1 && !mpii_sched_busy() && mode == AWAIT_RECV)
            return;
        if (held || mpii_sched_busy()) {
            if (net_probe_masked(own.src, own.tag, own.mask, &ns))
                return;
            progress();
            if (mode == AWAIT_STEP)
                return;
            continue;
        }
        int k = net_probe_any(p, n, &ns);
        if (k == 0)
            return;
        if (k <= nwin) {
            mpii_win_serve(which[k]);
            if (mode == AWAIT_STEP)
                return;
            continue;
        }
        struct req *owner = rest && k == n - 1 ? owner_any(ns.src, (uint32_t)ns.tag) :
                            owner_of(pc[k], pctx[k], ns.src, (uint32_t)ns.tag, ~0ul);
        struct held *h;
        if (owner)
            take(owner);             /* the earliest receive it fits; nothing there before it does */
        else if (rest && k == n - 1) {
            if (hold_one(MPI_COMM_WORLD, ns.src, (uint32_t)ns.tag, MPII_MASK_TAG, &h))
                return;              /* no memory (an error the program's handler saw): wait as before */
        } else
            progress();
        if (mode == AWAIT_STEP)
            return;
    }
}

void mpii_await_pattern(const struct net_pattern *p)
{
    await(*p, NULL, AWAIT_PROBE);
}

/* A message of node with tag (the project's collectives in an MPI image,
 * apps/mpi/view.c) is there, the pending receives taking theirs meanwhile. */
void mpii_await_node(int node, int tag)
{
    await((struct net_pattern){ node, tag, 0 }, NULL, AWAIT_RECV);
}

/* A blocking receive of (ctx, src, tag), posted after every pending one
 * (seq), into buf; st gets its status. Returns its error class. */
static int receive(struct mpii_comm *c, uint32_t ctx, void *buf, size_t cap, int src, int tag, unsigned long seq,
                   MPI_Status *st)
{
    for (;;) {
        int took = 0, waiting = settle(c, ctx, src, tag, seq, &took);
        if (!waiting && !mpii_sched_busy()) {
            if (!held_find_of(c, ctx, src, tag))
                await(pattern_of(c, ctx, src, tag), NULL, AWAIT_RECV);
            break;                   /* nothing else can take it: block in the NIC */
        }
        if (mpii_arrived(c, ctx, src, tag)) {
            took = 0;
            hand_over(c, ctx, src, tag, seq, &took);
            if (!took)               /* what is first is no earlier receive's */
                break;
            continue;
        }
        progress();
    }
    return recv_message(c, ctx, buf, cap, src, tag, st);
}

/* Wait for a pending receive: it stays posted, and progress may take its
 * message meanwhile; it blocks in the NIC only when nothing else can. */
static int complete_recv(struct req *q)
{
    const struct mpii_comm *c = &mpii_comms[q->comm];
    while (q->state == REQ_RECV) {
        int took = 0, waiting = settle(c, q->ctx, q->src, q->tag, q->seq, &took);
        if (!waiting && !mpii_sched_busy()) {
            if (!held_find_of(c, q->ctx, q->src, q->tag))
                await(pattern_of(c, q->ctx, q->src, q->tag), q, AWAIT_RECV);   /* (its polling's progress may take q) */
            if (q->state == REQ_RECV)
                take(q);             /* nothing else can take it: block in the NIC */
            break;
        }
        if (mpii_arrived(c, q->ctx, q->src, q->tag)) {
            took = 0;
            hand_over(c, q->ctx, q->src, q->tag, q->seq, &took);
            if (!took)               /* what is first is no earlier receive's */
                take(q);
            continue;
        }
        progress();
    }
    return q->st.MPI_ERROR;
}

int mpii_recv(struct mpii_comm *c, uint32_t ctx, void *buf, size_t cap, int src, int tag, MPI_Status *st)
{
    if (src == MPI_PROC_NULL) {
        if (st)
            *st = PROC_NULL_STATUS;
        return MPI_SUCCESS;
    }
    MPI_Status own;
    int e = receive(c, ctx, buf, cap, src, tag, next_seq, st ? st : &own);
    return e;
}

/* An Ssend's acknowledgement from node, waited for with progress. */
static void wait_ack(int node, uint32_t ctx, int tag)
{
    struct net_status ns;
    int wire = (int)(mpii_wire(ctx, tag) | MPII_BIT_ACK);
    await((struct net_pattern){ node, wire, MPII_MASK_TAG }, NULL, AWAIT_RECV);
    net_recv_masked(node, wire, MPII_MASK_TAG, NULL, 0, &ns);
}

/* --- argument checks -------------------------------------------------- */

/* A buffer of count elements of t. MPI_IN_PLACE is a collective's
 * argument, never a buffer of point to point (MPI-3.1 5.2.1). A null
 * pointer is MPI_BOTTOM, where a type of absolute displacements finds its
 * data, so it is refused only where the data would lie from address 0 on:
 * some bytes of a contiguous type (as Open MPI refuses it). Either would
 * otherwise be read or written, and the node stop on a data abort. */
static int buf_ok(MPI_Comm comm, const void *buf, int count, MPI_Datatype t)
{
    if (buf == MPI_IN_PLACE)
        return mpii_err(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not a buffer of point to point");
    if (!buf && count > 0 && mpii_type_size(t) > 0 && mpii_type_contig(t))
        return mpii_err(comm, MPI_ERR_BUFFER, "a null buffer for %d elements of datatype %d", count, t);
    return MPI_SUCCESS;
}

static int check_buf(MPI_Comm comm, struct mpii_comm **cp, const void *buf, int count, MPI_Datatype t, int peer,
                     int any_ok, int tag, int tag_any_ok, size_t *len)
{
    int e = mpii_check(comm, cp, count, t, MPII_NO_ROOT, MPII_P2P, len);
    if (!e)
        e = buf_ok(comm, buf, count, t);
    if (e)
        return e;
    struct mpii_comm *c = *cp;
    if (!(peer == MPI_PROC_NULL || (any_ok && peer == MPI_ANY_SOURCE) || (peer >= 0 && peer < c->size)))
        return mpii_err(comm, MPI_ERR_RANK, "rank %d; accepted: 0..%d%s", peer, c->size - 1,
                        any_ok ? ", MPI_ANY_SOURCE or MPI_PROC_NULL" : " or MPI_PROC_NULL");
    if (!((tag_any_ok && tag == MPI_ANY_TAG) || (tag >= 0 && tag <= MPI_TAG_UB_VALUE)))
        return mpii_err(comm, MPI_ERR_TAG, "tag %d; accepted: 0..%d%s", tag, MPI_TAG_UB_VALUE,
                        tag_any_ok ? " or MPI_ANY_TAG" : "");
    if (mpii_isa_mixed)              /* a type of another size at the peer (apps/mpi/isa.c) */
        return mpii_isa_peer(comm, c, t, peer);
    return MPI_SUCCESS;
}

/* Send and receive count elements of t: a type that is not contiguous
 * goes through a packed copy (apps/mpi/typemap.c). */
static int send_typed(struct mpii_comm *c, const void *buf, int count, MPI_Datatype t, size_t len, int dest,
                      int tag, int sync)
{
    if (mpii_type_contig(t))
        return mpii_send(c, c->ctx, buf, len, dest, tag, sync);
    void *tmp = malloc(len ? len : 1);
    if (!tmp)
        return mpii_err(c - mpii_comms, MPI_ERR_NO_MEM, "%lu bytes to pack a message", (unsigned long)len);
    mpii_pack(buf, count, t, tmp);
    int e = mpii_send(c, c->ctx, tmp, len, dest, tag, sync);
    free(tmp);
    return e;
}

static int recv_typed(struct mpii_comm *c, void *buf, MPI_Datatype t, size_t len, int src, int tag, MPI_Status *st)
{
    if (mpii_type_contig(t))
        return mpii_recv(c, c->ctx, buf, len, src, tag, st);
    MPI_Status own;
    void *tmp = malloc(len ? len : 1);
    if (!tmp)
        return mpii_err(c - mpii_comms, MPI_ERR_NO_MEM, "%lu bytes to unpack a message", (unsigned long)len);
    int e = mpii_recv(c, c->ctx, tmp, len, src, tag, st ? st : &own);
    mpii_unpack(tmp, (size_t)(st ? st : &own)->count_bytes_, t, buf);
    free(tmp);
    return e;
}

/* A send; with sync, its data marked for an acknowledgement, which the
 * caller awaits (wait_ack) unless it keeps a request for it (keep). */
static int send_call(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, int sync)
{
    struct mpii_comm *c;
    size_t len;
    int e = check_buf(comm, &c, buf, count, t, dest, 0, tag, 0, &len);
    if (!e)
        e = send_typed(c, buf, count, t, len, dest, tag, sync);
    if (!e && sync == 1 && dest != MPI_PROC_NULL)
        wait_ack(c->world[dest], c->ctx, tag);
    return e;
}

int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    MPII_ENTER("MPI_Send");
    return send_call(buf, count, t, dest, tag, comm, 0);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    MPII_ENTER("MPI_Rsend");
    return send_call(buf, count, t, dest, tag, comm, 0);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    MPII_ENTER("MPI_Ssend");
    return send_call(buf, count, t, dest, tag, comm, 1);
}

/* Buffered mode: the sends are eager, so the attached buffer is never
 * held; MPI_Bsend still requires one big enough (MPI-3.1 3.6), so that a
 * program wrong on another MPI is wrong here too. */
static void *bsend_buf;
static int bsend_size;

int MPI_Buffer_attach(void *buffer, int size)
{
    MPII_ENTER("MPI_Buffer_attach");
    if (bsend_buf)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_BUFFER, "a buffer is attached already");
    if (size < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "size %d is negative", size);
    bsend_buf = buffer;
    bsend_size = size;
    return MPI_SUCCESS;
}

int MPI_Buffer_detach(void *buffer_addr, int *size)
{
    MPII_ENTER("MPI_Buffer_detach");
    OUT_OR_ERR(MPI_COMM_WORLD, buffer_addr);
    OUT_OR_ERR(MPI_COMM_WORLD, size);
    *(void **)buffer_addr = bsend_buf;
    *size = bsend_size;
    bsend_buf = NULL;
    bsend_size = 0;
    return MPI_SUCCESS;
}

static int bsend_call(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    long need = (long)count * mpii_type_size(t) + MPI_BSEND_OVERHEAD;
    if (!bsend_buf || need > bsend_size)
        return mpii_err(comm, MPI_ERR_BUFFER, "%ld bytes (with MPI_BSEND_OVERHEAD) need an attached buffer; "
                        "attached: %d bytes", need, bsend_buf ? bsend_size : 0);
    return send_call(buf, count, t, dest, tag, comm, 0);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    MPII_ENTER("MPI_Bsend");
    return bsend_call(buf, count, t, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Status *st)
{
    MPII_ENTER("MPI_Recv");
    struct mpii_comm *c;
    size_t len;
    int e = check_buf(comm, &c, buf, count, t, source, 1, tag, 1, &len);
    return e ? e : recv_typed(c, buf, t, len, source, tag, st);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *st)
{
    MPII_ENTER("MPI_Sendrecv");
    struct mpii_comm *c;
    size_t slen, rlen;
    int e = check_buf(comm, &c, sendbuf, sendcount, sendtype, dest, 0, sendtag, 0, &slen);
    if (!e)
        e = check_buf(comm, &c, recvbuf, recvcount, recvtype, source, 1, recvtag, 1, &rlen);
    if (!e)
        e = send_typed(c, sendbuf, sendcount, sendtype, slen, dest, sendtag, 0);
    return e ? e : recv_typed(c, recvbuf, recvtype, rlen, source, recvtag, st);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype t, int dest, int sendtag, int source,
                         int recvtag, MPI_Comm comm, MPI_Status *st)
{
    MPII_ENTER("MPI_Sendrecv_replace");
    struct mpii_comm *c;
    size_t len;
    int e = check_buf(comm, &c, buf, count, t, dest, 0, sendtag, 0, &len);
    if (!e)
        e = check_buf(comm, &c, buf, count, t, source, 1, recvtag, 1, &len);
    /* the send is eager: the NIC holds the data before the receive writes buf */
    if (!e)
        e = send_typed(c, buf, count, t, len, dest, sendtag, 0);
    return e ? e : recv_typed(c, buf, t, len, source, recvtag, st);
}

/* --- requests --------------------------------------------------------- */

static int new_req(MPI_Comm comm, MPI_Request *request)
{
    int i = 0;
    while (i < nreqs && reqs[i].state != REQ_FREE)
        i++;
    if (i == nreqs) {
        int n = nreqs ? 2 * nreqs : 64;
        struct req *r = realloc(reqs, (size_t)n * sizeof *r);
        if (!r)
            return mpii_err(comm, MPI_ERR_NO_MEM, "no memory for %d requests", n);
        memset(r + nreqs, 0, (size_t)(n - nreqs) * sizeof *r);
        reqs = r;
        nreqs = n;
    }
    *request = i + 1;
    return MPI_SUCCESS;
}

static int matched_use(MPI_Comm comm);

/* 1 while a request not yet complete uses communicator comm or datatype
 * t (-1: either), or a matched message not yet received uses comm: a
 * freed one stays until then (comm.c, typemap.c). */
int mpii_pending_use(MPI_Comm comm, MPI_Datatype t)
{
    if (comm >= 0 && matched_use(comm))
        return 1;
    for (int i = 0; i < nreqs; i++) {
        const struct req *q = &reqs[i];
        int live = q->state == REQ_RECV || q->state == REQ_SSEND || q->state == REQ_COLL ||
                   q->state == REQ_PERSIST;
        if (live && ((comm >= 0 && q->comm == comm) ||
                     (t > 0 && ((q->state == REQ_RECV && q->type == t) ||
                                (q->state == REQ_PERSIST && q->ptype == t)))))
            return 1;
    }
    return 0;
}

static struct req *req_of(MPI_Request h)
{
    return h >= 1 && h <= nreqs && reqs[h - 1].state != REQ_FREE ? &reqs[h - 1] : NULL;
}

/* mode: 0 standard, 1 synchronous, 2 buffered */
static int isend_call(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request, int mode)
{
    OUT_OR_ERR(comm, request);
    /* synchronous: the data goes now, the acknowledgement is awaited at
     * Wait or Test (sync 2: marked, not awaited here) */
    int e = mode == 2 ? bsend_call(buf, count, t, dest, tag, comm)
                      : send_call(buf, count, t, dest, tag, comm, mode == 1 ? 2 : 0);
    if (e || (e = new_req(comm, request)))
        return e;
    int ssend = mode == 1 && dest != MPI_PROC_NULL;
    reqs[*request - 1] = (struct req){ .state = ssend ? REQ_SSEND : REQ_DONE, .comm = comm,
                                       .ctx = mpii_comms[comm].ctx, .tag = tag,
                                       .ppeer = ssend ? mpii_comms[comm].world[dest] : 0,
                                       .st = { .MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG } };
    return MPI_SUCCESS;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Isend");
    return isend_call(buf, count, t, dest, tag, comm, request, 0);
}

/* Synchronous mode completes at the call: the acknowledgement is awaited
 * there (a later MPI_Wait has nothing left to do). */
int MPI_Issend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    MPII_ENTER("MPI_Issend");
    return isend_call(buf, count, t, dest, tag, comm, request, 1);
}

/* Ready mode: the matching receive is posted (the program's promise), so
 * the eager send is what a standard one is (MPI-3.1 3.7.2). */
int MPI_Irsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Irsend");
    return isend_call(buf, count, t, dest, tag, comm, request, 0);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Ibsend");
    return isend_call(buf, count, t, dest, tag, comm, request, 2);
}

/* Room for the packed copy of a receive of a type that is not
 * contiguous: none from MPI_PROC_NULL, which sends nothing (a byte no
 * request frees, for the request's buffer: a receive from MPI_PROC_NULL
 * completes at once and unpacks nothing). Out of line, so that the
 * instructions of the other receives stay as they were. */
static unsigned char proc_null_copy;
static __attribute__((noinline)) void *packed_copy(size_t len, int source)
{
    return source == MPI_PROC_NULL ? &proc_null_copy : malloc(len ? len : 1);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Irecv");
    OUT_OR_ERR(comm, request);
    struct mpii_comm *c;
    size_t len;
    int e = check_buf(comm, &c, buf, count, t, source, 1, tag, 1, &len);
    if (e || (e = new_req(comm, request)))
        return e;
    struct req *q = &reqs[*request - 1];
    *q = (struct req){ .state = REQ_RECV, .seq = next_seq++, .comm = comm, .ctx = c->ctx, .buf = buf,
                       .cap = len, .src = source, .tag = tag };
    if (!mpii_type_contig(t)) {
        q->user = buf;
        q->type = t;
        if (!(q->buf = packed_copy(len, source))) {
            q->state = REQ_FREE;
            return mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes to unpack a message", (unsigned long)len);
        }
    }
    if (source == MPI_PROC_NULL) {
        q->state = REQ_DONE;
        q->st = PROC_NULL_STATUS;
    } else
        post(*request - 1);
    return MPI_SUCCESS;
}

int mpii_arrived(const struct mpii_comm *c, uint32_t ctx, int src, int tag)
{
    struct net_status ns;
    int node = src == MPI_ANY_SOURCE ? NET_ANY : c->world[src];
    uint32_t wire = mpii_wire(ctx, tag == MPI_ANY_TAG ? 0 : tag);
    uint32_t mask = tag == MPI_ANY_TAG ? MPII_MASK_ANYTAG : MPII_MASK_TAG;
    return held_find(node, wire, mask, NULL) || net_probe_masked(node, (int)wire, mask, &ns);
}

static int ready(struct req *q);
static int complete(struct req *q);

/* A persistent request's started one, waited for; its status kept. */
static int complete_persistent(struct req *q)
{
    if (q->inner == MPI_REQUEST_NULL) {
        q->st = (MPI_Status){ .MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG };
        return MPI_SUCCESS;
    }
    struct req *in = &reqs[q->inner - 1];
    int e = complete(in);
    q->st = in->st;
    in->state = REQ_FREE;
    q->inner = MPI_REQUEST_NULL;
    return e;
}

/* 1 if a request can complete now without waiting. */
static int ready(struct req *q)
{
    if (q->state == REQ_PERSIST)
        return q->inner == MPI_REQUEST_NULL || ready(&reqs[q->inner - 1]);
    if (q->state == REQ_RECV) {      /* earlier receives take theirs first */
        int took = 0;
        settle(&mpii_comms[q->comm], q->ctx, q->src, q->tag, q->seq, &took);
        return mpii_arrived(&mpii_comms[q->comm], q->ctx, q->src, q->tag);
    }
    if (q->state == REQ_COLL)
        return mpii_sched_test(q->sched);
    if (q->state == REQ_SSEND) {
        struct net_status ns;
        return net_probe_masked(q->ppeer, (int)(mpii_wire(q->ctx, q->tag) | MPII_BIT_ACK), MPII_MASK_TAG, &ns);
    }
    if (q->state == REQ_RMA) {       /* a poll: the requests of this rank's windows served too; a
                                        failed take's class kept in the status, for complete() */
        if (mpii_win_answered(q->ppeer, q->pcount, q->src, q->seq, 0, &q->st.MPI_ERROR))
            return 1;
        progress();
        return mpii_win_answered(q->ppeer, q->pcount, q->src, q->seq, 0, &q->st.MPI_ERROR);
    }
    return 1;
}

/* Complete a request, waiting if need be. */
static int complete(struct req *q)
{
    if (q->state == REQ_PERSIST)
        return complete_persistent(q);
    if (q->state == REQ_RECV)
        return complete_recv(q);
    if (q->state == REQ_COLL)
        return mpii_sched_wait(q->sched);
    if (q->state == REQ_SSEND) {
        q->state = REQ_DONE;
        wait_ack(q->ppeer, q->ctx, q->tag);
    }
    if (q->state == REQ_RMA) {
        int err;
        q->state = REQ_DONE;
        mpii_win_answered(q->ppeer, q->pcount, q->src, q->seq, 1, &err);
        if (!q->st.MPI_ERROR)        /* a poll's failed take stays the error */
            q->st.MPI_ERROR = err;
    }
    return q->st.MPI_ERROR;          /* a receive progress completed keeps its error */
}

int mpii_req_sched(MPI_Comm comm, struct mpii_sched *s, MPI_Request *request)
{
    int e = new_req(comm, request);
    if (!e)
        reqs[*request - 1] = (struct req){ .state = REQ_COLL, .comm = comm, .sched = s,
                                           .st = { .MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG } };
    return e;
}

int mpii_req_rma(MPI_Comm comm, MPI_Win win, int gen, int target, unsigned long ticket, MPI_Request *request)
{
    int e = new_req(comm, request);
    if (!e)
        reqs[*request - 1] = (struct req){ .state = ticket ? REQ_RMA : REQ_DONE, .comm = comm, .ppeer = win,
                                           .pcount = gen, .src = target, .seq = ticket,
                                           .st = { .MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG } };
    return e;
}

static void finish(MPI_Request *h, MPI_Status *st)
{
    struct req *q = &reqs[*h - 1];
    if (st)
        *st = q->st;
    if (q->state == REQ_PERSIST)     /* inactive again, its handle kept */
        return;
    q->state = REQ_FREE;
    *h = MPI_REQUEST_NULL;
}

static const MPI_Status empty_status = { .MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG };

/* The request of a handle in *q, NULL for MPI_REQUEST_NULL (st then
 * empty, as MPI says); else an error class. */
static int lookup(MPI_Request *request, MPI_Status *st, struct req **q)
{
    *q = NULL;
    if (*request == MPI_REQUEST_NULL) {
        if (st)
            *st = empty_status;
        return MPI_SUCCESS;
    }
    if (!(*q = req_of(*request)))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request %d is not valid", *request);
    return MPI_SUCCESS;
}

/* An array of count requests: count not negative, and the array there
 * if it holds any (a null one of none is taken, as MPICH takes it). */
static int requests_ok(int count, const MPI_Request *requests)
{
    if (count < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "count %d is negative; accepted: 0 or more", count);
    if (count > 0 && !requests)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter array_of_requests for %d "
                        "requests; accepted: the address of the array", count);
    return MPI_SUCCESS;
}

/* The calls below name themselves once (MPII_ENTER) and call these
 * inner forms, so an error names the call the program made. */
static int wait_one(MPI_Request *request, MPI_Status *st);
static int testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *st);

int MPI_Wait(MPI_Request *request, MPI_Status *st)
{
    MPII_ENTER("MPI_Wait");
    OUT_OR_ERR(MPI_COMM_WORLD, request);
    return wait_one(request, st);
}

static int wait_one(MPI_Request *request, MPI_Status *st)
{
    struct req *q;
    int e = lookup(request, st, &q);
    if (e || !q)
        return e;
    e = complete(q);
    finish(request, st);
    return e;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *st)
{
    MPII_ENTER("MPI_Test");
    OUT_OR_ERR(MPI_COMM_WORLD, request);
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    struct req *q;
    int e = lookup(request, st, &q);
    *flag = 1;
    if (e || !q)
        return e;
    if (!ready(q)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    e = complete(q);
    finish(request, st);
    return e;
}

static int waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    int err = MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        int e = wait_one(&requests[i], statuses ? &statuses[i] : NULL);
        if (e && !err)
            err = MPI_ERR_IN_STATUS;
    }
    return err;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    MPII_ENTER("MPI_Waitall");
    int e = requests_ok(count, requests);
    return e ? e : waitall(count, requests, statuses);
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    MPII_ENTER("MPI_Testall");
    int e = requests_ok(count, requests);
    if (e)
        return e;
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    for (int i = 0; i < count; i++) {
        struct req *q = req_of(requests[i]);
        if (requests[i] != MPI_REQUEST_NULL && !q)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request %d (index %d) is not valid", requests[i], i);
        if (q && !ready(q)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return waitall(count, requests, statuses);
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *st)
{
    MPII_ENTER("MPI_Testany");
    int e = requests_ok(count, requests);
    if (e)
        return e;
    OUT_OR_ERR(MPI_COMM_WORLD, index);
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    return testany(count, requests, index, flag, st);
}

static int testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *st)
{
    int active = 0;
    for (int i = 0; i < count; i++) {
        struct req *q = req_of(requests[i]);
        if (requests[i] != MPI_REQUEST_NULL && !q)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request %d (index %d) is not valid", requests[i], i);
        if (!q || (q->state == REQ_PERSIST && q->inner == MPI_REQUEST_NULL))
            continue;                /* null, or persistent and inactive: not waited on */
        active = 1;
        if (ready(q)) {
            *index = i;
            *flag = 1;
            return wait_one(&requests[i], st);
        }
    }
    *flag = !active;
    *index = MPI_UNDEFINED;
    if (!active && st)
        *st = empty_status;
    return MPI_SUCCESS;
}

/* The first active request of requests[] when every active one is a
 * receive (a persistent one's started receive too); NULL otherwise. */
static struct req *all_receives(int count, const MPI_Request requests[])
{
    struct req *first = NULL;
    for (int i = 0; i < count; i++) {
        struct req *q = req_of(requests[i]);
        if (q && q->state == REQ_PERSIST) {
            if (q->inner == MPI_REQUEST_NULL)
                continue;            /* inactive */
            q = &reqs[q->inner - 1];
        }
        if (!q)
            continue;
        if (q->state != REQ_RECV)
            return NULL;
        if (!first)
            first = q;
    }
    return first;
}

/* Until one completes: when every active request is a receive, each round
 * blocks in the NIC until one of their messages (or another pending
 * receive's) has come (await); else it polls, each round probing every
 * pending receive at the node's present time, the polling's own
 * instructions moving the clock on. */
static int waitany(int count, MPI_Request requests[], int *index, MPI_Status *st)
{
    int flag = 0, e;
    while (!(e = testany(count, requests, index, &flag, st)) && !flag) {
        struct req *q = mpii_sched_busy() ? NULL : all_receives(count, requests);
        if (q)
            await(pattern_of(&mpii_comms[q->comm], q->ctx, q->src, q->tag), q, AWAIT_STEP);
        else
            progress();
    }
    return e;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *st)
{
    MPII_ENTER("MPI_Waitany");
    int e = requests_ok(count, requests);
    if (e)
        return e;
    OUT_OR_ERR(MPI_COMM_WORLD, index);
    return waitany(count, requests, index, st);
}

/* Every request of the array that is complete now, in index order after
 * the first (which Waitsome may have waited for, at index first, ending
 * with error first_e), each with its status. Any that failed make it
 * MPI_ERR_IN_STATUS, each status's MPI_ERROR then its request's class
 * (MPI-3.1 3.7.5, as Waitall). */
static int complete_some(int incount, MPI_Request requests[], int first, int first_e, int *outcount,
                         int indices[], MPI_Status statuses[])
{
    int k = 0, failed = first_e != MPI_SUCCESS;
    if (first != MPI_UNDEFINED) {
        if (statuses)
            statuses[k].MPI_ERROR = first_e;
        indices[k++] = first;
    }
    for (int i = 0; i < incount; i++) {
        struct req *q = req_of(requests[i]);
        if (i == first || !q || (q->state == REQ_PERSIST && q->inner == MPI_REQUEST_NULL) || !ready(q))
            continue;
        int ei = wait_one(&requests[i], statuses ? &statuses[k] : NULL);
        if (statuses)
            statuses[k].MPI_ERROR = ei;
        indices[k++] = i;
        failed |= ei != MPI_SUCCESS;
    }
    *outcount = k;
    return failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

/* 1 if some request of the array is active (not null, not an inactive
 * persistent one); an invalid handle is an error. */
static int any_active(int incount, const MPI_Request requests[], int *active)
{
    *active = 0;
    for (int i = 0; i < incount; i++) {
        struct req *q = req_of(requests[i]);
        if (requests[i] != MPI_REQUEST_NULL && !q)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request %d (index %d) is not valid", requests[i], i);
        if (q && !(q->state == REQ_PERSIST && q->inner == MPI_REQUEST_NULL))
            *active = 1;
    }
    return MPI_SUCCESS;
}

/* At least one request, then every other that is complete at the call
 * (MPI-3.1 3.7.5), in index order after the first, each with its
 * status; MPI_ERR_IN_STATUS if one failed. */
int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    MPII_ENTER("MPI_Waitsome");
    int index = MPI_UNDEFINED, active, e = requests_ok(incount, requests);
    if (e)
        return e;
    OUT_OR_ERR(MPI_COMM_WORLD, outcount);
    if (incount > 0)
        OUT_OR_ERR(MPI_COMM_WORLD, indices);
    if ((e = any_active(incount, requests, &active)))
        return e;                    /* an invalid handle: nothing completed */
    if (!active) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    e = waitany(incount, requests, &index, statuses);   /* e: the request at index failed */
    return complete_some(incount, requests, index, e, outcount, indices, statuses);
}

/* Every request that is complete now, perhaps none (outcount 0); with
 * no active request, outcount MPI_UNDEFINED (MPI-3.1 3.7.5). */
int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    MPII_ENTER("MPI_Testsome");
    int active, e = requests_ok(incount, requests);
    if (e)
        return e;
    OUT_OR_ERR(MPI_COMM_WORLD, outcount);
    if (incount > 0)
        OUT_OR_ERR(MPI_COMM_WORLD, indices);
    if ((e = any_active(incount, requests, &active)))
        return e;
    if (!active) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    return complete_some(incount, requests, MPI_UNDEFINED, MPI_SUCCESS, outcount, indices, statuses);
}

/* Whether a request is complete, and its status, without freeing or
 * deactivating it (MPI-3.1 3.7.3): a receive whose message came takes it
 * now (so its status is known), and stays for Wait or Test to end; a
 * persistent request reports its started one. */
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *st)
{
    MPII_ENTER("MPI_Request_get_status");
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    struct req *q = req_of(request);
    *flag = 1;
    if (request == MPI_REQUEST_NULL) {
        if (st)
            *st = empty_status;
        return MPI_SUCCESS;
    }
    if (!q)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request %d is not valid", request);
    struct req *in = q->state == REQ_PERSIST && q->inner != MPI_REQUEST_NULL ? &reqs[q->inner - 1] : q;
    if (!ready(q)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    if (in->state == REQ_RECV)       /* the arrived message is taken; the request stays */
        complete(in);
    if (st)
        *st = in == q && q->state == REQ_PERSIST ? empty_status : in->st;
    return MPI_SUCCESS;
}

/* Cancel a request (MPI-3.1 3.8.4): a receive not yet matched is removed
 * and completes cancelled; a send has already left (sends are eager), so
 * its cancellation fails, as the standard allows, and it completes
 * normally. Either way Wait or Test still completes the request. */
int MPI_Cancel(MPI_Request *request)
{
    MPII_ENTER("MPI_Cancel");
    OUT_OR_ERR(MPI_COMM_WORLD, request);
    struct req *q = req_of(*request);
    if (!q)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request %d is not valid", *request);
    if (q->state == REQ_COLL)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "a nonblocking collective's request cannot be cancelled");
    if (q->state == REQ_PERSIST && q->inner != MPI_REQUEST_NULL)
        q = &reqs[q->inner - 1];
    if (q->state == REQ_RECV && !ready(q)) {
        unpost(q);
        q->state = REQ_DONE;
        q->st = (MPI_Status){ .MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG, .cancelled_ = 1 };
        unpack_into_user(q);         /* nothing: frees a packed copy */
    }
    return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status *st, int *flag)
{
    MPII_ENTER("MPI_Test_cancelled");
    OUT_OR_ERR(MPI_COMM_WORLD, st);
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    *flag = st->cancelled_ != 0;
    return MPI_SUCCESS;
}

/* --- persistent requests (MPI-3.1 3.9): MPI_Start makes the call each time --- */

static int persistent(enum persist_kind k, const void *buf, int count, MPI_Datatype t, int peer, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    OUT_OR_ERR(comm, request);
    struct mpii_comm *c;
    size_t len;
    int e = check_buf(comm, &c, buf, count, t, peer, k == P_RECV, tag, k == P_RECV, &len);
    if (e || (e = new_req(comm, request)))
        return e;
    reqs[*request - 1] = (struct req){ .state = REQ_PERSIST, .comm = comm, .pkind = k, .pbuf = (void *)buf,
                                       .pcount = count, .ptype = t, .ppeer = peer, .ptag = tag,
                                       .inner = MPI_REQUEST_NULL };
    return MPI_SUCCESS;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Send_init");
    return persistent(P_SEND, buf, count, t, dest, tag, comm, request);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Ssend_init");
    return persistent(P_SSEND, buf, count, t, dest, tag, comm, request);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Bsend_init");
    return persistent(P_BSEND, buf, count, t, dest, tag, comm, request);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Rsend_init");
    return persistent(P_SEND, buf, count, t, dest, tag, comm, request);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    MPII_ENTER("MPI_Recv_init");
    return persistent(P_RECV, buf, count, t, source, tag, comm, request);
}

/* Start a persistent request; the error path names call, the program's. */
static int start(MPI_Request *request, const char *call)
{
    struct req *q = req_of(*request);
    if (!q || q->state != REQ_PERSIST)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request %d is not a persistent request", *request);
    if (q->inner != MPI_REQUEST_NULL)
        return mpii_err(q->comm, MPI_ERR_REQUEST, "request %d is active already (MPI_Start twice without a wait)",
                        *request);
    MPI_Request in;
    int e = q->pkind == P_RECV ? MPI_Irecv(q->pbuf, q->pcount, q->ptype, q->ppeer, q->ptag, q->comm, &in)
                               : isend_call(q->pbuf, q->pcount, q->ptype, q->ppeer, q->ptag, q->comm, &in,
                                            q->pkind == P_SSEND ? 1 : q->pkind == P_BSEND ? 2 : 0);
    mpii_call = call;
    if (!e)
        reqs[*request - 1].inner = in;   /* reqs may have moved: new_req grows it */
    return e;
}

int MPI_Start(MPI_Request *request)
{
    MPII_ENTER("MPI_Start");
    OUT_OR_ERR(MPI_COMM_WORLD, request);
    return start(request, "MPI_Start");
}

int MPI_Startall(int count, MPI_Request requests[])
{
    MPII_ENTER("MPI_Startall");
    int e = requests_ok(count, requests);
    for (int i = 0; i < count && !e; i++)
        e = start(&requests[i], "MPI_Startall");
    return e;
}

/* Free a request (MPI-3.1 3.7.3). A pending receive, started persistent
 * ones' too, is left to complete on its own, into its buffer, when its
 * message comes (ORPHAN), whenever the sender sends it; an Issend still
 * waiting for its acknowledgement and a nonblocking collective complete
 * first. */
int MPI_Request_free(MPI_Request *request)
{
    MPII_ENTER("MPI_Request_free");
    OUT_OR_ERR(MPI_COMM_WORLD, request);
    struct req *q = req_of(*request);
    if (!q)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request %d is not valid", *request);
    for (int i = 0; i < nreqs; i++)  /* freed receives completed since: their slots */
        if (reqs[i].state == REQ_DONE && reqs[i].ppeer == ORPHAN)
            reqs[i].state = REQ_FREE;
    struct req *in = q->state == REQ_PERSIST && q->inner != MPI_REQUEST_NULL ? &reqs[q->inner - 1] : q;
    if (in->state == REQ_RECV) {
        in->ppeer = ORPHAN;
        if (in != q)
            q->state = REQ_FREE;
        *request = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    if (q->state == REQ_PERSIST) {   /* an active one completes first */
        int e = complete_persistent(q);
        reqs[*request - 1].state = REQ_FREE;
        *request = MPI_REQUEST_NULL;
        return e;
    }
    if (q->state != REQ_DONE && q->state != REQ_RMA)
        return wait_one(request, MPI_STATUS_IGNORE);
    finish(request, NULL);           /* a request-based get's answer: taken by its flush or unlock */
    return MPI_SUCCESS;
}

static int probe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *st, int block)
{
    struct mpii_comm *c;
    size_t len;
    int e = check_buf(comm, &c, NULL, 0, MPI_BYTE, source, 1, tag, 1, &len);
    if (e)
        return e;
    if (source == MPI_PROC_NULL) {   /* found at once */
        *flag = 1;
        if (st)
            *st = PROC_NULL_STATUS;
        return MPI_SUCCESS;
    }
    int node = source == MPI_ANY_SOURCE ? NET_ANY : c->world[source];
    uint32_t wire = mpii_wire(c->ctx, tag == MPI_ANY_TAG ? 0 : tag);
    uint32_t mask = tag == MPI_ANY_TAG ? MPII_MASK_ANYTAG : MPII_MASK_TAG;
    struct net_status ns;
    struct held *h;
    for (;;) {
        if ((h = held_find(node, wire, mask, NULL)) != NULL)
            break;                   /* taken out of the NIC by an earlier probe */
        if ((*flag = net_probe_masked(node, (int)wire, mask, &ns)) || !block)
            break;
        await((struct net_pattern){ node, (int)wire, mask }, NULL, AWAIT_PROBE);
    }
    if (h) {
        *flag = 1;
        ns = (struct net_status){ .src = h->node, .tag = (int)h->wire, .len = h->len };
    } else if (*flag) {
        size_t len;                  /* longer than msg_max: its length is its pieces' sum */
        if ((e = hold_if_long(comm, c->ctx, &ns, &len)) != MPI_SUCCESS)
            return e;
        ns.len = len;
    } else {
        return MPI_SUCCESS;
    }
    if (st)
        *st = (MPI_Status){ .MPI_SOURCE = comm_rank_of_node(c, ns.src), .MPI_TAG = ns.tag & (int)MPII_TAG_MASK,
                            .count_bytes_ = (int)ns.len };
    return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *st)
{
    MPII_ENTER("MPI_Probe");
    int flag;
    return probe(source, tag, comm, &flag, st, 1);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *st)
{
    MPII_ENTER("MPI_Iprobe");
    OUT_OR_ERR(comm, flag);
    return probe(source, tag, comm, flag, st, 0);
}

int MPI_Get_count(const MPI_Status *st, MPI_Datatype t, int *count)
{
    MPII_ENTER("MPI_Get_count");
    if (!st)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter status (MPI_STATUS_IGNORE); "
                        "accepted: the status of a receive");
    OUT_OR_ERR(MPI_COMM_WORLD, count);
    int sz = mpii_type_size(t);
    if (!sz && !mpii_type_usable(t))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    if (!sz)                         /* a type of no data: a count of zero (MPI-3.1 3.2.5) */
        *count = 0;
    else
        *count = st->count_bytes_ % sz ? MPI_UNDEFINED : st->count_bytes_ / sz;
    return MPI_SUCCESS;
}

/* --- matched probe (MPI-3.1 3.8.2, 3.8.3) ---------------------------------
 *
 * MPI_Mprobe and MPI_Improbe match a message as a receive would, and take
 * it out of the NIC (or the held list) whole into the library, where no
 * other receive or probe can match it; MPI_Mrecv and MPI_Imrecv receive
 * exactly that message. Earlier pending receives whose messages came
 * take theirs first (settle), as before a receive. The message handle is
 * its slot in `matched` plus 1; MPI_MESSAGE_NO_PROC is one of
 * MPI_PROC_NULL. */
struct matched {
    struct held *h;                  /* NULL: a free slot */
    MPI_Comm comm;
};
static struct matched *matched;
static int nmatched;

static int matched_use(MPI_Comm comm)
{
    for (int i = 0; i < nmatched; i++)
        if (matched[i].h && matched[i].comm == comm)
            return 1;
    return 0;
}

/* The message whose first piece the NIC showed (first), every piece,
 * out of the NIC into *out; the error class. */
static int take_whole(MPI_Comm comm, const struct net_status *first, struct held **out)
{
    size_t max = net_msg_max(), want = first->len < max ? first->len : max, cap = 0;
    int node = first->src;
    uint32_t wire = (uint32_t)first->tag;
    struct held *h = calloc(1, sizeof *h);
    if (!h)
        return mpii_err(comm, MPI_ERR_NO_MEM, "no memory to hold a matched message");
    struct net_status ns;
    do {
        if (cap < h->len + want || !h->data) {
            cap = h->len ? 2 * (h->len + want) : (want ? want : 1);
            unsigned char *d = realloc(h->data, cap);
            if (!d) {
                free(h->data);
                free(h);
                return mpii_err(comm, MPI_ERR_NO_MEM, "no memory to hold a matched message of %lu bytes",
                                (unsigned long)cap);
            }
            h->data = d;
        }
        net_recv_masked(node, (int)wire, MPII_MASK_TAG, h->data + h->len, want, &ns);
        h->len += ns.len;
        h->node = ns.src;
        h->wire = (uint32_t)ns.tag;
        want = max;                  /* its other pieces */
    } while (ns.len == max);
    *out = h;
    return MPI_SUCCESS;
}

static int mprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *st, int block)
{
    /* check_buf's checks of a probe, written out (as in mrecv_check) */
    ANY_COMM_OR_ERR(c, comm);
    if (!(source == MPI_PROC_NULL || source == MPI_ANY_SOURCE || (source >= 0 && source < c->size)))
        return mpii_err(comm, MPI_ERR_RANK, "rank %d; accepted: 0..%d, MPI_ANY_SOURCE or MPI_PROC_NULL", source,
                        c->size - 1);
    if (!(tag == MPI_ANY_TAG || (tag >= 0 && tag <= MPI_TAG_UB_VALUE)))
        return mpii_err(comm, MPI_ERR_TAG, "tag %d; accepted: 0..%d or MPI_ANY_TAG", tag, MPI_TAG_UB_VALUE);
    OUT_OR_ERR(comm, message);
    int e;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        if (st)
            *st = PROC_NULL_STATUS;
        return MPI_SUCCESS;
    }
    for (;;) {                       /* as receive() waits, but taking nothing */
        int took = 0, waiting = settle(c, c->ctx, source, tag, next_seq, &took);
        if (mpii_arrived(c, c->ctx, source, tag)) {
            took = 0;
            if (waiting && (settle(c, c->ctx, source, tag, next_seq, &took), took))
                continue;            /* an earlier receive took what arrived meanwhile */
            break;
        }
        if (!block) {
            *flag = 0;
            return MPI_SUCCESS;
        }
        await(pattern_of(c, c->ctx, source, tag), NULL, AWAIT_PROBE);   /* then an earlier receive may take it */
    }
    int slot = 0;
    while (slot < nmatched && matched[slot].h)
        slot++;
    if (slot == nmatched) {
        int n = nmatched ? 2 * nmatched : 8;
        struct matched *m = realloc(matched, (size_t)n * sizeof *m);
        if (!m)
            return mpii_err(comm, MPI_ERR_NO_MEM, "no memory for %d matched messages", n);
        memset(m + nmatched, 0, (size_t)(n - nmatched) * sizeof *m);
        matched = m;
        nmatched = n;
    }
    int node = source == MPI_ANY_SOURCE ? NET_ANY : c->world[source];
    uint32_t wire = mpii_wire(c->ctx, tag == MPI_ANY_TAG ? 0 : tag);
    uint32_t mask = tag == MPI_ANY_TAG ? MPII_MASK_ANYTAG : MPII_MASK_TAG;
    struct held **hp, *h = held_find(node, wire, mask, &hp);
    struct net_status ns;
    if (h)
        *hp = h->next;               /* a probed long message: out of the held list */
    else if (net_probe_masked(node, (int)wire, mask, &ns) && (e = take_whole(comm, &ns, &h)) != MPI_SUCCESS)
        return e;
    matched[slot] = (struct matched){ .h = h, .comm = comm };
    *message = slot + 1;
    *flag = 1;
    if (st)
        *st = (MPI_Status){ .MPI_SOURCE = comm_rank_of_node(c, h->node), .MPI_TAG = (int)(h->wire & MPII_TAG_MASK),
                            .count_bytes_ = (int)h->len };
    return MPI_SUCCESS;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *st)
{
    MPII_ENTER("MPI_Mprobe");
    int flag;
    return mprobe(source, tag, comm, &flag, message, st, 1);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *st)
{
    MPII_ENTER("MPI_Improbe");
    OUT_OR_ERR(comm, flag);
    return mprobe(source, tag, comm, flag, message, st, 0);
}

/* A matched message handle and a receive buffer of count elements of t
 * checked: *mp the message, NULL for MPI_MESSAGE_NO_PROC; else an error
 * class. */
static int mrecv_check(const void *buf, int count, MPI_Datatype t, const MPI_Message *message, struct matched **mp)
{
    OUT_OR_ERR(MPI_COMM_WORLD, message);
    *mp = NULL;
    if (*message == MPI_MESSAGE_NO_PROC)
        return MPI_SUCCESS;
    if (*message < 1 || *message > nmatched || !matched[*message - 1].h)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "message %d is not a matched message%s", *message,
                        *message == MPI_MESSAGE_NULL ? " (MPI_MESSAGE_NULL)" : "");
    MPI_Comm comm = matched[*message - 1].comm;
    if (count < 0)
        return mpii_err(comm, MPI_ERR_COUNT, "count %d is negative", count);
    if (!mpii_type_usable(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    *mp = &matched[*message - 1];
    /* buf_ok's checks, written out: a call more of it changes how the
     * compiler lays out the sends' and receives' instructions */
    if (buf == MPI_IN_PLACE)
        return mpii_err(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not a buffer of point to point");
    if (!buf && count > 0 && mpii_type_size(t) > 0 && mpii_type_contig(t))
        return mpii_err(comm, MPI_ERR_BUFFER, "a null buffer for %d elements of datatype %d", count, t);
    return MPI_SUCCESS;
}

/* Receive matched message m (NULL: MPI_MESSAGE_NO_PROC) into count
 * elements of t at buf, *message MPI_MESSAGE_NULL after; its status in
 * *st (never null), whose MPI_ERROR is the error class returned. */
static int mrecv(struct matched *m, void *buf, int count, MPI_Datatype t, MPI_Message *message, MPI_Status *st)
{
    *message = MPI_MESSAGE_NULL;
    if (!m) {
        *st = PROC_NULL_STATUS;
        return MPI_SUCCESS;
    }
    struct held *h = m->h;
    MPI_Comm comm = m->comm;
    size_t cap = (size_t)count * (size_t)mpii_type_size(t), got = h->len < cap ? h->len : cap;
    if (mpii_type_contig(t))
        memcpy(buf, h->data, got);
    else
        mpii_unpack(h->data, got, t, buf);
    m->h = NULL;
    int e = message_status(&mpii_comms[comm], h->node, h->wire, got, h->len, h->len > cap, cap, st);
    free(h->data);
    free(h);
    return e;
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype t, MPI_Message *message, MPI_Status *st)
{
    MPII_ENTER("MPI_Mrecv");
    MPI_Status own;
    struct matched *m;
    int e = mrecv_check(buf, count, t, message, &m);
    return e ? e : mrecv(m, buf, count, t, message, st ? st : &own);
}

/* The message is here already: the receive completes at the call, and
 * Wait or Test returns its status and its error (a truncation), as for
 * MPI_Irecv. */
int MPI_Imrecv(void *buf, int count, MPI_Datatype t, MPI_Message *message, MPI_Request *request)
{
    MPII_ENTER("MPI_Imrecv");
    OUT_OR_ERR(MPI_COMM_WORLD, request);
    struct matched *m;
    int e = mrecv_check(buf, count, t, message, &m);
    MPI_Comm comm = m ? m->comm : MPI_COMM_WORLD;
    if (e || (e = new_req(comm, request)))
        return e;
    MPI_Status st;
    mrecv(m, buf, count, t, message, &st);
    reqs[*request - 1] = (struct req){ .state = REQ_DONE, .comm = comm, .st = st };
    return MPI_SUCCESS;
}
