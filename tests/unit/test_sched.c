/* Every collective algorithm's schedule (apps/coll/), run on the host for
 * every machine it supports with p = 2..64 nodes, plus 16x9, 16x30, 32x32
 * (and a 1024-node hypercube) where they apply: every block delivered
 * exactly once (tests/unit/sched_sim.h lists the checks), the step count
 * and the start-ups per node equal the formula of the paper (restated
 * here, independently of the algorithm's own nsteps()), the message sizes
 * and the memory per node equal what the algorithm declares (the run
 * tool's len= and memory checks rely on them), and the steps are
 * contention-free wherever the paper says so.
 */
#include "check.h"
#include "sched_sim.h"

/* --- the machines tried ------------------------------------------------ */

#define MAX_SHAPES 400
static struct app_shape shapes[MAX_SHAPES];
static int nshapes;

/* The run tool's default 2D shape of p nodes (host/machine.c): the
 * largest divisor r <= sqrt(p) rows of p/r. */
static void add_default_2d(int topo, int p)
{
    int r = 1;
    for (int d = 1; d * d <= p; d++)
        if (p % d == 0)
            r = d;
    char dims[32];
    snprintf(dims, sizeof dims, "%dx%d", p / r, r);
    shapes[nshapes++] = sim_shape(topo == TOPO_MESH ? "mesh" : "torus", dims, 0);
}

static void add(const char *topo, const char *dims, int all_port)
{
    shapes[nshapes++] = sim_shape(topo, dims, all_port);
}

static void make_shapes(void)
{
    if (nshapes)
        return;
    for (int p = 2; p <= 64; p++) {
        add_default_2d(TOPO_MESH, p);
        add_default_2d(TOPO_TORUS, p);
    }
    for (int p = 2; p <= 64; p *= 2) {
        char n[8];
        snprintf(n, sizeof n, "%d", p);
        add("hypercube", n, 0);
    }
    static const char *const extra[] = { "16x9", "16x30", "32x32", "16x16", "9x16", "30x16",
                                         "4x2", "2x4", "8x2", "4x16" };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        add("mesh", extra[i], 0);
        add("torus", extra[i], 0);
    }
    add("hypercube", "1024", 0);
    for (int n = 2; n <= 8; n++) {
        char d[16];
        snprintf(d, sizeof d, "%dx%d", n, n);
        add("mesh", d, 1);
        add("torus", d, 1);
    }
    add("torus", "9x9", 1);
    add("torus", "15x15", 1);
    add("mesh", "4x4x4", 0);
    add("torus", "3x4x5", 0);
    add("torus", "5x5", 1);
    for (int p = 2; p <= 1024; p *= 2) {
        char n[8];
        snprintf(n, sizeof n, "%d", p);
        add("banyan", n, 0);
    }
}

/* The shape is one the algorithm accepts (by the apps' own check). */
static int supports(const struct coll_algo *a, const struct app_shape *sh)
{
    char err[512];
    return app_check(a->app, a->restr, sh, 1, 1ul << 40, err, sizeof err) == 0;
}

static const char *shape_name(const struct app_shape *sh)
{
    static char buf[96];
    app_shape_str(sh, buf, sizeof buf);
    if (sh->all_port)
        strcat(buf, " all-port");
    return buf;
}

/* --- the papers' formulas ----------------------------------------------- */

static int side(const struct app_shape *sh) { return sh->dims[0]; }
static int lg(int x) { int k = 0; while ((1 << k) < x) k++; return k; }   /* ceil(log2 x) */
static int isqrt(int x) { int r = 0; while ((r + 1) * (r + 1) <= x) r++; return r; }

struct formula {
    const char *op, *name;
    int (*steps)(const struct app_shape *sh);
    int (*max_sends)(const struct app_shape *sh);
    int (*min_sends)(const struct app_shape *sh);        /* NULL: same as max */
    int min_shapes;              /* the fewest machines of the list it must run on */
};

static int p_1(const struct app_shape *sh) { return sh->nodes - 1; }
static int q_1(const struct app_shape *sh) { int q = 1; while (q < sh->nodes) q *= 2; return q - 1; }
static int lg_n(const struct app_shape *sh) { return lg(sh->nodes); }
static int quad_steps(const struct app_shape *sh) { return 3 * (isqrt(sh->nodes) - 1); }
static int quad_sends(const struct app_shape *sh) { return 3 * lg(isqrt(sh->nodes)); }
static int a1_steps(const struct app_shape *sh) { return side(sh) / 4 + 5; }
static int a1_master(const struct app_shape *sh) { return side(sh) / 4 + 4; }
static int two(const struct app_shape *sh) { (void)sh; return 2; }
static int an1_steps(const struct app_shape *sh) { return 3 * lg(side(sh)) - 1; }
static int an1_sends(const struct app_shape *sh) { return 2 * lg(side(sh)); }
static int flood_steps(const struct app_shape *sh)
{
    return sh->topo == TOPO_TORUS ? 2 * (side(sh) / 2) : 2 * (side(sh) - 1);
}
static int atape_steps(const struct app_shape *sh) { return sh->nodes == 2 ? 1 : sh->nodes; }   /* n rounds */
static int rowcol_steps(const struct app_shape *sh) { return sh->dims[0] / 2 + sh->dims[1] / 2; }
static int sum_w_1(const struct app_shape *sh)
{
    int n = 0;
    for (int i = 0; i < sh->ndims; i++)
        n += sh->dims[i] - 1;
    return n;
}

static const struct formula formulas[] = {
    { "alltoall", "pex", p_1, p_1, NULL, 20 },                        /* Thakur 3.1 */
    { "alltoall", "pex_gen", q_1, p_1, NULL, 140 },                   /* Thakur 3.2 */
    { "alltoall", "pex_gen_shift", q_1, p_1, NULL, 140 },             /* Thakur 3.3 */
    { "alltoall", "gen", p_1, p_1, NULL, 140 },                       /* Thakur 3.4 */
    { "alltoall", "direct", p_1, p_1, NULL, 14 },                     /* McKinley 7: N-1 */
    { "alltoall", "std_exchange", lg_n, lg_n, NULL, 7 },              /* n steps */
    { "alltoall", "binary_exchange", lg_n, lg_n, NULL, 4 },           /* 2d = log2 N */
    { "alltoall", "quadrant_exchange", quad_steps, quad_sends, NULL, 4 }, /* 3(sqrt N - 1) */
    { "alltoall", "a1", a1_steps, a1_master, two, 3 },                /* (N/4 + 5) t_s */
    { "alltoall", "an1", an1_steps, an1_sends, two, 4 },              /* (3 log N - 1) t_s */
    { "alltoall", "atape", atape_steps, p_1, NULL, 10 },              /* Yang and Wang: n rounds */
    { "allgather", "flood", flood_steps, NULL, NULL, 12 },            /* largest distance */
    { "allgather", "rowcol", rowcol_steps, sum_w_1, NULL, 70 },       /* 2 floor(n/2) */
    { "allgather", "ring", sum_w_1, sum_w_1, NULL, 140 },
    { "allgather", "std_exchange", lg_n, lg_n, NULL, 7 },             /* n t_s */
    { "allgather", "bruck", lg_n, lg_n, NULL, 140 },                  /* Bruck: ceil(lg p) rounds */
};

static const struct formula *formula_of(const struct coll_algo *a)
{
    for (size_t i = 0; i < sizeof formulas / sizeof formulas[0]; i++)
        if (!strcmp(formulas[i].name, a->name) &&
            !strcmp(formulas[i].op, a->op == COLL_ALLTOALL ? "alltoall" : "allgather"))
            return &formulas[i];
    return NULL;
}

/* Run algorithm `name` on every supported shape; check the formulas.
 * Returns the number of shapes run. */
static int check_algo(enum coll_op op, const char *name, int min_shapes)
{
    make_shapes();
    const struct coll_algo *a = coll_find(op, name);
    if (!a) {
        CHECK(!"algorithm not in the registry");
        return 0;
    }
    const struct formula *f = formula_of(a);
    if (!f) {
        CHECK(!"no formula for this algorithm in the test");
        return 0;
    }
    int ran = 0;
    for (int i = 0; i < nshapes; i++) {
        const struct app_shape *sh = &shapes[i];
        if (!supports(a, sh))
            continue;
        ran++;
        struct sim s;
        if (sim_run(&s, a, sh, 0)) {
            check_fail(__FILE__, __LINE__, "%s on %s: %s", a->app, shape_name(sh), s.err);
            sim_free(&s);
            continue;
        }
        if (s.steps != f->steps(sh))
            check_fail(__FILE__, __LINE__, "%s on %s: %d steps, the paper's formula gives %d", a->app,
                       shape_name(sh), s.steps, f->steps(sh));
        if (f->max_sends && s.max_sends != f->max_sends(sh))
            check_fail(__FILE__, __LINE__, "%s on %s: a node sends %d messages, the formula gives %d", a->app,
                       shape_name(sh), s.max_sends, f->max_sends(sh));
        int min = f->min_sends ? f->min_sends(sh) : f->max_sends ? f->max_sends(sh) : -1;
        if (min >= 0 && s.min_sends != min)
            check_fail(__FILE__, __LINE__, "%s on %s: the least busy node sends %d messages, expected %d",
                       a->app, shape_name(sh), s.min_sends, min);
        if (s.max_msg != a->max_msg_blocks(sh))
            check_fail(__FILE__, __LINE__, "%s on %s: largest message %ld blocks, max_msg_blocks() says %ld",
                       a->app, shape_name(sh), s.max_msg, a->max_msg_blocks(sh));
        if (s.peak_hold != a->max_hold(sh))
            check_fail(__FILE__, __LINE__, "%s on %s: a node holds up to %ld blocks, max_hold() says %ld",
                       a->app, shape_name(sh), s.peak_hold, a->max_hold(sh));
        sim_free(&s);
    }
    if (ran < min_shapes)
        check_fail(__FILE__, __LINE__, "%s ran on %d shapes, expected at least %d", a->app, ran, min_shapes);
    return ran;
}

/* The data a node sends, where the papers count it: standard and binary
 * exchange n N/2 blocks (McKinley 7: "a total of n(N/2) l bytes per
 * node"), quadrant exchange 3 j N/4, the direct algorithms N-1. A1 and
 * A(n-1): by our reading a master sends N^3/4 + 3.5 N^2 (A1) and
 * 1.25 N^3 - 1.5 N^2 (A(n-1)) blocks; Table 1 prints (N^3 + 10 N^2)/4
 * and 2N^3 - 2N^2, counting phases 3-4 of A1 as one step each (as its
 * text says, against its pseudo-code and its start-up count). */
static void sent_blocks(enum coll_op op, const char *name, const char *topo, const char *dims, long want)
{
    struct app_shape sh = sim_shape(topo, dims, 0);
    struct sim s;
    if (sim_run(&s, coll_find(op, name), &sh, 0)) {
        check_fail(__FILE__, __LINE__, "%s on %s: %s", name, dims, s.err);
        return;
    }
    if (s.max_sent_blocks != want)
        check_fail(__FILE__, __LINE__, "%s on %s %s: a node sends %ld blocks, expected %ld", name, topo, dims,
                   s.max_sent_blocks, want);
    sim_free(&s);
}

TEST(blocks_sent_per_node)
{
    sent_blocks(COLL_ALLTOALL, "std_exchange", "hypercube", "64", 6 * 32);
    sent_blocks(COLL_ALLTOALL, "binary_exchange", "mesh", "8x8", 6 * 32);
    sent_blocks(COLL_ALLTOALL, "quadrant_exchange", "mesh", "8x8", 3 * 3 * 16);
    sent_blocks(COLL_ALLTOALL, "pex", "mesh", "8x8", 63);
    sent_blocks(COLL_ALLTOALL, "gen", "mesh", "7x3", 20);
    sent_blocks(COLL_ALLGATHER, "std_exchange", "hypercube", "32", 31);
    sent_blocks(COLL_ALLGATHER, "ring", "torus", "4x5", 19);
    sent_blocks(COLL_ALLGATHER, "bruck", "mesh", "7x3", 20);
    for (long N = 8; N <= 32; N *= 2) {
        char d[16];
        snprintf(d, sizeof d, "%ldx%ld", N, N);
        sent_blocks(COLL_ALLTOALL, "a1", "torus", d, N * N * N / 4 + 7 * N * N / 2);
    }
    for (long N = 4; N <= 32; N *= 2) {
        char d[16];
        snprintf(d, sizeof d, "%ldx%ld", N, N);
        sent_blocks(COLL_ALLTOALL, "an1", "torus", d, 5 * N * N * N / 4 - 3 * N * N / 2);
    }
}

/* --- delivery, steps and start-ups, per algorithm --------------------------- */

/* Every complete-exchange and all-to-all broadcast algorithm of the
 * registry has a row in formulas[] and runs, by that row, on every machine
 * of the list it takes: a new one cannot slip in untested, nor pass on a
 * row alone. (The other operations have their own test files.) */
TEST(every_registered_algorithm_delivers_and_meets_its_formula)
{
    make_shapes();
    int n = 0;
    for (int i = 0; coll_algos[i]; i++) {
        const struct coll_algo *a = coll_algos[i];
        if (!a->sends || (a->op != COLL_ALLTOALL && a->op != COLL_ALLGATHER))
            continue;                      /* auto, or another operation */
        n++;
        const struct formula *f = formula_of(a);
        if (!f) {
            check_fail(__FILE__, __LINE__, "%s has no row in formulas[] (its steps and start-ups as its source "
                       "gives them, and the fewest machines of the list it must run on)", a->app);
            continue;
        }
        if (!check_algo(a->op, a->name, f->min_shapes))
            check_fail(__FILE__, __LINE__, "%s supports none of the shapes tried", a->app);
    }
    CHECK(n >= 15);                        /* the papers' 15: the loop saw the registry */
}
