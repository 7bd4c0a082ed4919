/* mdw: one or two multidestination worms (seed 002 section 8; net_msend,
 * host/net/net_mc.c), each verified byte for byte where it is delivered: the
 * app behind the tests of intermediate reception, replication and their
 * deadlocks.
 *
 * ARGS: kind=path|hpath|tree, len= bytes; node src= sends one worm of
 * that kind to the ranks dst= in that order (absent: every other node in
 * rank order); if src2= is given, node src2
 * sends another to dst2= at the same time. Every listed node receives
 * each worm that lists it and checks it (pattern of its source). The
 * nodes start together, released by a barrier circuit. Two path worms
 * that cross each other's destinations on a one-port machine (src=0
 * dst=1,6 src2=7 dst2=6,1 on an 8-node line) are the survey's Figure 31:
 * the run ends as a network deadlock, named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apps.h"
#include "../netdev/net.h"

/* The ranks of a list word "1,3,5" (the run tool checked it). */
static int ranks(const char *w, int *out, int max)
{
    int n = 0;
    while (w && *w && n < max) {
        out[n++] = (int)strtol(w, (char **)&w, 10);
        if (*w == ',')
            w++;
    }
    return n;
}

/* A worm's list, and whether this node is on it. */
struct worm {
    int src, n, listed, tag;
    int dst[4096];
    unsigned char *buf;
};

static int worm_of(struct worm *w, int src, const char *list, int tag, size_t len)
{
    w->src = src;
    w->tag = tag;
    if (list && !strcmp(list, "all"))
        list = NULL;                             /* the same: every other node */
    w->n = ranks(list, w->dst, 4096);
    for (int v = 0; !list && v < net_nodes() && w->n < 4096; v++)
        if (v != src)
            w->dst[w->n++] = v;                  /* absent: every other node, in rank order */
    w->listed = 0;
    for (int i = 0; i < w->n; i++)
        w->listed |= w->dst[i] == net_rank();
    w->buf = malloc(len ? len : 1);
    return w->buf ? 0 : -1;
}

static void send_worm(struct worm *w, int kind, size_t len)
{
    if (net_rank() != w->src)
        return;
    pattern_fill(w->buf, (unsigned)w->src, (unsigned)net_nodes(), len);
    net_msend((enum nic_mdw)kind, w->dst, w->n, w->tag, w->buf, len);
}

static long recv_worm(struct worm *w, size_t len)
{
    if (!w->listed)
        return 0;
    memset(w->buf, 0xa5, len);
    net_recv(w->src, w->tag, w->buf, len, NULL);
    return (long)pattern_check(w->buf, (unsigned)w->src, (unsigned)net_nodes(), len);
}

int app_mdw(void)
{
    static struct worm w[2];
    int kind = NIC_MDW_PATH + (int)net_arg_num("kind");       /* path, hpath, tree (apps.def) */
    int two = net_arg_num("src2") >= 0;
    size_t len = (size_t)net_arg_num("len");
    if (worm_of(&w[0], (int)net_arg_num("src"), net_arg("dst"), 1, len) ||
        (two && worm_of(&w[1], (int)net_arg_num("src2"), net_arg("dst2"), 2, len))) {
        printf("mdw: %lu bytes do not fit node memory\n", (unsigned long)len);
        return 2;
    }
    net_barrier_set(NIC_BARRIERS - 1);      /* start together: the barrier circuit */
    net_barrier_wait(NIC_BARRIERS - 1);
    uint64_t t0 = net_time_ns();
    send_worm(&w[0], kind, len);            /* both sources alike: fill, send */
    if (two)
        send_worm(&w[1], kind, len);
    long bad = recv_worm(&w[0], len) + (two ? recv_worm(&w[1], len) : 0);
    uint64_t t = net_time_ns() - t0;
    net_record(NIC_REC_COLL_NS, t);
    if (bad)
        net_record(NIC_REC_WRONG, (uint64_t)bad);
    printf("mdw: node %d done in %llu ns\n", net_rank(), (unsigned long long)t);
    if (bad)
        printf("mdw: node %d found %ld wrong bytes\n", net_rank(), bad);
    return bad ? 1 : 0;
}
