/* The machine's topology kinds, one list for everyone who names them: the
 * host (struct machine), the NIC's configuration block (nic_shm.h: its
 * topo field carries these values on the wire), the node API (net.h) and
 * the apps' shape (apps/restrict.h). Pure C: no other header.
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

#endif
