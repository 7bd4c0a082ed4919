/* The node side of the collective library, the executor: coll_start()
 * runs a request's schedule (req.c plans it) with real messages. At
 * a step the node calls net_step(step), sends its messages, then receives.
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

/* Empty the map and free every slot (req.h). */
void map_clear(struct coll_req *r)
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

/* --- running ------------------------------------------------------------ */

/* Copy one block: four words a round when both ends are word-aligned,
 * the rest (or all of it) with memcpy. */
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
