#ifndef APP_MEM_H
#define APP_MEM_H
/* What an app's ARGS ask of the host: node memory for the run tool's
 * memory check, and work for its default time limits (host/run/checks.c). Host
 * only: the node's own check (apps/app_check.c) is part of a collective's
 * timed work, so its code stays as it is. */
#include "../../apps/restrict.h"

/* heap: the node memory a collective app's buffers, slots and schedule
 * take (apps/coll/registry.c, coll_mem_need): what its QEMU holds beyond
 * a node that runs hello; 0 for another app.
 * msgs: the messages a run sends, at most: a collective's nodes x steps
 * x runs, each step counted as one message a node, doubled by sync=1;
 * pingpong's two an iteration; fetchinc's request and reply an item; the
 * control network's operations, every node's, a run: one per 8 bytes of
 * bcast_hw, one per 4 of allreduce_hw and scan_hw, one of barrier_hw;
 * allgather_flood_nic's nodes x nodes a run.
 * spin_ns: the node time it spins, simulated ns (fetchinc's items x
 * work); spin_gap_ns: the longest of it between two of a node's NIC uses
 * (work).
 * All zero for ARGS that app_check_args refuses. */
struct app_need {
    unsigned long heap;
    double msgs;
    double spin_ns;
    double spin_gap_ns;
};
struct app_need app_need(const char *app, int restr, const struct app_shape *sh, const char *args,
                         unsigned long msg_max);

#endif
