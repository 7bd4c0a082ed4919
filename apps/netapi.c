/* netapi: the node calls no collective uses (netdev/net.h): net_probe,
 * net_sendrecv and net_wait_sent, between nodes 0 and 1.
 *
 *   node 0: sends 100 bytes with tag 7, waits until they have left it
 *           (net_wait_sent), then exchanges 64 bytes with node 1
 *           (net_sendrecv: tag 8 out, tag 9 in);
 *   node 1: probes for (0, 7) until it has arrived by its own time (a
 *           probe does not receive), checks what the probe reports,
 *           receives it, finds no second one, then does the other half of
 *           the exchange.
 * Every byte is checked against the pattern (apps/pattern.c); any
 * difference prints what was wrong and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include "apps.h"
#include "../netdev/net.h"

static int expect(int ok, const char *what)
{
    if (!ok)
        printf("netapi: node %d: %s\n", net_rank(), what);
    return ok ? 0 : 1;
}

int app_netapi(void)
{
    int me = net_rank(), bad = 0;
    unsigned char big[100], out[64], in[64];
    struct net_status st;
    if (me == 0) {
        pattern_fill(big, 0, 1, sizeof big);
        net_send(1, 7, big, sizeof big);
        uint64_t posted = net_time_ns();
        net_wait_sent();
        bad += expect(net_time_ns() > posted, "net_wait_sent returned before the message could leave");
        printf("netapi: node 0: 100 bytes left after %llu ns\n", (unsigned long long)(net_time_ns() - posted));
        pattern_fill(out, 0, 1, sizeof out);
        net_sendrecv(1, 8, out, sizeof out, 1, 9, in, sizeof in, &st);
        bad += expect(st.src == 1 && st.tag == 9 && st.len == sizeof in, "sendrecv got the wrong message");
        bad += expect(!pattern_check(in, 1, 0, sizeof in), "sendrecv got wrong bytes");
    } else if (me == 1) {
        long probes = 1;
        while (!net_probe(0, NET_ANY, &st))
            probes++;
        printf("netapi: node 1: probe %ld saw node %d tag %d, %u bytes\n", probes, st.src, st.tag, (unsigned)st.len);
        bad += expect(st.src == 0 && st.tag == 7 && st.len == sizeof big, "the probe reported the wrong message");
        net_recv(0, 7, big, sizeof big, NULL);
        bad += expect(!pattern_check(big, 0, 1, sizeof big), "received wrong bytes");
        bad += expect(!net_probe(0, 7, NULL), "a second message (0, 7) where none was sent");
        pattern_fill(out, 1, 0, sizeof out);
        net_sendrecv(0, 9, out, sizeof out, 0, 8, in, sizeof in, &st);
        bad += expect(st.src == 0 && st.tag == 8 && st.len == sizeof in, "sendrecv got the wrong message");
        bad += expect(!pattern_check(in, 0, 1, sizeof in), "sendrecv got wrong bytes");
    }
    return bad ? 1 : 0;
}
