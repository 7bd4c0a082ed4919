/* Every broadcast, multicast, scatter, gather, reduction, scan and barrier
 * algorithm of the registry runs, through the schedule simulator, on every
 * machine of a fixed list that it supports, from several roots (and
 * multicast sets), and delivers: a new algorithm cannot slip in untested.
 * The papers' step counts and contention claims are checked per family in
 * test_tseng.c, test_bcast_trees.c, test_bcast_long.c and test_reduce.c.
 * Also: the run tool's words for these calls (root=, set=, m= seed=, op=,
 * type=, segs=) are refused with the accepted values. */
#include "check.h"
#include "sched_sim.h"

static const struct { const char *topo, *dims; } machines[] = {
    { "mesh", "4x4" }, { "mesh", "8x8" }, { "mesh", "3x5" }, { "mesh", "2x3x2" }, { "torus", "5x5" },
    { "torus", "7x7" }, { "torus", "4x4" }, { "torus", "3x4" }, { "torus", "3x3x3" }, { "hypercube", "8" },
    { "hypercube", "16" }, { "hypercube", "32" }, { "mesh", "16x1" },
};
#define NMACH (sizeof machines / sizeof machines[0])

static int allowed(const struct coll_algo *a, const struct app_shape *sh)
{
    char err[512];
    return app_check(a->app, a->restr, sh, 4096, 1ul << 40, err, sizeof err) == 0;
}

/* Run a on sh from root with (for a multicast) m destinations drawn from
 * seed; returns 1 if it ran, 0 if the call is refused, fails on an error. */
static int run_one(const struct coll_algo *a, struct app_shape sh, int root, int m, long seed)
{
    static int set[COLL_MAX_SET];
    struct coll_ctx cx = { .root = root };
    if (a->op == COLL_MCAST) {
        /* the run tool's own words must take it */
        char args[96], err[256];
        snprintf(args, sizeof args, "root=%d m=%d seed=%ld", root, m, seed);
        if (app_check_args(a->app, a->restr, &sh, args, 1ul << 40, err, sizeof err))
            return 0;
        int n = 0;
        unsigned long long st = (unsigned long long)seed * 2654435761u + 1;
        for (int v = 0; v < sh.nodes && n < m; v++) {      /* a spread-out set: every k-th node */
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            if (v != root && (int)((st >> 33) % (unsigned)(sh.nodes - 1)) < m)
                set[n++] = v;
        }
        if (n == 0)
            set[n++] = root == 0 ? 1 : 0;
        cx.set = set;
        cx.nset = n;
    }
    sh.cx = &cx;
    if (!allowed(a, &sh))
        return 0;
    struct sim s;
    if (sim_run(&s, a, &sh, SIM_LOADS)) {
        char name[96];
        app_shape_str(&sh, name, sizeof name);
        check_fail(__FILE__, __LINE__, "%s on %s%s, root %d: %s", a->app, name, sh.all_port ? " all-port" : "",
                   root, s.err);
        sim_free(&s);
        return 0;
    }
    sim_free(&s);
    return 1;
}

TEST(every_rooted_algorithm_delivers_on_the_machines_it_takes)
{
    int algos = 0;
    for (int i = 0; coll_algos[i]; i++) {
        const struct coll_algo *a = coll_algos[i];
        if (!a->sends || a->op == COLL_ALLTOALL || a->op == COLL_ALLGATHER)
            continue;
        algos++;
        int ran = 0;
        for (size_t k = 0; k < NMACH; k++)
            for (int ap = 0; ap < 2; ap++) {
                struct app_shape sh = sim_shape(machines[k].topo, machines[k].dims, ap);
                int roots[3] = { 0, sh.nodes - 1, sh.nodes / 3 };
                for (int r = 0; r < 3; r++)
                    ran += run_one(a, sh, roots[r], a->op == COLL_MCAST ? 1 + sh.nodes / (2 + r) : 0, r + 1);
            }
        if (!ran)
            check_fail(__FILE__, __LINE__, "%s runs on none of the machines tried", a->app);
    }
    CHECK(algos >= 3);
}

static const char *refusal(const char *app, const char *topo, const char *dims, int all_port, const char *args)
{
    static char err[512];
    const struct coll_algo *a = coll_find_app(app);
    if (!a)
        return "no such app";
    struct app_shape sh = sim_shape(topo, dims, all_port);
    if (!app_check_args(app, a->restr, &sh, args, 1ul << 20, err, sizeof err))
        return "(accepted)";
    return err;
}

TEST(bad_calls_are_refused_with_the_accepted_values)
{
    CHECK_CONTAINS(refusal("bcast_tseng2d", "torus", "5x5", 1, "root=25"), "root=25 is not a node; accepted: root=0..24");
    CHECK_CONTAINS(refusal("bcast_tseng2d", "torus", "5x5", 1, "root=-1"), "accepted: root=0..24");
    CHECK_CONTAINS(refusal("bcast_tseng2d", "torus", "5x5", 1, "root=x"), "root=x is not a whole number");
    CHECK_CONTAINS(refusal("bcast_tseng2d", "torus", "4x5", 1, ""), "not torus 4x5");
    CHECK_CONTAINS(refusal("bcast_tseng2d", "torus", "5x5", 0, ""), "(one-port)");
    CHECK_CONTAINS(refusal("bcast_tseng3d", "torus", "3x3x4", 1, ""), "n x n x n");
    CHECK_CONTAINS(refusal("bcast_tseng2d", "torus", "5x5", 1, "len=0"), "len=0 is not a message length");
    CHECK_CONTAINS(refusal("bcast_tseng2d", "torus", "5x5", 1, "segs=0"), "segs=0 is not a segment count");
    CHECK_STR(refusal("bcast_tseng2d", "torus", "5x5", 1, "root=24 len=100"), "(accepted)");
}

TEST(bad_multicast_sets_are_refused)
{
    const char *app = NULL;
    for (int i = 0; coll_algos[i] && !app; i++)
        if (coll_algos[i]->op == COLL_MCAST && coll_algos[i]->sends)
            app = coll_algos[i]->app;
    if (!app)
        return;                                  /* no multicast algorithm registered yet */
    const struct coll_algo *a = coll_find_app(app);
    struct app_shape sh = sim_shape("hypercube", "16", 0);
    int ok = 0;
    for (size_t k = 0; k < NMACH && !ok; k++) {
        sh = sim_shape(machines[k].topo, machines[k].dims, 0);
        ok = app_check_args(app, a->restr, &sh, "set=1", 1ul << 20, (char[512]){ 0 }, 512) == 0;
    }
    REQUIRE(ok);
    char err[512];
    CHECK(app_check_args(app, a->restr, &sh, "set=", 1ul << 20, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "set= is empty");
    CHECK(app_check_args(app, a->restr, &sh, "set=3,1,3", 1ul << 20, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "rank 3 is named twice");
    CHECK(app_check_args(app, a->restr, &sh, "set=0,2", 1ul << 20, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "rank 0 is the root");
    CHECK(app_check_args(app, a->restr, &sh, "set=1,99999", 1ul << 20, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "rank 99999 is not a node");
    CHECK(app_check_args(app, a->restr, &sh, "set=1,x", 1ul << 20, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "not a list of ranks");
    for (int k = 0; k < 3; k++) {          /* an empty rank: before, between or after the others */
        static const char *const bad[] = { "set=,1", "set=1,,2", "set=1," };
        CHECK(app_check_args(app, a->restr, &sh, bad[k], 1ul << 20, err, sizeof err) != 0);
        CHECK_CONTAINS(err, "not a list of ranks");
    }
    CHECK(app_check_args(app, a->restr, &sh, "m=0", 1ul << 20, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "m=0 is not a number of destinations; accepted: m=1..");
    CHECK(app_check_args(app, a->restr, &sh, "m=3 seed=7", 1ul << 20, err, sizeof err) == 0);
}

/* The generator behind m= seed=: the same set on host and node (a pure
 * function), m distinct ranks, never the root. */
static const char *words_of(const char *key, void *u)
{
    const char *const *kv = u;
    for (int i = 0; kv[i]; i += 2)
        if (!strcmp(kv[i], key))
            return kv[i + 1];
    return NULL;
}

TEST(random_multicast_sets_are_distinct_and_reproducible)
{
    static int a[COLL_MAX_SET], b[COLL_MAX_SET];
    const char *kv[] = { "root", "5", "m", "20", "seed", "42", NULL };
    struct coll_ctx x, y;
    char err[256];
    REQUIRE(coll_ctx_from_args(COLL_MCAST, words_of, kv, 64, &x, a, err, sizeof err) == 0);
    REQUIRE(coll_ctx_from_args(COLL_MCAST, words_of, kv, 64, &y, b, err, sizeof err) == 0);
    CHECK_EQ_INT(x.nset, 20);
    CHECK(!memcmp(a, b, 20 * sizeof(int)));
    for (int i = 0; i < 20; i++) {
        CHECK(a[i] != 5 && a[i] >= 0 && a[i] < 64);
        CHECK(i == 0 || a[i] > a[i - 1]);
    }
    const char *kv2[] = { "root", "5", "m", "20", "seed", "43", NULL };
    REQUIRE(coll_ctx_from_args(COLL_MCAST, words_of, kv2, 64, &y, b, err, sizeof err) == 0);
    CHECK(memcmp(a, b, 20 * sizeof(int)) != 0);     /* another seed, another set */
    const char *kv3[] = { "root", "0", "set", "all", NULL };
    REQUIRE(coll_ctx_from_args(COLL_MCAST, words_of, kv3, 16, &y, b, err, sizeof err) == 0);
    CHECK_EQ_INT(y.nset, 15);
    CHECK_EQ_INT(b[0], 1);
}

TEST(reduction_words)
{
    static int set[1];
    struct coll_ctx cx;
    char err[256];
    const char *kv[] = { "op", "bxor", "type", "long", NULL };
    REQUIRE(coll_ctx_from_args(COLL_ALLREDUCE, words_of, kv, 8, &cx, set, err, sizeof err) == 0);
    CHECK_EQ_INT(cx.rop, COLL_BXOR);
    CHECK_EQ_INT(cx.dtype, COLL_INT64);
    const char *bad[] = { "op", "band", "type", "double", NULL };
    CHECK(coll_ctx_from_args(COLL_ALLREDUCE, words_of, bad, 8, &cx, set, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "op=band takes integers only");
    const char *bad2[] = { "type", "float", NULL };
    CHECK(coll_ctx_from_args(COLL_SCAN, words_of, bad2, 8, &cx, set, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "type=float is not known; accepted: int long double");
}

TEST(combine_operators)
{
    int32_t x[3] = { 5, -7, 0x0f0f }, y[3] = { 9, -3, 0x00ff };
    int32_t s[3], m[3];
    memcpy(s, x, sizeof x);
    coll_combine(s, y, 3, COLL_INT32, COLL_SUM);
    CHECK(s[0] == 14 && s[1] == -10 && s[2] == 0x0f0f + 0x00ff);
    memcpy(m, x, sizeof x);
    coll_combine(m, y, 3, COLL_INT32, COLL_MAX);
    CHECK(m[0] == 9 && m[1] == -3);
    memcpy(m, x, sizeof x);
    coll_combine(m, y, 3, COLL_INT32, COLL_MIN);
    CHECK(m[0] == 5 && m[1] == -7);
    memcpy(m, x, sizeof x);
    coll_combine(m, y, 3, COLL_INT32, COLL_BAND);
    CHECK(m[2] == 0x000f);
    memcpy(m, x, sizeof x);
    coll_combine(m, y, 3, COLL_INT32, COLL_BXOR);
    CHECK(m[2] == (0x0f0f ^ 0x00ff));
    int64_t big[1] = { INT64_MAX }, one[1] = { 1 };
    coll_combine(big, one, 1, COLL_INT64, COLL_SUM);           /* wraps, as two's complement */
    CHECK(big[0] == INT64_MIN);
    double d[2] = { 0.25, -1.5 }, e[2] = { 0.5, 2.0 };
    coll_combine(d, e, 2, COLL_DOUBLE, COLL_SUM);
    CHECK(d[0] == 0.75 && d[1] == 0.5);
    coll_combine(d, e, 2, COLL_DOUBLE, COLL_MIN);
    CHECK(d[0] == 0.5 && d[1] == 0.5);
}


static const char *auto_name(enum coll_op op, const char *topo, const char *dims, int all_port, long len)
{
    struct app_shape sh = sim_shape(topo, dims, all_port);
    struct coll_ctx cx = { 0 };
    sh.cx = &cx;
    char why[128];
    const struct coll_algo *a = coll_auto(op, &sh, len, 1ul << 20, why, sizeof why);
    return a ? a->name : "(none)";
}

TEST(auto_of_the_other_operations_follows_its_table)
{
    CHECK_STR(auto_name(COLL_ALLREDUCE, "torus", "8x8", 0, 64), "std_exchange");
    CHECK_STR(auto_name(COLL_ALLREDUCE, "torus", "8x8", 0, 8192), "ring");
    CHECK_STR(auto_name(COLL_ALLREDUCE, "hypercube", "16", 0, 8192), "std_exchange");
    CHECK_STR(auto_name(COLL_ALLREDUCE, "mesh", "3x5", 0, 64), "tree");
    CHECK_STR(auto_name(COLL_ALLREDUCE, "mesh", "3x5", 0, 8192), "ring");
    CHECK_STR(auto_name(COLL_SCAN, "mesh", "3x5", 0, 64), "chain");
    CHECK_STR(auto_name(COLL_SCAN, "hypercube", "32", 0, 64), "std_exchange");
    CHECK_STR(auto_name(COLL_BARRIER, "mesh", "3x5", 0, 0), "dissemination");
    /* allgather: Bruck's log p start-ups while len p is small (4096 on a
     * mesh, 2048 on a torus), then the rings; flood and the hypercube's
     * row come first */
    CHECK_STR(auto_name(COLL_ALLGATHER, "mesh", "8x8", 0, 64), "bruck");
    CHECK_STR(auto_name(COLL_ALLGATHER, "mesh", "8x8", 0, 65), "ring");
    CHECK_STR(auto_name(COLL_ALLGATHER, "torus", "8x8", 0, 32), "bruck");
    CHECK_STR(auto_name(COLL_ALLGATHER, "torus", "8x8", 0, 33), "rowcol");
    CHECK_STR(auto_name(COLL_ALLGATHER, "torus", "4x4x4", 0, 64), "ring");
    CHECK_STR(auto_name(COLL_ALLGATHER, "mesh", "5x5", 1, 16), "flood");
    CHECK_STR(auto_name(COLL_ALLGATHER, "hypercube", "16", 0, 16), "std_exchange");
    CHECK_STR(auto_name(COLL_SCATTER, "hypercube", "32", 0, 64), "binomial");
    CHECK_STR(auto_name(COLL_GATHER, "torus", "5x5", 0, 64), "rd");
    CHECK_STR(auto_name(COLL_REDUCE, "mesh", "4x4", 0, 64), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "7x7", 1, 4096), "tseng2d");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "7x7", 1, 256), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "7x7", 0, 32768), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "7x7", 0, 65536), "scatter_collect");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "3x3x3", 1, 4096), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "3x3x3", 1, 8192), "tseng3d");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "3x3x3x3", 1, 4096), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "3x3x3x3", 1, 8192), "tsengkd");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "16", 1, 512), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "torus", "16", 1, 1024), "tsengkd");
    CHECK_STR(auto_name(COLL_BCAST, "mesh", "8x8", 1, 2048), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "mesh", "8x8", 1, 4096), "edn");
    CHECK_STR(auto_name(COLL_BCAST, "mesh", "8x8", 0, 8192), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "mesh", "8x8", 0, 16384), "edsf");
    CHECK_STR(auto_name(COLL_BCAST, "mesh", "8x8", 0, 1024), "rd");
    CHECK_STR(auto_name(COLL_BCAST, "hypercube", "32", 1, 4096), "sbt");
    CHECK_STR(auto_name(COLL_BCAST, "hypercube", "32", 1, 8192), "edst");
    CHECK_STR(auto_name(COLL_BCAST, "hypercube", "32", 0, 8192), "sbt");
    CHECK_STR(auto_name(COLL_MCAST, "torus", "4x4", 0, 64), "utorus");
    CHECK_STR(auto_name(COLL_MCAST, "mesh", "4x4", 0, 64), "umesh");
    CHECK_STR(auto_name(COLL_MCAST, "hypercube", "8", 0, 64), "ucube");
    /* every pick is one the run tool accepts on that machine */
    for (int i = 0; coll_algos[i]; i++) {
        const struct coll_algo *au = coll_algos[i];
        if (au->sends || au->op == COLL_ALLTOALL || au->op == COLL_ALLGATHER)
            continue;
        for (size_t k = 0; k < NMACH; k++)
            for (int ap = 0; ap < 2; ap++) {
                struct app_shape sh = sim_shape(machines[k].topo, machines[k].dims, ap);
                struct coll_ctx cx = { 0 };
                static int set[COLL_MAX_SET];
                set[0] = 1;
                cx.set = set;
                cx.nset = au->op == COLL_MCAST;
                sh.cx = &cx;
                char why[128], err[512];
                const struct coll_algo *a = coll_auto(au->op, &sh, 1024, 1ul << 20, why, sizeof why);
                if (!a) {
                    check_fail(__FILE__, __LINE__, "%s picks nothing on %s %s", au->app, machines[k].topo,
                               machines[k].dims);
                    continue;
                }
                if (app_check(a->app, a->restr, &sh, 1024, 1ul << 20, err, sizeof err))
                    check_fail(__FILE__, __LINE__, "%s picks %s, which refuses: %s", au->app, a->app, err);
            }
    }
}
