/* Fake nodes for the router engine's tests (test_router.c, test_hwnet.c):
 * each node's NIC memory is a host buffer, and a test plays the node's
 * driver (netdev/nic.c) by hand:
 * it writes descriptors and payload, bumps the producer index and calls
 * engine_node_poll(), then reads the answer from struct nic_reply.
 *
 * Every buffer is exactly nic_mem bytes with an inaccessible page on each
 * side, so a router access outside a node's memory crashes the test (and
 * check.h reports the signal) instead of going unnoticed.
 */
#ifndef ROUTER_FIXTURE_H
#define ROUTER_FIXTURE_H
#pragma GCC diagnostic ignored "-Wunused-function"   /* each test file uses some of the helpers */
#include <sys/mman.h>
#include "check.h"
#include "engine/engine.h"
#include "out/report.h"

#define MAXN 64

/* One-byte flits at 1 ns each and 10 cycles a hop: an uncontended message
 * arrives t_send + hops x 10 ns + len x 1 ns after it was posted. The
 * buffers (16 flits) cover the credit round trip (hop + 1 = 11 cycles), so
 * a worm streams at the full link rate. */
static struct params P = {
    .t_send_ns = 100, .t_recv_ns = 50,
    .ps_per_instr = 1000, .msg_max = 4096, .nic_mem = 1u << 20, .held_max = 1u << 20,
    .net = { .flit_bytes = 1, .byte_ps = 1000, .hop_cycles = 10, .vcs = 2, .buf_flits = 16,
             .header_flits = 0, .ports = 0, .nic_cycles = 1, .nic_vcs = 1, .switching = SW_WORMHOLE },
};

/* The layout the router wrote into a node's config at attach time; the
 * fake driver keeps its own copy, as nic.c reads it once at boot. */
struct lay {
    uint32_t ring_off, ring_slots, tx_off, tx_size, rx_off, rx_size;
};

static struct fx {
    struct topo_shape m;
    struct engine r;
    int n;
    uint8_t *base[MAXN];          /* mapping, guard pages included */
    uint8_t *buf[MAXN];           /* the node's NIC memory */
    struct lay lay[MAXN];
    uint32_t prod[MAXN];          /* descriptors posted */
    uint32_t tx_next[MAXN];       /* where the next payload goes */
    int notified[MAXN];
} F;

static size_t page;

static void on_notify(void *ctx, int rank)
{
    struct fx *f = ctx;
    f->notified[rank]++;
}

/* A machine of the given shape; hello=1 brings every node's link up. */
static int fx_setup(const char *topo, const char *nodes, const char *dims, int hello)
{
    char err[256];
    memset(&F, 0, sizeof F);
    page = (size_t)sysconf(_SC_PAGESIZE);
    if (machine_parse(&F.m, topo, nodes, dims, err, sizeof err)) {
        printf("    machine_parse: %s\n", err);
        return -1;
    }
    if (F.m.nodes > MAXN || engine_init(&F.r, &F.m, &P))
        return -1;
    F.n = F.m.nodes;
    F.r.notify = on_notify;
    F.r.ctx = &F;
    for (int i = 0; i < F.n; i++) {
        uint8_t *b = mmap(NULL, P.nic_mem + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (b == MAP_FAILED || mprotect(b + page, P.nic_mem, PROT_READ | PROT_WRITE))
            return -1;
        F.base[i] = b;
        F.buf[i] = b + page;
        engine_attach(&F.r, i, F.buf[i], P.nic_mem, "app", "");
        const struct nic_config *c = (const struct nic_config *)(F.buf[i] + NIC_CONFIG_OFF);
        F.lay[i] = (struct lay){ c->ring_off, c->ring_slots, c->tx_off, c->tx_size, c->rx_off, c->rx_size };
        if (hello) {
            ((volatile struct nic_status *)(F.buf[i] + NIC_STATUS_OFF))->hello = 1;
            if (engine_node_hello(&F.r, i) != 1)
                return -1;
        }
    }
    return 0;
}

static void fx_done(void)
{
    engine_free(&F.r);
    for (int i = 0; i < F.n; i++)
        munmap(F.base[i], P.nic_mem + 2 * page);
}

static struct nic_config *cfg(int rank) { return (struct nic_config *)(F.buf[rank] + NIC_CONFIG_OFF); }
static volatile struct nic_status *status(int rank) { return (volatile struct nic_status *)(F.buf[rank] + NIC_STATUS_OFF); }
static volatile struct nic_reply *reply(int rank) { return (volatile struct nic_reply *)(F.buf[rank] + NIC_REPLY_OFF); }
static const uint8_t *rx(int rank) { return F.buf[rank] + F.lay[rank].rx_off; }
static uint32_t cons(int rank) { return *(volatile uint32_t *)(F.buf[rank] + NIC_CONS_OFF); }

static void set_prod(int rank, uint32_t prod)
{
    *(volatile uint32_t *)(F.buf[rank] + NIC_PROD_OFF) = prod;
}

/* Write a descriptor with an explicit seq into ring slot `index`. */
static void put_desc(int rank, uint32_t index, uint32_t seq, uint32_t op, uint64_t t,
                     uint32_t peer, uint32_t tag, uint32_t len, uint32_t off)
{
    struct nic_desc d = { .op = op, .seq = seq, .time_ns = t, .peer = peer, .tag = tag,
                          .len = len, .off = off };
    const struct lay *l = &F.lay[rank];
    memcpy(F.buf[rank] + l->ring_off + (index % l->ring_slots) * sizeof d, &d, sizeof d);
}

/* Append a descriptor as the driver does; returns its seq. */
static uint32_t post(int rank, uint32_t op, uint64_t t, uint32_t peer, uint32_t tag,
                     uint32_t len, uint32_t off)
{
    uint32_t seq = F.prod[rank];
    put_desc(rank, seq, seq, op, t, peer, tag, len, off);
    __sync_synchronize();                          /* the descriptor before prod, as nic.c's board_mb() */
    set_prod(rank, ++F.prod[rank]);
    return seq;
}

/* Append a descriptor whose payload is copied into the transmit area. */
static uint32_t payload(int rank, uint32_t op, uint64_t t, uint32_t peer, uint32_t tag, const void *data,
                        uint32_t len)
{
    const struct lay *l = &F.lay[rank];
    if (F.tx_next[rank] + len > l->tx_size)
        F.tx_next[rank] = 0;
    uint32_t off = F.tx_next[rank];
    memcpy(F.buf[rank] + l->tx_off + off, data, len);
    F.tx_next[rank] += len;
    return post(rank, op, t, peer, tag, len, off);
}

static uint32_t send(int rank, uint64_t t, int dst, uint32_t tag, const void *data, uint32_t len)
{
    return payload(rank, NIC_OP_SEND, t, (uint32_t)dst, tag, data, len);
}

static uint32_t recv(int rank, uint64_t t, uint32_t src, uint32_t tag, uint32_t cap)
{
    return post(rank, NIC_OP_RECV, t, src, tag, cap, 0);
}

static uint32_t probe(int rank, uint64_t t, uint32_t src, uint32_t tag)
{
    return post(rank, NIC_OP_PROBE, t, src, tag, 0, 0);
}

/* Every poll also checks that the trees giving the safe time agree with a
 * scan of the nodes. */
static int poll_node(int rank)
{
    int rc = engine_node_poll(&F.r, rank);
    if (!engine_bounds_consistent(&F.r))
        check_fail(__FILE__, __LINE__, "the bounds' trees disagree with a scan after polling node %d", rank);
    return rc;
}

static int answered(int rank, uint32_t seq) { return reply(rank)->seq == seq; }

/* Post EXIT at t and poll. */
static void exit_node(int rank, uint64_t t, uint32_t code)
{
    post(rank, NIC_OP_EXIT, t, 0, code, 0, 0);
    if (poll_node(rank))
        check_fail(__FILE__, __LINE__, "EXIT of node %d rejected: %s", rank, F.r.error);
}

static void fill(uint8_t *p, size_t len, unsigned seed)
{
    for (size_t i = 0; i < len; i++)
        p[i] = (uint8_t)(seed * 31u + i * 7u + (i >> 8));
}

/* The expected answer to a blocking request. */
#define CHECK_REPLY(rank, seq_, st_, t_, src_, tag_, len_) do {              \
        CHECK_EQ_U64(reply(rank)->seq, (seq_));                              \
        CHECK_EQ_U64(reply(rank)->status, (st_));                            \
        CHECK_EQ_U64(reply(rank)->time_ns, (t_));                            \
        CHECK_EQ_U64(reply(rank)->src, (src_));                              \
        CHECK_EQ_U64(reply(rank)->tag, (tag_));                              \
        CHECK_EQ_U64(reply(rank)->len, (len_));                              \
    } while (0)

/* Polling node `rank` rejects what it posted: the run names the node and
 * `what`, the node is failed, and stays so. */
static void expect_rejected(int rank, const char *what, int line)
{
    char prefix[16];
    snprintf(prefix, sizeof prefix, "node %d:", rank);
    int rc = poll_node(rank);
    if (rc != -1)
        check_fail(__FILE__, line, "poll returned %d, not -1", rc);
    if (F.r.failed_node != rank)
        check_fail(__FILE__, line, "failed_node %d, not %d", F.r.failed_node, rank);
    if (strncmp(F.r.error, prefix, strlen(prefix)))
        check_fail(__FILE__, line, "error does not start with \"%s\": \"%s\"", prefix, F.r.error);
    if (!strstr(F.r.error, what))
        check_fail(__FILE__, line, "error does not mention \"%s\": \"%s\"", what, F.r.error);
    if (F.r.nodes[rank].state != NODE_FAILED)
        check_fail(__FILE__, line, "node %d state %d, not FAILED", rank, F.r.nodes[rank].state);
    if (poll_node(rank) != -1)                         /* and stays failed */
        check_fail(__FILE__, line, "a second poll did not return -1");
}
#define EXPECT_REJECTED(rank, what) expect_rejected(rank, what, __LINE__)

#endif
