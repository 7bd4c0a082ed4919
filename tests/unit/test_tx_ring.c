/* netdev/tx_ring.h: the node's transmit area as a byte ring. A model of
 * netdev/nic.c places payloads with nic.c's own TX_PLACE (at head % size,
 * or at 0 when one would pass the end) and checks room with its tx_fits,
 * with a router that reads them in order at irregular times, past the
 * 4 GiB where the node's uint32_t head wraps: no payload may land on one
 * the router has not read. */
#include "check.h"
#include "../../netdev/tx_ring.h"

/* Not a power of two, as the default layout's transmit area (1 MiB of NIC
 * memory less the ring's page and a 256 KiB receive buffer). */
#define SIZE 778240u
#define MAX_UNREAD 64

struct unread { uint32_t pos, len, end; };

struct ring {
    uint32_t head, tail;
    struct unread q[MAX_UNREAD];
    int n;
    uint64_t lcg;
};

static uint32_t next_rand(struct ring *r)
{
    r->lcg = r->lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->lcg >> 33);
}

static void read_oldest(struct ring *r)
{
    r->tail = r->q[0].end;
    memmove(r->q, r->q + 1, (size_t)--r->n * sizeof *r->q);
}

static int overlaps_unread(const struct ring *r, uint32_t pos, uint32_t len)
{
    for (int i = 0; i < r->n; i++)
        if (len && r->q[i].len && pos < r->q[i].pos + r->q[i].len && r->q[i].pos < pos + len)
            return 1;
    return 0;
}

/* Place `bytes` of payloads (lengths of a send's pieces: 262144, a
 * header's 32, an empty last piece), rebasing as nic.c's wait_space does
 * when `rebase`; returns the number of payloads placed over unread ones. */
static long place(uint64_t bytes, int rebase, uint32_t *head_max)
{
    static const uint32_t lens[] = { 32, 262144, 262144, 262144, 262144, 0, 4096, 100 };
    struct ring r = { .lcg = 1 };
    long bad = 0;
    *head_max = 0;
    for (uint64_t placed = 0, k = 0; placed < bytes; k++) {
        uint32_t need = lens[k % (sizeof lens / sizeof *lens)];
        if (rebase && need && r.head >= TX_REBASE_AT) {
            uint32_t by = tx_rebase_by(r.head, SIZE);
            r.head -= by;
            r.tail -= by;
            for (int i = 0; i < r.n; i++)
                r.q[i].end -= by;
        }
        while (next_rand(&r) % 3 == 0 && r.n)      /* the router reads when it will */
            read_oldest(&r);
        while (r.n && (r.n == MAX_UNREAD || !tx_fits(r.head, r.n ? r.tail : r.head, SIZE, need)))
            read_oldest(&r);
        if (!r.n)
            r.tail = r.head;
        uint32_t pos = TX_PLACE(r.head, SIZE, need);   /* as netdev/nic.c places it */
        bad += overlaps_unread(&r, pos, need);
        r.head += need;
        if (r.head > *head_max)
            *head_max = r.head;
        r.q[r.n++] = (struct unread){ pos, need, r.head };
        placed += need;
    }
    return bad;
}

TEST(the_skip_makes_room_up_to_the_areas_end)
{
    CHECK_EQ_U64(tx_skip(0, SIZE, SIZE), 0);
    CHECK_EQ_U64(tx_skip(SIZE - 10, SIZE, 10), 0);
    CHECK_EQ_U64(tx_skip(SIZE - 10, SIZE, 11), 10);
    CHECK_EQ_U64(tx_skip(5 * SIZE + 7, SIZE, SIZE - 6), SIZE - 7);
    CHECK(tx_fits(3 * SIZE, 3 * SIZE, SIZE, SIZE));  /* empty, at the start: the whole area */
    CHECK(!tx_fits(100, 100, SIZE, SIZE));         /* empty, but past the start: skip and all */
    CHECK(!tx_fits(3 * SIZE + 1, 3 * SIZE, SIZE, SIZE));
    CHECK(!tx_fits(SIZE - 10, 0, SIZE, 11));       /* the skip counts */
    CHECK(tx_fits(SIZE - 10, SIZE - 10, SIZE, 11));
}

TEST(a_rebase_keeps_every_position)
{
    CHECK_EQ_U64(tx_rebase_by(TX_REBASE_AT - 1, SIZE), 0);
    uint32_t h = TX_REBASE_AT + 12345, by = tx_rebase_by(h, SIZE);
    CHECK(by > 0 && by % SIZE == 0);
    CHECK_EQ_U64((h - by) % SIZE, h % SIZE);
    CHECK(h - by < SIZE);
}

/* 6 GiB placed from one node: with the rebase nothing lands on an unread
 * payload and head stays far from 2^32. */
TEST(six_gib_of_payloads_never_overwrite_an_unread_one)
{
    uint32_t head_max;
    CHECK_EQ_INT(place(6ull << 30, 1, &head_max), 0);
    CHECK(head_max < TX_REBASE_AT + 2 * SIZE);
}

/* The same without the rebase: where head wraps, head % size jumps and
 * payloads land on unread ones (what a node that had sent 4 GiB did). */
TEST(without_the_rebase_the_wrap_overwrites_unread_payloads)
{
    uint32_t head_max;
    CHECK(place(6ull << 30, 0, &head_max) > 0);
}

TEST(a_placement_skips_to_the_start_only_when_the_payload_would_pass_the_end)
{
    uint32_t head = 2 * SIZE + SIZE - 10;
    CHECK_EQ_U64(TX_PLACE(head, SIZE, 10u), SIZE - 10);   /* fits exactly */
    CHECK_EQ_U64(head, 3 * SIZE - 10);
    CHECK_EQ_U64(TX_PLACE(head, SIZE, 11u), 0);           /* one byte more: to the start */
    CHECK_EQ_U64(head, 3 * SIZE);
    size_t len = 0;                                       /* an empty payload never skips */
    head = SIZE - 1;
    CHECK_EQ_U64(TX_PLACE(head, SIZE, len), SIZE - 1);
    CHECK_EQ_U64(head, SIZE - 1);
}
