/* allgather_rowcol: all-to-all broadcast by Saad and Schultz's horizontal
 * then vertical rings on a 2D torus.
 *
 * Source:     the all-port all-to-all broadcast slides (seeds/004),
 *             "Previous related work" and "Comparisons": "Each node sends
 *             the message along horizontal ring, and then vertical ring";
 *             time 2 alpha + 2 floor(n/2) delta + ((n^2-1)/2) L gamma on
 *             an n x n torus (Saad and Schultz [12]).
 * Machines:   a 2D torus (c = dims[0] columns, r = dims[1] rows). The
 *             slides assume all-port nodes and full-duplex links; on a
 *             one-port machine a step's two sends leave one after the
 *             other.
 * Schedule:   the transmission term (n^2-1)/2 L gamma and the floor(n/2)
 *             hops per ring mean each message goes both ways round:
 *             row phase, steps t = 1..floor(c/2): a node sends to its
 *             right neighbour the block of the node t-1 to its left and
 *             to its left neighbour the block of the node t-1 to its right
 *             (for even c the last step goes rightwards only, so the node
 *             opposite is not received twice); column phase, steps
 *             1..floor(r/2): the same with whole rows (c blocks) up and
 *             down the column.
 * Steps:      floor(c/2) + floor(r/2) (2 floor(n/2) on n x n).
 * Start-ups:  2 per step (one per direction), 1 in the even last steps.
 * Cost:       every directed link carries (c-1)/2 + c (r-1)/2 blocks for
 *             odd c, r: (n^2-1)/2 on n x n, twice the flooding algorithm's
 *             (n^2-1)/4. Neighbour messages only: contention-free.
 */
#include "coll.h"

static int nsteps(const struct app_shape *sh) { return sh->dims[0] / 2 + sh->dims[1] / 2; }

/* Row phase (dim 0) or column phase (dim 1), and the ring step t. */
static int phase_of(const struct app_shape *sh, int step, int *t)
{
    if (step <= sh->dims[0] / 2) {
        *t = step;
        return 0;
    }
    *t = step - sh->dims[0] / 2;
    return 1;
}

static int at(const struct app_shape *sh, int x, int y)
{
    int c = sh->dims[0], r = sh->dims[1];
    return (x % c + c) % c + c * ((y % r + r) % r);
}

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int t, dim = phase_of(sh, step, &t), c = sh->dims[0];
    int x = node % c, y = node / c, w = sh->dims[dim];
    int both = !(w % 2 == 0 && t == w / 2);
    for (int dir = 1; dir >= -1; dir -= 2) {
        if (dir < 0 && !both)
            break;
        if (dim == 0) {
            coll_emit_msg(e, at(sh, x + dir, y));
            coll_emit_blk(e, at(sh, x - dir * (t - 1), y));
        } else {
            coll_emit_msg(e, at(sh, x, y + dir));
            for (int k = 0; k < c; k++)
                coll_emit_blk(e, at(sh, k, y - dir * (t - 1)));
        }
    }
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    int t, dim = phase_of(sh, step, &t), c = sh->dims[0];
    int x = node % c, y = node / c, w = sh->dims[dim];
    from[0] = dim == 0 ? at(sh, x - 1, y) : at(sh, x, y - 1);
    from[1] = dim == 0 ? at(sh, x + 1, y) : at(sh, x, y + 1);
    return w % 2 == 0 && t == w / 2 ? 1 : 2;
}

static long msg(const struct app_shape *sh) { return sh->dims[1] > 1 ? sh->dims[0] : 1; }
static long all(const struct app_shape *sh) { return sh->nodes; }

const struct coll_algo coll_allgather_rowcol = {
    COLL_FACTS(allgather, rowcol),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = msg,
    .max_hold = all,
};
