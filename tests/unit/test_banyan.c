/* The banyan network (host/net/net_topo.c, wire_banyan and route_banyan) against
 * seed 004's slides: n x n, log2 n stages of 2x2 switches, a unique
 * self-routed path between any two processors, and the eight switch
 * settings of the 8x8 example, each an admissible (conflict-free)
 * permutation. */
#include <string.h>
#include <stdlib.h>
#include "check.h"
#include "net/net_model.h"
#include "net_fixture.h"

static struct net *banyan(int nodes)
{
    char s[16];
    snprintf(s, sizeof s, "%d", nodes);
    return small_net("banyan", s, NULL);
}

TEST(every_path_crosses_every_stage_and_ends_at_its_destination)
{
    for (int N = 2; N <= 64; N *= 2) {
        struct net *n = banyan(N);
        int S = machine_log2(N), path[64];
        CHECK_EQ_INT(net_routers(n), N + S * N / 2);
        for (int s = 0; s < N; s++)
            for (int d = 0; d < N; d++) {
                int k = net_path(n, s, d, path, 64);
                CHECK_EQ_INT(k, s == d ? 0 : S + 1);
                int at = s;
                for (int j = 0; j < k; j++) {
                    int from, port, to;
                    REQUIRE(net_link_ends(n, path[j], &from, &port, &to));
                    CHECK_EQ_INT(from, at);
                    /* processor, then stage j-1 .. : routers N + (j-1) N/2 .. */
                    if (j > 0)
                        CHECK(from >= N + (j - 1) * N / 2 && from < N + j * N / 2);
                    at = to;
                }
                CHECK_EQ_INT(at, d);
            }
        net_free(n);
    }
}

/* The unique path: each stage has N links and every path crosses each
 * stage once, so the N (N - 1) paths between distinct processors load a
 * stage's links N - 1 times on average; a link carries the N paths of
 * the pairs it joins, less the one or two of them that are a processor
 * to itself (net_path gives those no links). */
TEST(all_pairs_cross_each_stage_once)
{
    for (int N = 4; N <= 32; N *= 2) {
        struct net *n = banyan(N);
        int nl, path[64];
        net_link_stats(n, &nl);
        int *use = calloc((size_t)nl, sizeof *use);
        for (int s = 0; s < N; s++)
            for (int d = 0; d < N; d++)
                if (s != d)
                    for (int k = net_path(n, s, d, path, 64), j = 0; j < k; j++)
                        use[path[j]]++;
        int links = 0;
        for (int i = 0; i < nl; i++) {
            int from, port, to;
            if (!net_link_ends(n, i, &from, &port, &to))
                continue;
            links++;
            if (from < N || to < N)
                CHECK_EQ_INT(use[i], N - 1);      /* a processor's own link: the N - 1 others */
            else
                CHECK(use[i] >= N - 2 && use[i] <= N);
        }
        CHECK_EQ_INT(links, N * (machine_log2(N) + 1));
        free(use);
        net_free(n);
    }
}

/* The slides' eight settings of the 8x8 banyan (each stage straight, I,
 * or crossed, phi_1), as the permutations they list: input j goes to
 * the j-th digit. Each is admissible: no link carries two worms. */
TEST(the_slides_eight_switch_settings_are_conflict_free)
{
    static const char *const settings[] = { "02461357", "13570246", "57134602", "46025713",
                                            "64207531", "75316420", "31752064", "20643175" };
    struct net *n = banyan(8);
    for (int k = 0; k < 8; k++) {
        int perm[8];
        for (int j = 0; j < 8; j++)
            perm[j] = settings[k][j] - '0';
        CHECK_EQ_INT(max_sharing(n, 8, perm), 1);
    }
    /* and the network blocks: swapping neighbours is not admissible (0 -> 1
     * and 1 -> 0 both leave switch s0.0 by port 0, bit 1 of 1 and of 0) */
    int swap[8] = { 1, 0, 3, 2, 5, 4, 7, 6 };
    CHECK_EQ_INT(max_sharing(n, 8, swap), 2);
    net_free(n);
}

TEST(an_uncontended_worm_takes_stages_plus_one_hops)
{
    struct net *n = banyan(16);
    check_lone_worm(n, 3, 12, 64, 5, 16 + 2 * 8 + 5, "s2.5");      /* 4 stages + 1 */
    check_lone_worm(n, 12, 3, 64, 5, 7, "7");
    net_free(n);
}

TEST(a_banyan_has_one_port_per_processor)
{
    struct topo_shape m = mach("banyan", "8", NULL, TOPO_ALL_PORT);
    struct net_params p = small_params();
    char err[256];
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "one-port");
    m.all_port = TOPO_ONE_PORT;
    p.ports = 2;
    CHECK(net_new(&m, &p, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "ports=1");
}
