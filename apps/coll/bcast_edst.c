/* bcast_edst: broadcast over n edge-disjoint spanning trees of an all-port
 * hypercube, the message cut into n segments.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 4, Figure 6(c),
 *             after Johnsson and Ho [14]: "a tree structure that uses n
 *             edge-disjoint spanning trees (EDST) of the hypercube ... the
 *             message is partitioned into n segments, each of which is
 *             transmitted along a different spanning tree ... completes the
 *             broadcast of a message of length l in time O((l/n) log2 N)
 *             ... Since the spanning trees are disjoint, this algorithm
 *             does not incur channel contention ... node 111 may be
 *             required to receive three message segments at approximately
 *             the same time" (hence all-port).
 * Machines:   an all-port hypercube of N = 2^n nodes.
 * Reading:    Johnsson and Ho's n edge-disjoint spanning binomial trees
 *             (nESBT). With v = node XOR root, tree j (segment j,
 *             j = 0..n-1) is: the root's edge to 2^j, then the spanning
 *             binomial tree of the subcube {v : bit j of v = 1} rooted at
 *             2^j over the dimensions j+1, j+2, ..., j+n-1 (mod n) in that
 *             order, then every node of that subcube but 2^j hands the
 *             segment across dimension j to the other half.
 * Schedule:   step 1: the root sends segment j to 2^j, for every j.
 *             Step t = 2..n: in tree j dimension d = (j + t - 1) mod n is
 *             crossed: a node v with bit j set, whose u = v XOR 2^j has its
 *             bits only at rotated positions (d' - j) mod n < t - 1, sends
 *             segment j to v XOR 2^d. Step n+1: every v with bit j set,
 *             v != 2^j, sends segment j to v XOR 2^j.
 *             At every step each tree uses one dimension and the trees use
 *             different dimensions ((j + t - 1) mod n, or j), so a node
 *             sends at most one message and receives at most one per
 *             dimension: all-port, all between neighbours, no channel
 *             shared within a step (and none across the whole run: the
 *             trees are edge-disjoint).
 * Steps:      n + 1 (n = 1: 1), each moving one segment of l/n bytes: the
 *             depth of an ESBT is n + 1 (one more than the SBT's n), the
 *             price of the edge-disjointness. One more step than
 *             bcast_sbt, but each carries l/n: time (n+1)(t_s + (l/n) t_f)
 *             against n (t_s + l t_f), i.e. O((l/n) log2 N) as the paper
 *             says; it wins once l t_f (n-1)/n > t_s.
 * Start-ups:  at most n sends per node in all (the root n at step 1);
 *             node 2^n - 1 (relative) receives its n segments at once in
 *             step n + 1.
 * Cost:       (n + 1)(t_s + (l/n) t_f + t_hop).
 * Segments:   n, one a tree (segs= may only say n).
 */
#include <stdio.h>
#include "coll.h"

static int dim(const struct app_shape *sh) { return ilog2(sh->nodes); }

static int nsteps(const struct app_shape *sh)
{
    int n = dim(sh);
    return n <= 1 ? n : n + 1;
}

/* The highest rotated position (d - j) mod n of the bits of u (0 if none). */
static int maxpos(int u, int j, int n)
{
    int m = 0;
    for (int d = 0; d < n; d++)
        if (u >> d & 1) {
            int pos = (d - j + n) % n;
            if (pos > m)
                m = pos;
        }
    return m;
}

static void send1(struct coll_emit *e, int to, int seg)
{
    coll_emit_msg(e, to);
    coll_emit_blk(e, seg);
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int n = dim(sh), v = node ^ sh->cx->root;
    for (int j = 0; j < n; j++) {
        if (step == 1) {
            if (v == 0)
                send1(e, node ^ 1 << j, j);
        } else if (!(v >> j & 1)) {
            continue;                                  /* not yet holding segment j */
        } else if (step <= n) {
            if (maxpos(v ^ 1 << j, j, n) < step - 1)
                send1(e, node ^ 1 << ((j + step - 1) % n), j);
        } else if (v != 1 << j) {
            send1(e, node ^ 1 << j, j);                /* step n + 1 */
        }
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int n = dim(sh), v = node ^ sh->cx->root, k = 0;
    if (v == 0)
        return 0;
    for (int j = 0; j < n; j++) {
        if (step == 1) {
            if (v == 1 << j)
                from[k++] = sh->cx->root;
        } else if (step <= n) {
            if ((v >> j & 1) && v != 1 << j && maxpos(v ^ 1 << j, j, n) == step - 1)
                from[k++] = node ^ 1 << ((j + step - 1) % n);
        } else if (!(v >> j & 1)) {
            from[k++] = node ^ 1 << j;
        }
    }
    return k;
}

static long one(const struct app_shape *sh)
{
    (void)sh;
    return 1;
}

static int trees(const struct app_shape *sh)
{
    int n = dim(sh);
    return n < 1 ? 1 : n;
}

/* One segment a tree; a segs= given is kept for check() to refuse if it is not that. */
static int segments(const struct app_shape *sh)
{
    return sh->cx && sh->cx->segs != 0 ? sh->cx->segs : trees(sh);
}

static long hold(const struct app_shape *sh) { return trees(sh); }

/* segs= is the cube's n (one segment a tree) or absent: another count would be ignored. */
static int check(const struct app_shape *sh, char *err, size_t errlen)
{
    if (sh->cx && sh->cx->segs != trees(sh)) {
        snprintf(err, errlen, "it sends one segment down each of its %d trees: segs=%d is not accepted on %d "
                 "nodes (give segs=%d or leave it out)", trees(sh), sh->cx->segs, sh->nodes, trees(sh));
        return -1;
    }
    return 0;
}

const struct coll_algo coll_bcast_edst = {
    COLL_FACTS(bcast, edst),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = hold,
    .segments = segments,
    .check = check,
};
