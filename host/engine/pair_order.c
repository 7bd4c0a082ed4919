/* The NIC's reorder of a pair's messages: see pair_order.h. */
#include <stdlib.h>
#include "pair_order.h"
#include "engine.h"

static uint64_t key_of(int src, int dst) { return ((uint64_t)(uint32_t)src + 1) << 32 | (uint32_t)dst; }

static size_t home(const struct pair_table *t, uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;       /* Fibonacci hashing */
    return (size_t)(h >> 32) & (t->cap - 1);
}

/* The slot of key, or the empty slot where it would go. */
static struct pair_slot *find(struct pair_table *t, uint64_t key)
{
    size_t i = home(t, key);
    while (t->slot[i].key && t->slot[i].key != key)
        i = (i + 1) & (t->cap - 1);
    return &t->slot[i];
}

static int grow(struct pair_table *t)
{
    struct pair_table g = { calloc(t->cap ? 2 * t->cap : 256, sizeof *g.slot), t->cap ? 2 * t->cap : 256, t->used };
    if (!g.slot)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].key)
            *find(&g, t->slot[i].key) = t->slot[i];
    free(t->slot);
    *t = g;
    return 0;
}

/* Remove the slot at s, shifting later members of its probe run back
 * (linear probing without tombstones). */
static void erase(struct pair_table *t, struct pair_slot *s)
{
    size_t i = (size_t)(s - t->slot), j = i;
    for (;;) {
        j = (j + 1) & (t->cap - 1);
        if (!t->slot[j].key)
            break;
        size_t h = home(t, t->slot[j].key);
        /* slot j may move to the hole at i if its home is not in (i, j] */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            t->slot[i] = t->slot[j];
            i = j;
        }
    }
    t->slot[i].key = 0;
    t->used--;
}

int pair_sent(struct pair_table *t, struct msg *m)
{
    if (2 * (t->used + 1) > t->cap && grow(t))
        return -1;
    struct pair_slot *s = find(t, key_of(m->src, m->dst));
    if (s->key) {
        m->pair_prev = s->last;
        s->last->pair_next = m;
    } else {
        s->key = key_of(m->src, m->dst);
        t->used++;
    }
    s->last = m;
    m->chained = 1;
    return 0;
}

struct msg *pair_arrived(struct pair_table *t, struct msg *m)
{
    m->next = NULL;
    if (!m->chained)
        return m;
    m->arrived = 1;
    if (m->pair_prev)
        return NULL;                        /* an earlier one is still in the network */
    struct msg *head = m, **tail = &head, *x = m;
    uint64_t t_prev = 0;
    while (x && x->arrived) {
        struct msg *nx = x->pair_next;
        if (x->t_arrive < t_prev)
            x->t_arrive = t_prev;
        t_prev = x->t_arrive;
        x->chained = 0;
        x->pair_next = NULL;
        if (nx)
            nx->pair_prev = NULL;
        else
            erase(t, find(t, key_of(x->src, x->dst)));
        *tail = x;
        tail = &x->next;
        x = nx;
    }
    *tail = NULL;
    return head;
}

void pair_free(struct pair_table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].key)
            for (struct msg *x = t->slot[i].last, *p; x; x = p) {
                p = x->pair_prev;
                if (x->arrived)             /* off the network's list: only here */
                    free(x);
            }
    free(t->slot);
    *t = (struct pair_table){ 0 };
}
