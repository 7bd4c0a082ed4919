/* The engine's jump over periodic stretches, group by group
 * (host/net/net_jump.h). The same messages through a network that jumps and
 * through one that steps every cycle must give the same events in the
 * same order, the same times and the same counters, on every topology,
 * switching mode, port model and buffer shape; and the jump must really
 * happen where worms stream, alone or sharing a link round robin, and
 * where groups of worms stream while others do not, and beside a worm
 * parked behind them. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "net/net_model.h"
#include "net_fixture.h"

static struct net_params base(void)
{
    return (struct net_params){ .flit_bytes = 8, .byte_ps = 1000, .hop_cycles = 1, .vcs = 2, .buf_flits = 4,
                                .nic_cycles = 1, .nic_vcs = 1, .switching = SW_WORMHOLE };
}

static uint64_t rnd(uint64_t *s)                   /* xorshift64* */
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static int by_ready(const void *a, const void *b)
{
    const struct net_msg *x = a, *y = b;
    if (x->t_ready_ns != y->t_ready_ns)
        return x->t_ready_ns < y->t_ready_ns ? -1 : 1;
    return x->src != y->src ? x->src - y->src : (x->seq > y->seq) - (x->seq < y->seq);
}

/* per_node messages per node, lengths up to maxlen, ready times spread
 * over [0, spread_ns]; sorted by ready time, the order they enter in. */
static struct net_msg *traffic(const struct topo_shape *m, int per_node, uint32_t maxlen, uint64_t spread_ns,
                               uint64_t seed, size_t *count)
{
    size_t n = (size_t)m->nodes * (size_t)per_node, k = 0;
    struct net_msg *v = calloc(n, sizeof *v);
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    for (int i = 0; i < m->nodes; i++)
        for (int j = 0; j < per_node; j++) {
            struct net_msg *x = &v[k++];
            x->src = i;
            x->dst = (int)(rnd(&s) % (uint64_t)m->nodes);
            x->len = (uint32_t)(rnd(&s) % (maxlen + 1));
            x->seq = (uint64_t)j;
            x->t_ready_ns = spread_ns ? rnd(&s) % spread_ns : 0;
        }
    qsort(v, n, sizeof *v, by_ready);
    *count = n;
    return v;
}

struct outcome {
    uint64_t *events;       /* per event: cycle, kind (1 arrived, 2 left), src, seq */
    size_t nev;
    uint64_t cycles, flit_hops, jumped, moves, moves_jumped;
    struct link_stats *ls;
    int nls, rc;
};

static void log_event(struct outcome *o, uint64_t c, int kind, const struct net_msg *m)
{
    o->events = realloc(o->events, (o->nev + 4) * sizeof *o->events);
    o->events[o->nev++] = c;
    o->events[o->nev++] = (uint64_t)kind;
    o->events[o->nev++] = (uint64_t)m->src;
    o->events[o->nev++] = m->seq;
}

/* Drive the network as the router does: each message enters when the
 * network has run up to its ready cycle, and the network runs in windows
 * of random length (the router's safe horizon). */
static struct outcome drive(const struct topo_shape *m, const struct net_params *p, enum net_jump mode,
                            struct net_msg *v, size_t count, uint64_t seed)
{
    char err[256];
    struct outcome o = { 0 };
    struct net *n = net_new(m, p, err, sizeof err);
    if (!n)
        check_fail(__FILE__, __LINE__, "net_new: %s", err);
    if (net_set_jump(n, mode)) {
        check_fail(__FILE__, __LINE__, "net_set_jump: no memory");
        exit(1);
    }
    uint64_t s = seed + 7;
    size_t next = 0;
    for (;;) {
        uint64_t stop = next < count ? net_ns_to_cycle_ceil(n, v[next].t_ready_ns) : UINT64_MAX;
        while (next < count && net_ns_to_cycle_ceil(n, v[next].t_ready_ns) <= net_now(n))
            net_inject(n, &v[next++]);
        if (next == count && !net_busy(n))
            break;
        if (next < count)
            stop = net_ns_to_cycle_ceil(n, v[next].t_ready_ns);
        uint64_t end = net_now(n) + 1 + rnd(&s) % 3000;
        if (end > stop)
            end = stop;
        struct net_msg *a, *l;
        int rc = net_run(n, end, &a, &l);
        if (rc < 0) {
            o.rc = rc;
            break;
        }
        for (; l; l = l->next_left)
            log_event(&o, net_now(n), 2, l);
        for (; a; a = a->next_done)
            log_event(&o, net_now(n), 1, a);
    }
    const struct link_stats *ls = net_link_stats(n, &o.nls);
    o.ls = malloc((size_t)(o.nls ? o.nls : 1) * sizeof *o.ls);
    memcpy(o.ls, ls, (size_t)o.nls * sizeof *ls);
    o.cycles = net_cycles_simulated(n);
    o.flit_hops = net_flit_hops(n);
    uint64_t st, jumps;
    net_engine_stats(n, &st, &o.jumped, &jumps);
    net_engine_moves(n, &o.moves, &o.moves_jumped);
    net_free(n);
    return o;
}

/* The same traffic three ways: jumping, stepping, and checked (jumping with
 * the stepping model beside it). Returns the flit moves jumped over, and
 * adds all of them to *total. */
static uint64_t same_for(const char *what, const struct topo_shape *m, const struct net_params *p,
                         struct net_msg *a, size_t count, uint64_t seed, uint64_t *total)
{
    struct net_msg *b = malloc(count * sizeof *b), *c = malloc(count * sizeof *c);
    memcpy(b, a, count * sizeof *b);
    memcpy(c, a, count * sizeof *c);
    struct outcome oj = drive(m, p, NET_JUMP_ON, a, count, seed);
    struct outcome os = drive(m, p, NET_JUMP_OFF, b, count, seed);
    struct outcome oc = drive(m, p, NET_JUMP_CHECK, c, count, seed);
    int same = oj.rc == 0 && os.rc == 0 && oj.nev == os.nev && !memcmp(oj.events, os.events, oj.nev * 8) &&
               oj.cycles == os.cycles && oj.flit_hops == os.flit_hops && oj.nls == os.nls &&
               !memcmp(oj.ls, os.ls, (size_t)oj.nls * sizeof *oj.ls);
    for (size_t i = 0; same && i < count; i++)
        same = a[i].c_inject == b[i].c_inject && a[i].c_head == b[i].c_head && a[i].c_leave == b[i].c_leave &&
               a[i].c_arrive == b[i].c_arrive && a[i].blocked_cycles == b[i].blocked_cycles;
    if (!same)
        check_fail(__FILE__, __LINE__, "%s: jumping and stepping differ (rc %d/%d, %zu/%zu events)", what,
                   oj.rc, os.rc, oj.nev, os.nev);
    if (oc.rc != 0)
        check_fail(__FILE__, __LINE__, "%s: the checked model stopped with %d", what, oc.rc);
    CHECK_EQ_U64(os.jumped, 0);
    CHECK_EQ_U64(os.moves_jumped, 0);
    CHECK_EQ_U64(oj.moves, os.moves);
    *total += oj.moves;
    uint64_t j = oj.moves_jumped;
    free(oj.events); free(os.events); free(oc.events);
    free(oj.ls); free(os.ls); free(oc.ls);
    free(b); free(c);
    return j;
}

static uint64_t same_both_ways(const char *what, const struct topo_shape *m, const struct net_params *p,
                               int per_node, uint32_t maxlen, uint64_t spread, uint64_t seed, uint64_t *total)
{
    size_t count;
    struct net_msg *a = traffic(m, per_node, maxlen, spread, seed, &count);
    uint64_t j = same_for(what, m, p, a, count, seed, total);
    free(a);
    return j;
}

static const struct { const char *topo, *nodes, *dims; } shapes[] = {
    { "torus", NULL, "8x8" }, { "torus", NULL, "4x4x4" }, { "torus", NULL, "5x7" },
    { "mesh", NULL, "6x5" }, { "mesh", NULL, "16" }, { "hypercube", "32", NULL }, { "banyan", "16", NULL },
    { "fattree", "16", NULL }, { "fattree", "8", NULL },
};

static void variants(int wormhole_only, uint64_t *jumped, uint64_t *total)
{
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int v = 0; v < 15; v++) {
            struct topo_shape m = mach(shapes[s].topo, shapes[s].nodes, shapes[s].dims,
                                    v == 6 ? TOPO_ALL_PORT : TOPO_ONE_PORT);
            struct net_params p = base();
            switch (v) {
            case 1: p.hop_cycles = 3; p.buf_flits = 8; break;
            case 2: p.hop_cycles = 2; p.buf_flits = 2; break;   /* credits throttle the stream */
            case 3: p.nic_cycles = 3; break;
            case 4: p.switching = SW_CUT_THROUGH; break;
            case 5: p.switching = SW_STORE_FORWARD; break;
            case 7: p.vcs = 4; p.header_flits = 2; break;
            case 8: p.unidirectional = 1; break;
            case 9: p.ports = 2; p.nic_cycles = 2; break;
            case 10: p.alloc = ALLOC_FIXED; p.vcs = 4; break;   /* the other arbitrations */
            case 11: p.alloc = ALLOC_AGE; p.hop_cycles = 3; p.buf_flits = 8; break;
            case 12: p.alloc = ALLOC_OUTPUT_FIRST; p.vcs = 4; break;
            case 13: p.nic_vcs = 2; break;                    /* the accelerators step aside */
            case 14: p.credit_delay = 2; p.buf_flits = 4; break;   /* and here */
            }
            if (wormhole_only && (v == 4 || v == 5))
                continue;
            if (v == 8 && m.topo != TOPO_TORUS)
                continue;                               /* a torus's option (net_new refuses it elsewhere) */
            if (machine_indirect(&m) && (v == 6 || v == 9))
                continue;                               /* one port per processor */
            char what[128];
            snprintf(what, sizeof what, "%s %s variant %d", shapes[s].topo,
                     shapes[s].dims ? shapes[s].dims : shapes[s].nodes, v);
            uint64_t j = same_both_ways(what, &m, &p, 3, 4096, 20000, (uint64_t)(s * 16 + v), total);
            if (v >= 13)
                CHECK_EQ_U64(j, 0);                      /* stepped aside: nothing jumped */
            *jumped += j;
        }
}

TEST(random_traffic_is_the_same_jumping_or_stepping)
{
    uint64_t jumped = 0, total = 0;
    variants(0, &jumped, &total);
    printf("    %llu of %llu flit moves jumped over\n", (unsigned long long)jumped, (unsigned long long)total);
    CHECK(jumped > total / 5);           /* the comparison covered jumps, not only steps */
}

TEST(a_burst_is_the_same_and_mostly_jumped)
{
    /* all messages ready at once, as in a collective's step */
    uint64_t jumped = 0, total = 0;
    struct topo_shape m = mach("torus", NULL, "8x8", TOPO_ONE_PORT);
    struct net_params p = base();
    jumped += same_both_ways("burst 8x8", &m, &p, 2, 16384, 0, 99, &total);
    CHECK(jumped > total * 7 / 10);
}

/* Worms of 320 bytes at most (40 flits): no NIC ever has more than
 * JUMP_MIN_PUSH flits left to push, so the engine steps them without
 * probing for periods (net_jump.h, short worms), with the same results. */
TEST(short_worms_are_stepped_without_probing)
{
    uint64_t total = 0;
    struct topo_shape m = mach("torus", NULL, "8x8", TOPO_ONE_PORT);
    struct net_params p = base();
    CHECK(same_both_ways("short burst 8x8", &m, &p, 8, 8 * 40, 0, 7, &total) == 0);
    CHECK(total > 0);
}

/* A long stream along row 0 of a mesh, while short messages come and go
 * every few cycles in row 4: the network as a whole is never periodic,
 * but the stream's group is, and is jumped over while the rest steps. */
TEST(a_stream_is_jumped_while_others_step)
{
    struct topo_shape m = mach("mesh", NULL, "8x8", TOPO_ONE_PORT);
    struct net_params p = base();
    size_t count = 1 + 400;
    struct net_msg *v = calloc(count, sizeof *v);
    v[0] = (struct net_msg){ .src = 0, .dst = 7, .len = 8 * 4000 };
    for (size_t i = 1; i < count; i++)           /* 2 flits each, one every 10 cycles */
        v[i] = (struct net_msg){ .src = 32 + (int)(i % 4), .dst = 36 + (int)(i % 4), .len = 16,
                                 .seq = i, .t_ready_ns = 8 * 10 * i };
    uint64_t total = 0, jumped = same_for("stream beside short messages", &m, &p, v, count, 5, &total);
    printf("    %llu of %llu flit moves jumped over\n", (unsigned long long)jumped, (unsigned long long)total);
    CHECK(jumped > 4000 * 7 * 8 / 10);           /* most of the stream's 7 x 4000 link moves */
    free(v);
}

/* Two streams hold both VCs up column 5 of a mesh; a worm from row 4
 * parks at (5,4) for want of a VC there, while short messages cross the
 * link of row 4 its body waits on, one every 10 cycles. The parked
 * worm's group is apart from the streams' (net_jump.h, parked heads), so
 * the short messages thaw it alone and the streams stay jumped over. */
TEST(a_parked_worm_does_not_tie_the_streams_it_waits_on)
{
    struct topo_shape m = mach("mesh", NULL, "8x8", TOPO_ONE_PORT);
    struct net_params p = base();
    size_t count = 3 + 300;
    struct net_msg *v = calloc(count, sizeof *v);
    v[0] = (struct net_msg){ .src = 61, .dst = 5, .len = 8 * 4000 };           /* (5,7) -> (5,0) */
    v[1] = (struct net_msg){ .src = 53, .dst = 13, .len = 8 * 4000 };          /* (5,6) -> (5,1) */
    v[2] = (struct net_msg){ .src = 34, .dst = 5, .len = 8 * 200, .t_ready_ns = 8 * 50 };   /* (2,4) */
    for (size_t i = 3; i < count; i++)           /* (3,4) -> (4,5): 2 flits each, every 10 cycles */
        v[i] = (struct net_msg){ .src = 35, .dst = 44, .len = 16, .seq = i, .t_ready_ns = 8 * (100 + 10 * i) };
    uint64_t total = 0, jumped = same_for("a parked worm beside streams", &m, &p, v, count, 9, &total);
    printf("    %llu of %llu flit moves jumped over\n", (unsigned long long)jumped, (unsigned long long)total);
    CHECK(jumped > total * 9 / 10);              /* tied to the streams, it leaves 68 % jumped */
    free(v);
}

/* One long message alone: after the head arrives the stream is periodic
 * with period 1; the jump lands exactly where the tail must leave. */
TEST(one_stream_jumps_to_its_tail)
{
    struct topo_shape m = mach("mesh", NULL, "4x4", TOPO_ONE_PORT);
    struct net_params p = base();
    struct net_msg x = { .src = 0, .dst = 15, .len = 8 * 4096 };
    char err[256];
    struct net *n = net_new(&m, &p, err, sizeof err);
    REQUIRE(n);
    net_inject(n, &x);
    struct net_msg *a, *l;
    while (net_busy(n))
        REQUIRE(net_run(n, UINT64_MAX, &a, &l) >= 0);
    /* D = 6 hops, F = 4096 flits: arrives D + F cycles after it enters */
    CHECK_EQ_U64(x.c_arrive - x.c_inject, 6 + 4096);
    CHECK_EQ_U64(x.c_leave - x.c_inject, 4096);
    uint64_t st, jumped, jumps;
    net_engine_stats(n, &st, &jumped, &jumps);
    CHECK(jumped > 4000);
    CHECK(st < 100);
    net_free(n);
}

/* Two worms on the two VCs of links 1 -> 2 -> 3 of a mesh row share them
 * flit by flit: the stream is periodic with period 2. */
TEST(round_robin_sharing_of_a_link_is_jumped)
{
    struct topo_shape m = mach("mesh", NULL, "8x8", TOPO_ONE_PORT);
    struct net_params p = base();
    uint64_t total = 0, jumped;
    struct net_msg v[2] = { { .src = 0, .dst = 3, .len = 8 * 2000 }, { .src = 1, .dst = 4, .len = 8 * 2000 } };
    char err[256];
    struct net *nj = net_new(&m, &p, err, sizeof err), *ns = net_new(&m, &p, err, sizeof err);
    REQUIRE(nj && ns);
    net_set_jump(ns, NET_JUMP_OFF);
    struct net_msg w[2];
    memcpy(w, v, sizeof w);
    for (int i = 0; i < 2; i++) {
        net_inject(nj, &v[i]);
        net_inject(ns, &w[i]);
    }
    struct net_msg *a, *l;
    while (net_busy(nj))
        REQUIRE(net_run(nj, UINT64_MAX, &a, &l) >= 0);
    while (net_busy(ns))
        REQUIRE(net_run(ns, UINT64_MAX, &a, &l) >= 0);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_U64(v[i].c_arrive, w[i].c_arrive);
        CHECK_EQ_U64(v[i].blocked_cycles, w[i].blocked_cycles);
    }
    /* sharing, each moves at half the link rate: about 2F cycles */
    CHECK(w[0].c_arrive - w[0].c_inject > 3900 && w[1].c_arrive - w[1].c_inject > 3900);
    CHECK(w[0].blocked_cycles > 1900 && w[1].blocked_cycles > 1900);
    uint64_t st;
    net_engine_stats(nj, &st, &jumped, &total);
    CHECK(jumped > 3000);
    net_free(nj);
    net_free(ns);
}

/* A message that becomes ready in the middle of a stream enters at
 * exactly its ready cycle: the jump stops short of it. */
TEST(a_message_becoming_ready_bounds_the_jump)
{
    struct topo_shape m = mach("mesh", NULL, "8", TOPO_ONE_PORT);
    struct net_params p = base();
    struct net_msg x = { .src = 0, .dst = 7, .len = 8 * 5000 };
    struct net_msg y = { .src = 2, .dst = 5, .len = 64, .t_ready_ns = 8 * 3001 };
    char err[256];
    struct net *n = net_new(&m, &p, err, sizeof err);
    REQUIRE(n);
    net_inject(n, &x);
    net_inject(n, &y);     /* queued now, ready at cycle 3001 */
    struct net_msg *a, *l;
    while (net_busy(n))
        REQUIRE(net_run(n, UINT64_MAX, &a, &l) >= 0);
    CHECK_EQ_U64(y.c_inject, 3001);
    uint64_t st, jumped, jumps;
    net_engine_stats(n, &st, &jumped, &jumps);
    CHECK(jumped > 4000);
    net_free(n);
}

/* The checked mode sees a difference: a counter changed behind the
 * jumping model's back makes the next run return -2. */
TEST(the_check_catches_a_difference)
{
    struct topo_shape m = mach("torus", NULL, "4x4", TOPO_ONE_PORT);
    struct net_params p = base();
    struct net_msg x = { .src = 0, .dst = 2, .len = 8 * 3000 }, y = { .src = 5, .dst = 6, .len = 8 * 3000 };
    char err[256];
    struct net *n = net_new(&m, &p, err, sizeof err);
    REQUIRE(n && net_set_jump(n, NET_JUMP_CHECK) == 0);
    net_inject(n, &x);
    net_inject(n, &y);
    struct net_msg *a, *l;
    REQUIRE(net_run(n, 100, &a, &l) >= 0);
    int nl;
    struct link_stats *ls = (struct link_stats *)net_link_stats(n, &nl);
    ls[0].flits += 1;
    int rc;
    while ((rc = net_run(n, UINT64_MAX, &a, &l)) > 0)
        ;
    CHECK_EQ_INT(rc, -2);
    CHECK_CONTAINS(net_run_error(n), "jump");
    net_free(n);
}
