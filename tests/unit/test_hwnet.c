/* The hardware beside the data network (host/net/hwnet.h), through the
 * router, driven by fake nodes (router_fixture.h): the barrier circuits'
 * firing time and misuse, the control network's results and times, and
 * fetch-and-increment packets on the data network. */
#define _GNU_SOURCE                 /* REG_EFL (flip_page.h) */
#include "router_fixture.h"
#include "flip_page.h"

/* Barrier stages of 5 ns, control stages of 7 ns, a NIC's fetch-and-
 * increment service 3 ns; the data network as router_fixture.h's
 * (1 ns cycles, 10 cycles a hop). */
static int hw_setup(const char *nodes)
{
    P.barrier_stage_ns = 5;
    P.ctrl_stage_ns = 7;
    P.fi_ns = 3;
    return fx_setup("mesh", nodes, NULL, 1);
}

static uint32_t bar_set(int rank, uint64_t t, uint32_t c) { return post(rank, NIC_OP_BARRIER_SET, t, 0, c, 0, 0); }
static uint32_t bar_wait(int rank, uint64_t t, uint32_t c) { return post(rank, NIC_OP_BARRIER_WAIT, t, 0, c, 0, 0); }
static uint32_t ctrl(int rank, uint64_t t, uint32_t op, uint32_t root, int64_t v)
{
    return post(rank, NIC_OP_CTRL, t, root, op, (uint32_t)(uint64_t)v, (uint32_t)((uint64_t)v >> 32));
}
static uint32_t fetch_inc(int rank, uint64_t t, uint32_t node, uint32_t reg)
{
    return post(rank, NIC_OP_FETCH_INC, t, node, reg, 0, 0);
}

#define CHECK_ANSWER(rank, seq_, t_, v_) do {                                \
        CHECK_EQ_U64(reply(rank)->seq, (seq_));                              \
        CHECK_EQ_U64(reply(rank)->status, NIC_REPLY_OK);                     \
        CHECK_EQ_U64(reply(rank)->time_ns, (t_));                            \
        CHECK_EQ_U64(reply(rank)->value, (uint64_t)(v_));                    \
    } while (0)

/* 4 nodes: two stages up and two down, 20 ns after the last set. */
TEST(a_barrier_fires_after_the_last_bit_is_set)
{
    REQUIRE(hw_setup("4") == 0);
    bar_set(0, 100, 3);
    uint32_t w0 = bar_wait(0, 100, 3);
    REQUIRE(poll_node(0) == 0);
    bar_set(2, 200, 3);
    uint32_t w2 = bar_wait(2, 250, 3);
    REQUIRE(poll_node(2) == 0);
    bar_set(3, 150, 3);
    REQUIRE(poll_node(3) == 0);
    CHECK(!answered(0, w0) && !answered(2, w2));
    CHECK_EQ_INT(hwnet_barrier_count(&F.r.hw, 3), 3);
    bar_set(1, 300, 3);                               /* the last: fires at 300 + 20 */
    REQUIRE(poll_node(1) == 0);
    CHECK_ANSWER(0, w0, 320, 0);
    CHECK_ANSWER(2, w2, 320, 0);
    CHECK_EQ_INT(hwnet_barrier_count(&F.r.hw, 3), 0);
    uint32_t w3 = bar_wait(3, 310, 3);                /* waits after it fired: at once, at the firing */
    REQUIRE(poll_node(3) == 0);
    CHECK_ANSWER(3, w3, 320, 0);
    uint32_t w1 = bar_wait(1, 400, 3);                /* later than the firing: at its own time */
    REQUIRE(poll_node(1) == 0);
    CHECK_ANSWER(1, w1, 400, 0);
    CHECK_EQ_U64(F.r.messages, 0);
    fx_done();
}

/* A circuit is used again after it fired, and circuits are independent. */
TEST(barrier_circuits_are_reusable_and_independent)
{
    REQUIRE(hw_setup("2") == 0);                      /* one stage each way: 10 ns */
    for (int round = 0; round < 3; round++) {
        uint64_t t = 1000 * (uint64_t)round;
        bar_set(0, t, 0);
        bar_set(0, t, 1);
        uint32_t w = bar_wait(0, t + 1, 1);
        REQUIRE(poll_node(0) == 0);
        bar_set(1, t + 50, 1);                        /* circuit 1 fires at t + 60 */
        uint32_t w1 = bar_wait(1, t + 55, 1);
        REQUIRE(poll_node(1) == 0);
        CHECK_ANSWER(0, w, t + 60, 0);
        CHECK_ANSWER(1, w1, t + 60, 0);
        CHECK_EQ_INT(hwnet_barrier_count(&F.r.hw, 0), 1);   /* circuit 0: node 1 has not set it */
        bar_set(1, t + 70, 0);
        uint32_t v = bar_wait(1, t + 70, 0);
        REQUIRE(poll_node(1) == 0);
        CHECK_ANSWER(1, v, t + 80, 0);
        w = bar_wait(0, t + 90, 0);
        REQUIRE(poll_node(0) == 0);
        CHECK_ANSWER(0, w, t + 90, 0);
    }
    fx_done();
}

static void expect_fails(int rank, const char *want, int line)
{
    if (poll_node(rank) != -1)
        check_fail(__FILE__, line, "node %d's descriptor was accepted", rank);
    else if (!strstr(F.r.error, want))
        check_fail(__FILE__, line, "error '%s' does not say '%s'", F.r.error, want);
    fx_done();
}

TEST(barrier_misuse_is_the_nodes_error)
{
    REQUIRE(hw_setup("4") == 0);
    bar_set(1, 0, 2);
    bar_set(1, 5, 2);
    expect_fails(1, "node 1: BARRIER_SET descriptor 1: set its bit of barrier circuit 2 again without waiting on "
                    "the circuit in between", __LINE__);
    REQUIRE(hw_setup("4") == 0);
    bar_wait(2, 0, 0);
    expect_fails(2, "node 2: BARRIER_WAIT descriptor 0: waits on barrier circuit 0 without having set its bit",
                 __LINE__);
    REQUIRE(hw_setup("4") == 0);
    bar_set(0, 0, NIC_BARRIERS);
    expect_fails(0, "barrier circuit 16 out of range 0..15", __LINE__);
}

#define OP(kind, comb) ((uint32_t)(kind) | (uint32_t)(comb) << 8)

/* 4 nodes: 2 x 2 stages of 7 ns after the last post. */
TEST(the_control_network_broadcasts_reduces_and_scans)
{
    static const struct { uint32_t op, root; int64_t want[4]; } c[] = {
        { OP(NIC_CTRL_BCAST, 0), 2, { -3, -3, -3, -3 } },
        { OP(NIC_CTRL_REDUCE, NIC_CTRL_SUM), 0, { 0, 0, 0, 0 } },
        { OP(NIC_CTRL_REDUCE, NIC_CTRL_MAX), 0, { 7, 7, 7, 7 } },
        { OP(NIC_CTRL_REDUCE, NIC_CTRL_MIN), 0, { -5, -5, -5, -5 } },
        { OP(NIC_CTRL_REDUCE, NIC_CTRL_XOR), 0, { 1 ^ -5 ^ -3 ^ 7, 1 ^ -5 ^ -3 ^ 7, 1 ^ -5 ^ -3 ^ 7, 1 ^ -5 ^ -3 ^ 7 } },
        { OP(NIC_CTRL_SCAN, NIC_CTRL_SUM), 0, { 1, -4, -7, 0 } },
        { OP(NIC_CTRL_SCAN, NIC_CTRL_OR), 0, { 1, 1 | -5, 1 | -5 | -3, -1 } },
        { OP(NIC_CTRL_SCAN, NIC_CTRL_AND), 0, { 1, 1 & -5, 1 & -5 & -3, 1 & -5 & -3 & 7 } },
    };
    static const int64_t val[4] = { 1, -5, -3, 7 };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        REQUIRE(hw_setup("4") == 0);
        uint32_t s[4];
        static const int order[4] = { 2, 0, 3, 1 };
        for (int j = 0; j < 4; j++) {
            int i = order[j];
            s[i] = ctrl(i, 100 + 10 * (uint64_t)i, c[k].op, c[k].root, val[i]);
            REQUIRE(poll_node(i) == 0);
            if (j < 3)
                CHECK(!answered(i, s[i]));
        }
        for (int i = 0; i < 4; i++)
            CHECK_ANSWER(i, s[i], 130 + 28, c[k].want[i]);
        fx_done();
    }
}

/* Mismatched operations are judged when all have posted, the same way
 * whatever order the host read them in: the lowest-ranked node that
 * differs from node 0 is at fault. */
TEST(control_network_misuse_is_the_nodes_error)
{
    for (int order = 0; order < 2; order++) {
        REQUIRE(hw_setup("4") == 0);
        static const int seq[2][4] = { { 0, 3, 1, 2 }, { 2, 1, 3, 0 } };
        int rc = 0;
        for (int j = 0; j < 4; j++) {
            int i = seq[order][j];
            ctrl(i, 0, OP(NIC_CTRL_REDUCE, i == 3 || i == 2 ? NIC_CTRL_MAX : NIC_CTRL_SUM), 0, 1);
            rc = poll_node(i);
            if (j < 3)
                REQUIRE(rc == 0);
        }
        CHECK(rc == -1);
        CHECK_STR(F.r.error, "node 2: CTRL: posted control-network REDUCE MAX (root 0) where node 0 posted "
                             "REDUCE SUM (root 0): every node must post the same operation");
        fx_done();
    }
    REQUIRE(hw_setup("2") == 0);
    ctrl(1, 0, OP(NIC_CTRL_BCAST, 0), 0, 1);
    REQUIRE(poll_node(1) == 0);
    ctrl(0, 0, OP(NIC_CTRL_BCAST, 0), 1, 1);
    expect_fails(0, "node 1: CTRL: posted control-network BCAST (root 0) where node 0 posted BCAST (root 1)", __LINE__);
    REQUIRE(hw_setup("4") == 0);
    ctrl(1, 0, OP(NIC_CTRL_SCAN, NIC_CTRL_COMBS), 0, 1);
    expect_fails(1, "control-network operation 0x602 is unknown; accepted:", __LINE__);
    REQUIRE(hw_setup("4") == 0);
    ctrl(1, 0, OP(NIC_CTRL_BCAST, 0), 4, 1);
    expect_fails(1, "BCAST from root 4, out of range 0..3", __LINE__);
}

/* A 2 x 2 mesh: nodes 1 and 2, each one hop from node 0, take node 0's
 * register 0 at time 0. A request is a one-flit worm with no send
 * start-up: both arrive at 0 + 10 + 1 = 11, node 1's first (ties go to
 * the lower source) and reads 0, node 2's reads 1. A reply is 8 flits,
 * ready fi_ns = 3 after its request came (14); node 0's one injection
 * channel sends them one after the other: node 1 has its reply at
 * 14 + 10 + 8 = 32, node 2 at 22 + 10 + 8 = 40. Node 3 (two hops) takes
 * register 1 at 5: its request comes at 26, its reply is ready at 29 but
 * the channel is busy until 30: 30 + 20 + 8 = 58. Whatever order the host
 * polls them in. */
TEST(fetch_and_increment_packets_cross_the_data_network)
{
    for (int order = 0; order < 2; order++) {
        REQUIRE(hw_setup("4") == 0);
        uint32_t s1 = 0, s2 = 0, s3 = 0;
        for (int j = 0; j < 2; j++) {
            if ((j == 0) == (order == 0)) {
                s1 = fetch_inc(1, 0, 0, 0);
                REQUIRE(poll_node(1) == 0);
            } else {
                s2 = fetch_inc(2, 0, 0, 0);
                REQUIRE(poll_node(2) == 0);
            }
        }
        s3 = fetch_inc(3, 5, 0, 1);
        REQUIRE(poll_node(3) == 0);
        exit_node(0, 1000, 0);                         /* the registers are the NIC's: they answer after exit */
        /* a node that has its answer runs on (and holds time back) until it exits */
        uint32_t seq[4] = { 0, s1, s2, s3 };
        int left[4] = { 0, 1, 1, 1 };
        for (int pass = 0; pass < 4; pass++)
            for (int i = 1; i < 4; i++)
                if (left[i] && answered(i, seq[i])) {
                    post(i, NIC_OP_EXIT, reply(i)->time_ns, 0, 0, 0, 0);
                    REQUIRE(poll_node(i) == 0);
                    left[i] = 0;
                }
        CHECK(!left[1] && !left[2] && !left[3]);
        CHECK_ANSWER(1, s1, 32, 0);
        CHECK_ANSWER(2, s2, 40, 1);
        CHECK_ANSWER(3, s3, 58, 0);
        CHECK_EQ_U64(F.r.hw.fi[0], 2);
        CHECK_EQ_U64(F.r.hw.fi[1], 1);
        /* packets, not messages: the links carried them, the counters and messages.csv do not */
        CHECK_EQ_U64(F.r.messages, 0);
        CHECK_EQ_U64(F.r.nlog, 0);
        CHECK_EQ_U64(F.r.fi_packets, 6);                 /* three requests, three replies (summary.json) */
        CHECK_EQ_U64(F.r.nodes[1].sends, 0);
        int nl;
        const struct link_stats *ls = net_link_stats(F.r.net, &nl);
        uint64_t flits = 0;
        for (int i = 0; i < nl; i++)
            flits += ls[i].flits;
        CHECK_EQ_U64(flits, (1 + 8) * (1 + 1 + 2));
        fx_done();
    }
}

/* The owner's NIC replies on the owner's injection channel. A message the
 * owner queued earlier but that is ready only later must not hold the
 * reply back: a channel serves its worms by readiness, so the answer is
 * the same whether the host read the owner's SEND before or after the
 * network made the reply. Node 1 asks at 0 (request at node 0 at 11,
 * reply ready 11 + 3 = 14, 8 flits one hop: 32); node 0 has a message
 * ready only at 300 + 100 = 400 queued first. */
TEST(a_reply_is_not_held_behind_a_message_ready_later)
{
    REQUIRE(hw_setup("2") == 0);
    post(0, NIC_OP_STEP, 300, 0, 1, 0, 0);
    send(0, 300, 1, 9, "x", 1);
    uint32_t s = fetch_inc(1, 0, 0, 0);
    REQUIRE(poll_node(0) == 0);                       /* the SEND is queued before the request is seen */
    REQUIRE(poll_node(1) == 0);
    exit_node(0, 400, 0);
    CHECK_ANSWER(1, s, 32, 0);
    fx_done();
}

TEST(fetch_and_increment_misuse_is_the_nodes_error)
{
    REQUIRE(hw_setup("4") == 0);
    fetch_inc(1, 0, 4, 0);
    expect_fails(1, "node 1: FETCH_INC descriptor 0: node 4 out of range 0..3", __LINE__);
    REQUIRE(hw_setup("4") == 0);
    fetch_inc(1, 0, 0, NIC_FI_REGS);
    expect_fails(1, "FETCH_INC descriptor 0: register 2 out of range 0..1", __LINE__);
}

/* A node that exits without setting its bit leaves the others waiting:
 * a deadlock, and the detail names the circuit. */
TEST(a_barrier_nobody_completes_is_a_named_deadlock)
{
    REQUIRE(hw_setup("3") == 0);
    bar_set(0, 0, 5);
    bar_wait(0, 0, 5);
    REQUIRE(poll_node(0) == 0);
    recv(1, 0, 2, NIC_ANY, 64);
    REQUIRE(poll_node(1) == 0);
    CHECK(!engine_deadlocked(&F.r));
    exit_node(2, 10, 0);
    CHECK(engine_deadlocked(&F.r));
    char why[200];
    engine_wait_detail(&F.r, why, sizeof why);
    CHECK_STR(why, "node 0 waits on barrier circuit 5, which 1 of 3 nodes set");
    fx_done();

    REQUIRE(hw_setup("2") == 0);                      /* only messages awaited: no detail */
    recv(0, 0, 1, NIC_ANY, 64);
    REQUIRE(poll_node(0) == 0);
    ctrl(1, 0, OP(NIC_CTRL_REDUCE, NIC_CTRL_SUM), 0, 1);
    REQUIRE(poll_node(1) == 0);
    CHECK(engine_deadlocked(&F.r));
    engine_wait_detail(&F.r, why, sizeof why);
    CHECK_STR(why, "node 1 waits in a control-network operation that 1 of 2 nodes posted");
    fx_done();
}

/* --- Flooding in the NIC (NIC_OP_FLOOD*) --------------------------------- */

/* Rules that send every origin's message on every link the node has: the
 * NICs' first-arrival rule keeps the flood finite. On a 2 x 2 mesh
 * (ports 0 +x, 1 -x, 2 +y, 3 -y). */
static void flood_everywhere(int rank)
{
    uint32_t m[4], all = rank % 2 == 0 ? 1u : 2u;
    all |= rank < 2 ? 4u : 8u;
    for (int o = 0; o < 4; o++)
        m[o] = all;
    payload(rank, NIC_OP_FLOOD_RULES, 0, 0, 0, m, sizeof m);
}

/* The time the last flood worm reached node `rank` (the run's record). */
static uint64_t last_arrival(int rank)
{
    uint64_t t = 0;
    for (size_t i = 0; i < F.r.nlog; i++)
        if (F.r.log[i].dst == rank && F.r.log[i].t_arrive > t)
            t = F.r.log[i].t_arrive;
    return t;
}

/* 4-byte messages (4 flits, 1 ns each; 10 cycles a hop; t_send 100) on
 * one-port nodes. Every NIC relays each origin once on both its links:
 * 2 + 3 x 2 = 8 worms an origin; the copies that reach a NIC a second
 * time are dropped. The answer comes with the last arrival, whose time is
 * its value, and every origin's content in the receive area. */
TEST(a_nic_flood_relays_each_origin_once_without_the_processors)
{
    REQUIRE(hw_setup("4") == 0);
    uint32_t w[4];
    for (int i = 0; i < 4; i++) {
        flood_everywhere(i);
        uint32_t v = 0x11111111u * (uint32_t)(i + 1);
        payload(i, NIC_OP_FLOOD, 0, 0, 7, &v, 4);
        w[i] = post(i, NIC_OP_FLOOD_WAIT, 100, 3, 7, 0, 0);
        REQUIRE(poll_node(i) == 0);
    }
    for (int i = 0; i < 4; i++) {
        CHECK(answered(i, w[i]));
        CHECK(reply(i)->value >= 128);                /* the far corner: two hops after 100 at least */
        CHECK_EQ_U64(reply(i)->time_ns, reply(i)->value);
        CHECK_EQ_U64(reply(i)->len, 16);
        for (int o = 0; o < 4; o++) {
            uint32_t v;
            memcpy(&v, rx(i) + 4 * o, 4);
            CHECK_EQ_U64(v, 0x11111111u * (uint32_t)(o + 1));
        }
    }
    for (int i = 0; i < 4; i++)                       /* the duplicates still flying land and are dropped */
        exit_node(i, reply(i)->time_ns, 0);
    CHECK(!net_busy(F.r.net));
    CHECK_EQ_U64(F.r.nlog, 32);
    for (size_t k = 0; k < F.r.nlog; k++) {           /* flood worms: a node's own pay the start-up, relays none */
        const struct msg_record *m = &F.r.log[k];
        CHECK_EQ_INT(m->kind, REC_FLOOD);
        CHECK_EQ_U64(m->t_ready - m->t_post, (m->seq & NIC_SEQ_BASE) ? 0 : F.r.p.t_send_ns);
    }
    for (int i = 0; i < 4; i++)                       /* the answer came with the last first arrival */
        CHECK(reply(i)->value <= last_arrival(i));
    CHECK_EQ_U64(F.r.nodes[0].sends, 1);
    fx_done();
}

/* The flood message's first 16 bytes, rewritten before every access (flip_page.h). */
static uint8_t flip_byte;
static void rewrite_flood(uint8_t *page) { memset(page, ++flip_byte, 16); }

/* A node rewrites its flood message while its NIC takes it: both
 * neighbours its rule names, and the node's own FLOOD_WAIT, get the same
 * bytes. The router read the message from the node's memory once for
 * what it kept and once more for each port's copy. */
TEST(a_flood_message_is_read_once_for_every_port)
{
    FLIP_PAGE_OR_FAIL();
    REQUIRE(hw_setup("4") == 0);
    uint32_t rules[4] = { 1u | 4u, 0, 0, 0 };        /* origin 0: ports +x and +y, to nodes 1 and 2 */
    payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, rules, sizeof rules);
    REQUIRE(poll_node(0) == 0);
    F.tx_next[0] = 0;                                /* the message at the transmit area's start */
    uint8_t zero[16] = { 0 };
    payload(0, NIC_OP_FLOOD, 0, 0, 7, zero, sizeof zero);
    flip_arm(F.buf[0] + F.lay[0].tx_off, rewrite_flood);
    int rc = poll_node(0);
    flip_disarm();
    REQUIRE(rc == 0);
    CHECK(flip_accesses > 0);
    uint32_t w[3];
    for (int i = 0; i < 3; i++) {                    /* node 0 waits for none, 1 and 2 for its message */
        w[i] = post(i, NIC_OP_FLOOD_WAIT, 1000, i ? 1 : 0, 7, 0, 0);
        REQUIRE(poll_node(i) == 0);
    }
    exit_node(3, 1000, 0);
    for (int i = 0; i < 3; i++)
        CHECK(answered(i, w[i]));
    CHECK_MEM(rx(1), rx(0), 16);                     /* origin 0's slot, the first */
    CHECK_MEM(rx(2), rx(0), 16);
    fx_done();
}

/* A node that waits after everything came is answered at its own time,
 * with the arrival time in the value; one waiting for more than came
 * waits, and the deadlock names the flood. */
TEST(flood_wait_after_the_arrivals_and_for_too_many)
{
    REQUIRE(hw_setup("4") == 0);
    for (int i = 0; i < 4; i++) {
        flood_everywhere(i);
        uint32_t v = (uint32_t)i;
        payload(i, NIC_OP_FLOOD, 0, 0, 1, &v, 4);
        if (i < 3)
            post(i, NIC_OP_EXIT, 2000, 0, 0, 0, 0);
        REQUIRE(poll_node(i) == 0);
    }
    uint32_t s = post(3, NIC_OP_FLOOD_WAIT, 5000, 3, 1, 0, 0);
    REQUIRE(poll_node(3) == 0);
    CHECK(answered(3, s));
    CHECK_EQ_U64(reply(3)->time_ns, 5000);
    CHECK(reply(3)->value >= 128 && reply(3)->value <= last_arrival(3));
    fx_done();

    REQUIRE(hw_setup("2") == 0);                     /* two nodes: one other origin, waits for... one more */
    uint32_t m[2] = { 1, 1 };
    payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, m, sizeof m);
    uint32_t v = 5;
    payload(0, NIC_OP_FLOOD, 0, 0, 3, &v, 4);
    post(0, NIC_OP_EXIT, 100, 0, 0, 0, 0);
    REQUIRE(poll_node(0) == 0);
    post(1, NIC_OP_FLOOD_WAIT, 0, 1, 4, 0, 0);        /* tag 4: nobody floods it */
    REQUIRE(poll_node(1) == 0);
    engine_advance(&F.r);
    CHECK(engine_deadlocked(&F.r));
    char why[200];
    engine_wait_detail(&F.r, why, sizeof why);
    CHECK_STR(why, "node 1 waits for 1 flood messages of tag 4, 0 of which came");
    fx_done();
}

TEST(flood_misuse_is_the_nodes_error)
{
    REQUIRE(hw_setup("4") == 0);
    uint32_t v = 1;
    payload(1, NIC_OP_FLOOD, 0, 0, 0, &v, 4);
    expect_fails(1, "node 1: FLOOD descriptor 0: its NIC has no flood rules (FLOOD_RULES first)", __LINE__);
    REQUIRE(hw_setup("4") == 0);
    uint32_t m[4] = { 0, 2, 0, 0 };                   /* node 0 has no -x link */
    payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, m, sizeof m);
    expect_fails(0, "node 0: FLOOD_RULES descriptor 0: the rule for origin 1 names port 1, where the node has no "
                    "link", __LINE__);
    REQUIRE(hw_setup("4") == 0);
    payload(2, NIC_OP_FLOOD_RULES, 0, 0, 0, m, 12);
    expect_fails(2, "12 bytes of rules; it takes one 32-bit port mask per node, 16 bytes", __LINE__);
    REQUIRE(hw_setup("4") == 0);
    post(3, NIC_OP_FLOOD_WAIT, 0, 4, 0, 0, 0);
    expect_fails(3, "waits for 4 messages; a flood brings at most 3", __LINE__);
}

/* A NIC starts its copy as the message's head comes in. A line of three
 * nodes; node 0 floods 4 bytes (4 flits), node 1 relays them to node 2.
 * Ready at 100 (t_send), the head reaches node 1's NIC after 10 + 1
 * cycles (111), the copy leaves at once and its tail is at node 2 at
 * 111 + 10 + 4 = 125; relaying after the tail (114) would give 128. */
TEST(a_relay_starts_with_the_head)
{
    REQUIRE(fx_setup("mesh", NULL, "3", 1) == 0);
    uint32_t r0[3] = { 1, 0, 0 }, r1[3] = { 1, 0, 0 }, r2[3] = { 0, 0, 0 };   /* port 0: +x */
    payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, r0, sizeof r0);
    payload(1, NIC_OP_FLOOD_RULES, 0, 0, 0, r1, sizeof r1);
    payload(2, NIC_OP_FLOOD_RULES, 0, 0, 0, r2, sizeof r2);
    uint32_t v = 42;
    payload(0, NIC_OP_FLOOD, 0, 0, 2, &v, 4);
    post(0, NIC_OP_EXIT, 100, 0, 0, 0, 0);
    post(1, NIC_OP_EXIT, 0, 0, 0, 0, 0);
    uint32_t s = post(2, NIC_OP_FLOOD_WAIT, 0, 1, 2, 0, 0);
    for (int i = 0; i < 3; i++)
        REQUIRE(poll_node(i) == 0);
    REQUIRE(answered(2, s));
    CHECK_EQ_U64(reply(2)->value, 125);
    CHECK_EQ_U64(reply(2)->time_ns, 125);
    uint32_t got;
    memcpy(&got, rx(2), 4);
    CHECK_EQ_U64(got, 42);
    fx_done();
}

/* --- The same results whatever order the host reads the nodes in --------- */

/* Every node of a 3 x 3 torus: install rules that flood every origin on
 * all four links, take node 0's register, flood its own 4 bytes, take the
 * register again, wait for the 8 others, exit. Posted one descriptor at a
 * time, the nodes visited in the given order each pass (a blocked node
 * posts nothing until answered; a descriptor's time is at least the last
 * answer's). Recorded: every answer and every message of the log. */
struct hw_outcome { uint64_t ans[9][4][2]; size_t nlog; struct msg_record log[400]; };

static void hw_run(const int order[9], struct hw_outcome *out)
{
    memset(out, 0, sizeof *out);
    P.fi_ns = 3;
    if (fx_setup("torus", NULL, "3x3", 1))
        return;
    int pc[9] = { 0 }, nans[9] = { 0 };
    uint32_t blk[9];
    int waiting[9] = { 0 };
    uint64_t clock[9] = { 0 };
    for (int pass = 0; pass < 200; pass++) {
        for (int j = 0; j < 9; j++) {
            int i = order[j];
            if (waiting[i]) {
                if (!answered(i, blk[i]))
                    continue;
                out->ans[i][nans[i]][0] = reply(i)->time_ns;
                out->ans[i][nans[i]][1] = reply(i)->value;
                nans[i]++;
                clock[i] = reply(i)->time_ns;
                waiting[i] = 0;
            }
            clock[i] += 7 + (uint64_t)i;
            uint32_t rules[9], v = 0xabc00000u + (uint32_t)i;
            switch (pc[i]++) {
            case 0:
                for (int o = 0; o < 9; o++)
                    rules[o] = 15;
                payload(i, NIC_OP_FLOOD_RULES, clock[i], 0, 0, rules, sizeof rules);
                break;
            case 1: case 3: blk[i] = fetch_inc(i, clock[i], 0, 0); waiting[i] = 1; break;
            case 2: payload(i, NIC_OP_FLOOD, clock[i], 0, 5, &v, 4); clock[i] += 100; break;
            case 4: blk[i] = post(i, NIC_OP_FLOOD_WAIT, clock[i], 8, 5, 0, 0); waiting[i] = 1; break;
            case 5: post(i, NIC_OP_EXIT, clock[i], 0, 0, 0, 0); break;
            default: continue;
            }
            if (poll_node(i))
                check_fail(__FILE__, __LINE__, "node %d: %s", i, F.r.error);
        }
    }
    for (int i = 0; i < 9; i++)
        if (pc[i] < 6)
            check_fail(__FILE__, __LINE__, "node %d stopped at step %d", i, pc[i]);
    out->nlog = F.r.nlog < 400 ? F.r.nlog : 400;
    memcpy(out->log, F.r.log, out->nlog * sizeof *out->log);
    fx_done();
}

TEST(floods_and_registers_do_not_depend_on_the_host_order)
{
    static const int orders[4][9] = { { 0, 1, 2, 3, 4, 5, 6, 7, 8 }, { 8, 7, 6, 5, 4, 3, 2, 1, 0 },
                                      { 4, 0, 8, 2, 6, 1, 7, 3, 5 }, { 3, 8, 1, 5, 0, 7, 2, 6, 4 } };
    static struct hw_outcome o[4];
    for (int k = 0; k < 4; k++)
        hw_run(orders[k], &o[k]);
    CHECK(o[0].nlog > 9 * 2);                         /* every node's own flood and relays */
    for (int k = 1; k < 4; k++) {
        for (int i = 0; i < 9; i++)
            for (int a = 0; a < 4; a++)
                if (o[k].ans[i][a][0] != o[0].ans[i][a][0] || o[k].ans[i][a][1] != o[0].ans[i][a][1])
                    check_fail(__FILE__, __LINE__, "order %d: node %d answer %d at %llu value %llu, not at %llu "
                               "value %llu", k, i, a, (unsigned long long)o[k].ans[i][a][0],
                               (unsigned long long)o[k].ans[i][a][1], (unsigned long long)o[0].ans[i][a][0],
                               (unsigned long long)o[0].ans[i][a][1]);
        CHECK_EQ_U64(o[k].nlog, o[0].nlog);
        for (size_t x = 0; x < o[0].nlog && x < o[k].nlog; x++) {   /* field by field: records have padding */
            const struct msg_record *a = &o[0].log[x], *b = &o[k].log[x];
            if (a->src != b->src || a->dst != b->dst || a->tag != b->tag || a->len != b->len || a->step != b->step ||
                a->t_post != b->t_post || a->t_inject != b->t_inject || a->t_head != b->t_head ||
                a->t_arrive != b->t_arrive || a->blocked_cycles != b->blocked_cycles) {
                check_fail(__FILE__, __LINE__, "order %d: message %zu differs: %d->%d at %llu, not %d->%d at %llu", k, x,
                           b->src, b->dst, (unsigned long long)b->t_arrive, a->src, a->dst,
                           (unsigned long long)a->t_arrive);
                break;
            }
        }
    }
}

/* Cases where the host's reading order once decided the outcome; each
 * runs in two orders and must come out the same. */

/* A reply ties with the owner's own request on its channel: the owner's
 * request, read before or after the network made the reply. */
TEST(a_reply_tying_with_a_request_in_either_order)
{
    uint64_t t[2];
    for (int order = 0; order < 2; order++) {
        REQUIRE(hw_setup("2") == 0);
        uint32_t s1;
        if (order == 0) {
            post(0, NIC_OP_STEP, 13, 0, 1, 0, 0);
            fetch_inc(0, 14, 1, 0);
            REQUIRE(poll_node(0) == 0);
            s1 = fetch_inc(1, 0, 0, 0);
            REQUIRE(poll_node(1) == 0);
        } else {
            s1 = fetch_inc(1, 0, 0, 0);
            REQUIRE(poll_node(1) == 0);
            post(0, NIC_OP_STEP, 13, 0, 1, 0, 0);
            REQUIRE(poll_node(0) == 0);
            fetch_inc(0, 14, 1, 0);
            REQUIRE(poll_node(0) == 0);
        }
        engine_advance(&F.r);
        REQUIRE(answered(1, s1));
        t[order] = reply(1)->time_ns;
        fx_done();
    }
    CHECK_EQ_U64(t[0], t[1]);
}

/* Rules installed at 200 do not relay a message that came at 114, whether
 * the host read them before or after the network delivered it. */
TEST(rules_take_effect_at_their_time_in_either_order)
{
    uint64_t msgs[2];
    for (int order = 0; order < 2; order++) {
        REQUIRE(fx_setup("mesh", NULL, "3", 1) == 0);
        uint32_t m0[3] = { 1, 0, 0 }, m1[3] = { 1, 0, 0 }, v = 7;
        payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, m0, sizeof m0);
        payload(0, NIC_OP_FLOOD, 0, 0, 1, &v, 4);
        post(0, NIC_OP_EXIT, 1000, 0, 0, 0, 0);
        post(2, NIC_OP_EXIT, 1000, 0, 0, 0, 0);
        REQUIRE(poll_node(2) == 0);
        post(1, NIC_OP_STEP, 150, 0, 1, 0, 0);
        if (order == 0) {
            REQUIRE(poll_node(1) == 0);
            REQUIRE(poll_node(0) == 0);
            payload(1, NIC_OP_FLOOD_RULES, 200, 0, 0, m1, sizeof m1);
            REQUIRE(poll_node(1) == 0);
        } else {
            payload(1, NIC_OP_FLOOD_RULES, 200, 0, 0, m1, sizeof m1);
            REQUIRE(poll_node(1) == 0);
            REQUIRE(poll_node(0) == 0);
        }
        post(1, NIC_OP_EXIT, 1000, 0, 0, 0, 0);
        REQUIRE(poll_node(1) == 0);
        msgs[order] = F.r.messages;
        fx_done();
    }
    CHECK_EQ_U64(msgs[0], 1);
    CHECK_EQ_U64(msgs[1], 1);
}

/* A wait for one of two origins is answered at its time with what had
 * come by then, whenever the host read the floods. */
TEST(a_partial_flood_wait_in_either_order)
{
    uint64_t v[2][3];
    for (int order = 0; order < 2; order++) {
        REQUIRE(fx_setup("mesh", NULL, "3", 1) == 0);
        uint32_t m0[3] = { 1, 0, 0 }, m2[3] = { 0, 0, 2 }, v0 = 0xaaaa, v2 = 0xcccc;
        payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, m0, sizeof m0);
        payload(2, NIC_OP_FLOOD_RULES, 0, 0, 0, m2, sizeof m2);
        payload(0, NIC_OP_FLOOD, 0, 0, 1, &v0, 4);
        payload(2, NIC_OP_FLOOD, 10, 0, 1, &v2, 4);
        post(0, NIC_OP_EXIT, 1000, 0, 0, 0, 0);
        post(2, NIC_OP_EXIT, 1000, 0, 0, 0, 0);
        if (order == 1) {
            post(1, NIC_OP_STEP, 400, 0, 1, 0, 0);
            REQUIRE(poll_node(1) == 0);
        }
        REQUIRE(poll_node(0) == 0);
        REQUIRE(poll_node(2) == 0);
        uint32_t w = post(1, NIC_OP_FLOOD_WAIT, 500, 1, 1, 0, 0);
        REQUIRE(poll_node(1) == 0);
        engine_advance(&F.r);
        REQUIRE(answered(1, w));
        uint32_t r0, r2;
        memcpy(&r0, rx(1), 4);
        memcpy(&r2, rx(1) + 8, 4);
        v[order][0] = reply(1)->time_ns;
        v[order][1] = reply(1)->value;
        v[order][2] = (uint64_t)r0 << 32 | r2;
        fx_done();
    }
    CHECK_EQ_U64(v[0][0], 500);
    for (int k = 0; k < 3; k++)
        CHECK_EQ_U64(v[0][k], v[1][k]);
}

/* A flood message that the router may not take at another node's NIC
 * names its origin, the node that posted it, not the NIC it reached:
 * two origins flooding one tag with different lengths (the router named
 * the NIC where they met, which flooded nothing), and one whose flood the
 * router has no room for at a neighbour (named the neighbour) or for
 * whose copies it has none (named nobody). */
TEST(a_flood_the_router_refuses_names_its_origin)
{
    REQUIRE(hw_setup("4") == 0);
    uint32_t four = 4, eight[2] = { 8, 8 };
    flood_everywhere(0);
    flood_everywhere(3);
    payload(0, NIC_OP_FLOOD, 0, 0, 7, &four, 4);
    payload(3, NIC_OP_FLOOD, 0, 0, 7, eight, 8);
    REQUIRE(poll_node(0) == 0);
    REQUIRE(poll_node(3) == 0);
    for (int i = 0; i < 4; i++) {                     /* the network runs as the nodes end */
        post(i, NIC_OP_EXIT, 1000, 0, 0, 0, 0);
        engine_node_poll(&F.r, i);
    }
    CHECK(F.r.stopped);
    CHECK(strncmp(F.r.error, "node 0: ", 8) == 0 || strncmp(F.r.error, "node 3: ", 8) == 0);
    CHECK_CONTAINS(F.r.error, "flood message of tag 7 has ");
    CHECK(strstr(F.r.error, "where node 0's of that tag has 4") || strstr(F.r.error, "where node 3's of that tag has 8"));
    fx_done();

    REQUIRE(hw_setup("4") == 0);                      /* room for node 0's flood and its copies, not node 1's */
    uint32_t rules[4] = { 1u | 4u, 0, 0, 0 };
    payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, rules, sizeof rules);
    payload(0, NIC_OP_FLOOD, 0, 0, 7, &four, 4);
    engine_set_held_limit(&F.r, 4 * 6 + 2 * (4 + NIC_MSG_HELD_BYTES) + 10);
    REQUIRE(poll_node(0) == 0);
    for (int i = 0; i < 4; i++) {
        post(i, NIC_OP_EXIT, 1000, 0, 0, 0, 0);
        engine_node_poll(&F.r, i);
    }
    CHECK(F.r.stopped);
    CHECK_CONTAINS(F.r.error, "node 0: its flood of tag 7 would make the router hold 568 bytes at node ");
    fx_done();

    REQUIRE(hw_setup("4") == 0);                      /* no room for its second copy */
    payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, rules, sizeof rules);
    payload(0, NIC_OP_FLOOD, 0, 0, 7, &four, 4);
    engine_set_held_limit(&F.r, 4 * 6 + (4 + NIC_MSG_HELD_BYTES) + 10);
    CHECK_EQ_INT(poll_node(0), -1);
    CHECK_CONTAINS(F.r.error, "node 0: its flood of tag 7: the router would hold 544 bytes of messages and flood "
                              "copies, more than it may (294: ");
    fx_done();
}

TEST(flood_tags_and_indirect_networks_are_refused)
{
    REQUIRE(hw_setup("2") == 0);                      /* a tag flooded twice */
    uint32_t m0[2] = { 1, 0 }, v = 1;
    payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, m0, sizeof m0);
    payload(0, NIC_OP_FLOOD, 0, 0, 5, &v, 4);
    payload(0, NIC_OP_FLOOD, 200, 0, 5, &v, 4);
    expect_fails(0, "node 0: FLOOD descriptor 2: floods tag 5 a second time; successive floods take different tags",
                 __LINE__);
    REQUIRE(hw_setup("2") == 0);                      /* rules twice */
    uint32_t m1[2] = { 2, 0 };                         /* node 1: -x */
    payload(1, NIC_OP_FLOOD_RULES, 0, 0, 0, m1, sizeof m1);
    payload(1, NIC_OP_FLOOD_RULES, 1, 0, 0, m1, sizeof m1);
    expect_fails(1, "node 1: FLOOD_RULES descriptor 1: its NIC has its flood rules already", __LINE__);
    static const char *const topo[2] = { "banyan", "fattree" };
    for (int k = 0; k < 2; k++) {
        REQUIRE(fx_setup(topo[k], "4", NULL, 1) == 0);
        uint32_t m[4] = { 1, 1, 1, 1 };
        payload(0, NIC_OP_FLOOD_RULES, 0, 0, 0, m, sizeof m);
        expect_fails(0, "which leads to a switch: flooding in the NIC needs a direct network", __LINE__);
    }
}
