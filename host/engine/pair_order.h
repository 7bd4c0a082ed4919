/* The NIC's reorder of a pair's messages (netdev/net.h: messages between
 * a given pair of nodes arrive in the order they were sent).
 *
 * The network does not promise that order. With two or more VCs a later
 * worm can pass an earlier one of the same pair blocked in a router: under
 * cut-through, and under wormhole switching once the earlier worm sits
 * whole in one buffer (tests/unit/test_router.c, no_overtaking_*). So the
 * destination's NIC holds a message that arrives before an earlier one of
 * its sender, and hands both over when the earlier one has come: the later
 * one at the earlier one's arrival time, after it (the delivery heap's
 * (t_arrive, src, seq) order). A message that overtook nothing is handed
 * over when its tail arrives, as before.
 *
 * Invariant: for each (src, dst) the messages sent and not yet handed over
 * form a chain in send order (pair_prev/pair_next), and the table maps the
 * pair to the chain's last message. Only the chain's first may be handed
 * over; the ones after it that arrived wait (`arrived` set). */
#ifndef PAIR_ORDER_H
#define PAIR_ORDER_H

#include <stddef.h>
#include <stdint.h>

struct msg;

struct pair_table {
    struct pair_slot { uint64_t key; struct msg *last; } *slot;  /* open addressing; key 0: empty */
    size_t cap, used;
};

/* m (a node's message, MSG_DATA) enters the network after every earlier
 * message of its pair. -1: out of memory (m then takes no part). */
int pair_sent(struct pair_table *t, struct msg *m);

/* m's tail arrived at m->t_arrive. Returns the messages now handed over,
 * in order, linked through ->next (m first, then those that waited for
 * it, each t_arrive raised to its predecessor's), or NULL if m waits. */
struct msg *pair_arrived(struct pair_table *t, struct msg *m);

/* Free the messages that arrived and still wait, and the table. */
void pair_free(struct pair_table *t);

#endif
