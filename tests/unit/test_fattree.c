/* The fat tree (host/net/net_topo.c, wire_fattree and route_fattree): a k-ary
 * n-tree of k^n nodes, routed up to the lowest common ancestor and down,
 * the up port chosen by the destination's digits (destination-mod-k). */
#include <string.h>
#include <stdlib.h>
#include "check.h"
#include "net/net_model.h"
#include "net_fixture.h"

static struct net *tree(const char *nodes, const char *dims) { return small_net("fattree", nodes, dims); }

static const struct { const char *nodes, *dims; int k, levels; } trees[] = {
    { "4", NULL, 4, 1 }, { "16", NULL, 4, 2 }, { "64", NULL, 4, 3 }, { "8", NULL, 2, 3 }, { "32", NULL, 2, 5 },
    { NULL, "3x3", 3, 2 }, { NULL, "3x3x3", 3, 3 },
};

/* Every route: the node's link, up links (ports k..2k-1) to the lowest
 * common ancestor, down links (ports 0..k-1), the link to the node; its
 * length is machine_hops. */
TEST(routes_climb_to_the_lowest_common_ancestor_and_descend)
{
    for (size_t t = 0; t < sizeof trees / sizeof *trees; t++) {
        struct net *n = tree(trees[t].nodes, trees[t].dims);
        struct topo_shape m = mach("fattree", trees[t].nodes, trees[t].dims, TOPO_ONE_PORT);
        int N = m.nodes, k = trees[t].k, path[64];
        CHECK_EQ_INT(m.ndims, trees[t].levels);
        CHECK_EQ_INT(net_routers(n), N + trees[t].levels * N / k);
        for (int s = 0; s < N; s++)
            for (int d = 0; d < N; d++) {
                int len = net_path(n, s, d, path, 64), at = s, down = 0, ups = 0;
                CHECK_EQ_INT(len, machine_hops(&m, s, d));
                for (int j = 0; j < len; j++) {
                    int from, port, to;
                    REQUIRE(net_link_ends(n, path[j], &from, &port, &to));
                    CHECK_EQ_INT(from, at);
                    if (from >= N && port >= k) {
                        CHECK(!down);                     /* no up link after a down link */
                        ups++;
                    } else if (from >= N) {
                        down = 1;
                    }
                    at = to;
                }
                CHECK_EQ_INT(at, d);
                CHECK_EQ_INT(2 * ups + 2, len ? len : 2);
            }
        net_free(n);
    }
}

TEST(hops_count_the_highest_differing_digit)
{
    struct topo_shape m = mach("fattree", "64", NULL, TOPO_ONE_PORT);    /* 4-ary 3-tree */
    CHECK_EQ_INT(machine_hops(&m, 5, 5), 0);
    CHECK_EQ_INT(machine_hops(&m, 4, 7), 2);        /* same leaf */
    CHECK_EQ_INT(machine_hops(&m, 4, 8), 4);        /* digit 1 differs */
    CHECK_EQ_INT(machine_hops(&m, 0, 63), 6);       /* through a root */
}

/* Destination-mod-k routing spreads a shift permutation (s -> s + c mod
 * N, GEN's step c) over disjoint paths: no link carries two worms, for
 * every shift. */
TEST(every_shift_is_free_of_contention)
{
    for (size_t t = 0; t < sizeof trees / sizeof *trees; t++) {
        struct net *n = tree(trees[t].nodes, trees[t].dims);
        int N = mach("fattree", trees[t].nodes, trees[t].dims, TOPO_ONE_PORT).nodes, nl, path[64];
        net_link_stats(n, &nl);
        int *use = calloc((size_t)nl, sizeof *use);
        for (int c = 1; c < N; c++) {
            memset(use, 0, (size_t)nl * sizeof *use);
            for (int s = 0; s < N; s++)
                for (int x = 0, len = net_path(n, s, (s + c) % N, path, 64); x < len; x++)
                    if (++use[path[x]] > 1)
                        check_fail(__FILE__, __LINE__, "%d nodes, shift %d: link %d shared", N, c, path[x]);
        }
        free(use);
        net_free(n);
    }
}

TEST(an_uncontended_worm_and_the_switch_names)
{
    struct net *n = tree("16", NULL);
    check_lone_worm(n, 1, 14, 64, 4, 16 + 4 + 3, "s1.3");          /* up 1 level and down */
    check_lone_worm(n, 4, 7, 64, 2, 16 + 1, "s0.1");                /* same leaf */
    net_free(n);
}

TEST(a_fat_tree_has_one_port_per_node_and_k_equal_digits)
{
    struct topo_shape m = mach("fattree", "16", NULL, TOPO_ALL_PORT);
    struct net_params p = small_params();
    char err[256];
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "a fat tree gives each processor one input and one output port");
    CHECK_EQ_INT(machine_parse(&m, "fattree", "12", NULL, err, sizeof err), -1);
    CHECK_CONTAINS(err, "NODES = k^n");
    CHECK_EQ_INT(machine_parse(&m, "fattree", NULL, "4x2", err, sizeof err), -1);
    CHECK_CONTAINS(err, "k x k x");
    CHECK_EQ_INT(machine_parse(&m, "fattree", NULL, "13x13", err, sizeof err), -1);   /* 26 ports a switch */
    CHECK_CONTAINS(err, "k from 2 to 12");
    REQUIRE(machine_parse(&m, "fattree", NULL, "12x12", err, sizeof err) == 0);
    struct net *n = small_net("fattree", NULL, "12x12");
    CHECK_EQ_INT(net_routers(n), 144 + 2 * 12);
    net_free(n);
    REQUIRE(machine_parse(&m, "fattree", "8", NULL, err, sizeof err) == 0);
    CHECK_EQ_INT(m.dims[0], 2);
    CHECK_EQ_INT(m.ndims, 3);
    REQUIRE(machine_parse(&m, "fattree", "1024", NULL, err, sizeof err) == 0);
    CHECK_EQ_INT(m.dims[0], 4);
    CHECK_EQ_INT(m.ndims, 5);
}
