/* The bodies of the link's BELL, NOTIFY and CONFIG messages (host/relay/link.h):
 * what a node host copies out of a node's NIC memory and what the router
 * copies into its mirror of it, and back. Pure functions of two buffers,
 * so the host unit tests check that a mirror reads as the node's memory.
 *
 * The layout each side uses is the one the router wrote in the
 * configuration (relay_layout_of, taken once from the CONFIG page): a node
 * can scribble over its own configuration, and neither side must follow a
 * scribbled offset out of the memory.
 */
#ifndef RELAY_H
#define RELAY_H

#include <stddef.h>
#include <stdint.h>
#include "../../netdev/nic_shm.h"

struct relay_layout { uint32_t size, ring_off, ring_slots, tx_off, tx_size, rx_off, rx_size; };

/* The layout of a configuration page; -1 if it does not fit in size bytes. */
int relay_layout_of(const uint8_t *page, size_t size, struct relay_layout *l);

/* Node host: apply a CONFIG body (the first page, NIC_RING_OFF bytes) to
 * the node's memory; the node's hello is kept. */
void relay_apply_config(uint8_t *shm, const uint8_t *page);

/* Node host: a BELL body with the status block, prod, and the descriptors
 * from *sent to prod (with each SEND's payload); *sent becomes prod.
 * Returns the malloc'd body (its length in *len), or NULL if out of memory. */
uint8_t *relay_bell(const uint8_t *shm, const struct relay_layout *l, uint32_t *sent, size_t *len);

/* Router: copy a BELL body into the mirror (its link_up stays). Returns
 * -1 with err set if the body is malformed. */
int relay_apply_bell(uint8_t *mirror, const struct relay_layout *l, const uint8_t *body, size_t len,
                     char *err, size_t errlen);

/* Router: a NOTIFY body: link_up, cons, the reply, and the reply's
 * payload if the reply differs from *last (which then becomes it). */
uint8_t *relay_notify(const uint8_t *mirror, const struct relay_layout *l, struct nic_reply *last, size_t *len);

/* Node host: apply a NOTIFY body: the payload, the reply, cons, and
 * link_up last. -1 if malformed. */
int relay_apply_notify(uint8_t *shm, const struct relay_layout *l, const uint8_t *body, size_t len);

#endif
