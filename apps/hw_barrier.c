/* barrier_hw: barrier synchronization on a barrier circuit beside the
 * data network, as the Cray T3D's.
 *
 * Source:   McKinley, Tsai and Robinson (seed 002), section 8, "Support
 *           Outside the Data Network": "each processor has access to two
 *           8-bit registers. Each bit is connected to a separate tree-wired
 *           barrier synchronization circuit. A processor invokes a barrier
 *           by setting the corresponding bit; when all processors involved
 *           have set their bits, the circuit will reset all the bits to 0.
 *           A processor may either busy-wait or be informed by an interrupt."
 * Calls:    net_barrier_set(c), then net_barrier_wait(c) (sleeps until the
 *           interrupt); no message of the data network.
 * Steps:    none: one set and one wait per node.
 * Cost:     the last node's entry + 2 ceil(lg p) barrier_stage_ns (up the
 *           AND tree and back; host/net/hwnet.h), against 2 ceil(lg p)
 *           message steps of barrier_tree and ceil(lg p) of
 *           barrier_dissemination, each a send and a receive start-up.
 * Check:    as barrier_*: node late= enters delay= ns after the others, and
 *           no node may leave before it entered (it sends its entry time
 *           to every node after the barrier). ARGS circuit= picks one of
 *           the 16 circuits; sync=1 first meets on circuit 15. skip=k
 *           (for the tests): node k exits at once, and the others wait on
 *           a circuit that never fires, a deadlock the run tool names.
 */
#include <stdio.h>
#include "apps.h"
#include "../netdev/net.h"

#define SYNC_CIRCUIT (NIC_BARRIERS - 1)
_Static_assert(NIC_BARRIERS == 16, "apps.def's circuit= takes 0..15");
#define LATE_TAG 1

int app_barrier_hw(void)
{
    int me = net_rank(), p = net_nodes(), c = (int)net_arg_num("circuit");
    long late = net_arg_num("late"), delay = net_arg_num("delay"), runs = net_arg_num("runs"), bad = 0;
    uint64_t t = 0;
    if (net_arg_num("skip") == me)
        return 0;
    for (long run = 0; run < runs; run++) {
        if (net_arg_num("sync")) {
            net_barrier_set(SYNC_CIRCUIT);
            net_barrier_wait(SYNC_CIRCUIT);
        }
        if (me == late)
            for (uint64_t t0 = net_time_ns(); net_time_ns() - t0 < (uint64_t)delay;)
                ;
        uint64_t t_in = net_time_ns();
        net_barrier_set(c);
        net_barrier_wait(c);
        t = net_time_ns() - t_in;
        uint64_t late_in = t_in;
        for (int v = 0; me == late && v < p; v++)
            if (v != me)
                net_send(v, LATE_TAG, &late_in, sizeof late_in);
        if (me != late)
            net_recv((int)late, LATE_TAG, &late_in, sizeof late_in, NULL);
        if (t_in + t < late_in) {
            printf("barrier_hw: node %d left the barrier at %llu ns, before node %ld entered at %llu ns\n", me,
                   (unsigned long long)(t_in + t), late, (unsigned long long)late_in);
            bad++;
        }
    }
    net_record(NIC_REC_COLL_NS, t);
    if (bad)
        net_record(NIC_REC_WRONG, (uint64_t)bad);
    if (me == 0)
        printf("barrier_hw: %d nodes, circuit %d, %llu ns on node 0\n", p, c, (unsigned long long)t);
    printf("barrier_hw: node %d done in %llu ns\n", me, (unsigned long long)t);
    return bad ? 1 : 0;
}
