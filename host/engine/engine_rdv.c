/* The router engine's rendezvous (engine.h, params eager_max);
 * engine_int.h says which file does what. */
#include <stdlib.h>
#include "engine_int.h"

/* The data message m stays in its sender's NIC (r->rdv_held) and its
 * request-to-send enters after the send start-up, in m's place in the
 * node's and the pair's order (m's sequence number). -1, m untouched,
 * when the run stopped for want of memory. */
int engine_rdv_send(struct engine *r, struct msg *m)
{
    struct msg *q = calloc(1, sizeof *q);
    if (!q)
        return engine_stop(r, "out of memory for a request-to-send");
    m->rdv_data = 1;
    list_push(&r->rdv_held, m);
    r->nodes[m->src].unleft++;              /* WAIT_SENT waits for the data's tail */
    q->kind = MSG_RTS;
    q->src = m->src;
    q->dst = m->dst;
    q->tag = m->tag;
    q->t_post = m->t_post;
    q->seq = m->seq;
    q->step = m->step;
    q->rdv = m;
    r->rdv_messages++;
    r->rdv_packets++;
    inject_worm(r, q, m->t_post + r->p.t_send_ns, 0);
    return 0;
}

/* Node n's RECV took request q at t (its receive posted, the request
 * there): its NIC sends the clear-to-send, and the RECV now waits for q's
 * data alone. The clear may enter at t, but not before the request's
 * arrival cycle has ended; its first cycle is never one the network may
 * already have run before handling an event at t (net_ceil_cycle), so it
 * does not depend on how far the network ran. */
void engine_rdv_accept(struct engine *r, struct node *n, struct msg *q, uint64_t t)
{
    struct msg *dm = q->rdv;
    uint64_t t0 = net_cycle_to_ns_ceil(r->net, q->nm.c_arrive);
    int src = q->src;
    uint32_t tag = q->tag;
    free(q);
    if (t < t0)
        t = t0;
    struct msg *c = engine_msg_new(r, MSG_CTS, n->rank, src, tag, 0, t, 1);
    if (!c)
        return;
    c->rdv = dm;
    r->rdv_packets++;
    n->held_in -= held_of(dm);               /* counted while its request waited (deliver) */
    n->rdv_wait = dm;
    n->blk_checked = 1;                      /* answered by dm's arrival */
    engine_touch(r, n);
    inject_worm(r, c, c->t_post, 1);
}

/* The destination of a rendezvous' data node src still holds, or -1. */
int engine_rdv_held_from(const struct engine *r, int src)
{
    for (const struct msg *m = r->rdv_held; m; m = m->net_next)
        if (m->src == src)
            return m->dst;
    return -1;
}
