/* pingpong: node a sends len bytes to node b, which sends them back,
 * iters times; both check every byte. Prints the simulated round-trip time.
 * ARGS and their defaults are declared in apps/apps.def (a = 0, b = the
 * last node, the far corner of a mesh); a != b and len 1..net_msg_max()
 * hold, checked at boot (app_args_parse). */
#include <stdio.h>
#include <stdlib.h>
#include "apps.h"
#include "../netdev/net.h"

int app_pingpong(void)
{
    int me = net_rank();
    int a = (int)net_arg_num("a"), b = (int)net_arg_num("b");
    long len = net_arg_num("len"), iters = net_arg_num("iters");
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
        net_record(NIC_REC_COLL_NS, rtt / (uint64_t)iters);
    if (bad)
        net_record(NIC_REC_WRONG, (uint64_t)bad);
    if (me == a)
        printf("pingpong %d <-> %d: %ld x %ld bytes, round trip %llu ns\n", a, peer, iters, len,
               (unsigned long long)(rtt / (uint64_t)iters));
    if (bad)
        printf("pingpong: node %d found %d wrong bytes\n", me, bad);
    return bad ? 1 : 0;
}
