/* The jump's probe (net_jump.h): the parts of the ports, each recorded as
 * a candidate group in its canonical state and compared with its record
 * after each cycle stepped, until a period shows (net_jump_probe), and the
 * seeds that say which parts the next record looks at. A group found
 * periodic is frozen (net_jump.c, jump_freeze). */
#include <stdlib.h>
#include "net_jump.h"

#define JUMP_PMAX    64     /* longest period looked for, in cycles */
#define JUMP_WAIT0   4      /* cycles compared with a group's first record before a new one */
#define JUMP_KMIN    2      /* a group is frozen for at least this many periods */
#define JUMP_GAP_MIN 8
#define JUMP_GAP_MAX 256
#define JUMP_REST    16     /* cycles from one record() to the next, at least */
#define JUMP_MIN_PUSH 48    /* no record while no NIC has more flits than this left to push */

static int nports(const struct net *n) { return n->nr * (n->nin + n->nout); }

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

void jump_group_free(struct jgroup *g)
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
void jump_group_put(struct jprobe *p, struct jgroup *g)
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
void jump_drop(struct net *n, struct jgroup *g)
{
    uncover(&n->ac.jp, g);
    seed_group(n, g);
    jump_group_put(&n->ac.jp, g);
}

/* Every candidate dropped. */
void jump_drop_candidates(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    for (int i = 0; i < p->ncand; i++)
        jump_drop(n, p->cand[i]);
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

/* Port id's part may be a candidate now: the next record() looks at it. */
void net_jump_seed(struct net *n, int id)
{
    jump_seed(n, id);
    if (n->ac.jp.next_try > n->now)
        n->ac.jp.next_try = n->now;
}

/* A tail left port id: a part no candidate holds may split, its
 * pieces to be looked at. */
void net_jump_tail(struct net *n, int id)
{
    struct jprobe *p = &n->ac.jp;
    if (p->seed && !p->cm[id] && !n->ac.pg[id])    /* (seed: the scratch is all there, as in jump_seed()) */
        net_jump_seed(n, id);
}

static void seed_group(struct net *n, const struct jgroup *g)
{
    for (int i = 0; i < g->nport; i++)
        jump_seed(n, g->port[i]);
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
                jump_seed(n, net_in_id(n, r, ip));
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
            jump_drop(n, h);
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
    jump_drop_candidates(n);
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
 * (net_jump.h); 0 if none. Fills each worm's d and db. */
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

/* Whether some NIC channel has more than JUMP_MIN_PUSH flits still to
 * push of its front worm (net_jump.h: short worms). */
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
                jump_freeze(n, g, P, k);
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
            jump_drop(n, g);
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
