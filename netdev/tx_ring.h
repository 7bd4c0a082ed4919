/* The transmit area as a byte ring (nic_shm.h, tx_off and tx_size): the
 * node counts the payload bytes it has placed there in `head`, a uint32_t
 * that only grows. A payload of need bytes goes at head % size, or at 0
 * when it would pass the area's end, the bytes to the end skipped. The
 * router frees a payload when it reads its descriptor; `tail` is head as
 * it was after the last payload the router has read.
 *
 * size is what the descriptor ring and the receive buffer leave of the
 * NIC's memory, not a power of two, so head % size would jump where head
 * wraps at 2^32: a node that has sent 4 GiB would place a payload over one
 * the router has not read yet. tx_rebase_by() says how much to take off
 * head, and off every recorded end, to keep it below TX_REBASE_AT: a
 * multiple of size, which leaves every position and every difference as
 * it was. netdev/nic.c places, checks room and rebases with TX_PLACE,
 * tx_fits and tx_rebase_by, and tests/unit/test_tx_ring.c drives the same
 * three; each is a pure function of its arguments. */
#ifndef TX_RING_H
#define TX_RING_H

#include <stdint.h>

#define TX_REBASE_AT (1u << 31)

/* The bytes skipped to the area's end before a payload of need bytes. */
static inline uint32_t tx_skip(uint32_t head, uint32_t size, uint32_t need)
{
    uint32_t pos = head % size;
    return pos + need > size ? size - pos : 0;
}

/* 1 if a payload of need bytes fits between head and tail. */
static inline int tx_fits(uint32_t head, uint32_t tail, uint32_t size, uint32_t need)
{
    return head + tx_skip(head, size, need) + need - tail <= size;
}

/* Where a payload of need bytes goes: head (an lvalue) moved past the
 * bytes skipped to the area's end (tx_skip), the payload's offset in the
 * area the value. The caller adds need to head once the payload is
 * written. A macro, not a function: netdev/nic.c's send paths keep the
 * instructions they had (a node's time counts them), with its volatile
 * configuration's size read where it is used and need of the caller's
 * type. */
#define TX_PLACE(head, size, need) __extension__ ({     \
        uint32_t pos_ = (head) % (size);                \
        if (pos_ + (need) > (size)) {                   \
            (head) += (size) - pos_;                    \
            pos_ = 0;                                   \
        }                                               \
        pos_; })

/* What to take off head and every recorded end: 0 below TX_REBASE_AT. */
static inline uint32_t tx_rebase_by(uint32_t head, uint32_t size)
{
    return head < TX_REBASE_AT ? 0 : head - head % size;
}

#endif
