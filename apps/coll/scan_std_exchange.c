/* scan_std_exchange: scan (parallel prefix) by the standard exchange with
 * Kumar's extra result buffer.
 *
 * Source:     McKinley, Tsai and Robinson (1994), section 7, Reduction and
 *             Scan: "the same approach can also be used to implement scan
 *             operations by adding an additional 'result' buffer at each
 *             node [Kumar et al.]. The result buffer at each node is
 *             initialized with the data at that node. The message passing
 *             procedure is the same as for N/N reduction, except ... the
 *             result buffer is updated only if the message in that step
 *             arrived from a processor with a lower label".
 * Machines:   a hypercube, or any power-of-two p.
 * Schedule:   labels: 0 = the result buffer, 1 = the running partial (both
 *             start as the node's data). Step k = 1..n: node i sends its
 *             partial (label 1, COLL_SCAN_RULE) to node i XOR 2^(k-1); the
 *             receiver combines it into its partial, and into its result
 *             when the sender's rank is lower. After step k the partial
 *             covers the 2^k nodes equal to i on bits k..n-1 and the result
 *             those of them at or below i.
 * Steps:      n = lg p.
 * Start-ups:  lg p sends per node, each of l bytes.
 * Cost:       lg p (t_s + l t_f) plus up to 2 lg p combines.
 */
#include "reduce.h"

static int nsteps(const struct app_shape *sh) { return ilog2(sh->nodes); }

static void sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    (void)sh;
    coll_emit_msg(e, node ^ (1 << (step - 1)));
    coll_emit_blk(e, 1);
}

static int senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)sh;
    from[0] = node ^ (1 << (step - 1));
    return 1;
}

static long one(const struct app_shape *sh) { (void)sh; return 1; }
static long two(const struct app_shape *sh) { (void)sh; return 2; }

const struct coll_algo coll_scan_std_exchange = {
    COLL_FACTS(scan, std_exchange),
    .nsteps = nsteps,
    .sends = sends,
    .senders = senders,
    .max_msg_blocks = one,
    .max_hold = two,
};
