/* BELL, NOTIFY and CONFIG bodies (relay.h).
 *
 *   BELL    struct nic_status | prod | first | count | count x nic_desc | payloads
 *           (the transmit-area bytes each descriptor names, in descriptor
 *           order: region() below)
 *   NOTIFY  link_up | cons | struct nic_reply | payload (reply.len bytes, or none)
 *   CONFIG  the first NIC_RING_OFF bytes
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "relay.h"

#define AT32(p, off) (*(volatile uint32_t *)((p) + (off)))
/* A BELL's head: the status block, prod, first, count. */
#define BELL_HEAD (sizeof(struct nic_status) + 3 * sizeof(uint32_t))

int relay_layout_of(const uint8_t *page, size_t size, struct relay_layout *l)
{
    struct nic_config c;
    memcpy(&c, page + NIC_CONFIG_OFF, sizeof c);
    *l = (struct relay_layout){ (uint32_t)size, c.ring_off, c.ring_slots, c.tx_off, c.tx_size, c.rx_off, c.rx_size };
    uint64_t ring_end = (uint64_t)c.ring_off + (uint64_t)c.ring_slots * sizeof(struct nic_desc);
    if (size > UINT32_MAX || c.ring_off < NIC_RING_OFF || !c.ring_slots || ring_end > size ||
        (uint64_t)c.tx_off + c.tx_size > size || (uint64_t)c.rx_off + c.rx_size > size)
        return -1;
    return 0;
}

void relay_apply_config(uint8_t *shm, const uint8_t *page)
{
    uint32_t hello = AT32(shm, NIC_STATUS_OFF + offsetof(struct nic_status, hello));
    memcpy(shm, page, NIC_RING_OFF);
    AT32(shm, NIC_STATUS_OFF + offsetof(struct nic_status, hello)) = hello;
    __sync_synchronize();
}

static int in_tx(const struct relay_layout *l, uint64_t off, uint64_t len)
{
    return off <= l->tx_size && len <= l->tx_size - off;
}

/* An MSEND's payload offset, the second word of its list at tx + d->off,
 * read once (the node may rewrite it at any time); 0 if the list is not
 * in the area. The caller keeps the value: the body carries the list as
 * the node host read this word, whatever the node wrote after. */
static uint32_t msend_pay(const struct relay_layout *l, const struct nic_desc *d, const volatile uint8_t *tx)
{
    if (d->op != NIC_OP_MSEND || !in_tx(l, d->off, nic_msend_list_bytes(d->peer)))
        return 0;
    return *(const volatile uint32_t *)(tx + d->off + 4 * NIC_MSEND_PAY);
}

/* Region k (0 or 1) of the transmit area that descriptor d names, which
 * the router reads from its mirror (nic_shm.h): the payload [off, +len) of
 * a SEND, FLOOD_RULES or FLOOD; a PROBE_ANY's patterns [off, +nic_probe_any_bytes(m));
 * an MSEND's list [off, +nic_msend_list_bytes(m)),
 * then the payload [pay, +len) at the offset its list names (msend_pay).
 * The length (0: none); regions outside the area carry nothing, the router
 * refusing those descriptors itself (engine.c). */
static uint32_t region(const struct relay_layout *l, const struct nic_desc *d, uint32_t pay, int k, uint32_t *off)
{
    switch (d->op) {
    case NIC_OP_SEND:
    case NIC_OP_FLOOD_RULES:
    case NIC_OP_FLOOD:
        if (k || !in_tx(l, d->off, d->len))
            return 0;
        *off = d->off;
        return d->len;
    case NIC_OP_PROBE_ANY:
        if (k || !in_tx(l, d->off, nic_probe_any_bytes(d->peer)))
            return 0;
        *off = d->off;
        return (uint32_t)nic_probe_any_bytes(d->peer);
    case NIC_OP_MSEND: {
        uint64_t list = nic_msend_list_bytes(d->peer);
        if (!in_tx(l, d->off, list))
            return 0;
        if (k == 0) {
            *off = d->off;
            return (uint32_t)list;
        }
        if (!in_tx(l, pay, d->len))
            return 0;
        *off = pay;
        return d->len;
    }
    default:
        return 0;
    }
}

uint8_t *relay_bell(const uint8_t *shm, const struct relay_layout *l, uint32_t *sent, size_t *len)
{
    /* The status (hello) before prod, as engine_node_poll reads them: a
     * node posts EXIT before any reset that makes it say hello again, so
     * a hello sent on comes with every descriptor posted before it. */
    struct nic_status st;
    memcpy(&st, shm + NIC_STATUS_OFF, sizeof st);
    __sync_synchronize();
    uint32_t prod = AT32(shm, NIC_PROD_OFF);
    __sync_synchronize();             /* the descriptors and payloads before prod */
    uint32_t first = *sent, count = prod - first;
    if (count > l->ring_slots)
        count = 0;                    /* beyond the ring: the router says so from prod */
    struct nic_desc *d = malloc((count ? count : 1) * sizeof *d);
    uint32_t (*rg)[2][2] = malloc((count ? count : 1) * sizeof *rg);   /* [k][off, len], read once */
    uint32_t *pay = malloc((count ? count : 1) * sizeof *pay);         /* each MSEND's, read once */
    if (!d || !rg || !pay) {
        free(d);
        free(rg);
        free(pay);
        return NULL;
    }
    size_t bytes = 0;
    for (uint32_t k = 0; k < count; k++) {
        memcpy(&d[k], shm + l->ring_off + ((first + k) % l->ring_slots) * sizeof *d, sizeof *d);
        pay[k] = msend_pay(l, &d[k], shm + l->tx_off);
        for (int j = 0; j < 2; j++) {
            rg[k][j][0] = 0;
            rg[k][j][1] = region(l, &d[k], pay[k], j, &rg[k][j][0]);
            bytes += rg[k][j][1];
        }
    }
    size_t head = BELL_HEAD;
    *len = head + count * sizeof *d + bytes;
    uint8_t *b = malloc(*len);
    if (!b) {
        free(d);
        free(rg);
        free(pay);
        return NULL;
    }
    memcpy(b, &st, sizeof st);
    uint32_t w[3] = { prod, first, count };
    memcpy(b + sizeof(struct nic_status), w, sizeof w);
    memcpy(b + head, d, count * sizeof *d);
    uint8_t *p = b + head + count * sizeof *d;
    for (uint32_t k = 0; k < count; k++)       /* the regions sized above: the node may scribble meanwhile */
        for (int j = 0; j < 2; j++) {
            memcpy(p, shm + l->tx_off + rg[k][j][0], rg[k][j][1]);
            if (j == 0 && d[k].op == NIC_OP_MSEND && rg[k][0][1])   /* the offset region 1 was read at */
                memcpy(p + 4 * NIC_MSEND_PAY, &pay[k], sizeof pay[k]);
            p += rg[k][j][1];
        }
    free(d);
    free(rg);
    free(pay);
    *sent = first + count;
    return b;
}

int relay_apply_bell(uint8_t *mirror, const struct relay_layout *l, const uint8_t *body, size_t len,
                     char *err, size_t errlen)
{
    size_t head = BELL_HEAD;
    uint32_t w[3];
    if (len < head) {
        snprintf(err, errlen, "a BELL of %zu bytes is shorter than its head (%zu)", len, head);
        return -1;
    }
    memcpy(w, body + sizeof(struct nic_status), sizeof w);
    uint32_t prod = w[0], first = w[1], count = w[2];
    if (count > l->ring_slots || len < head + (size_t)count * sizeof(struct nic_desc)) {
        snprintf(err, errlen, "a BELL says %u descriptors and has %zu bytes", count, len);
        return -1;
    }
    const uint8_t *p = body + head + (size_t)count * sizeof(struct nic_desc);
    for (uint32_t k = 0; k < count; k++) {
        struct nic_desc d;
        memcpy(&d, body + head + k * sizeof d, sizeof d);
        uint32_t pay = 0;
        for (int j = 0; j < 2; j++) {
            uint32_t off = 0, n = region(l, &d, pay, j, &off);
            if ((size_t)(body + len - p) < n) {
                snprintf(err, errlen, "a BELL's payloads are shorter than its descriptors say");
                return -1;
            }
            memcpy(mirror + l->tx_off + off, p, n);
            if (j == 0)                   /* an MSEND's list, now in the router's memory */
                pay = msend_pay(l, &d, mirror + l->tx_off);
            p += n;
        }
        memcpy(mirror + l->ring_off + ((first + k) % l->ring_slots) * sizeof d, &d, sizeof d);
    }
    uint32_t link_up = AT32(mirror, NIC_STATUS_OFF + offsetof(struct nic_status, link_up));
    memcpy(mirror + NIC_STATUS_OFF, body, sizeof(struct nic_status));
    AT32(mirror, NIC_STATUS_OFF + offsetof(struct nic_status, link_up)) = link_up;
    AT32(mirror, NIC_PROD_OFF) = prod;
    return 0;
}

uint8_t *relay_notify(const uint8_t *mirror, const struct relay_layout *l, struct nic_reply *last, size_t *len)
{
    struct nic_reply rep;
    memcpy(&rep, mirror + NIC_REPLY_OFF, sizeof rep);
    uint32_t pay = 0;
    if (memcmp(&rep, last, sizeof rep)) {
        pay = rep.len < l->rx_size ? rep.len : l->rx_size;
        *last = rep;
    }
    uint32_t w[2] = { AT32(mirror, NIC_STATUS_OFF + offsetof(struct nic_status, link_up)), AT32(mirror, NIC_CONS_OFF) };
    *len = sizeof w + sizeof rep + pay;
    uint8_t *b = malloc(*len);
    if (!b)
        return NULL;
    memcpy(b, w, sizeof w);
    memcpy(b + sizeof w, &rep, sizeof rep);
    memcpy(b + sizeof w + sizeof rep, mirror + l->rx_off, pay);
    return b;
}

int relay_apply_notify(uint8_t *shm, const struct relay_layout *l, const uint8_t *body, size_t len)
{
    uint32_t w[2];
    struct nic_reply rep;
    if (len < sizeof w + sizeof rep || len - sizeof w - sizeof rep > l->rx_size)
        return -1;
    memcpy(w, body, sizeof w);
    memcpy(&rep, body + sizeof w, sizeof rep);
    memcpy(shm + l->rx_off, body + sizeof w + sizeof rep, len - sizeof w - sizeof rep);
    __sync_synchronize();
    /* the reply's seq last: the node waits for it (netdev/nic.c, call) */
    memcpy(shm + NIC_REPLY_OFF + sizeof rep.seq, (const uint8_t *)&rep + sizeof rep.seq, sizeof rep - sizeof rep.seq);
    __sync_synchronize();
    AT32(shm, NIC_REPLY_OFF) = rep.seq;
    AT32(shm, NIC_CONS_OFF) = w[1];
    __sync_synchronize();
    AT32(shm, NIC_STATUS_OFF + offsetof(struct nic_status, link_up)) = w[0];
    __sync_synchronize();
    return 0;
}
