/* The executor of the algorithms with multidestination worms (coll.h,
 * coll_algo.worms; seed 002 section 8): a broadcast or multicast of one
 * block, the caller's whole message, sent from and received into the
 * caller's buffer. At each step the node sends its plan's messages, the
 * worms all at once by net_msend_group (the message copied into the NIC
 * once, each worm with its own start-up, to its list: coll_plan_worms,
 * computed by coll_worms_prepare before the clock runs), then receives; a node sends
 * only once it holds the message and receives it at most once, and at the
 * end every node of the target holds it. Every byte is checked by the
 * caller (apps/coll/apps.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "req.h"
#include "../../netdev/net.h"

/* The worms' lists of the one request prepared (a node runs one
 * collective at a time): [1..steps], each step's lists in wdst. */
static struct {
    const struct coll_req *req;
    struct coll_worms *worms;
    int *wdst;
} prep;

int coll_worms_prepare(struct coll_req *r, char *err, size_t errlen)
{
    const struct coll_algo *a = r->a;
    long hold = a->max_hold(&r->sh), maxmsg = a->max_msg_blocks(&r->sh);
    struct coll_plan pl = { 0 };
    if (prep.req) {
        snprintf(err, errlen, "%s: another request with worms is prepared (one at a time)", a->app);
        return 2;
    }
    pl.cap = (int)(4 * hold + 2 * maxmsg * COLL_MAX_MSGS);
    pl.lab = malloc((size_t)pl.cap * sizeof(int));
    prep.req = r;
    prep.worms = calloc((size_t)r->steps + 1, sizeof *prep.worms);
    prep.wdst = malloc(((size_t)r->steps + 1) * (size_t)r->p * sizeof(int));
    if (!pl.lab || !prep.worms || !prep.wdst) {
        free(pl.lab);
        coll_worms_free(r);
        snprintf(err, errlen, "%s: the worms' lists (%d steps of up to %d nodes) do not fit node memory", a->app,
                 r->steps, r->p);
        return 2;
    }
    for (int step = 1; step <= r->steps; step++) {
        struct coll_worms *w = &prep.worms[step];
        w->dst = prep.wdst + (size_t)step * (size_t)r->p;
        w->cap = r->p;
        if (coll_plan_worms(a, &r->sh, r->me, step, &pl, w)) {
            free(pl.lab);
            coll_worms_free(r);
            snprintf(err, errlen, "%s: node %d, step %d: more worms or destinations than the plan holds", a->app,
                     r->me, step);
            return 2;
        }
    }
    free(pl.lab);
    return 0;
}

void coll_worms_free(struct coll_req *r)
{
    if (prep.req != r)
        return;
    free(prep.worms);
    free(prep.wdst);
    prep.req = NULL;
    prep.worms = NULL;
    prep.wdst = NULL;
}

int coll_start_worms(struct coll_req *r, const void *send, void *recv, char *err, size_t errlen)
{
    unsigned char *buf = recv;
    size_t L = r->total;
    int held = r->me == r->cx.root;
    (void)send;                               /* the same buffer (coll.h: bcast, mcast) */
    if (prep.req != r || r->cx.segs != 1 || (r->a->op != COLL_BCAST && r->a->op != COLL_MCAST)) {
        snprintf(err, errlen, "%s: multidestination worms run a broadcast or multicast of one block, "
                 "after coll_worms_prepare", r->a->app);
        return 1;
    }
    for (int step = 1; step <= r->steps; step++) {
        const struct coll_plan *pl = &r->plans[step];
        const struct coll_worms *w = &prep.worms[step];
        net_step(step);
        struct net_worm g[COLL_MAX_MSGS];
        int ng = 0;
        for (int m = 0; m < pl->nsend; m++) {
            const struct coll_msg *msg = &pl->send[m];
            if (!held || msg->nblk != 1 || pl->lab[msg->off] != 0) {
                snprintf(err, errlen, "%s: node %d, step %d: the schedule sends what the node does not hold",
                         r->a->app, r->me, step);
                return 1;
            }
            if (!(msg->mode & COLL_WORM)) {
                net_send(msg->peer, step, buf, L);
                continue;
            }
            if (ng >= w->n || w->dst[w->off[ng]] != msg->peer) {
                snprintf(err, errlen, "%s: node %d, step %d: worm %d has no list", r->a->app, r->me, step, ng);
                return 1;
            }
            g[ng] = (struct net_worm){ (enum nic_mdw)w->kind[ng], w->dst + w->off[ng], w->ndst[ng] };
            ng++;
        }
        net_msend_group(g, ng, step, buf, L);     /* the message into the NIC once, then each worm */
        for (int m = 0; m < pl->nrecv; m++) {
            struct net_status s;
            if (held) {
                snprintf(err, errlen, "%s: node %d, step %d: the schedule sends it the message a second time "
                         "(from node %d)", r->a->app, r->me, step, pl->recv[m].peer);
                return 1;
            }
            net_recv(pl->recv[m].peer, step, buf, L, &s);
            if (s.len != L) {
                snprintf(err, errlen, "%s: node %d, step %d: %lu bytes from node %d, expected %lu", r->a->app,
                         r->me, step, (unsigned long)s.len, pl->recv[m].peer, (unsigned long)L);
                return 1;
            }
            held = 1;
        }
    }
    if (r->member && !held) {
        snprintf(err, errlen, "%s: node %d never received the message", r->a->app, r->me);
        return 1;
    }
    return 0;
}
