/* The NIC's reorder of a pair's messages (host/engine/pair_order.h),
 * alone: messages of many pairs, sent in order, arriving in any order. */
#include "check.h"
#include "engine/engine.h"

enum { PAIRS = 300, MSGS = 6000 };

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Every message is handed over once, in its pair's send order, no earlier
 * than its own arrival nor than its predecessor's hand-over; the table
 * ends empty (erase keeps every probe run reachable, or a later find
 * would miss its pair and hand over out of order). */
TEST(hands_over_each_pair_in_send_order)
{
    static struct msg m[MSGS];
    static int order[MSGS];
    static uint64_t seen[PAIRS], last_t[PAIRS];
    struct pair_table t = { 0 };
    uint64_t s = 88172645463325252ull;
    int count[PAIRS] = { 0 };
    for (int i = 0; i < MSGS; i++) {
        int p = (int)(rnd(&s) % PAIRS);
        m[i] = (struct msg){ .kind = MSG_DATA, .src = p % 37, .dst = p, .seq = (uint64_t)count[p]++ };
        REQUIRE(pair_sent(&t, &m[i]) == 0);
        order[i] = i;
    }
    CHECK(t.used > 200);
    for (int i = MSGS - 1; i > 0; i--) {         /* arrivals in a random order */
        int j = (int)(rnd(&s) % (uint64_t)(i + 1)), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    int handed = 0, bad_order = 0, bad_time = 0;
    for (int k = 0; k < MSGS; k++) {
        struct msg *a = &m[order[k]];
        uint64_t own = 1000 + (uint64_t)k * 3 - (rnd(&s) % 3);
        a->t_arrive = own;
        for (struct msg *d = pair_arrived(&t, a); d; d = d->next) {
            int p = d->dst;
            bad_order += d->seq != seen[p];
            bad_time += d->t_arrive < last_t[p] || (d == a && d->t_arrive != own);
            seen[p] = d->seq + 1;
            last_t[p] = d->t_arrive;
            handed++;
        }
    }
    CHECK_EQ_INT(handed, MSGS);
    CHECK_EQ_INT(bad_order, 0);
    CHECK_EQ_INT(bad_time, 0);
    CHECK_EQ_INT((int)t.used, 0);
    pair_free(&t);
}

/* A message that overtook nothing is handed over at once, alone; one that
 * did waits, then follows the earlier one at its time. */
TEST(a_later_message_waits_for_the_earlier)
{
    struct pair_table t = { 0 };
    struct msg a = { .src = 1, .dst = 2 }, b = { .src = 1, .dst = 2 }, c = { .src = 3, .dst = 2 };
    REQUIRE(pair_sent(&t, &a) == 0 && pair_sent(&t, &b) == 0 && pair_sent(&t, &c) == 0);
    c.t_arrive = 5;
    CHECK(pair_arrived(&t, &c) == &c && c.next == NULL);
    b.t_arrive = 10;
    CHECK(pair_arrived(&t, &b) == NULL);
    a.t_arrive = 30;
    struct msg *d = pair_arrived(&t, &a);
    CHECK(d == &a && a.next == &b && b.next == NULL);
    CHECK_EQ_U64(b.t_arrive, 30);
    CHECK_EQ_INT((int)t.used, 0);
    pair_free(&t);
}
