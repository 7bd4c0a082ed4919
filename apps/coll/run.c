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

struct coll_req {
    const struct coll_algo *a;
    struct app_shape sh;
    int me, p, steps;
    size_t len;
    struct coll_plan *plans;      /* [1..steps]; labels in pool */
    int *pool;
    int *fin;                     /* per label of pool: its block's index in recv if it ends here, else -1 */
    unsigned char *stage;         /* one message */
    /* the store: where each held block is, as a place number (below) */
    int cap;                      /* slots */
    unsigned char *data;          /* cap * len */
    int *free_slots, nfree;
    int *direct, nlabels;         /* label -> place, -1 = not held (small machines) */
    int mask, *key, *val;         /* else the hash map: key -1 = empty */
    int count;                    /* blocks held */
    int dirty;                    /* a run failed: the map must be cleared */
    const unsigned char *send;    /* the running call's buffers */
    unsigned char *recv;
};

/* Places: 0..cap-1 a slot, cap + s block s of recv, cap + p + d block d of
 * send. Numbers, not pointers, so freeing a slot needs no division (a
 * library call on this core). */
static inline __attribute__((always_inline)) unsigned char *at(const struct coll_req *r, int place)
{
    if (place < r->cap)
        return r->data + (size_t)place * r->len;
    if (place < r->cap + r->p)
        return r->recv + (size_t)(place - r->cap) * r->len;
    return (unsigned char *)(uintptr_t)(r->send + (size_t)(place - r->cap - r->p) * r->len);
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
    free(r);
}

const struct coll_algo *coll_req_algo(const struct coll_req *r) { return r->a; }
int coll_req_steps(const struct coll_req *r) { return r->steps; }

int coll_init(enum coll_op op, const char *algo, size_t len, struct coll_req **out, char *err, size_t errlen)
{
    *out = NULL;
    const struct coll_algo *a = coll_find(op, algo);
    const char *opname = op == COLL_ALLTOALL ? "alltoall" : "allgather";
    if (!a) {
        int o = snprintf(err, errlen, "coll_%s: unknown algorithm '%s'; accepted:", opname, algo);
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
    r->len = len;
    if (app_check(a->app, a->restr, &r->sh, len > 0x7fffffff ? -1 : (long)len, net_msg_max(), err, errlen)) {
        free(r);
        return 2;
    }
    if (!a->sends) {
        char why[128];
        a = coll_auto(op, &r->sh, (long)len, net_msg_max(), why, sizeof why);
    }
    r->a = a;
    long hold = a->max_hold(&r->sh), maxmsg = a->max_msg_blocks(&r->sh);
    r->steps = a->nsteps(&r->sh);
    r->cap = (int)hold;
    r->nlabels = op == COLL_ALLTOALL ? r->p * r->p : r->p;
    int size = 1;
    while (size < 2 * r->cap)
        size <<= 1;
    r->mask = size - 1;
    r->data = malloc((size_t)r->cap * len);
    r->free_slots = malloc((size_t)r->cap * sizeof(int));
    r->stage = malloc((size_t)maxmsg * len);
    r->plans = malloc((size_t)(r->steps + 1) * sizeof *r->plans);
    if (r->nlabels <= COLL_DIRECT_MAP) {
        r->direct = malloc((size_t)r->nlabels * sizeof *r->direct);
    } else {
        r->key = malloc((size_t)size * sizeof *r->key);
        r->val = malloc((size_t)size * sizeof *r->val);
    }
    struct coll_plan scratch = { 0 };
    scratch.cap = (int)(4 * hold + 2 * maxmsg);
    scratch.lab = malloc((size_t)scratch.cap * sizeof(int));
    if (!r->data || !r->free_slots || !r->stage || !r->plans || !scratch.lab ||
        !(r->direct || (r->key && r->val))) {
        snprintf(err, errlen, "%s: %ld blocks of %lu bytes do not fit node memory", a->app, hold + maxmsg,
                 (unsigned long)len);
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
    for (long i = 0; i < used; i++) {
        int l = r->pool[i];
        r->fin[i] = op == COLL_ALLGATHER ? l : l % r->p == r->me ? l / r->p : -1;
    }
    map_clear(r);
    *out = r;
    return 0;
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
    if (r->a->op == COLL_ALLTOALL)
        snprintf(buf, n, "(%d,%d)", label / r->p, label % r->p);
    else
        snprintf(buf, n, "of node %d", label);
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

static int do_step(struct coll_req *r, const struct coll_plan *pl, int step, char *err, size_t errlen)
{
    size_t L = r->len;
    char name[48];
    for (int m = 0; m < pl->nsend; m++) {
        const struct coll_msg *msg = &pl->send[m];
        const int *lab = pl->lab + msg->off;
        const unsigned char *buf = r->stage;
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
        net_send(msg->peer, step, buf, (size_t)msg->nblk * L);
        if (r->a->op == COLL_ALLTOALL)
            for (int k = 0; k < msg->nblk; k++)
                map_remove(r, lab[k]);
    }
    for (int m = 0; m < pl->nrecv; m++) {
        const struct coll_msg *msg = &pl->recv[m];
        const int *lab = pl->lab + msg->off, *fin = r->fin + msg->off;
        size_t want = (size_t)msg->nblk * L;
        unsigned char *dst = msg->nblk == 1 ? take_in(r, lab[0], fin[0]) : r->stage;
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
        for (int k = 0; msg->nblk > 1 && k < msg->nblk; k++) {
            unsigned char *b = take_in(r, lab[k], fin[k]);
            if (!b) {
                block_name(name, sizeof name, r, lab[k]);
                snprintf(err, errlen, "%s: node %d, step %d: no place for block %s (held already, or the "
                         "store is full)", r->a->app, r->me, step, name);
                return 1;
            }
            copy_block(b, r->stage + (size_t)k * L, L);
        }
    }
    return 0;
}

int coll_start(struct coll_req *r, const void *send, void *recvp, char *err, size_t errlen)
{
    unsigned char *recv = recvp;
    size_t L = r->len;
    int me = r->me, p = r->p, a2a = r->a->op == COLL_ALLTOALL;
    if (r->dirty)
        map_clear(r);                    /* else the last run left it empty */
    r->dirty = 1;
    r->send = send;
    r->recv = recv;
    if (a2a) {
        for (int d = 0; d < p; d++)         /* the caller's blocks, read in place */
            map_add(r, coll_lab(me, d, p), r->cap + p + d);
    } else {
        copy_block(recv + (size_t)me * L, send, L);
        map_add(r, me, r->cap + me);
    }
    for (int step = 1; step <= r->steps; step++) {
        net_step(step);
        if (do_step(r, &r->plans[step], step, err, errlen))
            return 1;
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
