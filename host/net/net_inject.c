/* Messages entering the network: each node's injection channels, their
 * queues in order of readiness, and a unicast message's route state
 * (net_route.c) before its head enters. Multidestination worms (net_mc.c)
 * are queued here too. */
#include <stdio.h>
#include <stdlib.h>
#include "net_route.h"
#include "net_accel.h"

/* The order of an injection channel's worms: by readiness; at the same
 * time a worm the NIC made before its node's message, and among the
 * node's (or among the NIC's) the lower sequence number first. Which was
 * known to the router first may depend on the host (a rendezvous' data is
 * queued when its clear-to-send arrives, after later messages of its
 * node), so the rule must not. */
static int goes_before(const struct net_msg *a, const struct net_msg *b)
{
    if (a->t_ready_ns != b->t_ready_ns)
        return a->t_ready_ns < b->t_ready_ns;
    if (a->nic_made != b->nic_made)
        return a->nic_made;
    return a->seq < b->seq;
}

uint32_t net_payload_flits(const struct net *n, uint32_t len)
{
    uint32_t f = (len + n->p.flit_bytes - 1) / n->p.flit_bytes;
    return (f ? f : 1) + n->p.header_flits;
}

int net_shadow_add(struct net *n, struct net_msg *c)
{
    if (n->nshadow == n->shadow_cap) {
        size_t cap = n->shadow_cap ? 2 * n->shadow_cap : 1024;
        struct net_msg **s = realloc(n->shadow, cap * sizeof *s);
        if (!s)
            return -1;
        n->shadow = s;
        n->shadow_cap = cap;
    }
    c->jix = (uint32_t)n->nshadow;
    n->shadow[n->nshadow++] = c;
    return 0;
}

void net_queue(struct net *n, struct net_msg *m, uint32_t flits, int ch)
{
    m->flits = flits;
    m->c_ready = net_ceil_cycle(n, m->t_ready_ns);
    m->c_inject = m->c_head = m->c_leave = m->c_arrive = 0;
    m->blocked_cycles = 0;
    m->f_out = 0;
    acc_queueing(n, m, ch);
    m->next_queue = m->next_done = m->next_left = m->next_head = NULL;
    struct nic_queue *q = &n->r[m->src].inj[ch];
    if (!q->first)
        acc_nic_next(n, m->src);                 /* (an empty channel's next_flit is 0) */
    if (!q->last || !goes_before(m, q->last)) {
        if (q->last)
            q->last->next_queue = m;
        else
            q->first = m;
        q->last = m;
    } else {
        /* A worm the NIC makes itself (a fetch-and-increment reply, a
         * flood relay) may be ready before messages its node queued
         * earlier, and so may a rendezvous' data, queued when its clear
         * arrives. It goes ahead of those not yet started: a channel
         * serves its worms by readiness (then as goes_before says), never
         * in the order the host happened to learn of them. A node's other
         * messages are ready in the order it posts them, so they always
         * take the branch above. */
        struct net_msg **pp = &q->first;
        if (q->next_flit)
            pp = &(*pp)->next_queue;          /* the front one has begun */
        while (*pp && !goes_before(m, *pp))
            pp = &(*pp)->next_queue;
        m->next_queue = *pp;
        *pp = m;
        if (!m->next_queue)
            q->last = m;
    }
    if (m->mc)
        acc_multidest_queued(n);
    n->r[m->src].queued++;
    net_activate(n, m->src);
    n->queued_msgs++;
    n->undelivered += m->mc ? (uint64_t)m->mc->ncopy : 1;
}

/* Room in n->taken for the links of m's route (net_route_room: every
 * adaptive routing's routes have a known bound). */
static int take_room(struct net *n, struct net_msg *m)
{
    size_t need = n->ntaken + (size_t)net_route_room(n, m);
    if (need > n->taken_cap) {
        size_t cap = n->taken_cap ? n->taken_cap : 4096;
        while (cap < need)
            cap *= 2;
        int *t = realloc(n->taken, cap * sizeof *t);
        if (!t)
            return -1;
        n->taken = t;
        n->taken_cap = cap;
    }
    m->route_at = (uint32_t)n->ntaken + 1;
    n->ntaken = need;
    return 0;
}

void net_inject(struct net *n, struct net_msg *m)
{
    net_route_prepare(n, m);
    int cls, p;
    m->route_at = 0;
    m->route_len = 0;
    if (n->adaptive) {                /* the channel of its first choice's direction */
        struct net_cand cd[NET_MAX_CANDS];
        p = net_route_cands(n, m->src, n->nlinkp, 0, m, cd) ? cd[0].port : -1;
        if (take_room(n, m) < 0) {
            fprintf(stderr, "net: no memory for the routes of %zu hops\n", n->ntaken);
            abort();
        }
    } else {
        p = net_topo_route(n, m->src, m, &cls);
    }
    net_queue(n, m, net_payload_flits(n, m->len), p < 0 ? 0 : p % n->ninj);
    if (n->ref) {                     /* NET_JUMP_CHECK: the same message in the reference */
        struct net_msg *c = calloc(1, sizeof *c);
        if (!c || net_shadow_add(n, c)) {
            fprintf(stderr, "net: no memory for the checking model\n");
            abort();
        }
        uint32_t jix = c->jix;
        *c = (struct net_msg){ .src = m->src, .dst = m->dst, .len = m->len, .seq = m->seq,
                               .t_ready_ns = m->t_ready_ns, .nic_made = m->nic_made,
                               .notify_head = m->notify_head, .owner = m };
        net_inject(n->ref, c);
        c->jix = jix;
    }
}
