/* Sleeping routers (struct router_accel's sleep; net_accel.h, acc_router_quiet): the
 * blocked cycles a sleeping router owes, added when it wakes or a reader
 * needs them. */
#include "net_state.h"

/* Router `node`'s owed blocked cycles, up to cycle t. */
void net_sleep_owe(struct net *n, int node, uint64_t t)
{
    struct net_router *r = &n->r[node];
    if (t <= r->acc.sleep_c)
        return;
    uint64_t k = t - r->acc.sleep_c;
    for (int i = 0; i < r->acc.nslog_m; i++)
        r->acc.slog_m[i]->blocked_cycles += k;
    for (int i = 0; i < r->acc.nslog_l; i++)
        n->ls[r->acc.slog_l[i]].blocked += k;
    r->acc.sleep_c = t;
}

void net_sleep_settle(struct net *n)
{
    NET_FOR_ACTIVE(n, i) {
        if (n->r[i].acc.sleep)
            net_sleep_owe(n, i, n->now);
    }
    NET_FOR_DORMANT(n, i) {
        net_sleep_owe(n, i, n->now);
    }
}

void net_sleep_settle_one(struct net *n, int r)
{
    if (n->r[r].acc.sleep)
        net_sleep_owe(n, r, n->now);
}

void net_sleep_end(struct net *n, int r)
{
    if (n->r[r].acc.sleep) {
        net_sleep_owe(n, r, n->now);
        n->r[r].acc.sleep = 0;
    }
    net_undormant(n, r);
}
