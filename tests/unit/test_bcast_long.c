/* The broadcast algorithms for long messages and all-port meshes
 * (McKinley et al. sections 5 and 6): bcast_edsf, bcast_scatter_collect,
 * bcast_edn, run by the host schedule simulator (sched_sim.h) on every
 * shape they support up to 64 nodes and some larger ones, from several
 * roots: every segment delivered to every node exactly once, the step count
 * against the formula (restated here from the paper's description, not
 * taken from the algorithm), contention-free steps, the data each node
 * sends, and the refusals of calls the algorithms cannot take.
 */
#include "check.h"
#include "sched_sim.h"

static const char *name_of(const struct app_shape *sh, int root, int segs)
{
    static char buf[128];
    app_shape_str(sh, buf, sizeof buf);
    size_t n = strlen(buf);
    snprintf(buf + n, sizeof buf - n, "%s root %d segs %d", sh->all_port ? " all-port" : "", root, segs);
    return buf;
}

static int supports(const struct coll_algo *a, const struct app_shape *sh)
{
    char err[512];
    return app_check(a->app, a->restr, sh, 1, 1ul << 40, err, sizeof err) == 0;
}

/* Roots tried: all of them on small machines, else the corners, the
 * middle and a few others. */
static int roots_of(const struct app_shape *sh, int *r)
{
    int p = sh->nodes, n = 0;
    if (p <= 16) {
        for (int i = 0; i < p; i++)
            r[n++] = i;
        return n;
    }
    int cand[] = { 0, p - 1, p / 2 + sh->dims[0] / 2, sh->dims[0] - 1, p - sh->dims[0], 5, 7 * p / 11 };
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= r[j] == cand[i];
        if (!dup && cand[i] >= 0 && cand[i] < p)
            r[n++] = cand[i];
    }
    return n;
}

/* Run a on sh from root with segs; 0 and s filled, or -1 (reported). */
static int run(struct sim *s, const char *name, const struct app_shape *sh0, int root, int segs)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, name);
    if (!a) {
        CHECK(!"algorithm not in the registry");
        return -1;
    }
    struct coll_ctx cx = { 0 };
    cx.root = root;
    cx.segs = segs;
    struct app_shape sh = *sh0;
    sh.cx = &cx;
    if (sim_run(s, a, &sh, SIM_LOADS)) {
        check_fail(__FILE__, __LINE__, "%s on %s: %s", a->app, name_of(sh0, root, segs), s->err);
        sim_free(s);
        return -1;
    }
    return 0;
}

static int max_load(const struct sim *s)
{
    int m = 0;
    for (int t = 1; t <= s->steps; t++)
        if (s->step_load[t] > m)
            m = s->step_load[t];
    return m;
}

static int lg_ceil(int w) { int k = 0; while ((1 << k) < w) k++; return k; }

/* --- scatter-collect ------------------------------------------------------ */

/* Steps: the scatter takes ceil(log2 w_i) halvings per dimension (Figure
 * 10(a): 3 steps to reach 8 nodes), the collect a ring of w_i - 1 steps
 * per dimension. Data: the root gives away every segment but its own in
 * the scatter; every node passes on every segment but its own in the
 * collect. */
static void scatter_collect_on(const struct app_shape *sh)
{
    int r[16], nr = roots_of(sh, r), p = sh->nodes;
    int steps = 0, ring = 0;
    for (int i = 0; i < sh->ndims; i++) {
        steps += lg_ceil(sh->dims[i]) + sh->dims[i] - 1;
        ring += sh->dims[i] - 1;
    }
    for (int k = 0; k < nr; k++) {
        struct sim s;
        if (run(&s, "scatter_collect", sh, r[k], 0))
            continue;
        const char *nm = name_of(sh, r[k], p);
        if (s.segs != p)
            check_fail(__FILE__, __LINE__, "%s: %d segments, not one per node", nm, s.segs);
        if (s.steps != steps)
            check_fail(__FILE__, __LINE__, "%s: %d steps, the formula gives %d", nm, s.steps, steps);
        if (max_load(&s) > 1)
            check_fail(__FILE__, __LINE__, "%s: %d messages share a channel", nm, max_load(&s));
        if (s.sent_blocks[r[k]] != 2L * (p - 1))
            check_fail(__FILE__, __LINE__, "%s: the root sends %ld segments, not 2(p-1) = %d", nm,
                       s.sent_blocks[r[k]], 2 * (p - 1));
        for (int v = 0; v < p; v++) {
            if (s.sent_blocks[v] < p - 1)
                check_fail(__FILE__, __LINE__, "%s: node %d sends %ld segments, fewer than p-1", nm, v,
                           s.sent_blocks[v]);
            if (s.sends[v] < ring || s.sends[v] > ring + steps - ring)
                check_fail(__FILE__, __LINE__, "%s: node %d sends %d messages, not %d..%d", nm, v, s.sends[v],
                           ring, steps);
        }
        if (s.min_sends != ring)
            check_fail(__FILE__, __LINE__, "%s: the least busy node sends %d messages, the rings alone %d",
                       nm, s.min_sends, ring);
        sim_free(&s);
    }
}

TEST(scatter_collect_on_every_mesh_and_torus_up_to_64)
{
    int ran = 0;
    for (int t = 0; t < 2; t++)
        for (int a = 1; a <= 64; a++)
            for (int b = 1; a * b <= 64; b++) {
                if (a * b < 2)
                    continue;
                char d[32];
                snprintf(d, sizeof d, "%dx%d", a, b);
                struct app_shape sh = sim_shape(t ? "torus" : "mesh", d, 0);
                CHECK(supports(coll_find(COLL_BCAST, "scatter_collect"), &sh));
                scatter_collect_on(&sh);
                ran++;
            }
    CHECK(ran > 400);
}

TEST(scatter_collect_on_larger_and_3d_machines)
{
    static const char *const m[][2] = {
        { "mesh", "16x16" }, { "torus", "16x16" }, { "mesh", "16x9" }, { "torus", "9x16" },
        { "mesh", "4x4x4" }, { "torus", "3x4x5" }, { "mesh", "64" }, { "torus", "2x3x2x3" },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        struct app_shape sh = sim_shape(m[i][0], m[i][1], 0);
        scatter_collect_on(&sh);
    }
}

TEST(scatter_collect_refuses_another_segment_count)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, "scatter_collect");
    struct app_shape sh = sim_shape("mesh", "4x4", 0);
    struct coll_ctx cx = { .root = 3, .segs = 5 };
    sh.cx = &cx;
    struct sim s;
    CHECK(sim_run(&s, a, &sh, 0) != 0);
    CHECK(strstr(s.err, "segs=5") != NULL);
    CHECK(strstr(s.err, "segs=16") != NULL);
    CHECK(!supports(a, &(struct app_shape){ .topo = TOPO_HYPERCUBE, .ndims = 3, .dims = { 2, 2, 2 },
                                            .nodes = 8 }));
}

/* --- EDSF ------------------------------------------------------------------- */

/* Steps: segment k leaves the root at (paper) step k; on fence A it runs
 * east along the rail, one hop a step, turns south (one step's wait at
 * the corner) and down a post; column 0 is reached from the end of the
 * post W-1 by the wrap, after another corner. The last segment, S-1,
 * reaches (0, H-1) at step (S-1) + (W-1) + (H-1) + 2 (corners) + ... :
 * rail W-1 hops, post H-1 hops, wrap 1 hop, 2 waits: S-1 + W + H, so
 * S + W + H steps counted from 1 (fence B alike with W and H swapped). */
static void edsf_on(const struct app_shape *sh, int segs)
{
    int r[16], nr = roots_of(sh, r), p = sh->nodes;
    int W = sh->dims[0], H = sh->dims[1];
    for (int k = 0; k < nr; k++) {
        struct sim s;
        if (run(&s, "edsf", sh, r[k], segs))
            continue;
        int S = s.segs;
        const char *nm = name_of(sh, r[k], S);
        if (segs == 0 && S != W + H)
            check_fail(__FILE__, __LINE__, "%s: default %d segments, not W+H", nm, S);
        if (segs && S != segs)
            check_fail(__FILE__, __LINE__, "%s: %d segments, the caller asked %d", nm, S, segs);
        if (s.steps != S + W + H)
            check_fail(__FILE__, __LINE__, "%s: %d steps, the formula gives S+W+H = %d", nm, s.steps, S + W + H);
        if (max_load(&s) > 1)
            check_fail(__FILE__, __LINE__, "%s: %d messages share a channel", nm, max_load(&s));
        if (s.max_msg != 1)
            check_fail(__FILE__, __LINE__, "%s: a message of %ld segments", nm, s.max_msg);
        long total = 0;
        for (int v = 0; v < p; v++) {
            total += s.sent_blocks[v];
            if (s.sent_blocks[v] > 2L * ((S + 1) / 2))
                check_fail(__FILE__, __LINE__, "%s: node %d sends %ld segments, more than 2 ceil(S/2)", nm, v,
                           s.sent_blocks[v]);
            if (s.sends[v] > s.steps)
                check_fail(__FILE__, __LINE__, "%s: node %d sends more than one message a step", nm, v);
        }
        if (s.sent_blocks[r[k]] != S)
            check_fail(__FILE__, __LINE__, "%s: the root sends %ld segments, not S", nm, s.sent_blocks[r[k]]);
        if (total != (long)(p - 1) * S)
            check_fail(__FILE__, __LINE__, "%s: %ld segments sent in all, not (p-1) S", nm, total);
        sim_free(&s);
    }
}

TEST(edsf_on_every_even_mesh_up_to_64)
{
    int ran = 0;
    for (int a = 2; a <= 32; a += 2)
        for (int b = 2; a * b <= 64; b += 2) {
            char d[32];
            snprintf(d, sizeof d, "%dx%d", a, b);
            struct app_shape sh = sim_shape("mesh", d, 0);
            CHECK(supports(coll_find(COLL_BCAST, "edsf"), &sh));
            edsf_on(&sh, 0);
            edsf_on(&sh, 2);
            edsf_on(&sh, 7);
            ran++;
        }
    CHECK(ran >= 20);
}

TEST(edsf_on_larger_meshes)
{
    static const char *const m[] = { "16x16", "10x6", "8x8", "32x4" };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        struct app_shape sh = sim_shape("mesh", m[i], 0);
        edsf_on(&sh, 0);
        edsf_on(&sh, 64);
    }
}

TEST(edsf_refuses_odd_sides_and_bad_segment_counts)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, "edsf");
    struct sim s;
    struct coll_ctx cx = { .root = 0 };
    struct app_shape sh = sim_shape("mesh", "3x4", 0);
    sh.cx = &cx;
    CHECK(a->restr == APP_MESH2D);                 /* the restriction allows it ... */
    CHECK(!supports(a, &sh));                      /* ... the algorithm's check, run by app_check, does not */
    CHECK(sim_run(&s, a, &sh, 0) != 0);            /* the check: sides even */
    CHECK(strstr(s.err, "even") != NULL);
    sh = sim_shape("mesh", "4x4", 0);
    sh.cx = &cx;
    cx.segs = -3;
    CHECK(sim_run(&s, a, &sh, 0) != 0);
    CHECK(strstr(s.err, "segs=-3") != NULL);
    cx.segs = 1;                                   /* fence B would carry nothing */
    CHECK(sim_run(&s, a, &sh, 0) != 0);
    cx.segs = 100000;
    CHECK(sim_run(&s, a, &sh, 0) != 0);
    CHECK(!supports(a, &(struct app_shape){ .topo = TOPO_TORUS, .ndims = 2, .dims = { 4, 4 }, .nodes = 16 }));
    CHECK(!supports(a, &(struct app_shape){ .topo = TOPO_MESH, .ndims = 3, .dims = { 2, 2, 2 }, .nodes = 8 }));
}

/* --- EDN -------------------------------------------------------------------- */

/* At most k + 2 steps on 2^k x 2^k (section 6), never fewer than the
 * all-port lower bound ceil(log5(n^2)) (at most 5^t nodes hold the message
 * after t steps), contention-free under XY routing, one message per
 * outgoing channel (at most 4 a node a step). */
static void edn_on(int n)
{
    char d[32];
    snprintf(d, sizeof d, "%dx%d", n, n);
    struct app_shape sh = sim_shape("mesh", d, 1);
    CHECK(supports(coll_find(COLL_BCAST, "edn"), &sh));
    int r[16], nr = roots_of(&sh, r), k = lg_ceil(n), lb = 0;
    for (long f = 1; f < (long)n * n; f *= 5)
        lb++;
    int allr[1024];
    if (n <= 8) {                                  /* every root on the small ones */
        nr = n * n;
        for (int i = 0; i < nr; i++)
            allr[i] = i;
    } else
        for (int i = 0; i < nr; i++)
            allr[i] = r[i];
    for (int i = 0; i < nr; i++) {
        struct sim s;
        if (run(&s, "edn", &sh, allr[i], 0))
            continue;
        const char *nm = name_of(&sh, allr[i], 1);
        if (s.steps > k + 2)
            check_fail(__FILE__, __LINE__, "%s: %d steps, more than k+2 = %d", nm, s.steps, k + 2);
        if (s.steps < lb)
            check_fail(__FILE__, __LINE__, "%s: %d steps, below the lower bound %d", nm, s.steps, lb);
        if (max_load(&s) > 1)
            check_fail(__FILE__, __LINE__, "%s: %d messages share a channel", nm, max_load(&s));
        if (s.max_sends > 4 * s.steps)
            check_fail(__FILE__, __LINE__, "%s: a node sends %d messages", nm, s.max_sends);
        sim_free(&s);
    }
}

TEST(edn_on_all_port_meshes_2x2_to_32x32)
{
    for (int n = 2; n <= 32; n *= 2)
        edn_on(n);
}

TEST(edn_refuses_one_port_and_other_shapes)
{
    const struct coll_algo *a = coll_find(COLL_BCAST, "edn");
    CHECK(!supports(a, &(struct app_shape){ .topo = TOPO_MESH, .ndims = 2, .dims = { 4, 4 }, .nodes = 16 }));
    struct app_shape sh = sim_shape("mesh", "4x8", 1);
    CHECK(!supports(a, &sh));
    sh = sim_shape("mesh", "6x6", 1);
    CHECK(!supports(a, &sh));
    sh = sim_shape("torus", "8x8", 1);
    CHECK(!supports(a, &sh));
}

/* The 16 x 16 example of section 6 from the corner: two startup steps to
 * the four level-3 EDNs, step 3 reaches the twelve other level-2 EDNs,
 * step 4 every level-1 EDN (48 more), step 5 all the rest: 5 steps. */
TEST(edn_16x16_levels_as_in_the_text)
{
    struct app_shape sh = sim_shape("mesh", "16x16", 1);
    struct sim s;
    if (run(&s, "edn", &sh, 0, 0))
        return;
    CHECK_EQ_INT(s.steps, 5);
    CHECK_EQ_INT(s.step_msgs[1] + s.step_msgs[2], 4);
    CHECK_EQ_INT(s.step_msgs[3], 12);
    CHECK_EQ_INT(s.step_msgs[4], 48);
    CHECK_EQ_INT(s.step_msgs[5], 256 - 64 - 1);     /* the root, a final-level node, gets none */
    sim_free(&s);
}
