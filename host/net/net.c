/* The flit-level interconnect's cycle model; see net_model.h for the
 * model. Its accelerators attach through the hooks of net_state.h
 * (struct net_hooks): this file calls none of them by name. */
#include <stdlib.h>
#include <string.h>
#include "net_route.h"

uint64_t net_cycle_ps(const struct net *n) { return n->cycle_ps; }
int net_nic_channels(const struct net *n) { return n->ninj; }
uint64_t net_now(const struct net *n) { return n->now; }
int net_busy(const struct net *n) { return n->undelivered > 0; }
uint64_t net_cycles_simulated(const struct net *n) { return n->stepped + n->jumped; }

void net_engine_moves(const struct net *n, uint64_t *moves, uint64_t *jumped)
{
    net_hk_settle((struct net *)n);
    *moves = n->moves;
    *jumped = n->moves_jumped;
}

void net_engine_stats(const struct net *n, uint64_t *stepped, uint64_t *jumped, uint64_t *jumps)
{
    *stepped = n->stepped;
    *jumped = n->jumped;
    *jumps = n->jumps;
}
/* The counters are read exact: frozen groups are brought to the present
 * first (net_jump.c; the simulated state is the same, only written out). */
uint64_t net_flit_hops(const struct net *n)
{
    net_hk_settle((struct net *)n);
    return n->flit_hops;
}
uint64_t net_cycle_to_ns(const struct net *n, uint64_t c) { return c * n->cycle_ps / 1000; }

uint64_t net_ns_to_cycle_ceil(const struct net *n, uint64_t ns) { return net_ceil_cycle(n, ns); }

int net_routers(const struct net *n) { return n->nr; }
int net_link_ports(const struct net *n) { return n->nlinkp; }

int net_link_ends(const struct net *n, int link, int *from, int *port, int *to)
{
    if (link < 0 || link >= n->nr * n->nlinkp)
        return 0;
    *from = link / n->nlinkp;
    *port = link % n->nlinkp;
    *to = n->r[*from].out[*port].to_router;
    return *to >= 0;
}

const struct link_stats *net_link_stats(const struct net *n, int *nlinks)
{
    net_hk_settle((struct net *)n);
    *nlinks = n->nr * n->nlinkp;
    return n->ls;
}

/* A ring of at least `room` flits: cap is the power of two at or above it,
 * so that a slot is an index masked by cap - 1 (ivc_at), not divided. */
static int ivc_init(struct ivc *v, uint32_t room)
{
    uint32_t cap = 1;
    while (cap < room)
        cap *= 2;
    v->cap = cap;
    v->q = calloc(cap, sizeof *v->q);
    v->head = v->count = 0;
    v->routed = 0;
    return v->q ? 0 : -1;
}

/* Push onto input VC i of router r, and pop its front. Both keep the
 * VC's front_ready and the router's mask of busy VCs (struct
 * net_router's busy; none on a wide network). */
static void ivc_push(const struct net *n, struct net_router *r, int i, struct flit f)
{
    struct ivc *v = &r->in[i];
    if (v->count == v->cap) {                 /* cut-through / store-and-forward: grow */
        uint32_t nc = v->cap * 2;
        struct flit *q = calloc(nc, sizeof *q);
        if (!q) {                             /* no error path mid-cycle: stop, said */
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
    if (!v->count)
        v->front_ready = f.ready;
    if (r->sleep == 1)
        net_rouse(n, r);                          /* woken: a flit came */
    *ivc_at(v, v->count++) = f;
    if (!n->wide)
        r->busy |= 1ull << i;
}

static struct flit *ivc_front(struct ivc *v) { return &v->q[v->head]; }

static void ivc_pop(const struct net *n, struct net_router *r, int i)
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

struct net *net_core_new(const struct topo_shape *m, const struct net_params *p, const struct net_allocator *al,
                         char *err, size_t errlen)
{
    if (!p->flit_bytes || !p->byte_ps || !p->hop_cycles || !p->vcs || !p->buf_flits || !p->nic_cycles ||
        !p->nic_vcs) {
        snprintf(err, errlen, "flit size, link time per byte, hop cycles, NIC cycles per flit, "
                 "virtual channels, NIC channels' VCs and buffer depth must all be at least 1");
        return NULL;
    }
    if (p->unidirectional && m->topo != TOPO_TORUS) {
        snprintf(err, errlen, "unidirectional = 1 applies to a torus only, not a %s (accepted here: 0)",
                 topo_names[m->topo]);
        return NULL;
    }
    if (m->topo == TOPO_TORUS && p->vcs < 2) {
        snprintf(err, errlen, "a torus needs at least 2 virtual channels (one per dateline class), not %u", p->vcs);
        return NULL;
    }
    if (m->topo == TOPO_DRAGONFLY && p->vcs < 2) {
        snprintf(err, errlen, "a dragonfly needs at least 2 virtual channels (a class before the global link "
                 "and one after), not %u", p->vcs);
        return NULL;
    }
    if (p->nic_vcs > p->vcs) {
        snprintf(err, errlen, "nic_vcs %u is more than vcs %u: a NIC channel has at most a link's VCs "
                 "(accepted: 1 to %u)", p->nic_vcs, p->vcs, p->vcs);
        return NULL;
    }
    if (net_route_check(m, p, err, errlen))
        return NULL;
    int nr = net_topo_routers(m, p, err, errlen);
    if (nr < 0)
        return NULL;
    struct net *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "no memory for the network model");
        return NULL;
    }
    n->m = *m;
    n->p = *p;
    n->nd = m->ndims;
    n->nlinkp = net_topo_link_ports(m);
    n->V = (int)p->vcs;
    int all = m->all_port == TOPO_ALL_PORT ? (n->nlinkp ? n->nlinkp : 1) : 1;
    n->ninj = n->nej = p->ports ? (int)p->ports : all;
    n->nin = n->nlinkp + n->ninj;
    n->wide = n->nin * n->V > 64;
    n->nout = n->nlinkp + n->nej;
    n->cycle_ps = (uint64_t)p->flit_bytes * p->byte_ps;
    n->nr = nr;
    n->r = calloc((size_t)n->nr, sizeof *n->r);
    n->ls = calloc((size_t)n->nr * (size_t)(n->nlinkp ? n->nlinkp : 1), sizeof *n->ls);
    n->req_ip = calloc((size_t)n->nin * (size_t)n->V, sizeof(int));
    n->req_vc = calloc((size_t)n->nin * (size_t)n->V, sizeof(int));
    n->in_used = calloc((size_t)n->nin, 1);
    n->out_used = calloc((size_t)n->nout, 1);
    n->mc_vc = calloc((size_t)n->nin * (size_t)n->V, sizeof(int));
    n->va_req = calloc((size_t)n->nin * (size_t)n->V, sizeof(int));
    n->ava_req = calloc((size_t)n->nin * (size_t)n->V, sizeof(int));
    n->ready_vc = calloc((size_t)n->nin * (size_t)n->V, sizeof(int));
    n->in_pick = calloc((size_t)n->nin, sizeof(int));
    n->out_pick = calloc((size_t)n->nout, sizeof(int));
    n->active = calloc(((size_t)n->nr + 63) / 64, sizeof *n->active);
    n->dormant = calloc(((size_t)n->nr + 63) / 64, sizeof *n->dormant);
    n->hwait = calloc(((size_t)n->nr + 63) / 64, sizeof *n->hwait);
    n->sat_n = calloc((size_t)n->nr * (size_t)(n->nlinkp ? n->nlinkp : 1), sizeof *n->sat_n);
    n->sat_since = calloc((size_t)n->nr * (size_t)(n->nlinkp ? n->nlinkp : 1), sizeof *n->sat_since);
    n->wk = calloc((size_t)n->nr, sizeof *n->wk);
    int ok = n->r && n->ls && n->sat_n && n->sat_since && n->wk && n->req_ip && n->req_vc && n->in_used && n->out_used && n->mc_vc && n->va_req && n->ava_req &&
             n->ready_vc && n->in_pick && n->out_pick && n->active && n->dormant && n->hwait;
    uint32_t room = p->switching == SW_WORMHOLE ? p->buf_flits : (p->buf_flits > 16 ? p->buf_flits : 16);
    n->vc_room = room;
    for (int i = 0; ok && i < n->nr; i++) {
        struct net_router *r = &n->r[i];
        if (i < m->nodes)
            topo_coords(m, i, r->coords);
        r->in = calloc((size_t)n->nin * (size_t)n->V, sizeof *r->in);
        r->in_rr = calloc((size_t)n->nin, sizeof *r->in_rr);
        r->out = calloc((size_t)n->nout, sizeof *r->out);
        r->inj = calloc((size_t)n->ninj, sizeof *r->inj);
        r->slog_m = malloc((size_t)n->nin * (size_t)n->V * sizeof *r->slog_m);
        r->slog_l = malloc((size_t)(n->nlinkp ? n->nlinkp : 1) * sizeof *r->slog_l);
        if (!(ok = r->in && r->in_rr && r->out && r->inj && r->slog_m && r->slog_l))
            break;
        for (int k = 0; ok && k < n->nin * n->V; k++)
            ok = ivc_init(&r->in[k], room) == 0;
        for (int o = 0; ok && o < n->nout; o++) {
            struct oport *op = &r->out[o];
            op->credits = calloc((size_t)n->V, sizeof *op->credits);
            op->owner = calloc((size_t)n->V, sizeof *op->owner);
            op->head_cycle = calloc((size_t)n->V, sizeof *op->head_cycle);
            if (!(ok = op->credits && op->owner && op->head_cycle))
                break;
            for (int v = 0; v < n->V; v++)
                op->credits[v] = room;
            op->is_eject = o >= n->nlinkp;
            op->to_router = op->to_port = -1;
        }
        for (int ip = 0; ip < n->nlinkp; ip++)
            r->up[ip] = r->up_port[ip] = -1;
    }
    if (!ok) {
        snprintf(err, errlen, "no memory for the network model of %d routers", n->nr);
        net_free(n);
        return NULL;
    }
    net_topo_wire(n);
    n->adaptive = !net_route_oblivious(p->routing);
    n->atomic_vc = net_route_atomic(p->routing);
    n->al = al;
    n->no_accel = n->adaptive || n->p.nic_vcs > 1;
    n->jump_on = !n->no_accel;
    n->slog_node = -1;
    n->next_thaw = UINT64_MAX;
    return n;
}

void net_free(struct net *n)
{
    if (!n)
        return;
    for (int i = 0; n->r && i < n->nr; i++) {     /* (a net_new short of memory stops part way) */
        struct net_router *r = &n->r[i];
        for (int k = 0; r->in && k < n->nin * n->V; k++) {
            free(r->in[k].q);
            if (r->mbr)
                free(r->mbr[k]);
        }
        free(r->mbr);
        free(r->slog_m);
        free(r->slog_l);
        for (int o = 0; r->out && o < n->nout; o++) {
            free(r->out[o].credits);
            free(r->out[o].owner);
            free(r->out[o].head_cycle);
        }
        free(r->in);
        free(r->in_rr);
        free(r->out);
        free(r->inj);
    }
    free(n->r);
    free(n->ls);
    free(n->sat_n);
    free(n->sat_since);
    free(n->wk);
    free(n->cr);
    free(n->req_ip);
    free(n->req_vc);
    free(n->in_used);
    free(n->out_used);
    free(n->mc_vc);
    free(n->deadlock);
    free(n->va_req);
    free(n->ava_req);
    free(n->taken);
    free(n->ready_vc);
    free(n->in_pick);
    free(n->out_pick);
    free(n->active);
    free(n->dormant);
    free(n->hwait);
    net_hk_free(n);
    for (size_t i = 0; i < n->nshadow; i++)
        free(n->shadow[i]);
    free(n->shadow);
    net_free(n->ref);
    free(n);
}

void net_count_blocked(struct net *n, int node, int port, struct net_msg *m, uint8_t *seen)
{
    struct net_router *r = &n->r[node];
    m->blocked_cycles++;
    if (n->slog_node == node)
        r->slog_m[r->nslog_m++] = m;
    if (port < n->nlinkp && !seen[port]) {
        seen[port] = 1;
        if (n->sat_n[(size_t)node * n->nlinkp + port])
            return;                              /* saturated: counted in closed form */
        n->ls[(size_t)node * n->nlinkp + port].blocked++;
        if (n->slog_node == node)
            r->slog_l[r->nslog_l++] = node * n->nlinkp + port;
    }
}

/* Input VC i of router `node`, a head refused an output VC in cycle c:
 * blocked this cycle, and parked if it may park and is not yet (1: a
 * change, so the router does not sleep after this cycle). */
int net_refused(struct net *n, int node, int i, uint8_t *seen, uint64_t c)
{
    struct net_router *r = &n->r[node];
    net_count_blocked(n, node, r->in[i].out_port, r->in[i].q[r->in[i].head].m, seen);
    if (!(net_parks(n) && !n->mc_live) || (r->parked >> i & 1))
        return 0;
    net_park(n, node, i, c);
    return 1;
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
static inline __attribute__((always_inline)) void inject_step(struct net *n, int node, uint64_t c)
{
    struct net_router *r = &n->r[node];
    for (int ch = 0; ch < n->ninj; ch++) {
        struct nic_queue *q = &r->inj[ch];
        struct net_msg *m = q->first;
        if (n->nfz && (n->stepping || n->wide ? n->pg[net_in_id(n, node, n->nlinkp + ch)] != n->stepping
                                              : r->fmask >> ((n->nlinkp + ch) * n->V) & 1))
            continue;                            /* another group's (net_jump.c; as in router_step) */
        if (!net_nic_can_push(n, r, ch, c))
            continue;
        if (q->next_flit == 0) {
            m->c_inject = c;
            r->head_c = c;
            n->heads_waiting--;
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
                n->heads_waiting++;
                n->hwait[node / 64] |= 1ull << (node % 64);
            }
            q->next_flit = 0;
            r->queued--;
            n->queued_msgs--;
        }
    }
}

/* The dateline class whose VCs an unallocated input VC's routed head may
 * take (net_class_vcs): 0 or 1 on a torus (out_vc -2, -3), else -1, any. */
static int head_class(const struct ivc *v) { return v->out_vc <= -2 ? -2 - v->out_vc : -1; }

/* Output VC allocation for input VC i (ip V + vc), whose front flit is a
 * routed head without one: the lowest free VC of its class on its output.
 * 0 if none is free (the worm is blocked this cycle). */
int net_vc_grant(struct net *n, int node, int i, uint64_t c)
{
    struct net_router *r = &n->r[node];
    struct ivc *v = &r->in[i];
    if (n->stepping && !n->wide && (r->parked >> i & 1))
        return 0;       /* a thawing group's last cycles: its VCs were still owned (net_jump.c) */
    struct oport *op = &r->out[v->out_port];
    int lo, hi;
    net_class_vcs(n, op, head_class(v), &lo, &hi);
    for (int k = lo; k < hi; k++) {
        if (!net_vc_free(n, op, k))
            continue;
        op->owner[k] = ivc_front(v)->m;
        v->out_vc = k;
        if (!n->wide && (r->parked >> i & 1)) {
            net_unpark(n, node, i, c);
            r->head_c = c;                       /* its input port joins its output (net_jump.c) */
        }
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
    if (f.idx == 0 && n->nfz && !n->stepping)    /* a head: the group it will be routed into thaws */
        net_hk_head(n, op->to_router, op->to_port, f.m, c + 1);
    f.ready = c + n->p.hop_cycles;
    ivc_push(n, dr, op->to_port * V + ovc, f);
    dr->nflits++;
    net_activate(n, op->to_router);
    n->flit_hops++;
    struct link_stats *ls = &n->ls[(size_t)node * n->nlinkp + o];
    ls->flits++;
    if (f.idx == 0) {
        ls->worms++;
        dr->head_c = c;
    }
    if (n->trace_fn) {
        if (f.idx == 0)
            op->head_cycle[ovc] = c;
        if (f.idx == f.m->flits - 1)
            n->trace_fn(n->trace_ctx, node * n->nlinkp + o, f.m, op->head_cycle[ovc], c + 1);
    }
}

/* The freed slot of input port ip's VC vc returns a credit upstream
 * (usable next cycle). */
static inline __attribute__((always_inline)) void credit_back(struct net *n, int node, int ip, int vc)
{
    if (ip >= n->nlinkp)
        return;
    if (n->ncr == n->cr_cap) {
        n->cr_cap = n->cr_cap ? 2 * n->cr_cap : 256;
        n->cr = realloc(n->cr, n->cr_cap * sizeof *n->cr);
        if (!n->cr) {                         /* no error path mid-cycle: stop, said */
            fprintf(stderr, "net: out of memory for %zu credit returns\n", n->cr_cap);
            abort();
        }
    }
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
        r->head_c = c;                               /* a parked head may join its output */
        for (uint64_t b = r->parked & ~r->waking; b; b &= b - 1) {
            int i = __builtin_ctzll(b), lo, hi;      /* the heads parked on it ask again next cycle, */
            if (r->in[i].out_port != o)
                continue;
            net_class_vcs(n, op, head_class(&r->in[i]), &lo, &hi);
            if (ovc < lo || ovc >= hi)
                continue;                            /* those that may take this VC (vc_grant) */
            if (!r->waking)
                n->wk[n->nwk++] = node;              /* once until net_wake: nwk <= nr */
            r->waking |= 1ull << i;
            struct jgroup *g = n->nfz ? n->pg[net_in_id(n, node, i / V)] : NULL;
            if (g)
                net_hk_touch(n, g, c + 1);
        }
    }
    credit_back(n, node, ip, vc);
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
    credit_back(n, node, ip, i % n->V);
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

static void router_step(struct net *n, int node, uint64_t c)
{
    struct net_router *r = &n->r[node];
    const int V = n->V;
    int nreq = 0, nva = 0, nava = 0, nready = 0, nmc = 0, changed = 0;
    uint64_t wake = UINT64_MAX;
    uint8_t blocked_seen[NET_MAX_LINK_PORTS] = { 0 };
    /* Whether this router may fall asleep after this cycle (struct
     * net_router's sleep): wormhole only (elsewhere a VC is granted on
     * room downstream, which no event here announces), never in a frozen
     * group's own cycles, in the checking reference, with
     * multidestination worms about, or where the accelerators step aside
     * (no_accel: an adaptive routing, whose blocked heads' counts it does
     * not log, or NIC channels of several VCs). */
    const int may_sleep = !n->stepping && !n->plain && !n->mc_live && !n->no_accel && n->p.switching == SW_WORMHOLE;
    if (may_sleep) {
        n->slog_node = node;
        r->nslog_m = r->nslog_l = 0;
    }
    /* Phase 1: route the worms at the front of the input VCs whose front
     * flit is ready; collect those VCs, and the heads still without an
     * output VC. The cycle loop skips frozen groups' VCs by their mask; a
     * group's catch-up (net_jump.c, thaw), and a wide network, which has no
     * mask, by its input ports' groups. */
    const uint64_t skip = n->stepping ? 0 : r->fmask;
    struct jgroup *const *pg = n->nfz && (n->stepping || n->wide) ? &n->pg[net_in_id(n, node, 0)] : NULL;
    for (int i = next_busy(n, r, 0, skip); i < n->nin * V; i = next_busy(n, r, i + 1, skip)) {
        struct ivc *v = &r->in[i];
        if (!v->count)
            continue;
        if (pg && pg[i / V] != n->stepping)
            continue;                                /* another group's (net_jump.c) */
        if (v->front_ready > c) {
            if (v->front_ready < wake)
                wake = v->front_ready;
            continue;
        }
        struct flit *f = ivc_front(v);
        if (!v->routed) {
            r->head_c = c;                           /* a head: routed below, or here if multidestination */
            if (f->m->mc)
                net_mc_route(n, node, i);
        }
        if (v->routed == 2) {
            n->mc_vc[nmc++] = i;
            continue;
        }
        n->ready_vc[nready++] = i;
        if (!v->routed) {
            int ip = i / V;
            changed = 1;
            int cls = -1, p;
            if (n->adaptive) {
                struct net_cand cd[NET_MAX_CANDS];
                p = net_route_cands(n, node, ip, i % V, f->m, cd) ? cd[0].port : -1;
                cls = NET_ADAPTIVE;                  /* its candidates, asked for at each allocation */
            } else {
                p = net_topo_route(n, node, f->m, &cls);
            }
            if (p < 0) {
                p = net_eject_port(n, ip);
                v->out_vc = -1;
            } else {
                /* not yet allocated: -1 any VC, -2 class 0, -3 class 1, -4 adaptive */
                v->out_vc = -2 - cls;
            }
            v->out_port = p;
            v->routed = 1;
            r->nrouted++;
        }
        if (v->out_vc < 0) {
            if (v->out_vc == -2 - NET_ADAPTIVE)
                n->ava_req[nava++] = i;
            else
                n->va_req[nva++] = i;
        }
    }
    /* Phase 2: VC allocation, multidestination worms first. */
    if (nmc)
        mc_vc_allocate(n, node, nmc);
    if (nva && n->al->vc(n, node, nva, blocked_seen, c))
        changed = 1;
    if (nava && n->al->vc_adaptive(n, node, nava, blocked_seen, c))
        changed = 1;
    if (nmc) {                                   /* and they cross the switch first */
        memset(n->in_used, 0, (size_t)n->nin);
        memset(n->out_used, 0, (size_t)n->nout);
        mc_switch(n, node, nmc, c, blocked_seen);
    }
    /* Phase 3: switch requests, from the ready worms holding an output VC. */
    for (int k = 0; k < nready; k++) {
        int i = n->ready_vc[k];
        struct ivc *v = &r->in[i];
        if (v->out_vc < 0)
            continue;
        struct flit *f = ivc_front(v);
        struct net_msg *m = f->m;
        struct oport *op = &r->out[v->out_port];
        if (n->p.switching == SW_STORE_FORWARD && f->idx == 0 && !op->is_eject) {
            /* the worm is at the front, in order: its tail is F - 1
             * places behind its head, and must have arrived */
            if (v->count < m->flits)
                continue;
            const struct flit *t = ivc_at(v, m->flits - 1);
            if (!(t->m == m && t->idx == m->flits - 1 && t->ready <= c))
                continue;
        }
        if (op->is_eject && c < op->next_ok) {
            changed = 1;                             /* (it will go at next_ok: no sleep) */
            continue;                                /* the NIC is still taking the last flit */
        }
        if (nmc && (n->in_used[i / V] || n->out_used[v->out_port])) {
            net_count_blocked(n, node, v->out_port, m, blocked_seen);
            continue;                                /* a multidestination worm went there */
        }
        if (n->p.switching == SW_WORMHOLE && !op->is_eject && op->credits[v->out_vc] == 0) {
            net_count_blocked(n, node, v->out_port, m, blocked_seen);
            continue;
        }
        n->req_ip[nreq] = i / V;
        n->req_vc[nreq] = i % V;
        nreq++;
    }
    n->slog_node = -1;
    if (!nreq) {
        /* Nothing moved and nothing was granted: each cycle after this one
         * is this one again (the same worms blocked, counted the same)
         * until a flit or credit comes or a front flit is ready. */
        if (may_sleep && !changed && !nmc) {
            r->sleep = 1;
            r->sleep_c = c + 1;
            r->wake_at = wake;
        }
        return;
    }
    /* Phase 4: switch allocation; each output port sends at most one flit
     * and so does each input port. */
    n->al->sw(n, node, nreq, nmc, c, blocked_seen);
}

int net_taken(const struct net *n, const struct net_msg *m, int *links, int max)
{
    if (!m->route_at)
        return net_path(n, m->src, m->dst, links, max);
    int k = (int)m->route_len < max ? (int)m->route_len : max;
    memcpy(links, n->taken + m->route_at - 1, (size_t)k * sizeof *links);
    return k;
}

int net_path(const struct net *n, int src, int dst, int *links, int max)
{
    struct net_msg m = { .src = src, .dst = dst };
    int at = src, k = 0, cls, p;
    while ((p = net_topo_route(n, at, &m, &cls)) >= 0 && k < max) {
        links[k++] = at * n->nlinkp + p;
        at = n->r[at].out[p].to_router;
    }
    return k;
}

void net_set_link_trace(struct net *n, net_link_trace_fn fn, void *ctx)
{
    n->trace_fn = fn;
    n->trace_ctx = ctx;
}

uint64_t net_uncontended_cycles(const struct net *n, int hops, uint32_t flits)
{
    uint64_t f1 = flits - 1, c = (uint64_t)hops * n->p.hop_cycles + f1 * n->p.nic_cycles + 1;
    if (n->p.switching != SW_STORE_FORWARD || hops < 1)
        return c;
    /* Store-and-forward: the head leaves its source's router once the NIC
     * has pushed the tail in (F - 1 NIC paces), and each router after it
     * but the last once the tail has crossed to it (F - 1 link cycles);
     * the last one ejects as flits come (test_net.c checks this on every
     * topology against a lone worm). */
    return c + f1 * (n->p.nic_cycles + (uint64_t)hops - 1);
}

/* Earliest cycle any queued message may enter, or UINT64_MAX. */
static uint64_t next_ready(const struct net *n)
{
    uint64_t best = UINT64_MAX;
    NET_FOR_QUEUED(n, i, ch, q) {
        if (q->first->c_ready < best)
            best = q->first->c_ready;
    }
    return best;
}

/* The credits returned during a cycle, usable from the next. */
static void apply_credits(struct net *n)
{
    for (size_t k = 0; k < n->ncr; k++) {
        struct net_router *r = &n->r[n->cr[k].router];
        r->out[n->cr[k].port].credits[n->cr[k].vc]++;
        if (r->sleep == 1)
            net_rouse(n, r);                         /* woken: a credit came */
    }
    n->ncr = 0;
}

/* Cycle c of frozen group g's ports alone (net_jump.c thaws it): its
 * routers in rank order, injection first, then its credits. No event
 * falls in it (the group's bounds). */
void net_step_group(struct net *n, struct jgroup *g, uint64_t c)
{
    struct net_msg *arr = n->arr_head, *left = n->left_head, *hd = n->hd_head;
    uint64_t moved = n->moved;
    n->arr_head = n->left_head = n->hd_head = NULL;
    n->moved = 0;
    for (int k = 0, last = -1; k < g->nport && g->port[k] < n->nr * n->nin; k++) {
        int r = net_port_router(n, g->port[k]);
        if (r != last && n->r[r].queued)
            inject_step(n, r, c);
        last = r;
    }
    for (int k = 0, last = -1; k < g->nport && g->port[k] < n->nr * n->nin; k++) {
        int r = net_port_router(n, g->port[k]);
        if (r != last && n->r[r].nflits)
            router_step(n, r, c);
        last = r;
    }
    apply_credits(n);
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

/* Whether router i has flits or queued messages outside frozen groups:
 * the cycle loop steps it (struct net's active). */
static int live(const struct net *n, int i)
{
    const struct net_router *r = &n->r[i];
    if (r->nflits > r->nfrozen)
        return 1;
    if (!r->queued)
        return 0;
    if (!n->nfz)
        return 1;
    for (int ch = 0; ch < n->ninj; ch++)
        if (r->inj[ch].first && !n->pg[net_in_id(n, i, n->nlinkp + ch)])
            return 1;
    return 0;
}

/* Whether a NIC channel of router i, asleep, may push a flit before the
 * router steps again: a worm queued on a channel not frozen, with room in
 * its (wormhole) injection buffer. One without room gets it only when the
 * router sends, and a frozen channel is stepped again only after its
 * group thaws, which wakes the router (net_sleep_end). */
static int nic_may_push(const struct net *n, int i)
{
    const struct net_router *r = &n->r[i];
    for (int ch = 0; r->queued && ch < n->ninj; ch++)
        if (r->inj[ch].first && !net_inj_full(n, r, ch) && !(n->nfz && n->pg[net_in_id(n, i, n->nlinkp + ch)]))
            return 1;
    return 0;
}

static int run(struct net *n, uint64_t end, struct net_msg **arrived, struct net_msg **left)
{
    *arrived = *left = NULL;
    n->hd_head = NULL;
    while (n->now < end) {
        if (n->nfz && n->inflight_flits == n->frozen_flits) {
            /* every flit is in a frozen group: on to the next thaw or injection */
            uint64_t t = net_hk_idle_until(n);
            if (t > end)
                t = end;
            if (t > n->now) {
                n->jumped += t - n->now;
                n->now = t;
            }
            if (n->now >= end)
                break;
        }
        if (!n->inflight_flits) {
            if (!n->queued_msgs) {
                n->now = end;            /* nothing at all to do before the next injection */
                break;
            }
            uint64_t c = next_ready(n);
            if (c > n->now) {
                n->now = c < end ? c : end;
                net_hk_reset(n);
            }
            if (n->now >= end)
                break;
        }
        uint64_t c = n->now;
        net_hk_cycle(n, c);
        if (n->nwk)
            net_wake(n, c);
        n->arr_head = n->left_head = n->hd_head = NULL;
        n->moved = 0;
        /* Active routers in rank order: injection first, so a flit that
         * enters in cycle c may leave its router in cycle c. */
        NET_FOR_ACTIVE(n, i) {
            if (n->r[i].queued)
                inject_step(n, i, c);
        }
        /* A router's step only takes flits out of it, and a flit sent to
         * another activates that one (send_flit): so whether router i stays
         * active is known once it has stepped. */
        NET_FOR_ACTIVE(n, i) {
            struct net_router *R = &n->r[i];
            if (R->nflits > R->nfrozen && !(R->sleep == 1 && c < R->wake_at)) {   /* (asleep: owed) */
                if (R->sleep) {
                    net_sleep_owe(n, i, c);
                    R->sleep = 0;
                }
                router_step(n, i, c);
            }
            if (!live(n, i)) {
                n->active[i / 64] &= ~(1ull << (i % 64));
            } else if (R->sleep == 1 && R->wake_at == UINT64_MAX && !nic_may_push(n, i)) {
                n->active[i / 64] &= ~(1ull << (i % 64));
                n->dormant[i / 64] |= 1ull << (i % 64);      /* until roused (rouse, net_sleep_end) */
            }
        }
        apply_credits(n);
        n->now = c + 1;
        n->stepped++;
        n->moves += n->moved;
        /* Unicast worms under an oblivious routing cannot deadlock
         * (net_model.h): a long standstill with flits inside means a model
         * error, not slow traffic. Multidestination worms can (their
         * hold-and-wait, net_mc.c), and so can an adaptive routing's worms
         * (free_adapt's, or any routing's whose escape channels a bug
         * broke): that is found first, the worms named. */
        n->still = n->moved || !n->inflight_flits || n->nfz ? 0 : n->still + 1;
        if (n->still > 1000000)
            return -1;
        if ((n->mc_live || n->adaptive) && n->still > 1 && net_mc_stalled(n, n->now))
            return -3;                   /* the hold-and-wait of worms, each on another's channels */
        if (n->arr_head || n->left_head || n->hd_head) {
            *arrived = n->arr_head;
            *left = n->left_head;
            net_hk_reset(n);
            return 1;
        }
        if (n->jump_on)
            net_hk_stepped(n);
    }
    return 0;
}

/* NET_JUMP_CHECK: the reference model, stepped every cycle, must report
 * the same events with the same times and counters. */
static int same_msg(const struct net_msg *a, const struct net_msg *b)
{
    return b->owner == a && a->c_inject == b->c_inject && a->c_head == b->c_head &&
           a->c_leave == b->c_leave && a->c_arrive == b->c_arrive && a->blocked_cycles == b->blocked_cycles &&
           a->hops == b->hops && a->flits == b->flits && a->f_out == b->f_out;
}

static int check(struct net *n, int rc, uint64_t end, struct net_msg *arr, struct net_msg *left)
{
    struct net *ref = n->ref;
    struct net_msg *ra, *rl;
    net_hk_settle(n);
    int rrc = run(ref, end, &ra, &rl), same = rrc == rc && ref->now == n->now;
    for (struct net_msg *a = arr, *b = ra; same && (a || b); a = a->next_done, b = b->next_done)
        same = a && b && same_msg(a, b);
    for (struct net_msg *a = left, *b = rl; same && (a || b); a = a->next_left, b = b->next_left)
        same = a && b && same_msg(a, b);
    for (struct net_msg *a = n->hd_head, *b = ref->hd_head; same && (a || b); a = a->next_head, b = b->next_head)
        same = a && b && b->owner == a && a->c_head == b->c_head;
    size_t nl = (size_t)n->nr * (size_t)n->nlinkp;
    same = same && n->flit_hops == ref->flit_hops && n->undelivered == ref->undelivered &&
           net_cycles_simulated(n) == net_cycles_simulated(ref) && !memcmp(n->ls, ref->ls, nl * sizeof *n->ls);
    for (struct net_msg *b = ra, *nx; b; b = nx) {        /* delivered: the copy goes */
        nx = b->next_done;
        n->shadow[b->jix] = NULL;
        free(b);
    }
    return same ? rc : -2;
}

int net_run(struct net *n, uint64_t end, struct net_msg **arrived, struct net_msg **left)
{
    int rc = run(n, end, arrived, left);
    if (n->ref && rc >= 0)
        rc = check(n, rc, end, *arrived, *left);
    n->last_rc = rc;
    return rc;
}

struct net_msg *net_heads(const struct net *n) { return n->hd_head; }

const char *net_run_error(const struct net *n)
{
    if (n->last_rc == -3 && n->deadlock)
        return n->deadlock;
    return n->last_rc == -2 ? "the network model's jump or shortcuts gave other times or counters than "
                              "stepping every router every cycle with the full allocator"
                            : "the network stopped moving flits with worms in it";
}
