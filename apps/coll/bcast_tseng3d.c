/* bcast_tseng3d: broadcast on an all-port n x n x n torus: the source to a
 * line, the line to a plane, the plane to the cube, by 7-way recursive
 * distribution.
 *
 * Source:     Tseng et al., "Algebraic foundations and broadcasting
 *             algorithms for wormhole-routed all-port tori" (seed 001),
 *             section 4 (with Definitions 6 and 7 of section 5 for the
 *             routing and distance matrices the text lost).
 * Machines:   an all-port 3D n x n x n torus, any n >= 2, dimension-ordered
 *             routing (X, Y, Z: the paper's order and our network's).
 * Schedule:   coordinates relative to the root, p(x,y,z), e_{1,3} = (1,0,1).
 *             Stage 1 (4.1): the XY-planes z = d form a path; cut it into 7
 *             slabs (cubes C_-3..C_3) around the source; p(0,0,0) sends to
 *             a(1,0,1), a(0,1,1), a(0,0,1) for a = +-t, +-2t, +-3t (rows
 *             e_{1,3}, e_{2,3}, e_3 with distances ~ j t), one per slab, and
 *             every slab recurses (ceil(log7 n) steps); then each holder
 *             p(x,y,z) sends within its plane to p(z,0,z) (1 step): the line
 *             U_1 = {(a,0,a)} holds M.
 *             Stage 2 (4.2): the planes x - z = d; every node of the line
 *             sends to six parallel lines by rows e_1, e_2 - e_3, -e_3
 *             (distances +-t, +-2t, +-3t), recursively (ceil(log7 n)
 *             steps); each line then moves along Y onto the plane
 *             U_2 = {x = y + z} = SPAN(e_{1,3}, e_{1,2}) (1 step).
 *             Stage 3 (4.3): the planes x - y - z = d; every node of U_2
 *             sends by rows e_1, -e_2, -e_3 (distances +-t, +-2t, +-3t),
 *             recursively (ceil(log7 n) steps): every node holds M.
 *             Any n (the paper writes n = 7t): slabs of floor(m/7) or one
 *             more around the source, the top laid out so that no message
 *             is sent n/2 the - way; apps/coll/tseng_util.c has the general
 *             construction and why each step is contention-free. COPY: a
 *             holder that aligned away keeps M and is not sent it again.
 * Steps:      3 ceil(log7 n) + 2 (Theorem 1), at most 4 more than the lower
 *             bound ceil(log7 n^3); for n = 2, 3 stage 1's alignment has
 *             nothing to move (the slab sources a(1,0,1) are on the line)
 *             and is left out: 3 ceil(log7 n) + 1.
 * Start-ups:  at most 6 sends per step per node (one per outgoing port).
 * Cost:       (3 ceil(log7 n) + 2)(t_s + l t_f) plus the hop latency;
 *             every step contention-free.
 */
#include "tseng.h"

const struct coll_algo coll_bcast_tseng3d = {
    COLL_FACTS(bcast, tseng3d),
    .nsteps = tseng_def6_nsteps,
    .sends = tseng_def6_sends,
    .senders = tseng_def6_senders,
    .max_msg_blocks = tseng_one,
    .max_hold = tseng_one,
    .check = tseng_def6_check,
};
