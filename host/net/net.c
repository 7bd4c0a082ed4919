/* The network as the router and netsim use it: made and freed, run over
 * cycles, read. The cycles are net_core.c's (the cycle model; net_model.h
 * states it); the run loop steps the active routers of each cycle and
 * leaves out what the accelerators can give in closed form, through
 * net_accel.h (sleeping and frozen routers, idle stretches). With
 * NET_JUMP_CHECK it runs the reference beside and compares (check). */
#include <stdlib.h>
#include <string.h>
#include "net_route.h"
#include "net_accel.h"

uint64_t net_cycle_ps(const struct net *n) { return n->cycle_ps; }
int net_nic_channels(const struct net *n) { return n->ninj; }
uint64_t net_now(const struct net *n) { return n->now; }
int net_busy(const struct net *n) { return n->undelivered > 0; }
uint64_t net_cycles_simulated(const struct net *n) { return n->stepped + n->ac.jumped; }

void net_engine_moves(const struct net *n, uint64_t *moves, uint64_t *jumped)
{
    net_hk_settle((struct net *)n);
    *moves = n->moves;
    *jumped = n->ac.moves_jumped;
}

void net_engine_stats(const struct net *n, uint64_t *stepped, uint64_t *jumped, uint64_t *jumps)
{
    *stepped = n->stepped;
    *jumped = n->ac.jumped;
    *jumps = n->ac.jumps;
}
/* The counters are read exact: frozen groups are brought to the present
 * first (net_jump.c; the simulated state is the same, only written out). */
uint64_t net_flit_hops(const struct net *n)
{
    net_hk_settle((struct net *)n);
    return n->flit_hops;
}
uint64_t net_cycle_to_ns(const struct net *n, uint64_t c) { return c * n->cycle_ps / 1000; }
uint64_t net_cycle_to_ns_ceil(const struct net *n, uint64_t c) { return (c * n->cycle_ps + 999) / 1000; }

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
    if (p->tie != TIE_PLUS && m->topo != TOPO_TORUS) {   /* only a ring has two shortest ways (net_topo_dir) */
        snprintf(err, errlen, "tie = %s applies to a torus only, not a %s (accepted here: %s)", tie_names[p->tie],
                 topo_names[m->topo], tie_names[TIE_PLUS]);
        return NULL;
    }
    if (p->tie != TIE_PLUS && p->unidirectional) {        /* a one-way ring has one way */
        snprintf(err, errlen, "tie = %s applies to a torus of two-way links, not one of unidirectional = 1 "
                 "(accepted here: %s)", tie_names[p->tie], tie_names[TIE_PLUS]);
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
    int ok = n->r && n->ls && n->req_ip && n->req_vc && n->in_used && n->out_used && n->mc_vc && n->va_req &&
             n->ava_req && n->ready_vc && n->in_pick && n->out_pick && n->active;
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
        if (!(ok = r->in && r->in_rr && r->out && r->inj))
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
            op->ls = op->is_eject ? NULL : &n->ls[(size_t)i * n->nlinkp + o];
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
    if (net_accel_init(n)) {
        snprintf(err, errlen, "no memory for the network model of %d routers", n->nr);
        net_free(n);
        return NULL;
    }
    return n;
}

void net_free(struct net *n)
{
    if (!n)
        return;
    net_accel_free(n);                            /* (it reads n->r) */
    for (int i = 0; n->r && i < n->nr; i++) {     /* (a net_new short of memory stops part way) */
        struct net_router *r = &n->r[i];
        for (int k = 0; r->in && k < n->nin * n->V; k++) {
            free(r->in[k].q);
            if (r->mbr)
                free(r->mbr[k]);
        }
        free(r->mbr);
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
    free(n->cr);
    free(n->cr_due);
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
    for (size_t i = 0; i < n->nshadow; i++)
        free(n->shadow[i]);
    free(n->shadow);
    net_free(n->ref);
    free(n);
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

static int run(struct net *n, uint64_t end, struct net_msg **arrived, struct net_msg **left)
{
    *arrived = *left = NULL;
    n->hd_head = NULL;
    while (n->now < end) {
        if (acc_all_frozen(n)) {
            acc_idle_skip(n, end);       /* on to the next thaw or injection */
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
        if (n->ncr)
            net_apply_credits(n, c);     /* credit_delay: those due by now, past an idle stretch */
        acc_cycle_start(n, c);
        n->arr_head = n->left_head = n->hd_head = NULL;
        n->moved = 0;
        /* Active routers in rank order: injection first, so a flit that
         * enters in cycle c may leave its router in cycle c. */
        NET_FOR_ACTIVE(n, i) {
            if (n->r[i].queued)
                net_inject_step(n, i, c);
        }
        /* A router's step only takes flits out of it, and a flit sent to
         * another activates that one (net_send_flit): so whether router i stays
         * active is known once it has stepped. */
        NET_FOR_ACTIVE(n, i) {
            if (acc_router_due(n, i, c))
                net_router_step(n, i, c);
            acc_router_stepped(n, i);
        }
        net_apply_credits(n, c + 1);
        n->now = c + 1;
        n->stepped++;
        n->moves += n->moved;
        /* Unicast worms under an oblivious routing cannot deadlock
         * (net_model.h): a long standstill with flits inside means a model
         * error, not slow traffic. Multidestination worms can (their
         * hold-and-wait, net_mc.c), and so can an adaptive routing's worms
         * (free_adapt's, or any routing's whose escape channels a bug
         * broke): that is found first, the worms named. */
        n->still = n->moved || !n->inflight_flits || acc_any_frozen(n) ? 0 : n->still + 1;
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
        acc_stepped(n);
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

int net_run_until(struct net *n, uint64_t end, char *err, size_t errlen)
{
    struct net_msg *arr, *left;
    while (net_busy(n) && n->now < end)
        if (net_run(n, end, &arr, &left) < 0) {
            snprintf(err, errlen, "%s at cycle %llu", net_run_error(n), (unsigned long long)n->now);
            return -1;
        }
    return 0;
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
