/* The papers' statements about link contention and channel load, checked
 * step by step on the host with the routing convention of the network
 * model (tests/unit/sched_sim.h): the per-step contention reports and the
 * per-channel load assertions the router will make once its network model
 * lands, done here on the schedules themselves.
 */
#include "check.h"
#include "sched_sim.h"

static int lg_floor(int x) { int k = 0; while (x > 1) { x >>= 1; k++; } return k; }

/* Run op/name on topo/dims with loads; REQUIRE-style: returns 0 on failure. */
static int run(struct sim *s, enum coll_op op, const char *name, const char *topo, const char *dims,
               int all_port, int flags)
{
    struct app_shape sh = sim_shape(topo, dims, all_port);
    const struct coll_algo *a = coll_find(op, name);
    if (!a) {
        check_fail(__FILE__, __LINE__, "%s is not registered", name);
        return 0;
    }
    if (sim_run(s, a, &sh, flags | SIM_LOADS)) {
        check_fail(__FILE__, __LINE__, "%s on %s %s: %s", a->app, topo, dims, s->err);
        sim_free(s);
        return 0;
    }
    return 1;
}

/* Every step of op/name on topo/dims has at most one message per channel. */
static void contention_free(enum coll_op op, const char *name, const char *topo, const char *dims, int all_port)
{
    struct sim s;
    if (!run(&s, op, name, topo, dims, all_port, 0))
        return;
    for (int t = 1; t <= s.steps; t++)
        if (s.step_load[t] != 1)
            check_fail(__FILE__, __LINE__, "%s on %s %s: step %d has %d messages on one channel", name, topo,
                       dims, t, s.step_load[t]);
    sim_free(&s);
}

static const char *const pow2_meshes[] = { "2x1", "2x2", "4x2", "2x4", "4x4", "8x4", "4x8", "8x8", "16x4",
                                           "16x16", "32x32" };
#define NPOW2 (sizeof pow2_meshes / sizeof pow2_meshes[0])

/* Thakur 3.1: f(i) = 2^{lg max(i mod c, i/c)}, read with a floor (see
 * apps/coll/alltoall_pex.c), is the exact contention of PEX step i on an
 * r x c mesh under XY routing, and never exceeds max(r, c)/2. */
TEST(pex_contention_is_f_of_i_on_power_of_two_meshes)
{
    for (size_t k = 0; k < NPOW2; k++) {
        struct sim s;
        if (!run(&s, COLL_ALLTOALL, "pex", "mesh", pow2_meshes[k], 0, 0))
            continue;
        struct app_shape sh = sim_shape("mesh", pow2_meshes[k], 0);
        int c = sh.dims[0], r = sh.dims[1], bound = (r > c ? r : c) / 2;
        for (int i = 1; i <= s.steps; i++) {
            int m = i % c > i / c ? i % c : i / c;
            int f = 1 << lg_floor(m);
            if (s.step_load[i] != f)
                check_fail(__FILE__, __LINE__, "PEX on %s step %d: %d messages share a link, f(i) = %d",
                           pow2_meshes[k], i, s.step_load[i], f);
            if (s.step_load[i] > (bound > 1 ? bound : 1))
                check_fail(__FILE__, __LINE__, "PEX on %s step %d: %d > max(r,c)/2", pow2_meshes[k], i,
                           s.step_load[i]);
        }
        sim_free(&s);
    }
}

/* The extracted text's ceiling would claim 4 messages at step 3 of a 4x4
 * mesh; there are 2 (0->3 and 1->2 share 1->2). */
TEST(pex_f_of_i_with_a_ceiling_overcounts_step_3)
{
    struct sim s;
    if (!run(&s, COLL_ALLTOALL, "pex", "mesh", "4x4", 0, 0))
        return;
    CHECK_EQ_INT(s.step_load[3], 2);
    CHECK(s.step_load[3] != 4);
    sim_free(&s);
}

/* Thakur 3.1: PEX "guarantees no link contention in the hypercube". */
TEST(pex_is_contention_free_on_hypercubes)
{
    static const char *const n[] = { "2", "4", "8", "16", "32", "64", "1024" };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        contention_free(COLL_ALLTOALL, "pex", "hypercube", n[i], 0);
}

/* Thakur 3.4: GEN's contention at step i is at most
 * f(i) = min(i mod c, c - i mod c) + min(i/c, (p-i)/c). */
TEST(gen_contention_within_f_of_i_on_meshes)
{
    static const char *const m[] = { "4x4", "8x8", "16x8", "5x4", "8x6", "16x9", "4x5", "3x3", "7x1",
                                     "16x30", "6x8", "16x14" };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        struct sim s;
        if (!run(&s, COLL_ALLTOALL, "gen", "mesh", m[k], 0, 0))
            continue;
        struct app_shape sh = sim_shape("mesh", m[k], 0);
        int c = sh.dims[0], p = sh.nodes, worst = 0;
        for (int i = 1; i <= s.steps; i++) {
            int a = i % c < c - i % c ? i % c : c - i % c, b = i / c < (p - i) / c ? i / c : (p - i) / c;
            if (s.step_load[i] > a + b)
                check_fail(__FILE__, __LINE__, "GEN on %s step %d: %d messages share a link, f(i) = %d", m[k],
                           i, s.step_load[i], a + b);
            if (s.step_load[i] > worst)
                worst = s.step_load[i];
        }
        if (p >= 16)
            CHECK(worst >= 2);             /* the bound is not vacuous: GEN does contend */
        sim_free(&s);
    }
}

/* Thakur 3.2-3.3: "The maximum contention in each step is upper bounded by
 * that in the PEX algorithm": at most PEX's f(i) at each step, on meshes
 * whose rows (c = dims[0]) are a power of two long, where f(i) describes
 * PEX. (With other c, e.g. the paper's 16 x 9 read as 9 columns, XOR
 * partners cross row ends and f(i) is no bound.) PEX-GEN-SHIFT moves idle
 * nodes from the last steps to the first ones (p = 20: PEX-GEN's first 15
 * steps have 16-20 busy nodes and its last 16 only 8; the shift spreads
 * them), and its total contention (the sum over steps of the most messages
 * on one channel) is never above PEX-GEN's on the paper's shapes, either
 * way round (Table 4: "In most cases, it performs better than PEX-GEN"). */
TEST(pex_gen_and_shift_contention_within_pex_bound)
{
    static const char *const m[] = { "4x5", "8x6", "16x9", "16x14", "16x30", "8x3", "2x7" };
    static const char *const algos[] = { "pex_gen", "pex_gen_shift" };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++)
        for (int g = 0; g < 2; g++) {
            struct sim s;
            if (!run(&s, COLL_ALLTOALL, algos[g], "mesh", m[k], 0, 0))
                continue;
            int c = sim_shape("mesh", m[k], 0).dims[0];
            for (int i = 1; i <= s.steps; i++) {
                int mx = i % c > i / c ? i % c : i / c;
                if (s.step_load[i] > 1 << lg_floor(mx))
                    check_fail(__FILE__, __LINE__, "%s on %s step %d: %d > PEX's f(i) = %d", algos[g], m[k], i,
                               s.step_load[i], 1 << lg_floor(mx));
            }
            sim_free(&s);
        }
    static const char *const both[] = { "4x5", "5x4", "8x6", "6x8", "16x9", "9x16", "16x14", "14x16",
                                        "16x30", "30x16" };
    for (size_t k = 0; k < sizeof both / sizeof both[0]; k++) {
        struct sim g, sh;
        if (!run(&g, COLL_ALLTOALL, "pex_gen", "mesh", both[k], 0, 0))
            continue;
        if (run(&sh, COLL_ALLTOALL, "pex_gen_shift", "mesh", both[k], 0, 0)) {
            int sg = 0, ss = 0;
            for (int t = 1; t <= g.steps; t++)
                sg += g.step_load[t], ss += sh.step_load[t];
            if (ss > sg)
                check_fail(__FILE__, __LINE__, "%s: PEX-GEN-SHIFT total contention %d > PEX-GEN's %d", both[k],
                           ss, sg);
            sim_free(&sh);
        }
        sim_free(&g);
    }
    struct sim g, sh;
    if (!run(&g, COLL_ALLTOALL, "pex_gen", "mesh", "4x5", 0, 0))
        return;
    if (!run(&sh, COLL_ALLTOALL, "pex_gen_shift", "mesh", "4x5", 0, 0))
        return;
    int g_first = 0, g_last = 0, s_first = 0, s_last = 0;
    for (int t = 1; t <= 15; t++)
        g_first += g.step_msgs[t], s_first += sh.step_msgs[t];
    for (int t = 16; t <= 31; t++)
        g_last += g.step_msgs[t], s_last += sh.step_msgs[t];
    CHECK_EQ_INT(g_first + g_last, 20 * 19);
    CHECK_EQ_INT(s_first + s_last, 20 * 19);
    CHECK_EQ_INT(g_last, 16 * 8);            /* only 0..15 <-> 16..19 remain */
    CHECK(s_last > g_last);                  /* the shift balances the halves */
    sim_free(&g);
    sim_free(&sh);
}

/* McKinley 7: the direct algorithm is stepwise contention-free on a
 * hypercube; on the paper's 2 x 4 mesh (4 columns: our DIMS=4x2) steps 2,
 * 3, 6 and 7 need common channels, and only those. */
TEST(direct_contention_free_on_hypercubes_not_on_meshes)
{
    static const char *const n[] = { "2", "4", "8", "16", "32", "64", "1024" };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        contention_free(COLL_ALLTOALL, "direct", "hypercube", n[i], 0);
    struct sim s;
    if (!run(&s, COLL_ALLTOALL, "direct", "mesh", "4x2", 0, 0))
        return;
    REQUIRE(s.steps == 7);
    for (int t = 1; t <= 7; t++) {
        int contends = t == 2 || t == 3 || t == 6 || t == 7;
        if ((s.step_load[t] > 1) != contends)
            check_fail(__FILE__, __LINE__, "direct on the 2 x 4 mesh, step %d: load %d", t, s.step_load[t]);
    }
    sim_free(&s);
}

/* McKinley 7: standard exchange uses only nearest-neighbour links, one
 * message per link per step (complete exchange and all-to-all broadcast). */
TEST(standard_exchange_contention_free)
{
    static const char *const n[] = { "2", "4", "8", "16", "32", "64", "1024" };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        contention_free(COLL_ALLTOALL, "std_exchange", "hypercube", n[i], 0);
        contention_free(COLL_ALLGATHER, "std_exchange", "hypercube", n[i], 0);
        struct sim s;
        if (!run(&s, COLL_ALLTOALL, "std_exchange", "hypercube", n[i], 0, 0))
            continue;
        for (int c = 0; c < s.nchan; c++)        /* every hop is one link */
            if (s.chan_blocks[c] != s.p / 2 && s.chan_blocks[c] != 0)
                check_fail(__FILE__, __LINE__, "hypercube %s: a channel carries %ld blocks", n[i],
                           s.chan_blocks[c]);
        sim_free(&s);
    }
}

/* McKinley 7, Figure 27: binary exchange phases between nodes 2^b apart
 * put 2^b messages on the middle link of each group (8 x 8: 4, 4, 2, 2, 1,
 * 1 "actual message-passing steps"). */
TEST(binary_exchange_phase_loads)
{
    static const char *const m[] = { "2x2", "4x4", "8x8", "16x16", "32x32" };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        struct sim s;
        if (!run(&s, COLL_ALLTOALL, "binary_exchange", "mesh", m[k], 0, 0))
            continue;
        int d = lg_floor(sim_shape("mesh", m[k], 0).dims[0]);
        for (int t = 1; t <= s.steps; t++) {
            int want = 1 << (d - 1 - (t - 1) / 2);
            if (s.step_load[t] != want)
                check_fail(__FILE__, __LINE__, "binary exchange on %s phase %d: load %d, expected %d", m[k], t,
                           s.step_load[t], want);
        }
        sim_free(&s);
    }
    struct sim s;
    if (run(&s, COLL_ALLTOALL, "binary_exchange", "mesh", "8x8", 0, 0)) {
        int sum = 0;
        for (int t = 1; t <= s.steps; t++)
            sum += s.step_load[t];
        CHECK_EQ_INT(sum, 14);
        sim_free(&s);
    }
}

/* McKinley 7: "The selection of the quadruples within each stage is made
 * so that communication is stepwise contention-free." */
TEST(quadrant_exchange_contention_free)
{
    static const char *const m[] = { "2x2", "4x4", "8x8", "16x16", "32x32" };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++)
        contention_free(COLL_ALLTOALL, "quadrant_exchange", "mesh", m[k], 0);
}

/* Torus paper 000: A1's subnetworks "do not overlap and are
 * contention-free". Holds for every N but 16, where the 8-hop moves of
 * phases 1-2 are exactly N/2 and the convention routes the "-" ones the +
 * way: 2 messages per channel at steps 3 and 4 (phases 1 and 2). */
TEST(a1_contention_free_but_at_n_16)
{
    contention_free(COLL_ALLTOALL, "a1", "torus", "8x8", 0);
    contention_free(COLL_ALLTOALL, "a1", "torus", "32x32", 0);
    struct sim s;
    if (!run(&s, COLL_ALLTOALL, "a1", "torus", "16x16", 0, 0))
        return;
    for (int t = 1; t <= s.steps; t++)
        CHECK_EQ_INT(s.step_load[t], t == 3 || t == 4 ? 2 : 1);
    sim_free(&s);
}

TEST(an1_contention_free)
{
    static const char *const m[] = { "4x4", "8x8", "16x16", "32x32" };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++)
        contention_free(COLL_ALLTOALL, "an1", "torus", m[k], 0);
}

/* Slides 004: flooding sends neighbour messages only, one per channel per
 * step. Corollary 1: on an n x n torus every channel relays (n^2-1)/4
 * messages. Corollary 2: on an n x n mesh at most (n^2-1)/2; we find the
 * busiest channel relays exactly floor(n^2/2): the bound for odd n, and
 * half a message over it (the bound rounded up) for even n, where the
 * central channels carry n^2/2. */
TEST(flood_corollaries_1_and_2)
{
    static const char *const tori[] = { "3x3", "5x5", "7x7", "9x9", "15x15" };
    for (size_t k = 0; k < sizeof tori / sizeof tori[0]; k++) {
        contention_free(COLL_ALLGATHER, "flood", "torus", tori[k], 1);
        struct sim s;
        if (!run(&s, COLL_ALLGATHER, "flood", "torus", tori[k], 1, 0))
            continue;
        long want = ((long)s.p - 1) / 4;
        for (int c = 0; c < s.nchan; c++)
            if (s.chan_blocks[c] != want)
                check_fail(__FILE__, __LINE__, "torus %s: channel %d relays %ld messages, Corollary 1: %ld",
                           tori[k], c, s.chan_blocks[c], want);
        sim_free(&s);
    }
    for (int n = 2; n <= 9; n++) {
        char d[16];
        snprintf(d, sizeof d, "%dx%d", n, n);
        contention_free(COLL_ALLGATHER, "flood", "mesh", d, 1);
        struct sim s;
        if (!run(&s, COLL_ALLGATHER, "flood", "mesh", d, 1, 0))
            continue;
        long most = 0;
        for (int c = 0; c < s.nchan; c++)
            if (s.chan_blocks[c] > most)
                most = s.chan_blocks[c];
        if (most != (long)n * n / 2)
            check_fail(__FILE__, __LINE__, "mesh %s: the busiest channel relays %ld messages, expected %d", d,
                       most, n * n / 2);
        if (n % 2 == 1 && 2 * most > (long)n * n - 1)
            check_fail(__FILE__, __LINE__, "mesh %s: %ld messages on a channel, Corollary 2: <= %d/2", d, most,
                       n * n - 1);
        sim_free(&s);
    }
}

/* Slides 004, Theorem 3: in phase d each node receives d messages on each
 * of its four input channels (infinite mesh). On a (2k+1) x (2k+1) torus
 * this holds for d <= k, where the circles are those of the mesh. */
TEST(flood_theorem_3_on_odd_tori)
{
    static const char *const tori[] = { "5x5", "7x7", "9x9" };
    for (size_t k = 0; k < sizeof tori / sizeof tori[0]; k++) {
        struct sim s;
        if (!run(&s, COLL_ALLGATHER, "flood", "torus", tori[k], 1, SIM_STEP_CHANNELS))
            continue;
        struct app_shape sh = sim_shape("torus", tori[k], 1);
        int n = sh.dims[0], half = (n - 1) / 2;
        for (int d = 1; d <= half; d++)
            for (int v = 0; v < s.p; v++)
                for (int dim = 0; dim < 2; dim++)
                    for (int dir = -1; dir <= 1; dir += 2) {
                        int c[SHAPE_MAX_DIMS];
                        shape_coords(&sh, v, c);
                        c[dim] = (c[dim] - dir + n) % n;          /* the neighbour sending v's way */
                        int ch = sim_channel(&sh, shape_rank(&sh, c), dim, dir);
                        int got = s.chan_step_blocks[(size_t)d * s.nchan + ch];
                        if (got != d)
                            check_fail(__FILE__, __LINE__, "torus %s, phase %d: node %d gets %d messages on an "
                                       "input channel, Theorem 3: %d", tori[k], d, v, got, d);
                    }
        sim_free(&s);
    }
}

/* Why flooding is restricted to odd tori: on an even torus the distance
 * check lets the node n/2 away be reached from both sides. */
TEST(flood_on_even_torus_delivers_twice)
{
    static const char *const tori[] = { "4x4", "6x6", "8x8" };
    for (size_t k = 0; k < sizeof tori / sizeof tori[0]; k++) {
        struct app_shape sh = sim_shape("torus", tori[k], 1);
        struct sim s;
        int rc = sim_run(&s, coll_find(COLL_ALLGATHER, "flood"), &sh, 0);
        CHECK(rc != 0);
        CHECK_CONTAINS(s.err, "a second time");
        sim_free(&s);
    }
}

/* Slides 004 comparison: Saad-Schultz on an n x n torus moves (n^2-1)/2
 * messages over the busiest path, twice flooding's (n^2-1)/4: (n-1)/2 per
 * row channel and n(n-1)/2 per column channel; neighbour messages only. */
TEST(rowcol_channel_loads)
{
    static const char *const tori[] = { "3x3", "5x5", "7x7", "9x9" };
    for (size_t k = 0; k < sizeof tori / sizeof tori[0]; k++) {
        contention_free(COLL_ALLGATHER, "rowcol", "torus", tori[k], 0);
        struct sim s;
        if (!run(&s, COLL_ALLGATHER, "rowcol", "torus", tori[k], 0, 0))
            continue;
        int n = sim_shape("torus", tori[k], 0).dims[0];
        for (int c = 0; c < s.nchan; c++) {
            int dim = c / 2 % 2;
            long want = dim == 0 ? (n - 1) / 2 : (long)n * (n - 1) / 2;
            if (s.chan_blocks[c] != want)
                check_fail(__FILE__, __LINE__, "torus %s: a dimension-%d channel carries %ld, expected %ld",
                           tori[k], dim, s.chan_blocks[c], want);
        }
        sim_free(&s);
    }
    static const char *const other[] = { "4x4", "8x4", "16x9", "6x5", "32x32" };
    for (size_t k = 0; k < sizeof other / sizeof other[0]; k++)
        contention_free(COLL_ALLGATHER, "rowcol", "torus", other[k], 0);
}

/* McKinley 7: ring per dimension, every message of a step on its own line
 * (the mesh's wrap-around message goes the other way). */
TEST(ring_contention_free)
{
    static const char *const m[] = { "4x4", "8x8", "5x3", "16x9", "4x4x4", "16x30" };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        contention_free(COLL_ALLGATHER, "ring", "mesh", m[k], 0);
        contention_free(COLL_ALLGATHER, "ring", "torus", m[k], 0);
    }
}
