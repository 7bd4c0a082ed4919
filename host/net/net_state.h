/* The network model's state, shared by the cycle model (net_core.c, run by net.c) and its
 * exact jump over periodic stretches (net_jump.h). Not for other users:
 * net_model.h is the interface. */
#ifndef NET_STATE_H
#define NET_STATE_H

#include "net_model.h"

#define NET_MAX_LINK_PORTS (2 * NIC_MAX_DIMS)

struct flit {
    struct net_msg *m;
    uint32_t idx;                   /* 0 = head, flits - 1 = tail */
    uint32_t pos;                   /* a multidestination worm's: the hop of its route it is at */
    uint64_t ready;                 /* cycle it may leave this buffer */
};

/* An input virtual channel: a FIFO of flits and the route of the worm at
 * its front. Wormhole buffers hold buf_flits; the others grow. */
struct ivc {
    struct flit *q;
    uint64_t front_ready;           /* q[head].ready while count > 0 (net_router_step reads it
                                       without touching the flit) */
    uint32_t cap, head, count;      /* cap: a power of two, at least the buffer's room
                                       (buf_flits on a wormhole network; ivc_init) */
    int routed, out_port, out_vc;   /* routed 2: a multidestination worm, its branches in the
                                       router's mbr (kept out of here: 40 bytes an input VC);
                                       out_vc before allocation: -1 any VC, -2 - cls a dateline
                                       class's, -2 - NET_ADAPTIVE the candidates of an adaptive
                                       routing (out_port then the first's, for blocked counts) */
};
#define NET_ADAPTIVE 2

/* The flit j places behind the front of a VC (j < count). */
static inline struct flit *ivc_at(const struct ivc *v, uint32_t j) { return &v->q[(v->head + j) & (v->cap - 1)]; }

/* The outputs of a multidestination worm at one router (net_mc.c): link
 * ports and the ejection channel where it delivers, each with its output
 * VC (-1 until allocated) and the hop of the route the flits enter. */
#define NET_MAX_BRANCHES (NET_MAX_LINK_PORTS + 1)
struct ivc_br {
    int n;
    int port[NET_MAX_BRANCHES], vc[NET_MAX_BRANCHES];
    uint32_t pos[NET_MAX_BRANCHES];
};

/* A multidestination worm's route (net_model.h): hop 0 is its source's
 * router; each hop's children are entered by the link ports `port`. */
struct net_mc_hop {
    int router;
    int copy;                       /* the copy delivered here, or -1 */
    int depth;                      /* links from the source */
    int nkid;
    int kid[NET_MAX_LINK_PORTS], port[NET_MAX_LINK_PORTS];
};

struct oport {
    int to_router;                  /* -1: no link (mesh edge) or an ejection channel */
    int to_port;                    /* the input port it enters there */
    uint32_t *credits;              /* per VC: free downstream slots (wormhole) */
    struct net_msg **owner;         /* per VC: the worm holding it */
    uint32_t rr;                    /* switch: round-robin pointer over input VCs (ip V + vc) */
    uint32_t va_rr[2];              /* VC allocation (round-robin): pointer over input VCs, per
                                     * dateline class (one class off a torus and at ejection) */
    int is_eject;
    uint64_t next_ok;               /* ejection: first cycle it may take the next flit */
    uint64_t *head_cycle;           /* per VC: when the current worm's head crossed (traces) */
    struct link_stats *ls;          /* a link port's counters (n->ls), NULL at ejection (its
                                       flits and worms counted as a flit crosses, push_link) */
};

struct nic_queue {                  /* one injection channel */
    struct net_msg *first, *last;
    uint32_t next_flit;
    uint64_t next_ok;               /* first cycle it may push the next flit */
    int vc;                         /* the VC its front worm's flits enter (nic_vcs > 1: the next
                                       VC after the last worm's with room, taken at its head) */
};

/* What the accelerators keep of a router (net_accel.h's hooks, net_jump.h,
 * net_park.c, net_sleep.c); the cycle model (net_core.c) reads none of it. */
struct router_accel {
    uint32_t nfrozen;               /* of its flits, those in frozen groups (net_jump.c) */
    uint64_t fmask;                 /* bit i: input VC i is in a frozen group (unused if n->wide) */
    uint64_t head_c;                /* the last cycle a head entered one of its input VCs, was
                                       routed or woken here, or a group of its input ports thawed
                                       (net_jump_probe.c: what its input VCs join is as before it) */
    /* Asleep (net_accel.h, acc_router_quiet): a cycle in which nothing moved or was
     * granted here, only blocked worms counted, repeats until a flit or a
     * credit arrives, a front flit becomes ready (wake_at) or a group of
     * its ports freezes or thaws. The loop skips it meanwhile; the blocked
     * cycles it owes (1 per skipped cycle to each worm in slog_m and each
     * link in slog_l) are added when it wakes or a reader needs them
     * (net_sleep_settle). sleep: 0 awake, 1 asleep, 2 woken, owing. */
    int sleep;
    uint64_t sleep_c, wake_at;      /* first cycle not yet owed; first cycle it must step */
    struct net_msg **slog_m;        /* [nin V] */
    int *slog_l;                    /* [nlinkp] link indices (ls) */
    int nslog_m, nslog_l;
    uint64_t parked;                /* bit i: input VC i's front is a parked head (net_parks) */
    uint64_t waking;                /* of them, those whose output released a VC this cycle:
                                       they ask again from the next (net_wake) */
};

/* A router of the network graph. Routers 0 .. nodes-1 each have their
 * node's NIC attached (injection and ejection channels); the routers
 * after them are switches (an indirect network's), whose NIC channels
 * stay unused. Every router has the same port counts; a port with no
 * link has to_router -1. */
struct net_router {
    int up[NET_MAX_LINK_PORTS];     /* per link input port: the router it comes from */
    int up_port[NET_MAX_LINK_PORTS];/* and the output port there */
    struct ivc *in;                 /* [nin * V] */
    uint32_t *in_rr;                /* [nin] switch (round-robin): per input port, pointer over its VCs */
    struct oport *out;              /* [nout] */
    struct nic_queue *inj;          /* [ninj] */
    struct ivc_br **mbr;            /* [nin V]: multidestination worms' branches (net_mc.c), allocated
                                       at the first such worm here */
    int coords[NIC_MAX_DIMS];
    uint64_t busy;                  /* bit i: input VC i holds a flit (unused if n->wide) */
    uint32_t nflits;                /* flits buffered here */
    uint32_t nrouted;               /* input VCs routed (ivc's routed != 0) */
    struct router_accel acc;        /* the accelerators' (net_accel.h): the cycle model never reads it */
    uint32_t queued;                /* messages waiting in its injection channels */
    uint32_t ava_rr;                /* adaptive VC allocation: round-robin pointer over its
                                       input VCs (net_alloc.c, vc_adaptive) */
};

struct credit_ret { int router, port, vc; };

/* The jump (net_jump.h): a worm of a group, with its counters at the
 * probe's c0 and their increments per period. */
struct jmsg {
    struct net_msg *m;
    uint64_t blocked;       /* its blocked cycles at c0 */
    uint32_t f_out;         /* its flits out at c0 */
    uint32_t d;             /* flits out per period */
    uint64_t db;            /* blocked cycles per period */
};
/* A group of ports (net_jump.h): a candidate (recorded, its period looked for), or frozen. */
struct jgroup {
    int *port, nport, port_cap;             /* port ids (net_in_id, net_out_id), ascending */
    uint64_t *w;  size_t len, cap;          /* its canonical state at c0 */
    struct jmsg *msg;  size_t nmsg, msg_cap; /* its worms */
    struct link_stats *ls;  int nls, ls_cap; /* its link ports' counters at c0, then per period */
    uint64_t c0, moves0, wait;              /* a candidate: recorded at c0, when n->moves was moves0,
                                               compared for `wait` cycles before a new record */
    uint64_t c1, P, until;                  /* frozen at c1, period P, thawed at `until` at the latest */
    uint64_t dhops, dmoves;                 /* flit hops and moves per period */
    uint64_t nflits;                        /* flits in it */
    struct jgroup *next_spare;              /* in jprobe's spare list */
    int hix;                                /* frozen: its place in net's heap fz */
};
struct jprobe {
    uint64_t next_try;                      /* the first cycle the next record() may run */
    uint64_t gap;                           /* the wait after a candidate failed, doubled each time */
    uint64_t epoch;                         /* a record's number (net_msg's jmark) */
    uint64_t rest;                          /* no record() before this cycle (JUMP_REST) */
    struct jgroup **cand;  int ncand, cand_cap;
    struct jgroup *spare;                   /* groups done with, their arrays kept for the next */
    uint64_t *mark, stamp;                  /* scratch over the port ids: marked with stamp */
    int *part, npart;                       /* scratch: the ports of a part (part()) */
    int *seed, nseed;                       /* ports whose parts the next record looks at, each once */
    uint64_t *seeded, seedgen;              /* per port id: seedgen when it is in seed */
    struct jgroup **cm;                     /* per port id: the candidate holding it, or NULL */
    uint64_t *rj;  uint8_t *rh;  uint64_t *rstamp; /* scratch per input port and router (part()) */
    uint64_t *bits;                         /* scratch: bitmap over the port ids, empty between uses */
    int *port_r;  uint16_t *port_i;         /* each port id's router and its index there (ip or o),
                                               read rather than divided out (net_port_router) */
};

/* The hooks an accelerator attaches to the cycle model (net.c and net_accel.h call them
 * where it says, net_build.c attaches the jump's, net_jump.c): the cycle
 * model's state is the same with or without them, and each hook may only
 * skip work whose outcome it can give exactly (net_model.h, net_jump.h).
 *   settle      before a reader: every count and every worm's state exact
 *   cycle       the start of cycle c (frozen groups due to thaw)
 *   stepped     after a cycle stepped with no event (look for a period)
 *   head        a head pushed into input port ip of router r, to be
 *               routed from cycle t
 *   touch       a credit returned into frozen group g, acting from t
 *   queued      a message about to be queued on channel ch of node src
 *   reset       something changed that the accelerator had not foreseen
 *   idle_until  every flit frozen: the cycle the clock may go to
 *   free        the network is being freed */
struct jgroup;
struct net_hooks {
    void (*settle)(struct net *n);
    void (*cycle)(struct net *n, uint64_t c);
    void (*stepped)(struct net *n);
    void (*head)(struct net *n, int r, int ip, const struct net_msg *m, uint64_t t);
    void (*touch)(struct net *n, struct jgroup *g, uint64_t t);
    void (*queued)(struct net *n, int src, int ch, int mc);
    void (*reset)(struct net *n);
    uint64_t (*idle_until)(const struct net *n);
    void (*free)(struct net *n);
};

struct net_allocator;               /* below */
/* What the accelerators keep of the network (net_accel.h's hooks,
 * net_jump.h, net_park.c, net_sleep.c); the cycle model (net_core.c)
 * reads none of it. */
struct net_accel {
    int no_accel;                   /* their assumptions fail, so no jump, no parked heads, no
                                       sleep: routes not oblivious (adaptive; the jump foresees
                                       routes), NIC channels of several VCs (nic_vcs: the jump
                                       and the parked heads take a NIC channel as one VC), or
                                       credits in flight (credit_delay) */
    int jump_on;                    /* jump over periodic stretches (net_set_jump): never where its
                                       assumptions fail (no_accel) */
    int plain;                      /* NET_JUMP_CHECK's reference: every router step by the full
                                       code (no fast path, net_core.c), every switch allocation
                                       by the full allocator (none by sw_separable's shortcut),
                                       and no router ever asleep */
    uint64_t heads_waiting;         /* injection channels whose front worm has not begun (net_jump_cycle) */
    uint64_t *hwait;                /* bitmap: nodes with such a channel (a superset: net_jump_cycle
                                       clears a node it finds none in) */
    uint64_t *dormant;              /* bitmap: routers asleep with no cycle to wake at and no NIC
                                       channel able to push, taken out of `active` until a flit or
                                       a credit comes or a group of their ports freezes or thaws
                                       (net_rouse); may overlap `active` */
    uint32_t *sat_n;                /* per link (ls): parked heads waiting on it (net_parks) */
    uint64_t *sat_since;            /* per link: first cycle of its blocked count not yet added */
    int *wk, nwk;                   /* [nr] routers with waking heads, each once (net_wake) */
    int slog_node;                  /* net_router_step: the router whose blocked counts are logged, or -1 */
    uint64_t jumped, jumps;         /* cycles jumped over, and in how many jumps */
    struct jprobe jp;
    struct jgroup **pg;             /* per port id: its frozen group, or NULL (net_jump.c) */
    struct jgroup **fz;  int nfz, fz_cap;   /* the frozen groups: a binary heap, soonest `until` first */
    struct jgroup *stepping;        /* NULL, or the frozen group whose last cycles are being stepped */
    uint64_t frozen_flits, next_thaw;
    uint64_t moves_jumped;          /* flit moves jumped over by thaws */
    uint64_t jids;                  /* net_msg.jid given so far */
};

struct net {
    const struct net_hooks *hk;     /* the accelerator's hooks, or NULL: the bare cycle model */
    const struct net_allocator *al; /* the router allocator (below; net_alloc.c, alloc=) */
    struct topo_shape m;
    struct net_params p;
    int nr;                         /* routers: the nodes', then the switches */
    int nd;                         /* a direct network's dimensions */
    int nlinkp, ninj, nej, nin, nout, V;
    int wide;                       /* nin V > 64: no busy masks, net_router_step scans every VC */
    uint64_t cycle_ps, now, stepped, flit_hops;
    struct net_router *r;
    struct link_stats *ls;
    struct credit_ret *cr;          /* credits returned, not yet usable, in the order of their due */
    uint64_t *cr_due;               /* credit_delay > 0: the cycle each is usable from (else NULL) */
    size_t ncr, cr_cap;
    uint64_t inflight_flits, queued_msgs, undelivered;
    uint64_t moved;                 /* flit moves in the current cycle */
    uint64_t moves;                 /* flit moves in all cycles stepped */
    uint64_t still;                 /* cycles in a row with flits in and none moved */
    struct net_msg *arr_head, *left_head;   /* events of the cycle being simulated */
    struct net_msg *hd_head;                /* heads of notify_head worms that reached their NIC */
    uint64_t *active;               /* bitmap: routers with flits or queued messages outside frozen
                                       groups (a superset: cleared at the end of a cycle stepped),
                                       less the dormant ones */
    net_link_trace_fn trace_fn;
    void *trace_ctx;
    uint32_t vc_room;               /* a VC buffer's room, flits (its credits when empty) */
    int atomic_vc;                  /* a VC is taken only with its buffer downstream empty
                                       (net_vc_free; the routing's atomic flag, net_route.h) */
    int adaptive;                   /* the routing is not oblivious (net_route.h): stalls are
                                       checked for deadlock */
    struct net_accel ac;            /* the accelerators' (net_accel.h) */
    struct net *ref;                /* NET_JUMP_CHECK: the same network, stepped every cycle */
    struct net_msg **shadow;        /* its copies of the messages not yet delivered */
    size_t nshadow, shadow_cap;
    int last_rc;                    /* what net_run last returned */
    int mc_live;                    /* multidestination worms not yet fully delivered */
    char *deadlock;                 /* net_run's -3: the worms and channels (net_mc.c) */
    /* per-cycle scratch */
    int *req_ip, *req_vc;           /* switch requests */
    int *ready_vc;                  /* input VCs (ip V + vc) whose front flit may move */
    int *va_req;                    /* those of them asking for an output VC */
    int *ava_req;                   /* those asking among an adaptive routing's candidates */
    int *taken;                     /* adaptive: the links worms' heads took, each worm's from its
                                       route_at (net_taken) */
    size_t ntaken, taken_cap;
    int *in_pick;                   /* separable switch: each input port's chosen request, or -1 */
    int *out_pick;                  /* output-first switch: each output port's granted request, or -1 */
    uint8_t *in_used, *out_used;    /* ports that moved a flit this cycle */
    int *mc_vc;                     /* ready input VCs holding a routed multidestination worm */
};

/* Each router i with flits or queued messages outside frozen groups (the
 * bitmap `active`), in rank order. The body may clear bits of `active`: the walk reads a copy
 * of each word. */
#define NET_FOR_ACTIVE(n, i)                                                   \
    for (size_t w_ = 0; w_ < ((size_t)(n)->nr + 63) / 64; w_++)                \
        for (uint64_t b_ = (n)->active[w_]; b_; b_ &= b_ - 1)                  \
            for (int i = (int)(w_ * 64) + __builtin_ctzll(b_), once_ = 1; once_; once_ = 0)

static inline void net_activate(struct net *n, int r) { n->active[r / 64] |= 1ull << (r % 64); }

/* The first cycle a worm ready at ns may enter (net_ns_to_cycle_ceil):
 * the first that starts at or after ns, and, under cycles shorter than
 * 1 ns, none of those whose arrivals fall in ns itself (they end by
 * ns + 1 - 1 ps), which the engine runs before it handles anything at ns
 * (engine_advance); so a node answered at ns that posts with no start-up
 * never reaches back before the network's clock, whatever the host did
 * first. Under cycles of 1 ns or more the second bound is never the
 * larger: this is ceil(ns / cycle). */
static inline uint64_t net_ceil_cycle(const struct net *n, uint64_t ns)
{
    uint64_t start = (ns * 1000 + n->cycle_ps - 1) / n->cycle_ps, within = (ns * 1000 + 999) / n->cycle_ps;
    return start > within ? start : within;
}

/* Router i back in `active` if it was dormant (struct net's dormant). */
static inline void net_undormant(const struct net *n, int i)
{
    if (n->ac.dormant[i / 64] >> (i % 64) & 1) {
        n->ac.dormant[i / 64] &= ~(1ull << (i % 64));
        n->active[i / 64] |= 1ull << (i % 64);
    }
}

/* Router r, asleep, is woken by a flit or a credit: stepped from the next
 * cycle it is in `active`. */
static inline void net_rouse(const struct net *n, struct net_router *r)
{
    r->acc.sleep = 2;
    net_undormant(n, (int)(r - n->r));
}


/* Each dormant router i (struct net's dormant), in rank order; the body
 * may clear bits of `dormant`. */
#define NET_FOR_DORMANT(n, i)                                                  \
    for (size_t w_ = 0; w_ < ((size_t)(n)->nr + 63) / 64; w_++)                \
        for (uint64_t b_ = (n)->ac.dormant[w_]; b_; b_ &= b_ - 1)                 \
            for (int i = (int)(w_ * 64) + __builtin_ctzll(b_), once_ = 1; once_; once_ = 0)

/* The VC of injection channel ch of router r its front worm's next flit
 * would enter, or -1 if none has room (a wormhole buffer holds buf_flits;
 * the others grow): the worm's own VC (q->vc), or for a head under
 * nic_vcs > 1 the first VC with room round robin from the one after the
 * last worm's, as BookSim2's terminals pick a packet's VC. */
static inline int net_inj_vc(const struct net *n, const struct net_router *r, int ch)
{
    const struct ivc *in = &r->in[(n->nlinkp + ch) * n->V];
    const struct nic_queue *q = &r->inj[ch];
    const int bounded = n->p.switching == SW_WORMHOLE;
    if (n->p.nic_vcs == 1 || q->next_flit)
        return bounded && in[q->vc].count >= n->p.buf_flits ? -1 : q->vc;
    int k = q->vc;
    for (uint32_t j = 0; j < n->p.nic_vcs; j++) {
        k = k + 1 == (int)n->p.nic_vcs ? 0 : k + 1;
        if (!bounded || in[k].count < n->p.buf_flits)
            return k;
    }
    return -1;
}
/* Whether injection channel ch of router r has no room for its front
 * worm's next flit. */
static inline int net_inj_full(const struct net *n, const struct net_router *r, int ch)
{
    return net_inj_vc(n, r, ch) < 0;
}

/* The VCs an output port has: a link's vcs, an ejection channel's nic_vcs. */
static inline int net_port_vcs(const struct net *n, const struct oport *op)
{
    return op->is_eject ? (int)n->p.nic_vcs : n->V;
}

/* Whether injection channel ch of router r may push its front worm's next
 * flit in cycle c: a worm ready, the NIC's pace, and room in its injection
 * buffer (net_inject_step; net_jump_cycle thaws a head's target in the cycle
 * it enters by the same test). */
static inline int net_nic_can_push(const struct net *n, const struct net_router *r, int ch, uint64_t c)
{
    const struct nic_queue *q = &r->inj[ch];
    return q->first && q->first->c_ready <= c && c >= q->next_ok && !net_inj_full(n, r, ch);
}

/* Each injection channel ch of a node's router i with a message queued on
 * it, q its queue (only nodes' routers inject). */
#define NET_FOR_QUEUED(n, i, ch, q)                                            \
    for (int i = 0; i < (n)->m.nodes; i++)                                     \
        for (int ch = (n)->r[i].queued ? 0 : (n)->ninj; ch < (n)->ninj; ch++)  \
            for (const struct nic_queue *q = &(n)->r[i].inj[ch]; q && q->first; q = NULL)

/* Sleeping routers (struct net_router's sleep): net_sleep_settle adds
 * every sleeping router's owed blocked cycles up to the present (they stay
 * asleep), before anything reads the counters; net_sleep_settle_one does
 * so for router r alone; net_sleep_end also wakes router r, before a group
 * of its ports freezes or thaws. */
void net_sleep_settle(struct net *n);
void net_sleep_settle_one(struct net *n, int r);
void net_sleep_end(struct net *n, int r);

/* The VCs [lo, hi) of output op a unicast head of dateline class cls
 * (-1: any) may take: one class's half on a torus link, the nic_vcs
 * VCs of an ejection channel (VC 0 alone by default). */
static inline void net_class_vcs(const struct net *n, const struct oport *op, int cls, int *lo, int *hi)
{
    *lo = 0;
    *hi = n->V;
    if (op->is_eject) {
        *hi = (int)n->p.nic_vcs;
    } else if (cls >= 0) {
        *lo = cls ? n->V / 2 : 0;
        *hi = cls ? n->V : n->V / 2;
    }
}

/* Whether output VC k of op is free for a new worm: no owner, and where
 * a worm must find the VC's buffer downstream empty, it is: on a network
 * that is not wormhole (room for the whole worm), and under a routing
 * with escape channels (n->atomic_vc: Duato's theorem holds only if a
 * head never takes a VC still holding another worm's tail; behind it,
 * the head is committed to that VC and cannot turn to the escape
 * channels, and a cycle of such waits on adaptive VCs deadlocked an 8x8
 * mesh at offered load 1.0). */
static inline int net_vc_free(const struct net *n, const struct oport *op, int k)
{
    if (op->owner[k])
        return 0;
    return (n->p.switching == SW_WORMHOLE && !n->atomic_vc) || op->is_eject ||
           !n->r[op->to_router].in[op->to_port * n->V + k].count;
}

/* Parked heads. A unicast head at the front of an input VC that was
 * refused an output VC (every VC of its class on its output is owned) is
 * parked: it cannot move, nor change anything the output's worms do,
 * until one of those VCs is released, and it counts a blocked cycle
 * against its worm and its output link every cycle till then. Parking is
 * on with the jump, on wormhole networks whose input VCs fit the busy
 * masks (net_parks). Its link's count is then kept in closed form: the
 * link is saturated from the cycle after the head parked (sat_n, sat_since)
 * and no other count is added to it meanwhile (each cycle counts a link
 * once, net_core.c's net_count_blocked); net_sat_settle adds the saturated cycles
 * for readers. The jump's groups do not join a parked head's input port
 * to its output (net_jump.h). A tail releasing a VC of the output wakes
 * the heads parked on it (waking, net_wake): parked through that cycle,
 * asking again from the next, their frozen groups thawing then. */
static inline int net_parks(const struct net *n)
{
    return n->ac.jump_on && !n->ac.plain && !n->wide && n->p.switching == SW_WORMHOLE;
}
/* Whether a unicast head routed to output o of router r with dateline
 * class cls (-1: any VC) would be refused there now, and park: every VC
 * it may take owned. While the output's group is frozen its owners stay
 * (net_jump_head). */
static inline int net_would_park(const struct net *n, int r, int o, int cls)
{
    const struct oport *op = &n->r[r].out[o];
    int lo, hi;
    net_class_vcs(n, op, cls, &lo, &hi);
    for (int k = lo; k < hi; k++)
        if (!op->owner[k])
            return 0;
    return 1;
}

/* The dateline class whose VCs an unallocated input VC's routed head may
 * take (net_class_vcs): 0 or 1 on a torus (out_vc -2, -3), else -1, any. */
static inline int net_head_class(const struct ivc *v) { return v->out_vc <= -2 ? -2 - v->out_vc : -1; }

/* For the jump's groups: parked, and not waking. */
static inline int net_parked(const struct net_router *R, int i)
{
    return i < 64 && ((R->acc.parked & ~R->acc.waking) >> i & 1);     /* (none parks on a wide network) */
}
void net_unpark_all(struct net *n, uint64_t c);
void net_wake(struct net *n, uint64_t c);
int net_sat_settle(struct net *n);

/* Port ids, for the jump's groups: input port ip of router r, output port o. */
static inline int net_in_id(const struct net *n, int r, int ip) { return r * n->nin + ip; }
static inline int net_out_id(const struct net *n, int r, int o) { return n->nr * n->nin + r * n->nout + o; }
/* The router of port id `id`, input or output, and its index there: the
 * input port ip or the output port o (the jump's tables, net_jump_probe.c). */
static inline int net_port_router(const struct net *n, int id) { return n->ac.jp.port_r[id]; }
static inline int net_port_index(const struct net *n, int id) { return n->ac.jp.port_i[id]; }

/* net_topo.c: the graph of a topology. net_topo_routers: how many routers
 * the machine's network has (its nodes', then its switches), or -1 with
 * the reason in err if the parameters do not fit it; net_topo_link_ports:
 * the link ports every router has; net_topo_wire joins
 * the ports (to_router, to_port, up, up_port); net_topo_route: the output
 * link port a worm at router `at` takes, or -1 at its destination, and in
 * *cls the dateline class the hop needs (-1: any VC); net_topo_hops: the
 * links a worm crosses from node a to node b. */
int net_topo_routers(const struct topo_shape *m, const struct net_params *p, char *err, size_t errlen);
int net_topo_link_ports(const struct topo_shape *m);     /* per router */
void net_topo_wire(struct net *n);
int net_topo_route(const struct net *n, int at, const struct net_msg *m, int *cls);
int net_topo_hops(const struct net *n, int a, int b);
/* The direction (+1, -1) a worm at coordinates a bound for b takes in
 * dimension d on the shortest way (a torus's tie rule, + only on a 2-ring
 * or a one-way ring), 0 if a and b agree there; every direct routing
 * function moves by it. */
int net_topo_dir(const struct net *n, const int *a, const int *b, int d);
/* The dragonfly's ports (net_topo.c): router r's local port to router j of
 * its group, the global port of link k, and the minimal next port of
 * switch `at` towards node dst (or, dst < 0, towards group tg: -1 there). */
int net_df_local_port(const struct net *n, int r, int j);
int net_df_global_port(const struct net *n, int k);
int net_df_port(const struct net *n, int at, int dst, int tg);

/* The ejection port a worm that came in on input port ip leaves by: all-port
 * nodes take the channel of the link it came in on; injection-to-self uses
 * channel 0. */
static inline int net_eject_port(const struct net *n, int ip)
{
    return n->nlinkp + (ip < n->nlinkp ? ip % n->nej : 0);
}
/* The output port a head that came in on input port ip of router r is
 * routed to, and in *cls the dateline class it needs there (-1: any VC). */
static inline int net_head_route(const struct net *n, int r, int ip, const struct net_msg *m, int *cls)
{
    int p = net_topo_route(n, r, m, cls);
    return p < 0 ? net_eject_port(n, ip) : p;
}
static inline int net_head_out(const struct net *n, int r, int ip, const struct net_msg *m)
{
    int cls;
    return net_head_route(n, r, ip, m, &cls);
}

/* The jump (net_jump.h): net_jump_probe, net_jump_seed and net_jump_tail
 * in net_jump_probe.c, the others in net_jump.c. After each cycle stepped
 * without an event, net_jump_probe may freeze groups found periodic;
 * net_jump_cycle, at the start of each cycle, thaws those due or about
 * to be touched by a head entering the network; net_jump_touch schedules
 * a group's thaw for cycle t (a head pushed where it will be routed into
 * it); net_jump_idle_until: when every flit is frozen, the cycle the
 * clock may go to; net_jump_queued: before a message is queued on channel
 * ch of node src; net_jump_settle thaws every group (the counters are
 * then exact); net_jump_reset: the next record may run now;
 * net_jump_seed: a port whose part the next record looks at (an event
 * may have begun, split or joined it); net_jump_tail: a tail left port
 * id, seeded unless a candidate or a frozen group holds it. */
void net_jump_probe(struct net *n);
void net_jump_cycle(struct net *n, uint64_t c);
void net_jump_touch(struct net *n, struct jgroup *g, uint64_t t);
void net_jump_head(struct net *n, int r, int ip, const struct net_msg *m, uint64_t t);
uint64_t net_jump_idle_until(const struct net *n);
void net_jump_queued(struct net *n, int src, int ch, int mc);
void net_jump_settle(struct net *n);
void net_jump_reset(struct net *n);
void net_jump_free(struct net *n);
void net_jump_seed(struct net *n, int id);
void net_jump_tail(struct net *n, int id);

/* net_inject.c, for net_mc.c: a worm's flits for len bytes (without the
 * multidestination header); queue a routed worm on its source's NIC
 * channel ch; keep a message of the checking model (NET_JUMP_CHECK). */
uint32_t net_payload_flits(const struct net *n, uint32_t len);
void net_queue(struct net *n, struct net_msg *m, uint32_t flits, int ch);
int net_shadow_add(struct net *n, struct net_msg *c);

/* net_mc.c: multidestination worms. net_mc_route: the branches of the
 * worm at the front of input VC i of router `node`, from its hop;
 * net_mc_stalled: after a cycle with no flit moved, 1 if nothing ever
 * can again (then n->deadlock says who waits on whom). */
void net_mc_route(struct net *n, int node, int i);
int net_mc_stalled(struct net *n, uint64_t c);

/* Router allocators by name (host/net/allocs.def), as BookSim2 keeps
 * them: each cycle net_router_step (net_core.c) collects the heads waiting for an
 * output VC and the flits asking to cross the switch, and the run's
 * allocator decides who is served. The allocator only chooses; the cycle
 * model acts on its choices through the four calls below, so every
 * allocator keeps the model's counts the same way.
 *
 * The contract every allocator keeps:
 *   - it is deterministic: its state is the pointers of struct oport and
 *     struct net_router (rr, va_rr, in_rr, ava_rr), read and moved by it
 *     alone;
 *   - VC allocation grants a head only a VC net_vc_grant finds free, and
 *     calls net_refused for every head of n->va_req it does not grant;
 *   - switch allocation sends at most one flit per input port and per
 *     output port (n->in_used, n->out_used), by net_send_flit, and calls
 *     net_count_blocked for the requests it leaves waiting, as its
 *     description says;
 *   - n->ac.plain (the checking reference, NET_JUMP_CHECK) takes the full
 *     allocator: a shortcut must give the same grants and pointers. */
struct net_allocator {
    const char *name, *doc;
    /* VC allocation for the nva unicast heads of n->va_req (ascending
     * input VCs, ip V + vc) on an oblivious route: grants and parks made
     * (a change: the router does not sleep after this cycle). */
    int (*vc)(struct net *n, int node, int nva, uint8_t *seen, uint64_t c);
    /* VC allocation for the nava heads of n->ava_req under an adaptive
     * routing, each asking for its routing function's candidates: grants
     * made. */
    int (*vc_adaptive)(struct net *n, int node, int nava, uint8_t *seen, uint64_t c);
    /* Switch allocation for the nreq requests (n->req_ip, n->req_vc), after
     * nmc multidestination worms crossed (n->in_used and n->out_used
     * already set then; cleared here otherwise). */
    void (*sw)(struct net *n, int node, int nreq, int nmc, uint64_t c, uint8_t *seen);
};

/* net_core.c, the cycle model. What net.c's run loop and net_jump.c's
 * catch-up of a thawing group call: net_inject_step, cycle c's injection
 * at router `node`'s NIC channels; net_router_step, the router's step in
 * cycle c; net_apply_credits, the credits returned in the cycle, usable
 * from the next. */
void net_inject_step(struct net *n, int node, uint64_t c);
void net_router_step(struct net *n, int node, uint64_t c);
void net_apply_credits(struct net *n, uint64_t upto);
/* Its side of the allocators' contract:
 * net_vc_grant: input VC i's head takes the lowest free VC of its class on
 *   its output; 0 if none is free;
 * net_vc_take: input VC i's adaptive head takes VC vc of candidate cd;
 * net_refused: input VC i's head was refused this cycle: blocked, and
 *   parked where the accelerators park (1: a change);
 * net_count_blocked: the worm m, at router node and bound for output
 *   port, did not move this cycle (seen: the links counted this cycle);
 * net_send_flit: input VC ip V + vc sends its front flit. */
int net_vc_grant(struct net *n, int node, int i, uint64_t c);
struct net_cand;
void net_vc_take(struct net *n, int node, int i, const struct net_cand *cd, int vc);
int net_refused(struct net *n, int node, int i, uint8_t *seen, uint64_t c);
void net_count_blocked(struct net *n, int node, int port, struct net_msg *m, uint8_t *seen);
void net_send_flit(struct net *n, int node, int ip, int vc, uint64_t c);
/* net_alloc.c: the allocators of allocs.def, indexed by enum alloc
 * (net_build.c gives the cycle model the run's). */
extern const struct net_allocator net_allocators[ALLOC_COUNT];

/* The hooks as the cycle model calls them (struct net_hooks). */
static inline void net_hk_settle(struct net *n) { if (n->hk) n->hk->settle(n); }
static inline void net_hk_cycle(struct net *n, uint64_t c) { if (n->hk) n->hk->cycle(n, c); }
static inline void net_hk_stepped(struct net *n) { if (n->hk) n->hk->stepped(n); }
static inline void net_hk_head(struct net *n, int r, int ip, const struct net_msg *m, uint64_t t)
{
    if (n->hk)
        n->hk->head(n, r, ip, m, t);
}
static inline void net_hk_touch(struct net *n, struct jgroup *g, uint64_t t) { if (n->hk) n->hk->touch(n, g, t); }
static inline void net_hk_queued(struct net *n, int src, int ch, int mc) { if (n->hk) n->hk->queued(n, src, ch, mc); }
static inline void net_hk_reset(struct net *n) { if (n->hk) n->hk->reset(n); }
static inline uint64_t net_hk_idle_until(const struct net *n) { return n->hk ? n->hk->idle_until(n) : n->now; }
static inline void net_hk_free(struct net *n) { if (n->hk) n->hk->free(n); }

/* net.c: the cycle model alone, with allocator al and no hook attached
 * (net_new, net_build.c, gives it the run's allocator and attaches the
 * jump's). net_park.c: a head parks, and stops being parked,
 * in cycle c. net_sleep.c: router `node`'s owed blocked cycles, added up
 * to cycle t. net_jump.c: the jump's hooks. */
struct net *net_core_new(const struct topo_shape *m, const struct net_params *p, const struct net_allocator *al,
                         char *err, size_t errlen);
void net_park(struct net *n, int node, int i, uint64_t c);
void net_unpark(struct net *n, int node, int i, uint64_t c);
void net_sleep_owe(struct net *n, int node, uint64_t t);
extern const struct net_hooks net_jump_hooks;

#endif
