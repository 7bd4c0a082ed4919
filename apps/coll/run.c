/* The node side of the collective library: the MPI-like calls of coll.h
 * running any algorithm's schedule with real messages.
 *
 * coll_init() computes the node's whole schedule (a plan per step) once,
 * as a persistent collective request; coll_start() runs it. At a step the
 * node calls net_step(step), sends its messages, then receives.
 *
 * Where blocks live. Every block the node holds is mapped from its label
 * to a pointer: at the start its own blocks point into the caller's send
 * buffer (complete exchange) or its own block into recv (all-to-all
 * broadcast, copied there first); a received block whose final place is
 * this node goes straight to recv + s*len; any other block (in transit in
 * a store-and-forward algorithm) goes to a slot of the node's store. A
 * one-block message is sent from, and received into, the block's place; a
 * longer one is gathered into a staging buffer and scattered on arrival
 * (the papers' local rearrangement). A sent block leaves the map in a
 * complete exchange (its slot is freed) and stays in a broadcast. At the
 * end every label (s, me) must map to recv + s*len (every block of s, in a
 * broadcast), and nothing else may be held: else the schedule is wrong and
 * the call fails.
 *
 * The map is a plain table indexed by label when there are at most
 * COLL_DIRECT_MAP labels, else open addressing with linear probing and
 * backward-shift deletion. It is cleared once by coll_init(), and a run
 * that succeeds leaves it empty, so coll_start() costs nothing per label.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "../../netdev/net.h"

#include "req.h"

/* Places: 0..cap-1 a slot, cap + s block s of recv (R blocks: the work
 * buffer of a broadcast or reduction), cap + R + d block d of send.
 * Numbers, not pointers, so freeing a slot needs no division (a library
 * call on this core). */
static inline __attribute__((always_inline)) unsigned char *at(const struct coll_req *r, int place)
{
    if (place < r->cap)
        return r->data + (size_t)place * r->len;
    if (place < r->cap + r->R)
        return r->recv + (size_t)(place - r->cap) * r->len;
    return (unsigned char *)(uintptr_t)(r->send + (size_t)(place - r->cap - r->R) * r->len);
}

/* --- the label -> place map ------------------------------------------------ */

static unsigned home(const struct coll_req *r, int label)
{
    return ((unsigned)label * 0x9e3779b1u >> 7) & (unsigned)r->mask;
}

static int hash_pos(const struct coll_req *r, int label)
{
    for (unsigned i = home(r, label);; i = (i + 1) & (unsigned)r->mask) {
        if (r->key[i] == label)
            return (int)i;
        if (r->key[i] < 0)
            return -1;
    }
}

/* The place of label, or -1. */
static inline __attribute__((always_inline)) int place_of(const struct coll_req *r, int label)
{
    if (r->direct)
        return label >= 0 && label < r->nlabels ? r->direct[label] : -1;
    int i = hash_pos(r, label);
    return i < 0 ? -1 : r->val[i];
}

/* Map label to place; -1 if it is already held. */
static inline __attribute__((always_inline)) int map_add(struct coll_req *r, int label, int place)
{
    if (place_of(r, label) >= 0)
        return -1;
    if (r->direct) {
        if (label < 0 || label >= r->nlabels)
            return -1;
        r->direct[label] = place;
    } else {
        unsigned i = home(r, label);
        while (r->key[i] >= 0)
            i = (i + 1) & (unsigned)r->mask;
        r->key[i] = label;
        r->val[i] = place;
    }
    r->count++;
    return 0;
}

/* Drop label from the map, freeing its slot if it has one. */
static void hash_remove(struct coll_req *r, int label);

static inline __attribute__((always_inline)) void map_remove(struct coll_req *r, int label)
{
    int place = place_of(r, label);
    if (place < 0)
        return;
    if (place < r->cap)
        r->free_slots[r->nfree++] = place;
    r->count--;
    if (r->direct)
        r->direct[label] = -1;
    else
        hash_remove(r, label);
}

static void hash_remove(struct coll_req *r, int label)
{
    unsigned i = (unsigned)hash_pos(r, label), j = i, m = (unsigned)r->mask;
    r->key[i] = -1;
    for (;;) {                           /* close the gap: backward shift */
        j = (j + 1) & m;
        if (r->key[j] < 0)
            return;
        unsigned k = home(r, r->key[j]);
        if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
            r->key[i] = r->key[j];
            r->val[i] = r->val[j];
            r->key[j] = -1;
            i = j;
        }
    }
}

static void map_clear(struct coll_req *r)
{
    if (r->direct)
        for (int i = 0; i < r->nlabels; i++)
            r->direct[i] = -1;
    else
        for (int i = 0; i <= r->mask; i++)
            r->key[i] = -1;
    r->count = 0;
    r->nfree = r->cap;
    for (int i = 0; i < r->cap; i++)
        r->free_slots[i] = r->cap - 1 - i;
}

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
    const struct net_topology *t = net_topology();
    sh->topo = (int)t->kind;
    sh->ndims = t->ndims;
    for (int i = 0; i < SHAPE_MAX_DIMS; i++)
        sh->dims[i] = i < t->ndims ? t->dims[i] : 1;
    sh->nodes = net_nodes();
    sh->all_port = t->port_model == NET_ALL_PORT;
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
    const char *opname = (unsigned)op < COLL_NOPS ? coll_op_names[op] : "?";
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

/* --- running ------------------------------------------------------------ */

/* Copy one block. picolibc's memcpy here is a byte loop (four
 * instructions a byte); the local rearrangement copies a word at a time
 * when both ends are word-aligned. */
static void copy_block(unsigned char *dst, const unsigned char *src, size_t n)
{
    if (((uintptr_t)dst | (uintptr_t)src) % 4 == 0) {
        uint32_t *d = (uint32_t *)(void *)dst;
        const uint32_t *s = (const uint32_t *)(const void *)src;
        size_t w = n / 4, i = 0;
        for (; i + 4 <= w; i += 4) {
            uint32_t a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];
            d[i] = a;
            d[i + 1] = b;
            d[i + 2] = c;
            d[i + 3] = e;
        }
        for (; i < w; i++)
            d[i] = s[i];
        dst += 4 * w;
        src += 4 * w;
        n -= 4 * w;
    }
    memcpy(dst, src, n);
}

static void block_name(char *buf, size_t n, const struct coll_req *r, int label)
{
    switch (r->a->op) {
    case COLL_ALLTOALL: snprintf(buf, n, "(%d,%d)", label / r->p, label % r->p); break;
    case COLL_ALLGATHER: case COLL_GATHER: snprintf(buf, n, "of node %d", label); break;
    case COLL_SCATTER: snprintf(buf, n, "for node %d", label); break;
    case COLL_SCAN: snprintf(buf, n, "%s", label ? "partial" : "result"); break;
    default: snprintf(buf, n, "segment %d", label);
    }
}

/* Take in a block arriving here: its final place in recv (fin >= 0) or a
 * slot, mapped. NULL if it is held already or the store is full. */
static inline __attribute__((always_inline)) unsigned char *take_in(struct coll_req *r, int label, int fin)
{
    if (place_of(r, label) >= 0)
        return NULL;
    int place;
    if (fin >= 0)
        place = r->cap + fin;
    else if (r->nfree)
        place = r->free_slots[--r->nfree];
    else
        return NULL;
    map_add(r, label, place);
    return at(r, place);
}

/* A received block src of label under a combining mode: into the held
 * block (combined or replaced), or taken in if none is held. */
static int merge_in(struct coll_req *r, int mode, int peer, int label, int fin, const unsigned char *src)
{
    size_t L = r->len, n = L / (size_t)coll_dtype_size[r->cx.dtype];
    int place = place_of(r, label);
    if (place < 0) {
        unsigned char *b = take_in(r, label, fin);
        if (!b)
            return -1;
        copy_block(b, src, L);
    } else if (mode == COLL_REPLACE) {
        copy_block(at(r, place), src, L);
    } else {
        coll_combine(at(r, place), src, n, r->cx.dtype, r->cx.rop);
    }
    if (mode == COLL_SCAN_RULE && peer < r->me && label != 0) {   /* the result buffer rule */
        int res = place_of(r, 0);
        if (res < 0)
            return -1;
        coll_combine(at(r, res), src, n, r->cx.dtype, r->cx.rop);
    }
    return 0;
}

static int do_step(struct coll_req *r, const struct coll_plan *pl, int step, char *err, size_t errlen)
{
    size_t L = r->len;
    char name[48];
    unsigned done = 0;                   /* sends already posted with an earlier one */
    for (int m = 0; m < pl->nsend; m++) {
        const struct coll_msg *msg = &pl->send[m];
        const int *lab = pl->lab + msg->off;
        const unsigned char *buf = r->stage;
        if (done >> m & 1)
            continue;
        for (int k = 0; k < msg->nblk; k++) {
            int place = place_of(r, lab[k]);
            if (place < 0) {
                block_name(name, sizeof name, r, lab[k]);
                snprintf(err, errlen, "%s: node %d, step %d: the schedule sends block %s, which the node "
                         "does not hold", r->a->app, r->me, step, name);
                return 1;
            }
            if (msg->nblk == 1)
                buf = at(r, place);
            else
                copy_block(r->stage + (size_t)k * L, at(r, place), L);
        }
        /* The same blocks to several nodes (a tree's fan-out): one copy
         * into the NIC, a message to each (net_send_multi). */
        int to[COLL_MAX_MSGS], n = 0;
        to[n++] = msg->peer;
        for (int j = m + 1; msg->mode != COLL_MOVE && j < pl->nsend; j++) {
            const struct coll_msg *o = &pl->send[j];
            if (o->nblk == msg->nblk && o->mode == msg->mode &&
                !memcmp(pl->lab + o->off, lab, (size_t)msg->nblk * sizeof *lab)) {
                to[n++] = o->peer;
                done |= 1u << j;
            }
        }
        net_send_multi(to, n, step, buf, (size_t)msg->nblk * L);
        if (msg->mode == COLL_MOVE)
            for (int k = 0; k < msg->nblk; k++)
                map_remove(r, lab[k]);
    }
    for (int m = 0; m < pl->nrecv; m++) {
        const struct coll_msg *msg = &pl->recv[m];
        const int *lab = pl->lab + msg->off, *fin = r->fin + msg->off;
        int merging = msg->mode != COLL_MOVE && msg->mode != COLL_COPY;
        size_t want = (size_t)msg->nblk * L;
        unsigned char *dst = msg->nblk == 1 && !merging ? take_in(r, lab[0], fin[0]) : r->stage;
        if (!dst) {
            block_name(name, sizeof name, r, lab[0]);
            snprintf(err, errlen, "%s: node %d, step %d: no place for block %s (held already, or the store "
                     "is full)", r->a->app, r->me, step, name);
            return 1;
        }
        struct net_status s;
        net_recv(msg->peer, step, dst, want, &s);
        if (s.len != want) {
            snprintf(err, errlen, "%s: node %d, step %d: %lu bytes from node %d, expected %lu", r->a->app,
                     r->me, step, (unsigned long)s.len, msg->peer, (unsigned long)want);
            return 1;
        }
        for (int k = 0; dst == r->stage && k < msg->nblk; k++) {
            const unsigned char *src = r->stage + (size_t)k * L;
            unsigned char *b = NULL;
            int bad = merging ? merge_in(r, msg->mode, msg->peer, lab[k], fin[k], src)
                              : !(b = take_in(r, lab[k], fin[k]));
            if (bad) {
                block_name(name, sizeof name, r, lab[k]);
                snprintf(err, errlen, "%s: node %d, step %d: no place for block %s (held already, or the "
                         "store is full)", r->a->app, r->me, step, name);
                return 1;
            }
            if (b)
                copy_block(b, src, L);
        }
    }
    return 0;
}

/* What the node holds when the operation starts (coll.h's labels). */
static void start_holding(struct coll_req *r)
{
    int me = r->me, p = r->p, R = r->R;
    size_t L = r->len;
    switch (r->a->op) {
    case COLL_ALLTOALL:
        for (int d = 0; d < p; d++)         /* the caller's blocks, read in place */
            map_add(r, coll_lab(me, d, p), r->cap + p + d);
        break;
    case COLL_ALLGATHER:
        copy_block(r->recv + (size_t)me * L, r->send, L);
        map_add(r, me, r->cap + me);
        break;
    case COLL_BCAST: case COLL_MCAST:
        if (me != r->cx.root)
            break;
        if (r->recv != r->send)          /* a padded work buffer */
            copy_block(r->recv, r->send, r->total);
        for (int k = 0; k < R; k++)
            map_add(r, k, r->cap + k);
        break;
    case COLL_SCATTER:
        if (me == r->cx.root)
            for (int d = 0; d < p; d++)
                map_add(r, d, r->cap + R + d);
        break;
    case COLL_GATHER:
        map_add(r, me, r->cap + R);          /* send is one block */
        break;
    case COLL_REDUCE: case COLL_ALLREDUCE:
        copy_block(r->recv, r->send, r->total);
        for (int k = 0; k < R; k++)
            map_add(r, k, r->cap + k);
        break;
    case COLL_SCAN:                          /* result in recv, the partial in a slot */
        memcpy(r->recv, r->send, L);
        map_add(r, 0, r->cap);
        map_add(r, 1, r->free_slots[--r->nfree]);
        memcpy(at(r, place_of(r, 1)), r->send, L);
        break;
    case COLL_BARRIER:
        map_add(r, 0, r->cap);
        break;
    default:
        break;
    }
}

/* The end of a run of the rooted and reducing operations: each block that
 * must end here is in its place, then the map is cleared for the next
 * run. 0, or 1 with the reason. */
static int end_check(struct coll_req *r, char *err, size_t errlen)
{
    enum coll_op op = r->a->op;
    int need = 0, first = 0;
    switch (op) {
    case COLL_SCATTER: need = 1; first = r->me; break;
    case COLL_GATHER: need = r->me == r->cx.root ? r->p : 0; break;
    case COLL_MCAST: need = r->member ? r->R : 0; break;
    case COLL_REDUCE: need = r->me == r->cx.root ? r->R : 0; break;
    case COLL_SCAN: case COLL_BARRIER: need = 1; break;
    default: need = r->R;
    }
    for (int i = 0; i < need; i++) {
        int label = first + i, place = place_of(r, label);
        int want = r->cap + (op == COLL_SCATTER ? 0 : i);
        int own = r->cap + r->R + (op == COLL_GATHER ? 0 : label);
        if (place == own && (op == COLL_SCATTER || op == COLL_GATHER)) {
            /* the root's own block never left the send buffer */
            copy_block(at(r, want), at(r, place), r->len);
            place = want;
        }
        if (place != want) {
            char name[48];
            block_name(name, sizeof name, r, label);
            snprintf(err, errlen, "%s: node %d: block %s %s at the end", r->a->app, r->me, name,
                     place >= 0 ? "is not in the receive buffer" : "never arrived");
            return 1;
        }
    }
    if (op == COLL_GATHER && r->me != r->cx.root && r->count) {
        snprintf(err, errlen, "%s: node %d still holds %d blocks at the end", r->a->app, r->me, r->count);
        return 1;
    }
    if (op == COLL_SCATTER && r->count != 1) {
        snprintf(err, errlen, "%s: node %d holds %d blocks at the end, not 1", r->a->app, r->me, r->count);
        return 1;
    }
    map_clear(r);
    return 0;
}

int coll_start(struct coll_req *r, const void *send, void *recvp, char *err, size_t errlen)
{
    unsigned char *recv = recvp;
    size_t L = r->len;
    int me = r->me, p = r->p, a2a = r->a->op == COLL_ALLTOALL;
    enum coll_op op = r->a->op;
    if (r->dirty)
        map_clear(r);                    /* else the last run left it empty */
    r->dirty = 1;
    /* The bytes the schedule works on: the caller's, or the work buffer
     * (a partial last block; reduce off the root; barrier). */
    int use_work = r->work && (r->padded || op == COLL_BARRIER || (op == COLL_REDUCE && me != r->cx.root));
    r->send = send;
    r->recv = use_work ? r->work : recv;
    start_holding(r);
    for (int step = 1; step <= r->steps; step++) {
        net_step(step);
        if (do_step(r, &r->plans[step], step, err, errlen))
            return 1;
    }
    if (op != COLL_ALLTOALL && op != COLL_ALLGATHER) {
        if (end_check(r, err, errlen))
            return 1;
        if (use_work && r->padded && recv && (op != COLL_MCAST || r->member) &&
            (op != COLL_REDUCE || me == r->cx.root))
            copy_block(recv, r->work, r->total);
        r->dirty = 0;
        return 0;
    }
    /* Every block in its final place, nothing else held; then the map is
     * left empty for the next run. */
    if (r->count != p) {
        snprintf(err, errlen, "%s: node %d holds %d blocks at the end, not %d", r->a->app, me, r->count, p);
        return 1;
    }
    for (int s = 0; s < p; s++) {
        int label = a2a ? s * p + me : s, place = place_of(r, label);
        if (place == r->cap + p + me) {          /* the block to itself never left */
            copy_block(recv + (size_t)me * L, at(r, place), L);
            place = r->cap + me;
        }
        if (place != r->cap + s) {
            char name[48];
            block_name(name, sizeof name, r, label);
            snprintf(err, errlen, "%s: node %d: block %s %s at the end", r->a->app, me, name,
                     place >= 0 ? "is not in the receive buffer" : "never arrived");
            return 1;
        }
        if (r->direct)
            r->direct[label] = -1;
        else
            hash_remove(r, label);
    }
    r->count = 0;
    r->dirty = 0;
    return 0;
}

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

/* --- the one-call forms of the other operations ----------------------- */

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
