#ifndef APP_MEM_H
#define APP_MEM_H
/* What an app's buffers take of node memory, for the run tool's memory
 * check (wormsim.c). Host only: the node's own check (apps/app_check.c)
 * is part of a collective's timed work, so its code stays as it is. */
#include "../../apps/restrict.h"

/* The node memory a collective app's buffers, slots and schedule take
 * with these ARGS (apps/coll/registry.c, coll_mem_need): what its QEMU
 * holds beyond a node that runs hello. 0 for another app, or for ARGS
 * that app_check_args refuses. */
unsigned long app_heap_need(const char *app, int restr, const struct app_shape *sh, const char *args,
                            unsigned long msg_max);

/* What a run of an app with these ARGS asks of the host beyond its
 * buffers, for the run tool's default time limits: the messages it sends
 * (at most: a collective's nodes x steps x runs, each step counted as one
 * message a node; pingpong's two an iteration; fetchinc's request and
 * reply an item; the control network's operations, every node's a run:
 * one per 8 bytes of bcast_hw, one per 4 of allreduce_hw and scan_hw, one
 * of barrier_hw; allgather_flood_nic's nodes x nodes a run) and the node time it spins, in simulated ns (fetchinc's
 * items x work; the longest of it between two of a node's NIC uses,
 * work). Zero for an app whose ARGS ask no such work, or for ARGS
 * that app_check_args refuses. */
struct app_work {
    double msgs;
    double spin_ns;
    double spin_gap_ns;
};
struct app_work app_work_need(const char *app, int restr, const struct app_shape *sh, const char *args,
                              unsigned long msg_max);

#endif
