/* The router engine's multidestination worms (NIC_OP_MSEND; net_model.h,
 * netdev/nic_mdw.h); engine_int.h says which file does what. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine_int.h"
#include "out/trace.h"

/* NIC_OP_MSEND: one multidestination worm (net_model.h), whose copies
 * are the messages each destination receives. The router reads the node's
 * list and its payload once, into the copies; the network checks the list
 * (netdev/nic_mdw.h) before anything is counted, and a bad one fails the
 * node. Its count is checked first: the router makes at most nodes - 1
 * copies of a worm. */
int engine_msend(struct engine *r, struct node *n, const struct nic_desc *d)
{
    struct layout l = layout_of(r, n);
    uint32_t m = d->peer;
    if (d->len > r->p.msg_max)
        return engine_fail(r, n, "MSEND descriptor %u: length %u exceeds the largest message, %u bytes",
                           d->seq, d->len, r->p.msg_max);
    uint64_t all = nic_msend_list_bytes(m);
    if (d->off > l.tx_size || all > l.tx_size - d->off)
        return engine_fail(r, n, "MSEND descriptor %u: the list [%u, +%llu) is outside the %u-byte transmit area",
                           d->seq, d->off, (unsigned long long)all, l.tx_size);
    const volatile uint32_t *list = (const volatile uint32_t *)(n->shm + l.tx_off + d->off);
    uint32_t kind = list[NIC_MSEND_KIND], pay = list[NIC_MSEND_PAY];
    if (pay > l.tx_size || d->len > l.tx_size - pay)
        return engine_fail(r, n, "MSEND descriptor %u: payload [%u, +%u) outside the %u-byte transmit area",
                           d->seq, pay, d->len, l.tx_size);
    char err[256] = "out of memory";
    if (m < 1 || m > (uint32_t)r->n - 1) {   /* the count before a destination is read or a copy made */
        net_mc_check(r->net, (int)kind, n->rank, NULL, m > INT32_MAX ? INT32_MAX : (int)m, err, sizeof err);
        return engine_fail(r, n, "MSEND descriptor %u: %s", d->seq, err);
    }
    if (engine_nic_queue_check(r, n, d) || engine_held_room(r, n, d, (uint64_t)m * (d->len + NIC_MSG_HELD_BYTES)))
        return -1;
    struct msg *w = engine_msg_new(r, MSG_MDW, n->rank, -1, d->tag,
                                   (uint32_t)(sizeof(struct net_mc) + m * sizeof(struct net_msg *)), d->time_ns, 0);
    if (!w)
        return -1;
    struct net_mc *mc = (struct net_mc *)w->data;
    *mc = (struct net_mc){ .kind = (int)kind, .ncopy = (int)m, .copy = (struct net_msg **)(mc + 1) };
    w->len = d->len;
    w->step = n->step;
    w->value = m;
    uint32_t k = 0;
    const uint8_t *payload = n->shm + l.tx_off + pay;   /* read once, into the first copy */
    for (; k < m; k++) {
        uint32_t to = list[NIC_MSEND_DST + k];
        struct msg *c = engine_msg_new(r, MSG_DATA, n->rank, to > (uint32_t)INT32_MAX ? -1 : (int)to, d->tag, d->len,
                                       d->time_ns, 0);
        if (!c)
            break;
        c->step = n->step;
        c->mdw = w;
        c->mdw_copy = 1;
        c->mdw_kind = (uint8_t)kind;
        c->worm = w->seq + 1;
        memcpy(c->data, payload, d->len);
        payload = c->data;
        worm_of(c, d->time_ns + r->p.t_send_ns, 0);
        mc->copy[k] = &c->nm;
    }
    w->dst = k ? mc->copy[0]->dst : -1;
    worm_of(w, d->time_ns + r->p.t_send_ns, 0);
    w->nm.mc = mc;
    if (k < m || net_inject_mc(r->net, &w->nm, err, sizeof err)) {
        for (uint32_t i = 0; i < k; i++)
            free(mc->copy[i]->owner);
        free(w);
        return k < m ? -1 : engine_fail(r, n, "MSEND descriptor %u: %s", d->seq, err);
    }
    engine_net_link(r, w);
    for (k = 0; k < m; k++) {
        struct msg *c = mc->copy[k]->owner;
        engine_net_link(r, c);
        r->held_total += held_of(c);
    }
    n->unleft++;
    if (r->timeline) {
        char dd[48];
        snprintf(dd, sizeof dd, "to %u nodes, tag %u, %u bytes", m, d->tag, d->len);
        trace_node(r->timeline, n->rank, "msend", d->time_ns, d->time_ns + r->p.t_send_ns, dd);
    }
    engine_sent(r, n, d, m);
    return 0;
}
