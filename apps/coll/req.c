/* The node side of the collective library, a request's life outside its
 * runs: coll_init() checks a call against the machine, picks the
 * algorithm (or the automatic choice), computes the node's whole schedule
 * (a plan per step) once and sizes the request's store and map (req.h),
 * as a persistent collective request that coll_start() (run.c) runs as
 * often as wanted; coll_free() ends it. The one-call forms at the end
 * (coll_alltoall, coll_bcast, ...) plan, run once and free, the planning
 * included in the caller's time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "../../netdev/net.h"

#include "req.h"

/* --- set-up ------------------------------------------------------------ */

/* The block of the receive (work) buffer where label ends on this node,
 * or -1 if it only passes through (a slot). */
static int final_place(const struct coll_req *r, int l)
{
    switch (r->a->op) {
    case COLL_ALLTOALL: return l % r->p == r->me ? l / r->p : -1;
    case COLL_SCATTER: return l == r->me ? 0 : -1;
    case COLL_GATHER: return r->me == r->cx.root ? l : -1;
    case COLL_MCAST: return r->member ? l : -1;
    case COLL_SCAN: return l == 0 ? 0 : -1;
    default: return l;                   /* allgather, bcast, reductions, barrier */
    }
}

static void shape_of_net(struct app_shape *sh)
{
    const struct topo_shape *t = net_topology();
    sh->topo = t->topo;
    sh->ndims = t->ndims;
    for (int i = 0; i < SHAPE_MAX_DIMS; i++)
        sh->dims[i] = i < t->ndims ? t->dims[i] : 1;
    sh->nodes = net_nodes();
    sh->all_port = t->all_port;
}

void coll_free(struct coll_req *r)
{
    if (!r)
        return;
    free(r->plans);
    free(r->pool);
    free(r->fin);
    free(r->stage);
    free(r->data);
    free(r->free_slots);
    free(r->direct);
    free(r->key);
    free(r->val);
    free(r->work);
    free(r->setbuf);
    free(r);
}

const struct coll_algo *coll_req_algo(const struct coll_req *r) { return r->a; }
int coll_req_steps(const struct coll_req *r) { return r->steps; }

int coll_init_call(const struct coll_call *c, struct coll_req **out, char *err, size_t errlen)
{
    *out = NULL;
    enum coll_op op = c->op;
    const struct coll_algo *a = coll_find(op, c->algo);
    const char *opname = (unsigned)op < COLL_NOPS ? coll_ops[op].name : "?";
    if (!a) {
        int o = snprintf(err, errlen, "coll_%s: unknown algorithm '%s'; accepted:", opname, c->algo);
        for (int i = 0; coll_algos[i] && o >= 0 && (size_t)o < errlen; i++)
            if (coll_algos[i]->op == op)
                o += snprintf(err + o, errlen - (size_t)o, " %s", coll_algos[i]->name);
        return 2;
    }
    struct coll_req *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "coll_%s: out of memory", opname);
        return 2;
    }
    shape_of_net(&r->sh);
    r->me = net_rank();
    r->p = net_nodes();
    r->cx = c->cx;
    if (op == COLL_MCAST) {                  /* keep our own copy of the set */
        r->setbuf = malloc((size_t)(c->cx.nset > 0 ? c->cx.nset : 1) * sizeof(int));
        if (!r->setbuf) {
            free(r);
            snprintf(err, errlen, "coll_%s: out of memory", opname);
            return 2;
        }
        if (c->cx.nset > 0)
            memcpy(r->setbuf, c->cx.set, (size_t)c->cx.nset * sizeof(int));
        r->cx.set = r->setbuf;
        for (int i = 1; i < r->cx.nset; i++)
            if (r->setbuf[i] <= r->setbuf[i - 1] || r->setbuf[i - 1] < 0 || r->setbuf[i] >= r->p) {
                snprintf(err, errlen, "coll_mcast: the set must be distinct ranks 0..%d in ascending order",
                         r->p - 1);
                coll_free(r);
                return 2;
            }
    }
    r->sh.cx = &r->cx;
    size_t len = op == COLL_BARRIER ? 0 : c->len;
    if (app_check(a->app, a->restr, &r->sh, len > 0x7fffffff ? -1 : (long)len, net_msg_max(), err, errlen)) {
        coll_free(r);
        return 2;
    }
    if (!a->sends) {
        char why[128];
        a = coll_auto(op, &r->sh, (long)len, net_msg_max(), why, sizeof why);
    }
    r->a = a;
    r->cx.segs = a->segments ? a->segments(&r->sh) : 1;
    if (a->check && a->check(&r->sh, err, errlen)) {
        coll_free(r);
        return 2;
    }
    r->total = len;
    r->len = (size_t)coll_block_len(a, &r->sh, (long)len);
    r->R = op == COLL_ALLTOALL || op == COLL_ALLGATHER || op == COLL_GATHER ? r->p
         : op == COLL_SCATTER || op == COLL_SCAN || op == COLL_BARRIER ? 1 : r->cx.segs;
    r->member = op != COLL_MCAST || r->me == r->cx.root;
    for (int i = 0; op == COLL_MCAST && i < r->cx.nset; i++)
        r->member |= r->cx.set[i] == r->me;
    long hold = a->max_hold(&r->sh), maxmsg = a->max_msg_blocks(&r->sh);
    r->steps = a->nsteps(&r->sh);
    r->cap = (int)hold;
    r->nlabels = coll_nlabels(op, r->p, r->cx.segs);
    int size = 1;
    while (size < 2 * r->cap)
        size <<= 1;
    r->mask = size - 1;
    size_t L = r->len ? r->len : 1;
    r->data = malloc((size_t)(r->cap ? r->cap : 1) * L);
    r->free_slots = malloc((size_t)(r->cap ? r->cap : 1) * sizeof(int));
    r->stage = malloc((size_t)(maxmsg ? maxmsg : 1) * L);
    r->plans = malloc((size_t)(r->steps + 1) * sizeof *r->plans);
    /* A padded work buffer where the caller's bytes are not R whole blocks
     * (bcast, mcast, reductions), or where the caller gives none (reduce
     * off the root, scatter and barrier). */
    int padded = (op == COLL_BCAST || op == COLL_MCAST || op == COLL_REDUCE || op == COLL_ALLREDUCE) &&
                 (size_t)r->R * r->len != r->total;
    r->padded = padded;
    if (padded || op == COLL_REDUCE || op == COLL_BARRIER)
        r->work = calloc((size_t)r->R, L);
    if (r->nlabels <= COLL_DIRECT_MAP) {
        r->direct = malloc((size_t)r->nlabels * sizeof *r->direct);
    } else {
        r->key = malloc((size_t)size * sizeof *r->key);
        r->val = malloc((size_t)size * sizeof *r->val);
    }
    struct coll_plan scratch = { 0 };
    scratch.cap = (int)(4 * hold + 2 * maxmsg * COLL_MAX_MSGS);
    scratch.lab = malloc((size_t)scratch.cap * sizeof(int));
    if (!r->data || !r->free_slots || !r->stage || !r->plans || !scratch.lab ||
        !(r->direct || (r->key && r->val)) || ((padded || op == COLL_REDUCE || op == COLL_BARRIER) && !r->work)) {
        snprintf(err, errlen, "%s: %ld blocks of %lu bytes do not fit node memory", a->app, hold + maxmsg,
                 (unsigned long)r->len);
        free(scratch.lab);
        coll_free(r);
        return 2;
    }
    long used = 0, room = 0;
    for (int step = 1; step <= r->steps; step++) {
        if (coll_plan_step(a, &r->sh, r->me, step, &scratch)) {
            snprintf(err, errlen, "%s: node %d, step %d: the plan outgrew its %d labels", a->app, r->me, step,
                     scratch.cap);
            free(scratch.lab);
            coll_free(r);
            return 1;
        }
        if (used + scratch.nlab > room) {
            room = 2 * (used + scratch.nlab) + 64;
            int *pool = realloc(r->pool, (size_t)room * sizeof(int));
            if (!pool) {
                snprintf(err, errlen, "%s: the schedule (%ld labels) does not fit node memory", a->app,
                         used + scratch.nlab);
                free(scratch.lab);
                coll_free(r);
                return 2;
            }
            r->pool = pool;
        }
        memcpy(r->pool + used, scratch.lab, (size_t)scratch.nlab * sizeof(int));
        r->plans[step] = scratch;
        for (int m = 0; m < scratch.nsend; m++)
            r->plans[step].send[m].off += (int)used;
        for (int m = 0; m < scratch.nrecv; m++)
            r->plans[step].recv[m].off += (int)used;
        used += scratch.nlab;
    }
    free(scratch.lab);
    for (int step = 1; step <= r->steps; step++)
        r->plans[step].lab = r->pool;
    /* Where each block ends here, worked out now: a division costs a
     * library call on this core. */
    r->fin = malloc((size_t)(used ? used : 1) * sizeof(int));
    if (!r->fin) {
        snprintf(err, errlen, "%s: the schedule (%ld labels) does not fit node memory", a->app, used);
        coll_free(r);
        return 2;
    }
    for (long i = 0; i < used; i++)
        r->fin[i] = final_place(r, r->pool[i]);
    map_clear(r);
    *out = r;
    return 0;
}

int coll_init(enum coll_op op, const char *algo, size_t len, struct coll_req **out, char *err, size_t errlen)
{
    struct coll_call c = { op, algo, len, { 0 } };
    return coll_init_call(&c, out, err, errlen);
}

/* --- the one-call forms --------------------------------------------------- */


static int once(enum coll_op op, const void *send, void *recv, size_t len, const char *algo, char *err,
                size_t errlen)
{
    struct coll_req *r;
    int rc = coll_init(op, algo, len, &r, err, errlen);
    if (rc)
        return rc;
    rc = coll_start(r, send, recv, err, errlen);
    coll_free(r);
    return rc;
}

int coll_alltoall(const void *send, void *recv, size_t len, const char *algo, char *err, size_t errlen)
{
    return once(COLL_ALLTOALL, send, recv, len, algo, err, errlen);
}

int coll_allgather(const void *send, void *recv, size_t len, const char *algo, char *err, size_t errlen)
{
    return once(COLL_ALLGATHER, send, recv, len, algo, err, errlen);
}

static int once_call(const struct coll_call *c, const void *send, void *recv, char *err, size_t errlen)
{
    struct coll_req *r;
    int rc = coll_init_call(c, &r, err, errlen);
    if (rc)
        return rc;
    rc = coll_start(r, send, recv, err, errlen);
    coll_free(r);
    return rc;
}

int coll_bcast(void *buf, size_t len, int root, const char *algo, char *err, size_t errlen)
{
    struct coll_call c = { COLL_BCAST, algo, len, { .root = root } };
    return once_call(&c, buf, buf, err, errlen);
}

int coll_mcast(void *buf, size_t len, int root, const int *set, int nset, const char *algo, char *err,
               size_t errlen)
{
    struct coll_call c = { COLL_MCAST, algo, len, { .root = root, .set = set, .nset = nset } };
    return once_call(&c, buf, buf, err, errlen);
}

int coll_scatter(const void *send, void *recv, size_t len, int root, const char *algo, char *err, size_t errlen)
{
    struct coll_call c = { COLL_SCATTER, algo, len, { .root = root } };
    return once_call(&c, send, recv, err, errlen);
}

int coll_gather(const void *send, void *recv, size_t len, int root, const char *algo, char *err, size_t errlen)
{
    struct coll_call c = { COLL_GATHER, algo, len, { .root = root } };
    return once_call(&c, send, recv, err, errlen);
}

int coll_reduce(const void *send, void *recv, size_t count, enum coll_dtype t, enum coll_rop op, int root,
                const char *algo, char *err, size_t errlen)
{
    struct coll_call c = { COLL_REDUCE, algo, count * (size_t)coll_dtype_size[t],
                           { .root = root, .rop = op, .dtype = t } };
    return once_call(&c, send, recv, err, errlen);
}

int coll_allreduce(const void *send, void *recv, size_t count, enum coll_dtype t, enum coll_rop op,
                   const char *algo, char *err, size_t errlen)
{
    struct coll_call c = { COLL_ALLREDUCE, algo, count * (size_t)coll_dtype_size[t], { .rop = op, .dtype = t } };
    return once_call(&c, send, recv, err, errlen);
}

int coll_scan(const void *send, void *recv, size_t count, enum coll_dtype t, enum coll_rop op,
              const char *algo, char *err, size_t errlen)
{
    struct coll_call c = { COLL_SCAN, algo, count * (size_t)coll_dtype_size[t], { .rop = op, .dtype = t } };
    return once_call(&c, send, recv, err, errlen);
}

int coll_barrier(const char *algo, char *err, size_t errlen)
{
    struct coll_call c = { COLL_BARRIER, algo, 0, { 0 } };
    return once_call(&c, NULL, NULL, err, errlen);
}
