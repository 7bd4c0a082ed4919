/* The collective library's registry, its restriction and len= checks (the
 * ones the run tool makes before any node starts), the auto table, and the
 * schedule checker itself: broken schedules must be caught.
 */
#include "check.h"
#include "sched_sim.h"
#include "../../host/params.h"

/* --- the registry ------------------------------------------------------ */

static const struct { const char *op, *name; int restr; } def[] = {
#define COLL_ALGO(op, name, restr, desc) { #op, #name, restr },
#define COLL_WORM_ALGO COLL_ALGO
#include "../../apps/coll/algos.def"
#include "../../apps/coll/worms.def"
#undef COLL_WORM_ALGO
#undef COLL_ALGO
};
#define NDEF ((int)(sizeof def / sizeof def[0]))

static const struct { const char *name; int restr; } apps[] = {
#define APP(n, r, d) { #n, r },
#include "../../apps/apps.def"
#undef APP
};
#define NAPPS ((int)(sizeof apps / sizeof apps[0]))

TEST(registry_is_algos_def)
{
    int n = 0;
    while (coll_algos[n])
        n++;
    CHECK_EQ_INT(n, NDEF);
    CHECK(NDEF >= 16);
    for (int i = 0; i < NDEF && i < n; i++) {
        char app[64];
        snprintf(app, sizeof app, "%s_%s", def[i].op, def[i].name);
        const struct coll_algo *a = coll_find_app(app);
        REQUIRE(a != NULL);
        CHECK(a == coll_algos[i]);
        CHECK_STR(a->app, app);
        CHECK_STR(a->name, def[i].name);
        CHECK_EQ_INT(a->restr, def[i].restr);
        REQUIRE(a->op >= 0 && a->op < COLL_NOPS);
        CHECK_STR(coll_ops[a->op].name, def[i].op);
        const char *hook = coll_missing_hook(a);
        if (hook)
            check_fail(__FILE__, __LINE__, "%s: its struct coll_algo gives no .%s", app, hook);
        if (!strcmp(def[i].name, "auto"))
            CHECK(a->sends == NULL);
    }
    CHECK(coll_find_app("alltoall_nosuch") == NULL);
    CHECK(coll_find(COLL_ALLGATHER, "pex") == NULL);
}

/* The run tool's table (apps.def) has every collective once, with the same
 * restriction, and app names are unique. */
TEST(run_tool_knows_every_collective)
{
    for (int i = 0; i < NAPPS; i++)
        for (int j = i + 1; j < NAPPS; j++)
            if (!strcmp(apps[i].name, apps[j].name))
                check_fail(__FILE__, __LINE__, "app %s listed twice", apps[i].name);
    for (int k = 0; coll_algos[k]; k++) {
        int found = 0;
        for (int i = 0; i < NAPPS; i++)
            if (!strcmp(apps[i].name, coll_algos[k]->app)) {
                found++;
                CHECK_EQ_INT(apps[i].restr, coll_algos[k]->restr);
            }
        if (found != 1)
            check_fail(__FILE__, __LINE__, "%s appears %d times in apps.def", coll_algos[k]->app, found);
    }
}

/* --- restrictions -------------------------------------------------------- */

static char err[512];

/* app_check on topo/dims; want NULL for accepted, else a part of the message. */
static void expect_check(const char *app, const char *topo, const char *dims, int all_port, long len,
                         const char *want, int line)
{
    const struct coll_algo *a = coll_find_app(app);
    int restr = a ? a->restr : -1;
    for (int i = 0; i < NAPPS && !a; i++)
        if (!strcmp(apps[i].name, app))
            restr = apps[i].restr;
    struct app_shape sh = sim_shape(topo, dims, all_port);
    err[0] = 0;
    int rc = app_check(app, restr, &sh, len, 262144, err, sizeof err);
    if (!want && rc)
        check_fail(__FILE__, line, "%s on %s %s refused: %s", app, topo, dims, err);
    if (want && !rc)
        check_fail(__FILE__, line, "%s on %s %s accepted, expected \"%s\"", app, topo, dims, want);
    if (want && rc && !strstr(err, want))
        check_fail(__FILE__, line, "%s on %s %s: \"%s\" lacks \"%s\"", app, topo, dims, err, want);
}
#define OK(app, topo, dims, ap) expect_check(app, topo, dims, ap, 1024, NULL, __LINE__)
#define NO(app, topo, dims, ap, msg) expect_check(app, topo, dims, ap, 1024, msg, __LINE__)

TEST(restrictions_of_complete_exchange)
{
    NO("alltoall_pex", "mesh", "4x3", 0, "alltoall_pex needs a power-of-two node count, not 12");
    OK("alltoall_pex", "torus", "4x4", 0);
    OK("alltoall_pex", "hypercube", "16", 0);
    OK("alltoall_pex_gen", "mesh", "4x5", 0);
    OK("alltoall_pex_gen_shift", "torus", "7x1", 0);
    OK("alltoall_gen", "mesh", "5x5", 0);
    OK("alltoall_direct", "hypercube", "32", 0);
    OK("alltoall_direct", "mesh", "8x4", 0);
    NO("alltoall_direct", "torus", "4x4", 0, "needs a hypercube, or a 2D mesh of 2^k nodes");
    NO("alltoall_direct", "mesh", "4x3", 0, "not mesh 4x3");
    NO("alltoall_direct", "mesh", "4x2x2", 0, "2D mesh");
    OK("alltoall_std_exchange", "hypercube", "64", 0);
    NO("alltoall_std_exchange", "mesh", "4x4", 0, "needs a hypercube (TOPO=hypercube NODES=2^n), not mesh 4x4");
    OK("alltoall_binary_exchange", "mesh", "8x8", 0);
    NO("alltoall_binary_exchange", "mesh", "8x4", 0, "2D mesh of 2^d x 2^d nodes");
    NO("alltoall_binary_exchange", "torus", "4x4", 0, "not torus 4x4");
    NO("alltoall_quadrant_exchange", "mesh", "6x6", 0, "2^d x 2^d");
    OK("alltoall_quadrant_exchange", "mesh", "2x2", 0);
    OK("alltoall_a1", "torus", "8x8", 0);
    NO("alltoall_a1", "torus", "4x4", 0, "N x N torus with N = 2^n >= 8");
    NO("alltoall_a1", "mesh", "8x8", 0, "not mesh 8x8");
    NO("alltoall_a1", "torus", "8x4", 0, "N x N torus");
    OK("alltoall_an1", "torus", "4x4", 0);
    NO("alltoall_an1", "torus", "2x2", 0, "N = 2^n >= 4");
    NO("alltoall_an1", "torus", "12x12", 0, "N = 2^n >= 4");
    OK("alltoall_auto", "mesh", "7x3", 0);
    OK("alltoall_auto", "hypercube", "8", 0);
}

TEST(restrictions_of_all_to_all_broadcast)
{
    OK("allgather_flood", "torus", "5x5", 1);
    OK("allgather_flood", "mesh", "4x4", 1);
    NO("allgather_flood", "torus", "5x5", 0, "all-port model (PORT_MODEL=all-port)");
    NO("allgather_flood", "torus", "5x5", 0, "(one-port)");
    NO("allgather_flood", "torus", "4x4", 1, "n x n torus with n odd");
    NO("allgather_flood", "mesh", "4x5", 1, "n x n mesh");
    NO("allgather_flood", "hypercube", "16", 1, "not hypercube of 16 nodes");
    OK("allgather_rowcol", "torus", "4x5", 0);
    NO("allgather_rowcol", "mesh", "4x4", 0, "needs a 2D torus");
    NO("allgather_rowcol", "torus", "2x2x2", 0, "2D torus");
    OK("allgather_ring", "mesh", "4x4x4", 0);
    OK("allgather_ring", "torus", "3x5", 0);
    NO("allgather_ring", "hypercube", "8", 0, "a mesh or a torus");
    OK("allgather_std_exchange", "hypercube", "4", 0);
    NO("allgather_std_exchange", "torus", "2x2", 0, "hypercube");
    OK("allgather_auto", "hypercube", "2", 0);
    OK("allgather_auto", "torus", "3x7", 0);
}

TEST(restrictions_of_other_apps_unchanged)
{
    OK("hello", "mesh", "1", 0);
    NO("pingpong", "mesh", "1", 0, "app pingpong needs at least two nodes");
    OK("pingpong", "mesh", "2", 0);
}

/* --- len= ------------------------------------------------------------------- */

TEST(len_must_be_a_block_length_that_fits)
{
    expect_check("alltoall_gen", "mesh", "4x4", 0, 0, "len=0 is not a block length from 1 to 262144 bytes", __LINE__);
    expect_check("alltoall_gen", "mesh", "4x4", 0, -5, "len=-5", __LINE__);
    expect_check("alltoall_gen", "mesh", "4x4", 0, 262145, "(the largest message, --msg-max)", __LINE__);
    expect_check("alltoall_gen", "mesh", "4x4", 0, 262144, NULL, __LINE__);
    /* standard exchange: N/2 = 32 blocks per message on 64 nodes */
    expect_check("alltoall_std_exchange", "hypercube", "64", 0, 8192, NULL, __LINE__);
    expect_check("alltoall_std_exchange", "hypercube", "64", 0, 8193,
                 "len=8193 makes messages of 32 blocks = 262176 bytes, more than the largest message, "
                 "262144 bytes (--msg-max); accepted: len=1..8192", __LINE__);
    expect_check("allgather_ring", "mesh", "8x8", 0, 32768, NULL, __LINE__);
    expect_check("allgather_ring", "mesh", "8x8", 0, 32769, "accepted: len=1..32768", __LINE__);
}

/* The memory check names the largest len that fits, and means it. */
TEST(len_too_large_for_node_memory)
{
    struct app_shape sh = sim_shape("hypercube", "256", 0);
    const struct coll_algo *a = coll_find_app("alltoall_pex");
    REQUIRE(app_check(a->app, a->restr, &sh, 262144, 262144, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "app alltoall_pex: len=262144 needs");
    CHECK_CONTAINS(err, "of node memory (256 blocks held at once), more than the 30720 KiB a node has");
    const char *acc = strstr(err, "accepted: len=1..");
    REQUIRE(acc != NULL);
    long max = atol(acc + strlen("accepted: len=1.."));
    CHECK(max > 1000 && max < 262144);
    CHECK_EQ_INT(app_check(a->app, a->restr, &sh, max, 262144, err, sizeof err), 0);
    CHECK(app_check(a->app, a->restr, &sh, max + 1, 262144, err, sizeof err) != 0);
    CHECK(coll_mem_need(a, &sh, max) <= APP_NODE_HEAP_BYTES);
    CHECK(coll_mem_need(a, &sh, max + 1) > APP_NODE_HEAP_BYTES);
}

/* The apps' heap the run tool's ram_mib line quotes (--list-params,
 * host/params.c, which cannot include apps/restrict.h) is the one the
 * memory check applies. */
TEST(list_params_quotes_the_apps_heap)
{
    char *text = NULL, want[64];
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    REQUIRE(f != NULL);
    params_list(f);
    fclose(f);
    snprintf(want, sizeof want, "the project's apps keep their %lu MiB heap", (unsigned long)(APP_NODE_HEAP_BYTES >> 20));
    CHECK_CONTAINS(text, want);
    free(text);
}

TEST(len_from_the_run_tools_args)
{
    struct app_shape sh = sim_shape("mesh", "4x4", 0);
    CHECK_EQ_INT(app_check_args("alltoall_pex", APP_POW2, &sh, "", 262144, err, sizeof err), 0);
    CHECK_EQ_INT(app_check_args("alltoall_pex", APP_POW2, &sh, "len=4096", 262144, err, sizeof err), 0);
    CHECK(app_check_args("alltoall_pex", APP_POW2, &sh, "foo=1 len=4096", 262144, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "unknown key 'foo'");
    CHECK(app_check_args("alltoall_pex", APP_POW2, &sh, "len=abc", 262144, err, sizeof err) != 0);
    CHECK_STR(err, "app alltoall_pex: len=abc is not a whole number; accepted: a length in bytes, such as "
                   "len=1024");
    CHECK(app_check_args("alltoall_pex", APP_POW2, &sh, "len=12x", 262144, err, sizeof err) != 0);
    CHECK(app_check_args("alltoall_pex", APP_POW2, &sh, "len=0", 262144, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "len=0 is not a block length");
    CHECK(app_check_args("alltoall_pex", APP_POW2, &sh, "xlen=0", 262144, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "unknown key 'xlen'");
    /* every app declares its keys: pingpong's len is checked too */
    CHECK(app_check_args("pingpong", APP_TWO, &sh, "len=0", 262144, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "len=0");
}

/* --- the auto table (apps/coll/auto.c) ---------------------------------------- */

static const char *picks(enum coll_op op, const char *topo, const char *dims, int all_port, long len,
                         unsigned long msg_max)
{
    static char why[128];
    struct app_shape sh = sim_shape(topo, dims, all_port);
    const struct coll_algo *a = coll_auto(op, &sh, len, msg_max, why, sizeof why);
    return a ? a->name : "(none)";
}

TEST(auto_follows_its_table)
{
    CHECK_STR(picks(COLL_ALLTOALL, "hypercube", "16", 0, 128, 262144), "std_exchange");
    CHECK_STR(picks(COLL_ALLTOALL, "hypercube", "16", 0, 129, 262144), "direct");
    CHECK_STR(picks(COLL_ALLTOALL, "torus", "8x8", 0, 32, 262144), "a1");
    CHECK_STR(picks(COLL_ALLTOALL, "torus", "8x8", 0, 33, 262144), "pex");      /* p = 64 */
    CHECK_STR(picks(COLL_ALLTOALL, "torus", "8x8", 0, 2048, 262144), "pex");
    CHECK_STR(picks(COLL_ALLTOALL, "mesh", "4x4", 0, 128, 262144), "quadrant_exchange");
    CHECK_STR(picks(COLL_ALLTOALL, "mesh", "4x4", 0, 129, 262144), "gen");
    CHECK_STR(picks(COLL_ALLTOALL, "torus", "4x4", 0, 100, 262144), "gen");
    CHECK_STR(picks(COLL_ALLTOALL, "torus", "4x4", 0, 4096, 262144), "pex");
    CHECK_STR(picks(COLL_ALLTOALL, "mesh", "4x5", 0, 1024, 262144), "gen");           /* q - p = 12 >= 8 */
    CHECK_STR(picks(COLL_ALLTOALL, "mesh", "8x7", 0, 1024, 262144), "pex_gen_shift"); /* q - p = 8 < 16 */
    /* a choice that does not fit gives way to GEN */
    CHECK_STR(picks(COLL_ALLTOALL, "torus", "8x8", 0, 16, 512), "gen");         /* 64 blocks > 512 bytes */
    CHECK_STR(picks(COLL_ALLTOALL, "hypercube", "64", 0, 64, 1024), "gen");     /* 32 blocks > 1024 bytes */
    CHECK_STR(picks(COLL_ALLGATHER, "hypercube", "32", 0, 1024, 262144), "std_exchange");
    CHECK_STR(picks(COLL_ALLGATHER, "torus", "5x5", 1, 1024, 262144), "flood");
    CHECK_STR(picks(COLL_ALLGATHER, "mesh", "4x4", 1, 1024, 262144), "flood");
    CHECK_STR(picks(COLL_ALLGATHER, "torus", "5x5", 0, 1024, 262144), "rowcol");
    CHECK_STR(picks(COLL_ALLGATHER, "torus", "4x4", 1, 1024, 262144), "rowcol");
    CHECK_STR(picks(COLL_ALLGATHER, "mesh", "4x4", 0, 1024, 262144), "ring");
    CHECK_STR(picks(COLL_ALLGATHER, "mesh", "3x3x3", 0, 1024, 262144), "ring");
}

/* What auto picks is itself allowed on the machine. */
TEST(auto_picks_only_allowed_algorithms)
{
    static const struct { const char *topo, *dims; int ap; } m[] = {
        { "hypercube", "16", 0 }, { "torus", "8x8", 0 }, { "mesh", "4x4", 0 }, { "mesh", "4x5", 1 },
        { "torus", "5x5", 1 }, { "torus", "3x4x5", 0 }, { "mesh", "1", 0 }, { "torus", "32x32", 0 },
    };
    static const long lens[] = { 1, 64, 100, 1024, 5000 };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
            for (int op = 0; op < 2; op++) {
                struct app_shape sh = sim_shape(m[i].topo, m[i].dims, m[i].ap);
                char why[128];
                const struct coll_algo *a = coll_auto((enum coll_op)op, &sh, lens[l], 262144, why, sizeof why);
                REQUIRE(a != NULL);
                if (app_check(a->app, a->restr, &sh, lens[l], 262144, err, sizeof err))
                    check_fail(__FILE__, __LINE__, "auto picks %s on %s %s: %s", a->app, m[i].topo, m[i].dims, err);
                CHECK(why[0] != 0);
            }
}

/* --- the checker catches broken schedules ----------------------------------- */

static int pex_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)sh;
    from[0] = node ^ step;
    return 1;
}
static void pex_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    coll_emit_msg(e, node ^ step);
    coll_emit_blk(e, coll_lab(node, node ^ step, sh->nodes));
}
static int p_minus_2(const struct app_shape *sh) { return sh->nodes - 2; }
static int p_steps(const struct app_shape *sh) { return sh->nodes; }
static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long all(const struct app_shape *sh) { return sh->nodes; }

/* Sends the partner's block instead of its own. */
static void wrong_block_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    coll_emit_msg(e, node ^ step);
    coll_emit_blk(e, coll_lab(node ^ step, node, sh->nodes));
}
/* Names the wrong sender. */
static int wrong_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    from[0] = (node ^ step) == sh->nodes - 1 ? 0 : node ^ step;
    return 1;
}
/* Sends its own block to node XOR 1 at both steps: the second is a
 * duplicate delivery. */
static void twice_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    (void)sh, (void)step;
    coll_emit_msg(e, node ^ 1);
    coll_emit_blk(e, node);
}
static int twice_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)sh, (void)step;
    from[0] = node ^ 1;
    return 1;
}
/* Everybody sends to node 0: contention. */
static void star_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    if (node == 0)
        return;
    (void)step;
    coll_emit_msg(e, 0);
    coll_emit_blk(e, coll_lab(node, 0, sh->nodes));
}
static int star_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)step;
    if (node != 0)
        return 0;
    for (int i = 1; i < sh->nodes && i <= COLL_MAX_MSGS; i++)
        from[i - 1] = i;
    return sh->nodes - 1 < COLL_MAX_MSGS ? sh->nodes - 1 : COLL_MAX_MSGS;
}
static int one_step(const struct app_shape *sh) { (void)sh; return 1; }
static int two_steps(const struct app_shape *sh) { (void)sh; return 2; }

static const char *sim_error(const struct coll_algo *a, const char *topo, const char *dims)
{
    static char buf[512];
    struct app_shape sh = sim_shape(topo, dims, 0);
    struct sim s;
    int rc = sim_run(&s, a, &sh, SIM_LOADS);
    snprintf(buf, sizeof buf, "%s", rc ? s.err : "(no error)");
    sim_free(&s);
    return buf;
}

/* A hook left out is named (the run tool refuses the app with it). */
TEST(a_missing_hook_is_named)
{
    struct coll_algo a = { COLL_ALLGATHER, "x", "allgather_x", APP_ANY, two_steps, twice_sends, twice_senders,
                           one, all, NULL, NULL, 0 };
    CHECK(coll_missing_hook(&a) == NULL);
    a.senders = NULL;
    CHECK_STR(coll_missing_hook(&a), "senders");
    a.op = COLL_BCAST;                     /* a rooted operation may leave senders() out */
    CHECK(coll_missing_hook(&a) == NULL);
    a.max_hold = NULL;
    CHECK_STR(coll_missing_hook(&a), "max_hold");
    a.sends = NULL;                        /* not taken for an auto */
    CHECK_STR(coll_missing_hook(&a), "sends");
    a.name = "auto";
    CHECK(coll_missing_hook(&a) == NULL);
}

TEST(checker_catches_a_lost_block)
{
    struct coll_algo a = { COLL_ALLTOALL, "x", "x", APP_ANY, p_minus_2, pex_sends, pex_senders, one, all, NULL, NULL, 0 };
    CHECK_CONTAINS(sim_error(&a, "mesh", "4x4"), "block (15,0) ends at node 15, not 0");
}

TEST(checker_catches_a_block_not_held)
{
    struct coll_algo a = { COLL_ALLTOALL, "x", "x", APP_ANY, p_steps, wrong_block_sends, pex_senders, one, all, NULL, NULL, 0 };
    CHECK_CONTAINS(sim_error(&a, "mesh", "4x4"), "step 1: node 0 sends block (1,0), which it does not hold");
}

TEST(checker_catches_an_unmatched_send)
{
    struct coll_algo a = { COLL_ALLTOALL, "x", "x", APP_ANY, p_steps, pex_sends, wrong_senders, one, all, NULL, NULL, 0 };
    CHECK_CONTAINS(sim_error(&a, "mesh", "4x4"),
                   "step 1: node 15 sends to node 14, which does not receive it (node 14's senders() at step 1 "
                   "does not list node 15)");
}

TEST(checker_catches_an_empty_step)
{
    const struct coll_algo *g = coll_find(COLL_ALLTOALL, "pex_gen");      /* idles when XOR >= p */
    struct coll_algo a = { COLL_ALLTOALL, "x", "x", APP_ANY, p_steps, g->sends, g->senders, one, all, NULL, NULL, 0 };
    CHECK_CONTAINS(sim_error(&a, "hypercube", "8"), "step 8 of 8 is empty");
}

TEST(checker_catches_a_destination_out_of_range)
{
    struct coll_algo a = { COLL_ALLTOALL, "x", "x", APP_ANY, p_steps, pex_sends, pex_senders, one, all, NULL, NULL, 0 };
    CHECK_CONTAINS(sim_error(&a, "hypercube", "8"), "step 8: node 0 sends to node 8, outside 0..7");
}

TEST(checker_catches_a_second_delivery)
{
    struct coll_algo a = { COLL_ALLGATHER, "x", "x", APP_ANY, two_steps, twice_sends, twice_senders, one, all, NULL, NULL, 0 };
    CHECK_CONTAINS(sim_error(&a, "mesh", "2x1"), "step 2: node 1 receives block of 0 a second time (from 0)");
}

TEST(checker_measures_contention)
{
    /* a schedule that cannot deliver: everybody to node 0 */
    struct coll_algo a = { COLL_ALLTOALL, "x", "x", APP_ANY, one_step, star_sends, star_senders, one, all, NULL, NULL, 0 };
    struct app_shape sh = sim_shape("mesh", "3x3", 0);
    struct sim s;
    CHECK(sim_run(&s, &a, &sh, SIM_LOADS) != 0);
    sim_free(&s);
    /* GEN on a line of 4: step 1 uses each + link once (3 -> 0 goes back
     * the - way); step 2 puts 0->2 and 1->3 on the link 1->2. */
    struct app_shape line = sim_shape("mesh", "4x1", 0);
    REQUIRE(sim_run(&s, coll_find(COLL_ALLTOALL, "gen"), &line, SIM_LOADS) == 0);
    CHECK_EQ_INT(s.step_load[1], 1);
    CHECK_EQ_INT(s.step_load[2], 2);
    CHECK_EQ_INT(s.chan_blocks[sim_channel(&line, 1, 0, 1)], 1 + 2 + 1);   /* 1->2 at steps 1, 2 (twice), 3 */
    sim_free(&s);
    /* the route helper itself: torus tie goes +, mesh by sign, e-cube */
    int ch[64];
    struct app_shape t4 = sim_shape("torus", "4x1", 0);
    CHECK_EQ_INT(sim_route(&t4, 0, 2, ch, 64), 2);
    CHECK_EQ_INT(ch[0], sim_channel(&t4, 0, 0, 1));
    CHECK_EQ_INT(ch[1], sim_channel(&t4, 1, 0, 1));
    CHECK_EQ_INT(sim_route(&t4, 2, 0, ch, 64), 2);          /* 2 -> 0 is also + (3, then 0) */
    CHECK_EQ_INT(ch[0], sim_channel(&t4, 2, 0, 1));
    CHECK_EQ_INT(sim_route(&t4, 0, 3, ch, 64), 1);
    CHECK_EQ_INT(ch[0], sim_channel(&t4, 0, 0, -1));
    struct app_shape m = sim_shape("mesh", "4x4", 0);
    CHECK_EQ_INT(sim_route(&m, 5, 14, ch, 64), 3);          /* (1,1) -> (2,3): x first */
    CHECK_EQ_INT(ch[0], sim_channel(&m, 5, 0, 1));
    CHECK_EQ_INT(ch[1], sim_channel(&m, 6, 1, 1));
    CHECK_EQ_INT(ch[2], sim_channel(&m, 10, 1, 1));
    struct app_shape h = sim_shape("hypercube", "8", 0);
    CHECK_EQ_INT(sim_route(&h, 6, 1, ch, 64), 3);           /* 110 -> 001: bit 0, then 1, then 2 */
    CHECK_EQ_INT(ch[0], sim_channel(&h, 6, 0, 1));
    CHECK_EQ_INT(ch[1], sim_channel(&h, 7, 1, -1));
    CHECK_EQ_INT(ch[2], sim_channel(&h, 5, 2, -1));
}

/* PEX-GEN-SHIFT as extracted (myvirtual = mod(mynumber + shift, p)) is not
 * a complete exchange: the reason apps/coll/alltoall_pex_gen_shift.c reads
 * Figure 4 with mod q (Figure 3(b): real 0..19 are virtual 6..25). */
static int literal_partner(const struct app_shape *sh, int node, int step)
{
    int p = sh->nodes, q = 1;
    while (q < p)
        q *= 2;
    int shift = (q - p) / 2, d = (((node + shift) % p) ^ step) - shift;
    return d < 0 ? d + q : d;
}
static void literal_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int d = literal_partner(sh, node, step);
    if (d >= sh->nodes)
        return;
    coll_emit_msg(e, d);
    coll_emit_blk(e, coll_lab(node, d, sh->nodes));
}
static int literal_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    for (int k = 0, n = 0; k < sh->nodes; k++)    /* whoever names us */
        if (literal_partner(sh, k, step) == node && n < COLL_MAX_MSGS)
            from[n++] = k;
    int n = 0;
    for (int k = 0; k < sh->nodes; k++)
        n += literal_partner(sh, k, step) == node;
    return n < COLL_MAX_MSGS ? n : COLL_MAX_MSGS;
}
static int q_1(const struct app_shape *sh) { int q = 1; while (q < sh->nodes) q *= 2; return q - 1; }

TEST(pex_gen_shift_literal_mod_p_reading_fails)
{
    struct coll_algo lit = { COLL_ALLTOALL, "x", "x", APP_ANY, q_1, literal_sends, literal_senders, one, all, NULL, NULL, 0 };
    const char *e = sim_error(&lit, "mesh", "4x5");
    CHECK(strcmp(e, "(no error)") != 0);
    struct app_shape sh = sim_shape("mesh", "4x5", 0);
    struct sim s;
    CHECK_EQ_INT(sim_run(&s, coll_find(COLL_ALLTOALL, "pex_gen_shift"), &sh, 0), 0);
    sim_free(&s);
}

/* --- the simulator on the rooted and reducing operations ------------------ */

/* A binomial reduction to node 0 over lg p steps: at step t the nodes with
 * bit t-1 set (and no lower bit) send their partial to node - 2^(t-1). */
static int lg_steps(const struct app_shape *sh) { int k = 0; while ((1 << k) < sh->nodes) k++; return k; }
static void tree_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    (void)sh;
    int bit = 1 << (step - 1);
    if ((node & bit) && !(node & (bit - 1))) {
        coll_emit_msg(e, node - bit);
        coll_emit_blk(e, 0);
    }
}
/* The same, but at the last step node p/2 sends twice: once to 0 and once,
 * through a detour, again (the double count a buggy tree makes). */
static int tree_twice_steps(const struct app_shape *sh) { return lg_steps(sh) + 1; }
static void tree_twice_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    if (step <= lg_steps(sh))
        tree_sends(sh, node, step, e);
    else if (node == 1) {
        coll_emit_msg(e, 0);
        coll_emit_blk(e, 0);
    }
}
/* A "scan" that lets every node add its right neighbour's value. */
static void scan_wrong_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    (void)step;
    if (node > 0) {
        coll_emit_msg(e, node - 1);
        coll_emit_blk(e, 0);
        coll_emit_mode(e, COLL_COMBINE);
    }
    (void)sh;
}
/* A "barrier" where node 0 only hears from node 1. */
static void barrier_short_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    (void)sh;
    if (step == 1 && node == 1) {
        coll_emit_msg(e, 0);
        coll_emit_blk(e, 0);
    }
    if (step == 2 && node == 0)
        for (int v = 1; v < sh->nodes; v++) {
            coll_emit_msg(e, v);
            coll_emit_blk(e, 0);
        }
}

static const char *sim_error_op(enum coll_op op, int (*steps)(const struct app_shape *),
                                void (*sends)(const struct app_shape *, int, int, struct coll_emit *), int p)
{
    static char buf[512];
    struct coll_algo a = { .op = op, .name = "x", .app = "x", .nsteps = steps, .sends = sends,
                           .max_msg_blocks = one, .max_hold = all };
    char dims[16];
    snprintf(dims, sizeof dims, "%d", p);
    struct app_shape sh = sim_shape("hypercube", dims, 1);
    struct coll_ctx cx = { 0 };
    sh.cx = &cx;
    struct sim s;
    int rc = sim_run(&s, &a, &sh, 0);
    snprintf(buf, sizeof buf, "%s", rc ? s.err : "(no error)");
    sim_free(&s);
    return buf;
}

TEST(checker_passes_a_binomial_reduction)
{
    CHECK_STR(sim_error_op(COLL_REDUCE, lg_steps, tree_sends, 16), "(no error)");
}

TEST(checker_catches_a_contribution_counted_twice)
{
    CHECK_CONTAINS(sim_error_op(COLL_REDUCE, tree_twice_steps, tree_twice_sends, 8),
                   "node 0: block 0 holds node 1's contribution 2 times, not 1");
}

TEST(checker_catches_a_reduction_that_misses_nodes)
{
    CHECK_CONTAINS(sim_error_op(COLL_ALLREDUCE, lg_steps, tree_sends, 8), "node 1: block 0 holds node 0's contribution 0 times");
}

TEST(checker_catches_a_scan_with_a_higher_rank)
{
    CHECK_CONTAINS(sim_error_op(COLL_SCAN, one_step, scan_wrong_sends, 4),
                   "node 0: block 0 holds node 1's contribution 1 times, not 0");
}

TEST(checker_catches_a_barrier_that_misses_a_node)
{
    CHECK_CONTAINS(sim_error_op(COLL_BARRIER, two_steps, barrier_short_sends, 4),
                   "node 0: block 0 holds node 2's contribution 0 times, not 1");
}

TEST(checker_catches_a_broadcast_that_misses_a_node)
{
    /* the reduction tree run backwards would be a broadcast; run forwards
     * as a broadcast from 0 it reaches nobody */
    CHECK_CONTAINS(sim_error_op(COLL_BCAST, lg_steps, tree_sends, 8), "node 1 sends block 0, which it does not hold");
}
