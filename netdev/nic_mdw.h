/* Whether the routers take a multidestination worm's list (nic_shm.h,
 * NIC_OP_MSEND): the one check the router makes of every MSEND
 * (host/net/net_mc.c) and the run tool of the mdw app's ARGS before any node
 * starts (apps/app_check.c). Pure C, for the host only.
 *
 * The rules: a mesh or a hypercube; kind one of enum nic_mdw; 1 .. N-1
 * destinations, each a node, none the source, none twice; NIC_MDW_HPATH
 * only on a 2D mesh, the labels of the source and the destinations
 * (nic_hp_label; rank = x + W y) rising, or falling, along the list.
 * The count n is checked before any destination is read (dst may be NULL
 * when n is outside 1..N-1). */
#ifndef NIC_MDW_H
#define NIC_MDW_H

#include <stdio.h>
#include <stdlib.h>
#include "nic_shm.h"

static inline int nic_mdw_label(int rank, int width) { return nic_hp_label(rank % width, rank / width, width); }

/* 0, or -1 with the reason in err. */
static inline int nic_mdw_check(int kind, int topo, int ndims, const int *dims, int nodes, int src,
                                const int *dst, int n, char *err, size_t errlen)
{
    if (topo != TOPO_MESH && topo != TOPO_HYPERCUBE) {
        snprintf(err, errlen, "multidestination worms need a mesh or a hypercube");
        return -1;
    }
    if (kind < NIC_MDW_PATH || kind > NIC_MDW_TREE) {
        snprintf(err, errlen, "multidestination kind %d unknown (1 path, 2 Hamiltonian path, 3 tree)", kind);
        return -1;
    }
    if (kind == NIC_MDW_HPATH && (topo != TOPO_MESH || ndims != 2)) {
        snprintf(err, errlen, "a Hamiltonian-path worm needs a 2D mesh");
        return -1;
    }
    if (n < 1 || n > nodes - 1) {
        if (nodes < 2)
            snprintf(err, errlen, "a multidestination worm needs at least two nodes");
        else
            snprintf(err, errlen, "%d destinations; a multidestination worm takes 1..%d", n, nodes - 1);
        return -1;
    }
    unsigned char *seen = calloc((size_t)nodes, 1);
    if (!seen) {
        snprintf(err, errlen, "no memory for the destination list");
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        int d = dst[i];
        rc = -1;
        if (d < 0 || d >= nodes)
            snprintf(err, errlen, "destination %d out of range 0..%d", d, nodes - 1);
        else if (d == src)
            snprintf(err, errlen, "destination %d is the source", d);
        else if (seen[d])
            snprintf(err, errlen, "destination %d listed twice", d);
        else
            seen[d] = 1, rc = 0;
    }
    free(seen);
    if (rc || kind != NIC_MDW_HPATH)
        return rc;
    /* Figure 30(b): the worm visits its nodes in the path's order */
    int W = dims[0], up = nic_mdw_label(dst[0], W) > nic_mdw_label(src, W), prev = src;
    for (int i = 0; i < n; i++) {
        int d = dst[i], l = nic_mdw_label(d, W), lp = nic_mdw_label(prev, W);
        if ((l > lp) != up) {
            snprintf(err, errlen, "destination %d (path label %d) breaks the %s order of the Hamiltonian path "
                     "after %d (label %d)", d, l, up ? "rising" : "falling", prev, lp);
            return -1;
        }
        prev = d;
    }
    return 0;
}

#endif
