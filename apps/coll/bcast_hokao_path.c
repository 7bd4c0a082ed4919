/* bcast_hokao_path: Ho and Kao's hypercube broadcast with each node's
 * children reached by one multidestination worm per step.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 8: "Ho and Kao
 *             [33] have also proposed a path-based version of the broadcast
 *             algorithm described in Section 4. The routing is identical to
 *             that of the algorithm in Section 4, except that each node
 *             sends to all its children along a single path in one step."
 * Machines:   a hypercube, any port model (one worm per node and step); the
 *             routers copy worms to their nodes (NIC_MDW_PATH, e-cube legs).
 * Reading:    the tree and the steps are bcast_hokao's (apps/coll/
 *             bcast_hokao.c says how it reads Section 4), asked for the same
 *             node and step; the worm visits the children in the order
 *             that algorithm lists them. In a path step those are u_1 ..
 *             u_k, each one bit from the last: the worm's legs are single
 *             hops along the dimension-simple path. In a Double Tree step a
 *             node's children differ from it in one bit each, so the legs
 *             between them are two hops (through their common neighbour).
 * Steps:      bcast_hokao's H(n): 1 2 2 2 3 3 3 4 4 4 for n = 1..10.
 * Start-ups:  one per sending node and step (bcast_hokao: up to n).
 * Cost:       H(n) (t_s + (D + m) t_f), D the worm's path (at most 2n - 1
 *             hops): the start-ups of bcast_hokao's k messages become one.
 */
#include "coll.h"
#include "ucast.h"
#include "../../netdev/nic_shm.h"

extern const struct coll_algo coll_bcast_hokao;

static int nsteps(const struct app_shape *sh) { return coll_bcast_hokao.nsteps(sh); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int lab[2 * COLL_MAX_MSGS], to[COLL_MAX_MSGS];
    struct coll_plan pl = { 0 };
    pl.lab = lab;
    pl.cap = 2 * COLL_MAX_MSGS;
    struct coll_emit kids = { &pl, -1, -1, NULL };
    coll_bcast_hokao.sends(sh, node, step, &kids);
    for (int i = 0; i < pl.nsend; i++)
        to[i] = pl.send[i].peer;
    if (pl.nsend) {
        coll_emit_worm(e, NIC_MDW_PATH, to, pl.nsend);
        coll_emit_blk(e, 0);
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    return coll_bcast_hokao.senders(sh, node, step, from);
}

const struct coll_algo coll_bcast_hokao_path = {
    COLL_FACTS(bcast, hokao_path),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = ucast_one,
    .max_hold = ucast_one,
    .worms = 1,
};
