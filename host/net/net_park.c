/* Parked heads (net_state.h, net_parks): a unicast head refused an output
 * VC waits, its link's blocked cycles counted in closed form until a tail
 * releases a VC it may take. The cycle model parks and unparks heads; the
 * jump (net_jump.c) and the readers settle the counts. */
#include "net_state.h"

/* Input VC i of router `node` parks in cycle c (it was refused an output
 * VC and counted blocked): its link saturates from c + 1 (net_state.h). */
void net_park(struct net *n, int node, int i, uint64_t c)
{
    struct net_router *r = &n->r[node];
    r->acc.parked |= 1ull << i;
    int o = r->in[i].out_port;
    if (o < n->nlinkp) {
        size_t l = (size_t)node * n->nlinkp + o;
        if (n->ac.sat_n[l]++ == 0)
            n->ac.sat_since[l] = c + 1;
    }
}

/* Input VC i of router `node`, parked, takes a VC (or parking stops) in
 * cycle c: its link's saturated cycles before c are counted. */
void net_unpark(struct net *n, int node, int i, uint64_t c)
{
    struct net_router *r = &n->r[node];
    r->acc.waking &= ~(1ull << i);
    r->acc.parked &= ~(1ull << i);
    int o = r->in[i].out_port;
    if (o < n->nlinkp) {
        size_t l = (size_t)node * n->nlinkp + o;
        if (--n->ac.sat_n[l] == 0 && c > n->ac.sat_since[l])
            n->ls[l].blocked += c - n->ac.sat_since[l];
    }
}

/* The start of cycle c: the heads whose output released a VC in the
 * cycle before stop being parked (a group thawing at c has stepped its
 * last cycles with them parked, as they were). */
void net_wake(struct net *n, uint64_t c)
{
    for (int k = 0; k < n->ac.nwk; k++) {
        struct net_router *r = &n->r[n->ac.wk[k]];
        while (r->acc.waking)
            net_unpark(n, n->ac.wk[k], __builtin_ctzll(r->acc.waking), c);
    }
    n->ac.nwk = 0;
}

void net_unpark_all(struct net *n, uint64_t c)
{
    net_wake(n, c);
    for (int r = 0; r < n->nr; r++)
        while (n->r[r].acc.parked)
            net_unpark(n, r, __builtin_ctzll(n->r[r].acc.parked), c);
}

/* Every saturated link's cycles up to the present, counted (readers). */
int net_sat_settle(struct net *n)
{
    size_t nl = (size_t)n->nr * (size_t)n->nlinkp;
    int added = 0;
    for (size_t l = 0; l < nl; l++)
        if (n->ac.sat_n[l] && n->now > n->ac.sat_since[l]) {
            n->ls[l].blocked += n->now - n->ac.sat_since[l];
            n->ac.sat_since[l] = n->now;
            added = 1;
        }
    return added;
}
