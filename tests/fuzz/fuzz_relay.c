/* libFuzzer harness: the link's message bodies (host/relay/relay.c), both ways.
 *
 * Under wormsim-mpi a node host copies a node's NIC memory into BELL
 * bodies for rank 0, and applies rank 0's NOTIFY and CONFIG bodies to the
 * node's memory. Neither side may trust the other's bytes beyond what the
 * router checks: a node writes anything into its memory, which its host
 * relays, and a body may be cut short or lie about its counts. This
 * harness builds a configuration page, a node's memory and a mirror from
 * the fuzzer's bytes, each buffer exactly its size (ASan sees one byte
 * past it), and runs:
 *   relay_layout_of   on the configuration page (refused: nothing more)
 *   relay_bell        on the node's memory (from any `sent` index), and
 *   relay_apply_bell  of that body and of a raw body into the mirror
 *   relay_notify      on the mirror, and
 *   relay_apply_notify of that body and of a raw body into the node's memory
 *   relay_apply_config of the page into the node's memory (first)
 * Errors the relay reports are fine; any crash, leak, out-of-bounds access
 * or undefined behaviour is a finding.
 *
 * Input: memory size (1 byte: 16 KiB << (b % 3)), the configuration's
 * fields (7 x 32 bits, each taken raw or folded into the memory by a flag
 * byte), `sent` (32 bits), then the raw BELL and NOTIFY bodies (16-bit
 * lengths), then bytes the node writes over its memory (the rest). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "relay/relay.h"

struct in { const uint8_t *p; size_t n; };

static uint32_t take32(struct in *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4 && in->n; i++, in->p++, in->n--)
        v |= (uint32_t)*in->p << (8 * i);
    return v;
}

static const uint8_t *take(struct in *in, size_t *len)
{
    size_t want = take32(in) & 0xffff;
    *len = want < in->n ? want : in->n;
    const uint8_t *at = in->p;
    in->p += *len;
    in->n -= *len;
    return at;
}

/* A copy of n bytes in a buffer of exactly n (ASan's redzone after it). */
static uint8_t *dup_exact(const uint8_t *b, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    if (!d)
        abort();
    if (n)
        memcpy(d, b, n);
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct in in = { data, size };
    size_t mem = (size_t)16384 << (in.n ? in.p[0] % 3 : 0);
    if (in.n) {
        in.p++;
        in.n--;
    }
    uint8_t *shm = calloc(1, mem), *mirror = calloc(1, mem), *page = calloc(1, NIC_RING_OFF);
    if (!shm || !mirror || !page)
        abort();
    /* The configuration: each field raw, or folded into the memory. */
    uint8_t fold = 0;
    if (in.n) {
        fold = *in.p++;
        in.n--;
    }
    struct nic_config c = { 0 };
    uint32_t f[7];
    for (int i = 0; i < 7; i++) {
        f[i] = take32(&in);
        if (fold >> i & 1)
            f[i] %= (uint32_t)mem;
    }
    c.ring_off = f[0], c.ring_slots = f[1] % 4096, c.tx_off = f[2], c.tx_size = f[3];
    c.rx_off = f[4], c.rx_size = f[5];
    memcpy(page + NIC_CONFIG_OFF, &c, sizeof c);
    uint32_t sent = take32(&in);
    size_t bell_len, notify_len;
    const uint8_t *bell_raw = take(&in, &bell_len), *notify_raw = take(&in, &notify_len);
    struct relay_layout l;
    char err[256];
    if (relay_layout_of(page, mem, &l) == 0) {
        relay_apply_config(shm, page);
        memcpy(mirror, shm, NIC_RING_OFF);
        for (size_t i = 0; i < in.n; i++)               /* the node's writes, its configuration too */
            shm[(i * 2654435761u + f[6]) % mem] = in.p[i];
        size_t len;
        uint8_t *body = relay_bell(shm, &l, &sent, &len);
        if (body) {
            uint8_t *b = dup_exact(body, len);
            relay_apply_bell(mirror, &l, b, len, err, sizeof err);
            free(b);
            free(body);
        }
        uint8_t *raw = dup_exact(bell_raw, bell_len);
        relay_apply_bell(mirror, &l, raw, bell_len, err, sizeof err);
        free(raw);
        struct nic_reply last = { 0 };
        body = relay_notify(mirror, &l, &last, &len);
        if (body) {
            uint8_t *b = dup_exact(body, len);
            relay_apply_notify(shm, &l, b, len);
            free(b);
            free(body);
        }
        raw = dup_exact(notify_raw, notify_len);
        relay_apply_notify(shm, &l, raw, notify_len);
        free(raw);
    }
    free(shm);
    free(mirror);
    free(page);
    return 0;
}
