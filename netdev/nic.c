/* Driver for the wormhole NIC: QEMU's ivshmem-doorbell (PCI 1af4:1110)
 * whose memory and doorbells are served by the router. The memory layout
 * and protocol are in nic_shm.h; the ABI this implements is net.h.
 *
 * BAR0 registers (QEMU docs/specs/ivshmem-spec.rst): IntrMask 0x0,
 * IntrStatus 0x4, IVPosition 0x8, Doorbell 0xC (peer << 16 | vector).
 * BAR1 holds the MSI-X table, BAR2 the shared memory.
 *
 * A blocked node sleeps in WFI; it never spins, except during link-up,
 * when QEMU may still drop a doorbell (it applies the router's vector
 * messages after the guest has started).
 */
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include "nic.h"
#include "net.h"
#include "tx_ring.h"
#include "../kernel/kernel.h"
#include "../apps/restrict.h"
#include "board.h"

#define IVSHMEM_DOORBELL 0x0c

static volatile uint32_t *regs;
static volatile uint8_t *shm;
static const volatile struct nic_config *cfg;
static volatile struct nic_status *status;
static volatile struct nic_reply *reply;
static volatile uint32_t *prod_p;
static const volatile uint32_t *cons_p;
static volatile struct nic_desc *ring;
static uint32_t prod;                 /* descriptors posted */
static uint32_t tx_head;              /* payload bytes placed, growing; below TX_REBASE_AT (tx_ring.h) */
static uint32_t pay_end[256];         /* tx_head after each slot's payload; ring_slots <= 256 */
static struct topo_shape topo;
static char args_copy[NIC_ARGS_BYTES];
static struct app_args args_parsed;

static void doorbell(void)
{
    regs[IVSHMEM_DOORBELL / 4] = NIC_HOST_PEER << 16 | 0;
}

/* Sleep until cond holds. The instructions of the wait loop depend on how
 * often the host woke us, so the clock is put back to where it was. */
#define WAIT_UNTIL(cond) do {                          \
        uint64_t t_ = clock_now_ns();                  \
        for (;;) {                                     \
            board_mb();                                \
            if (cond) break;                           \
            board_wait_irq();                          \
        }                                              \
        clock_set_ns(t_);                              \
    } while (0)

static int space_free(uint32_t need)
{
    uint32_t cons = *cons_p;
    if (prod - cons >= cfg->ring_slots)
        return 0;
    if (need == 0)
        return 1;
    uint32_t tail = cons == prod ? tx_head : pay_end[(cons - 1) % cfg->ring_slots];
    return tx_fits(tx_head, tail, cfg->tx_size, need);
}

/* tx_head kept below TX_REBASE_AT (tx_ring.h): every position, and every
 * payload's bytes, as they were. */
static __attribute__((noinline)) void rebase_tx(void)
{
    uint32_t by = tx_rebase_by(tx_head, cfg->tx_size);
    tx_head -= by;
    for (unsigned i = 0; i < sizeof pay_end / sizeof *pay_end; i++)
        pay_end[i] -= by;
}

/* Wait for a ring slot and `need` contiguous payload bytes. How far the
 * router has consumed is host timing, and space_free() branches on it, so
 * the clock is put back on every path. tx_head is rebased only where a
 * payload is about to be placed (need > 0, each placing call's first
 * wait): a wait_space(0) between a placement and its descriptors leaves
 * it as it is. */
static void wait_space(uint32_t need)
{
    uint64_t t = clock_now_ns();
    board_mb();
    if (need && tx_head >= TX_REBASE_AT)
        rebase_tx();
    if (!space_free(need)) {
        status->want_space = 1;
        board_mb();
        doorbell();                   /* the router has unread descriptors */
        WAIT_UNTIL(space_free(need));
        status->want_space = 0;
    }
    clock_set_ns(t);
}

/* Append a descriptor. The doorbell is rung for every descriptor but a
 * SEND or STEP, which is read with the next doorbell. That is safe because
 * until then the router keeps this node's older, smaller time bound, which
 * only makes it wait longer. A RECORD (once or twice a run) rings too:
 * testing for it here would add an instruction to every post, and a
 * node's time counts its instructions. */
static uint32_t post(uint32_t op, uint64_t t, uint32_t peer, uint32_t tag,
                     uint32_t len, uint32_t off)
{
    uint32_t seq = prod;
    volatile struct nic_desc *d = &ring[seq % cfg->ring_slots];
    d->op = op;
    d->seq = seq;
    d->time_ns = t;
    d->peer = peer;
    d->tag = tag;
    d->len = len;
    d->off = off;
    pay_end[seq % cfg->ring_slots] = tx_head;
    board_mb();
    *prod_p = ++prod;
    board_mb();
    if (op != NIC_OP_SEND && op != NIC_OP_STEP)
        doorbell();
    return seq;
}

/* Post a blocking descriptor and sleep until the router answers it. */
static void call(uint32_t op, uint64_t t, uint32_t peer, uint32_t tag, uint32_t len)
{
    wait_space(0);
    uint32_t seq = post(op, t, peer, tag, len, 0);
    WAIT_UNTIL(reply->seq == seq);
}

const struct nic_config *nic_init(void)
{
    struct pci_dev dev;
    if (pci_find(0x1af4, 0x1110, &dev) != 0)
        panic("no ivshmem-doorbell NIC (PCI 1af4:1110) on bus 0");
    pci_enable(&dev);
    if (!dev.bar[0] || !dev.bar[2])
        panic("NIC BARs not assigned");
    uint64_t msi_addr;
    uint32_t msi_data;
    board_msi_route(&msi_addr, &msi_data);
    if (pci_msix_route(&dev, 0, msi_addr, msi_data) != 0)
        panic("NIC has no usable MSI-X vector 0");
    regs = (volatile uint32_t *)dev.bar[0];
    shm = (volatile uint8_t *)dev.bar[2];
    cfg = (const volatile struct nic_config *)(shm + NIC_CONFIG_OFF);
    status = (volatile struct nic_status *)(shm + NIC_STATUS_OFF);
    reply = (volatile struct nic_reply *)(shm + NIC_REPLY_OFF);
    prod_p = (volatile uint32_t *)(shm + NIC_PROD_OFF);
    cons_p = (const volatile uint32_t *)(shm + NIC_CONS_OFF);

    /* Link-up (nic_shm.h): say hello with a number this boot alone uses,
     * one past the last (the NIC memory outlives a board reset), and ring
     * until the router answers with the same number in link_up. QEMU may
     * drop a doorbell rung before it applied the router's peer messages;
     * in between, sleep: the router kicks a node that said hello but was
     * not heard, so no node spins while the others boot. A node of a
     * pool sleeps here between runs until the router hands it a run. */
    uint32_t hello = status->hello + 1 ? status->hello + 1 : 1;
    status->hello = hello;
    board_mb();
    while (status->link_up != hello) {
        doorbell();
        board_wait_irq();
        board_mb();
    }
    /* The router wrote the configuration before link_up. */
    if (cfg->magic != NIC_MAGIC || cfg->version != NIC_VERSION)
        panic("NIC memory has no router configuration (magic 0x%lx)", (unsigned long)cfg->magic);
    if (cfg->ring_slots > sizeof pay_end / sizeof pay_end[0] || cfg->rx_off + cfg->rx_size > dev.bar_size[2] ||
        cfg->ram_mib < NODE_RAM_MIN_MIB || cfg->ram_mib > NODE_RAM_MAX_MIB)
        panic("NIC configuration out of range");
    kernel_rank = (int)cfg->rank;
    ring = (volatile struct nic_desc *)(shm + cfg->ring_off);
    prod = *prod_p;
    status->state = NIC_STATE_RUNNING;
    topo = cfg->shape;          /* the block whole: the router wrote it before link-up, and no more */
    for (size_t i = 0; i + 1 < sizeof args_copy; i++)
        args_copy[i] = cfg->args[i];
    clock_init(cfg->ps_per_instr);
    char app[sizeof cfg->app], err[320];
    for (size_t i = 0; i < sizeof app; i++)
        app[i] = i + 1 < sizeof app ? cfg->app[i] : 0;
    /* The run tool has refused, by this same function, any ARGS refused
     * here; an unknown app is left to kernel_main. */
    if (app_keys(app) && app_args_parse(app, args_copy, cfg->shape.nodes, cfg->msg_max, &args_parsed, err, sizeof err))
        panic("ARGS refused: app %s: %s", app, err);
    return (const struct nic_config *)cfg;
}

int nic_exit(int code)
{
    if (!ring)
        return -1;
    wait_space(0);
    status->exit_code = (uint32_t)code;
    status->state = NIC_STATE_EXITED;
    post(NIC_OP_EXIT, clock_now_ns(), 0, (uint32_t)code, 0, 0);
    return 0;
}

int nic_waits_after_exit(void)
{
    return cfg && cfg->after_exit == NIC_AFTER_EXIT_WAIT;
}

void nic_fault(uint32_t kind, uint32_t pc, uint32_t addr, uint32_t st)
{
    if (!status)
        return;
    status->fault_kind = kind;
    status->fault_pc = pc;
    status->fault_addr = addr;
    status->fault_status = st;
    board_mb();
    status->state = NIC_STATE_FAULT;
    board_mb();
    doorbell();
}

/* --- The node ABI (net.h) --- */

int net_rank(void) { return (int)cfg->rank; }

int net_node_isa(int node)
{
    uint32_t period = cfg->isa_period;
    if (!period || period > NIC_ISA_PERIOD_MAX || node < 0)
        return -1;                   /* the router's words: never trusted */
    return (int)(cfg->isa_bits >> ((uint32_t)node % period) & 1);
}
int net_nodes(void) { return cfg->shape.nodes; }
unsigned net_ram_mib(void) { return cfg->ram_mib; }
size_t net_msg_max(void) { return cfg->msg_max; }
size_t net_held_max(void) { return cfg->held_max; }
size_t net_eager_max(void) { return cfg->eager_max; }
void net_nic_rate(uint32_t *bytes, uint32_t *ps)
{
    *bytes = cfg->nic_flit_bytes;
    *ps = cfg->nic_flit_ps;
}
const struct topo_shape *net_topology(void) { return &topo; }
uint64_t net_time_ns(void) { return clock_now_ns(); }

void net_coords(int rank, int c[NET_MAX_DIMS]) { topo_coords(&topo, rank, c); }

int net_rank_of(const int c[NET_MAX_DIMS]) { return topo_rank(&topo, c); }

static void check_send(int dst, int tag, size_t len)
{
    if (dst < 0 || dst >= net_nodes())
        panic("net_send: destination %d out of range 0..%d", dst, net_nodes() - 1);
    if (tag < 0)
        panic("net_send: tag %d is negative", tag);
    if (len > cfg->msg_max)
        panic("net_send: %lu bytes exceed the largest message, %lu bytes",
              (unsigned long)len, (unsigned long)cfg->msg_max);
}

/* Post the payload once, then one SEND descriptor per destination, all
 * pointing at it. The router copies a payload when it reads the
 * descriptor, so the space must stay reserved until the last of them is
 * read: every descriptor but the last records the payload's start as its
 * end (space_free() then keeps it). */
void net_send_multi(const int *dst, int n, int tag, const void *buf, size_t len)
{
    uint64_t t = clock_now_ns();
    for (int i = 0; i < n; i++)
        check_send(dst[i], tag, len);
    if (n <= 0)
        return;
    wait_space((uint32_t)len);
    uint32_t pos = TX_PLACE(tx_head, cfg->tx_size, len);
    uint32_t start = tx_head;
    memcpy((void *)(shm + cfg->tx_off + pos), buf, len);
    tx_head += (uint32_t)len;
    for (int i = 0; i < n; i++) {
        if (i > 0) {
            t = clock_now_ns();
            wait_space(0);
        }
        uint32_t end = tx_head;
        if (i < n - 1)
            tx_head = start;              /* pay_end of this slot: still in use */
        post(NIC_OP_SEND, t, (uint32_t)dst[i], (uint32_t)tag, (uint32_t)len, pos);
        tx_head = end;
        clock_set_ns(clock_now_ns() + cfg->t_send_ns);
    }
}

void net_send(int dst, int tag, const void *buf, size_t len)
{
    net_send_multi(&dst, 1, tag, buf, len);
}

void net_recv(int src, int tag, void *buf, size_t cap, struct net_status *st)
{
    if (src != NET_ANY && (src < 0 || src >= net_nodes()))
        panic("net_recv: source %d out of range 0..%d", src, net_nodes() - 1);
    uint64_t t = clock_now_ns();
    call(NIC_OP_RECV, t, (uint32_t)src, (uint32_t)tag, (uint32_t)cap);
    if (reply->status == NIC_REPLY_TRUNC)
        panic("net_recv: message of %lu bytes from node %lu tag %lu exceeds the %lu-byte buffer",
              (unsigned long)reply->len, (unsigned long)reply->src, (unsigned long)reply->tag,
              (unsigned long)cap);
    memcpy(buf, (const void *)(shm + cfg->rx_off), reply->len);
    if (st) {
        st->src = (int)reply->src;
        st->tag = (int)reply->tag;
        st->len = reply->len;
        st->time_ns = reply->time_ns;
    }
    uint64_t arrived = reply->time_ns;
    clock_set_ns((arrived > t ? arrived : t) + cfg->t_recv_ns);
}

int net_probe(int src, int tag, struct net_status *st)
{
    uint64_t t = clock_now_ns();
    call(NIC_OP_PROBE, t, (uint32_t)src, (uint32_t)tag, 0);
    int found = reply->status == NIC_REPLY_OK;
    if (found && st) {
        st->src = (int)reply->src;
        st->tag = (int)reply->tag;
        st->len = reply->len;
        st->time_ns = reply->time_ns;
    }
    clock_set_ns(t);
    return found;
}

/* RECV and PROBE with a tag mask in the descriptor's off (nic_shm.h). */
static void call_masked(uint32_t op, uint64_t t, uint32_t peer, uint32_t tag, uint32_t len, uint32_t mask)
{
    wait_space(0);
    uint32_t seq = post(op, t, peer, tag, len, mask);
    WAIT_UNTIL(reply->seq == seq);
}

static void fill_status(struct net_status *st)
{
    st->src = (int)reply->src;
    st->tag = (int)reply->tag;
    st->len = reply->len;
    st->time_ns = reply->time_ns;
}

int net_recv_masked(int src, int tag, uint32_t mask, void *buf, size_t cap, struct net_status *st)
{
    if (src != NET_ANY && (src < 0 || src >= net_nodes()))
        panic("net_recv_masked: source %d out of range 0..%d", src, net_nodes() - 1);
    uint64_t t = clock_now_ns();
    call_masked(NIC_OP_RECV, t, (uint32_t)src, (uint32_t)tag, (uint32_t)cap, mask);
    int trunc = reply->status == NIC_REPLY_TRUNC;
    uint32_t len = reply->len;
    if (!trunc) {
        if (len > cap)             /* the router's word against the buffer: never trusted */
            panic("net_recv_masked: %lu bytes answered for a %lu-byte buffer", (unsigned long)len,
                  (unsigned long)cap);
        memcpy(buf, (const void *)(shm + cfg->rx_off), len);
    }
    fill_status(st);
    uint64_t arrived = reply->time_ns;
    clock_set_ns((arrived > t ? arrived : t) + cfg->t_recv_ns);
    return trunc ? -1 : 0;
}

int net_probe_masked(int src, int tag, uint32_t mask, struct net_status *st)
{
    uint64_t t = clock_now_ns();
    call_masked(NIC_OP_PROBE, t, (uint32_t)src, (uint32_t)tag, 0, mask);
    int found = reply->status == NIC_REPLY_OK;
    if (found)
        fill_status(st);
    clock_set_ns(t);
    return found;
}

_Static_assert(NET_PROBE_ANY_MAX == NIC_PROBE_ANY_MAX, "net.h's count of PROBE_ANY patterns is the NIC's");

/* The patterns go into the transmit area (nic_shm.h, NIC_OP_PROBE_ANY),
 * free again once the router has read the descriptor, before it answers. */
int net_probe_any(const struct net_pattern *p, int n, struct net_status *st)
{
    if (n < 1 || n > NET_PROBE_ANY_MAX)
        panic("net_probe_any: %d patterns; it takes 1..%d", n, NET_PROBE_ANY_MAX);
    for (int k = 0; k < n; k++)
        if (p[k].src != NET_ANY && (p[k].src < 0 || p[k].src >= net_nodes()))
            panic("net_probe_any: pattern %d's source %d out of range 0..%d", k, p[k].src, net_nodes() - 1);
    uint64_t t = clock_now_ns();
    uint32_t need = (uint32_t)nic_probe_any_bytes((uint32_t)n);
    wait_space(need + 3);
    tx_head = (tx_head + 3) & ~3u;   /* word-aligned words (tx_size is a multiple of 4) */
    uint32_t pos = TX_PLACE(tx_head, cfg->tx_size, need);
    volatile struct nic_pattern *l = (volatile struct nic_pattern *)(shm + cfg->tx_off + pos);
    for (int k = 0; k < n; k++) {
        l[k].src = (uint32_t)p[k].src;
        l[k].tag = (uint32_t)p[k].tag;
        l[k].mask = p[k].mask;
    }
    tx_head += need;
    uint32_t seq = post(NIC_OP_PROBE_ANY, t, (uint32_t)n, 0, 0, pos);
    WAIT_UNTIL(reply->seq == seq);
    uint64_t k = reply->value;
    if (k >= (uint64_t)n)            /* the router's word: never trusted */
        panic("net_probe_any: pattern %lu answered of %d", (unsigned long)k, n);
    fill_status(st);
    clock_set_ns(reply->time_ns > t ? reply->time_ns : t);
    return (int)k;
}

void net_sendrecv(int dst, int stag, const void *sbuf, size_t slen,
                  int src, int rtag, void *rbuf, size_t rcap, struct net_status *st)
{
    net_send(dst, stag, sbuf, slen);
    net_recv(src, rtag, rbuf, rcap, st);
}

void net_wait_sent(void)
{
    uint64_t t = clock_now_ns();
    call(NIC_OP_WAIT_SENT, t, 0, 0, 0);
    clock_set_ns(reply->time_ns > t ? reply->time_ns : t);
}

void net_step(int step)
{
    wait_space(0);
    post(NIC_OP_STEP, clock_now_ns(), 0, (uint32_t)step, 0, 0);
}

void net_record(enum nic_record key, uint64_t value)
{
    wait_space(0);
    post(NIC_OP_RECORD, clock_now_ns(), 0, (uint32_t)key, (uint32_t)value, (uint32_t)(value >> 32));
}

/* ARGS parsed at boot against the keys the app declares, by the run
 * tool's own function; a key the app does not declare is never read. */
static int arg_index(const char *key)
{
    int i = app_arg_index(&args_parsed, key);
    if (i < 0)
        panic("the app reads ARGS key '%s', which apps/apps.def does not declare for it", key);
    return i;
}

const char *net_arg(const char *key) { return args_parsed.word[arg_index(key)]; }

long net_arg_num(const char *key) { return args_parsed.val[arg_index(key)]; }

/* --- Test hooks (nic.h) --- */

void nic_test_post_at(uint64_t t, uint32_t op, uint32_t peer, uint32_t tag, uint32_t len, uint32_t off)
{
    wait_space(0);
    post(op, t, peer, tag, len, off);
    doorbell();
}

void nic_test_post_raw(uint32_t op, uint32_t peer, uint32_t tag, uint32_t len, uint32_t off)
{
    nic_test_post_at(clock_now_ns(), op, peer, tag, len, off);
}

void nic_test_set_prod(uint32_t p)
{
    *prod_p = p;
    board_mb();
    doorbell();
}

void nic_test_doorbell(void)
{
    doorbell();
}

void nic_test_hello(uint32_t v)
{
    status->hello = v;
    board_mb();
    doorbell();
}

/* --- Hardware beside the data network (net.h, nic_shm.h) --- */

/* Post a blocking descriptor of the hardware and sleep until answered;
 * the node's clock goes to the answer's time. */
static uint64_t hw_call(uint32_t op, uint32_t peer, uint32_t tag, uint32_t len, uint32_t off)
{
    uint64_t t = clock_now_ns();
    wait_space(0);
    uint32_t seq = post(op, t, peer, tag, len, off);
    WAIT_UNTIL(reply->seq == seq);
    clock_set_ns(reply->time_ns > t ? reply->time_ns : t);
    return reply->value;
}

static void check_circuit(const char *fn, int c)
{
    if (c < 0 || c >= NIC_BARRIERS)
        panic("%s: barrier circuit %d out of range 0..%d", fn, c, NIC_BARRIERS - 1);
}

void net_barrier_set(int c)
{
    check_circuit("net_barrier_set", c);
    wait_space(0);
    post(NIC_OP_BARRIER_SET, clock_now_ns(), 0, (uint32_t)c, 0, 0);
}

void net_barrier_wait(int c)
{
    check_circuit("net_barrier_wait", c);
    hw_call(NIC_OP_BARRIER_WAIT, 0, (uint32_t)c, 0, 0);
}

int64_t net_ctrl(enum nic_ctrl_kind kind, enum nic_ctrl_comb comb, int root, int64_t value)
{
    if ((unsigned)kind >= NIC_CTRL_KINDS || (unsigned)comb >= NIC_CTRL_COMBS ||
        (kind == NIC_CTRL_BCAST && comb != NIC_CTRL_SUM))
        panic("net_ctrl: operation %d/%d unknown; accepted kinds 0..%d, combiners 0..%d (BCAST takes 0)",
              (int)kind, (int)comb, NIC_CTRL_KINDS - 1, NIC_CTRL_COMBS - 1);
    if (kind == NIC_CTRL_BCAST && (root < 0 || root >= net_nodes()))
        panic("net_ctrl: root %d out of range 0..%d", root, net_nodes() - 1);
    uint64_t v = (uint64_t)value;
    return (int64_t)hw_call(NIC_OP_CTRL, (uint32_t)root, (uint32_t)kind | (uint32_t)comb << 8, (uint32_t)v,
                            (uint32_t)(v >> 32));
}

uint64_t net_fetch_inc(int node, int reg)
{
    if (node < 0 || node >= net_nodes())
        panic("net_fetch_inc: node %d out of range 0..%d", node, net_nodes() - 1);
    if (reg < 0 || reg >= NIC_FI_REGS)
        panic("net_fetch_inc: register %d out of range 0..%d", reg, NIC_FI_REGS - 1);
    return hw_call(NIC_OP_FETCH_INC, (uint32_t)node, (uint32_t)reg, 0, 0);
}

/* Post a non-blocking descriptor whose payload is copied into the
 * transmit area (as net_send_multi() does for one destination, kept apart
 * so that path stays as it is); returns the time stamped on it. */
static uint64_t post_payload(uint32_t op, uint32_t peer, uint32_t tag, const void *buf, size_t len)
{
    uint64_t t = clock_now_ns();
    wait_space((uint32_t)len);
    uint32_t pos = TX_PLACE(tx_head, cfg->tx_size, len);
    memcpy((void *)(shm + cfg->tx_off + pos), buf, len);
    tx_head += (uint32_t)len;
    post(op, t, peer, tag, (uint32_t)len, pos);
    return t;
}

void net_flood_rules(const uint32_t *masks)
{
    post_payload(NIC_OP_FLOOD_RULES, 0, 0, masks, (size_t)net_nodes() * sizeof *masks);
}

uint64_t net_flood(int tag, const void *buf, size_t len)
{
    if (tag < 0)
        panic("net_flood: tag %d is negative", tag);
    if (len > cfg->msg_max || len * (size_t)net_nodes() > cfg->rx_size)
        panic("net_flood: %lu bytes from each of %d nodes exceed the %lu-byte receive area",
              (unsigned long)len, net_nodes(), (unsigned long)cfg->rx_size);
    uint64_t t = post_payload(NIC_OP_FLOOD, 0, (uint32_t)tag, buf, len);
    clock_set_ns(clock_now_ns() + cfg->t_send_ns);
    return t;
}

uint64_t net_flood_wait(int tag, int count, void *buf, size_t cap)
{
    if (count < 0 || count >= net_nodes())
        panic("net_flood_wait: %d messages; a flood brings 0..%d", count, net_nodes() - 1);
    uint64_t t_all = hw_call(NIC_OP_FLOOD_WAIT, (uint32_t)count, (uint32_t)tag, 0, 0);
    size_t bytes = reply->len;
    if (bytes > cap)
        panic("net_flood_wait: %lu bytes exceed the %lu-byte buffer", (unsigned long)bytes, (unsigned long)cap);
    memcpy(buf, (const void *)(shm + cfg->rx_off), bytes);
    return t_all;
}

/* The payload goes into the transmit area once, each worm's list after
 * it (nic_shm.h, NIC_OP_MSEND); as in net_send_multi, every descriptor but
 * the last records the block's start as its end, so the payload stays
 * until the router has read them all. */
void net_msend_group(const struct net_worm *w, int nw, int tag, const void *buf, size_t len)
{
    uint64_t t = clock_now_ns();
    size_t need = len;
    for (int k = 0; k < nw; k++) {
        if (w[k].n < 1 || w[k].n >= net_nodes())
            panic("net_msend: %d destinations; a multidestination worm takes 1..%d", w[k].n, net_nodes() - 1);
        for (int i = 0; i < w[k].n; i++)
            if (w[k].dst[i] < 0 || w[k].dst[i] >= net_nodes())
                panic("net_msend: destination %d out of range 0..%d", w[k].dst[i], net_nodes() - 1);
        need += (size_t)nic_msend_list_bytes((uint32_t)w[k].n);
    }
    if (tag < 0 || len > cfg->msg_max)
        panic("net_msend: tag %d or %lu bytes (largest %lu) out of range", tag, (unsigned long)len,
              (unsigned long)cfg->msg_max);
    if (nw < 1)
        return;
    if (need > cfg->tx_size)
        panic("net_msend: %lu bytes with the lists exceed the %lu-byte transmit area", (unsigned long)need,
              (unsigned long)cfg->tx_size);
    wait_space((uint32_t)need);
    uint32_t pos = TX_PLACE(tx_head, cfg->tx_size, need);
    uint32_t start = tx_head, end = tx_head + (uint32_t)need, at = pos + (uint32_t)len;
    memcpy((void *)(shm + cfg->tx_off + pos), buf, len);
    for (int k = 0; k < nw; k++) {
        volatile uint32_t *l = (volatile uint32_t *)(shm + cfg->tx_off + at);
        l[NIC_MSEND_KIND] = (uint32_t)w[k].kind;
        l[NIC_MSEND_PAY] = pos;
        for (int i = 0; i < w[k].n; i++)
            l[NIC_MSEND_DST + i] = (uint32_t)w[k].dst[i];
        if (k > 0) {
            t = clock_now_ns();
            wait_space(0);
        }
        tx_head = k < nw - 1 ? start : end;     /* pay_end of this slot */
        post(NIC_OP_MSEND, t, (uint32_t)w[k].n, (uint32_t)tag, (uint32_t)len, at);
        tx_head = end;
        at += (uint32_t)nic_msend_list_bytes((uint32_t)w[k].n);
        clock_set_ns(clock_now_ns() + cfg->t_send_ns);
    }
}

void net_msend(enum nic_mdw kind, const int *dst, int n, int tag, const void *buf, size_t len)
{
    struct net_worm w = { kind, dst, n };
    net_msend_group(&w, 1, tag, buf, len);
}
