/* The collectives with multidestination worms (apps/coll/worms.def; seed
 * 002 section 8), by the schedule checker (sched_sim.h), which follows
 * each worm along the network model's own route (net_mc_links): every
 * destination gets the message once, and the step counts, start-ups and
 * channel loads are the papers'. */
#include "check.h"
#include "sched_sim.h"

static struct sim run(const char *app, const char *topo, const char *dims, int all_port, int root, int nset)
{
    static int set[COLL_MAX_SET];
    struct sim s;
    struct app_shape sh = sim_shape(topo, dims, all_port);
    struct coll_ctx cx = { .root = root };
    for (int v = 0; v < sh.nodes && nset; v++)
        if (v != root)
            set[cx.nset++] = v;
    cx.set = set;
    sh.cx = &cx;
    const struct coll_algo *a = coll_find_app(app);
    if (!a)
        check_fail(__FILE__, __LINE__, "no app %s", app);
    if (sim_run(&s, a, &sh, SIM_LOADS))
        check_fail(__FILE__, __LINE__, "%s on %s %s root %d: %s", app, topo, dims, root, s.err);
    return s;
}

static long links_used(const struct sim *s)
{
    long n = 0;
    for (int c = 0; c < s->nchan; c++)
        n += s->chan_blocks[c] > 0;
    return n;
}

/* Dual-path from a corner is the survey's single worm through all N - 1
 * nodes (t_s + (N - 1 + m) t_f): one start-up, N - 1 links, each once.
 * From inside, two worms, up and down the path. */
TEST(dualpath_broadcast_is_one_worm_from_a_corner_two_from_inside)
{
    struct sim s = run("mcast_dualpath", "mesh", "8x8", 0, 0, 1);
    CHECK_EQ_INT(s.steps, 1);
    CHECK_EQ_INT(s.max_step_sends, 1);
    CHECK_EQ_INT(s.step_load[1], 1);
    CHECK_EQ_INT(links_used(&s), 63);
    sim_free(&s);
    s = run("mcast_dualpath", "mesh", "8x8", 0, 27, 1);
    CHECK_EQ_INT(s.max_step_sends, 2);
    CHECK_EQ_INT(s.step_load[1], 1);
    CHECK_EQ_INT(links_used(&s), 63);           /* the whole snake, cut at the source */
    sim_free(&s);
}

/* Multi-path: up to four worms, one per quadrant, on an all-port mesh;
 * none shares a channel with another; one-port is refused by name. */
TEST(multipath_sends_four_worms_and_needs_all_port)
{
    struct sim s = run("mcast_multipath", "mesh", "8x8", 1, 27, 1);
    CHECK_EQ_INT(s.steps, 1);
    CHECK_EQ_INT(s.max_step_sends, 4);
    CHECK_EQ_INT(s.step_load[1], 1);
    sim_free(&s);
    struct app_shape sh = sim_shape("mesh", "8x8", 0);
    char err[512];
    CHECK(app_check_args("mcast_multipath", APP_MESH2D, &sh, "", 1ul << 20, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "all-port");
}

/* Panda and Singal: the root's row, then every column, by worms that
 * never share a channel; two steps, two worms per sender. */
TEST(pandasingal_is_row_then_columns_without_contention)
{
    int roots[] = { 0, 9, 63, 36 };
    for (int i = 0; i < 4; i++) {
        struct sim s = run("bcast_pandasingal", "mesh", "8x8", 0, roots[i], 0);
        CHECK_EQ_INT(s.steps, 2);
        CHECK(s.max_step_sends <= 2);
        CHECK_EQ_INT(s.step_load[1], 1);
        CHECK_EQ_INT(s.step_load[2], 1);
        CHECK_EQ_INT(links_used(&s), 7 + 8 * 7);    /* the row's 7 links, each column's 7 */
        sim_free(&s);
    }
    struct sim s = run("bcast_pandasingal", "mesh", "5x1", 0, 2, 0);   /* one row: one step */
    CHECK_EQ_INT(s.steps, 1);
    sim_free(&s);
}

/* Ho-Kao by paths: bcast_hokao's steps, but one start-up per sender and
 * step where bcast_hokao makes up to n. */
TEST(hokao_path_keeps_the_steps_with_one_startup)
{
    for (int n = 1; n <= 7; n++) {
        char dims[16];
        snprintf(dims, sizeof dims, "%d", 1 << n);
        struct sim s = run("bcast_hokao_path", "hypercube", dims, 0, 0, 0);
        struct sim h = run("bcast_hokao", "hypercube", dims, 1, 0, 0);
        CHECK_EQ_INT(s.steps, h.steps);
        CHECK_EQ_INT(s.max_step_sends, 1);
        if (n >= 3)
            CHECK(h.max_step_sends > 1);
        sim_free(&s);
        sim_free(&h);
    }
}

/* auto keeps to the unicast algorithms every wormhole machine runs (the
 * worms need routers that copy them, and their own executor): on every
 * machine and length tried, bcast_auto and mcast_auto pick none of them. */
TEST(auto_never_picks_worms)
{
    static const struct { const char *topo, *dims; int all_port; } m[] = {
        { "mesh", "4x4", 0 }, { "mesh", "8x8", 1 }, { "mesh", "16x16", 0 }, { "hypercube", "64", 1 },
        { "hypercube", "16", 0 }, { "torus", "8x8", 1 },
    };
    static int set[COLL_MAX_SET];
    long lens[] = { 8, 1024, 65536 };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        for (int k = 0; k < 3; k++)
            for (int op = COLL_BCAST; op <= COLL_MCAST; op++) {
                struct app_shape sh = sim_shape(m[i].topo, m[i].dims, m[i].all_port);
                struct coll_ctx cx = { .root = 0, .set = set };
                for (int v = 1; v < sh.nodes; v++)
                    set[cx.nset++] = v;
                sh.cx = &cx;
                char why[128];
                const struct coll_algo *a = coll_auto((enum coll_op)op, &sh, lens[k], 1ul << 20, why, sizeof why);
                REQUIRE(a != NULL);
                CHECK(!a->worms);
            }
}
