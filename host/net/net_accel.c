/* The accelerators' state (struct net_accel, struct router_accel;
 * net_accel.h): made with the network, freed with it. */
#include <stdlib.h>
#include "net_accel.h"

int net_accel_init(struct net *n)
{
    struct net_accel *a = &n->ac;
    size_t links = (size_t)n->nr * (size_t)(n->nlinkp ? n->nlinkp : 1), words = ((size_t)n->nr + 63) / 64;
    a->dormant = calloc(words, sizeof *a->dormant);
    a->hwait = calloc(words, sizeof *a->hwait);
    a->sat_n = calloc(links, sizeof *a->sat_n);
    a->sat_since = calloc(links, sizeof *a->sat_since);
    a->wk = calloc((size_t)n->nr, sizeof *a->wk);
    if (!a->dormant || !a->hwait || !a->sat_n || !a->sat_since || !a->wk)
        return -1;
    for (int i = 0; i < n->nr; i++) {
        struct router_accel *r = &n->r[i].acc;
        r->slog_m = malloc((size_t)n->nin * (size_t)n->V * sizeof *r->slog_m);
        r->slog_l = malloc((size_t)(n->nlinkp ? n->nlinkp : 1) * sizeof *r->slog_l);
        if (!r->slog_m || !r->slog_l)
            return -1;
    }
    /* Their assumptions (net_accel.h): oblivious routes, NIC channels of
     * one VC, credits usable the cycle after their flit left. */
    a->no_accel = n->adaptive || n->p.nic_vcs > 1 || n->p.credit_delay > 0;
    a->jump_on = !a->no_accel;
    a->slog_node = -1;
    a->next_thaw = UINT64_MAX;
    return 0;
}

void net_accel_free(struct net *n)
{
    struct net_accel *a = &n->ac;
    for (int i = 0; n->r && i < n->nr; i++) {
        free(n->r[i].acc.slog_m);
        free(n->r[i].acc.slog_l);
    }
    free(a->dormant);
    free(a->hwait);
    free(a->sat_n);
    free(a->sat_since);
    free(a->wk);
    net_hk_free(n);
}
