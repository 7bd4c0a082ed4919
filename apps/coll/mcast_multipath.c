/* mcast_multipath: multicast by the multi-path algorithm of Lin, McKinley
 * and Ni on an all-port 2D mesh whose routers deliver multidestination
 * worms.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 8, Figure 30(c):
 *             "To take advantage of the communication parallelism available
 *             in systems with all-port architecture, this algorithm can be
 *             extended to generate up to four concurrent multi-destination
 *             message worms in a 2D mesh ... Each worm reaches the
 *             destination nodes in the corresponding quadrant of the mesh,
 *             with respect to the source node. Again, each worm visits
 *             nodes in an order that is consistent with the HP".
 * Machines:   an all-port 2D mesh (check() refuses one-port: the four worms
 *             would leave one after the other), routers with NIC_MDW_HPATH.
 * Reading:    a quadrant is a half of dual-path (above or below the source
 *             on the path) cut by the source's column: x >= x_s, x < x_s.
 *             Each worm is routed by R (host/net/net_mc.c), so it climbs (or
 *             descends) the path's labels and the four stay deadlock-free.
 * Schedule:   step 1: the source sends up to four worms (hpath_worms).
 * Steps:      1.
 * Start-ups:  up to 4, leaving by their own injection channels.
 * Cost:       t_s + (D_max + m) t_f, D_max the longest of the four paths:
 *             about a quarter of dual-path's for a broadcast from the middle.
 */
#include <stdio.h>
#include "hpath.h"
#include "ucast.h"

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    hpath_sends(sh, 1, node, step, e);
}

static int check(const struct app_shape *sh, char *err, size_t errlen)
{
    if (sh->all_port)
        return 0;
    snprintf(err, errlen, "mcast_multipath sends up to four worms at once: it needs the all-port model "
             "(PORT_MODEL=all-port); mcast_dualpath is its one-port form");
    return -1;
}

const struct coll_algo coll_mcast_multipath = {
    COLL_FACTS(mcast, multipath),
    .nsteps = hpath_nsteps,
    .sends = sends,
    .senders = hpath_senders,
    .max_msg_blocks = ucast_one,
    .max_hold = ucast_one,
    .check = check,
    .worms = 1,
};
