/* alltoall_atape (apps/coll/alltoall_atape.c) against seed 004: its
 * rounds form the slides' Latin square, every round is an admissible
 * permutation of the banyan (no link carries two worms, routed by the
 * network model itself, host/net/net_topo.c), and the schedule delivers every
 * block exactly once (sched_sim.h). */
#include "check.h"
#include "sched_sim.h"
#include "net/net_model.h"
#include "net_fixture.h"

static struct app_shape banyan_shape(int n)
{
    char d[16];
    snprintf(d, sizeof d, "%d", n);
    return sim_shape("banyan", d, 0);
}

/* The square: sq[i * n + j] = the processor j sends to in round i (j
 * itself in the round it keeps its own block). n >= 4: every row is a
 * step. */
static int *square(const struct coll_algo *a, const struct app_shape *sh)
{
    int n = sh->nodes, lab[64];
    int *sq = malloc((size_t)n * (size_t)n * sizeof *sq);
    struct coll_plan plan = { .lab = lab, .cap = 64 };
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (coll_plan_step(a, sh, j, i + 1, &plan) || plan.nsend > 1)
                check_fail(__FILE__, __LINE__, "n=%d node %d round %d: no plan, or more than one send", n, j, i);
            sq[i * n + j] = plan.nsend ? plan.send[0].peer : j;
        }
    return sq;
}

TEST(the_8x8_square_is_the_slides_one)
{
    static const int slides[8][8] = {
        { 0, 2, 4, 6, 1, 3, 5, 7 }, { 1, 3, 5, 7, 0, 2, 4, 6 }, { 3, 1, 7, 5, 2, 0, 6, 4 },
        { 2, 0, 6, 4, 3, 1, 7, 5 }, { 6, 4, 2, 0, 7, 5, 3, 1 }, { 7, 5, 3, 1, 6, 4, 2, 0 },
        { 5, 7, 1, 3, 4, 6, 0, 2 }, { 4, 6, 0, 2, 5, 7, 1, 3 },
    };
    const struct coll_algo *a = coll_find_app("alltoall_atape");
    REQUIRE(a);
    struct app_shape sh = banyan_shape(8);
    CHECK_EQ_INT(a->nsteps(&sh), 8);
    int *sq = square(a, &sh);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            CHECK_EQ_INT(sq[i * 8 + j], slides[i][j]);
    free(sq);
}

/* v[0], v[stride], .. v[(n-1) stride] hold every value 0..n-1 once. */
static int is_permutation(const int *v, int stride, int n)
{
    int *seen = calloc((size_t)n, sizeof *seen), ok = 1;
    for (int i = 0; i < n; i++)
        ok = ok && v[i * stride] >= 0 && v[i * stride] < n && !seen[v[i * stride]]++;
    free(seen);
    return ok;
}

TEST(every_round_is_a_permutation_the_banyan_routes_without_conflict)
{
    const struct coll_algo *a = coll_find_app("alltoall_atape");
    REQUIRE(a);
    for (int n = 4; n <= 256; n *= 2) {
        struct app_shape sh = banyan_shape(n);
        int *sq = square(a, &sh);
        char ns[16];
        snprintf(ns, sizeof ns, "%d", n);
        struct net *net = small_net("banyan", ns, NULL);
        for (int i = 0; i < n; i++) {
            CHECK(is_permutation(sq + i * n, 1, n));            /* a row: every destination once */
            CHECK_EQ_INT(max_sharing(net, n, sq + i * n), 1);   /* admissible: no shared link */
            CHECK(is_permutation(sq + i, n, n));                /* a column too: Latin */
        }
        free(sq);
        net_free(net);
    }
}

TEST(the_schedule_delivers_every_block_once)
{
    const struct coll_algo *a = coll_find_app("alltoall_atape");
    REQUIRE(a);
    for (int n = 2; n <= 512; n *= 2) {
        struct app_shape sh = banyan_shape(n);
        struct sim s;
        if (sim_run(&s, a, &sh, 0))
            check_fail(__FILE__, __LINE__, "n=%d: %s", n, s.err);
        CHECK_EQ_INT(s.steps, n == 2 ? 1 : n);
        CHECK_EQ_INT(s.max_sends, n - 1);          /* one start-up per other processor */
        CHECK_EQ_INT(s.min_sends, n - 1);
        CHECK_EQ_INT((int)s.max_msg, 1);
        sim_free(&s);
    }
}

TEST(atape_runs_on_banyans_only)
{
    const struct coll_algo *a = coll_find_app("alltoall_atape");
    REQUIRE(a);
    struct app_shape sh = banyan_shape(16);
    char err[256];
    CHECK_EQ_INT(app_check("alltoall_atape", a->restr, &sh, 64, 1 << 20, err, sizeof err), 0);
    sh = sim_shape("hypercube", "16", 0);
    CHECK_EQ_INT(app_check("alltoall_atape", a->restr, &sh, 64, 1 << 20, err, sizeof err), -1);
    CHECK_CONTAINS(err, "needs a banyan (TOPO=banyan NODES=2^m), not hypercube of 16 nodes");
}
