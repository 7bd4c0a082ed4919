/* alltoall_pex: complete exchange by Pairwise Exchange (PEX).
 *
 * Source: Thakur, Choudhary and Fox, complete exchange on a wormhole-routed
 * mesh, section 3.1, Figure 1 (seeds/003): "do i = 1, p-1: destination =
 * xor(mynumber, i); exchange with destination".
 * Steps: p - 1, p a power of two; one send and one receive start-up each.
 * Cost (section 3.1): T = (p-1) alpha + L sum_{i=1}^{p-1} max(beta_ex,
 * f(i) beta_sat), with f(i) = 2^ceil(lg max(i mod c, i / c)) the largest
 * number of messages sharing a link at step i on an r x c mesh.
 *
 * Every node sends block d (len bytes, pattern_fill(me, d)) to every
 * d != me and checks every byte of every block it receives.
 */
#include <stdio.h>
#include <stdlib.h>
#include "apps.h"
#include "../netdev/net.h"

int app_alltoall_pex(void)
{
    int me = net_rank(), p = net_nodes();
    long len = net_arg_int("len", 1024);
    if (p & (p - 1)) {
        printf("alltoall_pex: PEX needs a power-of-two node count, not %d\n", p);
        return 2;
    }
    if (len < 1 || (size_t)len > net_msg_max()) {
        printf("alltoall_pex: len=%ld must be 1..%lu\n", len, (unsigned long)net_msg_max());
        return 2;
    }
    size_t L = (size_t)len;
    unsigned char *sbuf = malloc(L * (size_t)p), *rbuf = malloc(L * (size_t)p);
    if (!sbuf || !rbuf) {
        printf("alltoall_pex: %d x %ld bytes do not fit node memory\n", 2 * p, len);
        return 2;
    }
    for (int d = 0; d < p; d++)
        pattern_fill(sbuf + (size_t)d * L, (unsigned)me, (unsigned)d, L);

    uint64_t t0 = net_time_ns();
    for (int i = 1; i < p; i++) {
        int partner = me ^ i;
        net_step(i);
        net_sendrecv(partner, i, sbuf + (size_t)partner * L, L,
                     partner, i, rbuf + (size_t)partner * L, L, NULL);
    }
    uint64_t t = net_time_ns() - t0;

    long bad = 0;
    for (int s = 0; s < p; s++)
        if (s != me)
            bad += (long)pattern_check(rbuf + (size_t)s * L, (unsigned)s, (unsigned)me, L);
    if (me == 0)
        printf("alltoall_pex: %d nodes, %ld bytes per block, %d steps, %llu ns on node 0\n",
               p, len, p - 1, (unsigned long long)t);
    if (bad)
        printf("alltoall_pex: node %d found %ld wrong bytes\n", me, bad);
    return bad ? 1 : 0;
}
