/* Tseng et al.'s broadcast on all-port tori (apps/coll/bcast_tseng2d.c,
 * bcast_tseng3d.c, bcast_tsengkd.c; seed 001): every node reached exactly
 * once, the step count of the paper's formulas, every step contention-free
 * under dimension-ordered routing, and no fewer steps than the lower bound
 * of Lemma 1. Prints the table n, steps, bound.
 */
#include "check.h"
#include "sched_sim.h"

/* Smallest L with b^L >= x (x >= 1). */
static int ceil_log(long b, long x)
{
    int L = 0;
    for (long p = 1; p < x; p *= b)
        L++;
    return L;
}

static long ipow(long b, int e)
{
    long r = 1;
    while (e--)
        r *= b;
    return r;
}

/* The paper's count: 2 ceil(log5 n) + 1 (section 3), 3 ceil(log7 n) + 2
 * (Theorem 1), k ceil(log_(2k+1) n) + k - 1 (Theorem 2); less stage 1's
 * alignment step when n <= 3 and k >= 2, where the strips' sources
 * (row e_{1,k}) already lie on the line and that step has nothing to do. */
static int paper_steps(int k, int n)
{
    return k * ceil_log(2 * k + 1, n) + k - 1 - (k >= 2 && n <= 3);
}

/* Lemma 1: ceil(log_(2k+1) n^k). */
static int lower_bound(int k, int n) { return ceil_log(2 * k + 1, ipow(n, k)); }

static struct app_shape cube(int k, int n)
{
    char dims[64] = "";
    for (int i = 0; i < k; i++)
        snprintf(dims + strlen(dims), sizeof dims - strlen(dims), i ? "x%d" : "%d", n);
    return sim_shape("torus", dims, 1);
}

/* One run from `root`: delivery (sim_run), steps, contention, ports. */
static int run(const char *name, int k, int n, int root, int *steps)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, name);
    struct app_shape sh = cube(k, n);
    struct coll_ctx cx = { 0 };
    cx.root = root;
    sh.cx = &cx;
    struct sim s;
    int bad = 0;
    if (sim_run(&s, a, &sh, SIM_LOADS)) {
        printf("%s k=%d n=%d root=%d: %s\n", name, k, n, root, s.err);
        sim_free(&s);
        return 1;
    }
    int msgs = 0;
    for (int t = 1; t <= s.steps; t++) {
        msgs += s.step_msgs[t];
        if (s.step_load[t] > 1) {
            printf("%s k=%d n=%d root=%d: step %d has %d messages on one channel\n", name, k, n, root, t,
                   s.step_load[t]);
            bad = 1;
        }
    }
    if (msgs != sh.nodes - 1) {                 /* exactly once: one message per node but the root */
        printf("%s k=%d n=%d root=%d: %d messages for %d nodes\n", name, k, n, root, msgs, sh.nodes);
        bad = 1;
    }
    if (s.max_step_sends > 2 * k || s.max_step_recvs > 1) {
        printf("%s k=%d n=%d root=%d: %d sends / %d receives in one step\n", name, k, n, root, s.max_step_sends,
               s.max_step_recvs);
        bad = 1;
    }
    *steps = s.steps;
    sim_free(&s);
    return bad;
}

/* With TSENG_STEPS_CSV=FILE the sweeps also append their step table to
 * it as data (experiments/report/tseng001.py reads it by column name), under a
 * header written when the file is empty:
 * algorithm,k,n,steps,paper,lower_bound. Appended, since each test runs
 * in a process of its own (check.h). */
static FILE *steps_csv(void)
{
    static FILE *f;
    static int tried;
    const char *path = getenv("TSENG_STEPS_CSV");
    if (!tried && path && *path && (f = fopen(path, "a"))) {
        fseek(f, 0, SEEK_END);
        if (ftell(f) == 0)
            fprintf(f, "algorithm,k,n,steps,paper,lower_bound\n");
    }
    tried = 1;
    return f;
}

static void sweep(const char *name, int k, int nlo, int nhi, int all_roots_upto)
{
    for (int n = nlo; n <= nhi; n++) {
        int p = (int)ipow(n, k), steps = 0, last = -1;
        int roots[3] = { 0, p / 2 + n / 3, p - 1 };
        for (int r = 0; r < (n <= all_roots_upto ? p : 3); r++) {
            int root = n <= all_roots_upto ? r : roots[r];
            CHECK_EQ_INT(run(name, k, n, root, &steps), 0);
            CHECK_EQ_INT(steps, paper_steps(k, n));
            CHECK(steps >= lower_bound(k, n));
            CHECK(last < 0 || steps == last);
            last = steps;
        }
        printf("info: %s k=%d n=%2d: %2d steps (paper %d), lower bound %d\n", name, k, n, steps,
               k * ceil_log(2 * k + 1, n) + k - 1, lower_bound(k, n));
        if (steps_csv()) {
            fprintf(steps_csv(), "%s,%d,%d,%d,%d,%d\n", name, k, n, steps, k * ceil_log(2 * k + 1, n) + k - 1,
                    lower_bound(k, n));
            fflush(steps_csv());
        }
    }
}

TEST(tseng2d_every_n_2_to_25)
{
    sweep("tseng2d", 2, 2, 25, 7);
}

TEST(tseng2d_larger_tori)
{
    int steps;
    static const int ns[] = { 26, 31, 50, 63 };
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        CHECK_EQ_INT(run("tseng2d", 2, ns[i], 0, &steps), 0);
        CHECK_EQ_INT(steps, paper_steps(2, ns[i]));
        CHECK_EQ_INT(run("tseng2d", 2, ns[i], ns[i] * ns[i] / 2 + 1, &steps), 0);
    }
}

TEST(tseng3d_every_n_2_to_9)
{
    sweep("tseng3d", 3, 2, 9, 4);
}

TEST(tseng3d_larger_tori)
{
    int steps;
    static const int ns[] = { 13, 14, 15 };
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        CHECK_EQ_INT(run("tseng3d", 3, ns[i], 5, &steps), 0);
        CHECK_EQ_INT(steps, paper_steps(3, ns[i]));
    }
}

TEST(tsengkd_k_1_to_4)
{
    sweep("tsengkd", 1, 2, 30, 30);
    sweep("tsengkd", 2, 2, 12, 5);
    sweep("tsengkd", 3, 2, 6, 3);
    sweep("tsengkd", 4, 2, 4, 2);
}

TEST(tsengkd_k_5_to_8)
{
    sweep("tsengkd", 5, 2, 3, 0);
    sweep("tsengkd", 6, 2, 2, 0);
    sweep("tsengkd", 8, 2, 2, 0);
}

TEST(tseng_wider_sweep_of_sizes)
{
    /* the top-level layout changes with n mod (2k+1): every residue, root 0 */
    int steps;
    for (int n = 26; n <= 60; n += 3) {
        CHECK_EQ_INT(run("tseng2d", 2, n, 0, &steps), 0);
        CHECK_EQ_INT(steps, paper_steps(2, n));
        CHECK_EQ_INT(run("tsengkd", 2, n, 0, &steps), 0);
        CHECK_EQ_INT(steps, paper_steps(2, n));
    }
    for (int n = 10; n <= 16; n++) {
        CHECK_EQ_INT(run("tseng3d", 3, n, 0, &steps), 0);
        CHECK_EQ_INT(steps, paper_steps(3, n));
    }
    for (int n = 31; n <= 80; n++) {
        CHECK_EQ_INT(run("tsengkd", 1, n, n / 2, &steps), 0);
        CHECK_EQ_INT(steps, paper_steps(1, n));
    }
}

/* The destinations of `node` at `step`, as offsets from it (mod n) in the
 * order of want[]; 1 if they are exactly want[0..nw). */
static int sends_exactly(const char *name, int k, int n, int node, int step, const int (*want)[3], int nw)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, name);
    struct app_shape sh = cube(k, n);
    struct coll_ctx cx = { 0 };
    sh.cx = &cx;
    int lab[64], seen = 0, c[SHAPE_MAX_DIMS], d[SHAPE_MAX_DIMS];
    struct coll_plan plan = { .lab = lab, .cap = 64 };
    if (coll_plan_step(a, &sh, node, step, &plan) || plan.nsend != nw)
        return 0;
    shape_coords(&sh, node, c);
    for (int m = 0; m < plan.nsend; m++) {
        shape_coords(&sh, plan.send[m].peer, d);
        for (int w = 0; w < nw; w++) {
            int eq = 1;
            for (int j = 0; j < k; j++)
                eq &= ((c[j] + want[w][j]) % n + n) % n == d[j];
            if (eq)
                seen |= 1 << w;
        }
    }
    return seen == (1 << nw) - 1;
}

TEST(tseng2d_matches_the_paper_steps)
{
    /* 10 x 10, t = 2. Stage 1.1 from p(0,0): p(0,-2t), p(-t,-t), p(t,t), p(0,2t) */
    static const int s11[4][3] = { { 0, -4 }, { -2, -2 }, { 2, 2 }, { 0, 4 } };
    CHECK(sends_exactly("tseng2d", 2, 10, 0, 1, s11, 4));
    /* stage 1.2 (step 3): the holder of row 4, p(0,4), sends along X to p(4,4) */
    static const int s12[1][3] = { { 4, 0 } };
    CHECK(sends_exactly("tseng2d", 2, 10, 0 + 10 * 4, 3, s12, 1));
    /* stage 2 (step 4): p(i,i) sends to p(i-2t,i), p(i,i+t), p(i,i-t), p(i+2t,i) */
    static const int s2[4][3] = { { -4, 0 }, { 0, 2 }, { 0, -2 }, { 4, 0 } };
    CHECK(sends_exactly("tseng2d", 2, 10, 3 + 10 * 3, 4, s2, 4));
}

TEST(tseng3d_matches_the_paper_steps)
{
    /* 7 x 7 x 7, t = 1. Stage 1.1: rows e_{1,3}, e_{2,3}, e_3 times +-t, +-2t, +-3t */
    static const int s11[6][3] = { { 1, 0, 1 }, { 0, 2, 2 }, { 0, 0, 3 }, { -1, 0, -1 }, { 0, -2, -2 }, { 0, 0, -3 } };
    CHECK(sends_exactly("tseng3d", 3, 7, 0, 1, s11, 6));
    /* stage 1.2 (step 2): p(0,2,2) sends within its XY-plane to p(2,0,2) */
    static const int s12[1][3] = { { 2, -2, 0 } };
    CHECK(sends_exactly("tseng3d", 3, 7, 0 + 7 * 2 + 49 * 2, 2, s12, 1));
    /* stage 2 (step 3): p(i,0,i) sends by rows e_1, e_2 - e_3, -e_3 */
    static const int s2[6][3] = { { 1, 0, 0 }, { 0, 2, -2 }, { 0, 0, -3 }, { -1, 0, 0 }, { 0, -2, 2 }, { 0, 0, 3 } };
    CHECK(sends_exactly("tseng3d", 3, 7, 5 + 49 * 5, 3, s2, 6));
    /* stage 2.2 (step 4): the line through p(1,0,0) (plane x - z = 1) moves along Y by 1 */
    static const int s22[1][3] = { { 0, 1, 0 } };
    CHECK(sends_exactly("tseng3d", 3, 7, 1, 4, s22, 1));
    /* stage 3 (step 5): the plane x = y + z sends by rows e_1, -e_2, -e_3 */
    static const int s3[6][3] = { { 1, 0, 0 }, { 0, -2, 0 }, { 0, 0, -3 }, { -1, 0, 0 }, { 0, 2, 0 }, { 0, 0, 3 } };
    CHECK(sends_exactly("tseng3d", 3, 7, 5 + 7 * 2 + 49 * 3, 5, s3, 6));
}

TEST(tseng_top_layout_exists_for_every_n)
{
    /* the check refuses a side whose top level puts some part's source out
     * of the router's intended way; no side should be refused */
    char err[128];
    int bad = 0;
    for (int k = 1; k <= 8; k++)
        for (int n = 2; n <= (k <= 3 ? 3000 : 600); n++) {
            struct app_shape sh;
            memset(&sh, 0, sizeof sh);
            sh.topo = TOPO_TORUS;
            sh.all_port = 1;
            sh.ndims = k;
            for (int i = 0; i < SHAPE_MAX_DIMS; i++)
                sh.dims[i] = i < k ? n : 1;
            const char *name = k == 2 ? "tseng2d" : k == 3 ? "tseng3d" : "tsengkd";
            const struct coll_algo *a = coll_find(COLL_BCAST, name), *kd = coll_find(COLL_BCAST, "tsengkd");
            if (a->check(&sh, err, sizeof err) || kd->check(&sh, err, sizeof err)) {
                if (bad++ < 5)
                    printf("k=%d n=%d: %s\n", k, n, err);
            }
        }
    CHECK_EQ_INT(bad, 0);
    struct app_shape nine = cube(1, 2);
    nine.ndims = 9;
    CHECK(coll_find(COLL_BCAST, "tsengkd")->check(&nine, err, sizeof err) != 0);
}

static int refused(const char *app, const char *topo, const char *dims, int all_port)
{
    const struct coll_algo *a = coll_find_app(app);
    struct app_shape sh = sim_shape(topo, dims, all_port);
    char err[256];
    return app_check(a->app, a->restr, &sh, 1024, 262144, err, sizeof err) != 0;
}

TEST(tseng_refuses_other_machines)
{
    CHECK(refused("bcast_tseng2d", "torus", "4x5", 1));
    CHECK(refused("bcast_tseng2d", "torus", "5x5", 0));
    CHECK(refused("bcast_tseng2d", "mesh", "5x5", 1));
    CHECK(refused("bcast_tseng2d", "torus", "5x5x5", 1));
    CHECK(!refused("bcast_tseng2d", "torus", "5x5", 1));
    CHECK(refused("bcast_tseng3d", "torus", "3x3x4", 1));
    CHECK(refused("bcast_tseng3d", "torus", "3x3x3", 0));
    CHECK(!refused("bcast_tseng3d", "torus", "3x3x3", 1));
    CHECK(refused("bcast_tsengkd", "torus", "3x3x3x4", 1));
    CHECK(!refused("bcast_tsengkd", "torus", "3x3x3x3", 1));
}
