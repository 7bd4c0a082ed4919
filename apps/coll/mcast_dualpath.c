/* mcast_dualpath: multicast by the dual-path algorithm of Lin, McKinley
 * and Ni on a 2D mesh whose routers deliver multidestination worms.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 8, "Support
 *             Within the Data Network", Figure 30(b): "In the most basic of
 *             these algorithms, termed dual-path, the source node of a
 *             multicast generates at most two multi-destination worms. One
 *             worm travels forward from the source, visiting all
 *             destination nodes that appear after the source on the HP.
 *             Another multi-destination travels backwards on the HP,
 *             reaching those destination nodes that appear prior to the
 *             source node on the HP ... the nodes visited by any message
 *             worm appear in the same relative order as defined by the HP."
 * Machines:   a 2D mesh (the Hamiltonian path is the snake of
 *             netdev/nic_shm.h: row 0 in + x, row 1 in - x, ...), any port
 *             model; the routers copy worms to their nodes (NIC_MDW_HPATH,
 *             host/net/net_mc.c routes each leg by Lin et al.'s R).
 * Reading:    the figure's labels are one of many Hamiltonian paths; this
 *             is the boustrophedon one the text's routing function needs
 *             (every node's successor on the path is a neighbour).
 * Schedule:   step 1: the source sends the two worms (hpath_worms).
 * Steps:      1.
 * Start-ups:  at most 2 (one per worm), serialised on a one-port NIC.
 * Cost:       t_s + (D + m) t_f per worm, D the hops along its path: up to
 *             t_s + (N - 1 + m) t_f for a broadcast from a corner (the
 *             survey's single-worm bound), about half that from the middle.
 *             No deadlock: each worm climbs (or descends) the path's labels,
 *             so no cycle of channel dependences (Figure 30(b)).
 */
#include "hpath.h"
#include "ucast.h"
#include "../../netdev/nic_shm.h"

/* Destinations of the multicast (ascending, root excluded): membership by
 * binary search, so the groups come out in path order in O(N log m). */
static int member(const struct coll_ctx *cx, int v)
{
    int lo = 0, hi = cx->nset - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (cx->set[mid] == v)
            return 1;
        if (cx->set[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

static int at_label(const struct app_shape *sh, int l)
{
    int W = sh->dims[0], y = l / W, x = y % 2 ? W - 1 - l % W : l % W;
    return x + W * y;
}

int hpath_worms(const struct app_shape *sh, int quadrants, int *dst, int n[4])
{
    const struct coll_ctx *cx = sh->cx;
    int W = sh->dims[0], N = sh->nodes, k = 0, c[SHAPE_MAX_DIMS];
    shape_coords(sh, cx->root, c);
    int xr = c[0], lr = nic_hp_label(c[0], c[1], W);
    for (int g = 0; g < 4; g++) {
        n[g] = 0;
        if (!quadrants && g % 2)
            continue;
        int up = g < 2, left = g % 2;
        for (int l = up ? lr + 1 : lr - 1; up ? l < N : l >= 0; l += up ? 1 : -1) {
            int v = at_label(sh, l);
            if (member(cx, v) && (!quadrants || (v % W < xr) == left)) {
                dst[k++] = v;
                n[g]++;
            }
        }
    }
    return k;
}

int hpath_nsteps(const struct app_shape *sh)
{
    (void)sh;
    return 1;
}

void hpath_sends(const struct app_shape *sh, int quadrants, int node, int step, struct coll_emit *e)
{
    static int dst[COLL_MAX_SET];
    int n[4];
    if (node != sh->cx->root || step != 1)
        return;
    hpath_worms(sh, quadrants, dst, n);
    for (int g = 0, off = 0; g < 4; off += n[g++])
        if (n[g]) {
            coll_emit_worm(e, NIC_MDW_HPATH, dst + off, n[g]);
            coll_emit_blk(e, 0);
        }
}

int hpath_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    if (step != 1 || node == sh->cx->root)
        return 0;
    from[0] = sh->cx->root;
    return 1;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    hpath_sends(sh, 0, node, step, e);
}

const struct coll_algo coll_mcast_dualpath = {
    COLL_FACTS(mcast, dualpath),
    .nsteps = hpath_nsteps,
    .sends = sends,
    .senders = hpath_senders,
    .max_msg_blocks = ucast_one,
    .max_hold = ucast_one,
    .worms = 1,
};
