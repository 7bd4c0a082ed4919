/* pace_queue: the CONFIGs a node host holds back while merged nodes start
 * paced (host/relay/pace_queue.h; node_host.c). A fake rule answers from
 * a script; the fake start records what it started. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "relay/pace_queue.h"

struct fake {
    const int *answer;               /* the rule's answers in turn: 0 start, 1 not yet, -1 stalled */
    int asked, started[16], nstarted, stalls;
    char err[64];
};
static int rule(void *ctx, int node, char *err, size_t errlen)
{
    struct fake *f = ctx;
    (void)node;
    int a = f->answer[f->asked++];
    if (a < 0)
        snprintf(err, errlen, "stalled at node %d", node);
    return a;
}
static void start(void *ctx, int node, const uint8_t *page)
{
    struct fake *f = ctx;
    f->started[f->nstarted++] = node * 100 + page[0];   /* the node and its own page */
}
static void stalled(void *ctx, const char *err)
{
    struct fake *f = ctx;
    f->stalls++;
    snprintf(f->err, sizeof f->err, "%s", err);
}

static uint8_t *page_of(int v)
{
    uint8_t *p = malloc(4);
    p[0] = (uint8_t)v;
    return p;
}

/* A queue of room 4 holding nodes 0 .. n-1, node k's page marked k. */
static int fill(struct pace_queue *q, int n)
{
    if (pace_queue_init(q, 4))
        return -1;
    for (int k = 0; k < n; k++)
        if (pace_queue_add(q, k, page_of(k)))
            return -1;
    return 0;
}

TEST(starts_in_order_each_once_with_its_own_page)
{
    static const int answers[] = { 0, 0, 0 };
    struct fake f = { .answer = answers };
    struct pace_calls c = { rule, start, stalled, &f };
    struct pace_queue q;
    REQUIRE(pace_queue_init(&q, 4) == 0);
    CHECK_EQ_INT(pace_queue_add(&q, 7, page_of(1)), 0);
    CHECK_EQ_INT(pace_queue_add(&q, 3, page_of(2)), 0);
    CHECK_EQ_INT(pace_queue_add(&q, 9, page_of(3)), 0);
    pace_queue_run(&q, 1.0, 0.02, &c);
    CHECK_EQ_INT(f.nstarted, 3);
    CHECK_EQ_INT(f.started[0], 701);
    CHECK_EQ_INT(f.started[1], 302);
    CHECK_EQ_INT(f.started[2], 903);
    pace_queue_run(&q, 2.0, 0.02, &c);       /* nothing left: the rule is not asked */
    CHECK_EQ_INT(f.asked, 3);
    pace_queue_free(&q);
}

TEST(not_yet_holds_the_front_and_asks_again_only_after_the_interval)
{
    static const int answers[] = { 1, 0, 1, 0 };
    struct fake f = { .answer = answers };
    struct pace_calls c = { rule, start, stalled, &f };
    struct pace_queue q;
    REQUIRE(fill(&q, 2) == 0);
    pace_queue_run(&q, 10.00, 0.02, &c);     /* not yet */
    CHECK_EQ_INT(f.nstarted, 0);
    pace_queue_run(&q, 10.01, 0.02, &c);     /* too soon to ask */
    CHECK_EQ_INT(f.asked, 1);
    pace_queue_run(&q, 10.03, 0.02, &c);     /* node 0 starts; node 1 not yet */
    CHECK_EQ_INT(f.nstarted, 1);
    CHECK_EQ_INT(f.started[0], 0);
    CHECK_EQ_INT(f.asked, 3);
    pace_queue_run(&q, 10.04, 0.02, &c);     /* too soon again */
    CHECK_EQ_INT(f.asked, 3);
    pace_queue_run(&q, 10.06, 0.02, &c);
    CHECK_EQ_INT(f.nstarted, 2);
    CHECK_EQ_INT(f.started[1], 101);
    pace_queue_free(&q);
}

TEST(a_stall_is_said_once_and_starts_nothing_more)
{
    static const int answers[] = { 0, -1 };
    struct fake f = { .answer = answers };
    struct pace_calls c = { rule, start, stalled, &f };
    struct pace_queue q;
    REQUIRE(fill(&q, 3) == 0);
    pace_queue_run(&q, 1.0, 0.02, &c);
    CHECK_EQ_INT(f.nstarted, 1);
    CHECK_EQ_INT(f.stalls, 1);
    CHECK_STR(f.err, "stalled at node 1");
    pace_queue_run(&q, 5.0, 0.02, &c);
    CHECK_EQ_INT(f.asked, 2);
    CHECK_EQ_INT(f.stalls, 1);
    uint8_t *late = page_of(3);
    CHECK_EQ_INT(pace_queue_add(&q, 3, late), -1);   /* refused: the caller keeps it */
    free(late);
    pace_queue_free(&q);                              /* the two held pages go (valgrind-clean) */
}

TEST(a_full_queue_refuses_and_the_caller_keeps_the_page)
{
    struct pace_queue q;
    REQUIRE(pace_queue_init(&q, 2) == 0);
    CHECK_EQ_INT(pace_queue_add(&q, 0, page_of(0)), 0);
    CHECK_EQ_INT(pace_queue_add(&q, 1, page_of(1)), 0);
    uint8_t *extra = page_of(2);
    CHECK_EQ_INT(pace_queue_add(&q, 2, extra), -1);
    free(extra);
    pace_queue_free(&q);
}
