/* The unicast-based multicast of McKinley, Tsai and Robinson (1994),
 * section 5 ("Contention-Free Multicast"): recursive halving of a chain of
 * the source and the destinations, shared by U-cube, U-mesh and U-torus
 * (apps/coll/ucast_util.c). Pure C. */
#ifndef COLL_UCAST_H
#define COLL_UCAST_H

#include "coll.h"

/* How the chain is ordered. Dimension order (the survey's "lexicographical
 * ordering, by dimension", after McKinley et al. [8]) compares addresses
 * on dimension 0 first, the dimension routed first, then 1, ...: in a 2D
 * mesh the column-wise listing. With it, a message down the chain in a
 * lower interval and one up the chain in a higher interval (Figure 14(c))
 * share no channel, which U-mesh needs; with rank order (dimension 0 the
 * least significant) they can. */
enum ucast_order {
    UCAST_CUBE,   /* source-relative dimension order: by node XOR source (U-cube) */
    UCAST_MESH,   /* dimension order, the source where it falls (U-mesh) */
    UCAST_RCHAIN, /* dimension order rotated to start at the source (U-torus R-chain) */
};

/* ceil(log2(x)), x >= 1. */
int ucast_clog2(long x);

/* The chain of the call sh->cx (root and set) in the order `o`: written to
 * a static table, returned through *ch; its length (nset + 1) is returned
 * and the source's index goes to *src. The table stays valid until the
 * next call. */
int ucast_chain(const struct app_shape *sh, enum ucast_order o, const int **ch, int *src);

/* The chain algorithm of a chain of L nodes whose holder (the source) is
 * at index src. Level t = 1..ceil(log2 L): every interval [lo, hi] of two
 * or more nodes is cut into [lo, mid-1] and [mid, hi], mid = lo +
 * ceil((hi-lo+1)/2); its holder h sends to the nearest node of the other
 * half (index mid if h < mid, else mid-1), which becomes that half's
 * holder. The holder of [lo, hi] is always at lo or hi once it is not the
 * source; the source may sit anywhere (U-mesh).
 * Returns +1 if index `me` sends to *peer at level `step`, -1 if it
 * receives from *peer, 0 if it does neither. */
int ucast_step(int L, int src, int me, int step, int *peer);

/* The hooks of the three multicasts: steps ceil(log2(nset + 1)); the
 * message (segment 0) travels down the chain of order o. */
int  ucast_nsteps(const struct app_shape *sh);
void ucast_sends(const struct app_shape *sh, enum ucast_order o, int node, int step, struct coll_emit *e);
int  ucast_senders(const struct app_shape *sh, enum ucast_order o, int node, int step, int from[COLL_MAX_MSGS]);
long ucast_one(const struct app_shape *sh);

#endif
