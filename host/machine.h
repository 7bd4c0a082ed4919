/* The simulated machine's shape (netdev/topo.h's struct topo_shape, the
 * one description of it) and the run's parameters. */
#ifndef MACHINE_H
#define MACHINE_H

#include <stdint.h>
#include <stddef.h>
#include "../netdev/nic_shm.h"

enum switching { SW_WORMHOLE = 0, SW_CUT_THROUGH = 1, SW_STORE_FORWARD = 2 };
extern const char *const switching_names[];   /* indexed by enum switching */

/* How a router shares its outputs among the worms that want them: its VC
 * and switch allocators (host/net/allocs.def lists them, host/net/net_alloc.c
 * has them; docs/network.md "Arbitration"). */
enum alloc {
#define ALLOC(id, name, vc, sw, key, doc) ALLOC_##id,
#include "net/allocs.def"
#undef ALLOC
    ALLOC_COUNT
};
extern const char *const alloc_names[];       /* indexed by enum alloc */

/* Which way a torus worm goes when both are equally short (an offset of
 * exactly k/2 on a ring of even k; net_topo.c route_direct): always +, or
 * + from an even coordinate and - from an odd one, so that a half-ring
 * shift of a whole ring splits between the two directions. */
enum tie { TIE_PLUS = 0, TIE_SOURCE_PARITY = 1 };
extern const char *const tie_names[];         /* indexed by enum tie */

/* The routing function a unicast worm's head follows (host/net/routings.def
 * lists them, host/net/net_route.c has them). */
enum routing {
#define ROUTING(id, name, topos, oblivious, doc) ROUTING_##id,
#include "net/routings.def"
#undef ROUTING
    ROUTING_COUNT
};
extern const char *const routing_names[];     /* indexed by enum routing */

/* Which of the outputs a routing function permits a head takes
 * (host/net/net_route.c, net_route_select): the first with a free VC in the
 * routing function's order; the one whose free VC has the most credits
 * (the least used downstream buffer); or one at random, seeded by
 * route_seed, the worm and the cycle. */
enum selection { SEL_FIRST = 0, SEL_LEAST_USED = 1, SEL_RANDOM = 2 };
extern const char *const selection_names[];   /* indexed by enum selection */

/* The interconnect's parameters (host/net/net_model.h has the model). */
struct net_params {
    uint32_t flit_bytes;      /* bytes per flit */
    uint32_t byte_ps;         /* link time per byte: one cycle = flit_bytes x byte_ps */
    uint32_t hop_cycles;      /* router + link delay per hop, cycles (>= 1) */
    uint32_t vcs;             /* virtual channels per link (>= 2 on a torus) */
    uint32_t buf_flits;       /* VC buffer depth, flits (wormhole) */
    uint32_t header_flits;    /* flits added to every worm */
    uint32_t ports;           /* injection/ejection channels; 0 = from the port model */
    uint32_t nic_cycles;      /* cycles per flit on an injection/ejection channel (>= 1) */
    uint32_t nic_vcs;         /* VCs of each injection and ejection channel (1..vcs) */
    uint32_t credit_delay;    /* cycles a credit takes beyond the next one to be usable upstream */
    uint32_t unidirectional;  /* torus: links only in the + direction */
    enum switching switching;
    enum alloc alloc;
    enum tie tie;             /* torus: the direction of an offset of k/2 */
    enum routing routing;     /* unicast worms' routing function */
    enum selection selection; /* among the outputs an adaptive routing permits */
    uint32_t route_seed;      /* valiant's intermediate nodes and selection=random */
};

/* Everything a run is parameterised by, besides its shape. */
struct params {
    uint32_t t_send_ns, t_recv_ns;   /* software start-up per send / receive */
    uint32_t ps_per_instr;           /* node CPU speed */
    uint32_t msg_max;                /* largest message payload */
    uint32_t nic_mem;                /* bytes of NIC memory per node (power of two) */
    uint32_t held_max;               /* bytes the router holds per node: mailbox, NIC queue (engine.h) */
    uint32_t ram_mib;                /* node RAM, MiB (struct nic_config ram_mib) */
    uint32_t eager_max;              /* longest message sent eagerly; 0: every one (engine.h, rendezvous) */
    struct net_params net;
    /* Beside the data network (host/net/hwnet.h): a stage of the barrier
     * circuits' and of the control network's trees, and a NIC's service
     * of a fetch-and-increment. */
    uint32_t barrier_stage_ns, ctrl_stage_ns, fi_ns;
};

extern const char *const topo_names[];   /* indexed by enum topo */

/* Fill m from the user's words. Any of nodes_s / dims_s may be NULL.
 * Returns 0, or -1 with a message naming the problem and the accepted
 * values in err. */
int machine_parse(struct topo_shape *m, const char *topo_s, const char *nodes_s,
                  const char *dims_s, char *err, size_t errlen);

/* The node count of a machine given neither NODES nor DIMS. */
int machine_default_nodes(enum topo t);

/* The most nodes a machine has (NODES and the product of DIMS): a
 * hypercube of TOPO_MAX_DIMS dimensions. */
#define MACHINE_MAX_NODES (1 << TOPO_MAX_DIMS)

/* Every accepted topology name, in topo_names' order, joined by sep,
 * into buf (cut at len): the list usage texts and refusals show. */
void machine_topo_list(char *buf, size_t len, const char *sep);

/* "8x8", "2x2x2x2" ... */
void machine_dims_str(const struct topo_shape *m, char *buf, size_t len);

/* The hop count of the route (dimension-ordered on a direct network; on
 * a banyan, processor to processor through every stage; on a fat tree, up
 * to the lowest common ancestor and down). Coordinates: topo_coords. */
int machine_hops(const struct topo_shape *m, int a, int b);
int machine_log2(int n);              /* ceil(log2 n) */
/* A banyan or a fat tree: switches between the nodes (host/net/net_topo.c). */
int machine_indirect(const struct topo_shape *m);

/* A dragonfly (netdev/topo.h; Kim, Dally, Scott and Abts 2008): dims p, a,
 * g with g = a h + 1. Its routers are numbered across groups, router r of
 * group G as G a + r, and node x hangs from router x / p. The global link
 * k (0 .. a h - 1) of group G leaves router k / h of it by global port
 * k % h and enters group (G + k + 1) mod g by that group's link a h - 1 - k
 * (the consecutive arrangement: every two groups joined by one link). */
static inline int df_h(const struct topo_shape *m) { return (m->dims[2] - 1) / m->dims[1]; }
static inline int df_link_to(const struct topo_shape *m, int G, int G2)
{
    int g = m->dims[2];
    return ((G2 - G - 1) % g + g) % g;
}
static inline int df_link_back(const struct topo_shape *m, int k) { return m->dims[1] * df_h(m) - 1 - k; }

#endif
