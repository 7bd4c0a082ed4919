/* bcast_tseng2d: broadcast on an all-port n x n torus by distribution to
 * the rows, alignment to the diagonal, and diagonal-to-diagonal
 * distribution.
 *
 * Source:     Tseng et al., "Algebraic foundations and broadcasting
 *             algorithms for wormhole-routed all-port tori" (seed 001),
 *             section 3 (the 2-D scheme of their reference [11]).
 * Machines:   an all-port 2D n x n torus, any n >= 2, dimension-ordered
 *             routing (X first, as in the paper and our network).
 * Schedule:   coordinates relative to the root (p(x,y), x = dimension 0).
 *             Stage 1.1 (distribution): cut the rows into 5 strips around
 *             the source; p(0,0) sends to p(0,-2t), p(-t,-t), p(t,t),
 *             p(0,2t), the sources of the strips (t ~ n/5); recurse in each
 *             strip until it has one row: ceil(log5 n) steps, then every
 *             row has one holder. Stage 1.2 (alignment): the holder of row
 *             y sends along X to p(y,y): the main diagonal holds M (1
 *             step). Stage 2: the diagonals L_d = {x - y = d}; cut them into
 *             5 strips of diagonals; each p(i,i) sends to p(i-2t,i) (X),
 *             p(i,i+t) (Y), p(i,i-t), p(i+2t,i): diagonals -2t, -t, t, 2t;
 *             recurse until every strip has one diagonal (ceil(log5 n)
 *             steps). Any n (the paper writes n = 5t): a strip of m is cut
 *             into parts of floor(m/5) or one more around its source; at
 *             the top the two sides are laid out so that no message is
 *             sent n/2 the - way (our router's tie goes +).
 *             apps/coll/tseng_util.c has the general construction and the
 *             reading of the garbled text.
 *             COPY: a row holder that aligned away keeps M, and the later
 *             message that would bring M to it again is not sent.
 * Steps:      2 ceil(log5 n) + 1 (paper), at most 2 more than the lower
 *             bound ceil(log5 n^2); for n = 2, 3 the alignment has nothing
 *             to move (the strip sources p(+-1,+-1) are on the diagonal)
 *             and is left out: 2 steps.
 * Start-ups:  at most 4 sends per step per node (one per outgoing port);
 *             the root sends 4 ceil(log5 n) messages.
 * Cost:       (2 ceil(log5 n) + 1)(t_s + l t_f) plus the hop latency:
 *             every step is contention-free (each message owns its links).
 */
#include "tseng.h"

const struct coll_algo coll_bcast_tseng2d = {
    COLL_FACTS(bcast, tseng2d),
    .nsteps = tseng_sec3_nsteps,
    .sends = tseng_sec3_sends,
    .senders = tseng_sec3_senders,
    .max_msg_blocks = tseng_one,
    .max_hold = tseng_one,
    .check = tseng_sec3_check,
};
