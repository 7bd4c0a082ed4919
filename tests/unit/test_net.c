/* The flit-level network (host/net/: net_core.c run by net.c), each check against a figure worked
 * out by hand from the model in net_model.h. Cycle = flit_bytes x byte_ps: with
 * 8-byte flits at 1000 ps per byte, one cycle is 8 ns. */
#include <string.h>
#include <stdlib.h>
#include "check.h"
#include "net/net_model.h"
#include "net_fixture.h"
#include "net/net_state.h"
#include "params.h"

static struct net_params params(uint32_t vcs, uint32_t hop, enum switching sw)
{
    return (struct net_params){ .flit_bytes = 8, .byte_ps = 1000, .hop_cycles = hop, .vcs = vcs,
                                .buf_flits = 4, .header_flits = 0, .ports = 0, .nic_cycles = 1, .nic_vcs = 1,
                                .switching = sw };
}

static struct net *mk(const struct topo_shape *m, const struct net_params *p)
{
    char err[256];
    struct net *n = net_new(m, p, err, sizeof err);
    if (!n)
        check_fail(__FILE__, __LINE__, "net_new: %s", err);
    return n;
}

static struct net_msg *msg(int src, int dst, uint32_t len, uint64_t t_ready_ns, uint64_t seq)
{
    struct net_msg *m = calloc(1, sizeof *m);
    m->src = src;
    m->dst = dst;
    m->len = len;
    m->seq = seq;
    m->t_ready_ns = t_ready_ns;
    return m;
}

/* Run to completion; return how many messages arrived. */
static int drain(struct net *n)
{
    int got = 0;
    struct net_msg *a, *l;
    while (net_busy(n))
        if (net_run(n, UINT64_MAX, &a, &l))
            for (; a; a = a->next_done)
                got++;
    return got;
}

TEST(uncontended_latency_is_D_hop_plus_F)
{
    struct topo_shape m = mach("mesh", NULL, "4x4", TOPO_ONE_PORT);
    for (uint32_t hop = 1; hop <= 3; hop++) {
        struct net_params p = params(2, hop, SW_WORMHOLE);
        struct net *n = mk(&m, &p);
        CHECK_EQ_U64(net_cycle_ps(n), 8000);
        struct net_msg *a = msg(0, 15, 64, 0, 0);         /* 8 flits, D = 6 */
        net_inject(n, a);
        CHECK_EQ_INT(drain(n), 1);
        CHECK_EQ_INT(a->hops, 6);
        CHECK_EQ_U64(a->flits, 8);
        CHECK_EQ_U64(a->c_inject, 0);
        CHECK_EQ_U64(a->c_arrive, 6 * hop + 8);           /* D x hop + F */
        CHECK_EQ_U64(a->c_head, 6 * hop + 1);
        CHECK_EQ_U64(a->c_leave, 8);                      /* F flits at one per cycle */
        CHECK_EQ_U64(a->blocked_cycles, 0);
        free(a);
        net_free(n);
    }
}

/* Credits (net_model.h): a flit's credit comes back hop + 1 cycles after
 * it was sent, so a VC of b flits lets out b flits per hop + 1 cycles when
 * b < hop + 1, and streams at the link rate otherwise: flit i of a lone
 * worm leaves its source at max(i, (i / b) (hop + 1) + i % b), and the tail
 * arrives D hop + 1 cycles after it leaves. Buffers of every size from 1
 * to 6, powers of two or not. */
TEST(a_buffer_short_of_the_credit_round_trip_throttles_the_worm)
{
    struct topo_shape m = mach("mesh", NULL, "4x1", TOPO_ONE_PORT);
    for (uint32_t hop = 1; hop <= 4; hop++)
        for (uint32_t b = 1; b <= 6; b++) {
            struct net_params p = params(2, hop, SW_WORMHOLE);
            p.buf_flits = b;
            struct net *n = mk(&m, &p);
            struct net_msg *a = msg(0, 3, 8 * 64, 0, 0);      /* 64 flits, D = 3 */
            net_inject(n, a);
            CHECK_EQ_INT(drain(n), 1);
            uint64_t i = 63, burst = i / b * (hop + 1) + i % b, sent = burst > i ? burst : i;
            CHECK_EQ_U64(a->c_arrive, sent + 3 * hop + 1);
            free(a);
            net_free(n);
        }
}

/* credit_delay d: a credit comes back hop + 1 + d cycles after its flit
 * was sent, so the same closed form holds with that loop: flit i leaves
 * at max(i, (i / b) (hop + 1 + d) + i % b). A buffer as deep as the loop
 * streams; d = 0 is the test above. */
TEST(credit_delay_stretches_the_credit_loop)
{
    struct topo_shape m = mach("mesh", NULL, "4x1", TOPO_ONE_PORT);
    for (uint32_t hop = 1; hop <= 3; hop++)
        for (uint32_t d = 1; d <= 3; d++)
            for (uint32_t b = 1; b <= 8; b++) {
                struct net_params p = params(2, hop, SW_WORMHOLE);
                p.buf_flits = b;
                p.credit_delay = d;
                struct net *n = mk(&m, &p);
                struct net_msg *a = msg(0, 3, 8 * 64, 0, 0);      /* 64 flits, D = 3 */
                net_inject(n, a);
                CHECK_EQ_INT(drain(n), 1);
                uint64_t i = 63, loop = hop + 1 + d, burst = i / b * loop + i % b, sent = burst > i ? burst : i;
                CHECK_EQ_U64(a->c_arrive, sent + 3 * hop + 1);
                CHECK_EQ_U64(a->blocked_cycles, sent - i);  /* each cycle a flit waits for a credit */
                free(a);
                net_free(n);
            }
}

/* A NIC at half the link rate: the body follows every other cycle, so
 * arrival = D x hop + (F - 1) x 2 + 1; two worms sharing a link (both
 * NIC-limited) then cost no more than one: seed 003's gamma = 1. */
TEST(slow_nic_sets_the_pace_and_links_have_room_for_two)
{
    struct topo_shape m = mach("mesh", NULL, "4x1", TOPO_ONE_PORT);
    struct net_params p = params(2, 1, SW_WORMHOLE);
    p.nic_cycles = 2;
    struct net *n = mk(&m, &p);
    struct net_msg *a = msg(0, 3, 64, 0, 0);
    net_inject(n, a);
    drain(n);
    CHECK_EQ_U64(a->c_arrive, 3 + 7 * 2 + 1);
    net_free(n);
    n = mk(&m, &p);
    struct net_msg *x = msg(0, 2, 64, 0, 0), *y = msg(1, 3, 64, 0, 0);
    net_inject(n, x);
    net_inject(n, y);
    drain(n);
    CHECK_EQ_U64(y->c_arrive, 2 + 7 * 2 + 1);
    CHECK(x->c_arrive <= 2 + 7 * 2 + 1 + 2);             /* at most a cycle or two of interference */
    free(a);
    free(x);
    free(y);
    net_free(n);
}

TEST(injection_waits_for_its_ready_time_rounded_up_to_a_cycle)
{
    struct topo_shape m = mach("mesh", NULL, "4x1", TOPO_ONE_PORT);
    struct net_params p = params(1, 1, SW_WORMHOLE);
    struct net *n = mk(&m, &p);
    struct net_msg *a = msg(0, 3, 1, 20, 0);              /* ready at 20 ns: cycle 3 (24 ns) */
    net_inject(n, a);
    drain(n);
    CHECK_EQ_U64(a->c_inject, 3);
    CHECK_EQ_U64(a->c_arrive, 3 + 3 * 1 + 1);
    free(a);
    net_free(n);
}

TEST(torus_takes_the_short_way_and_ties_go_plus)
{
    struct topo_shape m = mach("torus", NULL, "8x8", TOPO_ONE_PORT);
    struct net_params p = params(2, 1, SW_WORMHOLE);
    struct net *n = mk(&m, &p);
    struct net_msg *a = msg(0, 7, 8, 0, 0);               /* one hop over the wrap link, going - */
    struct net_msg *b = msg(8, 12, 8, 0, 0);              /* offset 4 = k/2: goes + */
    net_inject(n, a);
    net_inject(n, b);
    drain(n);
    CHECK_EQ_U64(a->c_arrive, 1 + 1);
    CHECK_EQ_U64(b->c_arrive, 4 + 1);
    int nl;
    const struct link_stats *ls = net_link_stats(n, &nl);
    CHECK_EQ_U64(ls[0 * 4 + 1].flits, 1);                 /* node 0, dim 0, - */
    for (int x = 8; x < 12; x++)
        CHECK_EQ_U64(ls[x * 4 + 0].flits, 1);             /* nodes 8..11, dim 0, + */
    CHECK_EQ_U64(ls[8 * 4 + 1].flits, 0);
    free(a);
    free(b);
    net_free(n);
}

/* tie=source-parity: an offset of k/2 goes + from an even coordinate and
 * - from an odd one, in the same 4 hops; other offsets take the short way
 * as before. */
TEST(torus_ties_split_by_source_parity)
{
    struct topo_shape m = mach("torus", NULL, "8x8", TOPO_ONE_PORT);
    struct net_params p = params(2, 1, SW_WORMHOLE);
    p.tie = TIE_SOURCE_PARITY;
    struct net *n = mk(&m, &p);
    struct net_msg *a = msg(8, 12, 8, 0, 0);              /* x = 0, even: + through 8..11 */
    struct net_msg *b = msg(17, 21, 8, 0, 0);             /* x = 1, odd: - through 17, 16, 23, 22 */
    struct net_msg *c = msg(25, 28, 8, 0, 0);             /* offset 3: + whatever the parity */
    net_inject(n, a);
    net_inject(n, b);
    net_inject(n, c);
    drain(n);
    CHECK_EQ_U64(a->c_arrive, 4 + 1);
    CHECK_EQ_U64(b->c_arrive, 4 + 1);
    CHECK_EQ_U64(c->c_arrive, 3 + 1);
    int nl;
    const struct link_stats *ls = net_link_stats(n, &nl);
    for (int x = 8; x < 12; x++)
        CHECK_EQ_U64(ls[x * 4 + 0].flits, 1);             /* dim 0, + */
    const int minus[] = { 17, 16, 23, 22 };
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_U64(ls[minus[i] * 4 + 1].flits, 1);      /* dim 0, - */
        CHECK_EQ_U64(ls[minus[i] * 4 + 0].flits, 0);
    }
    CHECK_EQ_U64(ls[25 * 4 + 0].flits, 1);
    CHECK_EQ_U64(ls[25 * 4 + 1].flits, 0);
    free(a);
    free(b);
    free(c);
    net_free(n);
}

/* A unidirectional 8-ring: 0 -> 7 goes the long way, 7 hops, all +; the
 * bidirectional one takes the wrap link back, 1 hop. All-to-all still
 * drains (the dateline classes break the ring's cycle). */
TEST(unidirectional_torus_goes_plus_only)
{
    struct topo_shape m = mach("torus", NULL, "8x1", TOPO_ONE_PORT);
    struct net_params p = params(2, 1, SW_WORMHOLE);
    p.unidirectional = 1;
    struct net *n = mk(&m, &p);
    struct net_msg *a = msg(0, 7, 8, 0, 0);
    net_inject(n, a);
    drain(n);
    CHECK_EQ_INT(a->hops, 7);
    CHECK_EQ_U64(a->c_arrive, 7 + 1);
    CHECK(!net_link_exists(n, 0, 0, -1));
    CHECK(net_link_exists(n, 7, 0, +1));
    int path[16];
    CHECK_EQ_INT(net_path(n, 0, 7, path, 16), 7);
    free(a);
    net_free(n);
    n = mk(&m, &p);
    struct net_msg *ms = calloc(64, sizeof *ms);
    int k = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            if (i != j) {
                ms[k].src = i; ms[k].dst = j; ms[k].len = 64; ms[k].seq = (uint64_t)j;
                net_inject(n, &ms[k++]);
            }
    CHECK_EQ_INT(drain(n), 56);
    free(ms);
    net_free(n);
}

/* Worms A (0 -> 2) and B (1 -> 3), 8 flits each, on a 4x1 mesh share the
 * link 1 -> 2. B gets there first (cycle 0; A's head reaches router 1 at
 * cycle 1). With one VC, A waits until B's tail has crossed (cycles 0-7),
 * crosses in cycles 8-15, and its tail leaves the network at 8 + 1 + 8 = 17,
 * while B is done at 2 + 8 = 10. With two VCs the link alternates, flit by
 * flit: B in cycles 0, 2, ..., 14 and A in 1, 3, ..., 15, so B's tail is
 * out at 14 + 2 + 1 = 17 and A's at 15 + 1 + 1 = 17. */
TEST(contending_worms_serialize_without_vcs_and_share_with_them)
{
    struct topo_shape m = mach("mesh", NULL, "4x1", TOPO_ONE_PORT);
    struct net_params p1 = params(1, 1, SW_WORMHOLE);
    struct net *n = mk(&m, &p1);
    struct net_msg *a = msg(0, 2, 64, 0, 0), *b = msg(1, 3, 64, 0, 0);
    net_inject(n, a);
    net_inject(n, b);
    drain(n);
    CHECK_EQ_U64(b->c_arrive, 2 + 8);
    CHECK_EQ_U64(a->c_arrive, 17);
    CHECK(a->blocked_cycles >= 7);
    int nl;
    const struct link_stats *ls = net_link_stats(n, &nl);
    const struct link_stats *l12 = &ls[1 * 4 + 0];         /* 4x1 is 2D: 4 link ports a node */
    CHECK_EQ_U64(l12->worms, 2);
    CHECK_EQ_U64(l12->flits, 16);
    CHECK(l12->blocked >= 7);
    net_free(n);

    struct net_params p2 = params(2, 1, SW_WORMHOLE);
    n = mk(&m, &p2);
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    *a = *msg(0, 2, 64, 0, 0);
    *b = *msg(1, 3, 64, 0, 0);
    net_inject(n, a);
    net_inject(n, b);
    drain(n);
    CHECK_EQ_U64(a->c_arrive, 17);
    CHECK_EQ_U64(b->c_arrive, 17);
    free(a);
    free(b);
    net_free(n);
}

/* Store-and-forward: a router forwards a worm only when all F flits are
 * in; each hop then costs hop + F - 1 more cycles than under wormhole, so
 * the latency grows with D x F (D x L / B). */
TEST(store_and_forward_latency_grows_with_distance_times_length)
{
    struct topo_shape m = mach("mesh", NULL, "8x1", TOPO_ONE_PORT);
    for (int sw = 0; sw < 3; sw++) {
        struct net_params p = params(2, 1, (enum switching)sw);
        for (int d = 1; d <= 7; d += 3) {
            struct net *n = mk(&m, &p);
            struct net_msg *a = msg(0, d, 128, 0, 0);     /* 16 flits */
            net_inject(n, a);
            drain(n);
            /* wormhole and cut-through, uncontended: D x hop + F.
             * Store-and-forward: the head leaves router 0 once the tail is
             * in (cycle 15) and each further router once the tail has
             * crossed to it (16 cycles later); the destination router ejects
             * as flits come: head in at 16 D, tail out at 16 D + 15, so the
             * arrival is 16 D + 16 = D (hop + F - 1) + F + ... = (D + 1) F. */
            uint64_t want = sw == SW_STORE_FORWARD ? (uint64_t)(d + 1) * 16 : (uint64_t)d + 16;
            if (a->c_arrive != want)
                check_fail(__FILE__, __LINE__, "%s, D=%d: arrival %llu, expected %llu",
                           switching_names[sw], d,
                           (unsigned long long)a->c_arrive, (unsigned long long)want);
            free(a);
            net_free(n);
        }
    }
}

/* The uncontended time (net_uncontended_cycles; the "transfer" of a
 * message's time split, the rest of its time in the network being
 * "blocked") is what a lone worm takes, in every switching mode, on every
 * topology, at any hop time, NIC pace, header and length. */
TEST(uncontended_time_is_a_lone_worms_in_every_switching)
{
    static const struct { const char *topo, *nodes, *dims; int src, dst; } nets[] = {
        { "mesh", NULL, "8x1", 0, 7 }, { "mesh", NULL, "4x4", 0, 15 }, { "torus", NULL, "5x5", 0, 12 },
        { "hypercube", "16", NULL, 0, 15 }, { "banyan", "16", NULL, 3, 12 }, { "fattree", "16", NULL, 1, 14 },
    };
    int checked = 0;
    for (size_t t = 0; t < sizeof nets / sizeof *nets; t++)
        for (int sw = 0; sw < 3; sw++)
            for (uint32_t hop = 1; hop <= 3; hop += 2)
                for (uint32_t nic = 1; nic <= 2; nic++)
                    for (uint32_t len = 8; len <= 200; len += 96) {
                        struct topo_shape m = mach(nets[t].topo, nets[t].nodes, nets[t].dims, TOPO_ONE_PORT);
                        struct net_params p = params(2, hop, (enum switching)sw);
                        p.nic_cycles = nic;
                        p.header_flits = len > 100;
                        struct net *n = mk(&m, &p);
                        struct net_msg *a = msg(nets[t].src, nets[t].dst, len, 0, 0);
                        net_inject(n, a);
                        CHECK_EQ_INT(drain(n), 1);
                        uint64_t want = net_uncontended_cycles(n, a->hops, a->flits);
                        if (a->c_arrive - a->c_inject != want || a->blocked_cycles)
                            check_fail(__FILE__, __LINE__, "%s %s, %s, hop %u, nic %u, %u flits, %d hops: "
                                       "%llu cycles in the network, uncontended %llu", nets[t].topo,
                                       nets[t].dims ? nets[t].dims : nets[t].nodes, switching_names[sw], hop,
                                       nic, a->flits, a->hops, (unsigned long long)(a->c_arrive - a->c_inject),
                                       (unsigned long long)want);
                        checked++;
                        free(a);
                        net_free(n);
                    }
    CHECK_EQ_INT(checked, 6 * 3 * 2 * 2 * 3);
}

/* Store-and-forward with several worms queued at one NIC: each one still
 * leaves once its own tail is in (the next worm's flits follow it into the
 * same injection buffer). Two 16-flit worms 0 -> 1 on an 8x1 mesh: the
 * first arrives at (1 + 1) x 16 = 32, the second enters right behind it
 * (flits 16-31), so its tail is in at 31 and it arrives at 48. */
TEST(store_and_forward_with_queued_worms)
{
    struct topo_shape m = mach("mesh", NULL, "8x1", TOPO_ONE_PORT);
    struct net_params p = params(2, 1, SW_STORE_FORWARD);
    struct net *n = mk(&m, &p);
    struct net_msg *a = msg(0, 1, 128, 0, 0), *b = msg(0, 1, 128, 0, 1);
    net_inject(n, a);
    net_inject(n, b);
    CHECK_EQ_INT(drain(n), 2);
    CHECK_EQ_U64(a->c_arrive, 32);
    CHECK_EQ_U64(b->c_arrive, 48);
    free(a);
    free(b);
    net_free(n);
}

/* Node 0 of a 3x3 torus sends one 8-flit message to each of its four
 * neighbours. One-port: they leave one after the other through the single
 * injection channel, the last done at 3 x 8 + 1 + 8 = 33. All-port: each
 * goes out on its own channel at once, all done at 1 + 8 = 9. */
TEST(all_port_beats_one_port_on_a_neighbour_broadcast)
{
    int dst[4] = { 1, 2, 3, 6 };
    uint64_t last[2] = { 0, 0 };
    for (int pm = 0; pm < 2; pm++) {
        struct topo_shape m = mach("torus", NULL, "3x3", pm ? TOPO_ALL_PORT : TOPO_ONE_PORT);
        struct net_params p = params(2, 1, SW_WORMHOLE);
        struct net *n = mk(&m, &p);
        struct net_msg *ms[4];
        for (int i = 0; i < 4; i++) {
            ms[i] = msg(0, dst[i], 64, 0, (uint64_t)i);
            net_inject(n, ms[i]);
        }
        CHECK_EQ_INT(drain(n), 4);
        for (int i = 0; i < 4; i++) {
            if (ms[i]->c_arrive > last[pm])
                last[pm] = ms[i]->c_arrive;
            free(ms[i]);
        }
        net_free(n);
    }
    CHECK_EQ_U64(last[0], 33);
    CHECK_EQ_U64(last[1], 9);
}

/* A one-port node consumes one worm at a time: two worms arriving at once
 * at node 1 of a 3x1 mesh, from 0 and 2, are ejected one after the other. */
TEST(one_port_ejection_serializes_arrivals)
{
    for (int pm = 0; pm < 2; pm++) {
        struct topo_shape m = mach("mesh", NULL, "3x1", pm ? TOPO_ALL_PORT : TOPO_ONE_PORT);
        struct net_params p = params(2, 1, SW_WORMHOLE);
        struct net *n = mk(&m, &p);
        struct net_msg *a = msg(0, 1, 64, 0, 0), *b = msg(2, 1, 64, 0, 0);
        net_inject(n, a);
        net_inject(n, b);
        drain(n);
        uint64_t first = a->c_arrive < b->c_arrive ? a->c_arrive : b->c_arrive;
        uint64_t second = a->c_arrive < b->c_arrive ? b->c_arrive : a->c_arrive;
        CHECK_EQ_U64(first, 1 + 8);
        CHECK_EQ_U64(second, pm ? 1 + 8 : 1 + 8 + 8);
        free(a);
        free(b);
        net_free(n);
    }
}

/* All-to-all traffic on tori with the dateline classes never stalls: every
 * message arrives (network deadlock is impossible by construction). */
TEST(all_to_all_on_tori_always_drains)
{
    static const char *const shapes[] = { "4x4", "5x5", "8x8", "3x3x3", "2x4" };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (uint32_t buf = 1; buf <= 4; buf += 3) {
            struct topo_shape m = mach("torus", NULL, shapes[s], TOPO_ONE_PORT);
            struct net_params p = params(2, 1, SW_WORMHOLE);
            p.buf_flits = buf;
            struct net *n = mk(&m, &p);
            int N = m.nodes, k = 0;
            struct net_msg *ms = calloc((size_t)N * (size_t)N, sizeof *ms);
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++)
                    if (i != j) {
                        struct net_msg *x = &ms[k++];
                        x->src = i; x->dst = j; x->len = 40; x->seq = (uint64_t)j;
                        net_inject(n, x);
                    }
            uint64_t guard = 0;
            int got = 0;
            struct net_msg *a, *l;
            while (net_busy(n) && guard++ < 10000000)
                if (net_run(n, net_now(n) + 100000, &a, &l))
                    for (; a; a = a->next_done)
                        got++;
            if (got != k)
                check_fail(__FILE__, __LINE__, "torus %s, %u-flit buffers: %d of %d messages arrived",
                           shapes[s], buf, got, k);
            free(ms);
            net_free(n);
        }
}

TEST(a_torus_needs_two_vcs)
{
    struct topo_shape m = mach("torus", NULL, "4x4", TOPO_ONE_PORT);
    struct net_params p = params(1, 1, SW_WORMHOLE);
    char err[256];
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "at least 2 virtual channels");
}

/* A network too big for the memory left is refused with a reason, not a
 * crash on the first unchecked allocation: 16x16 torus routers with
 * 2^20-flit buffers (24 MiB a VC), under a 256 MiB address-space limit in
 * a child process. */
static int short_network(void)
{
    struct topo_shape m = mach("torus", NULL, "16x16", TOPO_ONE_PORT);
    struct net_params p = params(2, 1, SW_WORMHOLE);
    p.buf_flits = 1u << 20;
    char err[256] = "";
    struct net *n = net_new(&m, &p, err, sizeof err);
    return n ? 3 : strstr(err, "no memory for the network model of 256 routers") ? 0 : 4;
}

TEST(a_network_short_of_memory_is_refused)
{
    CHECK_EQ_INT(check_under_memory_limit(256u << 20, short_network), 0);
}

TEST(run_stops_at_end_and_after_events)
{
    struct topo_shape m = mach("mesh", NULL, "4x1", TOPO_ONE_PORT);
    struct net_params p = params(1, 1, SW_WORMHOLE);
    struct net *n = mk(&m, &p);
    struct net_msg *a = msg(0, 3, 16, 0, 0);              /* 2 flits: leaves at 2, arrives at 5 */
    net_inject(n, a);
    struct net_msg *arr, *left;
    CHECK_EQ_INT(net_run(n, 1, &arr, &left), 0);         /* cycle 0 only */
    CHECK_EQ_U64(net_now(n), 1);
    CHECK_EQ_INT(net_run(n, 100, &arr, &left), 1);
    CHECK(left == a && arr == NULL);
    CHECK_EQ_U64(net_now(n), 2);
    CHECK_EQ_INT(net_run(n, 100, &arr, &left), 1);
    CHECK(arr == a);
    CHECK_EQ_U64(net_now(n), 5);
    CHECK_EQ_INT(net_run(n, 100, &arr, &left), 0);
    CHECK_EQ_U64(net_now(n), 100);                        /* idle: skipped to the end */
    free(a);
    net_free(n);
}

/* Fair arbitration (docs/network.md "Arbitration"). Four neighbours of the
 * centre of a 3x3 mesh each send it K worms at once: the one-port node's
 * single ejection channel is the contended output, and each sender's worms
 * come in on their own input port. Returns the most arrivals of other
 * senders between two arrivals of one sender (or before its first), while
 * it still had worms to send. A round-robin arbiter over R requesters
 * serves a waiting one before any other twice: at most R - 1. */
static int most_served_between(enum alloc alloc, int K)
{
    struct topo_shape m = mach("mesh", NULL, "3x3", TOPO_ONE_PORT);
    struct net_params p = params(2, 1, SW_WORMHOLE);
    p.alloc = alloc;
    struct net *n = mk(&m, &p);
    static const int senders[] = { 1, 3, 5, 7 };
    struct net_msg *ms = calloc(4 * (size_t)K, sizeof *ms);
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < K; k++) {
            struct net_msg *x = &ms[s * K + k];
            x->src = senders[s]; x->dst = 4; x->len = 64; x->seq = (uint64_t)k;
            net_inject(n, x);
        }
    int order[4 * 64], got = 0;
    struct net_msg *a, *l;
    while (net_busy(n) && got < 4 * K)
        if (net_run(n, UINT64_MAX, &a, &l) > 0)
            for (; a; a = a->next_done)
                order[got++] = (int)((a - ms) / K);
    int worst = 0;
    for (int s = 0; s < 4; s++) {
        int since = 0, left = K;
        for (int i = 0; i < got && left; i++) {
            if (order[i] == s) {
                left--;
                since = 0;
            } else if (++since > worst) {
                worst = since;
            }
        }
    }
    free(ms);
    net_free(n);
    return worst;
}

TEST(round_robin_serves_every_input_within_the_bound)
{
    /* all worms are ready at once: age falls back on round robin */
    int rr = most_served_between(ALLOC_ROUND_ROBIN, 16), age = most_served_between(ALLOC_AGE, 16);
    int fixed = most_served_between(ALLOC_FIXED, 16), of = most_served_between(ALLOC_OUTPUT_FIRST, 16);
    printf("    most arrivals of others between two of one sender: round-robin %d, age %d, fixed %d, "
           "output-first %d\n", rr, age, fixed, of);
    CHECK(rr <= 3);
    CHECK(age <= 3);
    CHECK(of <= 3);
    CHECK(fixed > 3);          /* fixed priority starves: the test can tell them apart */
}

/* Two worms reach the one-port ejection of node 2 of a 5x1 mesh in the
 * same cycle: a from node 4 (ready at 0, two hops, on input port 1) and b
 * from node 1 (ready a cycle later, one hop, on input port 0). Round robin
 * from its first place, and fixed order, take port 0 first; age takes the
 * older worm. */
TEST(age_serves_the_older_worm_first)
{
    for (int al = 0; al < 3; al++) {
        struct topo_shape m = mach("mesh", NULL, "5x1", TOPO_ONE_PORT);
        struct net_params p = params(2, 1, SW_WORMHOLE);
        p.alloc = (enum alloc)al;
        struct net *n = mk(&m, &p);
        struct net_msg *a = msg(4, 2, 64, 0, 0), *b = msg(1, 2, 64, 8, 0);
        net_inject(n, a);
        net_inject(n, b);
        drain(n);
        /* alone each would arrive at 2 + 8 = 10 (a) and 1 + 1 + 8 = 10 (b) */
        struct net_msg *first = al == ALLOC_AGE ? a : b, *second = al == ALLOC_AGE ? b : a;
        CHECK_EQ_U64(first->c_arrive, 10);
        CHECK_EQ_U64(second->c_arrive, 18);
        free(a);
        free(b);
        net_free(n);
    }
}

/* Every allocator of allocs.def, chosen by its name as alloc= is: a burst
 * of 4 worms a node (8x8 mesh, 4 VCs, so an input port's VCs want several
 * outputs) is delivered whole, and each allocator's times are its own:
 * the sums of the arrival cycles differ between any two of them. */
TEST(every_allocator_by_name_delivers_and_differs)
{
    uint64_t sum[ALLOC_COUNT] = { 0 };
    for (int al = 0; al < ALLOC_COUNT; al++) {
        struct topo_shape m = mach("mesh", NULL, "8x8", TOPO_ONE_PORT);
        struct net_params p = params(4, 1, SW_WORMHOLE);
        struct params pm;
        enum topo_port pmod;
        char err[200];
        params_defaults(&pm, &pmod);
        CHECK(params_set(&pm, &pmod, "alloc", alloc_names[al], err, sizeof err) == 0);
        p.alloc = pm.net.alloc;
        struct net *n = mk(&m, &p);
        struct net_msg *ms = calloc(64 * 4, sizeof *ms);
        for (int i = 0; i < 64 * 4; i++) {
            int src = i % 64, dst = (src * 37 + i / 64 * 11 + 1) % 64;
            ms[i] = (struct net_msg){ .src = src, .dst = dst == src ? (dst + 1) % 64 : dst, .len = 256,
                                      .seq = (uint64_t)i };
            net_inject(n, &ms[i]);
        }
        CHECK_EQ_U64(drain(n), 64 * 4);
        for (int i = 0; i < 64 * 4; i++)
            sum[al] += ms[i].c_arrive;
        printf("    %-13s sum of arrival cycles %llu\n", alloc_names[al], (unsigned long long)sum[al]);
        free(ms);
        net_free(n);
    }
    for (int a = 0; a < ALLOC_COUNT; a++)
        for (int b = a + 1; b < ALLOC_COUNT; b++)
            if (!(a == ALLOC_ROUND_ROBIN && b == ALLOC_AGE))     /* equal ages: age is round robin */
                CHECK(sum[a] != sum[b]);
}

/* nic_vcs: two worms of 8 flits from nodes 0 and 2 of a 3x1 mesh reach
 * node 1 at once. With one VC at its ejection channel the second waits
 * for the first's tail (arrivals 9 and 17 cycles: 1 hop + 7 flits + 1,
 * then 8 more); with two they interleave flit by flit and both tails come
 * in at the end, one cycle apart. Either way the NIC takes a flit a cycle,
 * so the last arrival is the same. More VCs than a link has are refused. */
TEST(nic_vcs_let_worms_interleave_at_the_nic)
{
    uint64_t first[3] = { 0 }, last[3] = { 0 };
    for (uint32_t nv = 1; nv <= 2; nv++) {
        struct topo_shape m = mach("mesh", NULL, "3x1", TOPO_ONE_PORT);
        struct net_params p = params(2, 1, SW_WORMHOLE);
        p.nic_vcs = nv;
        struct net *n = mk(&m, &p);
        struct net_msg *a = msg(0, 1, 64, 0, 0), *b = msg(2, 1, 64, 0, 1);
        net_inject(n, a);
        net_inject(n, b);
        CHECK_EQ_U64(drain(n), 2);
        first[nv] = a->c_arrive < b->c_arrive ? a->c_arrive : b->c_arrive;
        last[nv] = a->c_arrive > b->c_arrive ? a->c_arrive : b->c_arrive;
        printf("    nic_vcs=%u: arrivals at %llu and %llu\n", nv, (unsigned long long)first[nv],
               (unsigned long long)last[nv]);
        free(a);
        free(b);
        net_free(n);
    }
    CHECK_EQ_U64(first[1], 9);
    CHECK_EQ_U64(last[1], 17);
    CHECK(first[2] >= 16 && last[2] == first[2] + 1);
    CHECK_EQ_U64(last[2], last[1]);
    struct topo_shape m = mach("mesh", NULL, "3x1", TOPO_ONE_PORT);
    struct net_params p = params(2, 1, SW_WORMHOLE);
    p.nic_vcs = 3;
    char err[200];
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "nic_vcs 3 is more than vcs 2") != NULL);
    p.nic_vcs = 0;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "NIC channels' VCs and buffer depth must all be at least 1") != NULL);
}

/* nic_vcs at the source: node 0 of a 3x1 mesh sends three worms of 8
 * flits to node 2, all ready at once, while node 1 sends node 2 a long
 * one (so node 0's worms are slowed and their flits wait in its
 * injection buffers). Each of node 0's worms enters the next VC of the
 * injection channel after the last worm's with room: with two, VC 1,
 * VC 0, VC 1 (the channel's pointer starts at 0); with one, VC 0 each
 * time. Stepped a cycle at a time, reading the injection buffers. */
TEST(nic_vcs_inject_round_robin)
{
    for (uint32_t nv = 1; nv <= 2; nv++) {
        struct topo_shape m = mach("mesh", NULL, "3x1", TOPO_ONE_PORT);
        struct net_params p = params(2, 1, SW_WORMHOLE);
        p.nic_vcs = nv;
        struct net *n = mk(&m, &p);
        struct net_msg *w[3], *slow = msg(1, 2, 4096, 0, 9);
        int vc_of[3] = { -1, -1, -1 };
        net_inject(n, slow);
        for (int k = 0; k < 3; k++) {
            w[k] = msg(0, 2, 64, 0, (uint64_t)k);
            net_inject(n, w[k]);
        }
        struct net_msg *a, *l;
        for (uint64_t c = 1; net_busy(n) && c < 1000; c++) {
            net_run(n, c, &a, &l);
            for (int v = 0; v < n->V; v++) {
                const struct ivc *q = &n->r[0].in[n->nlinkp * n->V + v];
                for (uint32_t j = 0; j < q->count; j++)
                    for (int k = 0; k < 3; k++)
                        if (ivc_at(q, j)->m == w[k] && vc_of[k] < 0)
                            vc_of[k] = v;
            }
        }
        printf("    nic_vcs=%u: the heads entered VCs %d, %d, %d\n", nv, vc_of[0], vc_of[1], vc_of[2]);
        for (int k = 0; k < 3; k++) {
            CHECK_EQ_INT(vc_of[k], nv == 1 ? 0 : (k % 2 == 0 ? 1 : 0));
            free(w[k]);
        }
        free(slow);
        net_free(n);
    }
}
