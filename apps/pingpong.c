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
    uint64_t rtt = 0;                  /* send-to-receive time only, not the checks */
    for (long i = 0; i < iters; i++) {
        /* The pattern of round i is (a, b + i): each round's data differs. */
        uint64_t t1 = 0;
        if (me == a) {
            pattern_fill(buf, (unsigned)a, (unsigned)(b + i), (size_t)len);
            t1 = net_time_ns();
            net_send(b, (int)i, buf, (size_t)len);
            net_recv(b, (int)i, buf, (size_t)len, NULL);
            rtt += net_time_ns() - t1;
        } else {
            net_recv(a, (int)i, buf, (size_t)len, NULL);
            net_send(a, (int)i, buf, (size_t)len);
        }
        bad += (int)pattern_check(buf, (unsigned)a, (unsigned)(b + i), (size_t)len);
    }
    if (me == a)
        printf("pingpong %d <-> %d: %ld x %ld bytes, round trip %llu ns\n", a, peer, iters, len,
               (unsigned long long)(rtt / (uint64_t)(iters ? iters : 1)));
    if (bad)
        printf("pingpong: node %d found %d wrong bytes\n", me, bad);
    return bad ? 1 : 0;
}
