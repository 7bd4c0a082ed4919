/* What the network's unit tests share: a machine from the words a user
 * types, failing the test if it is refused, and a small network on it. */
#ifndef NET_FIXTURE_H
#define NET_FIXTURE_H

#include "check.h"
#include "machine.h"
#include "net/net_model.h"

static inline struct topo_shape mach(const char *topo, const char *nodes, const char *dims, enum topo_port pm)
{
    struct topo_shape m;
    char err[256];
    if (machine_parse(&m, topo, nodes, dims, err, sizeof err))
        check_fail(__FILE__, __LINE__, "machine_parse: %s", err);
    m.all_port = pm;
    return m;
}

/* Small links: 8-byte flits at 1 ns a byte (a cycle is 8 ns), 1 cycle a
 * hop, 2 VCs of 4 flits, wormhole. */
static inline struct net_params small_params(void)
{
    return (struct net_params){ .flit_bytes = 8, .byte_ps = 1000, .hop_cycles = 1, .vcs = 2, .buf_flits = 4,
                                .nic_cycles = 1, .nic_vcs = 1, .switching = SW_WORMHOLE };
}

/* A network of small_params under port model pm from the user's words,
 * failing the test if it is refused; small_net: one-port. */
static inline struct net *small_net_pm(const char *topo, const char *nodes, const char *dims, enum topo_port pm)
{
    struct topo_shape m = mach(topo, nodes, dims, pm);
    struct net_params p = small_params();
    char err[256];
    struct net *n = net_new(&m, &p, err, sizeof err);
    if (!n)
        check_fail(__FILE__, __LINE__, "net_new: %s", err);
    return n;
}

static inline struct net *small_net(const char *topo, const char *nodes, const char *dims)
{
    return small_net_pm(topo, nodes, dims, TOPO_ONE_PORT);
}

/* The most worms of the permutation src -> perm[src] (src = 0..N-1) on
 * one link, by the model's own routes. */
static inline int max_sharing(struct net *n, int N, const int *perm)
{
    int nl;
    net_link_stats(n, &nl);
    int *use = calloc((size_t)nl, sizeof *use), path[64], worst = 0;
    for (int s = 0; s < N; s++)
        for (int k = net_path(n, s, perm[s], path, 64), j = 0; j < k; j++)
            if (++use[path[j]] > worst)
                worst = use[path[j]];
    free(use);
    return worst;
}

/* One worm alone from src to dst (len bytes): it takes its route's hops
 * and the uncontended time (net_model.h), and the router called `router` has
 * the name `name` (net_router_name). */
static inline void check_lone_worm(struct net *n, int src, int dst, uint32_t len, int hops, int router,
                                   const char *name)
{
    struct net_msg m = { .src = src, .dst = dst, .len = len };
    net_inject(n, &m);
    struct net_msg *a, *l;
    while (net_busy(n))
        REQUIRE(net_run(n, UINT64_MAX, &a, &l) >= 0);
    CHECK_EQ_INT(m.hops, hops);
    CHECK_EQ_U64(m.c_arrive - m.c_inject, net_uncontended_cycles(n, hops, m.flits));
    char got[32];
    net_router_name(n, router, got, sizeof got);
    CHECK_STR(got, name);
}

#endif
