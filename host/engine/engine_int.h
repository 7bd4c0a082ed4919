/* What the router engine's files share (host/engine/): engine.c holds the
 * node descriptors and their dispatch (handle), the bounds, the in-flight
 * heap, the clocks (engine_advance) and the answers; engine_hw.c the
 * hardware beside the data network (barrier circuits, control network,
 * fetch-and-increment, flooding in the NIC); engine_mdw.c the
 * multidestination worms (NIC_OP_MSEND); engine_rdv.c the rendezvous
 * (engine.h, params eager_max). Every engine object links into every
 * tool, so what one file calls in another is named engine_*. */
#ifndef ENGINE_INT_H
#define ENGINE_INT_H

#include <stdint.h>
#include <stdlib.h>
#include "engine.h"

/* Why the router may hold no more messages (struct engine's held_limit), in its
 * messages. */
#define HELD_LIMIT_WHY "32 x held_max, or less as the host's memory allows: --mem-limit"

static inline volatile struct nic_reply *reply_of(struct node *n)
{
    return (volatile struct nic_reply *)(n->shm + NIC_REPLY_OFF);
}

/* A node's NIC memory layout. The router derives it from its own
 * parameters rather than reading it back from struct nic_config: the node
 * can write all of its NIC memory, the config included, and a scribbled
 * ring_off, tx_off, rx_off or size must not send the router outside it. */
struct layout { uint32_t ring_off, ring_slots, tx_off, tx_size, rx_off, rx_size; };

static inline struct layout layout_of(const struct engine *r, const struct node *n)
{
    struct layout l;
    l.ring_off = NIC_RING_OFF;
    l.ring_slots = 64;
    l.rx_size = (r->p.msg_max + 4095u) & ~4095u;
    l.rx_off = (uint32_t)n->shm_size - l.rx_size;
    l.tx_off = (l.ring_off + l.ring_slots * (uint32_t)sizeof(struct nic_desc) + 4095u) & ~4095u;
    l.tx_size = l.rx_off - l.tx_off;
    return l;
}

static inline uint64_t held_of(const struct msg *m) { return (uint64_t)m->len + NIC_MSG_HELD_BYTES; }

/* The engine's two lists through net_prev/net_next: the messages in the
 * network (in_net) and the rendezvous data not yet cleared (rdv_held). */
static inline void list_push(struct msg **head, struct msg *m)
{
    m->net_prev = NULL;
    m->net_next = *head;
    if (*head)
        (*head)->net_prev = m;
    *head = m;
}

static inline void list_remove(struct msg **head, struct msg *m)
{
    if (m->net_prev)
        m->net_prev->net_next = m->net_next;
    else
        *head = m->net_next;
    if (m->net_next)
        m->net_next->net_prev = m->net_prev;
}

/* engine.c. engine_fail: node n broke the protocol; engine_stop: an error
 * that is no node's ends the run. Both return -1. */
int engine_fail(struct engine *r, struct node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int engine_stop(struct engine *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Every change of n's state, bound or request (the bounds' trees). */
void engine_touch(struct engine *r, const struct node *n);
/* Answer n's blocking request at t with status (and message m, if any). */
void engine_answer(struct engine *r, struct node *n, uint32_t status, const struct msg *m, uint64_t t);
/* Put m on the list of messages in the network (and its pair's chain). */
void engine_net_link(struct engine *r, struct msg *m);
/* A worm's record with room for len bytes of payload; NULL once the run stopped. */
struct msg *engine_msg_new(struct engine *r, int kind, int src, int dst, uint32_t tag, uint32_t len, uint64_t t,
                           int nic_made);
/* An arrived worm into the in-flight heap; -1 once the run stopped. */
int engine_heap_push(struct engine *r, struct msg *m);
/* A SEND or MSEND's bytes in n's NIC queue: 0 if they fit held_max, else n fails. */
int engine_nic_queue_check(struct engine *r, struct node *n, const struct nic_desc *d);
/* The router's room for `bytes` more of messages: 0 if there is, else n fails. */
int engine_held_room(struct engine *r, struct node *n, const struct nic_desc *d, uint64_t bytes);
/* A send of `copies` messages counted, n's bound past its start-up. */
void engine_sent(struct engine *r, struct node *n, const struct nic_desc *d, uint32_t copies);

/* The worm's fields of m's network record, to enter at t_ready or later. */
static inline void worm_of(struct msg *m, uint64_t t_ready, int nic_made)
{
    m->nm.src = m->src;
    m->nm.dst = m->dst;
    m->nm.len = m->len;
    m->nm.seq = m->seq;
    m->nm.t_ready_ns = t_ready;
    m->nm.nic_made = nic_made;
    m->nm.notify_head = m->kind == MSG_FLOOD;
    m->nm.owner = m;
}

/* Hand a worm to the network, to enter at t_ready or later. */
static inline void inject_worm(struct engine *r, struct msg *m, uint64_t t_ready, int nic_made)
{
    worm_of(m, t_ready, nic_made);
    engine_net_link(r, m);
    net_inject(r->net, &m->nm);
}

/* A message's end: its bytes are no longer held. */
static inline void release(struct engine *r, struct msg *m)
{
    r->held_total -= held_of(m);
    free(m);
}

/* Block node n on descriptor d until it is answered. checked: nothing
 * is to be checked at its time (struct node's blk_checked), since an
 * event answers it (the hardware, the last tail leaving, a delivery). */
static inline void block_on(struct engine *r, struct node *n, const struct nic_desc *d, int checked)
{
    n->blk = *d;
    n->blk_checked = checked;
    n->state = NODE_BLOCKED;
    engine_touch(r, n);
}

/* Answer a request of the hardware beside the data network with a value. */
static inline void answer_value(struct engine *r, struct node *n, uint64_t value, uint64_t t)
{
    reply_of(n)->value = value;
    engine_answer(r, n, NIC_REPLY_OK, NULL, t);
}

/* engine_hw.c: a fetch-and-increment packet into the data network; node
 * n's flood of tag, or NULL; the flood worms whose heads reached a NIC;
 * a flood worm's tail in; a FLOOD_WAIT answered; a flood message
 * delivered; and the descriptors of the hardware beside the data network. */
int engine_inject_fi(struct engine *r, int kind, int src, int dst, uint64_t value, uint64_t t);
struct flood_rx *engine_flood_find(struct node *n, uint32_t tag);
int engine_flood_heads(struct engine *r, struct net_msg *heads);
int engine_flood_arrived(struct engine *r, struct msg *m);
void engine_flood_answer(struct engine *r, struct node *n, struct flood_rx *f, uint64_t t);
void engine_flood_delivered(struct engine *r, struct node *n, struct msg *m);
int engine_handle_hw(struct engine *r, struct node *n, const struct nic_desc *d);

/* engine_mdw.c: NIC_OP_MSEND, one multidestination worm. */
int engine_msend(struct engine *r, struct node *n, const struct nic_desc *d);

/* engine_rdv.c: a SEND past eager_max offered by its request-to-send;
 * a RECV that took request q; the destination of the data node src still
 * holds, or -1. */
int engine_rdv_send(struct engine *r, struct msg *m);
void engine_rdv_accept(struct engine *r, struct node *n, struct msg *q, uint64_t t);
int engine_rdv_held_from(const struct engine *r, int src);

#endif
