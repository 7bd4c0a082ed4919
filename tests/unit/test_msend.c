/* Multidestination worms through the router (NIC_OP_MSEND; host/net/net_mc.c
 * for the worms themselves, tests/unit/test_mdw.c): driven by fake nodes
 * (router_fixture.h). Each listed node receives its copy as a message of
 * the sender's; a list or a descriptor a buggy node writes fails that
 * node with the reason; worms that deadlock stop the run, named. */
#define _GNU_SOURCE                 /* REG_EFL (flip_page.h) */
#include "router_fixture.h"
#include "flip_page.h"

/* Node rank posts one worm of len bytes to dst[0..n): the payload, then
 * its list (kind, the payload's offset, the destinations). */
static uint32_t msend(int rank, uint64_t t, uint32_t kind, const uint32_t *dst, int n, uint32_t tag, const void *data,
                      uint32_t len)
{
    const struct lay *l = &F.lay[rank];
    uint32_t pay = F.tx_next[rank], list[64] = { kind, pay };
    memcpy(F.buf[rank] + l->tx_off + pay, data, len);
    for (int i = 0; i < n; i++)
        list[2 + i] = dst[i];
    uint32_t off = pay + ((len + 3) & ~3u);
    memcpy(F.buf[rank] + l->tx_off + off, list, 4 * (size_t)(n + 2));
    F.tx_next[rank] = off + 4 * (uint32_t)(n + 2);
    return post(rank, NIC_OP_MSEND, t, (uint32_t)n, tag, len, off);
}

/* A path worm from node 0 through 1 and 3 of a 2 x 2 mesh: both receive
 * it as a message from 0 with its bytes; each copy is one record, with
 * its own hops; the sender pays one send. */
TEST(each_listed_node_receives_its_copy)
{
    REQUIRE(fx_setup("mesh", "4", NULL, 1) == 0);
    uint8_t data[100];
    fill(data, sizeof data, 7);
    uint32_t dst[] = { 1, 3 };
    msend(0, 0, NIC_MDW_PATH, dst, 2, 9, data, sizeof data);
    REQUIRE(poll_node(0) == 0);
    uint32_t r1 = recv(1, 0, 0, 9, 200), r3 = recv(3, 0, 0, 9, 200);
    REQUIRE(poll_node(1) == 0);
    REQUIRE(poll_node(3) == 0);
    exit_node(0, 1000, 0);
    exit_node(2, 1000, 0);
    CHECK(answered(1, r1));
    CHECK(answered(3, r3));
    CHECK_EQ_U64(reply(1)->len, 100);
    CHECK_EQ_U64(reply(3)->src, 0);
    CHECK_MEM(rx(1), data, sizeof data);
    CHECK_MEM(rx(3), data, sizeof data);
    CHECK_EQ_U64(F.r.nlog, 2);
    CHECK(F.r.log[0].kind == REC_MDW && F.r.log[1].kind == REC_MDW);   /* messages.csv's kind */
    CHECK_EQ_INT(F.r.log[0].dst == 1 ? F.r.log[0].hops : F.r.log[1].hops, 1);
    CHECK_EQ_INT(F.r.log[0].dst == 3 ? F.r.log[0].hops : F.r.log[1].hops, 2);
    CHECK(reply(3)->time_ns > reply(1)->time_ns);
    CHECK_EQ_U64(F.r.nodes[0].sends, 1);
    fx_done();
}

/* What a buggy node may write, each refused with the reason. */
TEST(bad_worms_fail_their_node)
{
    static const struct { uint32_t kind, n, dst[3], len, pay_bad; const char *what; } c[] = {
        { 9, 1, { 1 }, 8, 0, "kind 9 unknown" },
        { NIC_MDW_PATH, 1, { 7 }, 8, 0, "destination 7 out of range 0..3" },
        { NIC_MDW_TREE, 2, { 1, 2 }, 8, 0, "destination 2 is the source" },
        { NIC_MDW_PATH, 2, { 1, 1 }, 8, 0, "destination 1 listed twice" },
        { NIC_MDW_PATH, 0, { 0 }, 8, 0, "0 destinations" },
        { NIC_MDW_PATH, 1, { 1 }, 8, 1, "payload" },
        { NIC_MDW_HPATH, 2, { 0, 3 }, 8, 0, "breaks the falling order" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        REQUIRE(fx_setup("mesh", "4", NULL, 1) == 0);
        uint8_t data[8] = { 0 };
        msend(2, 0, c[i].kind, c[i].dst, (int)c[i].n, 1, data, c[i].len);
        if (c[i].pay_bad) {                                   /* the list's payload offset past the area */
            uint32_t *list = (uint32_t *)(F.buf[2] + F.lay[2].tx_off + 8);
            list[1] = F.lay[2].tx_size - 4;
        }
        EXPECT_REJECTED(2, c[i].what);
        fx_done();
    }
}

/* A list longer than the machine's other nodes is refused by its count
 * before the router reads a destination or makes a copy: with 10000
 * destinations of 4096 bytes the error named the router's held-bytes limit
 * (the copies it was about to make), and of 8 bytes the router numbered
 * (allocated) 10000 copies before refusing the list. */
TEST(a_list_longer_than_the_machine_is_refused_by_its_count)
{
    static const uint32_t lens[] = { 4096, 8 };
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        REQUIRE(fx_setup("mesh", "4", NULL, 1) == 0);
        const struct lay *l = &F.lay[2];
        uint32_t m = 10000, off = 4096, *list = (uint32_t *)(F.buf[2] + l->tx_off + off);
        list[NIC_MSEND_KIND] = NIC_MDW_PATH;
        list[NIC_MSEND_PAY] = 0;
        for (uint32_t k = 0; k < m; k++)
            list[NIC_MSEND_DST + k] = 1 + k % 3;
        post(2, NIC_OP_MSEND, 0, m, 1, lens[i], off);
        EXPECT_REJECTED(2, "MSEND descriptor 0: 10000 destinations; a multidestination worm takes 1..3");
        CHECK_EQ_U64(F.r.nodes[2].next_seq, 0);        /* no copy was made */
        CHECK_EQ_U64(F.r.held_total, 0);
        fx_done();
    }
}

/* The payload's first 16 bytes, rewritten before every access (flip_page.h). */
static uint8_t flip_byte;
static void rewrite_payload(uint8_t *page) { memset(page, ++flip_byte, 16); }

/* A node rewrites its worm's payload while the router takes it: every
 * destination still receives one message, the same bytes. The router
 * read the payload from the node's memory once for each copy, so each
 * destination got different bytes from one worm. */
TEST(every_copy_of_a_worm_carries_the_bytes_read_once)
{
    FLIP_PAGE_OR_FAIL();
    REQUIRE(fx_setup("mesh", "4", NULL, 1) == 0);
    uint8_t data[16] = { 0 };
    uint32_t dst[] = { 1, 2, 3 };
    msend(0, 0, NIC_MDW_TREE, dst, 3, 9, data, sizeof data);   /* payload at the transmit area's start */
    flip_arm(F.buf[0] + F.lay[0].tx_off, rewrite_payload);
    int rc = poll_node(0);
    flip_disarm();
    REQUIRE(rc == 0);
    CHECK(flip_accesses > 0);
    for (int i = 1; i < 4; i++) {
        recv(i, 0, 0, 9, 100);
        REQUIRE(poll_node(i) == 0);
    }
    exit_node(0, 1000, 0);
    for (int i = 1; i < 4; i++)
        CHECK_EQ_U64(reply(i)->len, 16);
    CHECK_MEM(rx(2), rx(1), 16);
    CHECK_MEM(rx(3), rx(1), 16);
    fx_done();
}

/* Figure 31 through the router: on a one-port 8-node line, worms 0 -> 1,6
 * and 7 -> 6,1 each take one node's only consumption channel and wait
 * for the other's. The run stops, naming both, as a network deadlock. */
TEST(figure_31_stops_the_run_named)
{
    REQUIRE(fx_setup("mesh", "8", "8", 1) == 0);
    static uint8_t data[4096];
    uint32_t a[] = { 1, 6 }, b[] = { 6, 1 };
    msend(0, 0, NIC_MDW_PATH, a, 2, 1, data, sizeof data);
    msend(7, 0, NIC_MDW_PATH, b, 2, 2, data, sizeof data);
    REQUIRE(poll_node(0) == 0);
    REQUIRE(poll_node(7) == 0);
    recv(1, 0, 0, 1, sizeof data);
    recv(6, 0, 0, 1, sizeof data);
    REQUIRE(poll_node(1) == 0);
    REQUIRE(poll_node(6) == 0);
    for (int i = 2; i <= 5; i++)
        exit_node(i, 0, 0);
    exit_node(0, 1000, 0);
    post(7, NIC_OP_EXIT, 1000, 0, 0, 0, 0);        /* the last node out: the network runs on */
    CHECK_EQ_INT(engine_node_poll(&F.r, 7), -1);
    CHECK(F.r.stopped);
    CHECK_CONTAINS(F.r.error, "network deadlock at ");
    CHECK_CONTAINS(F.r.error, "the path worm 0 -> 1,6 waits for node 6's ejection channel 0, held by the path worm 7 -> 6,1");
    CHECK(strstr(F.r.error, "model error") == NULL);
    fx_done();
}
