/* merge_may_start: when the next node of a merged machine may start
 * (host/launch/merge.h; host/run/start.c wait_for_merging paces on it). */
#include "check.h"
#include "launch/merge.h"

#define MIB (1ull << 20)

/* 100 nodes still to start: 17 MiB each whole, 4 merged, this one whole
 * (13 more); 1,000 MiB kept free; nothing booting or started. */
static struct merge_pace base(void)
{
    return (struct merge_pace){ .available = 0, .rest_whole = 1700 * MIB, .rest_merged = 413 * MIB,
                                .slack = 1000 * MIB, .booting_max = 16 };
}

TEST(starts_freely_while_the_rest_fit_whole)
{
    struct merge_pace p = base();
    unsigned long long want;
    p.available = 2700 * MIB;            /* 1,700 whole + 1,000 kept */
    p.booting = 16;                      /* the boot limit does not apply */
    CHECK_EQ_INT(merge_may_start(&p, &want), 1);
    p.available = 2700 * MIB - 1;
    CHECK_EQ_INT(merge_may_start(&p, &want), 0);
}

TEST(past_that_paces_on_the_merged_need_and_the_booting_limit)
{
    struct merge_pace p = base();
    unsigned long long want;
    p.available = 1413 * MIB;            /* 413 merged + 1,000 kept */
    CHECK_EQ_INT(merge_may_start(&p, &want), 1);
    CHECK_EQ_INT((long long)(want / MIB), 1413);
    p.booting = 15;
    CHECK_EQ_INT(merge_may_start(&p, &want), 1);
    p.booting = 16;
    CHECK_EQ_INT(merge_may_start(&p, &want), 0);
    p.booting = 0;
    p.available = 1413 * MIB - 1;
    CHECK_EQ_INT(merge_may_start(&p, &want), 0);
}

TEST(booting_nodes_and_the_started_ones_later_need_count_in_both_rules)
{
    struct merge_pace p = base();
    unsigned long long want;
    p.booting = 3;
    p.booting_extra = 39 * MIB;          /* three nodes not merged yet */
    p.later = 50 * MIB;                  /* what 50 started nodes take in the run */
    p.available = 1413 * MIB;
    CHECK_EQ_INT(merge_may_start(&p, &want), 0);
    CHECK_EQ_INT((long long)(want / MIB), 1502);
    p.available = 1502 * MIB;
    CHECK_EQ_INT(merge_may_start(&p, &want), 1);
    p.available = 2789 * MIB - 1;        /* whole: 1,700 + 39 + 50 + 1,000 */
    p.booting = 16;
    CHECK_EQ_INT(merge_may_start(&p, &want), 0);
    p.available = 2789 * MIB;
    CHECK_EQ_INT(merge_may_start(&p, &want), 1);
}

TEST(unknown_memory_does_not_hold_a_start)
{
    struct merge_pace p = base();
    unsigned long long want;
    p.booting = 16;
    CHECK_EQ_INT(merge_may_start(&p, &want), 1);
}
