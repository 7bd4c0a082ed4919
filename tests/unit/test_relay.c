/* The link's message bodies (host/relay/relay.c): what a node host copies out of
 * a node's NIC memory must read the same in the router's mirror, and
 * what the router answers must reach the node's memory whole, with the
 * node's hello and the router's link_up each kept on its own side. A
 * scribbled descriptor or a malformed body must never move bytes outside
 * the memory: every buffer has an inaccessible page on each side.
 */
#define _GNU_SOURCE                 /* REG_EFL (flip_page.h) */
#include <sys/mman.h>
#include "check.h"
#include "flip_page.h"
#include "relay/relay.h"

#define SIZE (256u << 10)
#define TX_OFF 0x4000u
#define TX_SIZE 0x30000u
#define RX_OFF (SIZE - 0x10000u)
#define RX_SIZE 0x10000u

static uint8_t *guarded(void)
{
    uint8_t *b = mmap(NULL, SIZE + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED)
        abort();
    mprotect(b, 4096, PROT_NONE);
    mprotect(b + 4096 + SIZE, 4096, PROT_NONE);
    return b + 4096;
}

/* A configured node memory, as the router's attach leaves it. */
static uint8_t *node_memory(void)
{
    uint8_t *m = guarded();
    struct nic_config c = { .magic = NIC_MAGIC, .version = NIC_VERSION, .ring_off = NIC_RING_OFF,
                            .ring_slots = 64, .tx_off = TX_OFF, .tx_size = TX_SIZE, .rx_off = RX_OFF,
                            .rx_size = RX_SIZE, .shm_size = SIZE };
    memcpy(m + NIC_CONFIG_OFF, &c, sizeof c);
    return m;
}

static struct nic_status *status(uint8_t *m) { return (struct nic_status *)(m + NIC_STATUS_OFF); }
static uint32_t *u32(uint8_t *m, uint32_t off) { return (uint32_t *)(m + off); }
static struct nic_desc *slot(uint8_t *m, uint32_t i) { return (struct nic_desc *)(m + NIC_RING_OFF) + i % 64; }

/* The node driver's post: descriptor i, then prod. */
static void post(uint8_t *m, uint32_t i, uint32_t op, uint32_t off, uint32_t len)
{
    *slot(m, i) = (struct nic_desc){ op, i, 1000 + i, 3, 9, len, off };
    *u32(m, NIC_PROD_OFF) = i + 1;
}

static void fill(uint8_t *p, size_t n, int seed)
{
    for (size_t k = 0; k < n; k++)
        p[k] = (uint8_t)(seed + k * 7);
}

/* Node -> BELL -> mirror; returns the body's length. */
static size_t relay(uint8_t *node, uint8_t *mirror, uint32_t *sent)
{
    struct relay_layout l;
    size_t len;
    char err[200];
    uint8_t *b = relay_layout_of(node, SIZE, &l) ? NULL : relay_bell(node, &l, sent, &len);
    if (!b)
        abort();                                  /* the test fails with the signal */
    CHECK_EQ_INT(relay_apply_bell(mirror, &l, b, len, err, sizeof err), 0);
    free(b);
    return len;
}

TEST(bell_copies_descriptors_payloads_status_and_prod)
{
    uint8_t *node = node_memory(), *mirror = node_memory();
    status(mirror)->link_up = 5;                  /* the router's */
    status(node)->hello = 5;
    status(node)->state = NIC_STATE_RUNNING;
    status(node)->want_space = 1;
    fill(node + TX_OFF + 100, 300, 1);
    post(node, 0, NIC_OP_SEND, 100, 300);
    post(node, 1, NIC_OP_STEP, 0, 0);
    post(node, 2, NIC_OP_RECV, 0, 4096);
    uint32_t sent = 0;
    relay(node, mirror, &sent);
    CHECK_EQ_U64(sent, 3);
    CHECK_EQ_U64(*u32(mirror, NIC_PROD_OFF), 3);
    CHECK(!memcmp(mirror + NIC_RING_OFF, node + NIC_RING_OFF, 3 * sizeof(struct nic_desc)));
    CHECK(!memcmp(mirror + TX_OFF + 100, node + TX_OFF + 100, 300));
    CHECK_EQ_U64(status(mirror)->hello, 5);
    CHECK_EQ_U64(status(mirror)->state, NIC_STATE_RUNNING);
    CHECK_EQ_U64(status(mirror)->want_space, 1);
    CHECK_EQ_U64(status(mirror)->link_up, 5);     /* kept, though the node's says 0 */
    /* nothing new: the next BELL carries no descriptor */
    size_t empty = relay(node, mirror, &sent);
    CHECK_EQ_U64(empty, sizeof(struct nic_status) + 12);
    CHECK_EQ_U64(sent, 3);
}

/* Every descriptor that names transmit-area bytes the router reads gets
 * them into the mirror: FLOOD_RULES' masks, a FLOOD's message, and an
 * MSEND's list and the payload the list names (the router reads both from
 * its mirror), and a PROBE_ANY's patterns. An MSEND whose payload lies
 * outside carries its list only. */
TEST(bell_carries_flood_and_multidestination_payloads)
{
    uint8_t *node = node_memory(), *mirror = node_memory();
    fill(node + TX_OFF + 0, 64, 11);                       /* rules */
    fill(node + TX_OFF + 1000, 200, 12);                   /* a flood message */
    uint32_t list[5] = { NIC_MDW_PATH, 5000, 1, 2, 3 };    /* m = 3 (the post's peer) */
    memcpy(node + TX_OFF + 4000, list, sizeof list);
    fill(node + TX_OFF + 5000, 300, 13);                   /* its payload */
    uint32_t bad[5] = { NIC_MDW_PATH, TX_SIZE - 10, 1, 2, 3 };
    memcpy(node + TX_OFF + 6000, bad, sizeof bad);
    post(node, 0, NIC_OP_FLOOD_RULES, 0, 64);
    post(node, 1, NIC_OP_FLOOD, 1000, 200);
    post(node, 2, NIC_OP_MSEND, 4000, 300);
    post(node, 3, NIC_OP_MSEND, 6000, 300);
    struct nic_pattern pats[3] = { { 1, 2, 0 }, { NIC_ANY, 5, 0xff }, { 3, NIC_ANY, 0 } };   /* m = 3 */
    memcpy(node + TX_OFF + 7000, pats, sizeof pats);
    post(node, 4, NIC_OP_PROBE_ANY, 7000, 0);
    uint32_t sent = 0;
    size_t len = relay(node, mirror, &sent);
    CHECK_EQ_U64(len, sizeof(struct nic_status) + 12 + 5 * sizeof(struct nic_desc) + 64 + 200 + 20 + 300 + 20 + 36);
    CHECK(!memcmp(mirror + TX_OFF + 7000, pats, sizeof pats));
    CHECK(!memcmp(mirror + TX_OFF + 0, node + TX_OFF + 0, 64));
    CHECK(!memcmp(mirror + TX_OFF + 1000, node + TX_OFF + 1000, 200));
    CHECK(!memcmp(mirror + TX_OFF + 4000, list, sizeof list));
    CHECK(!memcmp(mirror + TX_OFF + 5000, node + TX_OFF + 5000, 300));
    CHECK(!memcmp(mirror + TX_OFF + 6000, bad, sizeof bad));
    CHECK_EQ_U64(mirror[TX_OFF + TX_SIZE - 10], 0);        /* nothing beyond */
}

/* A node rewrites an MSEND's payload offset (the list's second word)
 * between any two reads of the node host (flip_page.h), cycling through
 * two payloads in the area and an offset outside it. The body must carry
 * the offset it read and the payload at that offset: the mirror's list
 * names bytes that are the node's there, and the router parses the body.
 * The offset was read twice (to size the payload, then with the list's
 * bytes), so the mirror's list named one payload's offset and held the
 * other payload's bytes there, or the router looked for more payload than
 * the body carried. */
static uint32_t flip_i;
static void next_payload_offset(uint8_t *page)
{
    static const uint32_t offs[] = { 5000, 9000, TX_SIZE - 10 };
    memcpy(page + 4 * NIC_MSEND_PAY, &offs[flip_i++ % 3], 4);
}

TEST(bell_reads_a_multidestination_list_once)
{
    FLIP_PAGE_OR_FAIL();
    uint8_t *node = node_memory(), *mirror = node_memory();
    struct relay_layout l;
    REQUIRE(relay_layout_of(node, SIZE, &l) == 0);
    uint32_t list[5] = { NIC_MDW_PATH, 5000, 1, 2, 3 };
    memcpy(node + TX_OFF, list, sizeof list);              /* the list alone on its page */
    memset(node + TX_OFF + 5000, 0xaa, 300);
    memset(node + TX_OFF + 9000, 0xbb, 300);
    post(node, 0, NIC_OP_MSEND, 0, 300);
    for (int i = 0; i < 6; i++) {                          /* each offset first, twice */
        uint32_t sent = 0, pay;
        size_t len;
        char err[200] = "";
        memset(mirror + TX_OFF, 0, 10000);
        flip_i = (uint32_t)i;
        flip_arm(node + TX_OFF, next_payload_offset);
        uint8_t *b = relay_bell(node, &l, &sent, &len);
        flip_disarm();
        REQUIRE(b != NULL);
        CHECK(flip_accesses > 0);
        int rc = relay_apply_bell(mirror, &l, b, len, err, sizeof err);
        free(b);
        CHECK_EQ_INT(rc, 0);
        if (rc)
            printf("    the router refused the BELL: %s\n", err);
        memcpy(&pay, mirror + TX_OFF + 4 * NIC_MSEND_PAY, 4);
        if (!rc && pay + 300 <= TX_SIZE)
            CHECK(!memcmp(mirror + TX_OFF + pay, node + TX_OFF + pay, 300));
    }
}

TEST(bell_follows_the_ring_around)
{
    uint8_t *node = node_memory(), *mirror = node_memory();
    for (uint32_t i = 60; i < 66; i++) {
        fill(node + TX_OFF + i * 64, 64, (int)i);
        post(node, i, NIC_OP_SEND, i * 64, 64);
    }
    uint32_t sent = 60;
    relay(node, mirror, &sent);
    CHECK_EQ_U64(sent, 66);
    for (uint32_t i = 60; i < 66; i++) {
        CHECK_EQ_U64(slot(mirror, i)->seq, i);
        CHECK(!memcmp(mirror + TX_OFF + i * 64, node + TX_OFF + i * 64, 64));
    }
    CHECK_EQ_U64(slot(mirror, 0)->seq, 64);       /* slots 0 and 1 hold 64 and 65 */
}

/* A SEND whose payload is not in the transmit area moves no byte (the
 * router refuses the descriptor itself), and a prod beyond the ring is
 * passed on for the router to refuse, without a descriptor. */
TEST(bell_of_a_scribbling_node_stays_in_its_memory)
{
    uint8_t *node = node_memory(), *mirror = node_memory();
    post(node, 0, NIC_OP_SEND, TX_SIZE - 10, 100);
    post(node, 1, NIC_OP_SEND, 0xfffffff0u, 0x20);
    uint32_t sent = 0;
    size_t len = relay(node, mirror, &sent);
    CHECK_EQ_U64(len, sizeof(struct nic_status) + 12 + 2 * sizeof(struct nic_desc));
    CHECK_EQ_U64(slot(mirror, 1)->off, 0xfffffff0u);
    *u32(node, NIC_PROD_OFF) = 1000;
    relay(node, mirror, &sent);
    CHECK_EQ_U64(*u32(mirror, NIC_PROD_OFF), 1000);
    CHECK_EQ_U64(sent, 2);
}

TEST(malformed_bell_is_refused)
{
    uint8_t *node = node_memory(), *mirror = node_memory();
    struct relay_layout l;
    REQUIRE(relay_layout_of(node, SIZE, &l) == 0);
    fill(node + TX_OFF, 300, 3);
    post(node, 0, NIC_OP_SEND, 0, 300);
    uint32_t sent = 0;
    size_t len;
    char err[200];
    uint8_t *b = relay_bell(node, &l, &sent, &len);
    REQUIRE(b != NULL);
    CHECK_EQ_INT(relay_apply_bell(mirror, &l, b, len - 1, err, sizeof err), -1);   /* payload short */
    CHECK(strstr(err, "payloads") != NULL);
    CHECK_EQ_INT(relay_apply_bell(mirror, &l, b, 10, err, sizeof err), -1);        /* head short */
    uint32_t many = 65;
    memcpy(b + sizeof(struct nic_status) + 8, &many, 4);
    CHECK_EQ_INT(relay_apply_bell(mirror, &l, b, len, err, sizeof err), -1);       /* count > slots */
    CHECK(strstr(err, "65 descriptors") != NULL);
    free(b);
}

TEST(notify_carries_the_reply_its_payload_cons_and_link_up)
{
    uint8_t *node = node_memory(), *mirror = node_memory();
    struct relay_layout l;
    REQUIRE(relay_layout_of(mirror, SIZE, &l) == 0);
    status(node)->hello = 4;
    status(mirror)->link_up = 4;
    *u32(mirror, NIC_CONS_OFF) = 17;
    struct nic_reply r = { .seq = 16, .status = NIC_REPLY_OK, .src = 2, .tag = 9, .len = 5000, .time_ns = 123456 };
    memcpy(mirror + NIC_REPLY_OFF, &r, sizeof r);
    fill(mirror + RX_OFF, 5000, 11);
    struct nic_reply shown = { 0 };
    size_t len;
    uint8_t *b = relay_notify(mirror, &l, &shown, &len);
    REQUIRE(b != NULL);
    CHECK_EQ_U64(len, 8 + sizeof r + 5000);
    CHECK_EQ_INT(relay_apply_notify(node, &l, b, len), 0);
    free(b);
    CHECK(!memcmp(node + NIC_REPLY_OFF, &r, sizeof r));
    CHECK(!memcmp(node + RX_OFF, mirror + RX_OFF, 5000));
    CHECK_EQ_U64(*u32(node, NIC_CONS_OFF), 17);
    CHECK_EQ_U64(status(node)->link_up, 4);
    CHECK_EQ_U64(status(node)->hello, 4);
    /* the same reply again (an interrupt for space): no payload */
    *u32(mirror, NIC_CONS_OFF) = 18;
    b = relay_notify(mirror, &l, &shown, &len);
    CHECK_EQ_U64(len, 8 + sizeof r);
    CHECK_EQ_INT(relay_apply_notify(node, &l, b, len), 0);
    CHECK_EQ_U64(*u32(node, NIC_CONS_OFF), 18);
    free(b);
    /* a payload longer than the receive area is refused */
    uint8_t *big = calloc(1, 8 + sizeof r + RX_SIZE + 1);
    CHECK_EQ_INT(relay_apply_notify(node, &l, big, 8 + sizeof r + RX_SIZE + 1), -1);
    CHECK_EQ_INT(relay_apply_notify(node, &l, big, 8 + sizeof r - 1), -1);
    free(big);
}

TEST(config_keeps_the_nodes_hello)
{
    uint8_t *node = guarded(), *page = node_memory();
    status(node)->hello = 77;
    *u32(node, NIC_PROD_OFF) = 3;
    relay_apply_config(node, page);
    CHECK(!memcmp(node + NIC_CONFIG_OFF, page + NIC_CONFIG_OFF, sizeof(struct nic_config)));
    CHECK_EQ_U64(status(node)->hello, 77);
    CHECK_EQ_U64(*u32(node, NIC_PROD_OFF), 0);    /* the rest of the first page starts afresh */
}

TEST(layout_that_does_not_fit_is_refused)
{
    uint8_t *m = node_memory();
    struct relay_layout l;
    CHECK_EQ_INT(relay_layout_of(m, SIZE, &l), 0);
    CHECK_EQ_INT(relay_layout_of(m, SIZE - 1, &l), -1);
    ((struct nic_config *)m)->ring_slots = 0;
    CHECK_EQ_INT(relay_layout_of(m, SIZE, &l), -1);
}
