/* The rendezvous protocol (params eager_max, engine.h), driven by fake
 * nodes (router_fixture.h): 1 ns cycles, 10 cycles a hop, one-byte flits,
 * a 100 ns send start-up. A request-to-send and a clear-to-send are one
 * flit each, so on a 2-node mesh (one hop) each takes 11 ns. */
#include "router_fixture.h"

static int rdv_setup(const char *nodes, uint32_t eager_max)
{
    P.eager_max = eager_max;
    int rc = fx_setup("mesh", nodes, NULL, 1);
    P.eager_max = 0;                              /* the other tests' fixture is eager */
    return rc;
}

/* The receive is posted long after the request came: the clear leaves at
 * the RECV (1000), is in at 1011, and the data (200 flits) at 1221. */
TEST(long_message_leaves_when_its_receive_is_posted)
{
    REQUIRE(rdv_setup("2", 100) == 0);
    static uint8_t d[200];
    fill(d, sizeof d, 1);
    send(0, 0, 1, 5, d, sizeof d);                    /* request in at 0 + 100 + 10 + 1 = 111 */
    REQUIRE(poll_node(0) == 0);
    exit_node(0, 100, 0);
    uint32_t s = recv(1, 1000, 0, 5, 4096);
    REQUIRE(poll_node(1) == 0);
    REQUIRE(answered(1, s));
    CHECK_REPLY(1, s, NIC_REPLY_OK, 1000 + 11 + 10 + 200, 0, 5, 200);
    CHECK_MEM(rx(1), d, sizeof d);
    CHECK_EQ_U64(F.r.rdv_packets, 2);
    CHECK_EQ_U64(F.r.messages, 1);
    CHECK_EQ_U64(F.r.nlog, 1);                        /* the data alone is in the log */
    CHECK_EQ_U64(F.r.log[0].t_post, 0);
    CHECK_EQ_U64(F.r.log[0].t_ready, 1011);           /* it could enter when the clear was in */
    CHECK_EQ_U64(F.r.unreceived, 0);
    fx_done();
}

/* The receive is posted first: the clear leaves as the request's tail is
 * in (111), so the data arrives 2 x 11 ns later than an eager one would. */
TEST(a_posted_receive_clears_at_the_requests_arrival)
{
    REQUIRE(rdv_setup("2", 100) == 0);
    static uint8_t d[200];
    fill(d, sizeof d, 2);
    uint32_t s = recv(1, 0, 0, 5, 4096);
    REQUIRE(poll_node(1) == 0);
    send(0, 0, 1, 5, d, sizeof d);
    REQUIRE(poll_node(0) == 0);
    exit_node(0, 100, 0);
    REQUIRE(answered(1, s));
    CHECK_REPLY(1, s, NIC_REPLY_OK, 111 + 11 + 10 + 200, 0, 5, 200);
    CHECK_MEM(rx(1), d, sizeof d);
    fx_done();
}

/* eager_max itself is eager: no control worm, the usual latency. */
TEST(a_message_of_eager_max_bytes_is_eager)
{
    REQUIRE(rdv_setup("2", 100) == 0);
    static uint8_t d[100];
    fill(d, sizeof d, 3);
    uint32_t s = recv(1, 0, 0, 5, 4096);
    REQUIRE(poll_node(1) == 0);
    send(0, 0, 1, 5, d, sizeof d);
    REQUIRE(poll_node(0) == 0);
    exit_node(0, 100, 0);
    REQUIRE(answered(1, s));
    CHECK_REPLY(1, s, NIC_REPLY_OK, 100 + 10 + 100, 0, 5, 100);
    CHECK_EQ_U64(F.r.rdv_packets, 0);
    fx_done();
}

/* A request is matched as its message would be: a receive from any
 * source takes the earliest request (node 3's, in at 311), and only then
 * does that sender's data move; the other request waits for the next
 * receive. 2x2: node 3 is one hop from node 2, node 1 two. */
TEST(any_source_takes_the_earliest_request)
{
    REQUIRE(rdv_setup("4", 100) == 0);
    exit_node(0, 0, 0);
    static uint8_t a[150], b[160];
    fill(a, sizeof a, 4);
    fill(b, sizeof b, 5);
    send(1, 300, 2, 0, a, sizeof a);                  /* request in at 300 + 100 + 20 + 1 = 421 */
    REQUIRE(poll_node(1) == 0);
    send(3, 200, 2, 0, b, sizeof b);                  /* request in at 311 */
    REQUIRE(poll_node(3) == 0);
    exit_node(1, 400, 0);
    exit_node(3, 300, 0);
    uint32_t s = recv(2, 1000, NIC_ANY, NIC_ANY, 4096);
    REQUIRE(poll_node(2) == 0);
    REQUIRE(answered(2, s));
    CHECK_REPLY(2, s, NIC_REPLY_OK, 1000 + 11 + 10 + 160, 3, 0, 160);
    CHECK_MEM(rx(2), b, sizeof b);
    s = recv(2, 2000, NIC_ANY, NIC_ANY, 4096);
    REQUIRE(poll_node(2) == 0);
    REQUIRE(answered(2, s));
    CHECK_REPLY(2, s, NIC_REPLY_OK, 2000 + 21 + 20 + 150, 1, 0, 150);
    CHECK_MEM(rx(2), a, sizeof a);
    CHECK_EQ_U64(F.r.rdv_packets, 4);
    fx_done();
}

/* A probe sees a request as the message it stands for, and takes nothing;
 * a pair's eager message sent after a long one is received after it. */
TEST(probe_and_pair_order_see_the_request_as_its_message)
{
    REQUIRE(rdv_setup("2", 100) == 0);
    static uint8_t big[300], small[10];
    fill(big, sizeof big, 6);
    fill(small, sizeof small, 7);
    send(0, 0, 1, 9, big, sizeof big);                /* request in at 111 */
    send(0, 100, 1, 9, small, sizeof small);          /* in at 100 + 100 + 10 + 10 = 220 */
    REQUIRE(poll_node(0) == 0);
    exit_node(0, 200, 0);
    uint32_t s = probe(1, 500, NIC_ANY, NIC_ANY);
    REQUIRE(poll_node(1) == 0);
    REQUIRE(answered(1, s));
    CHECK_REPLY(1, s, NIC_REPLY_OK, 500, 0, 9, 300);
    s = recv(1, 600, 0, 9, 4096);
    REQUIRE(poll_node(1) == 0);
    REQUIRE(answered(1, s));
    CHECK_REPLY(1, s, NIC_REPLY_OK, 600 + 11 + 10 + 300, 0, 9, 300);
    CHECK_MEM(rx(1), big, sizeof big);
    s = recv(1, 1000, 0, 9, 4096);
    REQUIRE(poll_node(1) == 0);
    REQUIRE(answered(1, s));
    CHECK_REPLY(1, s, NIC_REPLY_OK, 1000, 0, 9, 10);
    CHECK_MEM(rx(1), small, sizeof small);
    fx_done();
}

/* WAIT_SENT waits for the data's tail to leave, which waits for the
 * clear: RECV at 500, clear in at 511, tail out at 511 + 200. */
TEST(wait_sent_waits_for_the_cleared_data)
{
    REQUIRE(rdv_setup("2", 100) == 0);
    static uint8_t d[200];
    fill(d, sizeof d, 8);
    send(0, 0, 1, 1, d, sizeof d);
    uint32_t w = post(0, NIC_OP_WAIT_SENT, 100, 0, 0, 0, 0);
    REQUIRE(poll_node(0) == 0);
    uint32_t s = recv(1, 500, 0, 1, 4096);
    REQUIRE(poll_node(1) == 0);
    REQUIRE(answered(0, w));
    CHECK_EQ_U64(reply(0)->time_ns, 511 + 200);
    CHECK(!answered(1, s));                           /* node 0 could still send first */
    exit_node(0, 711, 0);
    REQUIRE(answered(1, s));
    CHECK_EQ_U64(reply(1)->time_ns, 511 + 10 + 200);
    fx_done();
}

/* A receiver that ends with a request unanswered: the message is counted
 * unreceived and its held data released with it (held_total back to 0). */
TEST(a_request_never_received_is_counted_and_freed)
{
    REQUIRE(rdv_setup("2", 100) == 0);
    static uint8_t d[200];
    fill(d, sizeof d, 9);
    send(0, 0, 1, 1, d, sizeof d);
    REQUIRE(poll_node(0) == 0);
    exit_node(0, 100, 0);
    exit_node(1, 1000, 0);
    CHECK_EQ_U64(F.r.unreceived, 1);
    CHECK_EQ_U64(F.r.rdv_packets, 1);                 /* no clear was sent */
    CHECK_EQ_U64(F.r.held_total, 0);
    CHECK_EQ_U64(F.r.nlog, 0);
    fx_done();
}


/* Two nodes that each wait for their own long message to leave before
 * they receive: eager, both messages go and both receive; by rendezvous
 * neither data moves before a receive is posted, so both wait for ever
 * (the engine sees the deadlock: every node blocked, nothing in flight). */
TEST(waiting_for_ones_own_long_send_deadlocks_only_by_rendezvous)
{
    static uint8_t d[200];
    fill(d, sizeof d, 10);
    for (uint32_t em = 0; em <= 100; em += 100) {
        REQUIRE(rdv_setup("2", em) == 0);
        uint32_t w[2];
        for (int k = 0; k < 2; k++) {
            send(k, 0, 1 - k, 1, d, sizeof d);
            w[k] = post(k, NIC_OP_WAIT_SENT, 100, 0, 0, 0, 0);
            REQUIRE(poll_node(k) == 0);
        }
        if (em == 0) {
            REQUIRE(answered(0, w[0]) && answered(1, w[1]));
            CHECK(!engine_deadlocked(&F.r));
        } else {
            CHECK(!answered(0, w[0]) && !answered(1, w[1]));
            CHECK(engine_deadlocked(&F.r));
            CHECK_EQ_U64(F.r.rdv_packets, 2);
            CHECK_EQ_U64(F.r.rdv_messages, 2);
            char why[400];
            engine_wait_detail(&F.r, why, sizeof why);
            CHECK_STR(why, "node 0 waits in WAIT_SENT for its message to node 1, held until that node posts its "
                      "receive (eager_max = 100); node 1 waits in WAIT_SENT for its message to node 0, held until "
                      "that node posts its receive (eager_max = 100)");
        }
        fx_done();
    }
}

/* The host's polling order moves no time. A: a clear-to-send under
 * cycles shorter than 1 ns, its RECV checked once with the network idle
 * and once with it busy (another node's worm ready later). */
static void sub_ns_recv_time(int busy_first, uint32_t byte_ps, uint64_t *t)
{
    static uint8_t d[200], e[50];
    fill(d, sizeof d, 11);
    fill(e, sizeof e, 12);
    *t = 0;
    P.net.byte_ps = byte_ps;
    int rc = rdv_setup("4", 100);
    P.net.byte_ps = 1000;
    REQUIRE(rc == 0);
    send(0, 0, 1, 5, d, sizeof d);
    REQUIRE(poll_node(0) == 0);
    exit_node(0, 100, 0);
    exit_node(3, 0, 0);
    post(2, NIC_OP_STEP, 1500, 0, 0, 0, 0);
    REQUIRE(poll_node(2) == 0);
    uint32_t s;
    if (!busy_first) {
        s = recv(1, 1000, 0, 5, 4096);
        REQUIRE(poll_node(1) == 0);
        send(2, 2000, 3, 1, e, sizeof e);
        REQUIRE(poll_node(2) == 0);
    } else {
        send(2, 2000, 3, 1, e, sizeof e);
        REQUIRE(poll_node(2) == 0);
        s = recv(1, 1000, 0, 5, 4096);
        REQUIRE(poll_node(1) == 0);
    }
    exit_node(2, 5000, 0);
    REQUIRE(answered(1, s));
    *t = reply(1)->time_ns;
    fx_done();
}

TEST(poll_order_moves_no_clear_under_sub_ns_cycles)
{
    for (uint32_t bps = 300; bps <= 1000; bps += 100) {
        uint64_t idle, busy;
        sub_ns_recv_time(0, bps, &idle);
        sub_ns_recv_time(1, bps, &busy);
        CHECK(idle > 0);
        CHECK_EQ_U64(idle, busy);
    }
}

/* B: a rendezvous' data is queued when its clear arrives (122 here), and
 * a fetch-and-increment request of its node is ready at the same time;
 * whichever the router learns of first, the data (the earlier number)
 * goes first. */
static void data_against_fetch_inc(int network_first, uint64_t *t_fi, uint64_t *t_recv)
{
    static uint8_t d[200];
    fill(d, sizeof d, 13);
    *t_fi = *t_recv = 0;
    P.fi_ns = 3;
    int rc = rdv_setup("4", 100);
    P.fi_ns = 0;
    REQUIRE(rc == 0);
    uint32_t s = recv(1, 0, 0, 5, 4096), f;
    REQUIRE(poll_node(1) == 0);
    send(0, 0, 1, 5, d, sizeof d);
    post(0, NIC_OP_STEP, 122, 0, 0, 0, 0);
    if (network_first) {
        exit_node(3, 0, 0);
        exit_node(2, 0, 0);
        REQUIRE(poll_node(0) == 0);                   /* the network reaches 122: the data is queued */
        f = post(0, NIC_OP_FETCH_INC, 122, 2, 0, 0, 0);
        REQUIRE(poll_node(0) == 0);
    } else {
        f = post(0, NIC_OP_FETCH_INC, 122, 2, 0, 0, 0);
        REQUIRE(poll_node(0) == 0);                   /* nodes 2 and 3 hold the network back */
        exit_node(2, 0, 0);
        exit_node(3, 0, 0);
    }
    REQUIRE(answered(0, f));
    *t_fi = reply(0)->time_ns;
    exit_node(0, *t_fi, 0);
    REQUIRE(answered(1, s));
    *t_recv = reply(1)->time_ns;
    fx_done();
}

TEST(poll_order_moves_no_data_against_a_same_time_worm)
{
    uint64_t a_fi, a_recv, b_fi, b_recv;
    data_against_fetch_inc(1, &a_fi, &a_recv);
    data_against_fetch_inc(0, &b_fi, &b_recv);
    CHECK_EQ_U64(a_recv, 122 + 10 + 200);             /* the data first: 1 hop, 200 flits */
    CHECK_EQ_U64(a_fi, b_fi);
    CHECK_EQ_U64(a_recv, b_recv);
}

/* A receiver that ends with a request in its mailbox: its sender's NIC
 * drops the data then, so the sender's WAIT_SENT is answered (at the
 * receiver's end, or its own time if later) whether it came first or not. */
TEST(a_dropped_request_no_longer_holds_wait_sent)
{
    static uint8_t d[200];
    fill(d, sizeof d, 14);
    for (int wait_first = 0; wait_first < 2; wait_first++) {
        REQUIRE(rdv_setup("2", 100) == 0);
        send(0, 0, 1, 1, d, sizeof d);
        REQUIRE(poll_node(0) == 0);
        uint32_t w = 0;
        if (wait_first) {
            w = post(0, NIC_OP_WAIT_SENT, 500, 0, 0, 0, 0);
            REQUIRE(poll_node(0) == 0);
            CHECK(!answered(0, w));
        }
        exit_node(1, 1000, 0);
        if (!wait_first) {
            w = post(0, NIC_OP_WAIT_SENT, 500, 0, 0, 0, 0);
            REQUIRE(poll_node(0) == 0);
        }
        REQUIRE(answered(0, w));
        CHECK_EQ_U64(reply(0)->time_ns, 1000);
        CHECK_EQ_U64(F.r.nodes[0].unleft, 0);
        CHECK_EQ_U64(F.r.unreceived, 1);
        CHECK_EQ_U64(F.r.held_total, 0);
        fx_done();
    }
}

/* held_max bounds what a node has not received by rendezvous too: the
 * data its waiting requests stand for counts in its mailbox, so a node
 * that never receives fails by held_max, named, at the same message. */
static void held_max_failure(uint32_t eager_max, char *why, size_t len, int *sends)
{
    static uint8_t d[4000];
    fill(d, sizeof d, 15);
    uint32_t held = P.held_max;
    P.held_max = 65536;
    int rc = rdv_setup("2", eager_max);
    P.held_max = held;
    REQUIRE(rc == 0);
    recv(1, 0, 0, 99, 4096);                          /* waits for a tag never sent */
    REQUIRE(poll_node(1) == 0);
    int k;
    for (k = 0; k < 40 && F.r.failed_node < 0; k++) {
        send(0, (uint64_t)k * 10000, 1, 1, d, sizeof d);
        post(0, NIC_OP_STEP, (uint64_t)k * 10000 + 9000, 0, 0, 0, 0);
        if (poll_node(0))
            break;
    }
    snprintf(why, len, "%s", F.r.error);
    *sends = F.r.failed_node == 1 ? k : -1;
    fx_done();
}

TEST(held_max_bounds_a_node_that_never_receives_either_way)
{
    char eager[512], rdv[512];
    int ke, kr;
    held_max_failure(0, eager, sizeof eager, &ke);
    held_max_failure(100, rdv, sizeof rdv, &kr);
    CHECK(ke > 0);
    CHECK_EQ_INT(kr, ke);
    CHECK(strstr(eager, "more than held_max") != NULL);
    CHECK(strstr(rdv, "more than held_max") != NULL);
    CHECK(strstr(rdv, "arrived (or announced by a request-to-send) that it has not received") != NULL);
    CHECK(strstr(eager, "request-to-send") == NULL);
}
