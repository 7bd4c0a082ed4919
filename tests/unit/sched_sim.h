/* A host-side run of a collective schedule (apps/coll/): every node's plan
 * at every step, checked as the node executor (apps/coll/run.c) would use
 * it, and measured against the network's routes.
 *
 *   struct sim s;
 *   if (sim_run(&s, coll_find(COLL_ALLTOALL, "pex"), &shape, SIM_LOADS)) printf("%s", s.err);
 *
 * Checks (the first failure goes to s.err and sim_run returns -1):
 *   - every send has exactly one matching receive at its destination at
 *     the same step, with the same blocks in the same order, and no
 *     receive lacks its send;
 *   - a node only sends blocks it holds at the start of the step (a
 *     complete exchange moves them; an all-to-all broadcast copies them),
 *     and no block is sent twice in one step;
 *   - no node receives a block it already has;
 *   - at the end node d holds exactly the blocks (s, d) for every s
 *     (complete exchange) or the block of every s (all-to-all broadcast):
 *     every (source, destination) block delivered exactly once;
 *   - the other operations (coll.h) by their labels and message modes:
 *     a node receiving by COPY or MOVE must not hold the block already, a
 *     MOVE leaves the sender without it; for reduce, allreduce, scan and
 *     barrier every block carries how many times each node's contribution
 *     is in it, combined as the modes say, and at the end: bcast, every
 *     node holds every segment; mcast, the root and every node of the set
 *     (other nodes may relay: counted in relay_blocks); scatter, node d
 *     holds block d and nothing else; gather, the root holds every block
 *     and the others none; reduce (root) and allreduce (every node), each
 *     segment holds every node's contribution exactly once; scan, node i's
 *     result holds those of nodes 0..i exactly once and no other; barrier,
 *     every node's token depends on every node;
 *   - no step is empty, no plan outgrows the executor's label room and no
 *     node's whole schedule outgrows coll_plan_labels_bound().
 * The rooted operations read their call from sh->cx (root, set, segs as
 * the caller's wish: the simulator asks the algorithm's segments() and
 * check() as the library does).
 * Measures: steps, messages sent per node (start-ups), blocks per message,
 * blocks held per node, and with SIM_LOADS the messages sharing each
 * directed channel at each step under the routing convention below, and
 * the blocks each channel carries over the whole run.
 *
 * Routing: the network model's own (host/net/net_topo.c, through net_path):
 * dimension order 0, 1, ...; on a mesh each dimension by the sign of the
 * offset; on a torus the shorter way, + when both are equal (offset
 * exactly k/2, k even); on a hypercube e-cube, lowest differing bit first;
 * self-routing on a banyan, up then down on a fat tree. A channel is the
 * model's directed link index (net_model.h): on a direct network node,
 * dimension and direction of the link leaving the node (sim_channel).
 */
#ifndef SCHED_SIM_H
#define SCHED_SIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../apps/coll/coll.h"
#include "net_fixture.h"

enum { SIM_LOADS = 1, SIM_STEP_CHANNELS = 2 };

struct sim {
    int p, steps;
    long max_msg;                 /* most blocks in one message */
    long peak_hold;               /* most blocks one node held */
    long max_plan_labels;         /* most labels in one node's plan */
    long max_sched_labels;        /* most labels in one node's whole schedule */
    int max_sends;                /* most messages one node sent (start-ups) */
    int min_sends;
    int *sends;                   /* [p] messages sent per node */
    long *sent_blocks;            /* [p] blocks sent per node */
    long max_sent_blocks;
    int *step_load;               /* [steps+1] most messages on one channel at step t */
    int *step_msgs;               /* [steps+1] messages at step t */
    int nchan;
    long *chan_blocks;            /* [nchan] blocks each channel carried */
    int *chan_step_blocks;        /* [(steps+1) * nchan] with SIM_STEP_CHANNELS */
    long moved;                   /* blocks moved in all */
    int segs;                     /* the call's segments (bcast, mcast, reduce, allreduce) */
    int max_step_sends;           /* most messages one node sends in one step (ports used) */
    int max_step_recvs;           /* most messages one node receives in one step */
    long relay_blocks;            /* mcast: blocks received by nodes outside the set */
    char err[512];
};

/* The network model's own routes (host/net/net.c, net_path; host/net/net_topo.c) on the shape:
 * one network per shape, kept until another shape is asked for. */
static struct net *sim_net(const struct app_shape *sh)
{
    static struct net *n;
    static struct topo_shape cached;
    struct topo_shape m = *(const struct topo_shape *)sh;     /* the app shape's first member */
    for (int i = m.ndims; i < TOPO_MAX_DIMS; i++)
        m.dims[i] = 1;
    if (machine_indirect(&m))
        m.all_port = TOPO_ONE_PORT;                /* one port; routes do not depend on it */
    if (n && !memcmp(&m, &cached, sizeof m))
        return n;
    net_free(n);
    struct net_params p = small_params();      /* routes do not depend on the parameters */
    char err[256];
    if (!(n = net_new(&m, &p, err, sizeof err))) {
        fprintf(stderr, "sched_sim: no network for the shape: %s\n", err);
        abort();
    }
    cached = m;
    return n;
}

/* A direct network's channel (node, dimension, direction): the network
 * model's link index (net_model.h). */
static inline int sim_channel(const struct app_shape *sh, int node, int dim, int dir)
{
    return node * 2 * sh->ndims + 2 * dim + (dir < 0);
}

/* The directed channels of the route from a to b (at most max of them);
 * returns how many. */
static int sim_route(const struct app_shape *sh, int a, int b, int *ch, int max)
{
    return net_path(sim_net(sh), a, b, ch, max);
}

struct sim_msg {
    int from, to, nblk, mode;
    long off;                     /* into the step's label pool */
    int worm;                     /* a copy of multidestination worm worm - 1 of the step, or 0 */
    int wfirst;                   /* the worm's first copy (it counts the start-up and the route) */
};

struct sim_pool {
    struct sim_msg *m;
    int n, cap;
    int *lab;
    long nlab, labcap;
};

static void pool_add(struct sim_pool *pl, int from, int to, const int *lab, int nblk)
{
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? 2 * pl->cap : 1024;
        pl->m = realloc(pl->m, (size_t)pl->cap * sizeof *pl->m);
    }
    while (pl->nlab + nblk > pl->labcap) {
        pl->labcap = pl->labcap ? 2 * pl->labcap : 65536;
        pl->lab = realloc(pl->lab, (size_t)pl->labcap * sizeof *pl->lab);
    }
    memcpy(pl->lab + pl->nlab, lab, (size_t)nblk * sizeof *lab);
    pl->m[pl->n++] = (struct sim_msg){ from, to, nblk, COLL_DEFAULT, pl->nlab, 0, 0 };
    pl->nlab += nblk;
}

static int msg_cmp(const void *a, const void *b)
{
    const struct sim_msg *x = a, *y = b;
    return x->from != y->from ? x->from - y->from : x->to - y->to;
}

static void sim_free(struct sim *s)
{
    free(s->sends);
    free(s->sent_blocks);
    free(s->step_load);
    free(s->step_msgs);
    free(s->chan_blocks);
    free(s->chan_step_blocks);
    memset(s, 0, sizeof *s);
}

#define SIM_FAIL(...) do { snprintf(s->err, sizeof s->err, __VA_ARGS__); goto out; } while (0)

static void sim_block(char *buf, size_t n, int op, int label, int p)
{
    if (op == COLL_ALLTOALL)
        snprintf(buf, n, "(%d,%d)", label / p, label % p);
    else if (op == COLL_ALLGATHER || op == COLL_SCATTER || op == COLL_GATHER)
        snprintf(buf, n, "of %d", label);
    else
        snprintf(buf, n, "%d", label);
}

/* Run algorithm a on shape sh (and its call sh->cx). 0 if every check passed. */
static int sim_run(struct sim *s, const struct coll_algo *a, const struct app_shape *sh0, int flags)
{
    memset(s, 0, sizeof *s);
    struct coll_ctx cx = { 0 };
    if (sh0->cx)
        cx = *sh0->cx;
    struct app_shape shape = *sh0, *sh = &shape;
    sh->cx = &cx;
    if (a->op == COLL_MCAST && !sh0->cx) {
        snprintf(s->err, sizeof s->err, "a multicast needs a call (sh->cx) with its set");
        return -1;
    }
    cx.segs = a->segments ? a->segments(sh) : 1;
    if (a->check && a->check(sh, s->err, sizeof s->err))
        return -1;
    int p = sh->nodes, T = a->nsteps(sh), rc = -1, op = a->op, a2a = op == COLL_ALLTOALL;
    int reducing = op == COLL_REDUCE || op == COLL_ALLREDUCE || op == COLL_SCAN || op == COLL_BARRIER;
    int L = coll_nlabels(a->op, p, cx.segs);
    long hold_max = a->max_hold(sh), msg_max = a->max_msg_blocks(sh);
    s->p = p;
    s->steps = T;
    s->segs = cx.segs;
    net_link_stats(sim_net(sh), &s->nchan);
    s->sends = calloc((size_t)p, sizeof(int));
    s->sent_blocks = calloc((size_t)p, sizeof(long));
    s->step_load = calloc((size_t)T + 1, sizeof(int));
    s->step_msgs = calloc((size_t)T + 1, sizeof(int));
    s->chan_blocks = calloc((size_t)s->nchan, sizeof(long));
    if (flags & SIM_STEP_CHANNELS)
        s->chan_step_blocks = calloc((size_t)(T + 1) * (size_t)s->nchan, sizeof(int));
    size_t nb = a2a ? (size_t)p * (size_t)p : (size_t)p * (size_t)L;
    int *owner = a2a ? malloc(nb * sizeof(int)) : NULL;      /* complete exchange: who holds (s,d) */
    unsigned char *has = a2a ? NULL : calloc(nb, 1);         /* others: has[v*L+l] */
    /* Reductions: cnt[(v*L+l)*p + c] = times node c's contribution is in
     * node v's block l; pay = the contents of the step's sent blocks. */
    unsigned char *cnt = reducing ? calloc(nb * (size_t)p, 1) : NULL, *pay = NULL;
    long paycap = 0;
    int *sent_at = malloc(nb * sizeof(int));                 /* step a block was last sent (by its holder) */
    long *hold = calloc((size_t)p, sizeof(long)), *labels = calloc((size_t)p, sizeof(long));
    int *load = calloc((size_t)s->nchan, sizeof(int)), *route = malloc(4 * (size_t)p * sizeof(int) + 64);
    int *nout = calloc((size_t)p, sizeof(int)), *nin = calloc((size_t)p, sizeof(int));
    unsigned char *member = calloc((size_t)p, 1);
    struct coll_plan plan = { 0 };
    plan.cap = (int)(4 * hold_max + 2 * msg_max * COLL_MAX_MSGS);     /* as apps/coll/run.c */
    plan.lab = malloc((size_t)plan.cap * sizeof(int));
    /* The step's multidestination worms (coll.h): each node's lists, and
     * per worm its kind, source and list in wdst. */
    struct coll_worms w = { 0 };
    w.cap = p;
    w.dst = malloc((size_t)p * sizeof(int));
    int nworm = 0, wcap = 0, *wkind = NULL, *wsrc = NULL, *wn = NULL, *woff = NULL, *wdst = NULL, wused = 0;
    struct sim_pool sp = { 0 }, rp = { 0 };
    char bn[48];
    if (cx.root < 0 || cx.root >= p)
        SIM_FAIL("root %d is outside 0..%d", cx.root, p - 1);
    for (int v = 0; v < p; v++)
        member[v] = op != COLL_MCAST || v == cx.root;
    for (int i = 0; op == COLL_MCAST && i < cx.nset; i++) {
        if (cx.set[i] < 0 || cx.set[i] >= p || cx.set[i] == cx.root || (i && cx.set[i] <= cx.set[i - 1]))
            SIM_FAIL("the multicast set is not ascending distinct ranks other than the root");
        member[cx.set[i]] = 1;
    }
    for (size_t i = 0; i < nb; i++) {
        if (a2a)
            owner[i] = (int)(i / (size_t)p);
        sent_at[i] = 0;
    }
#define HAS(v, l) has[(size_t)(v) * L + (l)]
#define CNT(v, l) (cnt + ((size_t)(v) * L + (l)) * (size_t)p)
    for (int v = 0; v < p; v++) {
        if (a2a) {
            hold[v] = p;
            continue;
        }
        for (int l = 0; l < L; l++) {
            int h = op == COLL_ALLGATHER || op == COLL_GATHER ? l == v
                  : op == COLL_BCAST || op == COLL_MCAST || op == COLL_SCATTER ? v == cx.root : 1;
            HAS(v, l) = (unsigned char)h;
            hold[v] += h;
            if (h && reducing)
                CNT(v, l)[v] = 1;
        }
        if (hold[v] > s->peak_hold)
            s->peak_hold = hold[v];
    }
    for (int t = 1; t <= T; t++) {
        sp.n = rp.n = 0;
        sp.nlab = rp.nlab = 0;
        nworm = wused = 0;
        memset(nout, 0, (size_t)p * sizeof(int));
        memset(nin, 0, (size_t)p * sizeof(int));
        for (int v = 0; v < p; v++) {
            if (coll_plan_worms(a, sh, v, t, &plan, &w))
                SIM_FAIL("node %d, step %d: the plan overflowed (%d labels, %d messages, %d worm destinations)",
                         v, t, plan.cap, COLL_MAX_MSGS, w.cap);
            for (int m = 0; m < plan.nsend; m++)
                if (plan.send[m].peer < 0 || plan.send[m].peer >= p)
                    SIM_FAIL("step %d: node %d sends to node %d, outside 0..%d", t, v, plan.send[m].peer, p - 1);
            if (plan.nlab > s->max_plan_labels)
                s->max_plan_labels = plan.nlab;
            labels[v] += plan.nlab;
            for (int m = 0, k = 0; m < plan.nsend; m++) {
                if (!(plan.send[m].mode & COLL_WORM)) {
                    pool_add(&sp, v, plan.send[m].peer, plan.lab + plan.send[m].off, plan.send[m].nblk);
                    sp.m[sp.n - 1].mode = plan.send[m].mode;
                    continue;
                }
                /* a worm: one copy to each listed node, the blocks copied */
                if (!a->worms)
                    SIM_FAIL("step %d: node %d sends a worm, but %s does not say it has any", t, v, a->app);
                if (k >= w.n || w.dst[w.off[k]] != plan.send[m].peer)
                    SIM_FAIL("step %d: node %d: worm %d has no list", t, v, k);
                if (nworm == wcap) {
                    wcap = wcap ? 2 * wcap : 64;
                    wkind = realloc(wkind, (size_t)wcap * sizeof *wkind);
                    wsrc = realloc(wsrc, (size_t)wcap * sizeof *wsrc);
                    wn = realloc(wn, (size_t)wcap * sizeof *wn);
                    woff = realloc(woff, (size_t)wcap * sizeof *woff);
                }
                wdst = realloc(wdst, (size_t)(wused + w.ndst[k]) * sizeof *wdst);
                wkind[nworm] = w.kind[k];
                wsrc[nworm] = v;
                wn[nworm] = w.ndst[k];
                woff[nworm] = wused;
                memcpy(wdst + wused, w.dst + w.off[k], (size_t)w.ndst[k] * sizeof *wdst);
                wused += w.ndst[k];
                nworm++;
                for (int j = 0; j < w.ndst[k]; j++) {
                    pool_add(&sp, v, w.dst[w.off[k] + j], plan.lab + plan.send[m].off, plan.send[m].nblk);
                    sp.m[sp.n - 1].mode = coll_default_mode(a->op);
                    sp.m[sp.n - 1].worm = nworm;
                    sp.m[sp.n - 1].wfirst = j == 0;
                }
                k++;
            }
            for (int m = 0; m < plan.nrecv; m++) {
                pool_add(&rp, plan.recv[m].peer, v, plan.lab + plan.recv[m].off, plan.recv[m].nblk);
                rp.m[rp.n - 1].mode = plan.recv[m].mode;
            }
        }
        if (sp.n == 0)
            SIM_FAIL("step %d of %d is empty", t, T);
        /* Sends and receives pair up, blocks, order and mode included. */
        qsort(sp.m, (size_t)sp.n, sizeof *sp.m, msg_cmp);
        qsort(rp.m, (size_t)rp.n, sizeof *rp.m, msg_cmp);
        for (int i = 0; i < sp.n || i < rp.n; i++) {
            if (i >= rp.n)
                SIM_FAIL("step %d: node %d sends to node %d, which does not receive it (node %d's senders() at step "
                         "%d does not list node %d)", t, sp.m[i].from, sp.m[i].to, sp.m[i].to, t, sp.m[i].from);
            if (i >= sp.n)
                SIM_FAIL("step %d: node %d waits for node %d, which sends it nothing", t, rp.m[i].to, rp.m[i].from);
            struct sim_msg *x = &sp.m[i], *y = &rp.m[i];
            if (x->from != y->from || x->to != y->to)
                SIM_FAIL("step %d: send %d->%d has no matching receive (next receive %d->%d)", t, x->from, x->to,
                         y->from, y->to);
            if (i > 0 && !msg_cmp(x, &sp.m[i - 1]))
                SIM_FAIL("step %d: two messages from %d to %d", t, x->from, x->to);
            if (x->nblk != y->nblk || memcmp(sp.lab + x->off, rp.lab + y->off, (size_t)x->nblk * sizeof(int)) ||
                x->mode != y->mode)
                SIM_FAIL("step %d: %d->%d: the receiver expects other blocks than the sender sends", t, x->from, x->to);
            if (x->from == x->to)
                SIM_FAIL("step %d: node %d sends to itself", t, x->from);
            nout[x->from] += !x->worm || x->wfirst;     /* a worm is one start-up */
            nin[x->to]++;
            if (a2a || x->mode == COLL_MOVE || x->mode == COLL_COPY)
                continue;
            if (!reducing)
                SIM_FAIL("step %d: %d->%d: mode %d in an operation that does not combine", t, x->from, x->to, x->mode);
        }
        for (int v = 0; v < p; v++) {
            if (nout[v] > s->max_step_sends)
                s->max_step_sends = nout[v];
            if (nin[v] > s->max_step_recvs)
                s->max_step_recvs = nin[v];
        }
        /* Senders hold what they send, at the start of the step; what a
         * combining message carries is taken now. */
        if (reducing && sp.nlab * p > paycap) {
            paycap = sp.nlab * p;
            pay = realloc(pay, (size_t)paycap);
        }
        for (int i = 0; i < sp.n; i++) {
            struct sim_msg *x = &sp.m[i];
            for (int k = 0; k < x->nblk; k++) {
                int l = sp.lab[x->off + k];
                if (l < 0 || (size_t)l >= (a2a ? nb : (size_t)L))
                    SIM_FAIL("step %d: %d->%d: label %d out of range", t, x->from, x->to, l);
                sim_block(bn, sizeof bn, a->op, l, p);
                int held = a2a ? owner[l] == x->from : HAS(x->from, l);
                if (!held)
                    SIM_FAIL("step %d: node %d sends block %s, which it does not hold", t, x->from, bn);
                size_t key = a2a ? (size_t)l : (size_t)x->from * L + l;
                if (x->mode == COLL_MOVE && sent_at[key] == t)
                    SIM_FAIL("step %d: block %s is sent twice", t, bn);
                sent_at[key] = t;
                if (reducing)
                    memcpy(pay + (x->off + k) * p, CNT(x->from, l), (size_t)p);
            }
            if (x->worm && !x->wfirst)
                continue;                                /* counted with the worm's first copy */
            s->sends[x->from]++;
            s->sent_blocks[x->from] += x->nblk;
            s->step_msgs[t]++;
            s->moved += x->nblk;
            if (x->nblk > s->max_msg)
                s->max_msg = x->nblk;
        }
        /* Deliver. */
        for (int i = 0; i < sp.n; i++) {
            struct sim_msg *x = &sp.m[i];
            for (int k = 0; k < x->nblk; k++) {
                int l = sp.lab[x->off + k];
                if (a2a) {
                    owner[l] = x->to;
                    hold[x->from]--;
                    hold[x->to]++;
                    continue;
                }
                sim_block(bn, sizeof bn, a->op, l, p);
                int had = HAS(x->to, l);
                if (had && (x->mode == COLL_MOVE || x->mode == COLL_COPY))
                    SIM_FAIL("step %d: node %d receives block %s a second time (from %d)", t, x->to, bn, x->from);
                if (x->mode == COLL_MOVE) {
                    HAS(x->from, l) = 0;
                    hold[x->from]--;
                }
                if (!had) {
                    HAS(x->to, l) = 1;
                    hold[x->to]++;
                }
                if (!member[x->to])
                    s->relay_blocks++;
                if (!reducing)
                    continue;
                const unsigned char *y = pay + (x->off + k) * p;
                unsigned char *c = CNT(x->to, l), *r = CNT(x->to, 0);
                for (int j = 0; j < p; j++) {
                    int v = x->mode == COLL_REPLACE || !had ? y[j] : c[j] + y[j];
                    c[j] = (unsigned char)(v > 255 ? 255 : v);
                    if (x->mode == COLL_SCAN_RULE && x->from < x->to && l != 0) {
                        v = r[j] + y[j];
                        r[j] = (unsigned char)(v > 255 ? 255 : v);
                    }
                }
            }
        }
        for (int v = 0; v < p; v++)
            if (hold[v] > s->peak_hold)
                s->peak_hold = hold[v];
        if (flags & (SIM_LOADS | SIM_STEP_CHANNELS)) {
            memset(load, 0, (size_t)s->nchan * sizeof(int));
            for (int i = 0; i < sp.n; i++) {
                const struct sim_msg *x = &sp.m[i];
                if (x->worm && !x->wfirst)
                    continue;                            /* a worm crosses each of its links once */
                char werr[200];
                int wk = x->worm - 1;
                int n = !x->worm ? sim_route(sh, x->from, x->to, route, 4 * p + 16)
                                 : net_mc_links(sim_net(sh), wkind[wk], wsrc[wk], wdst + woff[wk], wn[wk], route,
                                                4 * p + 16, werr, sizeof werr);
                if (n < 0)
                    SIM_FAIL("step %d: the worm from %d: %s", t, x->from, werr);
                for (int k = 0; k < n; k++) {
                    if (++load[route[k]] > s->step_load[t])
                        s->step_load[t] = load[route[k]];
                    s->chan_blocks[route[k]] += sp.m[i].nblk;
                    if (s->chan_step_blocks)
                        s->chan_step_blocks[(size_t)t * s->nchan + route[k]] += sp.m[i].nblk;
                }
            }
        }
    }
    /* The end state of each operation. */
    for (int d = 0; d < p; d++) {
        if (a2a) {
            for (int src = 0; src < p; src++)
                if (owner[src * p + d] != d)
                    SIM_FAIL("block (%d,%d) ends at node %d, not %d", src, d, owner[src * p + d], d);
            continue;
        }
        for (int l = 0; l < L; l++) {
            int want;                             /* 1: d must hold l; 0: must not; -1: either */
            switch (op) {
            case COLL_SCATTER: want = l == d; break;
            case COLL_GATHER: want = d == cx.root; break;
            case COLL_MCAST: want = member[d] ? 1 : -1; break;
            default: want = 1;
            }
            sim_block(bn, sizeof bn, a->op, l, p);
            if (want == 1 && !HAS(d, l))
                SIM_FAIL("node %d never receives block %s", d, bn);
            if (want == 0 && HAS(d, l))
                SIM_FAIL("node %d still holds block %s at the end", d, bn);
            int check = op == COLL_ALLREDUCE || op == COLL_BARRIER || (op == COLL_REDUCE && d == cx.root) ||
                        (op == COLL_SCAN && l == 0);
            for (int c = 0; check && c < p; c++) {
                int n = CNT(d, l)[c], need = op == COLL_SCAN ? c <= d : 1;
                if (op == COLL_BARRIER ? n == 0 : n != need)
                    SIM_FAIL("node %d: block %s holds node %d's contribution %d times, not %d", d, bn, c, n,
                             op == COLL_BARRIER ? 1 : need);
            }
        }
    }
    for (int v = 0; v < p; v++)
        if (s->sent_blocks[v] > s->max_sent_blocks)
            s->max_sent_blocks = s->sent_blocks[v];
    for (int v = 0; v < p; v++)
        if (labels[v] > s->max_sched_labels)
            s->max_sched_labels = labels[v];
    if (s->max_sched_labels > coll_plan_labels_bound(a, sh))
        SIM_FAIL("a node's schedule has %ld labels, more than coll_plan_labels_bound() = %ld",
                 s->max_sched_labels, coll_plan_labels_bound(a, sh));
    if (s->peak_hold > hold_max && op != COLL_ALLTOALL)
        SIM_FAIL("a node holds %ld blocks at once, more than max_hold() = %ld", s->peak_hold, hold_max);
    if (s->max_msg > msg_max)
        SIM_FAIL("a message has %ld blocks, more than max_msg_blocks() = %ld", s->max_msg, msg_max);
    s->max_sends = 0;
    s->min_sends = s->sends[0];
    for (int v = 0; v < p; v++) {
        if (s->sends[v] > s->max_sends)
            s->max_sends = s->sends[v];
        if (s->sends[v] < s->min_sends)
            s->min_sends = s->sends[v];
    }
    rc = 0;
#undef HAS
#undef CNT
out:
    free(owner);
    free(has);
    free(cnt);
    free(pay);
    free(sent_at);
    free(hold);
    free(labels);
    free(load);
    free(route);
    free(nout);
    free(nin);
    free(member);
    free(plan.lab);
    free(w.dst);
    free(wkind);
    free(wsrc);
    free(wn);
    free(woff);
    free(wdst);
    free(sp.m);
    free(sp.lab);
    free(rp.m);
    free(rp.lab);
    return rc;
}

/* A shape: topo "mesh" | "torus" | "hypercube" | "banyan", dims "4x5"
 * (hypercube, banyan: "16"); any other topo stops the test. */
static struct app_shape sim_shape(const char *topo, const char *dims, int all_port)
{
    struct app_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.topo = !strcmp(topo, "mesh") ? TOPO_MESH : !strcmp(topo, "torus") ? TOPO_TORUS
            : !strcmp(topo, "banyan") ? TOPO_BANYAN : !strcmp(topo, "hypercube") ? TOPO_HYPERCUBE : -1;
    if (sh.topo < 0) {
        fprintf(stderr, "sched_sim: sim_shape knows no topology '%s'\n", topo);
        abort();
    }
    sh.all_port = all_port;
    for (int i = 0; i < SHAPE_MAX_DIMS; i++)
        sh.dims[i] = 1;
    if (sh.topo == TOPO_HYPERCUBE) {
        int n = atoi(dims);
        sh.nodes = n;
        while ((1 << sh.ndims) < n)
            sh.dims[sh.ndims++] = 2;
        return sh;
    }
    sh.nodes = 1;
    for (const char *q = dims; *q;) {
        sh.dims[sh.ndims] = atoi(q);
        sh.nodes *= sh.dims[sh.ndims++];
        q += strspn(q, "0123456789");
        if (*q == 'x')
            q++;
    }
    return sh;
}

#endif
