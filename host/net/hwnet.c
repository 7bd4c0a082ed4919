/* The networks beside the data network; hwnet.h states the models. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwnet.h"

int hwnet_init(struct hwnet *h, int nodes, const struct params *p)
{
    memset(h, 0, sizeof *h);
    h->n = nodes;
    while ((1L << h->levels) < nodes)
        h->levels++;
    h->bar_ns = 2ull * (uint64_t)h->levels * p->barrier_stage_ns;
    h->ctrl_ns = 2ull * (uint64_t)h->levels * p->ctrl_stage_ns;
    h->bar_set = calloc((size_t)nodes * NIC_BARRIERS, sizeof *h->bar_set);
    h->ctrl_val = calloc((size_t)nodes, sizeof *h->ctrl_val);
    h->ctrl_op = calloc((size_t)nodes, sizeof *h->ctrl_op);
    h->ctrl_root = calloc((size_t)nodes, sizeof *h->ctrl_root);
    h->fi = calloc((size_t)nodes * NIC_FI_REGS, sizeof *h->fi);
    if (!h->bar_set || !h->ctrl_val || !h->ctrl_op || !h->ctrl_root || !h->fi) {
        hwnet_free(h);
        return -1;
    }
    return 0;
}

void hwnet_free(struct hwnet *h)
{
    free(h->bar_set);
    free(h->ctrl_val);
    free(h->ctrl_op);
    free(h->ctrl_root);
    free(h->fi);
    h->bar_set = NULL;
    h->ctrl_val = NULL;
    h->ctrl_op = h->ctrl_root = NULL;
    h->fi = NULL;
}

int hwnet_barrier_set(struct hwnet *h, int node, uint32_t c, uint64_t t, char *err, size_t errlen)
{
    if (c >= NIC_BARRIERS) {
        snprintf(err, errlen, "barrier circuit %u out of range 0..%d", c, NIC_BARRIERS - 1);
        return -1;
    }
    struct hwnet_circuit *b = &h->bar[c];
    uint64_t *mine = &h->bar_set[(size_t)node * NIC_BARRIERS + c];
    if (*mine) {                  /* by its own descriptors alone, whatever the others did */
        snprintf(err, errlen, "set its bit of barrier circuit %u again without waiting on the circuit in between",
                 c);
        return -1;
    }
    *mine = b->fired + 1;
    if (t > b->t_last || b->set == 0)
        b->t_last = t;
    if (++b->set < h->n)
        return 0;
    b->t_fire = b->t_last + h->bar_ns;
    b->fired++;
    b->set = 0;
    return 1;
}

int hwnet_barrier_wait(struct hwnet *h, int node, uint32_t c, uint64_t t, uint64_t *answer,
                       char *err, size_t errlen)
{
    if (c >= NIC_BARRIERS) {
        snprintf(err, errlen, "barrier circuit %u out of range 0..%d", c, NIC_BARRIERS - 1);
        return -1;
    }
    const struct hwnet_circuit *b = &h->bar[c];
    uint64_t mine = h->bar_set[(size_t)node * NIC_BARRIERS + c];
    if (mine == 0) {
        snprintf(err, errlen, "waits on barrier circuit %u without having set its bit", c);
        return -1;
    }
    if (mine == b->fired + 1)
        return 0;                 /* set, not fired yet */
    /* mine == fired: it fired since, and the node has not set it again */
    h->bar_set[(size_t)node * NIC_BARRIERS + c] = 0;
    *answer = t > b->t_fire ? t : b->t_fire;
    return 1;
}

int hwnet_barrier_count(const struct hwnet *h, uint32_t c) { return c < NIC_BARRIERS ? h->bar[c].set : 0; }

static const char *const kind_names[NIC_CTRL_KINDS] = { "BCAST", "REDUCE", "SCAN" };
static const char *const comb_names[NIC_CTRL_COMBS] = { "SUM", "MAX", "MIN", "OR", "AND", "XOR" };

void hwnet_ctrl_name(uint32_t op, char *buf, size_t len)
{
    uint32_t k = op & 0xff, c = op >> 8;
    if (k == NIC_CTRL_BCAST && c == 0)
        snprintf(buf, len, "BCAST");
    else if (k < NIC_CTRL_KINDS && c < NIC_CTRL_COMBS)
        snprintf(buf, len, "%s %s", kind_names[k], comb_names[c]);
    else
        snprintf(buf, len, "0x%x", op);
}

static int64_t combine(uint32_t comb, int64_t a, int64_t b)
{
    switch (comb) {
    case NIC_CTRL_SUM: return (int64_t)((uint64_t)a + (uint64_t)b);
    case NIC_CTRL_MAX: return a > b ? a : b;
    case NIC_CTRL_MIN: return a < b ? a : b;
    case NIC_CTRL_OR:  return a | b;
    case NIC_CTRL_AND: return a & b;
    default:           return a ^ b;
    }
}

int hwnet_ctrl(struct hwnet *h, int node, uint32_t op, uint32_t root, int64_t value, uint64_t t,
               uint64_t *answer, int *culprit, char *err, size_t errlen)
{
    *culprit = node;
    uint32_t k = op & 0xff, c = op >> 8;
    char a[32], b[32];
    hwnet_ctrl_name(op, a, sizeof a);
    if (k >= NIC_CTRL_KINDS || c >= NIC_CTRL_COMBS || (k == NIC_CTRL_BCAST && c != 0)) {
        snprintf(err, errlen, "control-network operation 0x%x is unknown; accepted: kind (0 BCAST, 1 REDUCE, "
                 "2 SCAN) | combiner << 8 (0 SUM, 1 MAX, 2 MIN, 3 OR, 4 AND, 5 XOR; BCAST takes none)", op);
        return -1;
    }
    if (k == NIC_CTRL_BCAST && root >= (uint32_t)h->n) {
        snprintf(err, errlen, "control-network BCAST from root %u, out of range 0..%d", root, h->n - 1);
        return -1;
    }
    if (k != NIC_CTRL_BCAST)
        root = 0;
    if (h->ctrl_posted == 0 || t > h->ctrl_t_last)
        h->ctrl_t_last = t;
    h->ctrl_op[node] = op;
    h->ctrl_root[node] = root;
    h->ctrl_val[node] = value;
    if (++h->ctrl_posted < h->n)
        return 0;
    h->ctrl_posted = 0;
    for (int i = 1; i < h->n; i++)
        if (h->ctrl_op[i] != h->ctrl_op[0] || h->ctrl_root[i] != h->ctrl_root[0]) {
            hwnet_ctrl_name(h->ctrl_op[i], a, sizeof a);
            hwnet_ctrl_name(h->ctrl_op[0], b, sizeof b);
            snprintf(err, errlen, "posted control-network %s (root %u) where node 0 posted %s (root %u): "
                     "every node must post the same operation", a, h->ctrl_root[i], b, h->ctrl_root[0]);
            *culprit = i;
            return -2;
        }
    op = h->ctrl_op[0];
    root = h->ctrl_root[0];
    k = op & 0xff;
    c = op >> 8;
    *answer = h->ctrl_t_last + h->ctrl_ns;
    if (k == NIC_CTRL_BCAST) {
        int64_t v = h->ctrl_val[root];
        for (int i = 0; i < h->n; i++)
            h->ctrl_val[i] = v;
    } else {
        int64_t acc = h->ctrl_val[0];
        for (int i = 1; i < h->n; i++) {
            acc = combine(c, acc, h->ctrl_val[i]);
            if (k == NIC_CTRL_SCAN)
                h->ctrl_val[i] = acc;
        }
        for (int i = 0; k == NIC_CTRL_REDUCE && i < h->n; i++)
            h->ctrl_val[i] = acc;
    }
    return 1;
}

uint64_t hwnet_fetch_inc(struct hwnet *h, int node, uint32_t reg)
{
    return h->fi[(size_t)node * NIC_FI_REGS + reg]++;
}
