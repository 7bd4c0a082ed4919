/* bcast_tsengkd: broadcast on an all-port k-D torus n x ... x n by k
 * spanning stages (point, line, plane, cube, ... torus), each a
 * (2k+1)-way recursive distribution and an alignment.
 *
 * Source:     Tseng et al., "Algebraic foundations and broadcasting
 *             algorithms for wormhole-routed all-port tori" (seed 001),
 *             section 5 (Definitions 3-7, Lemmas 3-6, Theorem 2).
 * Machines:   an all-port k-D torus n x ... x n, n >= 2, 1 <= k <= 8 (2k
 *             messages a step), dimension-ordered routing (dimension 0
 *             first: the paper's dimension 1).
 * Schedule:   U_i = SPAN(0; e_{1,k}, ..., e_{1,k-i+1}) holds M after stage i
 *             (U_k = the torus). Stage i: super-nodes W_d = {f_i = d} with
 *             f_1 = x_k, f_i = x_1 - x_(k-i+2) - ... - x_k; the path of
 *             super-nodes is cut recursively into 2k+1 parts, every holder
 *             sending along the rows of R^i (stage 1: e_{j,k}, e_k; stage
 *             i > 1: e_1, e_{j,-k} for 2 <= j <= k-i+1, -e_j above), row j
 *             carrying distance ~ +-j t (ceil(log_(2k+1) n) steps); then
 *             the translate in each W_d moves onto d e_{1,k-i+1} + U_(i-1)
 *             along dimensions 2..k-i+1 (stage 1: 1..k-1), one step, none
 *             in stage k. k = 3 is bcast_tseng3d; k = 2 differs from
 *             bcast_tseng2d only in stage 2's distances (Definition 7: x
 *             carries t, y 2t; section 3 swaps them). The reading of the
 *             garbled text and the contention argument:
 *             apps/coll/tseng_util.c. COPY: a holder that aligned away keeps
 *             M and is not sent it again.
 * Steps:      k ceil(log_(2k+1) n) + k - 1 (Theorem 2), at most 2(k-1)
 *             more than the lower bound ceil(log_(2k+1) n^k); one less for
 *             n = 2, 3 and k >= 2 (stage 1's alignment is empty).
 * Start-ups:  at most 2k sends per step per node (one per outgoing port).
 * Cost:       steps (t_s + l t_f) plus the hop latency; every step
 *             contention-free.
 */
#include "tseng.h"

const struct coll_algo coll_bcast_tsengkd = {
    COLL_FACTS(bcast, tsengkd),
    .nsteps = tseng_def6_nsteps,
    .sends = tseng_def6_sends,
    .senders = tseng_def6_senders,
    .max_msg_blocks = tseng_one,
    .max_hold = tseng_one,
    .check = tseng_def6_check,
};
