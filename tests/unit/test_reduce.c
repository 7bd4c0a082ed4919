/* The scatter, gather, reduction, all-reduction, scan and barrier
 * schedules (McKinley, Tsai and Robinson, sections 2, 4, 5, 7), run by the
 * host simulator (sched_sim.h) on every machine they support up to 64
 * nodes, from several roots, and on a few larger ones: delivery (and for
 * the reductions, every contribution exactly once; for the scan, only from
 * lower ranks; for the barrier, every token depending on every node), the
 * step counts of the paper's formulas (restated here, not taken from the
 * algorithms), one message per node per step (one-port), the start-ups
 * and data each node sends, and contention-free steps where the paper
 * says so.
 */
#include "check.h"
#include "sched_sim.h"

/* --- the paper's formulas, restated ------------------------------------ */

static int clg(long x)                  /* ceil(log2 x) */
{
    int k = 0;
    while ((1l << k) < x)
        k++;
    return k;
}

static int sum_clg_w(const struct app_shape *sh)        /* sum ceil(lg w_i): section 5 */
{
    int n = 0;
    for (int i = 0; i < sh->ndims; i++)
        n += clg(sh->dims[i]);
    return n;
}

static int sum_w1(const struct app_shape *sh)           /* sum (w_i - 1): section 7 */
{
    int n = 0;
    for (int i = 0; i < sh->ndims; i++)
        n += sh->dims[i] - 1;
    return n;
}

static int last_w(const struct app_shape *sh)
{
    int i = sh->ndims - 1;
    while (i > 0 && sh->dims[i] == 1)
        i--;
    return sh->dims[i];
}

enum claim { ANYWHERE, ON_HYPERCUBE, NEVER };

struct expect {
    const char *app;
    int (*steps)(const struct app_shape *sh);
    enum claim contention_free;          /* where the paper's schedule avoids shared channels */
    int mesh_torus_free;                 /* contention-free on every mesh and torus too */
};

static int st_lg(const struct app_shape *sh) { return clg(sh->nodes); }
static int st_2lg(const struct app_shape *sh) { return 2 * clg(sh->nodes); }
static int st_n(const struct app_shape *sh) { return clg(sh->nodes); }  /* p = 2^n here */
static int st_dims(const struct app_shape *sh) { return sum_clg_w(sh); }
static int st_ring(const struct app_shape *sh) { return 2 * sum_w1(sh); }
static int st_chain(const struct app_shape *sh) { return 2 * sum_w1(sh) - (last_w(sh) - 1); }

static const struct expect expects[] = {
    { "scatter_binomial",       st_lg,    ON_HYPERCUBE, 0 },
    { "gather_binomial",        st_lg,    ON_HYPERCUBE, 0 },
    { "scatter_rd",             st_dims,  ANYWHERE,     1 },
    { "gather_rd",              st_dims,  ANYWHERE,     1 },
    { "reduce_binomial",        st_lg,    ON_HYPERCUBE, 0 },
    { "reduce_rd",              st_dims,  ANYWHERE,     1 },
    { "allreduce_std_exchange", st_n,     ON_HYPERCUBE, 0 },
    { "allreduce_ring",         st_ring,  ANYWHERE,     1 },
    { "allreduce_tree",         st_2lg,   ON_HYPERCUBE, 0 },
    { "scan_std_exchange",      st_n,     ON_HYPERCUBE, 0 },
    { "scan_chain",             st_chain, ANYWHERE,     1 },
    { "barrier_tree",           st_2lg,   ON_HYPERCUBE, 0 },
    { "barrier_dissemination",  st_lg,    NEVER,        0 },
};
#define NEXP ((int)(sizeof expects / sizeof expects[0]))

/* --- the machines ------------------------------------------------------- */

#define MAX_SHAPES 400
static struct app_shape shapes[MAX_SHAPES];
static int nshapes;

static void add(const char *topo, const char *dims)
{
    shapes[nshapes++] = sim_shape(topo, dims, 0);
}

/* Every p up to 64 as a line, as the run tool's default 2D shape, and a 3D
 * shape where p has one; hypercubes of 2..64 nodes; a few larger ones. */
static void make_shapes(void)
{
    if (nshapes)
        return;
    char d[32];
    for (int p = 2; p <= 64; p++) {
        int r = 1, a = 1;
        for (int x = 1; x * x <= p; x++)
            if (p % x == 0)
                r = x;
        for (int x = 2; x * x * x <= p; x++)
            if (p % x == 0 && (p / x) % x == 0)
                a = x;
        for (int t = 0; t < 2; t++) {
            const char *topo = t ? "torus" : "mesh";
            snprintf(d, sizeof d, "%d", p);
            add(topo, d);
            if (r > 1) {
                snprintf(d, sizeof d, "%dx%d", p / r, r);
                add(topo, d);
            }
            if (a > 1) {
                snprintf(d, sizeof d, "%dx%dx%d", a, a, p / (a * a));
                add(topo, d);
            }
        }
    }
    for (int p = 2; p <= 64; p *= 2) {
        snprintf(d, sizeof d, "%d", p);
        add("hypercube", d);
    }
    static const char *const extra[] = { "16x9", "16x16", "1x8", "8x1x3" };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        add("mesh", extra[i]);
        add("torus", extra[i]);
    }
    add("hypercube", "256");
}

static int supports(const struct coll_algo *a, const struct app_shape *sh)
{
    char err[512];
    return app_check(a->app, a->restr, sh, a->op == COLL_BARRIER ? 0 : 64, 1ul << 40, err, sizeof err) == 0;
}

static const char *shape_name(const struct app_shape *sh)
{
    static char buf[96];
    app_shape_str(sh, buf, sizeof buf);
    return buf;
}

static int is_rooted(enum coll_op op)
{
    return op == COLL_SCATTER || op == COLL_GATHER || op == COLL_REDUCE;
}

/* Run one algorithm on one shape from one root; the checks common to all. */
static int run_one(const struct expect *x, const struct coll_algo *a, struct app_shape *sh, int root,
                   struct sim *s)
{
    struct coll_ctx cx = { 0 };
    cx.root = root;
    sh->cx = &cx;
    int rc = sim_run(s, a, sh, SIM_LOADS);
    sh->cx = NULL;
    if (rc) {
        check_fail(__FILE__, __LINE__, "%s on %s, root %d: %s", a->app, shape_name(sh), root, s->err);
        return -1;
    }
    if (s->steps != x->steps(sh))
        check_fail(__FILE__, __LINE__, "%s on %s: %d steps, the formula says %d", a->app, shape_name(sh),
                   s->steps, x->steps(sh));
    if (s->max_step_sends > 1 || s->max_step_recvs > 1)
        check_fail(__FILE__, __LINE__, "%s on %s: a node sends %d / receives %d messages in one step", a->app,
                   shape_name(sh), s->max_step_sends, s->max_step_recvs);
    int want_free = x->contention_free == ANYWHERE ||
                    (x->contention_free == ON_HYPERCUBE && sh->topo == TOPO_HYPERCUBE);
    for (int t = 1; want_free && t <= s->steps; t++)
        if (s->step_load[t] > 1) {
            check_fail(__FILE__, __LINE__, "%s on %s, root %d: step %d puts %d messages on one channel", a->app,
                       shape_name(sh), root, t, s->step_load[t]);
            break;
        }
    if (s->max_msg != a->max_msg_blocks(sh))
        check_fail(__FILE__, __LINE__, "%s on %s: largest message %ld blocks, declared %ld", a->app,
                   shape_name(sh), s->max_msg, a->max_msg_blocks(sh));
    return 0;
}

/* Each algorithm on each machine it supports, from roots 0, 1, p/2, p-1
 * (all roots up to 8 nodes) for the rooted operations. */
static void run_all(const struct expect *x, void (*more)(const struct coll_algo *, const struct app_shape *, int,
                                                         const struct sim *))
{
    make_shapes();
    const struct coll_algo *a = coll_find_app(x->app);
    REQUIRE(a != NULL);
    int ran = 0;
    for (int k = 0; k < nshapes; k++) {
        struct app_shape *sh = &shapes[k];
        if (!supports(a, sh))
            continue;
        int p = sh->nodes, roots[8], nr = 0;
        if (!is_rooted(a->op))
            roots[nr++] = 0;
        else if (p <= 8)
            for (int r = 0; r < p; r++)
                roots[nr++] = r;
        else {
            roots[nr++] = 0;
            roots[nr++] = 1;
            roots[nr++] = p / 2;
            roots[nr++] = p - 1;
        }
        for (int i = 0; i < nr; i++) {
            struct sim s;
            if (run_one(x, a, sh, roots[i], &s) == 0) {
                ran++;
                if (more)
                    more(a, sh, roots[i], &s);
            }
            sim_free(&s);
        }
    }
    CHECK(ran > 0);
}

static const struct expect *expect_of(const char *app)
{
    for (int i = 0; i < NEXP; i++)
        if (!strcmp(expects[i].app, app))
            return &expects[i];
    return NULL;
}

/* --- per operation: start-ups and data (sections 4, 5, 7) --------------- */

/* Scatter: the root sends its p-1 foreign blocks, once each; on the
 * binomial tree in ceil(lg p) messages, the largest the half subtree
 * p - 2^(L-1) (or 2^(L-2) when that is more). Gather: every node but the
 * root sends exactly once. */
static void scatter_more(const struct coll_algo *a, const struct app_shape *sh, int root, const struct sim *s)
{
    CHECK_EQ_INT(s->sent_blocks[root], sh->nodes - 1);
    if (!strcmp(a->name, "binomial")) {
        int L = clg(sh->nodes);
        long half = sh->nodes - (1l << (L - 1)), quarter = L >= 2 ? 1l << (L - 2) : 0;
        CHECK_EQ_INT(s->sends[root], L);
        CHECK_EQ_INT(s->max_msg, half > quarter ? half : quarter);
    }
}

static void gather_more(const struct coll_algo *a, const struct app_shape *sh, int root, const struct sim *s)
{
    (void)a;
    for (int v = 0; v < sh->nodes; v++)
        CHECK_EQ_INT(s->sends[v], v != root);
}

/* N/1 reduction: every node but the root sends its vector once. */
static void reduce_more(const struct coll_algo *a, const struct app_shape *sh, int root, const struct sim *s)
{
    (void)a;
    for (int v = 0; v < sh->nodes; v++)
        CHECK_EQ_INT(s->sends[v], v != root);
    CHECK_EQ_INT(s->max_msg, 1);
}

/* Standard exchange (section 7): lg p messages of one vector per node. */
static void exchange_more(const struct coll_algo *a, const struct app_shape *sh, int root, const struct sim *s)
{
    (void)a;
    (void)root;
    for (int v = 0; v < sh->nodes; v++)
        CHECK_EQ_INT(s->sends[v], clg(sh->nodes));
    CHECK_EQ_INT(s->max_msg, 1);
}

/* Ring all-reduction: p segments; each node sends one message a step and
 * (p-1) segments in each half (the all-to-all broadcast's (N-1) l). */
static void ring_more(const struct coll_algo *a, const struct app_shape *sh, int root, const struct sim *s)
{
    (void)a;
    (void)root;
    CHECK_EQ_INT(s->segs, sh->nodes);
    for (int v = 0; v < sh->nodes; v++) {
        CHECK_EQ_INT(s->sends[v], 2 * sum_w1(sh));
        CHECK_EQ_INT(s->sent_blocks[v], 2l * (sh->nodes - 1));
    }
}

/* Tree all-reduction and barrier: one send up per node but the root, one
 * down per node but the root; the root sends ceil(lg p) down. */
static void tree_more(const struct coll_algo *a, const struct app_shape *sh, int root, const struct sim *s)
{
    (void)a;
    (void)root;
    long total = 0;
    for (int v = 0; v < sh->nodes; v++)
        total += s->sends[v];
    CHECK_EQ_INT(total, 2l * (sh->nodes - 1));
    CHECK_EQ_INT(s->sends[0], clg(sh->nodes));
}

static void dissemination_more(const struct coll_algo *a, const struct app_shape *sh, int root, const struct sim *s)
{
    (void)a;
    (void)root;
    for (int v = 0; v < sh->nodes; v++)
        CHECK_EQ_INT(s->sends[v], clg(sh->nodes));
}

TEST(scatter_binomial) { run_all(expect_of("scatter_binomial"), scatter_more); }
TEST(scatter_rd) { run_all(expect_of("scatter_rd"), scatter_more); }
TEST(gather_binomial) { run_all(expect_of("gather_binomial"), gather_more); }
TEST(gather_rd) { run_all(expect_of("gather_rd"), gather_more); }
TEST(reduce_binomial) { run_all(expect_of("reduce_binomial"), reduce_more); }
TEST(reduce_rd) { run_all(expect_of("reduce_rd"), reduce_more); }
TEST(allreduce_std_exchange) { run_all(expect_of("allreduce_std_exchange"), exchange_more); }
TEST(allreduce_ring) { run_all(expect_of("allreduce_ring"), ring_more); }
TEST(allreduce_tree) { run_all(expect_of("allreduce_tree"), tree_more); }
TEST(scan_std_exchange) { run_all(expect_of("scan_std_exchange"), exchange_more); }
TEST(scan_chain) { run_all(expect_of("scan_chain"), NULL); }
TEST(barrier_tree) { run_all(expect_of("barrier_tree"), tree_more); }
TEST(barrier_dissemination) { run_all(expect_of("barrier_dissemination"), dissemination_more); }

/* Every algorithm of this family in the registry has its expectations
 * here: none slips in untested. */
TEST(every_algorithm_of_the_family_is_covered)
{
    int n = 0;
    for (int i = 0; coll_algos[i]; i++) {
        const struct coll_algo *a = coll_algos[i];
        enum coll_op op = a->op;
        if (!a->sends || !(op == COLL_SCATTER || op == COLL_GATHER || op == COLL_REDUCE ||
                           op == COLL_ALLREDUCE || op == COLL_SCAN || op == COLL_BARRIER))
            continue;
        n++;
        if (!expect_of(a->app))
            check_fail(__FILE__, __LINE__, "%s has no expectations in test_reduce.c", a->app);
    }
    CHECK_EQ_INT(n, NEXP);
}

/* The ring all-reduction takes a wish of a multiple of p segments, and
 * p without one (another count is refused, below); the data each node
 * sends grows with the segments. */
TEST(allreduce_ring_segments)
{
    const struct coll_algo *a = coll_find_app("allreduce_ring");
    REQUIRE(a != NULL);
    struct app_shape sh = sim_shape("torus", "4x3", 0);
    int wish[] = { 0, 24 }, want[] = { 12, 24 };
    for (int i = 0; i < 2; i++) {
        struct coll_ctx cx = { 0 };
        cx.segs = wish[i];
        sh.cx = &cx;
        struct sim s;
        int rc = sim_run(&s, a, &sh, SIM_LOADS);
        if (rc)
            check_fail(__FILE__, __LINE__, "wish %d: %s", wish[i], s.err);
        CHECK_EQ_INT(s.segs, want[i]);
        CHECK_EQ_INT(s.sent_blocks[5], 2l * (want[i] / 12) * 11);
        sim_free(&s);
    }
    struct coll_ctx cx = { 0 };
    cx.segs = 5;
    sh.cx = &cx;
    char err[128];
    REQUIRE(a->check != NULL);
    CHECK(a->check(&sh, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "segs=5 is not a multiple of the 12 nodes");
}

/* The checker catches what the scan's care is about: a correct chain up,
 * then one message into a result buffer from above. */
static void scan_bad_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int p = sh->nodes;
    if (step < p && node == step - 1) {          /* the chain up, as scan_chain */
        coll_emit_msg(e, node + 1);
        coll_emit_blk(e, 1);
    } else if (step == p && node == p - 1) {     /* the top's result into its neighbour's */
        coll_emit_msg(e, node - 1);
        coll_emit_mode(e, COLL_COMBINE);
        coll_emit_blk(e, 0);
    }
}
static int scan_bad_steps(const struct app_shape *sh) { return sh->nodes; }
static int scan_good_len(const struct app_shape *sh) { return sh->nodes - 1; }
static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long two(const struct app_shape *sh) { (void)sh; return 2; }

TEST(checker_refuses_a_scan_fed_from_above)
{
    struct coll_algo bad = { .op = COLL_SCAN, .name = "bad", .app = "scan_bad", .restr = APP_ANY,
                             .nsteps = scan_bad_steps, .sends = scan_bad_sends, .max_msg_blocks = one,
                             .max_hold = two };
    struct app_shape sh = sim_shape("mesh", "5", 0);
    struct sim s;
    CHECK(sim_run(&s, &bad, &sh, 0) != 0);
    CHECK(strstr(s.err, "node 3") != NULL);
    sim_free(&s);
    bad.nsteps = scan_good_len;                /* without the last step it is a correct scan */
    CHECK(sim_run(&s, &bad, &sh, 0) == 0);
    sim_free(&s);
}
