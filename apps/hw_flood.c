/* allgather_flood_nic: all-to-all broadcast by controlled flooding with
 * the broadcast pattern, relayed by the NICs: no processor on the path.
 *
 * Source:   the slides "All-to-all communication" (seed 004): the
 *           all-to-all broadcast algorithm with input and output buffers
 *           ("for each input and output buffer do in parallel ...
 *           multicast the message to the output buffers connected to the
 *           corresponding neighbors"), Theorem 4 and Corollary 3 (the
 *           delay when "switching time [is] overlapped with transmission
 *           time" and "messages in any direction are pipelined").
 * Machines: as allgather_flood: all-port; an n x n mesh, or an n x n torus
 *           with n odd.
 * Calls:    each node installs its rules once (net_flood_rules): for
 *           every origin o, the ports of the neighbours the pattern and
 *           the torus check give for o's message at this node (the
 *           functions of apps/coll/flood_pattern.h, the same as
 *           allgather_flood's). All nodes start together (a control-network
 *           broadcast answers every node at the same time), each posts its
 *           message once (net_flood), and its NIC sends it on, then relays
 *           every other origin's message the moment it has arrived, each
 *           one separately, to the output channel of each neighbour in the
 *           rule; net_flood_wait returns when the p - 1 others are there.
 * Steps:    none: one start-up per node.
 * Cost:     Theorem 4, with alpha = t_send_ns, delta = hop_cycles cycles
 *           (a head's switching), L gamma = F cycles (F = ceil(len /
 *           flit_bytes) + header_flits: a worm's transmission):
 *             alpha + delta + L gamma + ((n^2-1)/4 - 1) max(delta, L gamma)
 *               + min(delta, L gamma)
 *           on the torus; every channel carries (n^2-1)/4 messages
 *           (Corollary 1) and a NIC injects them back to back. The time
 *           reported is from this node's post to the last arrival.
 * Check:    every block against pattern(s, p), as allgather_*; corrupt=k
 *           flips a bit first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apps.h"
#include "coll/flood_pattern.h"
#include "../netdev/net.h"

/* The link port from v to its neighbour c (net.h: 2 dim + (dir == -1)). */
static int port_to(const struct app_shape *sh, int v, int c)
{
    int n = sh->dims[0], dx = c % n - v % n, dy = c / n - v / n;
    if (dy == 0)
        return dx == 1 || dx == 1 - n ? 0 : 1;
    return dy == 1 || dy == 1 - n ? 2 : 3;
}

int app_allgather_flood_nic(void)
{
    int me = net_rank(), p = net_nodes();
    struct app_shape sh = { *net_topology(), NULL };
    long len = net_arg_num("len"), runs = net_arg_num("runs"), bad = 0;
    uint32_t *masks = calloc((size_t)p, sizeof *masks);
    unsigned char *send = malloc((size_t)len), *recv = malloc((size_t)p * (size_t)len);
    if (!masks || !send || !recv) {
        printf("allgather_flood_nic: buffers of %d blocks of %ld bytes do not fit node memory\n", p + 1, len);
        return 2;
    }
    for (int o = 0; o < p; o++) {
        int ch[4], k = children(&sh, o, me, ch);
        for (int i = 0; i < k; i++)
            masks[o] |= 1u << port_to(&sh, me, ch[i]);
    }
    net_flood_rules(masks);
    pattern_fill(send, (unsigned)me, (unsigned)p, (size_t)len);
    uint64_t t_all = 0;
    for (long run = 0; run < runs; run++) {
        memset(recv, 0xa5, (size_t)p * (size_t)len);
        net_ctrl(NIC_CTRL_BCAST, NIC_CTRL_SUM, 0, 0);   /* every node answered at the same time */
        uint64_t t0 = net_flood((int)run, send, (size_t)len);
        t_all = net_flood_wait((int)run, p - 1, recv, (size_t)p * (size_t)len) - t0;
        if (net_arg_num("corrupt") == me)
            recv[(size_t)(p - 1) * (size_t)len + (size_t)len / 2] ^= 0x10;
        for (int s = 0; s < p; s++)
            bad += (long)pattern_check(recv + (size_t)s * (size_t)len, (unsigned)s, (unsigned)p, (size_t)len);
    }
    net_record(NIC_REC_COLL_NS, t_all);
    if (bad)
        net_record(NIC_REC_WRONG, (uint64_t)bad);
    if (me == 0)
        printf("allgather_flood_nic: %d nodes, %ld bytes per block, %llu ns on node 0\n", p, len,
               (unsigned long long)t_all);
    printf("allgather_flood_nic: node %d done in %llu ns\n", me, (unsigned long long)t_all);
    if (bad)
        printf("allgather_flood_nic: node %d found %ld wrong bytes\n", me, bad);
    free(masks);
    free(send);
    free(recv);
    return bad ? 1 : 0;
}
