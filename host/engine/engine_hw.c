/* The router engine's hardware beside the data network (hwnet.h): the
 * barrier circuits, the control network and the fetch-and-increment
 * registers, whose requests and replies are worms of the data network,
 * and flooding in the NIC (NIC_OP_FLOOD*); engine_int.h says which file
 * does what. */
#include <stdlib.h>
#include <string.h>
#include "engine_int.h"

/* A fetch-and-increment packet from NIC src to NIC dst (hwnet.h): a
 * worm of the data network, ready at t. A reply carries the register's
 * value (8 bytes) and is the NIC's; a request is its header alone and the
 * node's, posted in its order. */
int engine_inject_fi(struct engine *r, int kind, int src, int dst, uint64_t value, uint64_t t)
{
    int nic_made = kind == MSG_FI_REPLY;
    struct msg *m = engine_msg_new(r, kind, src, dst, 0, nic_made ? 8 : 0, t, nic_made);
    if (!m)
        return -1;
    m->value = value;
    r->fi_packets++;
    inject_worm(r, m, t, nic_made);
    return 0;
}

/* --- Flooding in the NIC (NIC_OP_FLOOD*, seed 004) ------------------------
 *
 * A flood message is a worm between neighbours carrying its origin's
 * content. When its head reaches a NIC (network time, net_events) and it
 * is the first from its origin there, the NIC starts its copies at once,
 * with no start-up, to the ports its rule for that origin names (rules
 * installed by then in simulated time), each streaming out behind the
 * flits still coming in: the switching of the relay overlaps the
 * message's transmission, as Theorem 4 has it. A later copy from the same
 * origin is dropped, so every NIC relays every origin at most once a
 * flood, and a flood is finite whatever the rules. When the tail is in,
 * the content is kept and the message goes through the heap like any
 * other, to count towards FLOOD_WAIT in simulated-time order. A NIC holds
 * any number of floods, by tag; a tag waited for is over there. */

struct flood_rx *engine_flood_find(struct node *n, uint32_t tag)
{
    for (int i = 0; i < n->nfloods; i++)
        if (n->floods[i].tag == tag)
            return &n->floods[i];
    return NULL;
}

static int flood_over(const struct node *n, uint32_t tag)
{
    for (int i = 0; i < n->ndone; i++)
        if (n->floods_done[i] == tag)
            return 1;
    return 0;
}

static uint64_t flood_bytes(const struct engine *r, uint32_t len) { return (uint64_t)r->n * (len + 2u); }

/* Node n's flood of tag, begun now if new, for a message of len bytes
 * from origin (n itself, or the node whose flood reached n's NIC: the
 * node an error names); NULL once the run must stop. */
static struct flood_rx *flood_get(struct engine *r, struct node *n, uint32_t tag, uint32_t len, int origin)
{
    struct flood_rx *f = engine_flood_find(n, tag);
    if (f) {
        if (f->len != len) {
            engine_stop(r, "node %d: its flood message of tag %u has %u bytes, where node %d's of that tag has %u "
                        "(at node %d's NIC): a flood's messages are all of one length", origin, tag, len, f->origin,
                        f->len, n->rank);
            return NULL;
        }
        return f;
    }
    if (r->held_total + flood_bytes(r, len) > r->held_limit) {
        engine_stop(r, "node %d: its flood of tag %u would make the router hold %llu bytes at node %d's NIC, more "
                    "than it may (%llu: " HELD_LIMIT_WHY "): too many floods at once", origin, tag,
                    (unsigned long long)(r->held_total + flood_bytes(r, len)), n->rank,
                    (unsigned long long)r->held_limit);
        return NULL;
    }
    struct flood_rx *a = realloc(n->floods, (size_t)(n->nfloods + 1) * sizeof *a);
    if (!a) {
        engine_stop(r, "out of memory for node %d's floods", n->rank);
        return NULL;
    }
    n->floods = a;
    f = &a[n->nfloods];
    *f = (struct flood_rx){ .tag = tag, .len = len, .origin = origin };
    f->have = calloc((size_t)r->n, 1);
    f->got = calloc((size_t)r->n, 1);
    f->data = calloc((size_t)r->n * len + 1, 1);
    if (!f->have || !f->got || !f->data) {
        free(f->have);
        free(f->got);
        free(f->data);
        engine_stop(r, "out of memory for node %d's flood of %d x %u bytes", n->rank, r->n, len);
        return NULL;
    }
    n->nfloods++;
    r->held_total += flood_bytes(r, len);
    return f;
}

/* A flood worm of origin's content from node src to its neighbour through
 * port p, posted at t_post and ready at t_ready; a relay (nic_made) or the
 * node's own. */
static int flood_send(struct engine *r, int src, int p, uint32_t origin, uint32_t tag, const uint8_t *data,
                      uint32_t len, uint64_t t_post, uint64_t t_ready, uint32_t step, int nic_made)
{
    int from, port, to;
    net_link_ends(r->net, src * net_link_ports(r->net) + p, &from, &port, &to);   /* checked at FLOOD_RULES */
    if (r->held_total + len + NIC_MSG_HELD_BYTES > r->held_limit)
        return engine_stop(r, "node %u: its flood of tag %u: the router would hold %llu bytes of messages and flood "
                           "copies, more than it may (%llu: " HELD_LIMIT_WHY ")", origin, tag,
                           (unsigned long long)(r->held_total + len + NIC_MSG_HELD_BYTES),
                           (unsigned long long)r->held_limit);
    struct msg *m = engine_msg_new(r, MSG_FLOOD, src, to, tag, len, t_post, nic_made);
    if (!m)
        return -1;
    m->value = origin;
    m->step = step;
    memcpy(m->data, data, len);
    r->held_total += held_of(m);
    r->messages++;
    r->bytes += len;
    inject_worm(r, m, t_ready, nic_made);
    return 0;
}

/* Send node src's copies of origin's message along its rule, if the rule
 * was installed by t_ready: posted at t_post, ready to enter at t_ready (the
 * node's own flood pays the start-up of a send between the two; a relay,
 * made by the NIC as the head arrives, none). */
static int flood_relay(struct engine *r, int src, uint32_t origin, uint32_t tag, const uint8_t *data, uint32_t len,
                       uint64_t t_post, uint64_t t_ready, uint32_t step, int nic_made)
{
    if (!r->flood_rules || t_ready < r->nodes[src].flood_rules_ns)
        return 0;                          /* no rules yet: nothing relayed */
    uint32_t mask = r->flood_rules[(size_t)src * r->n + origin];
    for (int p = 0; mask; p++, mask >>= 1)
        if ((mask & 1) && flood_send(r, src, p, origin, tag, data, len, t_post, t_ready, step, nic_made))
            return -1;
    return 0;
}

/* Flood worms whose head reached node m->dst's NIC at cycle c_head. */
int engine_flood_heads(struct engine *r, struct net_msg *heads)
{
    for (struct net_msg *x = heads; x; x = x->next_head) {
        struct msg *m = x->owner;
        struct node *n = &r->nodes[m->dst];
        uint32_t origin = (uint32_t)m->value;
        m->first = 0;
        if (flood_over(n, m->tag))
            continue;                        /* a late copy of a flood over here: dropped */
        struct flood_rx *f = flood_get(r, n, m->tag, m->len, (int)origin);
        if (!f)
            return -1;
        if (f->have[origin])
            continue;                        /* seen: dropped */
        f->have[origin] = 1;
        m->first = 1;
        uint64_t t = net_cycle_to_ns_ceil(r->net, x->c_head);
        if (flood_relay(r, n->rank, origin, m->tag, m->data, m->len, t, t, m->step, 1))
            return -1;
    }
    return 0;
}

/* A flood worm's tail reached node m->dst: the first from its origin
 * leaves its content in the NIC and goes to the heap; a copy is dropped. */
int engine_flood_arrived(struct engine *r, struct msg *m)
{
    struct flood_rx *f = m->first ? engine_flood_find(&r->nodes[m->dst], m->tag) : NULL;
    if (!f) {
        release(r, m);
        return 0;
    }
    memcpy(f->data + (size_t)m->value * f->len, m->data, m->len);
    if (engine_heap_push(r, m)) {
        release(r, m);
        return -1;
    }
    return 0;
}

/* Answer node n's FLOOD_WAIT at t with the origins delivered by then
 * (the others' slots zero); the flood is over at this NIC. */
void engine_flood_answer(struct engine *r, struct node *n, struct flood_rx *f, uint64_t t)
{
    struct layout l = layout_of(r, n);
    size_t bytes = (size_t)r->n * f->len;
    for (int o = 0; o < r->n; o++)
        if (f->got[o])
            memcpy(n->shm + l.rx_off + (size_t)o * f->len, f->data + (size_t)o * f->len, f->len);
        else
            memset(n->shm + l.rx_off + (size_t)o * f->len, 0, f->len);
    struct msg all = { .src = n->rank, .tag = f->tag, .len = (uint32_t)bytes };   /* what the reply says */
    reply_of(n)->value = f->count ? f->t_last : t;
    uint32_t *d = realloc(n->floods_done, (size_t)(n->ndone + 1) * sizeof *d);
    if (!d) {
        engine_stop(r, "out of memory for node %d's floods", n->rank);
        return;
    }
    n->floods_done = d;
    d[n->ndone++] = f->tag;
    r->held_total -= flood_bytes(r, f->len);
    free(f->have);
    free(f->got);
    free(f->data);
    *f = n->floods[--n->nfloods];
    engine_answer(r, n, NIC_REPLY_OK, &all, t);
}

/* A flood message delivered (simulated-time order): it counts. */
void engine_flood_delivered(struct engine *r, struct node *n, struct msg *m)
{
    struct flood_rx *f = engine_flood_find(n, m->tag);
    if (f) {
        f->got[m->value] = 1;
        f->count++;
        f->t_last = m->t_arrive;
        if (n->state == NODE_BLOCKED && n->blk.op == NIC_OP_FLOOD_WAIT && n->blk_checked &&
            n->blk.tag == f->tag && f->count >= n->blk.peer)
            engine_flood_answer(r, n, f, m->t_arrive);
    }
    release(r, m);
}

/* The flooding descriptors (nic_shm.h; "Flooding in the NIC" above). */
static int handle_flood(struct engine *r, struct node *n, const struct nic_desc *d)
{
    struct layout l = layout_of(r, n);
    const char *op = engine_op_name(d->op);
    if (d->op != NIC_OP_FLOOD_WAIT && (d->off > l.tx_size || d->len > l.tx_size - d->off))
        return engine_fail(r, n, "%s descriptor %u: payload [%u, +%u) outside the %u-byte transmit area", op, d->seq,
                           d->off, d->len, l.tx_size);
    if (d->op == NIC_OP_FLOOD_RULES) {
        if (n->flood_rules_ns != SIM_INF)
            return engine_fail(r, n, "%s descriptor %u: its NIC has its flood rules already (they are installed once)",
                               op, d->seq);
        if (d->len != (uint32_t)r->n * 4)
            return engine_fail(r, n, "%s descriptor %u: %u bytes of rules; it takes one 32-bit port mask per node, "
                               "%d bytes", op, d->seq, d->len, r->n * 4);
        if (!r->flood_rules) {
            r->flood_rules = calloc((size_t)r->n * r->n, sizeof *r->flood_rules);
            if (!r->flood_rules)
                return engine_stop(r, "out of memory for the flood rules of %d nodes", r->n);
        }
        uint32_t *rule = r->flood_rules + (size_t)n->rank * r->n;
        memcpy(rule, n->shm + l.tx_off + d->off, d->len);
        int P = net_link_ports(r->net), from, port, to;
        for (int o = 0; o < r->n; o++)
            for (int p = 0; p < 32; p++) {
                if (!(rule[o] >> p & 1))
                    continue;
                if (p >= P || !net_link_ends(r->net, n->rank * P + p, &from, &port, &to))
                    return engine_fail(r, n, "%s descriptor %u: the rule for origin %d names port %d, where the node "
                                       "has no link (ports 0..%d, 2 dim + (dir == -1))", op, d->seq, o, p, P - 1);
                if (to >= r->n)
                    return engine_fail(r, n, "%s descriptor %u: the rule for origin %d names port %d, which leads to a "
                                       "switch: flooding in the NIC needs a direct network (mesh, torus, hypercube)",
                                       op, d->seq, o, p);
            }
        n->flood_rules_ns = d->time_ns;
        n->lb = d->time_ns;
        engine_touch(r, n);
        return 0;
    }
    if (d->op == NIC_OP_FLOOD) {
        if (n->flood_rules_ns == SIM_INF)
            return engine_fail(r, n, "%s descriptor %u: its NIC has no flood rules (FLOOD_RULES first)", op, d->seq);
        if (d->len > r->p.msg_max || (uint64_t)d->len * (uint64_t)r->n > l.rx_size)
            return engine_fail(r, n, "%s descriptor %u: %u bytes from each of %d nodes do not fit the %u-byte receive "
                               "area (msg_max %u)", op, d->seq, d->len, r->n, l.rx_size, r->p.msg_max);
        struct flood_rx *f = engine_flood_find(n, d->tag);
        if (flood_over(n, d->tag) || (f && f->have[n->rank]))
            return engine_fail(r, n, "%s descriptor %u: floods tag %u a second time; successive floods take "
                               "different tags", op, d->seq, d->tag);
        if (f && f->len != d->len)
            return engine_fail(r, n, "%s descriptor %u: %u bytes, where the flood of tag %u has %u", op, d->seq, d->len,
                               d->tag, f->len);
        if (!(f = flood_get(r, n, d->tag, d->len, n->rank)))
            return -1;
        f->have[n->rank] = f->got[n->rank] = 1;   /* its own: never relayed back, not counted */
        uint8_t *own = f->data + (size_t)n->rank * d->len;
        memcpy(own, n->shm + l.tx_off + d->off, d->len);   /* read once: what it keeps and every port sends */
        if (flood_relay(r, n->rank, (uint32_t)n->rank, d->tag, own, d->len,
                        d->time_ns, d->time_ns + r->p.t_send_ns, n->step, 0))
            return -1;
        n->sends++;
        n->bytes_sent += d->len;
        n->lb = d->time_ns + r->p.t_send_ns;
        engine_touch(r, n);
        return 0;
    }
    /* NIC_OP_FLOOD_WAIT: answered once its time is reached (engine.c,
     * check) or by the delivery that completes the count, with what came
     * by then. */
    if (d->peer >= (uint32_t)r->n)
        return engine_fail(r, n, "%s descriptor %u: waits for %u messages; a flood brings at most %d", op, d->seq,
                           d->peer, r->n - 1);
    if (flood_over(n, d->tag))
        return engine_fail(r, n, "%s descriptor %u: waits on flood tag %u, which it has waited for already", op, d->seq,
                           d->tag);
    block_on(r, n, d, 0);
    return 0;
}

/* The descriptors of the hardware beside the data network (hwnet.h). */
int engine_handle_hw(struct engine *r, struct node *n, const struct nic_desc *d)
{
    char err[300];
    const char *op = engine_op_name(d->op);
    uint64_t t;
    int rc;
    switch (d->op) {
    case NIC_OP_BARRIER_SET:
        rc = hwnet_barrier_set(&r->hw, n->rank, d->tag, d->time_ns, err, sizeof err);
        if (rc < 0)
            return engine_fail(r, n, "%s descriptor %u: %s", op, d->seq, err);
        n->lb = d->time_ns;
        engine_touch(r, n);
        if (rc == 1) {                       /* it fired: wake the nodes waiting on it */
            t = r->hw.bar[d->tag].t_fire;
            for (int i = 0; i < r->n; i++) {
                struct node *w = &r->nodes[i];
                uint64_t at;
                if (w->state == NODE_BLOCKED && w->blk.op == NIC_OP_BARRIER_WAIT && w->blk.tag == d->tag &&
                    hwnet_barrier_wait(&r->hw, i, d->tag, w->blk.time_ns, &at, err, sizeof err) == 1)
                    answer_value(r, w, 0, at);
            }
        }
        return 0;
    case NIC_OP_BARRIER_WAIT:
        rc = hwnet_barrier_wait(&r->hw, n->rank, d->tag, d->time_ns, &t, err, sizeof err);
        if (rc < 0)
            return engine_fail(r, n, "%s descriptor %u: %s", op, d->seq, err);
        block_on(r, n, d, 1);
        if (rc == 1)
            answer_value(r, n, 0, t);
        return 0;
    case NIC_OP_CTRL: {
        int64_t v = (int64_t)((uint64_t)d->off << 32 | d->len);
        block_on(r, n, d, 1);
        int culprit;
        rc = hwnet_ctrl(&r->hw, n->rank, d->tag, d->peer, v, d->time_ns, &t, &culprit, err, sizeof err);
        if (rc == -1)
            return engine_fail(r, n, "%s descriptor %u: %s", op, d->seq, err);
        if (rc < 0)
            return engine_fail(r, &r->nodes[culprit], "%s: %s", op, err);
        for (int i = 0; rc == 1 && i < r->n; i++)   /* every node posted it; the failed ones stay so */
            if (r->nodes[i].state == NODE_BLOCKED)
                answer_value(r, &r->nodes[i], (uint64_t)r->hw.ctrl_val[i], t);
        return 0;
    }
    case NIC_OP_FLOOD_RULES:
    case NIC_OP_FLOOD:
    case NIC_OP_FLOOD_WAIT:
        return handle_flood(r, n, d);
    default:                                 /* NIC_OP_FETCH_INC */
        if (d->peer >= (uint32_t)r->n)
            return engine_fail(r, n, "%s descriptor %u: node %u out of range 0..%d", op, d->seq, d->peer, r->n - 1);
        if (d->tag >= NIC_FI_REGS)
            return engine_fail(r, n, "%s descriptor %u: register %u out of range 0..%d", op, d->seq, d->tag,
                               NIC_FI_REGS - 1);
        block_on(r, n, d, 1);
        return engine_inject_fi(r, MSG_FI_REQUEST, n->rank, (int)d->peer, d->tag, d->time_ns);
    }
}
