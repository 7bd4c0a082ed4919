/* Multidestination worms (net_model.h, seed 002 section 8): their routes
 * as trees of router hops, their branches at a router, and the deadlock
 * their hold-and-wait allows, found and named.
 *
 * Invariants: hop 0 of a route is the source's router; every leaf of the
 * tree delivers a copy (routes are built only towards destinations), so
 * when the last copy's tail is delivered no flit of the worm is left. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "net_route.h"
#include "../../netdev/nic_mdw.h"

/* Lin et al.'s Hamiltonian path on a W x H mesh (nic_shm.h). */
static int hp_label(const struct net *n, int node)
{
    const int *c = n->r[node].coords;
    return nic_hp_label(c[0], c[1], (int)n->m.dims[0]);
}

/* Lin et al.'s routing function R on the high (low) channel network:
 * from `at` towards `to`, the neighbour with the largest label not above
 * L(to) (the smallest not below it). The snake's next node is always a
 * neighbour, so every hop gets closer along the path. */
static int hp_port(const struct net *n, int at, int to)
{
    int lt = hp_label(n, to), up = lt > hp_label(n, at), best = -1, bl = 0;
    for (int p = 0; p < n->nlinkp; p++) {
        int w = n->r[at].out[p].to_router;
        if (w < 0)
            continue;
        int l = hp_label(n, w);
        if (up ? l <= lt && (best < 0 || l > bl) : l >= lt && (best < 0 || l < bl)) {
            best = p;
            bl = l;
        }
    }
    return best;
}

static int hop_new(struct net_mc *mc, int *cap, int router, int depth)
{
    if (mc->nhop == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        struct net_mc_hop *h = realloc(mc->hop, (size_t)nc * sizeof *h);
        if (!h)
            return -1;
        mc->hop = h;
        *cap = nc;
    }
    mc->hop[mc->nhop] = (struct net_mc_hop){ .router = router, .copy = -1, .depth = depth };
    return mc->nhop++;
}

/* The child of hop h entered by link port p (made if new; trees merge
 * the routes that share a prefix). */
static int hop_kid(struct net *n, struct net_mc *mc, int *cap, int h, int p)
{
    for (int k = 0; k < mc->hop[h].nkid; k++)
        if (mc->hop[h].port[k] == p)
            return mc->hop[h].kid[k];
    int to = n->r[mc->hop[h].router].out[p].to_router;
    int x = hop_new(mc, cap, to, mc->hop[h].depth + 1);
    if (x < 0)
        return -1;
    struct net_mc_hop *hh = &mc->hop[h];
    hh->kid[hh->nkid] = x;
    hh->port[hh->nkid++] = p;
    return x;
}

int net_mc_check(const struct net *n, int kind, int src, const int *dst, int nd, char *err, size_t errlen)
{
    int dims[NIC_MAX_DIMS];
    for (int i = 0; i < n->m.ndims && i < NIC_MAX_DIMS; i++)
        dims[i] = (int)n->m.dims[i];
    int rc = nic_mdw_check(kind, n->m.topo, n->m.ndims, dims, n->m.nodes, src, dst, nd, err, errlen);
    if (rc && n->m.topo != TOPO_MESH && n->m.topo != TOPO_HYPERCUBE) {
        size_t k = strlen(err);
        snprintf(err + k, errlen > k ? errlen - k : 0, " (this machine is %s)", topo_names[n->m.topo]);
    }
    return rc;
}

static int check_list(struct net *n, const struct net_msg *m, char *err, size_t errlen)
{
    const struct net_mc *mc = m->mc;
    int *dst = malloc((size_t)(mc->ncopy > 0 ? mc->ncopy : 1) * sizeof *dst);
    if (!dst) {
        snprintf(err, errlen, "no memory for the destination list");
        return -1;
    }
    for (int i = 0; i < mc->ncopy; i++)
        dst[i] = mc->copy[i]->dst;
    int rc = net_mc_check(n, mc->kind, m->src, dst, mc->ncopy, err, errlen);
    free(dst);
    return rc;
}

/* The route: for a path each destination's leg from the last, for a tree
 * each destination's route from the source, merged. */
static int build(struct net *n, struct net_msg *m)
{
    struct net_mc *mc = m->mc;
    int cap = 0, cur;
    mc->hop = NULL;
    mc->nhop = 0;
    if ((cur = hop_new(mc, &cap, m->src, 0)) < 0)
        return -1;
    for (int i = 0; i < mc->ncopy; i++) {
        int d = mc->copy[i]->dst, cls;
        struct net_msg t = { .src = m->src, .dst = d };
        if (mc->kind == NET_MC_TREE)
            cur = 0;
        while (mc->hop[cur].router != d) {
            int at = mc->hop[cur].router;
            int p = mc->kind == NET_MC_HPATH ? hp_port(n, at, d) : net_topo_route(n, at, &t, &cls);
            if ((cur = hop_kid(n, mc, &cap, cur, p)) < 0)
                return -1;
        }
        mc->hop[cur].copy = i;
    }
    return 0;
}

int net_inject_mc(struct net *n, struct net_msg *m, char *err, size_t errlen)
{
    struct net_mc *mc = m->mc;
    if (check_list(n, m, err, errlen))
        return -1;
    if (build(n, m)) {
        free(mc->hop);
        mc->hop = NULL;
        snprintf(err, errlen, "no memory for the route of a multidestination worm");
        return -1;
    }
    uint32_t fb = n->p.flit_bytes;
    uint32_t flits = net_payload_flits(n, m->len) + (4u * (uint32_t)(mc->ncopy - 1) + fb - 1) / fb;
    for (int h = 0; h < mc->nhop; h++)
        if (mc->hop[h].copy >= 0) {
            struct net_msg *cp = mc->copy[mc->hop[h].copy];
            cp->hops = mc->hop[h].depth;
            cp->flits = flits;
            cp->c_inject = cp->c_head = cp->c_leave = cp->c_arrive = 0;
            cp->blocked_cycles = 0;
            cp->f_out = 0;
            cp->mc = NULL;
            cp->next_done = cp->next_left = cp->next_head = cp->next_queue = NULL;
        }
    mc->left = mc->ncopy;
    m->hops = 0;
    n->mc_live++;
    net_queue(n, m, flits, mc->hop[0].port[0] % n->ninj);
    if (n->ref) {                 /* NET_JUMP_CHECK: the same worm in the reference */
        struct net_msg *c = calloc(1, sizeof *c + sizeof *mc + (size_t)mc->ncopy * sizeof *mc->copy);
        if (!c || net_shadow_add(n, c)) {
            free(c);
            snprintf(err, errlen, "no memory for the checking model");
            return -1;
        }
        struct net_mc *cm = (struct net_mc *)(c + 1);
        *c = (struct net_msg){ .src = m->src, .dst = m->dst, .len = m->len, .seq = m->seq,
                               .t_ready_ns = m->t_ready_ns, .nic_made = m->nic_made, .owner = m, .mc = cm };
        *cm = (struct net_mc){ .kind = mc->kind, .ncopy = mc->ncopy, .copy = (struct net_msg **)(cm + 1) };
        for (int i = 0; i < mc->ncopy; i++) {
            struct net_msg *x = calloc(1, sizeof *x);
            if (!x || net_shadow_add(n, x)) {
                free(x);
                snprintf(err, errlen, "no memory for the checking model");
                return -1;
            }
            *x = (struct net_msg){ .src = m->src, .dst = mc->copy[i]->dst, .len = m->len,
                                   .seq = mc->copy[i]->seq, .owner = mc->copy[i] };
            x->jix = (uint32_t)(n->nshadow - 1);
            cm->copy[i] = x;
        }
        if (net_inject_mc(n->ref, c, err, errlen))
            return -1;
    }
    return 0;
}

int net_mc_links(struct net *n, int kind, int src, const int *dst, int nd, int *links, int max, char *err,
                 size_t errlen)
{
    struct net_msg *cp = calloc((size_t)(nd > 0 ? nd : 1), sizeof *cp);
    struct net_msg **pp = calloc((size_t)(nd > 0 ? nd : 1), sizeof *pp);
    struct net_mc mc = { .kind = kind, .ncopy = nd, .copy = pp };
    struct net_msg m = { .src = src, .dst = nd > 0 ? dst[0] : src, .mc = &mc };
    int k = -1;
    if (!cp || !pp) {
        snprintf(err, errlen, "no memory for the route of a multidestination worm");
    } else {
        for (int i = 0; i < nd; i++) {
            cp[i] = (struct net_msg){ .src = src, .dst = dst[i] };
            pp[i] = &cp[i];
        }
        if (!check_list(n, &m, err, errlen) && !build(n, &m)) {
            k = 0;
            for (int h = 0; h < mc.nhop; h++)
                for (int j = 0; j < mc.hop[h].nkid && k < max; j++)
                    links[k++] = mc.hop[h].router * n->nlinkp + mc.hop[h].port[j];
        } else if (mc.hop) {
            snprintf(err, errlen, "no memory for the route of a multidestination worm");
        }
    }
    free(mc.hop);
    free(cp);
    free(pp);
    return k;
}

void net_mc_release(struct net_mc *mc)
{
    free(mc->hop);
    mc->hop = NULL;
}

void net_mc_route(struct net *n, int node, int i)
{
    struct net_router *r = &n->r[node];
    struct ivc *v = &r->in[i];
    const struct flit *f = &v->q[v->head];
    const struct net_mc_hop *h = &f->m->mc->hop[f->pos];
    int ip = i / n->V, k = 0;
    if (!r->mbr && !(r->mbr = calloc((size_t)(n->nin * n->V), sizeof *r->mbr))) {
        fprintf(stderr, "net: no memory for a multidestination worm's branches\n");
        abort();
    }
    if (!r->mbr[i] && !(r->mbr[i] = malloc(sizeof *r->mbr[i]))) {
        fprintf(stderr, "net: no memory for a multidestination worm's branches\n");
        abort();
    }
    struct ivc_br *br = r->mbr[i];
    for (; k < h->nkid; k++) {
        br->port[k] = h->port[k];
        br->vc[k] = -1;
        br->pos[k] = (uint32_t)h->kid[k];
    }
    if (h->copy >= 0) {          /* intermediate reception: eject as a unicast worm would */
        br->port[k] = n->nlinkp + (ip < n->nlinkp ? ip % n->nej : 0);
        br->vc[k] = -1;
        br->pos[k] = f->pos;
        k++;
    }
    br->n = k;
    v->routed = 2;
    r->nrouted++;
    v->out_port = br->port[0];
    v->out_vc = -1;
}

/* --- Deadlock: who waits on whom ------------------------------------- */

struct text { char *s; size_t len, cap; };

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        size_t room = t->cap - t->len;
        int k = t->s ? vsnprintf(t->s + t->len, room, fmt, ap) : -1;
        va_end(ap);
        if (k >= 0 && (size_t)k < room) {
            t->len += (size_t)k;
            return;
        }
        size_t nc = t->cap ? 2 * t->cap : 1024;
        while (k >= 0 && nc - t->len <= (size_t)k)
            nc *= 2;
        char *s = realloc(t->s, nc);
        if (!s)
            return;
        t->s = s;
        t->cap = nc;
    }
}

static const char *const mc_kind_names[] = { "", "path", "Hamiltonian path", "tree" };

static void worm_name(struct text *t, const struct net_msg *m)
{
    if (!m) {
        put(t, "nothing");
        return;
    }
    if (!m->mc) {
        put(t, "the worm %d -> %d", m->src, m->dst);
        return;
    }
    put(t, "the %s worm %d -> ", mc_kind_names[m->mc->kind], m->src);
    for (int i = 0; i < m->mc->ncopy; i++)
        put(t, "%s%d", i ? "," : "", m->mc->copy[i]->dst);
}

static void channel_name(struct text *t, const struct net *n, int node, int o, int vc)
{
    char a[32], b[32];
    net_router_name(n, node, a, sizeof a);
    if (o >= n->nlinkp) {
        put(t, "node %s's ejection channel %d", a, o - n->nlinkp);
        return;
    }
    net_router_name(n, n->r[node].out[o].to_router, b, sizeof b);
    put(t, "link %s -> %s", a, b);
    if (vc >= 0 && n->V > 1)
        put(t, " (VC %d)", vc);
}

/* What the worm at the front of input VC i of `node` waits for, if it
 * cannot move whatever the arbiters do: 1 with the output port, VC (-1:
 * a VC to be allocated) and whether it is a credit it lacks; 0 if it could
 * move (or will once a flit in flight or the NIC is ready). */
static int waits(const struct net *n, int node, int i, uint64_t now, int *po, int *pvc, int *credit)
{
    const struct net_router *r = &n->r[node];
    const struct ivc *v = &r->in[i];
    const struct flit *f = &v->q[v->head];
    if (f->ready > now || !v->routed)
        return 0;
    const struct ivc_br *br = v->routed == 2 ? r->mbr[i] : NULL;
    int nb = br ? br->n : 1;
    for (int b = 0; b < nb; b++) {
        int o = br ? br->port[b] : v->out_port, ovc = br ? br->vc[b] : v->out_vc;
        const struct oport *op = &r->out[o];
        if (ovc == -2 - NET_ADAPTIVE) {          /* any of its candidates with a free VC will do */
            struct net_cand cd[NET_MAX_CANDS];
            int vc, nc = net_route_cands(n, node, i / n->V, i % n->V, f->m, cd);
            if (net_route_select(n, node, f->m, cd, nc, now, &vc) >= 0)
                return 0;
            *po = cd[0].port;
            *pvc = cd[0].lo;
            *credit = 0;
            return 1;
        }
        if (ovc < 0) {
            int lo = 0, hi = net_port_vcs(n, op);
            if (ovc <= -2) {
                lo = ovc == -3 ? n->V / 2 : 0;
                hi = ovc == -3 ? n->V : n->V / 2;
            }
            int k = lo;
            while (k < hi && op->owner[k])
                k++;
            if (k < hi)
                return 0;        /* a VC is free: allocation will grant one */
            *po = o;
            *pvc = lo;
            *credit = 0;
            return 1;
        }
        if (op->is_eject) {
            if (now < op->next_ok)
                return 0;
        } else if (n->p.switching == SW_WORMHOLE && op->credits[ovc] == 0) {
            *po = o;
            *pvc = ovc;
            *credit = 1;
            return 1;
        }
    }
    return 0;
}

int net_mc_stalled(struct net *n, uint64_t now)
{
    const int V = n->V;
    for (int a = 0; a < n->m.nodes; a++) {      /* a NIC that can still push a flit */
        const struct net_router *r = &n->r[a];
        for (int ch = 0; r->queued && ch < n->ninj; ch++) {
            const struct nic_queue *q = &r->inj[ch];
            if (q->first && (q->first->c_ready > now || now < q->next_ok || !net_inj_full(n, r, ch)))
                return 0;
        }
    }
    int po, pvc, credit;
    for (int a = 0; a < n->nr; a++)
        for (int i = 0; n->r[a].nflits && i < n->nin * V; i++)
            if (n->r[a].in[i].count && !waits(n, a, i, now, &po, &pvc, &credit))
                return 0;
    /* Nothing can move again. Name each worm once, by the first channel
     * (in router and input VC order) it waits for that another worm holds
     * or fills; waits on its own flits ahead say nothing. */
    struct text t = { 0 };
    put(&t, "%s deadlocked, each holding channels another waits for: ",
        n->mc_live ? "multidestination worms" : "worms");
    const struct net_msg **named = calloc((size_t)n->nr * (size_t)(n->nin * V), sizeof *named);
    int items = 0, more = 0, nnamed = 0;
    for (int a = 0; named && a < n->nr; a++)
        for (int i = 0; n->r[a].nflits && i < n->nin * V; i++) {
            const struct ivc *v = &n->r[a].in[i];
            if (!v->count || !waits(n, a, i, now, &po, &pvc, &credit))
                continue;
            const struct net_msg *m = v->q[v->head].m, *h;
            const struct oport *op = &n->r[a].out[po];
            if (credit) {
                const struct ivc *dv = &n->r[op->to_router].in[op->to_port * V + pvc];
                h = dv->count ? dv->q[dv->head].m : NULL;
            } else {
                h = op->owner[pvc];
            }
            int dup = h == m;
            for (int k = 0; k < nnamed && !dup; k++)
                dup = named[k] == m;
            if (dup)
                continue;
            named[nnamed++] = m;
            if (items == 8) {
                more++;
                continue;
            }
            put(&t, "%s", items ? "; " : "");
            worm_name(&t, m);
            put(&t, " waits for %s", credit ? "room on " : "");
            channel_name(&t, n, a, po, credit ? pvc : -1);
            put(&t, ", %s ", credit ? "filled by" : "held by");
            worm_name(&t, h);
            items++;
        }
    free(named);
    if (more)
        put(&t, "; and %d more", more);
    free(n->deadlock);
    n->deadlock = t.s;
    return 1;
}
