/* Exact jumps over periodic stretches of the flit engine (net_model.h).
 *
 * While worms stream and nothing else happens, the network's state repeats
 * up to two shifts: each worm m has moved d(m) more flits into its
 * destination, and every pending time is P cycles later. The engine treats
 * a flit apart only when it is a head or a tail (routing, VC release,
 * c_inject, c_head, c_leave, c_arrive, traces, link worm counts), and reads
 * absolute time only to see whether a queued message is ready. So from a
 * state S it makes the same moves as from S shifted, as long as no head or
 * tail moves and no queued message becomes ready.
 *
 * The probe records the canonical state at cycle c0: per flit its worm, its
 * index less f_out of its worm, whether it is a head or a tail, and how long
 * it still waits (times relative to c0, clamped at 0); per input VC its
 * route; per NIC channel its front worm and how far it has pushed it; per
 * output port its owners, credits and round-robin pointers; per input port
 * its switch pointer. After each cycle
 * stepped it compares the state with that record, for up to JUMP_PMAX
 * cycles. Equal at c1 = c0 + P means the engine is periodic with period P
 * from c0 on (it is deterministic), and the state at c1 + kP is the state at
 * c1 shifted k times, for every k with:
 *   - each worm m with d(m) > 0 pushes no tail: its NIC has pushed nf
 *     flits of its F, and nf + k d(m) <= F - 1. (d(m) > 0 means the worm's
 *     head has left the network and its tail has not entered it: the number
 *     of its flits in each buffer is the same at c0 and c1, and a worm
 *     drains only from its head.)
 *   - each queued message not ready at c1 (ready at cycle rc) stays so:
 *     c1 + kP <= rc;
 *   - c1 + kP <= end, the caller's bound (an injection may come then).
 * The jump adds k times the period's increments to every counter (link
 * flits and blocked cycles, worms' blocked cycles and f_out, flit hops),
 * k d(m) to every flit index and NIC count of each worm m, and kP to the
 * clock and to every pending time.
 *
 * A probe that finds no period waits before the next one, longer after
 * each failure (up to JUMP_GAP_MAX cycles), so traffic that never settles
 * pays little for it.
 */
#include <stdlib.h>
#include <string.h>
#include "net_state.h"

#define JUMP_PMAX    64     /* longest period looked for, in cycles */
#define JUMP_GAP_MIN 8
#define JUMP_GAP_MAX 256

struct walk {
    struct net *n;
    struct jprobe *p;
    int rec;                /* 1: record the state, 0: compare with it */
    size_t pos;
    uint64_t c;             /* the cycle the state is taken at */
    int oom;
};

static int put(struct walk *w, uint64_t v)
{
    struct jprobe *p = w->p;
    if (!w->rec)
        return w->pos < p->len && p->w[w->pos++] == v;
    if (p->len == p->cap) {
        size_t nc = p->cap ? 2 * p->cap : 4096;
        uint64_t *nw = realloc(p->w, nc * sizeof *nw);
        if (!nw) {
            w->oom = 1;
            return 0;
        }
        p->w = nw;
        p->cap = nc;
    }
    p->w[p->len++] = v;
    return 1;
}

#define PUT(x) do { if (!put(w, (uint64_t)(x))) return 0; } while (0)

static uint64_t rel(uint64_t t, uint64_t c) { return t > c ? t - c : 0; }

/* Recording: each worm in the state once, with its counters at c0. */
static int note(struct walk *w, struct net_msg *m)
{
    struct jprobe *p = w->p;
    if (!w->rec || m->jmark == p->epoch)
        return 1;
    if (p->nmsg == p->msg_cap) {
        size_t nc = p->msg_cap ? 2 * p->msg_cap : 256;
        struct jmsg *nm = realloc(p->msg, nc * sizeof *nm);
        if (!nm) {
            w->oom = 1;
            return 0;
        }
        p->msg = nm;
        p->msg_cap = nc;
    }
    m->jmark = p->epoch;
    m->jix = (uint32_t)p->nmsg;
    p->msg[p->nmsg++] = (struct jmsg){ m, m->blocked_cycles, m->f_out, 0, 0 };
    return 1;
}

static uint64_t ready_cycle(const struct net *n, const struct net_msg *m)
{
    return net_ns_to_cycle_ceil(n, m->t_ready_ns);
}

/* The canonical state at w->c, recorded or compared word by word; 0 at
 * the first difference. */
static int walk(struct walk *w)
{
    struct net *n = w->n;
    const int V = n->V;
    size_t words = ((size_t)n->nr + 63) / 64;
    for (size_t k = 0; k < words; k++)
        PUT(n->active[k]);
    NET_FOR_ACTIVE(n, a) {
        struct net_router *r = &n->r[a];
        PUT(r->nflits | (uint64_t)r->queued << 32);
        for (int i = 0; i < n->nin * V; i++) {
            const struct ivc *v = &r->in[i];
            PUT(v->count | (uint64_t)v->routed << 32);
            if (v->routed)
                PUT((uint32_t)v->out_port | (uint64_t)(uint32_t)v->out_vc << 32);
            for (uint32_t j = 0; j < v->count; j++) {
                const struct flit *f = &v->q[(v->head + j) % v->cap];
                PUT((uintptr_t)f->m);
                PUT((uint32_t)(f->idx - f->m->f_out) | (uint64_t)(f->idx == 0) << 32 |
                    (uint64_t)(f->idx == f->m->flits - 1) << 33);
                PUT(rel(f->ready, w->c));
                if (!note(w, f->m))
                    return 0;
            }
        }
        for (int ch = 0; ch < n->ninj; ch++) {
            const struct nic_queue *q = &r->inj[ch];
            PUT((uintptr_t)q->first);
            if (!q->first)
                continue;
            PUT((uint32_t)(q->next_flit - q->first->f_out) |
                (uint64_t)(ready_cycle(n, q->first) > w->c) << 32);
            PUT(rel(q->next_ok, w->c));
            if (!note(w, q->first))
                return 0;
        }
    }
    /* Output ports everywhere: a router without flits at c0 may still hold
     * a VC, be owed credits, or have moved its round-robin pointer. */
    for (int i = 0; i < n->nr; i++) {
        for (int ip = 0; ip < n->nin; ip++)
            PUT(n->r[i].in_rr[ip]);
        for (int o = 0; o < n->nout; o++) {
            const struct oport *op = &n->r[i].out[o];
            PUT(op->rr | (uint64_t)rel(op->next_ok, w->c) << 32);
            PUT(op->va_rr[0] | (uint64_t)op->va_rr[1] << 32);
            for (int v = 0; v < V; v++) {
                PUT(op->credits[v]);
                PUT((uintptr_t)op->owner[v]);
            }
        }
    }
    return w->rec || w->pos == w->p->len;
}

static void record(struct net *n)
{
    struct jprobe *p = &n->jp;
    size_t nl = (size_t)n->nr * (size_t)n->nlinkp;
    if (!p->ls && nl && !(p->ls = malloc(nl * sizeof *p->ls)))
        return;
    p->len = p->nmsg = 0;
    p->epoch++;
    struct walk w = { n, p, 1, 0, n->now, 0 };
    if (!walk(&w) || w.oom)
        return;                         /* no memory: step on, one cycle at a time */
    if (nl)
        memcpy(p->ls, n->ls, nl * sizeof *p->ls);
    p->c = n->now;
    p->moves = n->moves;
    p->flit_hops = n->flit_hops;
    p->valid = 1;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* How many whole periods of length P may be jumped from now (see the top
 * of the file); 0 if none. */
static uint64_t periods(struct net *n, uint64_t P, uint64_t end)
{
    struct jprobe *p = &n->jp;
    uint64_t c1 = n->now, k = end == UINT64_MAX ? UINT64_MAX : (end - c1) / P;
    if (n->moves == p->moves)
        return 0;                       /* nothing moves: leave the stall check its cycles */
    for (size_t i = 0; i < p->nmsg; i++) {
        struct jmsg *j = &p->msg[i];
        j->d = j->m->f_out - j->f_out;
        j->db = j->m->blocked_cycles - j->blocked;
    }
    uint64_t pushing = 0;
    NET_FOR_ACTIVE(n, a) {
        const struct net_router *r = &n->r[a];
        for (int ch = 0; ch < n->ninj; ch++) {
            const struct nic_queue *q = &r->inj[ch];
            const struct net_msg *m = q->first;
            if (!m)
                continue;
            uint32_t d = p->msg[m->jix].d;
            if (q->next_flit == 0 && ready_cycle(n, m) > c1)
                k = min_u64(k, (ready_cycle(n, m) - c1) / P);
            if (d) {
                k = min_u64(k, (m->flits - 1 - q->next_flit) / d);
                pushing += d;
            }
        }
    }
    /* Every worm that moves is pushed by its NIC as fast as it drains. */
    uint64_t moving = 0;
    for (size_t i = 0; i < p->nmsg; i++)
        moving += p->msg[i].d;
    return moving == pushing ? k : 0;
}

static void jump(struct net *n, uint64_t P, uint64_t k)
{
    struct jprobe *p = &n->jp;
    uint64_t c1 = n->now, dt = k * P;
    for (size_t i = 0; i < p->nmsg; i++) {
        struct jmsg *j = &p->msg[i];
        j->m->f_out += (uint32_t)(k * j->d);
        j->m->blocked_cycles += k * j->db;
    }
    NET_FOR_ACTIVE(n, a) {
        struct net_router *r = &n->r[a];
        for (int i = 0; i < n->nin * n->V; i++) {
            struct ivc *v = &r->in[i];
            for (uint32_t x = 0; x < v->count; x++) {
                struct flit *f = &v->q[(v->head + x) % v->cap];
                f->idx += (uint32_t)(k * p->msg[f->m->jix].d);
                if (f->ready > c1)
                    f->ready += dt;
            }
        }
        for (int ch = 0; ch < n->ninj; ch++) {
            struct nic_queue *q = &r->inj[ch];
            if (!q->first)
                continue;
            q->next_flit += (uint32_t)(k * p->msg[q->first->jix].d);
            if (q->next_ok > c1)
                q->next_ok += dt;
        }
    }
    for (int i = 0; i < n->nr; i++)
        for (int o = 0; o < n->nout; o++)
            if (n->r[i].out[o].next_ok > c1)
                n->r[i].out[o].next_ok += dt;
    size_t nl = (size_t)n->nr * (size_t)n->nlinkp;
    for (size_t i = 0; i < nl; i++) {
        n->ls[i].flits += k * (n->ls[i].flits - p->ls[i].flits);
        n->ls[i].blocked += k * (n->ls[i].blocked - p->ls[i].blocked);
        n->ls[i].worms += k * (n->ls[i].worms - p->ls[i].worms);
    }
    n->flit_hops += k * (n->flit_hops - p->flit_hops);
    n->moves += k * (n->moves - p->moves);
    n->now += dt;
    n->jumped += dt;
    n->jumps++;
}

static void give_up(struct jprobe *p, uint64_t now)
{
    p->valid = 0;
    p->gap = p->gap ? min_u64(2 * p->gap, JUMP_GAP_MAX) : JUMP_GAP_MIN;
    p->next_try = now + p->gap;
}

void net_jump_probe(struct net *n, uint64_t end)
{
    struct jprobe *p = &n->jp;
    if (n->mc_live)
        return;              /* multidestination worms: stepped (net_model.h) */
    if (!p->valid) {
        if (n->now >= p->next_try)
            record(n);
        return;
    }
    uint64_t P = n->now - p->c;
    struct walk w = { n, p, 0, 0, n->now, 0 };
    if (walk(&w)) {
        uint64_t k = periods(n, P, end);
        if (!k) {
            give_up(p, n->now);         /* periodic, but a bound is near */
            return;
        }
        jump(n, P, k);
        p->valid = 0;                   /* the next probe starts from here */
        p->gap = 0;
        p->next_try = n->now;
        return;
    }
    if (P >= JUMP_PMAX)
        give_up(p, n->now);
}

void net_jump_reset(struct net *n)
{
    struct jprobe *p = &n->jp;
    if (p->valid)
        give_up(p, n->now);
    else if (p->next_try < n->now)
        p->next_try = n->now;
}

void net_jump_free(struct net *n)
{
    free(n->jp.w);
    free(n->jp.msg);
    free(n->jp.ls);
}
