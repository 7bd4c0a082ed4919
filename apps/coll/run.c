/* The node side of the collective library: run any algorithm's schedule
 * with real messages, fill every block with the verification pattern and
 * check every byte received.
 *
 * The node computes its whole schedule first (untimed, as a library would
 * cache it), meets the others in a barrier (ARGS sync=0 skips it), then
 * runs the schedule under the clock. It keeps its blocks in a store: `cap` slots of len bytes and a
 * label -> slot map (open addressing, linear probing, backward-shift
 * deletion). A step: net_step(step); the plan; every send (a one-block
 * message goes straight from its slot, a longer one is gathered into the
 * staging buffer: the local rearrangement); every receive (scattered into
 * fresh slots). In a complete exchange a sent block's slot is freed.
 *
 * At the end a node of a complete exchange must hold exactly the p blocks
 * (s, me), each equal to pattern(s, me); in an all-to-all broadcast the p
 * blocks of every s, each equal to pattern(s, p) (p standing for "every
 * destination").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "../apps.h"
#include "../../netdev/net.h"

struct store {
    int cap, count;
    size_t len;
    unsigned char *data;
    int *free_slots, nfree;
    int *direct, nlabels;         /* label -> slot, -1 = not held (small machines) */
    int mask, *key, *slot;        /* else the map; key -1 = empty */
};

static unsigned home(const struct store *st, int label)
{
    return ((unsigned)label * 0x9e3779b1u >> 7) & (unsigned)st->mask;
}

/* nlabels: labels are 0..nlabels-1; a direct table if it is at most
 * COLL_DIRECT_MAP entries, else the hash map. */
static int store_init(struct store *st, int cap, size_t len, long nlabels)
{
    int size = 1;
    while (size < 2 * cap)
        size <<= 1;
    memset(st, 0, sizeof *st);
    st->cap = cap;
    st->len = len;
    st->data = malloc((size_t)cap * len);
    st->free_slots = malloc((size_t)cap * sizeof(int));
    if (!st->data || !st->free_slots)
        return -1;
    if (nlabels <= COLL_DIRECT_MAP) {
        st->nlabels = (int)nlabels;
        st->direct = malloc((size_t)nlabels * sizeof(int));
        if (!st->direct)
            return -1;
        for (int i = 0; i < nlabels; i++)
            st->direct[i] = -1;
    } else {
        st->mask = size - 1;
        st->key = malloc((size_t)size * sizeof(int));
        st->slot = malloc((size_t)size * sizeof(int));
        if (!st->key || !st->slot)
            return -1;
        for (int i = 0; i < size; i++)
            st->key[i] = -1;
    }
    st->nfree = cap;
    for (int i = 0; i < cap; i++)
        st->free_slots[i] = cap - 1 - i;
    return 0;
}

/* The map position of label, or -1. */
static int store_pos(const struct store *st, int label)
{
    for (unsigned i = home(st, label);; i = (i + 1) & (unsigned)st->mask) {
        if (st->key[i] == label)
            return (int)i;
        if (st->key[i] < 0)
            return -1;
    }
}

static int store_slot(const struct store *st, int label)
{
    if (st->direct)
        return label >= 0 && label < st->nlabels ? st->direct[label] : -1;
    int i = store_pos(st, label);
    return i < 0 ? -1 : st->slot[i];
}

static unsigned char *store_find(const struct store *st, int label)
{
    int k = store_slot(st, label);
    return k < 0 ? NULL : st->data + (size_t)k * st->len;
}

/* A fresh slot for label; NULL if it is already held or the store is full. */
static unsigned char *store_add(struct store *st, int label)
{
    if (!st->nfree || store_slot(st, label) >= 0)
        return NULL;
    int k = st->free_slots[--st->nfree];
    if (st->direct) {
        if (label < 0 || label >= st->nlabels)
            return NULL;
        st->direct[label] = k;
    } else {
        unsigned i = home(st, label);
        while (st->key[i] >= 0)
            i = (i + 1) & (unsigned)st->mask;
        st->key[i] = label;
        st->slot[i] = k;
    }
    st->count++;
    return st->data + (size_t)k * st->len;
}

static void store_remove(struct store *st, int label)
{
    if (st->direct) {
        int k = store_slot(st, label);
        if (k >= 0) {
            st->free_slots[st->nfree++] = k;
            st->direct[label] = -1;
            st->count--;
        }
        return;
    }
    int pos = store_pos(st, label);
    if (pos < 0)
        return;
    unsigned i = (unsigned)pos, j = i, m = (unsigned)st->mask;
    st->free_slots[st->nfree++] = st->slot[i];
    st->key[i] = -1;
    st->count--;
    for (;;) {                           /* close the gap: backward shift */
        j = (j + 1) & m;
        if (st->key[j] < 0)
            return;
        unsigned k = home(st, st->key[j]);
        if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
            st->key[i] = st->key[j];
            st->slot[i] = st->slot[j];
            st->key[j] = -1;
            i = j;
        }
    }
}

/* A dissemination barrier (Hensgen, Finkel and Manber): round k sends an
 * empty message to me + 2^k and waits for one from me - 2^k; after
 * ceil(lg p) rounds every node has heard, indirectly, from every other.
 * The nodes leave it within about one message latency of each other, so
 * the collective's clock starts together on every node whatever each
 * spent computing its schedule. */
#define BARRIER_TAG (1 << 24)

static void barrier(void)
{
    int me = net_rank(), p = net_nodes();
    for (int k = 0, d = 1; d < p; k++, d *= 2) {
        net_send((me + d) % p, BARRIER_TAG + k, NULL, 0);
        net_recv((me - d + p) % p, BARRIER_TAG + k, NULL, 0, NULL);
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

/* Copy one block. picolibc's memcpy here is a byte loop (four
 * instructions a byte); the local rearrangement copies a word at a time
 * when both ends are word-aligned (len a multiple of 4). */
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

static void block_name(char *buf, size_t n, const struct coll_algo *a, int label, int p)
{
    if (a->op == COLL_ALLTOALL)
        snprintf(buf, n, "(%d,%d)", label / p, label % p);
    else
        snprintf(buf, n, "of node %d", label);
}

/* One step's messages. 0, or 1 after printing why the schedule failed. */
static int do_step(const struct coll_algo *a, const struct coll_plan *pl, struct store *st,
                   unsigned char *stage, int step, int *sent)
{
    int me = net_rank(), p = net_nodes();
    size_t L = st->len;
    char name[48];
    for (int m = 0; m < pl->nsend; m++) {
        const struct coll_msg *msg = &pl->send[m];
        const int *lab = pl->lab + msg->off;
        const unsigned char *buf = stage;
        for (int k = 0; k < msg->nblk; k++) {
            unsigned char *b = store_find(st, lab[k]);
            if (!b) {
                block_name(name, sizeof name, a, lab[k], p);
                printf("%s: node %d, step %d: the schedule sends block %s, which the node does not hold\n",
                       a->app, me, step, name);
                return 1;
            }
            if (msg->nblk == 1)
                buf = b;
            else
                copy_block(stage + (size_t)k * L, b, L);
        }
        net_send(msg->peer, step, buf, (size_t)msg->nblk * L);
        (*sent)++;
        if (a->op == COLL_ALLTOALL)
            for (int k = 0; k < msg->nblk; k++)
                store_remove(st, lab[k]);
    }
    for (int m = 0; m < pl->nrecv; m++) {
        const struct coll_msg *msg = &pl->recv[m];
        const int *lab = pl->lab + msg->off;
        size_t want = (size_t)msg->nblk * L;
        unsigned char *dst = msg->nblk == 1 ? store_add(st, lab[0]) : stage;
        if (!dst) {
            block_name(name, sizeof name, a, lab[0], p);
            printf("%s: node %d, step %d: no room for block %s (held already, or the store is full)\n",
                   a->app, me, step, name);
            return 1;
        }
        struct net_status s;
        net_recv(msg->peer, step, dst, want, &s);
        if (s.len != want) {
            printf("%s: node %d, step %d: %lu bytes from node %d, expected %lu\n", a->app, me, step,
                   (unsigned long)s.len, msg->peer, (unsigned long)want);
            return 1;
        }
        for (int k = 0; msg->nblk > 1 && k < msg->nblk; k++) {
            unsigned char *b = store_add(st, lab[k]);
            if (!b) {
                block_name(name, sizeof name, a, lab[k], p);
                printf("%s: node %d, step %d: no room for block %s (held already, or the store is full)\n",
                       a->app, me, step, name);
                return 1;
            }
            copy_block(b, stage + (size_t)k * L, L);
        }
    }
    return 0;
}

int coll_app(const char *app)
{
    const struct coll_algo *a = coll_find_app(app);
    int me = net_rank(), p = net_nodes();
    struct app_shape sh;
    char err[400], why[128];
    shape_of_net(&sh);
    long len = net_arg_int("len", 1024);
    if (!a || app_check(app, a->restr, &sh, len, net_msg_max(), err, sizeof err)) {
        printf("%s\n", a ? err : "coll: unknown collective app");
        return 2;
    }
    if (!a->sends) {
        a = coll_auto(a->op, &sh, len, net_msg_max(), why, sizeof why);
        if (me == 0)
            printf("%s: chose %s (%s)\n", app, a->app, why);
    }
    size_t L = (size_t)len;
    long hold = a->max_hold(&sh), maxmsg = a->max_msg_blocks(&sh);
    int steps = a->nsteps(&sh), sent = 0;
    struct store st;
    struct coll_plan scratch = { 0 };
    scratch.cap = (int)(4 * hold + 2 * maxmsg);
    scratch.lab = malloc((size_t)scratch.cap * sizeof(int));
    struct coll_plan *plans = malloc((size_t)(steps + 1) * sizeof *plans);
    unsigned char *stage = malloc((size_t)maxmsg * L);
    long nlabels = a->op == COLL_ALLTOALL ? (long)p * p : p;
    if (store_init(&st, (int)hold, L, nlabels) || !scratch.lab || !plans || !stage) {
        printf("%s: %ld blocks of %ld bytes do not fit node memory\n", a->app, hold + maxmsg, len);
        return 2;
    }
    /* The whole schedule first, as a library would keep it: the clock
     * below times the messages and the local rearrangement only. */
    int *pool = NULL;
    long used = 0, room = 0;
    for (int step = 1; step <= steps; step++) {
        if (coll_plan_step(a, &sh, me, step, &scratch)) {
            printf("%s: node %d, step %d: the plan outgrew its %d labels\n", a->app, me, step, scratch.cap);
            return 1;
        }
        if (used + scratch.nlab > room) {
            room = 2 * (used + scratch.nlab) + 64;
            pool = realloc(pool, (size_t)room * sizeof(int));
            if (!pool) {
                printf("%s: the schedule (%ld labels) does not fit node memory\n", a->app, used + scratch.nlab);
                return 2;
            }
        }
        memcpy(pool + used, scratch.lab, (size_t)scratch.nlab * sizeof(int));
        plans[step] = scratch;
        for (int m = 0; m < scratch.nsend; m++)
            plans[step].send[m].off += (int)used;
        for (int m = 0; m < scratch.nrecv; m++)
            plans[step].recv[m].off += (int)used;
        used += scratch.nlab;
    }
    free(scratch.lab);
    for (int step = 1; step <= steps; step++)
        plans[step].lab = pool;

    if (a->op == COLL_ALLTOALL)
        for (int d = 0; d < p; d++)
            pattern_fill(store_add(&st, coll_lab(me, d, p)), (unsigned)me, (unsigned)d, L);
    else
        pattern_fill(store_add(&st, me), (unsigned)me, (unsigned)p, L);

    if (net_arg_int("sync", 1))
        barrier();
    uint64_t t0 = net_time_ns();
    for (int step = 1; step <= steps; step++) {
        net_step(step);
        if (do_step(a, &plans[step], &st, stage, step, &sent))
            return 1;
    }
    uint64_t t = net_time_ns() - t0;

    /* ARGS corrupt=k: node k flips one bit of the last block it received,
     * for the tests that show a wrong byte fails the run. */
    if (net_arg_int("corrupt", -1) == me && steps > 0) {
        for (int step = steps; step >= 1; step--)
            if (plans[step].nrecv) {
                const struct coll_msg *m = &plans[step].recv[0];
                unsigned char *b = store_find(&st, plans[step].lab[m->off + m->nblk - 1]);
                if (b)
                    b[L / 2] ^= 0x10;
                break;
            }
    }

    long bad = 0, missing = 0;
    for (int s = 0; s < p; s++) {
        int label = a->op == COLL_ALLTOALL ? coll_lab(s, me, p) : s;
        const unsigned char *b = store_find(&st, label);
        if (!b)
            missing++;
        else
            bad += (long)pattern_check(b, (unsigned)s, (unsigned)(a->op == COLL_ALLTOALL ? me : p), L);
    }
    int extra = st.count - (p - (int)missing);
    if (me == 0)
        printf("%s: %d nodes, %ld bytes per block, %d steps, %llu ns on node 0\n",
               a->app, p, len, steps, (unsigned long long)t);
    printf("%s: node %d done in %llu ns, %d messages sent\n", a->app, me, (unsigned long long)t, sent);
    if (bad || missing || extra)
        printf("%s: node %d found %ld wrong bytes, %ld missing blocks, %d blocks it should not hold\n",
               a->app, me, bad, missing, extra);
    return bad || missing || extra ? 1 : 0;
}
