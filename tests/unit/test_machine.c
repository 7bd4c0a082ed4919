/* machine_parse and machine_hops: the machine's shape from the user's
 * words, and the hop count of the dimension-ordered route. */
#include "check.h"
#include "machine.h"

static char err[512];

/* machine_parse into *m; err is cleared first so stale text never passes. */
static int parse(struct topo_shape *m, const char *topo, const char *nodes, const char *dims)
{
    err[0] = 0;
    return machine_parse(m, topo, nodes, dims, err, sizeof err);
}

static void check_dims(const struct topo_shape *m, const char *want)
{
    char buf[64];
    machine_dims_str(m, buf, sizeof buf);
    CHECK_STR(buf, want);
}

TEST(default_is_64_nodes_8x8)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "torus", NULL, NULL) == 0);
    CHECK_EQ_INT(m.topo, TOPO_TORUS);
    CHECK_EQ_INT(m.nodes, 64);
    CHECK_EQ_INT(m.ndims, 2);
    CHECK_EQ_INT(m.dims[0], 8);
    CHECK_EQ_INT(m.dims[1], 8);
    CHECK_EQ_INT(m.dims[2], 1);       /* unused dimensions have size 1 */
    CHECK_EQ_INT(m.dims[3], 1);
    check_dims(&m, "8x8");

    REQUIRE(parse(&m, "mesh", NULL, "") == 0);   /* empty DIMS = not given */
    CHECK_EQ_INT(m.topo, TOPO_MESH);
    CHECK_EQ_INT(m.nodes, 64);
    check_dims(&m, "8x8");
}

TEST(nodes_16_is_4x4)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "mesh", "16", NULL) == 0);
    CHECK_EQ_INT(m.nodes, 16);
    CHECK_EQ_INT(m.ndims, 2);
    CHECK_EQ_INT(m.dims[0], 4);
    CHECK_EQ_INT(m.dims[1], 4);
}

TEST(nodes_32_is_8x4_and_other_near_squares)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "torus", "32", NULL) == 0);
    CHECK_EQ_INT(m.nodes, 32);
    CHECK_EQ_INT(m.dims[0], 8);       /* dims[0] is the larger, fastest-varying one */
    CHECK_EQ_INT(m.dims[1], 4);
    check_dims(&m, "8x4");

    REQUIRE(parse(&m, "mesh", "12", NULL) == 0);
    check_dims(&m, "4x3");
    REQUIRE(parse(&m, "mesh", "7", NULL) == 0);  /* a prime is a line */
    check_dims(&m, "7x1");
    REQUIRE(parse(&m, "mesh", "1", NULL) == 0);
    CHECK_EQ_INT(m.nodes, 1);
    check_dims(&m, "1x1");
}

TEST(dims_give_the_node_count)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "mesh", NULL, "4x5") == 0);
    CHECK_EQ_INT(m.nodes, 20);
    CHECK_EQ_INT(m.ndims, 2);
    CHECK_EQ_INT(m.dims[0], 4);
    CHECK_EQ_INT(m.dims[1], 5);
    check_dims(&m, "4x5");

    REQUIRE(parse(&m, "torus", "20", "4x5") == 0);   /* NODES may agree */
    CHECK_EQ_INT(m.nodes, 20);

    REQUIRE(parse(&m, "torus", NULL, "2x3x4") == 0);
    CHECK_EQ_INT(m.nodes, 24);
    CHECK_EQ_INT(m.ndims, 3);
    CHECK_EQ_INT(m.dims[3], 1);

    REQUIRE(parse(&m, "mesh", NULL, "4x4x4x4") == 0);   /* the most dimensions */
    CHECK_EQ_INT(m.nodes, 256);
    CHECK_EQ_INT(m.ndims, 4);

    REQUIRE(parse(&m, "mesh", NULL, "9") == 0);         /* one dimension */
    CHECK_EQ_INT(m.nodes, 9);
    CHECK_EQ_INT(m.ndims, 1);
}

TEST(nodes_not_matching_dims_is_an_error)
{
    struct topo_shape m;
    CHECK_EQ_INT(parse(&m, "mesh", "16", "4x5"), -1);
    CHECK_CONTAINS(err, "NODES=16");
    CHECK_CONTAINS(err, "DIMS=4x5");
    CHECK_CONTAINS(err, "20");
}

TEST(malformed_dims_are_errors)
{
    static const char *const bad[] = { "4x", "x4", "4xx4", "abc", "0x4", "1x1x1x1x1x1x1x1x1x1x1x1x1",
                                       "4x-4", "4 x4", "4x4 ", "8x8x8x8x8", "x", "-4",
                                       "4096x2", "99999999999999999999", " 4x4", "4x 4", "+4x4" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct topo_shape m;
        int rc = parse(&m, "mesh", NULL, bad[i]);
        if (rc != -1)
            check_fail(__FILE__, __LINE__, "DIMS='%s' was accepted (%d nodes)", bad[i], m.nodes);
        CHECK_CONTAINS(err, "DIMS=");
        CHECK_CONTAINS(err, bad[i]);
        CHECK_CONTAINS(err, "malformed");
    }
}

TEST(bad_nodes_are_errors)
{
    static const char *const bad[] = { "0", "-1", "abc", "16x", "", "4097", " 4", "4 ", "+4", "\t4" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct topo_shape m;
        if (parse(&m, "torus", bad[i], NULL) != -1)
            check_fail(__FILE__, __LINE__, "NODES='%s' was accepted", bad[i]);
        CHECK_CONTAINS(err, "NODES=");
    }
    struct topo_shape m;
    CHECK_EQ_INT(parse(&m, "torus", "4096", NULL), 0);
    CHECK_EQ_INT(m.nodes, 4096);
}

/* The node limit every refusal names is the one parsing applies: NODES
 * and the product of DIMS up to it are taken, one more is not. */
TEST(the_node_limit_is_the_one_the_refusals_name)
{
    struct topo_shape m;
    char nodes[32], dims[32], want[64];
    REQUIRE(parse(&m, "torus", "999999", NULL) == -1);
    const char *at = strstr(err, "from 1 to ");
    REQUIRE(at != NULL);
    long most = strtol(at + strlen("from 1 to "), NULL, 10);
    REQUIRE(most > 1 && (most & (most - 1)) == 0);
    snprintf(nodes, sizeof nodes, "%ld", most);
    CHECK_EQ_INT(parse(&m, "torus", nodes, NULL), 0);
    static const char *const powers_of_two[] = { "hypercube", "banyan", "fattree" };
    for (size_t i = 0; i < sizeof powers_of_two / sizeof powers_of_two[0]; i++)
        CHECK_EQ_INT(parse(&m, powers_of_two[i], nodes, NULL), 0);
    snprintf(dims, sizeof dims, "%ldx2", most / 2);
    CHECK_EQ_INT(parse(&m, "mesh", NULL, dims), 0);
    snprintf(dims, sizeof dims, "%ldx2", most / 2 + 1);
    CHECK_EQ_INT(parse(&m, "mesh", NULL, dims), -1);
    snprintf(want, sizeof want, "at most %ld nodes", most);
    CHECK_CONTAINS(err, want);
    snprintf(nodes, sizeof nodes, "%ld", 2 * most);
    CHECK_EQ_INT(parse(&m, "banyan", nodes, NULL), -1);
    CHECK_EQ_INT(parse(&m, "banyan", "3", NULL), -1);
    snprintf(want, sizeof want, "from 2 to %ld", most);
    CHECK_CONTAINS(err, want);
    CHECK_EQ_INT(parse(&m, "fattree", "3", NULL), -1);
    CHECK_CONTAINS(err, want);
}

/* The balanced dragonfly's refusal lists the node counts it takes: each
 * listed count is taken, and no other count up to the node limit. */
TEST(balanced_dragonfly_takes_the_node_counts_it_lists)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "dragonfly", "5", NULL) == -1);
    const char *at = strstr(err, "NODES ="), *end = strstr(err, ", not 5;");
    REQUIRE(at != NULL && end != NULL && at < end);
    long listed[16];
    int nlisted = 0;
    for (const char *c = at; c < end && nlisted < 16; c++)
        if (*c >= '0' && *c <= '9' && c[-1] == ' ')
            listed[nlisted++] = strtol(c, NULL, 10);
    CHECK(nlisted >= 5);
    for (long n = 1; n <= MACHINE_MAX_NODES; n++) {
        char s[16];
        int named = 0;
        for (int k = 0; k < nlisted; k++)
            named |= listed[k] == n;
        snprintf(s, sizeof s, "%ld", n);
        int taken = parse(&m, "dragonfly", s, NULL) == 0;
        if (named != taken)
            check_fail(__FILE__, __LINE__, "dragonfly NODES=%ld: %s, and the refusal lists %d counts", n,
                       taken ? "taken" : "refused", nlisted);
    }
}

TEST(unknown_topology_lists_the_accepted_ones)
{
    struct topo_shape m;
    CHECK_EQ_INT(parse(&m, "ring", NULL, NULL), -1);
    CHECK_CONTAINS(err, "ring");
    CHECK_CONTAINS(err, "mesh, torus, hypercube, banyan, fattree");
    CHECK_EQ_INT(parse(&m, "Torus", NULL, NULL), -1);    /* names are exact */
    CHECK_CONTAINS(err, "mesh, torus, hypercube, banyan, fattree");
    CHECK_EQ_INT(parse(&m, NULL, NULL, NULL), -1);
    CHECK_CONTAINS(err, "mesh, torus, hypercube, banyan, fattree");
}

TEST(hypercube_of_8_is_2x2x2)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "hypercube", "8", NULL) == 0);
    CHECK_EQ_INT(m.topo, TOPO_HYPERCUBE);
    CHECK_EQ_INT(m.nodes, 8);
    CHECK_EQ_INT(m.ndims, 3);
    CHECK_EQ_INT(m.dims[0], 2);
    CHECK_EQ_INT(m.dims[1], 2);
    CHECK_EQ_INT(m.dims[2], 2);
    CHECK_EQ_INT(m.dims[3], 1);
    check_dims(&m, "2x2x2");

    REQUIRE(parse(&m, "hypercube", "2", NULL) == 0);
    CHECK_EQ_INT(m.ndims, 1);
    REQUIRE(parse(&m, "hypercube", "16", NULL) == 0);
    CHECK_EQ_INT(m.ndims, 4);
    check_dims(&m, "2x2x2x2");
    /* the shape a run prints is accepted back as DIMS, and nothing else */
    REQUIRE(parse(&m, "hypercube", NULL, "2x2x2x2") == 0);
    CHECK_EQ_INT(m.nodes, 16);
    CHECK_EQ_INT(m.ndims, 4);
    REQUIRE(parse(&m, "hypercube", "16", "2x2x2x2") == 0);
    CHECK_EQ_INT(parse(&m, "hypercube", "8", "2x2x2x2"), -1);
    CHECK_CONTAINS(err, "does not match");
    CHECK_EQ_INT(parse(&m, "hypercube", NULL, "4x4"), -1);
    CHECK_CONTAINS(err, "a hypercube's DIMS are 2x2x...x2");
    CHECK_CONTAINS(err, "not 4x4");
}

TEST(hypercube_needs_a_power_of_two)
{
    struct topo_shape m;
    CHECK_EQ_INT(parse(&m, "hypercube", "12", NULL), -1);
    CHECK_CONTAINS(err, "power of two");
    CHECK_CONTAINS(err, "12");
    CHECK_EQ_INT(parse(&m, "hypercube", "1", NULL), -1);
    CHECK_CONTAINS(err, "power of two");
}

/* A hypercube has one dimension per address bit, at most NIC_MAX_DIMS of
 * them: the largest allowed one must fill dims[] without writing past it
 * (the run tool once wrote 12 entries into a 4-entry array). */
TEST(hypercube_dimensions_fit_dims_array)
{
    static const struct { const char *nodes; int ndims; } ok[] = { { "32", 5 }, { "64", 6 }, { "4096", 12 } };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct { struct topo_shape m; int canary[16]; } s;
        for (int k = 0; k < 16; k++)
            s.canary[k] = 0x5a5a5a5a;
        REQUIRE(parse(&s.m, "hypercube", ok[i].nodes, NULL) == 0);
        CHECK_EQ_INT(s.m.ndims, ok[i].ndims);
        for (int k = 0; k < ok[i].ndims; k++)
            CHECK_EQ_INT(s.m.dims[k], 2);
        for (int k = 0; k < 16; k++)
            CHECK_EQ_U64(s.canary[k], 0x5a5a5a5a);
    }
    struct topo_shape m;
    CHECK_EQ_INT(parse(&m, "hypercube", NULL, NULL), 0);     /* the default, 64 nodes */
    CHECK_EQ_INT(m.ndims, 6);
    CHECK_EQ_INT(parse(&m, "hypercube", "8192", NULL), -1);  /* above the node limit */
}

/* A hypercube's DIMS can only be what a run names it: 2 per dimension. */
TEST(hypercube_dims_are_twos_only)
{
    struct topo_shape m;
    CHECK_EQ_INT(parse(&m, "hypercube", NULL, "2x2x4"), -1);
    CHECK_CONTAINS(err, "a hypercube's DIMS are 2x2x...x2");
    CHECK_EQ_INT(parse(&m, "hypercube", "8", "8"), -1);
    CHECK_CONTAINS(err, "not 8");
    CHECK_EQ_INT(parse(&m, "hypercube", NULL, "2x2x2"), 0);
    CHECK_EQ_INT(m.nodes, 8);
}

TEST(coords_vary_dimension_0_fastest)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "mesh", NULL, "4x5") == 0);
    int c[NIC_MAX_DIMS];
    topo_coords(&m, 13, c);        /* 13 = 1 + 4*3 */
    CHECK_EQ_INT(c[0], 1);
    CHECK_EQ_INT(c[1], 3);
    CHECK_EQ_INT(c[2], 0);
    CHECK_EQ_INT(c[3], 0);
    REQUIRE(parse(&m, "hypercube", "8", NULL) == 0);
    topo_coords(&m, 5, c);         /* coordinate i is bit i */
    CHECK_EQ_INT(c[0], 1);
    CHECK_EQ_INT(c[1], 0);
    CHECK_EQ_INT(c[2], 1);
}

TEST(mesh_hops)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "mesh", "16", NULL) == 0);
    CHECK_EQ_INT(machine_hops(&m, 0, 15), 6);
    CHECK_EQ_INT(machine_hops(&m, 15, 0), 6);
    CHECK_EQ_INT(machine_hops(&m, 0, 3), 3);      /* no wraparound on a mesh */
    CHECK_EQ_INT(machine_hops(&m, 0, 12), 3);
    CHECK_EQ_INT(machine_hops(&m, 5, 5), 0);
    CHECK_EQ_INT(machine_hops(&m, 5, 6), 1);
}

TEST(torus_hops_wrap_around)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "torus", NULL, NULL) == 0);    /* 8x8 */
    CHECK_EQ_INT(machine_hops(&m, 0, 7), 1);
    CHECK_EQ_INT(machine_hops(&m, 7, 0), 1);
    CHECK_EQ_INT(machine_hops(&m, 0, 56), 1);        /* (0,7) */
    CHECK_EQ_INT(machine_hops(&m, 0, 36), 8);        /* (4,4): half way both ways */
    CHECK_EQ_INT(machine_hops(&m, 0, 63), 2);        /* (7,7) */
    CHECK_EQ_INT(machine_hops(&m, 0, 3), 3);
    CHECK_EQ_INT(machine_hops(&m, 0, 5), 3);
}

TEST(hypercube_hops_count_differing_bits)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "hypercube", "16", NULL) == 0);
    CHECK_EQ_INT(machine_hops(&m, 0, 15), 4);
    CHECK_EQ_INT(machine_hops(&m, 5, 10), 4);
    CHECK_EQ_INT(machine_hops(&m, 3, 5), 2);
    CHECK_EQ_INT(machine_hops(&m, 8, 0), 1);
    CHECK_EQ_INT(machine_hops(&m, 9, 9), 0);
}

TEST(banyan_is_a_power_of_two_processors_in_one_dimension)
{
    struct topo_shape m;
    REQUIRE(parse(&m, "banyan", "16", NULL) == 0);
    CHECK_EQ_INT(m.topo, TOPO_BANYAN);
    CHECK_EQ_INT(m.nodes, 16);
    CHECK_EQ_INT(m.ndims, 1);
    CHECK_EQ_INT(m.dims[0], 16);
    check_dims(&m, "16");
    CHECK_EQ_INT(machine_hops(&m, 3, 3), 0);
    CHECK_EQ_INT(machine_hops(&m, 3, 4), 5);       /* 4 stages, and the link out of the last */
    CHECK_EQ_INT(parse(&m, "banyan", "12", NULL), -1);
    CHECK_CONTAINS(err, "power of two");
    CHECK_CONTAINS(err, "not 12");
    CHECK_EQ_INT(parse(&m, "banyan", "1", NULL), -1);
    CHECK_EQ_INT(parse(&m, "banyan", NULL, "4x4"), -1);
    CHECK_CONTAINS(err, "DIMS does not apply to a banyan");
}
