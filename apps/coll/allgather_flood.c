/* allgather_flood: all-to-all broadcast by controlled flooding with the
 * broadcast pattern, on all-port 2D meshes and tori.
 *
 * Source:     the slides "All-to-all communication" (seeds/004): the
 *             broadcast pattern (Cases 1-3, the functions U, I and mod2),
 *             Theorem 2 (every node of an infinite mesh is reached exactly
 *             once), the trimming at a mesh's boundary, the additional
 *             check for a torus, the all-to-all broadcast algorithm
 *             (input/output buffers), Theorem 3 and Corollaries 1-2.
 * Machines:   all-port; an n x n mesh, or an n x n torus with n odd. For an
 *             even torus the check does not make delivery exactly-once: the
 *             node n/2 away along an axis is as far from the origin as its
 *             neighbours on both sides, so it is reached twice
 *             (tests/unit/test_sched.c shows it); the slides' Corollary 1
 *             count (n^2-1)/4 is whole only for odd n.
 * Schedule:   phase d = 1, 2, ...: a node relays each message it received
 *             in phase d-1 (its own in phase 1) to the neighbours the
 *             pattern gives for that message's origin (x0, y0), with
 *             (dx, dy) = (x - x0, y - y0):
 *               Case 1, dx = dy = 0: all four neighbours;
 *               Case 2.1, dx = 0: (x + mod2(dy + U(I(dy))),
 *                   y + I(dy) mod2(dy + 1 - U(I(dy)))) and
 *                 (x - mod2(dy + U(-I(dy))), y + I(dy) mod2(dy + 1 - U(-I(dy))));
 *               Case 2.2, dy = 0: symmetrically (formulas in pattern());
 *               Case 3: (x + I(dx) mod2(dx + dy + U(I(dx) I(dy))),
 *                 y + I(dy) mod2(dx + dy + 1 - U(I(dx) I(dy)))).
 *             On a mesh a neighbour outside the mesh is dropped; on a torus
 *             a neighbour no farther from the origin than (x, y) is dropped
 *             (offsets taken the short way round, |dx|, |dy| <= (n-1)/2).
 *             A phase-d message goes from a node at distance d-1 from its
 *             origin to one at distance d. All messages a node relays to
 *             one neighbour in a phase leave as one message (the output
 *             buffer of that channel).
 * Steps:      the largest distance: 2(n-1) on an n x n mesh, n-1 on an odd
 *             n x n torus.
 * Start-ups:  at most 4 per step (one per output channel); blocks per
 *             message: at most (n-1)/2 on the torus (Theorem 3: d per
 *             channel in phase d <= (n-1)/2, fewer beyond), n-1 on the mesh.
 * Cost:       Theorem 4 / Corollary 3 (hardware relaying): about
 *             alpha + 2 delta + ((n^2-1)/4) L gamma on the torus. Every
 *             channel carries (n^2-1)/4 blocks on the torus (Corollary 1);
 *             on the mesh the busiest carries floor(n^2/2), Corollary 2's
 *             (n^2-1)/2 for odd n and that rounded up for even n. Neighbour
 *             messages only, one per channel per step.
 */
#include <stdlib.h>
#include "coll.h"
#include "flood_pattern.h"

static int nsteps(const struct app_shape *sh)
{
    int n = sh->dims[0];
    return sh->topo == TOPO_TORUS ? 2 * (n / 2) : 2 * (n - 1);
}

/* The four neighbours of v (on a torus, wrapped; on a mesh, -1 if absent). */
static void neighbours(const struct app_shape *sh, int v, int nb[4])
{
    int n = sh->dims[0], x = v % n, y = v / n, t = sh->topo == TOPO_TORUS;
    nb[0] = t || y + 1 < n ? x + n * ((y + 1) % n) : -1;
    nb[1] = t || y > 0 ? x + n * ((y - 1 + n) % n) : -1;
    nb[2] = t || x + 1 < n ? (x + 1) % n + n * y : -1;
    nb[3] = t || x > 0 ? (x - 1 + n) % n + n * y : -1;
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int nb[4];
    neighbours(sh, node, nb);
    for (int k = 0; k < 4; k++) {
        if (nb[k] < 0)
            continue;
        coll_emit_msg(e, nb[k]);
        if (!e->cur)
            continue;
        for (int o = 0; o < sh->nodes; o++) {
            if (dist(sh, o, node) != step - 1)
                continue;
            int ch[4], c = children(sh, o, node, ch);
            for (int i = 0; i < c; i++)
                if (ch[i] == nb[k])
                    coll_emit_blk(e, o);
        }
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)step;
    int nb[4], k = 0;
    neighbours(sh, node, nb);
    for (int i = 0; i < 4; i++)
        if (nb[i] >= 0)
            from[k++] = nb[i];
    return k;
}

static long msg(const struct app_shape *sh)
{
    int n = sh->dims[0];
    return sh->topo == TOPO_TORUS ? (n - 1) / 2 : n - 1;
}
static long all(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_allgather_flood = {
    COLL_FACTS(allgather, flood),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = all,
};
