/* The machine's topology kinds and shape, one definition for everyone
 * who names them: the host, the NIC's configuration block (nic_shm.h: its
 * shape carries these values on the wire), the node API (net.h) and the
 * apps (apps/restrict.h). Pure C: no other header.
 *
 * Direct networks: every node's router has links to other nodes'
 * (mesh, torus, hypercube; dims[i] the size of dimension i, dims[0]
 * varying fastest in the rank). Indirect ones: switches between the
 * nodes' routers, each node with one link to its switch: a banyan
 * (ndims 1, dims[0] = nodes, on log2(nodes) stages of 2x2 switches), a
 * fat tree (a k-ary n-tree: ndims n, every dims[i] = k, a node's
 * coordinates its base-k digits) and a dragonfly (ndims 3: dims = p, a,
 * g: p nodes on each of the a routers of each of g = a h + 1 groups, h
 * global links a router; a node's coordinates its terminal, router and
 * group). */
#ifndef TOPO_H
#define TOPO_H

enum topo {
    TOPO_MESH = 0,
    TOPO_TORUS = 1,
    TOPO_HYPERCUBE = 2,
    TOPO_BANYAN = 3,
    TOPO_FATTREE = 4,
    TOPO_DRAGONFLY = 5,
    TOPO_COUNT
};
/* Their names, as users type them, in enum order. */
#define TOPO_NAMES "mesh", "torus", "hypercube", "banyan", "fattree", "dragonfly"

#define TOPO_MAX_DIMS 12               /* a 4096-node hypercube has 12 */

/* How a node's NIC meets the network (docs/network.md, the port model):
 * one injection and one ejection channel, or one per link direction. */
enum topo_port { TOPO_ONE_PORT = 0, TOPO_ALL_PORT = 1 };

/* The machine's shape: the one description the host (its machine), the
 * NIC's configuration (nic_shm.h carries it on the wire), the node API
 * (net.h, net_topology()) and the apps (struct app_shape) all hold. Ranks
 * number the nodes; coordinate 0 varies fastest in the rank (topo_coords),
 * and the dimensions past ndims are 1. */
struct topo_shape {
    int topo;                          /* enum topo */
    int ndims;
    int dims[TOPO_MAX_DIMS];
    int nodes;
    int all_port;                      /* enum topo_port: 1 under the all-port model */
};

/* The coordinates of node `rank`, and the rank of coordinates c. */
static inline void topo_coords(const struct topo_shape *s, int rank, int c[TOPO_MAX_DIMS])
{
    for (int i = 0; i < TOPO_MAX_DIMS; i++) {
        int k = i < s->ndims ? s->dims[i] : 1;
        c[i] = rank % k;
        rank /= k;
    }
}
static inline int topo_rank(const struct topo_shape *s, const int c[TOPO_MAX_DIMS])
{
    int r = 0;
    for (int i = s->ndims - 1; i >= 0; i--)
        r = r * s->dims[i] + c[i];
    return r;
}

#endif
