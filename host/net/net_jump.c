/* Exact jumps over periodic stretches of the flit engine, group by group
 * (net_model.h), attached to the cycle model through its hooks
 * (net_state.h, struct net_hooks; net_build.c).
 *
 * When it is exact. The groups below join each input port to the output
 * port every head in it *will* be routed to (net_head_route), so the
 * jump assumes oblivious routing: a head's output depends only on where
 * it is and where it goes. Under an adaptive routing function
 * (net_route.h) it is never on (net_new, net_set_jump), and neither are
 * parked heads nor sleeping routers, which assume one output a head; the
 * run is then stepped, exactly, only slower. It also assumes wormhole
 * switching and input VCs that fit the busy masks (net_parks).
 *
 * Groups. Two worms interact only through a port they share: an input
 * port (its VCs share the switch input, the input round-robin pointer and
 * the credits back up its link), an output port (VC allocation, switch
 * arbitration, credits, an ejection channel's pace), or the link joining
 * an output port to the input port at its far end. The router's phases
 * decide each output port's and each input port's grants from the
 * requests aimed at it alone, so the network's step splits exactly along
 * the connected parts of the graph whose nodes are ports and whose edges
 * are: each link; each input port to the output port its front worm is
 * routed to; each input port to the output port every head flit in it
 * will be routed to. A group is such a part holding flits or a routed VC.
 * Nothing outside a group reads or writes its ports until a new head is
 * routed to one of them (a touch, below).
 *
 * Parked heads (net_state.h) are the exception. A head refused an output
 * VC, every VC of its class there owned, reads the output only to be
 * refused again and changes nothing there until an owner's tail releases
 * a VC; so its input port is not joined to that output, and the worm
 * waiting behind it is a group apart from the worms streaming through
 * the output: each freezes and thaws on its own events. (Under uniform
 * traffic most heads wait so behind a long worm; joined, they made groups
 * of a few dozen ports that an event anywhere thawed whole.) A group in
 * which nothing moves but heads are parked is frozen too, until touched.
 * The link a head waits on counts a blocked cycle every cycle while it
 * waits, whoever else waits there, so that count is kept in closed form
 * (saturation) and by neither group. The tail that releases an owned VC
 * wakes the heads parked on it that may take it, those of its dateline
 * class (the others would only be refused again): they stay parked
 * through that cycle (a
 * group of theirs thawing at the next one steps its last cycles with them
 * refused, as they were) and ask again from the next. A head pushed
 * towards a frozen output where it would park does not thaw the output's
 * group when its parking changes nothing the group counts: the link is
 * saturated already, or the group's period counts a blocked cycle on it in
 * none of its cycles or in all of them (park_counts).
 *
 * Periods. While its worms stream and nothing else happens, a group's
 * state repeats up to two shifts: each worm m has moved d(m) more flits
 * into its destination, and every pending time is P cycles later. The
 * engine treats a flit apart only when it is a head or a tail (routing,
 * VC release, c_inject, c_head, c_leave, c_arrive, traces, link worm
 * counts), and reads absolute time only to see whether a queued message
 * is ready. So from a state S the group makes the same moves as from S
 * shifted, as long as no head or tail moves and no queued message of it
 * becomes ready. The probe records the canonical state of a group at its
 * cycle c0: per run of one worm's consecutive flits in an input VC, the
 * worm (by net_msg.jid: a delivered worm's freed address may come back as
 * another's), the first flit's index less f_out of its worm, the run's
 * length, whether it holds the head or the tail, and how long each of its
 * flits still waits (times relative to c0, clamped at 0; only the nonzero
 * ones, by place); per input VC its route; per injection channel its
 * front worm and how far it has pushed it; per output port its owners,
 * credits and round-robin pointers; per input port its switch pointer.
 * After each cycle stepped it compares each group with its record. Equal
 * at c1 = c0 + P, and still the same set of ports (nothing joined it),
 * means the group is periodic with period P from c0 on (it is
 * deterministic), and its state at c1 + kP is its state at c1 shifted k
 * times, for every k with:
 *   - each worm m with d(m) > 0 pushes no tail: its NIC has pushed nf
 *     flits of its F, and nf + k d(m) <= F - 1;
 *   - each queued message of the group not ready at c1 (ready at rc)
 *     stays so: c1 + kP <= rc;
 *   - every worm that moves is pushed by its NIC as fast as it drains.
 *
 * Freezing. Such a group is frozen at c1, up to kmax periods: the engine
 * stops stepping its ports and keeps its state as it was at c1. It thaws
 * at c1 + kmax P at the latest, or as soon as something outside touches
 * it: a head pushed where it will be routed to one of its ports (it is
 * ready the next cycle at the earliest), a head about to enter the
 * network aimed at one, a message queued on one of its injection
 * channels, a multidestination worm, or a reader of the counters
 * (net_jump_settle). Thawing at cycle t = c1 + kP + j (0 <= j < P) shifts
 * the group k periods, as the bounds allow, adding k times the period's
 * increments to its counters (link flits, blocked cycles and worms, worms'
 * blocked cycles and f_out, flit hops), k d(m) to every flit index and
 * NIC count of each worm m, and kP to every pending time, and then steps
 * its ports alone for the j cycles left; no event falls in them. When
 * every flit in the network is in a frozen group, the clock goes straight
 * to the next thaw, the next injection or the caller's bound.
 *
 * A group that settles only after a while (a head still being routed,
 * VCs still being won) is not periodic from c0. So each group is
 * recorded again, on the same ports, whenever `wait` cycles have passed
 * without a match, and then waits twice as long (Brent's cycle finding):
 * a transient of T cycles and a period P cost O(T + P) cycles stepped,
 * for periods up to JUMP_PMAX. A new record is taken only while the
 * ports are still a whole part (whole()); once they are not, the group
 * is dropped and its part is recorded anew as it is now.
 *
 * Each part has its own record and schedule: record() walks only the
 * parts of seeded ports, those where a part may have begun, split or
 * joined: the ports of a group thawed or of a candidate dropped, a NIC
 * channel starting a worm, a head routed to its ejection channel (home:
 * its part stops growing), a head parking (its input port leaves its
 * output's part), a tail leaving a port no candidate holds. A part that
 * is a candidate's ports exactly keeps its record; one with a head still
 * to cross a link (it grows at each hop: recorded, it would be dropped as
 * not whole) or aimed at a frozen group waits for its next seed. Records
 * come JUMP_REST cycles apart at least, so that a part's events in a
 * burst cost one walk. A candidate that fails (no period by JUMP_PMAX,
 * or too few periods) is tried again after a gap, longer after each
 * failure (up to JUMP_GAP_MAX cycles, back to none at a freeze), so
 * traffic that never settles pays little for it.
 *
 * Short worms. Only a group whose NICs push its moving worms can freeze
 * (periods()), and it thaws before any of them pushes its tail. So while
 * no NIC has more than JUMP_MIN_PUSH flits left of its front worm, a
 * freeze would last a few dozen cycles at most, less than recording the
 * groups and finding their periods costs: no record is taken (the seeds
 * wait) until a message is queued, an event returns to the caller or a
 * group thaws
 * (33-flit worms on a 16x16 torus took 16-25 % more instructions probed
 * than stepped; 65-flit worms break even, longer ones gain).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "net_state.h"

#define JUMP_PMAX    64     /* longest period looked for, in cycles */
#define JUMP_WAIT0   4      /* cycles compared with a group's first record before a new one */
#define JUMP_KMIN    2      /* a group is frozen for at least this many periods */
#define JUMP_GAP_MIN 8
#define JUMP_GAP_MAX 256
#define JUMP_REST    16     /* cycles from one record() to the next, at least */
#define JUMP_MIN_PUSH 48    /* no record while no NIC has more flits than this left to push */

static int nports(const struct net *n) { return n->nr * (n->nin + n->nout); }
static int is_in(const struct net *n, int id) { return id < n->nr * n->nin; }

/* The link (an index into n->ls) port id drives: an output link port's;
 * -1 for an input port or an ejection channel. A group's link ports, in
 * port order, index its g->ls. */
static int link_of(const struct net *n, int id)
{
    if (is_in(n, id))
        return -1;
    int o = net_port_index(n, id);
    return o < n->nlinkp ? net_port_router(n, id) * n->nlinkp + o : -1;
}

/* The output ports of router r that VC vc of input port ip joins ip to:
 * the one its routed worm holds, and the one each head in it will be
 * routed to; a parked head at its front joins nothing (net_state.h). One
 * rule for router_joins(), closed_marked() and whole():
 *   for (joins_begin(&it, n, r, ip, vc); (o = joins_next(&it, &head)) >= 0;)
 * gives each in turn, *head telling a head's from the routed worm's. */
struct joins {
    const struct net *n;
    const struct ivc *v;
    int r, ip, routed;
    uint32_t j;
};

static inline __attribute__((always_inline)) void joins_begin(struct joins *it, const struct net *n, int r, int ip,
                                                             int vc)
{
    const struct net_router *R = &n->r[r];
    int i = ip * n->V + vc, pk = net_parked(R, i);
    *it = (struct joins){ n, &R->in[i], r, ip, R->in[i].routed == 1 && !pk, (uint32_t)pk };
}

static inline __attribute__((always_inline)) int joins_next(struct joins *it, int *head)
{
    const struct ivc *v = it->v;
    if (it->routed) {
        it->routed = 0;
        *head = 0;
        return v->out_port;
    }
    while (it->j < v->count) {
        const struct flit *f = ivc_at(v, it->j++);
        if (f->idx == 0) {
            *head = 1;
            return net_head_out(it->n, it->r, it->ip, f->m);
        }
    }
    return -1;
}

/* Port id into the part being gathered (part()), once. */
static void reach(struct jprobe *p, int id)
{
    if (p->mark[id] != p->stamp) {
        p->mark[id] = p->stamp;
        p->part[p->npart++] = id;
    }
}

/* Router r's joins, once a pass (p->stamp): for each of its input ports
 * not frozen, the output ports not frozen it joins (p->rj, a mask: nout <=
 * 2 TOPO_MAX_DIMS + the NIC channels < 64) and what it holds (p->rh, as
 * part() says). */
static void router_joins(struct net *n, int r)
{
    struct jprobe *p = &n->ac.jp;
    const int V = n->V;
    const struct net_router *R = &n->r[r];
    p->rstamp[r] = p->stamp;
    for (int ip = 0; ip < n->nin; ip++) {
        int in = net_in_id(n, r, ip), has = 0;
        uint64_t mask = 0;
        if (!n->ac.pg[in])
            for (int vc = 0; vc < V; vc++) {
                const struct ivc *v = &R->in[ip * V + vc];
                if (!v->count && !v->routed)
                    continue;
                has |= 1;
                struct joins it;
                int o, head;
                for (joins_begin(&it, n, r, ip, vc); (o = joins_next(&it, &head)) >= 0;) {
                    if (head && o < n->nlinkp)
                        has |= 4;
                    if (n->ac.pg[net_out_id(n, r, o)])
                        has |= 2;
                    else
                        mask |= 1ull << o;
                }
            }
        p->rj[in] = mask;
        p->rh[in] = (uint8_t)has;
    }
}

/* The part of port id, not frozen (the graph whose nodes are the ports
 * not frozen and whose edges are the links and each input port's joins),
 * walked from it: its ports in p->part (p->npart), each marked with
 * p->stamp. With content (1), they are the input ports with content, the
 * output ports they join, the far end of each one's link and the output
 * port at the near end of each link input port with content: every port
 * the part's cycles read or write. What it holds: 1 flits or a routed VC; 2 a head in it will be
 * routed into a frozen group (which thaws before; the part is no
 * candidate); 4 a head in it is about to cross a link or be routed to one
 * (the part changes when it does; no candidate until it is home or
 * parked). */
static int part(struct net *n, int id)
{
    struct jprobe *p = &n->ac.jp;
    int has = 0;
    p->npart = 0;
    reach(p, id);
    for (int k = 0; k < p->npart; k++) {
        int x = p->part[k], r = net_port_router(n, x);
        const struct net_router *R = &n->r[r];
        if (p->rstamp[r] != p->stamp)
            router_joins(n, r);
        if (is_in(n, x)) {
            int ip = net_port_index(n, x);
            if (ip < n->nlinkp && R->up[ip] >= 0)
                reach(p, net_out_id(n, R->up[ip], R->up_port[ip]));
            has |= p->rh[x];
            for (uint64_t b = p->rj[x]; b; b &= b - 1)
                reach(p, net_out_id(n, r, __builtin_ctzll(b)));
        } else {
            int o = net_port_index(n, x);
            if (R->out[o].to_router >= 0)
                reach(p, net_in_id(n, R->out[o].to_router, R->out[o].to_port));
            for (int ip = 0, in = net_in_id(n, r, 0); ip < n->nin; ip++, in++)
                if (p->rj[in] >> o & 1)
                    reach(p, in);
        }
    }
    return has;
}

/* --- The canonical state of a group -------------------------------------- */

/* A walk over a group's state, in one of two modes fixed at compile time
 * (walk_t's rec): recording, p is where the next word goes and end the end
 * of g->w's room, reserved (room) before each port's words and each VC's
 * flits, so that a word is one store; comparing, p is the next recorded
 * word and end the record's end. */
struct walk {
    struct net *n;
    struct jgroup *g;
    uint64_t *p, *end;
    uint64_t c;             /* the cycle the state is taken at */
};

/* Words a port's walk_port puts, at most; and an input VC's walk_flits per
 * flit it holds (a run of len flits puts 3 + 2 wait <= 3 len + 2 len). */
#define WORDS_PORT(V)  (2 * (size_t)(V) + 4)
#define WORDS_FLIT     5

/* Recording: room for k more words in g->w; 0 without memory. */
static __attribute__((noinline)) int grow(struct walk *w, size_t k)
{
    struct jgroup *g = w->g;
    size_t len = (size_t)(w->p - g->w), nc = 2 * g->cap;       /* (cap > 0: walk_record) */
    while (nc < len + k)
        nc *= 2;
    uint64_t *nw = realloc(g->w, nc * sizeof *nw);
    if (!nw)
        return 0;
    g->w = nw;
    g->cap = nc;
    w->p = nw + len;
    w->end = nw + nc;
    return 1;
}

static inline __attribute__((always_inline)) int room(struct walk *w, size_t k, const int rec)
{
    return !rec || (size_t)(w->end - w->p) >= k || grow(w, k);
}

/* The next word: recorded, or compared with the record (0 at a difference
 * or past its end). */
#define PUT(x)                                                                  \
    do {                                                                        \
        uint64_t v_ = (uint64_t)(x);                                            \
        if (rec)                                                                \
            *w->p++ = v_;                                                       \
        else if (w->p == w->end || *w->p++ != v_)                               \
            return 0;                                                           \
    } while (0)

static uint64_t rel(uint64_t t, uint64_t c) { return t > c ? t - c : 0; }

/* Recording: worm m once in g's worms, with its counters at c0 (m->jmark
 * is the probe's epoch once it is); 0 without memory. */
static int note(struct jprobe *p, struct jgroup *g, struct net_msg *m)
{
    if (g->nmsg == g->msg_cap) {
        size_t nc = g->msg_cap ? 2 * g->msg_cap : 16;
        struct jmsg *nm = realloc(g->msg, nc * sizeof *nm);
        if (!nm)
            return 0;
        g->msg = nm;
        g->msg_cap = nc;
    }
    m->jmark = p->epoch;
    m->jix = (uint32_t)g->nmsg;
    g->msg[g->nmsg++] = (struct jmsg){ m, m->blocked_cycles, m->f_out, 0, 0 };
    return 1;
}

#define NOTE(m)                                                                 \
    do {                                                                        \
        if (rec && (m)->jmark != w->n->ac.jp.epoch && !note(&w->n->ac.jp, w->g, (m))) \
            return 0;                                                           \
    } while (0)

/* A port's words that need no scan of its flits: an input port's switch
 * pointer, its VCs' counts and routes and its injection channel; an output
 * port's pointers, credits and owners. */
static inline __attribute__((always_inline)) int walk_port(struct walk *w, int id, const int rec)
{
    struct net *n = w->n;
    const int V = n->V;
    if (!room(w, WORDS_PORT(V), rec))
        return 0;
    int r = net_port_router(n, id);
    if (is_in(n, id)) {
        int ip = net_port_index(n, id);
        const struct net_router *R = &n->r[r];
        PUT(R->in_rr[ip]);
        for (int vc = 0; vc < V; vc++) {
            const struct ivc *v = &R->in[ip * V + vc];
            PUT(v->count | (uint64_t)v->routed << 32 | (uint64_t)net_parked(R, ip * V + vc) << 40);
            if (v->routed)
                PUT((uint32_t)v->out_port | (uint64_t)(uint32_t)v->out_vc << 32);
        }
        if (ip >= n->nlinkp) {
            const struct nic_queue *q = &R->inj[ip - n->nlinkp];
            PUT(q->first ? q->first->jid : 0);
            if (q->first) {
                PUT((uint32_t)(q->next_flit - q->first->f_out) |
                    (uint64_t)(q->first->c_ready > w->c) << 32);
                PUT(rel(q->next_ok, w->c));
                NOTE(q->first);
            }
        }
    } else {
        int o = net_port_index(n, id);
        const struct oport *op = &n->r[r].out[o];
        int l = link_of(n, id);
        PUT(op->rr | (uint64_t)rel(op->next_ok, w->c) << 32);
        PUT(op->va_rr[0] | (uint64_t)op->va_rr[1] << 32 |
            (uint64_t)(l >= 0 && n->ac.sat_n[l] > 0) << 63);   /* saturated */
        for (int v = 0; v < V; v++) {
            PUT(op->credits[v]);
            PUT(op->owner[v] ? op->owner[v]->jid : 0);
        }
    }
    return 1;
}

/* An input VC's flits as runs of one worm's consecutive flits: its worm,
 * the first's index less f_out and whether it is the head; the run's
 * length, how many of its flits still wait and whether it holds the tail;
 * then each flit still waiting, by its place in the run (all exact). */
static inline __attribute__((always_inline)) int walk_flits(struct walk *w, const struct ivc *v, const int rec)
{
    if (!room(w, WORDS_FLIT * (size_t)v->count, rec))
        return 0;
    for (uint32_t j = 0; j < v->count;) {
        const struct flit *f = ivc_at(v, j);
        PUT(f->m->jid);
        PUT((uint32_t)(f->idx - f->m->f_out) | (uint64_t)(f->idx == 0) << 32);
        uint32_t len = 1, wait = f->ready > w->c;
        while (j + len < v->count) {
            const struct flit *x = ivc_at(v, j + len);
            if (x->m != f->m || x->idx != f->idx + len)
                break;
            wait += x->ready > w->c;
            len++;
        }
        PUT(wait | (uint64_t)len << 32 | (uint64_t)(f->idx + len == f->m->flits) << 63);
        for (uint32_t k = 0; k < len && wait; k++) {
            uint64_t t = rel(ivc_at(v, j + k)->ready, w->c);
            if (t) {
                PUT(k);
                PUT(t);
                wait--;
            }
        }
        NOTE(f->m);
        j += len;
    }
    return 1;
}

/* The group's state at w->c, recorded or compared word by word; 0 at the
 * first difference, or, recording, without memory. Its ports are in
 * ascending order (input ports, then output ports), walked twice: first
 * the words that need no scan of the flits, where most differences show,
 * then the flits. */
static inline __attribute__((always_inline)) int walk_t(struct walk *w, const int rec)
{
    struct net *n = w->n;
    const struct jgroup *g = w->g;
    for (int k = 0; k < g->nport; k++)
        if (!walk_port(w, g->port[k], rec))
            return 0;
    const int V = n->V;
    for (int k = 0; k < g->nport && is_in(n, g->port[k]); k++) {
        const struct ivc *v = &n->r[net_port_router(n, g->port[k])].in[net_port_index(n, g->port[k]) * V];
        for (int vc = 0; vc < V; vc++)
            if (v[vc].count && !walk_flits(w, &v[vc], rec))
                return 0;
    }
    return rec || w->p == w->end;
}

/* Group g's state at cycle c recorded in g->w (g->len words); its worms
 * noted in g->msg, marked with the probe's epoch. 0 without memory. */
static int walk_record(struct net *n, struct jgroup *g, uint64_t c)
{
    g->len = g->nmsg = 0;
    if (!g->cap) {                      /* a first record: the walk's pointers need an array */
        if (!(g->w = malloc(256 * sizeof *g->w)))
            return 0;
        g->cap = 256;
    }
    struct walk w = { n, g, g->w, g->w + g->cap, c };
    if (!walk_t(&w, 1))
        return 0;
    g->len = (size_t)(w.p - g->w);
    return 1;
}

/* Whether group g's state at cycle c is the one recorded. */
static int walk_same(struct net *n, struct jgroup *g, uint64_t c)
{
    struct walk w = { n, g, g->w, g->w + g->len, c };
    return walk_t(&w, 0);
}

/* The link counters of a group's output link ports, in port order. */
static void link_counters(const struct net *n, const struct jgroup *g, struct link_stats *out)
{
    for (int i = 0, k = 0; i < g->nport; i++)
        if (link_of(n, g->port[i]) >= 0)
            out[k++] = n->ls[link_of(n, g->port[i])];
}

static int nlinks(const struct net *n, const struct jgroup *g)
{
    int k = 0;
    for (int i = 0; i < g->nport; i++)
        k += link_of(n, g->port[i]) >= 0;
    return k;
}

static void group_free(struct jgroup *g)
{
    if (!g)
        return;
    free(g->port);
    free(g->w);
    free(g->msg);
    free(g->ls);
    free(g);
}

/* A group for a new candidate, empty: a spare one, its arrays kept (a
 * probe makes and drops thousands), or a new one; NULL without memory. */
static struct jgroup *group_get(struct jprobe *p)
{
    struct jgroup *g = p->spare;
    if (!g)
        return calloc(1, sizeof *g);
    p->spare = g->next_spare;
    *g = (struct jgroup){ .port = g->port, .port_cap = g->port_cap, .w = g->w, .cap = g->cap,
                          .msg = g->msg, .msg_cap = g->msg_cap, .ls = g->ls, .ls_cap = g->ls_cap };
    return g;
}

/* Group g is done with: to the spare list. */
static void group_put(struct jprobe *p, struct jgroup *g)
{
    g->next_spare = p->spare;
    p->spare = g;
}

/* --- The probe ------------------------------------------------------------ */

/* Candidate g's ports held by no candidate. */
static void uncover(struct jprobe *p, const struct jgroup *g)
{
    for (int i = 0; i < g->nport; i++)
        p->cm[g->port[i]] = NULL;
}

static void seed_group(struct net *n, const struct jgroup *g);

/* Candidate g dropped (the caller takes it out of p->cand): its ports held
 * by no candidate and seeded, its part looked at again by the next record. */
static void drop(struct net *n, struct jgroup *g)
{
    uncover(&n->ac.jp, g);
    seed_group(n, g);
    group_put(&n->ac.jp, g);
}

/* Every candidate dropped. */
static void drop_candidates(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    for (int i = 0; i < p->ncand; i++)
        drop(n, p->cand[i]);
    p->ncand = 0;
}

static int alloc_scratch(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    if (p->seed)
        return 0;
    int N = nports(n);
    if (!p->mark)
        p->mark = calloc((size_t)N, sizeof *p->mark);
    if (!p->part)
        p->part = malloc((size_t)N * sizeof *p->part);
    if (!p->seeded)
        p->seeded = calloc((size_t)N, sizeof *p->seeded);
    if (!n->ac.pg)
        n->ac.pg = calloc((size_t)N, sizeof *n->ac.pg);
    if (!p->port_r)
        p->port_r = malloc((size_t)N * sizeof *p->port_r);
    if (!p->port_i)
        p->port_i = malloc((size_t)N * sizeof *p->port_i);
    if (!p->cm)
        p->cm = calloc((size_t)N, sizeof *p->cm);
    if (!p->rj)
        p->rj = malloc((size_t)(n->nr * n->nin) * sizeof *p->rj);
    if (!p->rh)
        p->rh = malloc((size_t)(n->nr * n->nin) * sizeof *p->rh);
    if (!p->rstamp)
        p->rstamp = calloc((size_t)n->nr, sizeof *p->rstamp);
    if (!p->bits)
        p->bits = calloc(((size_t)N + 63) / 64, sizeof *p->bits);
    if (!(p->mark && p->part && p->seeded && n->ac.pg && p->port_r && p->port_i && p->cm && p->rj &&
          p->rh && p->rstamp && p->bits))
        return -1;
    for (int r = 0; r < n->nr; r++) {
        for (int ip = 0; ip < n->nin; ip++) {
            p->port_r[net_in_id(n, r, ip)] = r;
            p->port_i[net_in_id(n, r, ip)] = (uint16_t)ip;
        }
        for (int o = 0; o < n->nout; o++) {
            p->port_r[net_out_id(n, r, o)] = r;
            p->port_i[net_out_id(n, r, o)] = (uint16_t)o;
        }
    }
    if (!(p->seed = malloc((size_t)N * sizeof *p->seed)))
        return -1;
    return 0;
}

/* The counters of g's worms and links up to the present: a sleeping
 * router owes blocked cycles only to the worms with a flit in it and to
 * the links its output ports drive, and those of a group's worms and
 * links are owed by the routers of its ports. */
static void settle_ports(struct net *n, const struct jgroup *g)
{
    for (int k = 0; k < g->nport; k++)
        net_sleep_settle_one(n, net_port_router(n, g->port[k]));
}

/* Port id's part to be looked at by the next record(). */
static void seed(struct net *n, int id)
{
    struct jprobe *p = &n->ac.jp;
    if (!p->seed || p->seeded[id] == p->seedgen)
        return;                          /* (no scratch yet, seed the last of it allocated: the
                                            first record looks at every port) */
    p->seeded[id] = p->seedgen;
    p->seed[p->nseed++] = id;
}

/* Port id's part may be a candidate now: the next record() looks at it. */
void net_jump_seed(struct net *n, int id)
{
    seed(n, id);
    if (n->ac.jp.next_try > n->now)
        n->ac.jp.next_try = n->now;
}

/* A tail left port id: a part no candidate holds may split, its
 * pieces to be looked at. */
void net_jump_tail(struct net *n, int id)
{
    struct jprobe *p = &n->ac.jp;
    if (p->seed && !p->cm[id] && !n->ac.pg[id])    /* (seed: the scratch is all there, as in seed()) */
        net_jump_seed(n, id);
}

static void seed_group(struct net *n, const struct jgroup *g)
{
    for (int i = 0; i < g->nport; i++)
        seed(n, g->port[i]);
}

/* A new candidate of the ports in p->part, recorded at the current cycle;
 * -1 without memory. */
static int new_candidate(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    if (p->ncand == p->cand_cap) {
        int nc = p->cand_cap ? 2 * p->cand_cap : 64;
        struct jgroup **c = realloc(p->cand, (size_t)nc * sizeof *c);
        if (!c)
            return -1;
        p->cand = c;
        p->cand_cap = nc;
    }
    struct jgroup *g = group_get(p);
    if (!g)
        return -1;
    p->cand[p->ncand++] = g;
    if (g->port_cap < p->npart) {
        int *np = realloc(g->port, (size_t)p->npart * sizeof *np);
        if (!np)
            return -1;
        g->port = np;
        g->port_cap = p->npart;
    }
    /* its ports in ascending order (input ports, which have the lower ids, first) */
    int lo = INT32_MAX, hi = 0;
    for (int i = 0; i < p->npart; i++) {
        int id = p->part[i];
        p->bits[id / 64] |= 1ull << (id % 64);
        lo = id < lo ? id : lo;
        hi = id > hi ? id : hi;
    }
    g->nport = 0;
    for (int w = lo / 64; w <= hi / 64; w++) {
        for (uint64_t b = p->bits[w]; b; b &= b - 1)
            g->port[g->nport++] = w * 64 + __builtin_ctzll(b);
        p->bits[w] = 0;
    }
    for (int i = 0; i < g->nport; i++)
        p->cm[g->port[i]] = g;
    g->c0 = n->now;
    g->moves0 = n->moves;
    g->wait = JUMP_WAIT0;
    settle_ports(n, g);                  /* the counters at c0 */
    if (!walk_record(n, g, n->now))
        return -1;
    g->nls = nlinks(n, g);
    if (g->nls > g->ls_cap) {
        struct link_stats *ls = realloc(g->ls, (size_t)g->nls * sizeof *ls);
        if (!ls)
            return -1;
        g->ls = ls;
        g->ls_cap = g->nls;
    }
    link_counters(n, g, g->ls);
    return 0;
}

/* The parts of the seeded ports (every input port, the first time) as
 * candidates: a candidate whose ports are its part's, all of them, is that
 * part, whole since its record, which it keeps; a part holding ports of
 * other candidates replaces them (their other ports seeded), recorded
 * anew. A part with no content is none; one with a head still to cross a
 * link or aimed at a frozen group is none yet: seeded again when its head
 * is home or parks, the group it aims at thaws, or a tail splits it. */
static void record(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    if (alloc_scratch(n))
        return;                          /* no memory: step on, one cycle at a time */
    if (!p->seedgen) {                   /* the first: every input port */
        p->seedgen = 1;
        for (int r = 0; r < n->nr; r++)
            for (int ip = 0; ip < n->nin; ip++)
                seed(n, net_in_id(n, r, ip));
    }
    p->epoch++;
    p->stamp++;
    for (int k = 0; k < p->nseed; k++) {
        int id = p->seed[k];
        if (p->mark[id] == p->stamp || n->ac.pg[id])
            continue;                    /* (its part is looked at already, or frozen) */
        if (part(n, id) != 1)
            continue;
        struct jgroup *g = p->cm[p->part[0]];
        for (int i = 1; g && i < p->npart; i++)
            if (p->cm[p->part[i]] != g)
                g = NULL;
        if (g && g->nport == p->npart)
            continue;                    /* the candidate it is */
        for (int i = 0; i < p->npart; i++) {
            struct jgroup *h = p->cm[p->part[i]];
            if (!h)
                continue;
            for (int j = 0; j < p->ncand; j++)
                if (p->cand[j] == h) {
                    p->cand[j] = p->cand[--p->ncand];
                    break;
                }
            drop(n, h);
        }
        if (new_candidate(n))
            goto oom;
    }
    p->seedgen++;
    p->nseed = 0;
    p->next_try = UINT64_MAX;
    p->rest = n->now + JUMP_REST;
    return;
oom:
    p->nseed = 0;
    p->seedgen++;                        /* the ports taken this pass may be seeded again */
    drop_candidates(n);
}

/* Candidate g, still a whole part, recorded again at the current cycle. */
static int rerecord(struct net *n, struct jgroup *g)
{
    n->ac.jp.epoch++;
    settle_ports(n, g);
    if (!walk_record(n, g, n->now))
        return -1;
    link_counters(n, g, g->ls);
    g->c0 = n->now;
    g->moves0 = n->moves;
    return 0;
}

/* Marks g's ports in p->mark with a new stamp, returned. */
static uint64_t mark_ports(struct jprobe *p, const struct jgroup *g)
{
    uint64_t s = ++p->stamp;
    for (int i = 0; i < g->nport; i++)
        p->mark[g->port[i]] = s;
    return s;
}

/* Whether nothing joined g since c0, its ports marked with stamp s. Its
 * state is as at c0, so its own worms reach only its ports; a port outside
 * joins it only by an output port of it: a worm routed there, or a head
 * that will be. A router's input VCs join a new output only when a head
 * enters one, is routed or stops being parked, or when a group of its
 * ports thaws (they were left out of the parts recorded while it was
 * frozen): head_c. A router without such a cycle since c0 joins what it
 * joined then. */
static int closed_marked(struct net *n, const struct jgroup *g, uint64_t s)
{
    struct jprobe *p = &n->ac.jp;
    const int V = n->V;
    for (int i = 0; i < g->nport; i++) {
        int id = g->port[i];
        if (is_in(n, id))
            continue;
        int r = net_port_router(n, id), o = net_port_index(n, id);
        if (n->r[r].acc.head_c < g->c0)
            continue;
        for (int ip = 0; ip < n->nin; ip++) {
            if (p->mark[net_in_id(n, r, ip)] == s)
                continue;
            for (int vc = 0; vc < V; vc++) {
                struct joins it;
                int to, head;
                for (joins_begin(&it, n, r, ip, vc); (to = joins_next(&it, &head)) >= 0;)
                    if (to == o)
                        return 0;
            }
        }
    }
    return 1;
}

static int closed(struct net *n, const struct jgroup *g)
{
    return closed_marked(n, g, mark_ports(&n->ac.jp, g));
}

/* Whether no head entered or was routed in any router of g's ports since
 * cycle c (net_router's head_c). A part whole at c then still is: only a
 * head routed, or one arriving to be, joins a port to another. */
static int unchanged(const struct net *n, const struct jgroup *g, uint64_t c)
{
    for (int i = 0; i < g->nport; i++)
        if (n->r[net_port_router(n, g->port[i])].acc.head_c >= c)
            return 0;
    return 1;
}

/* Whether g's ports are still a whole part (part()): no port outside is
 * routed into it, and every routed VC and every head in its input ports
 * goes to an output port of it. g was whole at g->c0. */
static int whole(struct net *n, const struct jgroup *g)
{
    if (unchanged(n, g, g->c0))
        return 1;
    struct jprobe *p = &n->ac.jp;
    const int V = n->V;
    uint64_t s = mark_ports(p, g);
    if (!closed_marked(n, g, s))
        return 0;
    for (int i = 0; i < g->nport; i++) {
        int id = g->port[i];
        if (!is_in(n, id))
            continue;
        int r = net_port_router(n, id), ip = net_port_index(n, id);
        if (n->r[r].acc.head_c < g->c0)
            continue;                            /* (closed_marked) */
        for (int vc = 0; vc < V; vc++) {
            struct joins it;
            int o, head;
            for (joins_begin(&it, n, r, ip, vc); (o = joins_next(&it, &head)) >= 0;)
                if (p->mark[net_out_id(n, r, o)] != s)
                    return 0;
        }
    }
    return 1;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Whether candidate g holds a parked head and no flit crossed a link of
 * it since its record. */
static int still(const struct net *n, const struct jgroup *g)
{
    int parked = 0;
    for (int i = 0, k = 0; i < g->nport; i++) {
        int id = g->port[i];
        if (is_in(n, id)) {
            for (int vc = 0; vc < n->V; vc++)
                parked |= net_parked(&n->r[net_port_router(n, id)], net_port_index(n, id) * n->V + vc);
            continue;
        }
        int l = link_of(n, id);
        if (l >= 0 && n->ls[l].flits != g->ls[k++].flits)
            return 0;
    }
    return parked;
}

/* How many whole periods of length P the group may be frozen for from now
 * (see the top of the file); 0 if none. Fills each worm's d and db. */
static uint64_t periods(struct net *n, struct jgroup *g, uint64_t P)
{
    uint64_t c1 = n->now, k = UINT64_MAX, moving = 0, pushing = 0;
    for (size_t i = 0; i < g->nmsg; i++) {
        struct jmsg *j = &g->msg[i];
        j->d = j->m->f_out - j->f_out;
        j->db = j->m->blocked_cycles - j->blocked;
        moving += j->d;
    }
    if (!moving) {
        /* Nothing delivered: the group may be frozen only if nothing moved
         * in it at all (heads parked and the worms behind them, net_state.h),
         * and it thaws when touched. */
        if (!net_parks(n) || !still(n, g))
            return 0;
    }
    for (int i = 0; i < g->nport; i++) {
        int id = g->port[i];
        if (!is_in(n, id) || net_port_index(n, id) < n->nlinkp)
            continue;
        const struct nic_queue *q = &n->r[net_port_router(n, id)].inj[net_port_index(n, id) - n->nlinkp];
        const struct net_msg *m = q->first;
        if (!m)
            continue;
        uint32_t d = g->msg[m->jix].d;
        if (q->next_flit == 0 && m->c_ready > c1)
            k = min_u64(k, (m->c_ready - c1) / P);
        if (d) {
            k = min_u64(k, (m->flits - 1 - q->next_flit) / d);
            pushing += d;
        }
    }
    /* Every worm that moves is pushed by its NIC as fast as it drains. */
    return moving == pushing ? k : 0;
}

/* Group g's routers, asleep, wake with their owed counts added: what
 * they would count changes when g freezes or thaws. */
static void wake_routers(struct net *n, const struct jgroup *g)
{
    for (int i = 0; i < g->nport; i++)
        net_sleep_end(n, net_port_router(n, g->port[i]));
}

/* --- The frozen groups: a binary heap on `until` ----------------------------- */

static void fz_set(struct net *n, int i, struct jgroup *g)
{
    n->ac.fz[i] = g;
    g->hix = i;
}

static void fz_up(struct net *n, int i)
{
    struct jgroup *g = n->ac.fz[i];
    while (i > 0 && n->ac.fz[(i - 1) / 2]->until > g->until) {
        fz_set(n, i, n->ac.fz[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    fz_set(n, i, g);
}

static void fz_down(struct net *n, int i)
{
    struct jgroup *g = n->ac.fz[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n->ac.nfz)
            break;
        if (c + 1 < n->ac.nfz && n->ac.fz[c + 1]->until < n->ac.fz[c]->until)
            c++;
        if (n->ac.fz[c]->until >= g->until)
            break;
        fz_set(n, i, n->ac.fz[c]);
        i = c;
    }
    fz_set(n, i, g);
}

/* The soonest group, out of the heap. */
static struct jgroup *fz_pop(struct net *n)
{
    struct jgroup *g = n->ac.fz[0];
    if (--n->ac.nfz) {
        fz_set(n, 0, n->ac.fz[n->ac.nfz]);
        fz_down(n, 0);
    }
    return g;
}

static void freeze(struct net *n, struct jgroup *g, uint64_t P, uint64_t k)
{
    g->dhops = 0;
    for (int i = 0, j = 0; i < g->nport; i++) {    /* g->ls: from the counters at c0 to a period's */
        int l = link_of(n, g->port[i]);
        if (l < 0)
            continue;
        const struct link_stats *now = &n->ls[l];
        g->ls[j] = (struct link_stats){ now->flits - g->ls[j].flits, now->worms - g->ls[j].worms,
                                        now->blocked - g->ls[j].blocked };
        g->dhops += g->ls[j++].flits;
    }
    g->dmoves = g->dhops;
    for (size_t i = 0; i < g->nmsg; i++)
        g->dmoves += g->msg[i].d;
    if (n->ac.nfz == n->ac.fz_cap) {
        int nc = n->ac.fz_cap ? 2 * n->ac.fz_cap : 64;
        struct jgroup **f = realloc(n->ac.fz, (size_t)nc * sizeof *f);
        if (!f) {
            drop(n, g);                          /* not frozen: its part looked at again */
            return;
        }
        n->ac.fz = f;
        n->ac.fz_cap = nc;
    }
    fz_set(n, n->ac.nfz++, g);                      /* (its place in the heap once `until` is known) */
    wake_routers(n, g);                          /* they count afresh without it */
    g->c1 = n->now;
    g->P = P;
    g->until = P && k < (UINT64_MAX - n->now) / P ? n->now + k * P : UINT64_MAX;
    g->nflits = 0;
    for (int i = 0; i < g->nport; i++) {
        int id = g->port[i];
        n->ac.pg[id] = g;
        if (!is_in(n, id))
            continue;
        struct net_router *R = &n->r[net_port_router(n, id)];
        int ip = net_port_index(n, id);
        if (!n->wide)
            R->acc.fmask |= ((1ull << n->V) - 1) << (ip * n->V);
        for (int vc = 0; vc < n->V; vc++) {
            const struct ivc *v = &R->in[ip * n->V + vc];
            g->nflits += v->count;
            R->acc.nfrozen += v->count;
        }
    }
    n->ac.frozen_flits += g->nflits;
    fz_up(n, g->hix);
    n->ac.next_thaw = n->ac.fz[0]->until;
    n->ac.jumps++;
}

/* Whether some NIC channel has more than JUMP_MIN_PUSH flits still to
 * push of its front worm (see the top of the file: short worms). */
static int long_push(const struct net *n)
{
    NET_FOR_QUEUED(n, i, ch, q) {
        if (q->first->flits - q->next_flit > JUMP_MIN_PUSH)
            return 1;
    }
    return 0;
}

/* Each cycle stepped without an event: compare the candidates, freeze
 * those found periodic. */
void net_jump_probe(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    if (n->mc_live)
        return;              /* multidestination worms: stepped (net_model.h) */
    int changed = 0, failed = 0;
    for (int i = 0; i < p->ncand; i++) {
        struct jgroup *g = p->cand[i];
        uint64_t P = n->now - g->c0;
        int keep = 0;
        /* Nothing moved anywhere since c0: only a still group (a parked head,
         * nothing moving: periods() and still()) may freeze, so it is
         * compared after one cycle; otherwise a group is compared only once
         * something moved. */
        if ((n->moves != g->moves0 || P == 1) && walk_same(n, g, n->now)) {
            settle_ports(n, g);          /* the counters at c1 */
            int cl = unchanged(n, g, g->c0) || closed(n, g);
            uint64_t k = cl ? periods(n, g, P) : 0;
            if (k >= JUMP_KMIN) {
                uncover(p, g);
                freeze(n, g, P, k);
                p->gap = 0;
                keep = 2;
            } else {
                if (cl)
                    failed = 1;
                else
                    changed = 1;             /* something joined it: its part, recorded anew */
            }
        } else if (P < g->wait) {
            keep = 1;
        } else if (2 * g->wait > JUMP_PMAX) {
            failed = 1;
        } else if (!whole(n, g)) {
            changed = 1;
        } else if (!rerecord(n, g)) {
            g->wait *= 2;            /* Brent: a transient start costs O(its length + P) */
            keep = 1;
        }
        if (keep == 1)
            continue;
        if (!keep)
            drop(n, g);
        p->cand[i--] = p->cand[--p->ncand];
    }
    if (changed)
        p->next_try = n->now;
    if (failed) {
        p->gap = p->gap ? min_u64(2 * p->gap, JUMP_GAP_MAX) : JUMP_GAP_MIN;
        p->next_try = min_u64(p->next_try, n->now + p->gap);
    }
    if (n->now < p->next_try || n->now < p->rest)
        return;
    if (!long_push(n)) {
        p->next_try = UINT64_MAX;      /* lowered by net_jump_reset or a thaw */
        return;
    }
    record(n);
}

/* Cycle c of frozen group g's ports alone (thaw): its
 * routers in rank order, injection first, then its credits. No event
 * falls in it (the group's bounds). */
static void step_group(struct net *n, struct jgroup *g, uint64_t c)
{
    struct net_msg *arr = n->arr_head, *left = n->left_head, *hd = n->hd_head;
    uint64_t moved = n->moved;
    n->arr_head = n->left_head = n->hd_head = NULL;
    n->moved = 0;
    for (int k = 0, last = -1; k < g->nport && g->port[k] < n->nr * n->nin; k++) {
        int r = net_port_router(n, g->port[k]);
        if (r != last && n->r[r].queued)
            net_inject_step(n, r, c);
        last = r;
    }
    for (int k = 0, last = -1; k < g->nport && g->port[k] < n->nr * n->nin; k++) {
        int r = net_port_router(n, g->port[k]);
        if (r != last && n->r[r].nflits)
            net_router_step(n, r, c);
        last = r;
    }
    net_apply_credits(n, c + 1);
    if (n->arr_head || n->left_head || n->hd_head) {
        fprintf(stderr, "net: an event in a frozen group's period (net_jump.c): a model error\n");
        abort();
    }
    n->moves += n->moved;
    n->moved = moved;
    n->arr_head = arr;
    n->left_head = left;
    n->hd_head = hd;
}


/* --- Thawing --------------------------------------------------------------- */

/* Group g, frozen at c1, to its state at cycle t (before t is stepped). */
static void thaw(struct net *n, struct jgroup *g, uint64_t t)
{
    uint64_t c1 = g->c1, k = (t - c1) / g->P, dt = k * g->P;
    const int V = n->V;
    wake_routers(n, g);                          /* they count afresh with it */
    for (size_t i = 0; i < g->nmsg; i++) {
        struct jmsg *x = &g->msg[i];
        x->m->f_out += (uint32_t)(k * x->d);
        x->m->blocked_cycles += k * x->db;
    }
    int li = 0;
    for (int i = 0; i < g->nport; i++) {
        int id = g->port[i];
        if (is_in(n, id)) {
            struct net_router *R = &n->r[net_port_router(n, id)];
            int ip = net_port_index(n, id);
            if (R->acc.head_c < t)
                R->acc.head_c = t;                   /* its VCs join outputs of parts recorded without them
                                                    (a head woken while frozen: closed_marked) */
            if (!n->wide)
                R->acc.fmask &= ~(((1ull << V) - 1) << (ip * V));
            for (int vc = 0; vc < V; vc++) {
                struct ivc *v = &R->in[ip * V + vc];
                R->acc.nfrozen -= v->count;
                for (uint32_t x = 0; x < v->count; x++) {
                    struct flit *f = ivc_at(v, x);
                    f->idx += (uint32_t)(k * g->msg[f->m->jix].d);
                    if (f->ready > c1)
                        f->ready += dt;
                }
                if (v->count)
                    v->front_ready = v->q[v->head].ready;
            }
            if (ip >= n->nlinkp) {
                struct nic_queue *q = &R->inj[ip - n->nlinkp];
                if (q->first)
                    q->next_flit += (uint32_t)(k * g->msg[q->first->jix].d);
                if (q->next_ok > c1)
                    q->next_ok += dt;
            }
        } else {
            int r = net_port_router(n, id), o = net_port_index(n, id);
            struct oport *op = &n->r[r].out[o];
            if (op->next_ok > c1)
                op->next_ok += dt;
            int l = link_of(n, id);
            if (l >= 0) {
                struct link_stats *ls = &n->ls[l];
                ls->flits += k * g->ls[li].flits;
                ls->worms += k * g->ls[li].worms;
                ls->blocked += k * g->ls[li].blocked;
                if (n->ac.sat_n[l] && n->ac.sat_since[l] > c1 && g->ls[li].blocked == g->P) {
                    /* A head parked on the link in cycle p while g was frozen,
                     * and counted it; the closed form counts from p + 1
                     * (park_counts). g counts every cycle: the jump counted
                     * those from p on, the catch-up none before p. */
                    uint64_t p = n->ac.sat_since[l] - 1;
                    ls->blocked += p - (c1 + dt);        /* (mod 2^64: minus when p < c1 + dt) */
                }
                li++;
            }
        }
    }
    n->flit_hops += k * g->dhops;
    n->moves += k * g->dmoves;
    n->ac.moves_jumped += k * g->dmoves;
    n->ac.frozen_flits -= g->nflits;
    /* the j cycles left, this group's ports alone */
    n->ac.stepping = g;
    for (uint64_t c = c1 + dt; c < t; c++)
        step_group(n, g, c);
    n->ac.stepping = NULL;
    for (int i = 0; i < g->nport; i++) {
        n->ac.pg[g->port[i]] = NULL;
        seed(n, g->port[i]);
        if (is_in(n, g->port[i]))
            net_activate(n, net_port_router(n, g->port[i]));      /* stepped again (struct net's active) */
    }
}

/* Thaw every frozen group that is due by cycle t, or all of them. */
static void thaw_due(struct net *n, uint64_t t, int all)
{
    if (all) {
        for (int i = 0; i < n->ac.nfz; i++) {
            thaw(n, n->ac.fz[i], t);
            group_put(&n->ac.jp, n->ac.fz[i]);
        }
        n->ac.nfz = 0;
    }
    while (n->ac.nfz && n->ac.fz[0]->until <= t) {
        struct jgroup *g = n->ac.fz[0];
        thaw(n, g, t);                           /* (counted in nfz while it thaws: the hooks read
                                                    n->ac.pg only while some group is frozen) */
        group_put(&n->ac.jp, fz_pop(n));
    }
    n->ac.next_thaw = n->ac.nfz ? n->ac.fz[0]->until : UINT64_MAX;
    if (n->ac.jp.next_try > t)
        n->ac.jp.next_try = t;
}

void net_jump_touch(struct net *n, struct jgroup *g, uint64_t t)
{
    if (g->until > t) {
        g->until = t < g->c1 ? g->c1 : t;
        fz_up(n, g->hix);
    }
    if (g->until < n->ac.next_thaw)
        n->ac.next_thaw = g->until;
}

/* Whether a head parking at frozen group g's port id would change what g
 * counts: the port drives a link not yet saturated, on which g's period
 * counts blocked cycles in some of its cycles but not all. Parking there
 * starts the link's closed form (net_state.h), one blocked cycle every
 * cycle from the one after, which replaces g's own counts. A period that
 * counts none there has no flit waiting for the link; one that counts
 * every cycle is replaced one for one, and thaw() moves the count by the
 * cycles its jump and its catch-up got wrong. An ejection channel has no
 * link count. */
static int park_counts(const struct net *n, const struct jgroup *g, int id)
{
    int l = link_of(n, id);
    if (l < 0 || n->ac.sat_n[l] > 0)
        return 0;
    for (int i = 0, k = 0; i < g->nport; i++) {
        if (link_of(n, g->port[i]) < 0)
            continue;
        if (g->port[i] == id)
            return g->ls[k].blocked != 0 && g->ls[k].blocked != g->P;   /* (per period since freeze) */
        k++;
    }
    return 1;
}

/* The head of m, in input port ip of router r, is routed at cycle t: the
 * frozen group of its output thaws then, unless the head would park there
 * (net_would_park) without changing what the group counts (park_counts). */
void net_jump_head(struct net *n, int r, int ip, const struct net_msg *m, uint64_t t)
{
    int cls, o = net_head_route(n, r, ip, m, &cls), id = net_out_id(n, r, o);
    struct jgroup *g = n->ac.pg[id];
    if (g && !(net_parks(n) && !m->mc && net_would_park(n, r, o, cls) && !park_counts(n, g, id)))
        net_jump_touch(n, g, t);
}

/* The start of cycle c: thaw the groups due, and those a head about to
 * enter the network is aimed at. */
void net_jump_cycle(struct net *n, uint64_t c)
{
    if (!n->ac.nfz)
        return;
    if (n->ac.next_thaw <= c)
        thaw_due(n, c, 0);
    /* the nodes with a channel whose front worm has not begun, while any
     * has: a head the NIC pushes in cycle c (net_inject_step's conditions) may
     * be routed in c */
    for (size_t w = 0; n->ac.heads_waiting && w < ((size_t)n->nr + 63) / 64; w++)
        for (uint64_t b = n->ac.hwait[w]; b; b &= b - 1) {
            int i = (int)(w * 64) + __builtin_ctzll(b), waiting = 0;
            const struct net_router *R = &n->r[i];
            for (int ch = 0; ch < n->ninj; ch++) {
                const struct nic_queue *q = &R->inj[ch];
                int ip = n->nlinkp + ch;
                if (!q->first || q->next_flit)
                    continue;
                waiting = 1;
                if (n->ac.pg[net_in_id(n, i, ip)] || !net_nic_can_push(n, R, ch, c))
                    continue;
                net_jump_head(n, i, ip, q->first, c);
            }
            if (!waiting)
                n->ac.hwait[w] &= ~(1ull << (i % 64));
        }
    if (n->ac.next_thaw <= c)
        thaw_due(n, c, 0);
}

/* The cycle the clock may go to when every flit in the network is frozen:
 * the next thaw, or the first an unfrozen channel may inject in. */
uint64_t net_jump_idle_until(const struct net *n)
{
    uint64_t t = n->ac.next_thaw;
    NET_FOR_QUEUED(n, i, ch, q) {
        if (n->ac.pg[net_in_id(n, i, n->nlinkp + ch)])
            continue;
        uint64_t c = q->next_flit ? n->now : q->first->c_ready;
        if (c < t)
            t = c;
    }
    return t;
}

/* A message queued on channel ch of node src. */
void net_jump_queued(struct net *n, int src, int ch, int mc)
{
    if (!n->ac.nfz)
        return;
    if (mc) {
        thaw_due(n, n->now, 1);
        return;
    }
    struct jgroup *g = n->ac.pg[net_in_id(n, src, n->nlinkp + ch)];
    if (g)
        net_jump_touch(n, g, n->now);
    if (n->ac.next_thaw <= n->now)
        thaw_due(n, n->now, 0);
}

void net_jump_settle(struct net *n)
{
    if (n->ac.nfz)
        thaw_due(n, n->now, 1);
    net_sleep_settle(n);
    net_wake(n, n->now);
    if (net_sat_settle(n) && n->ac.jp.ncand) {
        drop_candidates(n);                         /* their link counts at c0 are off now */
        net_jump_reset(n);
    }
}

void net_jump_reset(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    if (p->next_try > n->now)
        p->next_try = n->now;
}

void net_jump_free(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    for (int i = 0; i < p->ncand; i++)
        group_free(p->cand[i]);
    free(p->cand);
    free(p->port_r);
    free(p->port_i);
    free(p->mark);
    free(p->part);
    free(p->seed);
    free(p->seeded);
    free(p->cm);
    free(p->rj);
    free(p->rh);
    free(p->rstamp);
    free(p->bits);
    for (int i = 0; i < n->ac.nfz; i++)
        group_free(n->ac.fz[i]);
    free(n->ac.fz);
    for (struct jgroup *g = p->spare, *nx; g; g = nx) {
        nx = g->next_spare;
        group_free(g);
    }
    free(n->ac.pg);
}

const struct net_hooks net_jump_hooks = {
    .settle = net_jump_settle, .cycle = net_jump_cycle, .stepped = net_jump_probe, .head = net_jump_head,
    .touch = net_jump_touch, .queued = net_jump_queued, .reset = net_jump_reset, .idle_until = net_jump_idle_until,
    .free = net_jump_free,
};
