/* fetchinc: self-scheduling on a fetch-and-increment register, as the
 * Cray T3D's, against a server process doing the same in software.
 *
 * Source:   McKinley, Tsai and Robinson (seed 002), section 8: "each node
 *           contains two fetch-and-increment registers, which are globally
 *           accessible to all other processors ... these registers provide
 *           an efficient mechanism for a process to seize a particular
 *           piece of the computation without using a server process."
 * Schedule: items= work items 0..items-1. mode=hw: every node takes the
 *           next item with net_fetch_inc(owner, 0), works work= ns on it,
 *           and stops when the register reads items or more. mode=server:
 *           node owner= runs the server process: it answers each request
 *           (an empty message) with the next item number, or items when
 *           none is left, and works on nothing itself.
 * Cost:     hw: per item a request and an 8-byte reply worm between NICs
 *           (no start-up, no CPU at the owner) plus fi_ns; server: a
 *           request and a reply message, each with its send and receive
 *           start-ups, queued at the one server.
 * Check:    after the timed part every node sends the items it took to
 *           node 0, which checks that each item was taken exactly once.
 *           The time is each node's, from the start to its last take.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apps.h"
#include "../netdev/net.h"

#define SYNC_CIRCUIT (NIC_BARRIERS - 1)
enum { REQ_TAG = 1, REP_TAG, COUNT_TAG, LIST_TAG };

static void spin_ns(uint64_t ns)
{
    for (uint64_t t0 = net_time_ns(); net_time_ns() - t0 < ns;)
        ;
}

/* The next item: from the register, or from the server. */
static unsigned next_item(int hw, int owner)
{
    if (hw)
        return (unsigned)net_fetch_inc(owner, 0);
    uint32_t v;
    net_send(owner, REQ_TAG, NULL, 0);
    net_recv(owner, REP_TAG, &v, sizeof v, NULL);
    return v;
}

static void serve(int p, unsigned items)
{
    uint32_t next = 0;
    for (int done = 0; done < p - 1;) {
        struct net_status st;
        net_recv(NET_ANY, REQ_TAG, NULL, 0, &st);
        uint32_t v = next < items ? next++ : items;
        net_send(st.src, REP_TAG, &v, sizeof v);
        done += v == items;
    }
}

int app_fetchinc(void)
{
    int me = net_rank(), p = net_nodes(), owner = (int)net_arg_num("owner"), hw = net_arg_num("mode") == 0;
    unsigned items = (unsigned)net_arg_num("items");
    uint64_t work = (uint64_t)net_arg_num("work");
    uint32_t *mine = malloc(items * sizeof *mine);
    unsigned n = 0;
    unsigned char *seen = me == 0 ? calloc(items, 1) : NULL;
    if (!mine || (me == 0 && !seen)) {
        printf("fetchinc: lists of %u items do not fit node memory\n", items);
        return 2;
    }
    net_barrier_set(SYNC_CIRCUIT);
    net_barrier_wait(SYNC_CIRCUIT);
    uint64_t t0 = net_time_ns();
    if (!hw && me == owner) {
        serve(p, items);
    } else {
        for (unsigned i; (i = next_item(hw, owner)) < items;) {
            if (n == items) {
                printf("fetchinc: node %d took more than the %u items\n", me, items);
                return 1;
            }
            mine[n++] = i;
            spin_ns(work);
        }
    }
    uint64_t t = net_time_ns() - t0;

    long bad = 0;
    if (me != 0) {
        net_send(0, COUNT_TAG, &n, sizeof n);
        net_send(0, LIST_TAG, mine, n * sizeof *mine);
    } else {
        for (int v = 0; v < p; v++) {
            uint32_t *list = mine;
            unsigned cnt = n;
            if (v != 0) {
                net_recv(v, COUNT_TAG, &cnt, sizeof cnt, NULL);
                list = malloc((cnt ? cnt : 1) * sizeof *list);
                if (!list || cnt > items) {
                    printf("fetchinc: node %d reports %u items\n", v, cnt);
                    return 1;
                }
                net_recv(v, LIST_TAG, list, cnt * sizeof *list, NULL);
            }
            for (unsigned k = 0; k < cnt; k++)
                if (list[k] >= items || seen[list[k]]++)
                    bad++;
            if (v != 0)
                free(list);
        }
        for (unsigned i = 0; i < items; i++)
            bad += seen[i] != 1;
        if (bad)
            printf("fetchinc: %ld items were taken twice, never, or out of range\n", bad);
        else
            printf("fetchinc: %d nodes, %u items (%s), each taken once, %llu ns on node 0\n", p, items,
                   hw ? "hw" : "server", (unsigned long long)t);
    }
    net_record(NIC_REC_COLL_NS, t);
    net_record(NIC_REC_ITEMS, n);
    if (bad)
        net_record(NIC_REC_WRONG, (uint64_t)bad);
    printf("fetchinc: node %d done in %llu ns, %u items\n", me, (unsigned long long)t, n);
    free(mine);
    free(seen);
    return bad ? 1 : 0;
}
