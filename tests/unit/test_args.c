/* ARGS: the keys each app declares in the registry (apps/apps.def,
 * apps/coll/algos.def), the parser the run tool and every node share
 * (app_args_parse), the run tool's check (app_check_args) and the
 * --list-apps text (app_keys_str).
 */
#include "check.h"
#include "../../apps/restrict.h"
#include "../../apps/coll/coll.h"

static const struct { const char *name; int restr; } apps[] = {
#define APP(n, r, d) { #n, r },
#include "../../apps/apps.def"
#undef APP
};
#define NAPPS ((int)(sizeof apps / sizeof apps[0]))

static struct app_shape shape(int topo, int d0, int d1)
{
    struct app_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.topo = topo;
    for (int i = 0; i < SHAPE_MAX_DIMS; i++)
        sh.dims[i] = 1;
    sh.ndims = d1 > 1 ? 2 : 1;
    sh.dims[0] = d0;
    sh.dims[1] = d1 > 1 ? d1 : 1;
    sh.nodes = d0 * (d1 > 1 ? d1 : 1);
    return sh;
}

/* The run tool's answer for app on sh with args: "" if accepted, else its
 * message. */
static const char *check(const char *app, struct app_shape sh, const char *args)
{
    static char err[512];
    int restr = -1;
    for (int i = 0; i < NAPPS; i++)
        if (!strcmp(apps[i].name, app))
            restr = apps[i].restr;
    if (restr < 0)
        return "no such app";
    err[0] = 0;
    if (app_check_args(app, restr, &sh, args, 262144, err, sizeof err) == 0)
        return "";
    return err;
}

static struct app_shape mesh4x4(void) { return shape(TOPO_MESH, 4, 4); }
static struct app_shape line4(void) { return shape(TOPO_MESH, 4, 1); }

/* --- the registry ------------------------------------------------------- */

TEST(every_app_declares_its_keys_once_and_well)
{
    for (int i = 0; i < NAPPS; i++) {
        const struct app_key *k = app_keys(apps[i].name);
        REQUIRE(k != NULL);
        int n = 0;
        for (; k[n].name; n++) {
            const struct app_key *x = &k[n];
            CHECK(strlen(x->name) > 0 && !strchr(x->name, '=') && !strchr(x->name, ' '));
            for (int j = 0; j < n; j++)
                if (!strcmp(k[j].name, x->name))
                    check_fail(__FILE__, __LINE__, "%s declares %s twice", apps[i].name, x->name);
            if (x->kind == APP_KIND_INT) {
                CHECK(x->what && *x->what);
                CHECK(x->hi == APP_KEY_LAST || x->lo <= x->hi);
                CHECK(x->lo >= -2147483647L - 1 && (x->hi == APP_KEY_LAST || x->hi <= 2147483647L));
                CHECK(x->dflt == APP_KEY_NONE || x->dflt == APP_KEY_LAST ||
                      (x->dflt >= x->lo && (x->hi == APP_KEY_LAST || x->dflt <= x->hi)));
            }
            if (x->kind == APP_KIND_RANK)
                CHECK(x->dflt == APP_KEY_NONE || x->dflt == APP_KEY_LAST || x->dflt == 0);
            if (x->kind == APP_KIND_WORD) {
                REQUIRE(x->words != NULL);
                CHECK(x->nwords >= 1);
                for (int j = 0; j < x->nwords; j++)
                    CHECK(x->words[j] && *x->words[j] && !strchr(x->words[j], ' '));
            }
        }
        CHECK(n <= APP_MAX_KEYS);
        /* the defaults alone are accepted wherever the app runs */
        struct app_args a;
        char err[256];
        if (apps[i].restr == APP_ANY || apps[i].restr == APP_TWO || apps[i].restr == APP_POW2)
            CHECK_STR(check(apps[i].name, mesh4x4(), ""), "");
        CHECK_EQ_INT(app_args_parse(apps[i].name, "", 16, 262144, &a, err, sizeof err), 0);
    }
    CHECK(app_keys("nosuch") == NULL);
}

TEST(the_collective_apps_take_their_operations_list)
{
    static const char *const want[COLL_NOPS] = {
        [COLL_ALLTOALL] = "len, sync, runs, oneshot, corrupt",
        [COLL_ALLGATHER] = "len, sync, runs, oneshot, corrupt",
        [COLL_BCAST] = "len, root, segs, set, sync, runs, oneshot, corrupt",
        [COLL_MCAST] = "len, root, set, m, seed, sync, runs, oneshot, corrupt",
        [COLL_SCATTER] = "len, root, sync, runs, oneshot, corrupt",
        [COLL_GATHER] = "len, root, sync, runs, oneshot, corrupt",
        [COLL_REDUCE] = "len, root, op, type, sync, runs, oneshot, corrupt",
        [COLL_ALLREDUCE] = "len, segs, op, type, sync, runs, oneshot, corrupt",
        [COLL_SCAN] = "len, op, type, sync, runs, oneshot, corrupt",
        [COLL_BARRIER] = "len, late, delay, sync, runs, oneshot",
    };
    for (int i = 0; coll_algos[i]; i++) {
        const struct app_key *k = app_keys(coll_algos[i]->app);
        REQUIRE(k != NULL);
        char got[256] = "";
        for (int j = 0; k[j].name; j++)
            snprintf(got + strlen(got), sizeof got - strlen(got), j ? ", %s" : "%s", k[j].name);
        CHECK_STR(got, want[coll_algos[i]->op]);
        /* the refusal of an unknown key names the same list */
        char err[512];
        struct app_args a;
        CHECK(app_args_parse(coll_algos[i]->app, "nosuch=1", 16, 262144, &a, err, sizeof err) != 0);
        CHECK_CONTAINS(err, want[coll_algos[i]->op]);
    }
}

/* coll_ctx_from_args, the collective apps' call from their words, asks
 * for exactly the declared keys the harness does not read itself. */
static char asked[512];
static const char *record(const char *key, void *u)
{
    (void)u;
    snprintf(asked + strlen(asked), sizeof asked - strlen(asked), "%s ", key);
    return NULL;
}

TEST(the_library_reads_only_declared_keys)
{
    static const char *const harness[] = { "len", "sync", "runs", "oneshot", "corrupt", "late", "delay" };
    static int set[COLL_MAX_SET];
    for (int op = 0; op < COLL_NOPS; op++) {
        const struct coll_algo *a = NULL;
        for (int i = 0; coll_algos[i] && !a; i++)
            if ((int)coll_algos[i]->op == op)
                a = coll_algos[i];
        REQUIRE(a != NULL);
        asked[0] = 0;
        struct coll_ctx cx;
        char err[256];
        coll_ctx_from_args((enum coll_op)op, record, NULL, 16, &cx, set, err, sizeof err);
        const struct app_key *k = app_keys(a->app);
        char want[512] = "";
        for (int j = 0; k[j].name; j++) {
            int h = op == COLL_BCAST && !strcmp(k[j].name, "set");    /* set=all: documentation only */
            for (size_t x = 0; x < sizeof harness / sizeof harness[0]; x++)
                h |= !strcmp(k[j].name, harness[x]);
            if (!h)
                snprintf(want + strlen(want), sizeof want - strlen(want), "%s ", k[j].name);
        }
        /* the same keys, in any order */
        int same = strlen(asked) == strlen(want);
        for (const char *w = want; same && *w; w += strcspn(w, " ") + 1) {
            char key[32];
            snprintf(key, sizeof key, " %.*s ", (int)strcspn(w, " "), w);
            char hay[520];
            snprintf(hay, sizeof hay, " %s", asked);
            same = strstr(hay, key) != NULL;
        }
        if (!same)
            check_fail(__FILE__, __LINE__, "%s: coll_ctx_from_args asks for \"%s\", the registry declares \"%s\"",
                       coll_ops[op].name, asked, want);
    }
}

/* The library's own defaults are the registry's. */
static const char *from_args(const char *key, void *u)
{
    return app_arg_word(u, key);
}

TEST(the_librarys_defaults_are_the_declared_ones)
{
    static int s1[COLL_MAX_SET], s2[COLL_MAX_SET];
    for (int i = 0; coll_algos[i]; i++) {
        const struct coll_algo *c = coll_algos[i];
        struct app_args a;
        char err[256], line[256] = "";
        REQUIRE(app_args_parse(c->app, "", 16, 262144, &a, err, sizeof err) == 0);
        /* every default written out as a word */
        for (int j = 0; j < a.nkeys; j++) {
            const struct app_key *k = &a.keys[j];
            if (k->kind == APP_KIND_WORD && !(c->op == COLL_BCAST && !strcmp(k->name, "set")))
                snprintf(line + strlen(line), sizeof line - strlen(line), "%s=%s ", k->name, k->words[a.val[j]]);
            else if ((k->kind == APP_KIND_INT || k->kind == APP_KIND_RANK) && a.val[j] != APP_KEY_NONE &&
                     strcmp(k->name, "m") && strcmp(k->name, "seed"))
                snprintf(line + strlen(line), sizeof line - strlen(line), "%s=%ld ", k->name, a.val[j]);
        }
        if (c->op == COLL_MCAST)
            snprintf(line + strlen(line), sizeof line - strlen(line), "m=%ld seed=%ld", app_arg(&a, "m"),
                     app_arg(&a, "seed"));
        struct app_args b;
        REQUIRE(app_args_parse(c->app, line, 16, 262144, &b, err, sizeof err) == 0);
        struct coll_ctx x, y;
        REQUIRE(coll_ctx_from_args(c->op, from_args, &a, 16, &x, s1, err, sizeof err) == 0);
        REQUIRE(coll_ctx_from_args(c->op, from_args, &b, 16, &y, s2, err, sizeof err) == 0);
        CHECK_EQ_INT(x.root, y.root);
        CHECK_EQ_INT(x.segs, y.segs);
        CHECK_EQ_INT(x.rop, y.rop);
        CHECK_EQ_INT(x.dtype, y.dtype);
        CHECK_EQ_INT(x.nset, y.nset);
        CHECK(!memcmp(s1, s2, (size_t)x.nset * sizeof s1[0]));
    }
}

/* --- refusals ----------------------------------------------------------------- */

TEST(pingpong)
{
    CHECK_STR(check("pingpong", line4(), "a=99"), "app pingpong: a=99 is not a node; accepted: a=0..3");
    CHECK_STR(check("pingpong", line4(), "len=abc"),
              "app pingpong: len=abc is not a whole number; accepted: a length in bytes, such as len=1024");
    CHECK_STR(check("pingpong", line4(), "a=x"), "app pingpong: a=x is not a whole number; accepted: a=0..3");
    CHECK_STR(check("pingpong", line4(), "iters=x"),
              "app pingpong: iters=x is not a whole number; accepted: iters=1..1000000");
    CHECK_STR(check("pingpong", line4(), "a=1 b=1"),
              "app pingpong: a=1 and b=1 are the same node; accepted: two different nodes");
    CHECK_STR(check("pingpong", line4(), "b=0"),                 /* a defaults to 0 */
              "app pingpong: a=0 and b=0 are the same node; accepted: two different nodes");
    CHECK_STR(check("pingpong", line4(), "len=0"),
              "app pingpong: len=0 is not a message length from 1 to 262144 bytes (the largest message, --msg-max)");
    CHECK_CONTAINS(check("pingpong", line4(), "len=262145"), "is not a message length from 1 to 262144");
    CHECK_STR(check("pingpong", line4(), "iters=0"),
              "app pingpong: iters=0 is not an iteration count; accepted: iters=1..1000000");
    CHECK_STR(check("pingpong", line4(), "b=-1"), "app pingpong: b=-1 is not a node; accepted: b=0..3");
    CHECK_STR(check("pingpong", line4(), "c=1"), "app pingpong: unknown key 'c'; accepted keys: a, b, len, iters");
    CHECK_STR(check("pingpong", line4(), "a=1 b=2 len=1000 iters=3"), "");
    CHECK_STR(check("pingpong", line4(), "len=262144"), "");
    CHECK_STR(check("pingpong", shape(TOPO_MESH, 1, 1), ""), "app pingpong needs at least two nodes");
}

TEST(words_that_are_not_key_value_or_given_twice)
{
    CHECK_STR(check("alltoall_pex", mesh4x4(), "lenn=16 bogus"),
              "app alltoall_pex: unknown key 'lenn'; accepted keys: len, sync, runs, oneshot, corrupt");
    CHECK_STR(check("alltoall_pex", mesh4x4(), "len=16 bogus"),
              "app alltoall_pex: 'bogus' is not a key=value word; accepted keys: len, sync, runs, oneshot, corrupt");
    CHECK_CONTAINS(check("alltoall_pex", mesh4x4(), "=16"), "'=16' is not a key=value word");
    CHECK_STR(check("alltoall_pex", mesh4x4(), "len=16 len=32"),
              "app alltoall_pex: len is given twice (len=16 and len=32); give it once");
    CHECK_CONTAINS(check("bcast_rd", mesh4x4(), "root=1 root=1"), "root is given twice");
    CHECK_STR(check("hello", mesh4x4(), "x=1"), "app hello: unknown key 'x'; accepted keys: none");
    CHECK_STR(check("netapi", mesh4x4(), "node=1"), "app netapi: unknown key 'node'; accepted keys: none");
    CHECK_STR(check("hello", mesh4x4(), "   "), "");
    /* a key of another operation */
    CHECK_CONTAINS(check("bcast_rd", mesh4x4(), "op=sum"), "unknown key 'op'; accepted keys: len, root, segs, set");
    CHECK_CONTAINS(check("allreduce_tree", mesh4x4(), "root=1"), "unknown key 'root'");
    CHECK_CONTAINS(check("scatter_binomial", mesh4x4(), "segs=2"), "unknown key 'segs'");
    /* an algorithm that does not cut its message would ignore segs= */
    CHECK_STR(check("bcast_rd", mesh4x4(), "segs=7"), "app bcast_rd sends its message whole, without segs=; "
              "accepted: segs= with bcast_edst bcast_edsf bcast_scatter_collect");
    CHECK_CONTAINS(check("allreduce_tree", mesh4x4(), "segs=3"), "accepted: segs= with allreduce_ring");
    CHECK_STR(check("bcast_edsf", mesh4x4(), "segs=1"),
              "app bcast_edsf: segs=1 is not a segment count from 2 to 4096 (each fence carries half of the segments)");
    CHECK_STR(check("allreduce_ring", mesh4x4(), "len=6"), "app allreduce_ring: len=6 is not a whole number of int "
              "elements (4 bytes each); accepted: a multiple of 4, such as len=4");
    /* segs= the algorithm would replace */
    CHECK_STR(check("allreduce_ring", mesh4x4(), "segs=24"), "app allreduce_ring: segs=24 is not a multiple of the "
              "16 nodes (whole segments a node); accepted: segs=16, 32, ... or none");
    CHECK_STR(check("allreduce_ring", mesh4x4(), "segs=32"), "");
    /* a length outside what the operation could take names what this algorithm takes here */
    CHECK_STR(check("bcast_rd", mesh4x4(), "len=0"),
              "app bcast_rd: len=0 is not a message length it takes on mesh 4x4; accepted: len=1..262144");
    CHECK_STR(check("bcast_rd", mesh4x4(), "len=31457281"),
              "app bcast_rd: len=31457281 is not a message length it takes on mesh 4x4; accepted: len=1..262144");
    CHECK_STR(check("allgather_ring", mesh4x4(), "len=262145"),
              "app allgather_ring: len=262145 is not a block length it takes on mesh 4x4; accepted: len=1..65536");
    CHECK_CONTAINS(check("allreduce_ring", mesh4x4(), "len=2"), "accepted: len=4..1048576");
    CHECK_CONTAINS(check("allreduce_ring", mesh4x4(), "len=31457280"), "accepted: len=4..1048576");
    CHECK_CONTAINS(check("barrier_tree", mesh4x4(), "corrupt=1"), "unknown key 'corrupt'");
    CHECK_CONTAINS(check("alltoall_gen", mesh4x4(), "root=1"), "unknown key 'root'");
    char longer[NIC_ARGS_BYTES + 1];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    CHECK_CONTAINS(check("hello", mesh4x4(), longer), "ARGS is longer than 799 characters");
}

TEST(numbers)
{
    CHECK_STR(check("pingpong", mesh4x4(), "len=0x100 a=0xf b=0"), "");
    CHECK_STR(check("pingpong", mesh4x4(), "len=010"),
              "app pingpong: len=010 is not a whole number (decimal without a leading 0, or hexadecimal after 0x)"
              "; accepted: a length in bytes, such as len=1024");
    CHECK_STR(check("pingpong", mesh4x4(), "len="),
              "app pingpong: len= is not a whole number; accepted: a length in bytes, such as len=1024");
    CHECK_STR(check("pingpong", mesh4x4(), "len=+5"),
              "app pingpong: len=+5 is not a whole number; accepted: a length in bytes, such as len=1024");
    CHECK_STR(check("pingpong", mesh4x4(), "len=0x"),
              "app pingpong: len=0x is not a whole number; accepted: a length in bytes, such as len=1024");
    CHECK_STR(check("pingpong", mesh4x4(), "len=12x"),
              "app pingpong: len=12x is not a whole number; accepted: a length in bytes, such as len=1024");
    CHECK_STR(check("pingpong", mesh4x4(), "iters=99999999999"),
              "app pingpong: iters=99999999999 is not an iteration count; accepted: iters=1..1000000");
    CHECK_STR(check("pingpong", mesh4x4(), "len=99999999999"),
              "app pingpong: len=99999999999 is more bytes than a message holds; accepted: a length up to the "
              "largest message (--msg-max)");
    CHECK_STR(check("alltoall_gen", mesh4x4(), "len=big"), "app alltoall_gen: len=big is not a whole number"
              "; accepted: a length in bytes, such as len=1024");
    struct app_args a;
    char err[256];
    REQUIRE(app_args_parse("mcast_umesh", "seed=-2147483648 m=0x3", 16, 262144, &a, err, sizeof err) == 0);
    CHECK_EQ_INT(app_arg(&a, "seed"), -2147483647L - 1);
    CHECK_EQ_INT(app_arg(&a, "m"), 3);
    CHECK(app_args_parse("mcast_umesh", "seed=2147483648", 16, 262144, &a, err, sizeof err) != 0);
    CHECK_STR(err, "seed=2147483648 is not a seed; accepted: seed=-2147483648..2147483647");
    REQUIRE(app_args_parse("crash", "addr=0x7fffffff", 4, 262144, &a, err, sizeof err) == 0);
    CHECK_EQ_INT(app_arg(&a, "addr"), 0x7fffffff);
}

TEST(fault_injection_apps)
{
    static const char *const kinds[] = { "dabort", "store", "undef", "pabort", "panic", "semihost", "scribble",
                                         "mark", "forge", "taint", "peek", "reset", "off" };
    static const char *const hows[] = { "spin", "doorbell", "exit" };
    static const char *const whats[] = { "dst", "len", "op", "off", "ring", "step", "steps", "time", "backwards",
                                         "flood" };
    char args[64];
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        snprintf(args, sizeof args, "node=2 kind=%s addr=0x20", kinds[i]);
        CHECK_STR(check("crash", line4(), args), "");
    }
    for (size_t i = 0; i < sizeof hows / sizeof hows[0]; i++) {
        snprintf(args, sizeof args, "node=3 how=%s", hows[i]);
        CHECK_STR(check("hang", line4(), args), "");
    }
    for (size_t i = 0; i < sizeof whats / sizeof whats[0]; i++) {
        snprintf(args, sizeof args, "what=%s node=1", whats[i]);
        CHECK_STR(check("baddesc", line4(), args), "");
    }
    CHECK_STR(check("crash", line4(), "kind=xyz"),
              "app crash: kind=xyz is not known; accepted: dabort store undef pabort panic semihost scribble mark "
              "forge taint peek fakefault reset off");
    CHECK_STR(check("crash", line4(), "kind=dabortx"),
              "app crash: kind=dabortx is not known; accepted: dabort store undef pabort panic semihost scribble "
              "mark forge taint peek fakefault reset off");
    CHECK_STR(check("hang", line4(), "how=xyz"), "app hang: how=xyz is not known; accepted: spin doorbell exit print");
    CHECK_STR(check("baddesc", line4(), "what=xyz"),
              "app baddesc: what=xyz is not known; accepted: dst len op off ring step steps time backwards flood record");
    CHECK_STR(check("crash", line4(), "node=4"), "app crash: node=4 is not a node; accepted: node=0..3");
    CHECK_STR(check("hang", line4(), "kind=spin"), "app hang: unknown key 'kind'; accepted keys: node, how");
    CHECK_STR(check("crash", line4(), "addr=-1"), "app crash: addr=-1 is not an address; accepted: addr=0..2147483647");
    struct app_args a;
    char err[256];
    REQUIRE(app_args_parse("crash", "", 4, 262144, &a, err, sizeof err) == 0);
    CHECK_EQ_INT(app_arg(&a, "node"), 0);
    CHECK_EQ_INT(app_arg(&a, "addr"), 16);
    CHECK(app_arg_word(&a, "kind") == NULL);            /* absent: the first word, dabort */
    CHECK_EQ_INT(app_arg(&a, "kind"), 0);
    REQUIRE(app_args_parse("baddesc", "what=steps", 4, 262144, &a, err, sizeof err) == 0);
    CHECK_STR(app_arg_word(&a, "what"), "steps");
    CHECK_EQ_INT(app_arg(&a, "what"), 6);
}

TEST(collective_apps)
{
    struct app_shape t5 = shape(TOPO_TORUS, 5, 5), m44 = mesh4x4();
    /* the ARGS of the QEMU suites */
    CHECK_STR(check("alltoall_gen", m44, "len=100 sync=0"), "");
    CHECK_STR(check("alltoall_quadrant_exchange", m44, "len=64 runs=3 corrupt=3 oneshot=1"), "");
    CHECK_STR(check("mcast_umesh", m44, "len=256 root=7 set=all"), "");
    CHECK_STR(check("mcast_umesh", m44, "len=300 m=6 seed=5 root=2"), "");
    CHECK_STR(check("bcast_rd", m44, "len=1000 root=5 oneshot=1 set=all"), "");
    CHECK_STR(check("bcast_edsf", m44, "len=1001 segs=6 root=7"), "");
    CHECK_STR(check("reduce_rd", m44, "op=min type=long len=256 root=2"), "");
    CHECK_STR(check("allreduce_ring", t5, "len=96 op=min type=long runs=3"), "");
    CHECK_STR(check("scan_chain", m44, "len=64 type=double corrupt=8"), "");
    CHECK_STR(check("barrier_tree", m44, "late=4 delay=50000"), "");
    CHECK_STR(check("barrier_dissemination", m44, "len=0"), "");
    /* refused */
    CHECK_STR(check("bcast_rd", m44, "set=1,2"), "app bcast_rd: set=1,2 is not known; accepted: all");
    CHECK_STR(check("barrier_tree", m44, "len=64"),
              "app barrier_tree: len=64 is not a barrier's length (it moves no data); accepted: len=0");
    CHECK_STR(check("barrier_tree", m44, "late=16"), "app barrier_tree: late=16 is not a node; accepted: late=0..15");
    CHECK_STR(check("alltoall_gen", m44, "corrupt=16"),
              "app alltoall_gen: corrupt=16 is not a node; accepted: corrupt=0..15");
    CHECK_STR(check("alltoall_gen", m44, "sync=2"), "app alltoall_gen: sync=2 is not 0 or 1; accepted: sync=0..1");
    CHECK_STR(check("alltoall_gen", m44, "runs=0"), "app alltoall_gen: runs=0 is not a run count; accepted: runs=1..10000");
    CHECK_STR(check("scatter_rd", m44, "root=16"), "app scatter_rd: root=16 is not a node; accepted: root=0..15");
    CHECK_STR(check("bcast_edsf", m44, "segs=0"),
              "app bcast_edsf: segs=0 is not a segment count; accepted: segs=1..65536");
    CHECK_STR(check("reduce_rd", m44, "op=avg"), "app reduce_rd: op=avg is not known; accepted: sum max min band bor bxor");
    CHECK_STR(check("mcast_umesh", m44, "m=16"),
              "app mcast_umesh: m=16 is not a number of destinations; accepted: m=1..15");
    CHECK_STR(check("mcast_umesh", m44, "set=1,2 seed=3"),
              "app mcast_umesh: set= and m= seed= both choose the multicast set; give one of them");
    CHECK_STR(check("mcast_umesh", m44, "set=3,3"), "app mcast_umesh: set=3,3: rank 3 is named twice");
    CHECK_CONTAINS(check("alltoall_gen", m44, "len=0"), "len=0 is not a block length from 1 to 262144 bytes");
    /* the machine first: an app that cannot run here is told so */
    CHECK_STR(check("alltoall_pex", shape(TOPO_MESH, 4, 3), "lenn=1"),
              "app alltoall_pex needs a power-of-two node count, not 12");
}

/* Node and run tool read the same words: the defaults and values the node
 * gets (app_args_parse at boot) are those the run tool checked. */
TEST(parsed_values_and_defaults)
{
    struct app_args a;
    char err[256];
    REQUIRE(app_args_parse("pingpong", "", 16, 262144, &a, err, sizeof err) == 0);
    CHECK_EQ_INT(app_arg(&a, "a"), 0);
    CHECK_EQ_INT(app_arg(&a, "b"), 15);
    CHECK_EQ_INT(app_arg(&a, "len"), 256);
    CHECK_EQ_INT(app_arg(&a, "iters"), 4);
    CHECK(app_arg_index(&a, "nosuch") < 0);
    REQUIRE(app_args_parse("pingpong", " iters=7   b=0x3 ", 16, 262144, &a, err, sizeof err) == 0);
    CHECK_EQ_INT(app_arg(&a, "b"), 3);
    CHECK_EQ_INT(app_arg(&a, "iters"), 7);
    CHECK_STR(app_arg_word(&a, "b"), "0x3");
    CHECK(app_arg_word(&a, "a") == NULL);
    REQUIRE(app_args_parse("barrier_tree", "", 9, 262144, &a, err, sizeof err) == 0);
    CHECK_EQ_INT(app_arg(&a, "late"), 8);
    CHECK_EQ_INT(app_arg(&a, "delay"), 20000);
    CHECK_EQ_INT(app_arg(&a, "len"), 0);
    REQUIRE(app_args_parse("alltoall_pex", "", 16, 262144, &a, err, sizeof err) == 0);
    CHECK_EQ_INT(app_arg(&a, "len"), 1024);
    CHECK_EQ_INT(app_arg(&a, "sync"), 1);
    CHECK_EQ_INT(app_arg(&a, "runs"), 1);
    CHECK_EQ_INT(app_arg(&a, "oneshot"), 0);
    CHECK_EQ_INT(app_arg(&a, "corrupt"), APP_KEY_NONE);
    REQUIRE(app_args_parse("mcast_utorus", "", 16, 262144, &a, err, sizeof err) == 0);
    CHECK_EQ_INT(app_arg(&a, "m"), 15);
    CHECK_EQ_INT(app_arg(&a, "seed"), 1);
    /* the run tool's message is the parser's, after the app's name */
    CHECK(app_args_parse("crash", "kind=xyz", 4, 262144, &a, err, sizeof err) != 0);
    char want[300];
    snprintf(want, sizeof want, "app crash: %s", err);
    CHECK_STR(check("crash", line4(), "kind=xyz"), want);
}

TEST(list_apps_text)
{
    char buf[600];
    app_keys_str("pingpong", buf, sizeof buf);
    CHECK_STR(buf, "a=<node> [0], b=<node> [p-1], len=<bytes> [256], iters=1..1000000 [4]");
    app_keys_str("hello", buf, sizeof buf);
    CHECK_STR(buf, "");
    app_keys_str("hang", buf, sizeof buf);
    CHECK_STR(buf, "node=<node> [0], how=spin|doorbell|exit|print [spin]");
    app_keys_str("barrier_tree", buf, sizeof buf);
    CHECK_STR(buf, "len=0, late=<node> [p-1], delay=0..1000000000 [20000], sync=0..1 [1], runs=1..10000 [1], "
                   "oneshot=0..1 [0]");
    app_keys_str("mcast_umesh", buf, sizeof buf);
    CHECK_CONTAINS(buf, "set=<ranks>|all, m=1..p-1 [p-1]");
    app_keys_str("bcast_rd", buf, sizeof buf);
    CHECK_CONTAINS(buf, "segs=1..65536, set=all, ");
    char small[20];
    app_keys_str("alltoall_pex", small, sizeof small);
    CHECK(strlen(small) < sizeof small);
}
