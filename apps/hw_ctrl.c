/* bcast_hw, allreduce_hw, scan_hw: broadcast, all-reduction and scan on a
 * control network beside the data network, as the CM-5's.
 *
 * Source:   McKinley, Tsai and Robinson (seed 002), section 8, "Support
 *           Outside the Data Network": the CM-5's control network "also
 *           uses a binary tree with processors located at the leaves,
 *           provides direct hardware support for three classes of
 *           collective operations: broadcast, reduction, and barrier
 *           synchronization ... the operations must be executed on small,
 *           fixed-length messages; operations on larger messages may be
 *           implemented by cascading multiple operations."
 * Calls:    one net_ctrl() per 64-bit word: bcast_hw cascades
 *           ceil(len / 8) BCASTs (the last word padded with zeros);
 *           allreduce_hw one REDUCE and scan_hw one SCAN (the CM-5's
 *           parallel prefix) per element, an int sign-extended to 64 bits
 *           (sums wrap as the library's do; the low 32 bits are kept).
 * Steps:    none on the data network.
 * Cost:     per operation, the last node's post + 2 ceil(lg p)
 *           ctrl_stage_ns (host/net/hwnet.h), plus the node's own instructions
 *           to post it: words x that, against the software algorithms'
 *           start-ups and transfers (experiments/hwcoll002.sweep).
 * Check:    as the library's apps (apps/coll/apps.c): the root's
 *           pattern(root, p) for bcast_hw, every element against the fold
 *           of value(0..p-1, i) (value(0..me, i) for a scan) by the
 *           library's operator; corrupt=k flips a bit first. The control
 *           network combines integers: type= is int or long.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apps.h"
#include "coll/values.h"
#include "../netdev/net.h"

#define SYNC_CIRCUIT (NIC_BARRIERS - 1)

/* The library's operators (enum coll_rop) as the control network's. */
static const enum nic_ctrl_comb comb_of[COLL_NROPS] = {
    [COLL_SUM] = NIC_CTRL_SUM, [COLL_MAX] = NIC_CTRL_MAX, [COLL_MIN] = NIC_CTRL_MIN,
    [COLL_BAND] = NIC_CTRL_AND, [COLL_BOR] = NIC_CTRL_OR, [COLL_BXOR] = NIC_CTRL_XOR,
};

static void sync_start(void)
{
    if (net_arg_num("sync")) {
        net_barrier_set(SYNC_CIRCUIT);
        net_barrier_wait(SYNC_CIRCUIT);
    }
}

static int report(const char *app, long len, uint64_t t, long bad, const char *what)
{
    int me = net_rank();
    net_record(NIC_REC_COLL_NS, t);
    if (bad)
        net_record(NIC_REC_WRONG, (uint64_t)bad);
    if (me == 0)
        printf("%s: %d nodes, %ld bytes, %llu ns on node 0\n", app, net_nodes(), len, (unsigned long long)t);
    printf("%s: node %d done in %llu ns\n", app, me, (unsigned long long)t);
    if (bad)
        printf("%s: node %d found %ld wrong %s\n", app, me, bad, what);
    return bad ? 1 : 0;
}

int app_bcast_hw(void)
{
    int me = net_rank(), p = net_nodes(), root = (int)net_arg_num("root");
    long len = net_arg_num("len"), runs = net_arg_num("runs"), bad = 0;
    unsigned char *buf = malloc((size_t)len + 8);
    if (!buf) {
        printf("bcast_hw: a buffer of %ld bytes does not fit node memory\n", len);
        return 2;
    }
    uint64_t t = 0;
    for (long run = 0; run < runs; run++) {
        if (me == root)
            pattern_fill(buf, (unsigned)root, (unsigned)p, (size_t)len);
        else
            memset(buf, 0xa5, (size_t)len);
        sync_start();
        uint64_t t0 = net_time_ns();
        for (long off = 0; off < len; off += 8) {
            size_t n = len - off < 8 ? (size_t)(len - off) : 8;
            uint64_t w = 0;
            if (me == root)
                memcpy(&w, buf + off, n);
            w = (uint64_t)net_ctrl(NIC_CTRL_BCAST, NIC_CTRL_SUM, root, (int64_t)w);
            memcpy(buf + off, &w, n);
        }
        t = net_time_ns() - t0;
        if (net_arg_num("corrupt") == me)
            buf[len / 2] ^= 0x10;
        bad += (long)pattern_check(buf, (unsigned)root, (unsigned)p, (size_t)len);
    }
    free(buf);
    return report("bcast_hw", len, t, bad, "bytes");
}

/* allreduce_hw (scan = 0) and scan_hw (scan = 1). */
static int reduce_app(const char *app, int scan)
{
    int me = net_rank(), p = net_nodes();
    long len = net_arg_num("len"), runs = net_arg_num("runs"), bad = 0;
    enum coll_dtype dt = net_arg_num("type") == 1 ? COLL_INT64 : COLL_INT32;
    enum coll_rop rop = (enum coll_rop)net_arg_num("op");
    size_t es = (size_t)coll_dtype_size[dt], count = (size_t)len / es;
    if ((size_t)len % es) {
        printf("%s: len=%ld is not a whole number of %s elements (%d bytes each)\n", app, len,
               coll_dtype_names[dt], (int)es);
        return 2;
    }
    unsigned char *send = malloc((size_t)len), *recv = malloc((size_t)len);
    if (!send || !recv) {
        printf("%s: two buffers of %ld bytes do not fit node memory\n", app, len);
        return 2;
    }
    for (size_t i = 0; i < count; i++)
        put_value(send + i * es, dt, me, i);
    uint64_t t = 0;
    for (long run = 0; run < runs; run++) {
        memset(recv, 0xa5, (size_t)len);
        sync_start();
        uint64_t t0 = net_time_ns();
        for (size_t i = 0; i < count; i++) {
            int64_t v;
            if (dt == COLL_INT32) {
                int32_t x;
                memcpy(&x, send + i * es, 4);
                v = x;
            } else {
                memcpy(&v, send + i * es, 8);
            }
            v = net_ctrl(scan ? NIC_CTRL_SCAN : NIC_CTRL_REDUCE, comb_of[rop], 0, v);
            memcpy(recv + i * es, &v, es);         /* little-endian: the low bytes */
        }
        t = net_time_ns() - t0;
        if (net_arg_num("corrupt") == me)
            recv[len / 2] ^= 0x10;
        bad += check_reduced(recv, count, dt, rop, scan ? me : p - 1);
    }
    free(send);
    free(recv);
    return report(app, len, t, bad, "elements");
}

int app_allreduce_hw(void) { return reduce_app("allreduce_hw", 0); }
int app_scan_hw(void) { return reduce_app("scan_hw", 1); }
