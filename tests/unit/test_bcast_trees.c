/* Broadcast trees and unicast-based multicasts (McKinley, Tsai and
 * Robinson 1994, sections 4 and 5): bcast sbt, edst, hokao, rd and mcast
 * ucube, umesh, utorus, run through the schedule simulator
 * (tests/unit/sched_sim.h: every target node gets every segment exactly
 * once, nobody gets a block twice, no block is forwarded before it
 * arrived). Each test then checks the paper's step count, computed here
 * from the paper's formula, and its contention claim: under the network's
 * routes no directed channel carries two messages in one step. One-port
 * algorithms must send and receive at most one message per node per step.
 */
#include "check.h"
#include "sched_sim.h"

static int clog2(long x) { int k = 0; while ((1L << k) < x) k++; return k; }

static const char *name_of(const struct app_shape *sh)
{
    static char buf[96];
    app_shape_str(sh, buf, sizeof buf);
    if (sh->all_port)
        strcat(buf, " all-port");
    return buf;
}

/* The run tool's check of the machine (a multicast's with set=all). */
static int accepts(const struct coll_algo *a, const struct app_shape *sh)
{
    char err[512];
    return app_check_args(a->app, a->restr, sh, "len=64 set=all", 1ul << 40, err, sizeof err) == 0;
}

/* Refused for the machine, with a reason naming what is accepted (and
 * accepted with the same call on the right machine). */
static void refused(const char *algo, struct app_shape sh, const char *why)
{
    char err[512] = "";
    const struct coll_algo *a = coll_find_app(algo);
    if (!a) {
        CHECK(!"unknown algorithm");
        return;
    }
    CHECK(app_check_args(a->app, a->restr, &sh, "len=64 set=all", 1ul << 20, err, sizeof err) != 0);
    CHECK_CONTAINS(err, why);
}

/* A fixed generator for roots and sets. */
static unsigned long rng = 12345;
static int rnd(int n)
{
    rng = rng * 6364136223846793005ul + 1442695040888963407ul;
    return (int)((rng >> 33) % (unsigned long)n);
}

/* The most messages of one step on one (directed channel, virtual-channel
 * class) of a torus, by the survey's Figure 18 (Robinson et al.): in each
 * dimension a worm that will cross the wrap link uses the "p" channels up
 * to and including the wrap link, and the "h" channels after it; a worm
 * that never wraps uses the "h" channels. The two classes are separate
 * resources, so two worms on one link in different classes do not
 * contend. (The network's dateline classes, docs/network.md, put a worm in
 * class 0 BEFORE the wrap too: there such a pair shares class 0.) */
static int class_load(const struct coll_algo *a, const struct app_shape *sh, int step)
{
    int p = sh->nodes, P = 2 * sh->ndims, nch = p * P * 2, most = 0;
    int *use = calloc((size_t)nch, sizeof(int));
    struct coll_plan pl = { 0 };
    int lab[4 * COLL_MAX_MSGS];
    pl.lab = lab;
    pl.cap = 4 * COLL_MAX_MSGS;
    for (int v = 0; v < p; v++) {
        struct coll_emit e = { &pl, -1, -1, NULL };
        pl.nsend = pl.nlab = 0;
        a->sends(sh, v, step, &e);
        for (int m = 0; m < pl.nsend; m++) {
            /* the network's own route (sim_route), a dimension at a time:
             * p up to and including the dimension's wrap link, h after */
            int route[4 * SHAPE_MAX_DIMS * 64], n = sim_route(sh, v, pl.send[m].peer, route, 4 * SHAPE_MAX_DIMS * 64);
            for (int j = 0, e; j < n; j = e) {
                int dim = route[j] % P / 2, wrap = -1;
                for (e = j; e < n && route[e] % P / 2 == dim; e++) {
                    int c[SHAPE_MAX_DIMS], dir = route[e] % 2 ? -1 : 1;
                    shape_coords(sh, route[e] / P, c);
                    if (dir > 0 ? c[dim] == sh->dims[dim] - 1 : c[dim] == 0)
                        wrap = e;
                }
                for (int q = j; q < e; q++) {
                    int ch = route[q] * 2 + (q <= wrap);      /* 1 = p: the wrap link still ahead, or this one */
                    if (++use[ch] > most)
                        most = use[ch];
                }
            }
        }
    }
    free(use);
    return most;
}

/* Run a on sh with root and (mcast) set; check delivery, the step count,
 * contention (contention_free 1: step_load <= 1; 2: at most one message
 * per channel and dateline class, class_load()) and the one-port rule.
 * Returns 0 on success; s is left for further checks (caller frees). */
static int run(struct sim *s, const struct coll_algo *a, struct app_shape sh, int root, const int *set,
               int nset, int want_steps, int contention_free, int one_port)
{
    struct coll_ctx cx = { 0 };
    cx.root = root;
    cx.set = set;
    cx.nset = nset;
    sh.cx = &cx;
    if (sim_run(s, a, &sh, SIM_LOADS)) {
        check_fail(__FILE__, __LINE__, "%s on %s, root %d, %d destinations: %s", a->app, name_of(&sh), root,
                   nset, s->err);
        return -1;
    }
    int bad = 0;
    if (s->steps != want_steps) {
        check_fail(__FILE__, __LINE__, "%s on %s, root %d, m = %d: %d steps, the paper's formula gives %d",
                   a->app, name_of(&sh), root, nset, s->steps, want_steps);
        bad = 1;
    }
    for (int t = 1; contention_free && t <= s->steps; t++) {
        int load = contention_free == 2 ? class_load(a, &sh, t) : s->step_load[t];
        if (load > 1) {
            check_fail(__FILE__, __LINE__, "%s on %s, root %d, m = %d: step %d has %d messages on one channel%s",
                       a->app, name_of(&sh), root, nset, t, load, contention_free == 2 ? " and class" : "");
            bad = 1;
            break;
        }
    }
    if (one_port && (s->max_step_sends > 1 || s->max_step_recvs > 1)) {
        check_fail(__FILE__, __LINE__, "%s on %s: a node sends %d / receives %d messages in one step (one-port)",
                   a->app, name_of(&sh), s->max_step_sends, s->max_step_recvs);
        bad = 1;
    }
    return bad ? -1 : 0;
}

static struct app_shape cube(int n, int all_port)
{
    char d[16];
    snprintf(d, sizeof d, "%d", 1 << n);
    return sim_shape("hypercube", d, all_port);
}

/* Roots to try on p nodes: 0, p-1 and two drawn ones. */
static int roots(int p, int r[4])
{
    r[0] = 0;
    r[1] = p - 1;
    r[2] = rnd(p);
    r[3] = rnd(p);
    return p > 1 ? 4 : 1;
}

/* --- section 4: hypercubes ----------------------------------------------- */

/* The Double Tree's steps (section 4: "ceil(n/2)"; a 2-cube needs 2: the
 * worm to the complement takes one of the source's two channels, so the
 * source can reach at most two nodes in the first step). */
static int dt_formula(int k) { return k == 0 ? 0 : k == 2 ? 2 : (k + 1) / 2; }

/* Ho-Kao: one step along a dimension-simple path splits a k-cube into k+1
 * subcubes of nearly equal size, the largest of k - floor(log2(k+1))
 * dimensions; DT finishes in small subcubes. */
static int hk_formula(int k)
{
    if (k == 0)
        return 0;
    int split = 0;
    while ((2 << split) <= k + 1)
        split++;                                     /* floor(log2(k+1)) */
    int path = 1 + hk_formula(k - split), dt = dt_formula(k);
    return dt < path ? dt : path;
}

TEST(sbt_takes_n_contention_free_steps_on_every_cube)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, "sbt");
    REQUIRE(a);
    for (int n = 1; n <= 10; n++)
        for (int ap = 0; ap <= 1; ap++) {
            struct app_shape sh = cube(n, ap);
            REQUIRE(accepts(a, &sh));
            int r[4], nr = roots(sh.nodes, r);
            for (int i = 0; i < nr; i++) {
                struct sim s;
                if (run(&s, a, sh, r[i], NULL, 0, n, 1, !ap) == 0) {
                    CHECK_EQ_INT(s.max_sends, n);                   /* the root sends n times */
                    CHECK_EQ_INT(s.sends[r[i]], n);
                }
                sim_free(&s);
            }
        }
}

TEST(edst_takes_n_plus_1_steps_of_one_segment_on_disjoint_trees)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, "edst");
    REQUIRE(a);
    for (int n = 1; n <= 10; n++) {
        struct app_shape sh = cube(n, 1);
        REQUIRE(accepts(a, &sh));
        int r[4], nr = roots(sh.nodes, r);
        for (int i = 0; i < nr; i++) {
            struct sim s;
            if (run(&s, a, sh, r[i], NULL, 0, n == 1 ? 1 : n + 1, 1, 0) == 0) {
                CHECK_EQ_INT(s.segs, n);                 /* "partitioned into n segments" */
                CHECK_EQ_INT(s.max_msg, 1);
                CHECK(s.max_step_sends <= n);            /* one per dimension */
                CHECK(s.max_step_recvs <= n);
                if (n == 3)
                    CHECK_EQ_INT(s.max_step_recvs, 3);   /* "node 111 ... three segments" */
                /* Edge-disjoint trees: a directed channel carries one
                 * segment in the whole broadcast. */
                long most = 0;
                for (int c = 0; c < s.nchan; c++)
                    if (s.chan_blocks[c] > most)
                        most = s.chan_blocks[c];
                CHECK_EQ_INT(most, 1);
            }
            sim_free(&s);
        }
    }
}

TEST(hokao_steps_follow_the_path_split_and_double_tree)
{
    /* The paper's figures: DT 2 steps on a 4-cube, 3 on a 6-cube; Ho-Kao
     * on a 7-cube: 1 path step, then DT in 4-cubes. */
    CHECK_EQ_INT(dt_formula(4), 2);
    CHECK_EQ_INT(dt_formula(6), 3);
    CHECK_EQ_INT(hk_formula(7), 3);
    const struct coll_algo *a = coll_find(COLL_BCAST, "hokao");
    REQUIRE(a);
    for (int n = 1; n <= 10; n++) {
        struct app_shape sh = cube(n, 1);
        REQUIRE(accepts(a, &sh));
        int want = hk_formula(n);
        /* Never below the all-port bound (n+1)^t >= 2^n, never above DT. */
        double reach = 1;
        for (int t = 0; t < want; t++)
            reach *= n + 1;
        CHECK(reach >= (double)(1 << n));
        CHECK(want <= dt_formula(n));
        int r[4], nr = roots(sh.nodes, r);
        for (int i = 0; i < nr; i++) {
            struct sim s;
            if (run(&s, a, sh, r[i], NULL, 0, want, 1, 0) == 0) {
                CHECK(s.max_step_sends <= n);
                CHECK_EQ_INT(s.max_step_recvs, 1);      /* unsegmented: one arrival per node */
            }
            sim_free(&s);
        }
    }
}

TEST(all_port_trees_beat_sbt_on_larger_cubes)
{
    /* Ho-Kao takes fewer steps than the SBT from n = 3 on (equal below).
     * EDST takes n+1 steps, one more than SBT, but each moves l/n bytes:
     * (n+1)/n message lengths in all against n, fewer from n = 2 on. */
    const struct coll_algo *sbt = coll_find(COLL_BCAST, "sbt"), *hk = coll_find(COLL_BCAST, "hokao"),
                           *ed = coll_find(COLL_BCAST, "edst");
    REQUIRE(sbt && hk && ed);
    struct coll_ctx cx = { 0 };
    for (int n = 1; n <= 10; n++) {
        struct app_shape sh = cube(n, 1);
        sh.cx = &cx;
        cx.segs = ed->segments(&sh);
        int s = sbt->nsteps(&sh), h = hk->nsteps(&sh), e = ed->nsteps(&sh);
        CHECK_EQ_INT(s, n);
        if (n >= 3)
            CHECK(h < s);
        else
            CHECK_EQ_INT(h, s);
        CHECK_EQ_INT(e, n == 1 ? 1 : n + 1);
        if (n >= 2)
            CHECK((double)e / n < s);
    }
}

TEST(one_port_hypercube_refuses_the_all_port_trees)
{
    refused("bcast_edst", cube(4, 0), "all-port");
    refused("bcast_hokao", cube(4, 0), "all-port");
    refused("bcast_edst", sim_shape("mesh", "4x4", 1), "hypercube");
    struct app_shape ap = cube(4, 1);
    CHECK(accepts(coll_find_app("bcast_edst"), &ap));
    CHECK(accepts(coll_find_app("bcast_hokao"), &ap));
}

/* --- section 5: meshes and tori ------------------------------------------ */

/* Every mesh and torus shape of 2..64 nodes in one, two and three
 * dimensions (widths >= 2), calling fn on each. */
static void every_shape(void (*fn)(struct app_shape *sh), int *count)
{
    static const char *const topo[2] = { "mesh", "torus" };
    char d[48];
    for (int t = 0; t < 2; t++)
        for (int a = 2; a <= 64; a++) {
            snprintf(d, sizeof d, "%d", a);
            struct app_shape sh = sim_shape(topo[t], d, 0);
            fn(&sh), (*count)++;
            for (int b = 2; a * b <= 64; b++) {
                snprintf(d, sizeof d, "%dx%d", a, b);
                sh = sim_shape(topo[t], d, 0);
                fn(&sh), (*count)++;
                for (int c = 2; a * b * c <= 64; c++) {
                    snprintf(d, sizeof d, "%dx%dx%d", a, b, c);
                    sh = sim_shape(topo[t], d, 0);
                    fn(&sh), (*count)++;
                }
            }
        }
}

static void rd_on(struct app_shape *sh)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, "rd");
    CHECK(accepts(a, sh));
    int want = 0;
    for (int i = 0; i < sh->ndims; i++)
        want += clog2(sh->dims[i]);                   /* sum of ceil(log2 w_i) */
    int r[4], nr = roots(sh->nodes, r);
    for (int i = 0; i < nr; i++) {
        struct sim s;
        run(&s, a, *sh, r[i], NULL, 0, want, 1, 1);
        sim_free(&s);
    }
}

TEST(rd_takes_sum_of_log_widths_contention_free_on_every_mesh_and_torus)
{
    REQUIRE(coll_find(COLL_BCAST, "rd"));
    int count = 0;
    every_shape(rd_on, &count);
    CHECK(count > 300);
    /* Larger ones and the paper's 8x8 (Figure 12) with the root inside. */
    static const char *const big[] = { "8x8", "16x16", "32x32", "12x10", "4x4x4x4", "9x7x5" };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        struct app_shape m = sim_shape("mesh", big[i], 0), t = sim_shape("torus", big[i], 0);
        rd_on(&m);
        rd_on(&t);
    }
}

/* Multicast from a drawn root to drawn sets of every size 1..p-1 (several
 * of each on small machines), and to everyone. */
static void mcast_on(const char *name, struct app_shape sh, int per_size)
{
    const struct coll_algo *a = coll_find(COLL_MCAST, name);
    REQUIRE(a);
    CHECK(accepts(a, &sh));
    int p = sh.nodes, *set = malloc(sizeof(int) * (size_t)p), *in = malloc(sizeof(int) * (size_t)p);
    for (int m = 1; m <= p - 1; m++)
        for (int k = 0; k < (m == p - 1 ? 1 : per_size); k++) {
            int root = rnd(p), n = 0;
            /* m distinct nodes other than the root (partial shuffle). */
            for (int v = 0; v < p; v++)
                in[v] = v;
            in[root] = in[p - 1];
            in[p - 1] = root;
            for (int j = 0; j < m; j++) {
                int q = j + rnd(p - 1 - j), t = in[j];
                in[j] = in[q];
                in[q] = t;
            }
            for (int v = 0; v < p; v++) {
                int mem = 0;
                for (int j = 0; j < m; j++)
                    mem |= in[j] == v;
                if (mem)
                    set[n++] = v;
            }
            struct sim s;
            if (run(&s, a, sh, root, set, n, clog2(m + 1), sh.topo == TOPO_TORUS ? 2 : 1, 1) == 0) {
                /* Only the root and the set take part. */
                CHECK_EQ_INT(s.relay_blocks, 0);
                int j = 0, others = 0;
                for (int v = 0; v < p; v++) {
                    while (j < n && set[j] < v)
                        j++;
                    if (v != root && !(j < n && set[j] == v))
                        others += s.sends[v];
                }
                CHECK_EQ_INT(others, 0);
            }
            sim_free(&s);
        }
    free(set);
    free(in);
}

TEST(ucube_on_every_cube_up_to_64_and_1024)
{
    for (int n = 1; n <= 6; n++)
        mcast_on("ucube", cube(n, 0), n <= 4 ? 6 : 2);
    mcast_on("ucube", cube(10, 0), 0);          /* set = all: a broadcast in n steps */
}

TEST(umesh_on_meshes_square_non_square_and_3d)
{
    static const char *const d[] = { "8x8", "6x6", "5x7", "16x4", "3x8", "16", "13", "4x4x4", "2x3x4", "3x3x3",
                                     "2x2", "32x32" };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
        struct app_shape sh = sim_shape("mesh", d[i], 0);
        mcast_on("umesh", sh, sh.nodes > 100 ? 0 : sh.nodes > 40 ? 2 : 4);
    }
}

TEST(utorus_on_tori_square_non_square_and_3d)
{
    static const char *const d[] = { "8x8", "6x6", "5x7", "16x4", "3x8", "16", "13", "4x4x4", "2x3x4", "3x3x3",
                                     "2x2", "32x32" };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
        struct app_shape sh = sim_shape("torus", d[i], 0);
        mcast_on("utorus", sh, sh.nodes > 100 ? 0 : sh.nodes > 40 ? 2 : 4);
    }
}

TEST(multicast_to_everyone_takes_ceil_log2_n_steps)
{
    static const struct { const char *name, *topo, *dims; } m[] = {
        { "ucube", "hypercube", "64" }, { "umesh", "mesh", "6x6" }, { "umesh", "mesh", "5x3x3" },
        { "utorus", "torus", "6x6" }, { "utorus", "torus", "7x9" },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        struct app_shape sh = sim_shape(m[i].topo, m[i].dims, 0);
        const struct coll_algo *a = coll_find(COLL_MCAST, m[i].name);
        REQUIRE(a);
        int p = sh.nodes, root = rnd(p), *set = malloc(sizeof(int) * (size_t)p), n = 0;
        for (int v = 0; v < p; v++)
            if (v != root)
                set[n++] = v;
        struct sim s;
        run(&s, a, sh, root, set, n, clog2(p), sh.topo == TOPO_TORUS ? 2 : 1, 1);
        sim_free(&s);
        free(set);
    }
}

TEST(multicasts_refuse_the_wrong_topology)
{
    struct app_shape mesh = sim_shape("mesh", "8x8", 0), torus = sim_shape("torus", "8x8", 0), hc = cube(6, 0);
    refused("mcast_ucube", mesh, "hypercube");
    refused("mcast_umesh", torus, "mesh");
    refused("mcast_utorus", mesh, "torus");
    refused("bcast_rd", hc, "mesh");
    CHECK(accepts(coll_find_app("mcast_ucube"), &hc));
    CHECK(accepts(coll_find_app("mcast_umesh"), &mesh));
    CHECK(accepts(coll_find_app("mcast_utorus"), &torus));
}
