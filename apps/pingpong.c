/* pingpong: node a sends len bytes to node b, which sends them back,
 * iters times; both check every byte. Prints the simulated round-trip time.
 * Defaults: a = 0, b = the last node (the far corner of a mesh). */
#include <stdio.h>
#include <stdlib.h>
#include "apps.h"
#include "../netdev/net.h"

int app_pingpong(void)
{
    int me = net_rank(), n = net_nodes();
    int a = (int)net_arg_int("a", 0), b = (int)net_arg_int("b", n - 1);
    long len = net_arg_int("len", 256), iters = net_arg_int("iters", 4);
    if (a < 0 || a >= n || b < 0 || b >= n || a == b) {
        printf("pingpong: a=%d b=%d must be two different nodes in 0..%d\n", a, b, n - 1);
        return 2;
    }
    if (len < 1 || (size_t)len > net_msg_max()) {
        printf("pingpong: len=%ld must be 1..%lu\n", len, (unsigned long)net_msg_max());
        return 2;
    }
    if (me != a && me != b)
        return 0;
    int peer = me == a ? b : a;
    unsigned char *buf = malloc((size_t)len);
    int bad = 0;
    uint64_t t0 = net_time_ns();
    for (long i = 0; i < iters; i++) {
        if (me == a) {
            for (long k = 0; k < len; k++)
                buf[k] = pattern_byte((unsigned)a, (unsigned)b, (unsigned)(k + i));
            net_send(b, (int)i, buf, (size_t)len);
            net_recv(b, (int)i, buf, (size_t)len, NULL);
        } else {
            net_recv(a, (int)i, buf, (size_t)len, NULL);
            net_send(a, (int)i, buf, (size_t)len);
        }
        for (long k = 0; k < len; k++)
            bad += buf[k] != pattern_byte((unsigned)a, (unsigned)b, (unsigned)(k + i));
    }
    uint64_t t = net_time_ns() - t0;
    if (me == a)
        printf("pingpong %d <-> %d: %ld x %ld bytes, round trip %llu ns\n", a, peer, iters, len,
               (unsigned long long)(t / (uint64_t)(iters ? iters : 1)));
    if (bad)
        printf("pingpong: node %d found %d wrong bytes\n", me, bad);
    return bad ? 1 : 0;
}
