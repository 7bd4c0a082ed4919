/* Multidestination worms in the flit engine (host/net/net_mc.c, net_model.h;
 * seed 002 section 8): path worms with intermediate reception, the
 * Hamiltonian-path routing of Lin et al., tree worms that replicate at
 * branch routers, and the two deadlocks the survey warns of, detected and
 * named: the one-port consumption deadlock of Figure 31 and the
 * replication-tree deadlock of the nCUBE-2. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "net/net_model.h"
#include "net_fixture.h"

/* A worm from src to the n destinations dst[] of kind k. */
struct worm {
    struct net_msg m;
    struct net_mc mc;
    struct net_msg copy[64];
    struct net_msg *cp[64];
};

static void worm_init(struct worm *w, int kind, int src, const int *dst, int nd, uint32_t len, uint64_t seq)
{
    memset(w, 0, sizeof *w);
    w->m = (struct net_msg){ .src = src, .dst = dst[0], .len = len, .seq = seq, .mc = &w->mc };
    w->mc = (struct net_mc){ .kind = kind, .ncopy = nd, .copy = w->cp };
    for (int i = 0; i < nd; i++) {
        w->copy[i] = (struct net_msg){ .src = src, .dst = dst[i], .len = len, .seq = seq };
        w->cp[i] = &w->copy[i];
    }
}

static int inject(struct net *n, struct worm *w, char *err, size_t errlen)
{
    return net_inject_mc(n, &w->m, err, errlen);
}

/* Run until nothing is left (0) or net_run fails (its rc). */
static int drain(struct net *n)
{
    struct net_msg *a, *l;
    int rc = 0;
    while (net_busy(n) && (rc = net_run(n, UINT64_MAX, &a, &l)) >= 0)
        ;
    return rc < 0 ? rc : 0;
}

static uint64_t link_flits(struct net *n)
{
    int nl;
    const struct link_stats *ls = net_link_stats(n, &nl);
    uint64_t s = 0;
    for (int i = 0; i < nl; i++)
        s += ls[i].flits;
    return s;
}

/* Alone in the network, each listed node gets the worm as a unicast worm
 * of the same length would over the path's hops to it: the copies to the
 * node stream at the link rate, with no start-up at intermediate nodes. */
TEST(path_worm_delivers_at_each_node_as_it_passes)
{
    struct net *n = small_net_pm("mesh", "16", "4x4", TOPO_ONE_PORT);
    static struct worm w;
    int dst[] = { 3, 15, 12 };                      /* (3,0), (3,3), (0,3) */
    worm_init(&w, NET_MC_PATH, 0, dst, 3, 256, 0);
    char err[256];
    REQUIRE(inject(n, &w, err, sizeof err) == 0);
    CHECK_EQ_INT(drain(n), 0);
    int hops[] = { 3, 6, 9 };
    uint32_t flits = 32 + 1;                        /* 256 B in 8-byte flits, 8 more bytes of addresses */
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(w.copy[i].hops, hops[i]);
        CHECK_EQ_INT(w.copy[i].flits, flits);
        CHECK_EQ_U64(w.copy[i].c_arrive - w.copy[i].c_inject, net_uncontended_cycles(n, hops[i], flits));
        CHECK_EQ_INT(w.copy[i].f_out, flits);
    }
    CHECK_EQ_U64(link_flits(n), 9ull * flits);      /* one worm over 9 links */
    net_free(n);
}

/* Lin et al.'s routing R follows the snake's order: from label 0 to label
 * 15 on a 4x4 mesh it takes the column x = 0 (labels 0, 7, 8, 15), three
 * hops, where the dimension-ordered path would also be 3 but through
 * (0,1) in another order; and a destination list that does not rise
 * along the path is refused, naming the culprit. */
TEST(hamiltonian_path_worm_follows_the_labels)
{
    struct net *n = small_net_pm("mesh", "16", "4x4", TOPO_ONE_PORT);
    static struct worm w;
    int dst[] = { 4 + 3, 12 };                      /* (3,1) label 4, (0,3) label 15 */
    worm_init(&w, NET_MC_HPATH, 0, dst, 2, 64, 0);
    char err[256];
    REQUIRE(inject(n, &w, err, sizeof err) == 0);
    CHECK_EQ_INT(drain(n), 0);
    CHECK_EQ_INT(w.copy[0].hops, 4);                /* 0 -> 1 -> 2 -> 3 -> 7 along labels 0..4 */
    CHECK_EQ_INT(w.copy[1].hops, 4 + 5);            /* then labels 11, 12, 13, 14, 15: R climbs column 3 */
    static struct worm bad;
    int wrong[] = { 12, 7 };                        /* label 15, then 4: falls after rising */
    worm_init(&bad, NET_MC_HPATH, 0, wrong, 2, 64, 1);
    CHECK_EQ_INT(inject(n, &bad, err, sizeof err), -1);
    CHECK_CONTAINS(err, "destination 7");
    CHECK_CONTAINS(err, "rising");
    net_free(n);
}

/* The XY tree of Figure 30(a) on a 6x6 mesh: one copy of each flit per
 * link of the union of the XY routes, every destination reached over its
 * own XY hops in the uncontended time. */
TEST(tree_worm_replicates_at_branch_routers)
{
    struct net *n = small_net_pm("mesh", "36", "6x6", TOPO_ONE_PORT);
    static struct worm w;
    /* source (1,2); destinations in columns 1, 3, 4, 5 above and below */
    int dst[] = { 1 + 6 * 0, 1 + 6 * 5, 3 + 6 * 4, 4 + 6 * 1, 5 + 6 * 2, 5 + 6 * 3 };
    worm_init(&w, NET_MC_TREE, 1 + 6 * 2, dst, 6, 64, 0);
    char err[256];
    REQUIRE(inject(n, &w, err, sizeof err) == 0);
    CHECK_EQ_INT(drain(n), 0);
    uint32_t flits = 8 + 3;                         /* 64 B, 20 bytes of 5 more addresses */
    int hops[] = { 2, 3, 4, 4, 4, 5 };
    for (int i = 0; i < 6; i++) {
        CHECK_EQ_INT(w.copy[i].hops, hops[i]);
        CHECK_EQ_U64(w.copy[i].c_arrive - w.copy[i].c_inject, net_uncontended_cycles(n, hops[i], flits));
    }
    /* links: column 1 up 2 and down 3; row 2 right to column 5 (4); column
     * 3 down 2; column 4 up 1; column 5 down 1 */
    CHECK_EQ_U64(link_flits(n), (2ull + 3 + 4 + 2 + 1 + 1) * flits);
    net_free(n);
}

/* Figure 31: two path worms, each holding the only consumption channel of
 * one node while waiting for the other's. The engine stops with -3 and
 * names both worms and the channels, at once (not after a timeout), and
 * does not call it a model error. With a consumption channel per link
 * (all-port) the same worms are delivered. */
TEST(one_port_consumption_deadlock_of_figure_31)
{
    int a[] = { 1, 3 }, b[] = { 3, 1 };
    for (int pm = 0; pm < 2; pm++) {
        struct net *n = small_net_pm("mesh", "5", "5", pm ? TOPO_ALL_PORT : TOPO_ONE_PORT);
        static struct worm x, y;
        worm_init(&x, NET_MC_PATH, 0, a, 2, 512, 0);
        worm_init(&y, NET_MC_PATH, 4, b, 2, 512, 0);
        char err[256];
        REQUIRE(inject(n, &x, err, sizeof err) == 0);
        REQUIRE(inject(n, &y, err, sizeof err) == 0);
        int rc = drain(n);
        if (pm) {
            CHECK_EQ_INT(rc, 0);
            CHECK_EQ_INT(x.copy[1].f_out, x.copy[1].flits);
            CHECK_EQ_INT(y.copy[1].f_out, y.copy[1].flits);
        } else {
            CHECK_EQ_INT(rc, -3);
            const char *e = net_run_error(n);
            CHECK_CONTAINS(e, "the path worm 0 -> 1,3 waits for node 3's ejection channel 0, held by the path worm 4 -> 3,1");
            CHECK_CONTAINS(e, "the path worm 4 -> 3,1 waits for node 1's ejection channel 0, held by the path worm 0 -> 1,3");
            CHECK(strstr(e, "model error") == NULL);
            CHECK(net_now(n) < 200);
        }
        net_free(n);
    }
}

/* The nCUBE-2's replication trees (survey section 8): two broadcasts on a
 * one-port 2-cube, from 0 and from 3. Each tree ejects at nodes 1 and 2
 * in lock step with its other branch; each router grants its consumption
 * channel to the worm on its lower input port, so 0's tree gets node 1's
 * and 3's tree node 2's, and each waits for the other's forever. */
TEST(replication_tree_deadlock_of_the_ncube2)
{
    struct net *n = small_net_pm("hypercube", "4", NULL, TOPO_ONE_PORT);
    static struct worm x, y;
    int a[] = { 1, 2, 3 }, b[] = { 0, 1, 2 };
    worm_init(&x, NET_MC_TREE, 0, a, 3, 256, 0);
    worm_init(&y, NET_MC_TREE, 3, b, 3, 256, 0);
    char err[256];
    REQUIRE(inject(n, &x, err, sizeof err) == 0);
    REQUIRE(inject(n, &y, err, sizeof err) == 0);
    CHECK_EQ_INT(drain(n), -3);
    const char *e = net_run_error(n);
    CHECK_CONTAINS(e, "the tree worm 0 -> 1,2,3 waits for node 2's ejection channel 0, held by the tree worm 3 -> 0,1,2");
    CHECK_CONTAINS(e, "the tree worm 3 -> 0,1,2 waits for node 1's ejection channel 0, held by the tree worm 0 -> 1,2,3");
    net_free(n);
    /* one at a time, the same trees are delivered */
    n = small_net_pm("hypercube", "4", NULL, TOPO_ONE_PORT);
    worm_init(&x, NET_MC_TREE, 0, a, 3, 256, 0);
    REQUIRE(inject(n, &x, err, sizeof err) == 0);
    CHECK_EQ_INT(drain(n), 0);
    CHECK_EQ_INT(x.copy[2].hops, 2);
    net_free(n);
}

/* Bad lists are refused with the reason: the source listed, a node twice,
 * out of range, a torus. */
TEST(bad_destination_lists_are_refused)
{
    struct net *n = small_net_pm("mesh", "16", "4x4", TOPO_ONE_PORT);
    static struct worm w;
    char err[256];
    int self[] = { 2, 0 }, twice[] = { 2, 5, 2 }, far[] = { 16 };
    worm_init(&w, NET_MC_PATH, 0, self, 2, 8, 0);
    CHECK_EQ_INT(inject(n, &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, "destination 0 is the source");
    worm_init(&w, NET_MC_TREE, 0, twice, 3, 8, 0);
    CHECK_EQ_INT(inject(n, &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, "destination 2 listed twice");
    worm_init(&w, NET_MC_TREE, 0, far, 1, 8, 0);
    CHECK_EQ_INT(inject(n, &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, "out of range 0..15");
    CHECK(!net_busy(n));
    net_free(n);
    n = small_net_pm("torus", "16", "4x4", TOPO_ONE_PORT);
    int one[] = { 1 };
    worm_init(&w, NET_MC_PATH, 0, one, 1, 8, 0);
    CHECK_EQ_INT(inject(n, &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, "mesh or a hypercube");
    net_free(n);
}

/* Mixed traffic: unicast worms and multidestination worms of every kind
 * (Hamiltonian paths as dual-path multicast makes them, so nothing can
 * deadlock on an all-port mesh) are all delivered, flit for flit, and the
 * engine's checking mode (a second model stepped every cycle) agrees on
 * every event, time and counter, before, during and after them. */
TEST(mixed_traffic_is_delivered_and_checked)
{
    struct topo_shape m = mach("mesh", "16", "4x4", TOPO_ALL_PORT);
    struct net_params p = small_params();
    char err[256];
    struct net *n = net_new(&m, &p, err, sizeof err);
    REQUIRE(n && net_set_jump(n, NET_JUMP_CHECK) == 0);
    static struct net_msg uni[64];
    static struct worm w[16];
    uint64_t s = 7;
    for (int k = 0; k < 64; k++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int src = (int)(s >> 33) % 16, dst = (int)(s >> 45) % 16;
        uni[k] = (struct net_msg){ .src = src, .dst = dst, .len = (uint32_t)(s >> 20) % 300,
                                   .seq = 100 + (uint64_t)k, .t_ready_ns = (uint64_t)k * 40 };
    }
    /* w[j]: from node j, the nodes above it on the snake (labels rising) */
    int label[16], at[16];
    for (int r = 0; r < 16; r++) {
        int x = r % 4, y = r / 4;
        label[r] = y * 4 + (y % 2 ? 3 - x : x);
        at[label[r]] = r;
    }
    for (int k = 0; k < 64; k++) {
        net_inject(n, &uni[k]);
        if (k % 4 == 0) {
            int j = k / 4, dst[16], nd = 0;
            for (int l = label[j] + 1; l < 16; l += 1 + j % 3)
                dst[nd++] = at[l];
            if (nd) {
                worm_init(&w[j], j % 2 ? NET_MC_HPATH : NET_MC_TREE, j, dst, nd, 40u * (uint32_t)j, 1000 + (uint64_t)j);
                w[j].m.t_ready_ns = (uint64_t)k * 40;
                REQUIRE(inject(n, &w[j], err, sizeof err) == 0);
            }
        }
    }
    CHECK_EQ_INT(drain(n), 0);
    for (int k = 0; k < 64; k++)
        CHECK_EQ_INT(uni[k].f_out, uni[k].flits);
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < w[j].mc.ncopy; i++) {
            CHECK_EQ_INT(w[j].copy[i].f_out, w[j].copy[i].flits);
            CHECK(w[j].copy[i].c_arrive > w[j].copy[i].c_inject);
        }
    net_free(n);
}
