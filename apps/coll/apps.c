/* The collective apps, one per line of algos.def (app_alltoall_pex() ...):
 * a test and timing harness around the library's calls.
 *
 * Each node plans the collective (coll_init: untimed, as a persistent
 * request), fills its send buffer with the verification pattern
 * (apps/pattern.c: block (s, d) for a complete exchange; for a broadcast
 * the block of s is pattern(s, p), p standing for "every destination"),
 * meets the others in a barrier (ARGS sync=0 skips it), runs the
 * collective under the clock (coll_start), then checks every byte of its
 * receive buffer. ARGS: len= (bytes per block, default 1024), sync=,
 * runs=, oneshot= (below), corrupt=k (node k flips a bit of its receive
 * buffer before checking: the tests' proof that a wrong byte fails the
 * run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../apps.h"
#include "coll.h"
#include "../../netdev/net.h"

/* A dissemination barrier (Hensgen, Finkel and Manber): round k sends an
 * empty message to me + 2^k and waits for one from me - 2^k; after
 * ceil(lg p) rounds every node has heard, indirectly, from every other,
 * and they leave within about one message latency of each other. */
#define BARRIER_TAG (1 << 24)

static void barrier(void)
{
    int me = net_rank(), p = net_nodes();
    for (int k = 0, d = 1; d < p; k++, d *= 2) {
        net_send((me + d) % p, BARRIER_TAG + k, NULL, 0);
        net_recv((me - d + p) % p, BARRIER_TAG + k, NULL, 0, NULL);
    }
}

int coll_app(enum coll_op op, const char *algo)
{
    int me = net_rank(), p = net_nodes(), a2a = op == COLL_ALLTOALL;
    long len = net_arg_int("len", 1024);
    char err[400];
    struct coll_req *req;
    int rc = coll_init(op, algo, len < 0 ? 0 : (size_t)len, &req, err, sizeof err);
    if (rc) {
        printf("%s\n", err);
        return rc;
    }
    const struct coll_algo *a = coll_req_algo(req);
    if (me == 0 && strcmp(algo, a->name))
        printf("%s_%s: chose %s\n", a2a ? "alltoall" : "allgather", algo, a->app);
    size_t L = (size_t)len;
    unsigned char *send = malloc(a2a ? (size_t)p * L : L), *recv = malloc((size_t)p * L);
    if (!send || !recv) {
        printf("%s: send and receive buffers (%d blocks of %ld bytes) do not fit node memory\n", a->app,
               a2a ? 2 * p : p + 1, len);
        return 2;
    }
    if (a2a)
        for (int d = 0; d < p; d++)
            pattern_fill(send + (size_t)d * L, (unsigned)me, (unsigned)d, L);
    else
        pattern_fill(send, (unsigned)me, (unsigned)p, L);

    /* runs=n runs the request n times (a persistent collective), each on a
     * scrubbed receive buffer and checked; oneshot=1 uses the one-call
     * form, planning included in the time. */
    long runs = net_arg_int("runs", 1), oneshot = net_arg_int("oneshot", 0), bad = 0;
    uint64_t t = 0;
    for (long run = 0; run < (runs < 1 ? 1 : runs); run++) {
        memset(recv, 0xa5, (size_t)p * L);
        if (net_arg_int("sync", 1))
            barrier();
        uint64_t t0 = net_time_ns();
        if (oneshot)
            rc = a2a ? coll_alltoall(send, recv, L, algo, err, sizeof err)
                     : coll_allgather(send, recv, L, algo, err, sizeof err);
        else
            rc = coll_start(req, send, recv, err, sizeof err);
        t = net_time_ns() - t0;
        if (rc) {
            printf("%s\n", err);
            return rc;
        }
        if (net_arg_int("corrupt", -1) == me)
            recv[(size_t)(p - 1) * L + L / 2] ^= 0x10;
        for (int s = 0; s < p; s++)
            bad += (long)pattern_check(recv + (size_t)s * L, (unsigned)s, (unsigned)(a2a ? me : p), L);
    }
    if (me == 0)
        printf("%s: %d nodes, %ld bytes per block, %d steps, %llu ns on node 0\n", a->app, p, len,
               coll_req_steps(req), (unsigned long long)t);
    printf("%s: node %d done in %llu ns\n", a->app, me, (unsigned long long)t);
    if (bad)
        printf("%s: node %d found %ld wrong bytes\n", a->app, me, bad);
    coll_free(req);
    return bad ? 1 : 0;
}

#define COLL_alltoall COLL_ALLTOALL
#define COLL_allgather COLL_ALLGATHER
#define COLL_bcast COLL_BCAST
#define COLL_mcast COLL_MCAST
#define COLL_scatter COLL_SCATTER
#define COLL_gather COLL_GATHER
#define COLL_reduce COLL_REDUCE
#define COLL_allreduce COLL_ALLREDUCE
#define COLL_scan COLL_SCAN
#define COLL_barrier COLL_BARRIER
#define COLL_ALGO(op, name, restr, desc) \
    int app_##op##_##name(void) { return coll_app(COLL_##op, #name); }
#include "algos.def"
#undef COLL_ALGO
