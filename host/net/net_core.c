/* The network's cycle model: one router's step (route, VC allocation,
 * switch allocation, traversal), a NIC's injection, links and credits
 * (net_model.h has the model). It is exact on its own: stepping every
 * router every cycle gives every time and counter. It reads no field of
 * the accelerators (sleep, parked heads, the jump): it tells them what
 * happens through net_accel.h's hooks, and asks them which ports to skip.
 * The allocators are net_alloc.c's (struct net_allocator), the routing
 * functions net_route.c's and net_topo.c's; net.c runs the cycles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "net_route.h"
#include "net_accel.h"

/* Double input VC v's buffer, its flits kept in order from the front:
 * only a cut-through or store-and-forward worm fills one (out of line, so
 * that ivc_push stays small enough to inline). */
static __attribute__((noinline, cold)) void ivc_grow(struct ivc *v)
{
    uint32_t nc = v->cap * 2;
    struct flit *q = calloc(nc, sizeof *q);
    if (!q) {                                 /* no error path mid-cycle: stop, said */
        fprintf(stderr, "net: out of memory growing an input buffer to %u flits (%zu bytes)\n", nc,
                (size_t)nc * sizeof *q);
        abort();
    }
    for (uint32_t k = 0; k < v->count; k++)
        q[k] = *ivc_at(v, k);
    free(v->q);
    v->q = q;
    v->cap = nc;
    v->head = 0;
}

/* Push onto input VC i of router r, and pop its front. Both keep the
 * VC's front_ready and the router's mask of busy VCs (struct
 * net_router's busy; none on a wide network). */
static inline void ivc_push(const struct net *n, struct net_router *r, int i, struct flit f)
{
    struct ivc *v = &r->in[i];
    if (__builtin_expect(v->count == v->cap, 0))
        ivc_grow(v);
    if (!v->count)
        v->front_ready = f.ready;
    acc_flit_in(n, r);
    *ivc_at(v, v->count++) = f;
    if (!n->wide)
        r->busy |= 1ull << i;
}

static struct flit *ivc_front(struct ivc *v) { return &v->q[v->head]; }

static inline void ivc_pop(const struct net *n, struct net_router *r, int i)
{
    struct ivc *v = &r->in[i];
    v->head = (v->head + 1) & (v->cap - 1);
    if (--v->count)
        v->front_ready = v->q[v->head].ready;
    else if (!n->wide)
        r->busy &= ~(1ull << i);
}

/* The first input VC from i on that may hold a flit, not in `skip`: by
 * the busy mask, or i itself on a wide router; nin V when there is none. */
static inline int next_busy(const struct net *n, const struct net_router *r, int i, uint64_t skip)
{
    if (n->wide)
        return i;
    uint64_t b = i < 64 ? r->busy & ~skip & (~0ull << i) : 0;
    return b ? __builtin_ctzll(b) : n->nin * n->V;
}

static inline __attribute__((always_inline)) void count_blocked(struct net *n, int node, int port, struct net_msg *m,
                                                                uint8_t *seen)
{
    m->blocked_cycles++;
    acc_worm_blocked(n, node, m);
    if (port < n->nlinkp && !seen[port]) {
        seen[port] = 1;
        if (acc_link_saturated(n, node, port))
            return;                              /* counted in closed form */
        n->ls[(size_t)node * n->nlinkp + port].blocked++;
        acc_link_blocked(n, node, port);
    }
}

void net_count_blocked(struct net *n, int node, int port, struct net_msg *m, uint8_t *seen)
{
    count_blocked(n, node, port, m, seen);
}

/* Input VC i of router `node`, a head refused an output VC in cycle c:
 * blocked this cycle, and parked if it may park and is not yet (1: a
 * change, so the router does not sleep after this cycle). */
int net_refused(struct net *n, int node, int i, uint8_t *seen, uint64_t c)
{
    struct net_router *r = &n->r[node];
    net_count_blocked(n, node, r->in[i].out_port, r->in[i].q[r->in[i].head].m, seen);
    return acc_refused(n, node, i, c);
}

static void add_event(struct net_msg **head, struct net_msg *m, int left)
{
    /* (src, seq) order: insertion sort, the lists are short */
    struct net_msg **pp = head;
    while (*pp && ((*pp)->src < m->src || ((*pp)->src == m->src && (*pp)->seq < m->seq)))
        pp = left ? &(*pp)->next_left : &(*pp)->next_done;
    if (left) {
        m->next_left = *pp;
    } else {
        m->next_done = *pp;
    }
    *pp = m;
}

/* NIC injection: each channel pushes the next flit of its front message
 * into its router's injection buffer, one flit per cycle. */
void net_inject_step(struct net *n, int node, uint64_t c)
{
    struct net_router *r = &n->r[node];
    for (int ch = 0; ch < n->ninj; ch++) {
        struct nic_queue *q = &r->inj[ch];
        struct net_msg *m = q->first;
        if (acc_nic_skipped(n, r, node, ch))
            continue;                            /* another group's (net_jump.c; as in net_router_step) */
        if (!net_nic_can_push(n, r, ch, c))
            continue;
        if (q->next_flit == 0) {
            m->c_inject = c;
            acc_nic_started(n, r, node, ch, c);
        }
        if (q->next_flit == 0 && n->p.nic_vcs > 1)
            q->vc = net_inj_vc(n, r, ch);           /* (net_nic_can_push found it has room) */
        ivc_push(n, r, (n->nlinkp + ch) * n->V + q->vc, (struct flit){ m, q->next_flit, 0, c });
        q->next_ok = c + n->p.nic_cycles;
        r->nflits++;
        n->inflight_flits++;
        if (++q->next_flit == m->flits) {
            m->c_leave = c + 1;
            add_event(&n->left_head, m, 1);
            q->first = m->next_queue;
            if (!q->first) {
                q->last = NULL;
            } else {
                acc_nic_next(n, node);
            }
            q->next_flit = 0;
            r->queued--;
            n->queued_msgs--;
        }
    }
}

/* Output VC allocation for input VC i (ip V + vc), whose front flit is a
 * routed head without one: the lowest free VC of its class on its output.
 * 0 if none is free (the worm is blocked this cycle). */
int net_vc_grant(struct net *n, int node, int i, uint64_t c)
{
    struct net_router *r = &n->r[node];
    struct ivc *v = &r->in[i];
    if (acc_vc_withheld(n, r, i))
        return 0;
    struct oport *op = &r->out[v->out_port];
    int lo, hi;
    net_class_vcs(n, op, net_head_class(v), &lo, &hi);
    for (int k = lo; k < hi; k++) {
        if (!net_vc_free(n, op, k))
            continue;
        op->owner[k] = ivc_front(v)->m;
        v->out_vc = k;
        acc_vc_granted(n, node, i, c);
        return 1;
    }
    return 0;
}

void net_vc_take(struct net *n, int node, int i, const struct net_cand *cd, int vc)
{
    struct net_router *r = &n->r[node];
    struct ivc *v = &r->in[i];
    struct net_msg *m = ivc_front(v)->m;
    r->out[cd->port].owner[vc] = m;
    v->out_port = cd->port;
    v->out_vc = vc;
    net_route_commit(n, node, m, cd);          /* the head that takes a VC at its Valiant
                                                  intermediate node starts its second phase */
    if (m->route_len < (uint32_t)net_route_room(n, m))
        n->taken[m->route_at - 1 + m->route_len++] = node * n->nlinkp + cd->port;
}


/* Flit f crosses output link o of `node` on VC ovc into the next router. */
static inline __attribute__((always_inline)) void push_link(struct net *n, int node, int o, int ovc, struct flit f, uint64_t c)
{
    struct oport *op = &n->r[node].out[o];
    const int V = n->V;
    if (n->p.switching == SW_WORMHOLE)
        op->credits[ovc]--;
    struct net_router *dr = &n->r[op->to_router];
    if (f.idx == 0)
        acc_head_pushed(n, op->to_router, op->to_port, f.m, c);
    f.ready = c + n->p.hop_cycles;
    ivc_push(n, dr, op->to_port * V + ovc, f);
    dr->nflits++;
    net_activate(n, op->to_router);
    n->flit_hops++;
    op->ls->flits++;
    if (f.idx == 0)
        op->ls->worms++;
    if (n->trace_fn) {
        if (f.idx == 0)
            op->head_cycle[ovc] = c;
        if (f.idx == f.m->flits - 1)
            n->trace_fn(n->trace_ctx, node * n->nlinkp + o, f.m, op->head_cycle[ovc], c + 1);
    }
}

/* The freed slot of input port ip's VC vc, freed in cycle c, returns a
 * credit upstream, usable from cycle c + 1 + credit_delay. */
static inline __attribute__((always_inline)) void credit_back(struct net *n, int node, int ip, int vc, uint64_t c)
{
    if (ip >= n->nlinkp)
        return;
    if (n->ncr == n->cr_cap) {
        n->cr_cap = n->cr_cap ? 2 * n->cr_cap : 256;
        n->cr = realloc(n->cr, n->cr_cap * sizeof *n->cr);
        if (n->p.credit_delay)
            n->cr_due = realloc(n->cr_due, n->cr_cap * sizeof *n->cr_due);
        if (!n->cr || (n->p.credit_delay && !n->cr_due)) {   /* no error path mid-cycle: stop, said */
            fprintf(stderr, "net: out of memory for %zu credit returns\n", n->cr_cap);
            abort();
        }
    }
    if (n->p.credit_delay)
        n->cr_due[n->ncr] = c + 1 + n->p.credit_delay;
    n->cr[n->ncr++] = (struct credit_ret){ n->r[node].up[ip], n->r[node].up_port[ip], vc };
}

/* Input VC ip V + vc sends its front flit through its output (the switch
 * granted it). */
void net_send_flit(struct net *n, int node, int ip, int vc, uint64_t c)
{
    struct net_router *r = &n->r[node];
    const int V = n->V;
    struct ivc *v = &r->in[ip * V + vc];
    struct oport *op = &r->out[v->out_port];
    int o = v->out_port;
    n->in_used[ip] = 1;
    struct flit f = *ivc_front(v);
    ivc_pop(n, r, ip * V + vc);
    r->nflits--;
    n->moved++;
    int ovc = v->out_vc;
    if (f.idx == f.m->flits - 1) {                   /* tail: release the route */
        op->owner[ovc] = NULL;
        v->routed = 0;
        r->nrouted--;
        acc_tail_left(n, node, ip, o, ovc, c);
    }
    credit_back(n, node, ip, vc, c);
    if (op->is_eject) {
        op->next_ok = c + n->p.nic_cycles;
        n->inflight_flits--;
        f.m->f_out++;
        if (f.idx == 0) {
            f.m->c_head = c + 1;
            if (f.m->route_at)
                f.m->hops = (int)f.m->route_len;     /* an adaptive route: the links it took */
            if (f.m->notify_head) {
                struct net_msg **pp = &n->hd_head;     /* (src, seq) order */
                while (*pp && ((*pp)->src < f.m->src || ((*pp)->src == f.m->src && (*pp)->seq < f.m->seq)))
                    pp = &(*pp)->next_head;
                f.m->next_head = *pp;
                *pp = f.m;
            }
        }
        if (f.idx == f.m->flits - 1) {
            f.m->c_arrive = c + 1;
            n->undelivered--;
            add_event(&n->arr_head, f.m, 0);
        }
    } else {
        push_link(n, node, o, ovc, f, c);
    }
}

/* Multidestination worms (net_model.h, net_mc.c). */

/* Output VCs for the branches of the routed worms in n->mc_vc (ascending
 * input VC order), before any other worm's: each branch takes the lowest
 * free VC of its output (net_port_vcs) and holds it to the
 * tail, whether or not its siblings got theirs. */
static __attribute__((noinline)) void mc_vc_allocate(struct net *n, int node, int nmc)
{
    struct net_router *r = &n->r[node];
    for (int q = 0; q < nmc; q++) {
        struct ivc *v = &r->in[n->mc_vc[q]];
        struct ivc_br *br = r->mbr[n->mc_vc[q]];
        for (int b = 0; b < br->n; b++) {
            if (br->vc[b] >= 0)
                continue;
            struct oport *op = &r->out[br->port[b]];
            for (int k = 0; k < net_port_vcs(n, op); k++) {
                if (op->owner[k])
                    continue;
                if (n->p.switching != SW_WORMHOLE && !op->is_eject &&
                    n->r[op->to_router].in[op->to_port * n->V + k].count)
                    continue;                        /* whole-worm room: an empty buffer */
                op->owner[k] = ivc_front(v)->m;
                br->vc[b] = k;
                break;
            }
        }
    }
}

/* The worm at the front of input VC i sends its front flit on every
 * branch at once: copies go down the links, and the ejection channel
 * delivers the flit to the copy of this router's node. */
static void send_multi(struct net *n, int node, int i, uint64_t c)
{
    struct net_router *r = &n->r[node];
    struct ivc *v = &r->in[i];
    struct ivc_br *br = r->mbr[i];
    int ip = i / n->V, nb = br->n;
    struct flit f = *ivc_front(v);
    struct net_mc *mc = f.m->mc;
    int tail = f.idx == f.m->flits - 1;
    ivc_pop(n, r, i);
    r->nflits--;
    n->moved++;
    n->in_used[ip] = 1;
    credit_back(n, node, ip, i % n->V, c);
    n->inflight_flits += (uint64_t)nb - 1;
    if (tail) {
        v->routed = 0;
        r->nrouted--;
    }
    for (int b = 0; b < nb; b++) {               /* the ejection branch is last */
        int o = br->port[b];
        struct oport *op = &r->out[o];
        n->out_used[o] = 1;
        if (tail)
            op->owner[br->vc[b]] = NULL;
        if (!op->is_eject) {
            f.pos = br->pos[b];
            push_link(n, node, o, br->vc[b], f, c);
            continue;
        }
        struct net_msg *cp = mc->copy[mc->hop[br->pos[b]].copy];
        op->next_ok = c + n->p.nic_cycles;
        n->inflight_flits--;
        cp->f_out++;
        if (f.idx == 0) {
            cp->c_head = c + 1;
            cp->c_inject = f.m->c_inject;
        }
        if (tail) {
            cp->c_arrive = c + 1;
            cp->c_leave = f.m->c_leave;
            cp->blocked_cycles = f.m->blocked_cycles;
            n->undelivered--;
            add_event(&n->arr_head, cp, 0);
            if (--mc->left == 0) {               /* no flit of it is left anywhere */
                f.m->c_arrive = c + 1;
                free(mc->hop);
                mc->hop = NULL;
                n->mc_live--;
            }
        }
    }
}

/* Switch for the routed worms in n->mc_vc, before any other worm's: one
 * goes when every branch has its VC and room (a credit, or a free
 * ejection channel), and neither its input port nor any of its outputs
 * moved a flit yet this cycle. One that cannot is blocked (once). */
static __attribute__((noinline)) void mc_switch(struct net *n, int node, int nmc, uint64_t c, uint8_t *blocked_seen)
{
    struct net_router *r = &n->r[node];
    for (int q = 0; q < nmc; q++) {
        int i = n->mc_vc[q], ok = !n->in_used[i / n->V], bp = -1;
        struct ivc *v = &r->in[i];
        const struct flit *f = ivc_front(v);
        const struct ivc_br *br = r->mbr[i];
        for (int b = 0; b < br->n; b++) {
            int o = br->port[b];
            const struct oport *op = &r->out[o];
            if (op->is_eject ? c < op->next_ok : 0)
                ok = 0;                              /* the NIC is still taking the last flit */
            else if (br->vc[b] < 0 || n->out_used[o] ||
                     (!op->is_eject && n->p.switching == SW_WORMHOLE && op->credits[br->vc[b]] == 0)) {
                ok = 0;
                if (bp < 0)
                    bp = o;
            } else if (!op->is_eject && n->p.switching == SW_STORE_FORWARD && f->idx == 0) {
                const struct flit *t = ivc_at(v, f->m->flits - 1);
                if (v->count < f->m->flits || !(t->m == f->m && t->idx == f->m->flits - 1 && t->ready <= c))
                    ok = 0;                          /* its tail is not in yet */
            }
        }
        if (ok)
            send_multi(n, node, i, c);
        else if (bp >= 0)
            net_count_blocked(n, node, bp, f->m, blocked_seen);
    }
}

/* A router step's running tallies (net_router_step). */
struct step {
    int nready, nva, nava, nmc, nreq, changed;
    uint64_t wake;
};

/* Phase 1 for input VC i, which holds a flit: route the worm at its front
 * if its front flit is ready, and collect the VC (s->nready), and its head
 * if still without an output VC. `common`: the configuration of
 * net_router_step's fast path, where a busy VC holds a flit, no group's
 * ports are asked for, the routing is oblivious and no multidestination
 * worm is about. */
static inline __attribute__((always_inline)) void collect(struct net *n, int node, int i, uint64_t c,
                                                          struct jgroup *const *pg, struct step *s, const int common)
{
    struct net_router *r = &n->r[node];
    const int V = n->V;
    struct ivc *v = &r->in[i];
    if (!common && !v->count)
        return;
    if (!common && pg && acc_port_skipped(n, pg, i / V))
        return;                                  /* another group's (net_jump.c) */
    if (v->front_ready > c) {
        if (v->front_ready < s->wake)
            s->wake = v->front_ready;
        return;
    }
    if (!v->routed) {
        acc_head_seen(r, c);                     /* a head: routed below, or here if multidestination */
        if (!common && ivc_front(v)->m->mc)
            net_mc_route(n, node, i);
    }
    if (!common && v->routed == 2) {
        n->mc_vc[s->nmc++] = i;
        return;
    }
    if (!v->routed) {
        struct flit *f = ivc_front(v);
        int ip = i / V;
        s->changed = 1;
        int cls = -1, p;
        if (!common && n->adaptive) {
            struct net_cand cd[NET_MAX_CANDS];
            p = net_route_cands(n, node, ip, i % V, f->m, cd) ? cd[0].port : -1;
            cls = NET_ADAPTIVE;                  /* its candidates, asked for at each allocation */
        } else {
            p = net_topo_route(n, node, f->m, &cls);
        }
        if (p < 0) {
            p = net_eject_port(n, ip);
            v->out_vc = -1;
            acc_head_home(n, node, ip);
        } else {
            /* not yet allocated: -1 any VC, -2 class 0, -3 class 1, -4 adaptive */
            v->out_vc = -2 - cls;
        }
        v->out_port = p;
        v->routed = 1;
        r->nrouted++;
    }
    n->ready_vc[s->nready++] = i;
    if (v->out_vc < 0) {
        if (!common && v->out_vc == -2 - NET_ADAPTIVE)
            n->ava_req[s->nava++] = i;
        else
            n->va_req[s->nva++] = i;
    }
}

/* Phase 3 for ready input VC i: a switch request (n->req_ip, n->req_vc)
 * if it holds an output VC and may go, else blocked where it waits for
 * its output. `common` as in collect(); also a wormhole network. */
static inline __attribute__((always_inline)) void request(struct net *n, int node, int i, uint64_t c,
                                                          uint8_t *blocked_seen, struct step *s, const int common)
{
    struct net_router *r = &n->r[node];
    const int V = n->V;
    struct ivc *v = &r->in[i];
    if (v->out_vc < 0)
        return;
    struct oport *op = &r->out[v->out_port];
    if (!common && n->p.switching == SW_STORE_FORWARD && ivc_front(v)->idx == 0 && !op->is_eject) {
        /* the worm is at the front, in order: its tail is F - 1 places
         * behind its head, and must have arrived */
        struct net_msg *m = ivc_front(v)->m;
        if (v->count < m->flits)
            return;
        const struct flit *t = ivc_at(v, m->flits - 1);
        if (!(t->m == m && t->idx == m->flits - 1 && t->ready <= c))
            return;
    }
    if (op->is_eject && c < op->next_ok) {
        s->changed = 1;                          /* (it will go at next_ok: no sleep) */
        return;                                  /* the NIC is still taking the last flit */
    }
    if (!common && s->nmc && (n->in_used[i / V] || n->out_used[v->out_port])) {
        net_count_blocked(n, node, v->out_port, ivc_front(v)->m, blocked_seen);
        return;                                  /* a multidestination worm went there */
    }
    if ((common || n->p.switching == SW_WORMHOLE) && !op->is_eject && op->credits[v->out_vc] == 0) {
        count_blocked(n, node, v->out_port, ivc_front(v)->m, blocked_seen);
        return;
    }
    int ip = i / V;                              /* (one divide: the quotient's remainder is a subtraction) */
    n->req_ip[s->nreq] = ip;
    n->req_vc[s->nreq] = i - ip * V;
    s->nreq++;
}

/* A router's step, `common` a constant: 1 for net_router_step's fast path
 * (collect()'s configuration, on a wormhole network), where the checks
 * for the other configurations fold away; 0 for any configuration. */
static inline __attribute__((always_inline)) void router_step(struct net *n, int node, uint64_t c, const int common)
{
    struct net_router *r = &n->r[node];
    struct step s = { .wake = UINT64_MAX };
    uint8_t blocked_seen[NET_MAX_LINK_PORTS] = { 0 };
    const int may_sleep = acc_router_begin(n, node);   /* after this cycle (net_accel.h) */
    /* Phase 1: route the worms at the front of the input VCs whose front
     * flit is ready; collect those VCs, and the heads still without an
     * output VC. The cycle loop skips frozen groups' VCs by their mask; a
     * group's catch-up (net_jump.c, thaw), and a wide network, which has no
     * mask, by its input ports' groups. Phase 1 changes no VC's count, so
     * the fast path walks a copy of the mask. */
    const uint64_t skip = acc_vcs_skipped(n, r);
    if (common) {
        for (uint64_t b = r->busy & ~skip; b; b &= b - 1)
            collect(n, node, __builtin_ctzll(b), c, NULL, &s, 1);
    } else {
        struct jgroup *const *pg = acc_port_groups(n, node);
        for (int i = next_busy(n, r, 0, skip); i < n->nin * n->V; i = next_busy(n, r, i + 1, skip))
            collect(n, node, i, c, pg, &s, 0);
    }
    /* Phase 2: VC allocation, multidestination worms first. */
    if (!common && s.nmc)
        mc_vc_allocate(n, node, s.nmc);
    if (s.nva && n->al->vc(n, node, s.nva, blocked_seen, c))
        s.changed = 1;
    if (!common && s.nava && n->al->vc_adaptive(n, node, s.nava, blocked_seen, c))
        s.changed = 1;
    if (!common && s.nmc) {                      /* and they cross the switch first */
        memset(n->in_used, 0, (size_t)n->nin);
        memset(n->out_used, 0, (size_t)n->nout);
        mc_switch(n, node, s.nmc, c, blocked_seen);
    }
    /* Phase 3: switch requests, from the ready worms holding an output VC. */
    for (int k = 0; k < s.nready; k++)
        request(n, node, n->ready_vc[k], c, blocked_seen, &s, common);
    acc_router_end(n);
    if (!s.nreq) {
        /* Nothing moved and nothing was granted: each cycle after this one
         * is this one again (the same worms blocked, counted the same)
         * until a flit or credit comes or a front flit is ready. */
        if (may_sleep && !s.changed && !s.nmc)
            acc_router_quiet(r, c, s.wake);
        return;
    }
    /* Phase 4: switch allocation; each output port sends at most one flit
     * and so does each input port. */
    n->al->sw(n, node, s.nreq, s.nmc, c, blocked_seen);
}

/* The fast path: a wormhole network whose input VCs fit the busy masks,
 * an oblivious routing, no multidestination worm about (none of its
 * flits is in the network: mc_live counts it from its queueing to its
 * last delivery) and no group's input ports asked for; never in the
 * checking reference (acc_shortcut), so a checked run compares the two. */
void net_router_step(struct net *n, int node, uint64_t c)
{
    if (!n->wide && n->p.switching == SW_WORMHOLE && !n->adaptive && !n->mc_live && acc_shortcut(n) &&
        !acc_port_groups(n, node))
        router_step(n, node, c, 1);
    else
        router_step(n, node, c, 0);
}

/* The credits returned by cycle `upto - 1` that are usable from cycle
 * `upto` (their due; all of them when credit_delay is 0). Credits are
 * returned in the order of their due, so those are the list's first. */
void net_apply_credits(struct net *n, uint64_t upto)
{
    size_t k = n->ncr;
    if (n->p.credit_delay)
        for (k = 0; k < n->ncr && n->cr_due[k] <= upto; k++)
            ;
    for (size_t j = 0; j < k; j++) {
        struct net_router *r = &n->r[n->cr[j].router];
        r->out[n->cr[j].port].credits[n->cr[j].vc]++;
        acc_credit_in(n, r);
    }
    if (k == n->ncr)
        n->ncr = 0;
    else if (k) {
        memmove(n->cr, n->cr + k, (n->ncr - k) * sizeof *n->cr);
        memmove(n->cr_due, n->cr_due + k, (n->ncr - k) * sizeof *n->cr_due);
        n->ncr -= k;
    }
}
