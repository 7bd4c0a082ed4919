/* Routing functions (host/net/net_route.c): deadlock freedom checked on the
 * channel dependency graph of small networks, candidate sets worked out by
 * hand from the papers' rules, the refusals, and adaptive runs that
 * deliver every worm, step for step as the checking reference does, or
 * deadlock and name the worms. */
#include <string.h>
#include <stdlib.h>
#include "check.h"
#include "net_fixture.h"
#include "net/net_route.h"

/* The routing called `name`, failing the test if there is none. */
static enum routing routing_named(const char *name)
{
    for (int r = 0; routing_names[r]; r++)
        if (!strcmp(routing_names[r], name))
            return (enum routing)r;
    check_fail(__FILE__, __LINE__, "no routing %s", name);
    return ROUTING_DETERMINISTIC;
}

static struct net *net_with(const char *topo, const char *nodes, const char *dims, const char *routing,
                            uint32_t vcs)
{
    struct topo_shape m = mach(topo, nodes, dims, TOPO_ONE_PORT);
    struct net_params p = small_params();
    p.vcs = vcs;
    p.routing = routing_named(routing);
    char err[256];
    struct net *n = net_new(&m, &p, err, sizeof err);
    if (!n)
        check_fail(__FILE__, __LINE__, "net_new: %s", err);
    return n;
}

/* The channel dependency graph: channel (router, link port, VC) as one
 * index; an edge a -> b when a worm holding a may ask for b next. */
struct cdg {
    const struct net *n;
    int C;
    uint8_t *dir;                   /* [C C]: this destination's direct edges */
    uint8_t *all;                   /* [C C]: the union of the (extended) edges */
    uint8_t *seen;                  /* per exploration: (router, in port, in VC, phase) visited */
    int escape;                     /* VCs [0, escape) are the escape channels */
};

static int chan(const struct net *n, int r, int port, int vc) { return (r * n->nlinkp + port) * n->V + vc; }

/* Every route the routing function permits from router `at` (entered by
 * in_port, VC in_vc, over channel `from`, or -1 at the source) for worm m,
 * each hop's dependency recorded, the worm's route state kept as the
 * engine keeps it (net_route_commit) on a copy per choice. A state is
 * visited once: the place, and the route state (Valiant's phase, UGAL's
 * choice). */
static void explore(struct cdg *g, int at, int in_port, int in_vc, int from, const struct net_msg *m)
{
    const struct net *n = g->n;
    size_t key = ((((size_t)at * (size_t)(n->nin) + (size_t)in_port) * (size_t)n->V + (size_t)in_vc) * 2 +
                  (size_t)m->via_done) * 3 + (size_t)(m->decided + (m->via < 0));
    if (g->seen[key])
        return;
    g->seen[key] = 1;
    struct net_cand c[NET_MAX_CANDS];
    int nc = net_route_cands(n, at, in_port, in_vc, m, c);
    CHECK(nc >= 0 && nc <= NET_MAX_CANDS);
    for (int q = 0; q < nc; q++) {
        CHECK(c[q].lo >= 0 && c[q].lo < c[q].hi && c[q].hi <= n->V);
        const struct oport *op = &n->r[at].out[c[q].port];
        REQUIRE(c[q].port < n->nlinkp && op->to_router >= 0);
        struct net_msg next = *m;
        net_route_commit(n, at, &next, &c[q]);
        for (int vc = c[q].lo; vc < c[q].hi; vc++) {
            int b = chan(n, at, c[q].port, vc);
            if (from >= 0)
                g->dir[(size_t)from * (size_t)g->C + (size_t)b] = 1;
            explore(g, op->to_router, op->to_port, vc, b, &next);
        }
    }
}

/* Duato's extended dependencies of this destination's graph: escape
 * channel a -> escape channel b when b follows a directly or through
 * adaptive channels only. With every channel an escape channel, the
 * direct graph itself. */
static void extend(struct cdg *g)
{
    int C = g->C, *stack = malloc((size_t)C * sizeof *stack);
    uint8_t *mark = malloc((size_t)C);
    for (int a = 0; a < C; a++) {
        if (a % g->n->V >= g->escape)
            continue;
        memset(mark, 0, (size_t)C);
        int sp = 0;
        stack[sp++] = a;
        while (sp) {
            int x = stack[--sp];
            for (int b = 0; b < C; b++) {
                if (!g->dir[(size_t)x * (size_t)C + (size_t)b] || mark[b])
                    continue;
                mark[b] = 1;
                if (b % g->n->V < g->escape)
                    g->all[(size_t)a * (size_t)C + (size_t)b] = 1;
                else
                    stack[sp++] = b;
            }
        }
    }
    free(stack);
    free(mark);
}

static int cyclic_from(const struct cdg *g, int a, uint8_t *state)
{
    state[a] = 1;
    for (int b = 0; b < g->C; b++) {
        if (!g->all[(size_t)a * (size_t)g->C + (size_t)b])
            continue;
        if (state[b] == 1 || (!state[b] && cyclic_from(g, b, state)))
            return 1;
    }
    state[a] = 2;
    return 0;
}

/* Whether the (escape) channel dependency graph of routing n over every
 * source, destination and (Valiant) intermediate node has a cycle. */
static int has_cycle(struct net *n, int escape)
{
    struct cdg g = { .n = n, .C = n->nr * n->nlinkp * n->V, .escape = escape };
    size_t CC = (size_t)g.C * (size_t)g.C, nseen = (size_t)n->nr * (size_t)n->nin * (size_t)n->V * 6;
    g.dir = calloc(CC, 1);
    g.all = calloc(CC, 1);
    g.seen = calloc(nseen, 1);
    int N = n->m.nodes, vias = n->p.routing == ROUTING_VALIANT || n->p.routing == ROUTING_UGAL ? N : 1;
    for (int d = 0; d < N; d++)
        for (int via = 0; via < vias; via++) {
            memset(g.dir, 0, CC);
            for (int s = 0; s < N; s++) {
                memset(g.seen, 0, nseen);
                struct net_msg m = { .src = s, .dst = d, .via = vias > 1 ? via : -1 };
                if (s == d)
                    continue;
                explore(&g, s, n->nlinkp, 0, -1, &m);
            }
            extend(&g);
        }
    uint8_t *state = calloc((size_t)g.C, 1);
    int cyc = 0;
    for (int a = 0; a < g.C && !cyc; a++)
        if (!state[a])
            cyc = cyclic_from(&g, a, state);
    free(state);
    free(g.dir);
    free(g.all);
    free(g.seen);
    return cyc;
}

TEST(routing_functions_have_acyclic_escape_channels)
{
    static const struct { const char *topo, *nodes, *dims, *routing; uint32_t vcs; int escape; } ok[] = {
        { "mesh", NULL, "4x4", "deterministic", 2, 2 },
        { "torus", NULL, "4x4", "deterministic", 2, 2 },
        { "mesh", NULL, "4x4", "west_first", 1, 1 },
        { "mesh", NULL, "4x4", "north_last", 1, 1 },
        { "mesh", NULL, "4x4", "negative_first", 1, 1 },
        { "mesh", NULL, "3x2x3", "negative_first", 1, 1 },
        { "hypercube", "16", NULL, "negative_first", 1, 1 },
        { "mesh", NULL, "5x4", "odd_even", 1, 1 },
        { "mesh", NULL, "4x4", "duato", 2, 1 },
        { "mesh", NULL, "3x2x3", "duato", 3, 1 },
        { "hypercube", "16", NULL, "duato", 2, 1 },
        { "torus", NULL, "4x4", "duato", 3, 2 },
        { "torus", NULL, "5x3", "duato", 4, 2 },
        { "mesh", NULL, "4x3", "valiant", 2, 2 },
        { "torus", NULL, "4x4", "valiant", 4, 4 },
        { "mesh", NULL, "4x3", "valiant", 3, 3 },
        { "torus", NULL, "4x4", "valiant", 5, 5 },
        { "fattree", "16", NULL, "adaptive_up", 1, 1 },
        { "fattree", "16", NULL, "deterministic", 1, 1 },
        { "dragonfly", NULL, "1x2x3", "deterministic", 2, 2 },
        { "dragonfly", NULL, "2x4x9", "deterministic", 2, 2 },
        { "dragonfly", NULL, "1x3x7", "valiant", 3, 3 },
        { "dragonfly", NULL, "1x3x7", "ugal", 3, 3 },
        { "dragonfly", NULL, "2x2x5", "ugal", 6, 6 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct net *n = net_with(ok[i].topo, ok[i].nodes, ok[i].dims, ok[i].routing, ok[i].vcs);
        if (has_cycle(n, ok[i].escape))
            check_fail(__FILE__, __LINE__, "%s on %s %s: the escape channels' dependencies have a cycle",
                       ok[i].routing, ok[i].topo, ok[i].dims ? ok[i].dims : ok[i].nodes);
        net_free(n);
    }
}

/* The check can fail: every one of these has a cycle. Fully adaptive
 * without escape channels; Duato's escape channels counted as adaptive
 * (only the whole graph is then asked to be acyclic, and it is not). */
TEST(unsafe_routings_have_cycles)
{
    struct net *n = net_with("mesh", NULL, "3x3", "free_adapt", 1);
    CHECK(has_cycle(n, 1));
    net_free(n);
    n = net_with("torus", NULL, "4x4", "free_adapt", 2);
    CHECK(has_cycle(n, 2));
    net_free(n);
    n = net_with("mesh", NULL, "4x4", "duato", 2);
    CHECK(has_cycle(n, 2));
    net_free(n);
}

static int cands(struct net *n, int at, int dst, int src, struct net_cand *c)
{
    struct net_msg m = { .src = src, .dst = dst, .via = -1 };
    return net_route_cands(n, at, n->nlinkp, 0, &m, c);
}

/* On a 6x6 mesh, rank = x + 6 y; ports: 0 east, 1 west, 2 north, 3 south. */
TEST(turn_models_permit_the_papers_turns)
{
    struct net_cand c[NET_MAX_CANDS];
    struct net *n = net_with("mesh", NULL, "6x6", "west_first", 2);
    CHECK_EQ_INT(cands(n, 14, 6 + 1, 14, c), 1);            /* (2,2) -> (1,1): west only */
    CHECK_EQ_INT(c[0].port, 1);
    CHECK_EQ_INT(cands(n, 14, 6 * 4 + 4, 14, c), 2);        /* -> (4,4): east or north */
    CHECK_EQ_INT(c[0].port, 0);
    CHECK_EQ_INT(c[1].port, 2);
    net_free(n);
    n = net_with("mesh", NULL, "6x6", "north_last", 2);
    CHECK_EQ_INT(cands(n, 14, 6 * 4 + 4, 14, c), 1);        /* -> (4,4): east, north last */
    CHECK_EQ_INT(c[0].port, 0);
    CHECK_EQ_INT(cands(n, 14, 6 * 0 + 0, 14, c), 2);        /* -> (0,0): west or south */
    net_free(n);
    n = net_with("mesh", NULL, "6x6", "odd_even", 2);
    /* eastbound from an even column that is not the source's: no turn to
     * north there (EN forbidden at even columns), so east only */
    CHECK_EQ_INT(cands(n, 6 * 1 + 2, 6 * 4 + 5, 6 * 1 + 0, c), 1);
    CHECK_EQ_INT(c[0].port, 0);
    /* from an odd column: north or east */
    CHECK_EQ_INT(cands(n, 6 * 1 + 3, 6 * 4 + 5, 6 * 1 + 0, c), 2);
    /* one column short of an even destination column: north first (no
     * east-to-north turn in the even column) */
    CHECK_EQ_INT(cands(n, 6 * 1 + 3, 6 * 4 + 4, 6 * 1 + 3, c), 1);
    CHECK_EQ_INT(c[0].port, 2);
    /* westbound at an odd column: west only (NW, SW forbidden at odd) */
    CHECK_EQ_INT(cands(n, 6 * 1 + 3, 6 * 4 + 0, 6 * 1 + 3, c), 1);
    CHECK_EQ_INT(c[0].port, 1);
    net_free(n);
    n = net_with("torus", NULL, "4x4", "duato", 3);         /* adaptive on VC 2, escape 0 or 1 */
    CHECK_EQ_INT(cands(n, 0, 5, 0, c), 3);                   /* (0,0) -> (1,1): +x, +y, escape +x */
    CHECK(c[0].port == 0 && c[0].lo == 2 && c[0].hi == 3);
    CHECK(c[1].port == 2 && c[1].lo == 2 && c[1].hi == 3);
    CHECK(c[2].port == 0 && c[2].lo == 1 && c[2].hi == 2);  /* the target ahead without a wrap: class 1 */
    CHECK_EQ_INT(cands(n, 3, 1, 3, c), 2);                   /* (3,0) -> (1,0) over the wrap */
    CHECK(c[1].port == 0 && c[1].lo == 1 && c[1].hi == 2);  /* the wrap link itself: class 1 */
    CHECK_EQ_INT(cands(n, 5, 5, 0, c), 0);                   /* at the destination */
    net_free(n);
}

TEST(routings_refuse_what_they_cannot_route)
{
    struct topo_shape m = mach("torus", NULL, "4x4", TOPO_ONE_PORT);
    struct net_params p = small_params();
    char err[256];
    p.routing = ROUTING_WEST_FIRST;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "routing=west_first does not route a torus") && strstr(err, "duato"));
    p.routing = ROUTING_DUATO;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "needs vcs >= 3") != NULL);
    m = mach("mesh", NULL, "4x4x2", TOPO_ONE_PORT);
    p.routing = ROUTING_ODD_EVEN;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "routes a 2D mesh") != NULL);
    CHECK(strstr(err, "for it: deterministic negative_first duato valiant free_adapt") != NULL);
    p.routing = ROUTING_VALIANT;
    p.vcs = 1;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "needs vcs >= 2") != NULL);
    /* what the machine would ignore: a tie off a torus, a selection where
     * one output a hop leaves none to make */
    p = small_params();
    p.tie = TIE_SOURCE_PARITY;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "tie = source-parity applies to a torus only, not a mesh (accepted here: plus)") != NULL);
    p = small_params();
    p.selection = SEL_LEAST_USED;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "selection=least_used chooses among an adaptive routing's outputs, and routing=deterministic "
                      "gives one a hop (accepted here: first; routings of a mesh it changes: negative_first duato "
                      "valiant free_adapt)") != NULL);
    p.routing = ROUTING_VALIANT;
    p.selection = SEL_RANDOM;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK(strstr(err, "selection=random chooses among an adaptive routing's outputs, and routing=valiant gives one "
                      "a hop (accepted here: first, or least_used for the emptiest VC; routings of a mesh it "
                      "changes: negative_first duato free_adapt)") != NULL);
    p.selection = SEL_LEAST_USED;
    struct net *n = net_new(&m, &p, err, sizeof err);
    CHECK(n != NULL);
    net_free(n);
}

/* M packets from every node to random destinations at cycle 0, drained;
 * returns the packets delivered, and the net_run code that stopped it. */
static int burst(struct net *n, int M, uint64_t seed, int *rc)
{
    int N = n->m.nodes, got = 0;
    struct net_msg *msgs = calloc((size_t)N * (size_t)M, sizeof *msgs);
    uint64_t x = seed;
    for (int s = 0; s < N; s++)
        for (int j = 0; j < M; j++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            struct net_msg *m = &msgs[s * M + j];
            m->src = s;
            m->dst = (int)((x >> 33) % (uint64_t)(N - 1));
            m->dst += m->dst >= s;
            m->len = 64;
            m->seq = (uint64_t)j;
            net_inject(n, m);
        }
    struct net_msg *a, *l;
    *rc = 0;
    while (net_busy(n) && (*rc = net_run(n, UINT64_MAX, &a, &l)) >= 0)
        for (; a; a = a->next_done)
            got++;
    free(msgs);
    return got;
}

/* Every adaptive routing delivers every worm, and the engine with its
 * shortcuts agrees cycle for cycle with the checking reference (the jump,
 * parking and sleep step aside). */
TEST(adaptive_runs_deliver_and_match_the_reference)
{
    static const struct { const char *topo, *nodes, *dims, *routing; uint32_t vcs; } runs[] = {
        { "mesh", NULL, "4x4", "west_first", 2 }, { "mesh", NULL, "4x4", "odd_even", 2 },
        { "mesh", NULL, "4x4", "negative_first", 2 }, { "mesh", NULL, "4x4", "north_last", 2 },
        { "torus", NULL, "4x4", "duato", 3 }, { "hypercube", "16", NULL, "duato", 2 },
        { "mesh", NULL, "4x4", "valiant", 2 }, { "torus", NULL, "4x4", "valiant", 4 },
        { "fattree", "16", NULL, "adaptive_up", 2 },
        { "dragonfly", NULL, "2x2x3", "deterministic", 2 }, { "dragonfly", NULL, "2x2x3", "valiant", 3 },
        { "dragonfly", NULL, "2x2x3", "ugal", 3 },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        for (int sel = 0; sel < 3; sel++) {
            struct topo_shape m = mach(runs[i].topo, runs[i].nodes, runs[i].dims, TOPO_ONE_PORT);
            struct net_params p = small_params();
            p.vcs = runs[i].vcs;
            p.selection = (enum selection)sel;
            p.routing = routing_named(runs[i].routing);
            if (!net_route_selects(p.routing, p.selection))
                continue;                   /* nothing to select (refused) */
            char err[256];
            struct net *n = net_new(&m, &p, err, sizeof err);
            REQUIRE(n != NULL);
            REQUIRE(net_set_jump(n, NET_JUMP_CHECK) == 0);
            int rc, got = burst(n, 8, 7, &rc), N = n->m.nodes;
            if (got != N * 8 || rc < 0)
                check_fail(__FILE__, __LINE__, "%s on %s, selection %s: %d of %d delivered, rc %d: %s",
                           runs[i].routing, runs[i].topo, selection_names[sel], got, N * 8, rc,
                           rc < 0 ? net_run_error(n) : "");
            net_free(n);
        }
}

/* The same burst under free_adapt on a mesh with one VC deadlocks, and
 * the run says so, naming worms and the channels they wait for; duato on
 * the same mesh (with its escape VC) delivers it. */
TEST(free_adapt_deadlocks_and_the_worms_are_named)
{
    struct topo_shape m = mach("mesh", NULL, "4x4", TOPO_ONE_PORT);
    struct net_params p = small_params();
    p.vcs = 1;
    p.routing = ROUTING_FREE_ADAPT;
    p.selection = SEL_RANDOM;
    char err[256];
    struct net *n = net_new(&m, &p, err, sizeof err);
    REQUIRE(n != NULL);
    int rc, got = burst(n, 16, 3, &rc);
    CHECK_EQ_INT(rc, -3);
    CHECK(got < 16 * 16);
    const char *why = net_run_error(n);
    CHECK(strstr(why, "worms deadlocked, each holding channels another waits for: the worm ") == why);
    CHECK(strstr(why, " waits for ") && strstr(why, "link "));
    net_free(n);
    p.vcs = 2;
    p.routing = ROUTING_DUATO;
    n = net_new(&m, &p, err, sizeof err);
    REQUIRE(n != NULL);
    CHECK_EQ_INT(burst(n, 16, 3, &rc), 16 * 16);
    CHECK(rc >= 0);
    net_free(n);
}

/* Valiant's intermediate node depends on the seed, the source and the
 * sequence number only, and the route's hops count both phases. */
/* Valiant's two phases take VCs [0, V/2) and [V/2, V) (docs/network.md),
 * an odd V's last one too: on a 4x4 mesh (rank = x + 4 y) from (0,0) to
 * (3,0), first towards an intermediate (2,2), then on from it. */
TEST(valiant_phases_split_every_vc)
{
    struct net_cand c[NET_MAX_CANDS];
    for (uint32_t V = 2; V <= 5; V++) {
        struct net *n = net_with("mesh", NULL, "4x4", "valiant", V);
        struct net_msg m = { .src = 0, .dst = 3, .via = 10 };
        CHECK_EQ_INT(net_route_cands(n, 0, n->nlinkp, 0, &m, c), 1);
        CHECK_EQ_INT(c[0].lo, 0);
        CHECK_EQ_INT(c[0].hi, (int)V / 2);
        m.via_done = 1;
        CHECK_EQ_INT(net_route_cands(n, 10, 0, 0, &m, c), 1);
        CHECK_EQ_INT(c[0].lo, (int)V / 2);
        CHECK_EQ_INT(c[0].hi, (int)V);
        net_free(n);
    }
}

TEST(valiant_via_is_a_function_of_seed_and_worm)
{
    struct net *a = net_with("mesh", NULL, "8x8", "valiant", 2), *b = net_with("mesh", NULL, "8x8", "valiant", 2);
    int distinct = 0;
    uint8_t seen[64] = { 0 };
    for (uint64_t seq = 0; seq < 64; seq++) {
        struct net_msg x = { .src = 3, .dst = 60, .seq = seq }, y = x;
        net_route_prepare(a, &x);
        net_route_prepare(b, &y);
        CHECK_EQ_INT(x.via, y.via);
        CHECK(x.via >= 0 && x.via < 64);
        CHECK_EQ_INT(x.hops, machine_hops(&a->m, 3, x.via) + machine_hops(&a->m, x.via, 60));
        distinct += !seen[x.via]++;
    }
    CHECK(distinct > 24);                      /* 64 draws of 64 nodes: about 40 distinct */
    net_free(a);
    net_free(b);
}

/* The dragonfly's wiring (machine.h): every router's global ports lead to
 * other groups, each pair of groups joined by exactly one link, both ways;
 * local ports join every two routers of a group; and the deterministic
 * (minimal) route of every pair takes machine_hops links, at most 5. */
TEST(dragonfly_joins_every_two_groups_once)
{
    struct net *n = net_with("dragonfly", NULL, "2x4x9", "deterministic", 2);
    int N = 72, a = 4, g = 9, p = 2;
    CHECK_EQ_INT(net_routers(n), N + a * g);
    CHECK_EQ_INT(n->nlinkp, p + a - 1 + 2);
    int joined[9][9] = { { 0 } };
    for (int G = 0; G < g; G++)
        for (int r = 0; r < a; r++) {
            const struct net_router *R = &n->r[N + G * a + r];
            for (int o = p + a - 1; o < n->nlinkp; o++) {
                int to = R->out[o].to_router, G2 = (to - N) / a;
                REQUIRE(to >= N);
                CHECK(G2 != G);
                joined[G][G2]++;
                const struct oport *back = &n->r[to].out[R->out[o].to_port];
                CHECK_EQ_INT(back->to_router, N + G * a + r);   /* the link back: same ports */
                CHECK_EQ_INT(back->to_port, o);
            }
            for (int o = p; o < p + a - 1; o++)
                CHECK_EQ_INT((R->out[o].to_router - N) / a, G);
        }
    for (int G = 0; G < g; G++)
        for (int G2 = 0; G2 < g; G2++)
            CHECK_EQ_INT(joined[G][G2], G != G2);
    int path[16], most = 0;
    for (int s = 0; s < N; s++)
        for (int d = 0; d < N; d++) {
            int k = net_path(n, s, d, path, 16);
            CHECK_EQ_INT(k, machine_hops(&n->m, s, d));
            if (k > most)
                most = k;
        }
    CHECK_EQ_INT(most, 5);
    char name[16];
    net_router_name(n, N + 2 * a + 3, name, sizeof name);
    CHECK_STR(name, "g2.r3");
    net_free(n);
}

/* UGAL-L decides at the source's router: with nothing queued it takes the
 * minimal route (equal queues, fewer hops); with the minimal output's
 * buffers full it takes Valiant's, and the worm's route records which. */
TEST(ugal_takes_valiant_when_the_minimal_output_is_full)
{
    struct net *n = net_with("dragonfly", NULL, "1x2x3", "ugal", 3);
    struct net_msg m = { .src = 0, .dst = 4, .seq = 0 };
    net_route_prepare(n, &m);
    m.via = 2;                                   /* group 1: another way to group 2 */
    struct net_cand c[NET_MAX_CANDS];
    int at = 6;                                  /* node 0's router: g0.r0 */
    REQUIRE(net_route_cands(n, at, 0, 0, &m, c) == 2);
    CHECK(!c[0].nonmin && c[1].nonmin);
    int pm = c[0].port;
    for (int k = 0; k < n->V; k++)
        n->r[at].out[pm].credits[k] = 0;        /* the minimal output's buffers full */
    REQUIRE(net_route_cands(n, at, 0, 0, &m, c) == 2);
    CHECK(c[0].nonmin && c[1].port == pm);
    net_route_commit(n, at, &m, &c[0]);
    CHECK(m.decided && m.via == 2);
    struct net_msg m2 = { .src = 0, .dst = 4, .seq = 0, .via = 2 };
    net_route_commit(n, at, &m2, &c[1]);
    CHECK(m2.decided && m2.via == -1);
    net_free(n);
}
