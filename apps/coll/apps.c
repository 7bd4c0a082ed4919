/* The collective apps, one per line of algos.def (app_alltoall_pex() ...):
 * a test and timing harness around the library's calls.
 *
 * Each node plans the collective (coll_init: untimed, as a persistent
 * request), fills its send buffer with the verification pattern
 * (apps/pattern.c: block (s, d) for a complete exchange; for a broadcast
 * the block of s is pattern(s, p), p standing for "every destination"),
 * meets the others in a barrier (ARGS sync=0 skips it), runs the
 * collective under the clock (coll_start), then checks every byte of its
 * receive buffer. ARGS (declared per operation by COLL_ARGS in algos.def,
 * checked at boot): len= (bytes per block, default 1024), sync=, runs=,
 * oneshot= (below), corrupt=k (node k flips a bit of its receive buffer
 * before checking: the tests' proof that a wrong byte fails the run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../apps.h"
#include "coll.h"
#include "values.h"
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

/* The end of every collective app: the figures go out through the NIC
 * (records.csv: coll_ns and wrong on every node, steps from node 0) and,
 * for a reader of the console, as lines. per is "" or " per block"; what
 * counts the wrong units. 1 if anything was wrong. */
static int report(const struct coll_algo *a, struct coll_req *req, long len, const char *per, uint64_t t, long bad,
                  const char *what)
{
    int me = net_rank();
    net_record(NIC_REC_COLL_NS, t);
    if (bad)
        net_record(NIC_REC_WRONG, (uint64_t)bad);
    if (me == 0) {
        net_record(NIC_REC_STEPS, (uint64_t)coll_req_steps(req));
        printf("%s: %d nodes, %ld bytes%s, %d steps, %llu ns on node 0\n", a->app, net_nodes(), len, per,
               coll_req_steps(req), (unsigned long long)t);
    }
    printf("%s: node %d done in %llu ns\n", a->app, me, (unsigned long long)t);
    if (bad)
        printf("%s: node %d found %ld wrong %s\n", a->app, me, bad, what);
    return bad ? 1 : 0;
}

static int coll_app_rooted(enum coll_op op, const char *algo);

int coll_app(enum coll_op op, const char *algo)
{
    if (op != COLL_ALLTOALL && op != COLL_ALLGATHER)
        return coll_app_rooted(op, algo);
    int me = net_rank(), p = net_nodes(), a2a = op == COLL_ALLTOALL;
    long len = net_arg_num("len");
    char err[400];
    struct coll_req *req;
    int rc = coll_init(op, algo, len < 0 ? 0 : (size_t)len, &req, err, sizeof err);
    if (rc) {
        printf("%s\n", err);
        return rc;
    }
    const struct coll_algo *a = coll_req_algo(req);
    if (me == 0 && strcmp(algo, a->name))
        printf("%s_%s: chose %s\n", coll_ops[op].name, algo, a->app);
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
    long runs = net_arg_num("runs"), oneshot = net_arg_num("oneshot"), bad = 0;
    uint64_t t = 0;
    for (long run = 0; run < runs; run++) {
        memset(recv, 0xa5, (size_t)p * L);
        if (net_arg_num("sync"))
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
        if (net_arg_num("corrupt") == me)
            recv[(size_t)(p - 1) * L + L / 2] ^= 0x10;
        for (int s = 0; s < p; s++)
            bad += (long)pattern_check(recv + (size_t)s * L, (unsigned)s, (unsigned)(a2a ? me : p), L);
    }
    rc = report(a, req, len, " per block", t, bad, "bytes");
    coll_free(req);
    return rc;
}


/* --- the other operations' apps --------------------------------------------
 *
 * bcast_*, mcast_*: the root fills len bytes with pattern(root, p); every
 * node of the target checks every byte, and a multicast's other nodes
 * check that their buffer was not written. scatter_*: the root's block
 * for d is pattern(root, d); gather_*: node s sends pattern(s, root).
 * reduce_*, allreduce_*, scan_*: node v contributes element i = value(v, i)
 * (below) and each node that gets a result computes the expected one by
 * itself, folding value(0..p-1, i) (value(0..me, i) for a scan) with the
 * operator. barrier_*: node late= (default p-1) enters delay= ns (default
 * 20000) after the others; every node's exit must come after that entry
 * (it learns the entry time from a message after the barrier).
 */

/* An ARGS word, in the form coll_ctx_from_args reads them. */
static const char *arg_of(const char *key, void *u)
{
    (void)u;
    return net_arg(key);
}

static void spin_ns(uint64_t ns)
{
    uint64_t t0 = net_time_ns();
    while (net_time_ns() - t0 < ns)
        ;
}

/* The call c by its one-call form (coll.h). */
static int call_once(const struct coll_call *c, unsigned char *send, unsigned char *recv, const int *set,
                     char *err, size_t errlen)
{
    const struct coll_ctx *x = &c->cx;
    size_t count = c->len / (size_t)coll_dtype_size[x->dtype];
    switch (c->op) {
    case COLL_BCAST: return coll_bcast(send, c->len, x->root, c->algo, err, errlen);
    case COLL_MCAST: return coll_mcast(send, c->len, x->root, set, x->nset, c->algo, err, errlen);
    case COLL_SCATTER: return coll_scatter(send, recv, c->len, x->root, c->algo, err, errlen);
    case COLL_GATHER: return coll_gather(send, recv, c->len, x->root, c->algo, err, errlen);
    case COLL_REDUCE: return coll_reduce(send, recv, count, x->dtype, x->rop, x->root, c->algo, err, errlen);
    case COLL_ALLREDUCE: return coll_allreduce(send, recv, count, x->dtype, x->rop, c->algo, err, errlen);
    case COLL_SCAN: return coll_scan(send, recv, count, x->dtype, x->rop, c->algo, err, errlen);
    case COLL_BARRIER: return coll_barrier(c->algo, err, errlen);
    default: return 2;
    }
}

static int coll_app_rooted(enum coll_op op, const char *algo)
{
    int me = net_rank(), p = net_nodes();
    static int set[COLL_MAX_SET];
    struct coll_call c = { op, algo, 0, { 0 } };
    char err[400];
    if (coll_ctx_from_args(op, arg_of, NULL, p, &c.cx, set, err, sizeof err)) {
        printf("%s_%s: %s\n", coll_ops[op].name, algo, err);
        return 2;
    }
    long len = op == COLL_BARRIER ? 0 : net_arg_num("len");
    c.len = len < 0 ? 0 : (size_t)len;
    struct coll_req *req;
    int rc = coll_init_call(&c, &req, err, sizeof err);
    if (rc) {
        printf("%s\n", err);
        return rc;
    }
    const struct coll_algo *a = coll_req_algo(req);
    if (me == 0 && strcmp(algo, a->name))
        printf("%s_%s: chose %s\n", coll_ops[op].name, algo, a->app);
    int root = c.cx.root, member = op != COLL_MCAST || me == root;
    for (int i = 0; op == COLL_MCAST && i < c.cx.nset; i++)
        member |= set[i] == me;
    size_t L = c.len, es = (size_t)coll_dtype_size[c.cx.dtype], count = L / es;
    size_t sbytes = op == COLL_SCATTER ? (size_t)p * L : L, rbytes = op == COLL_GATHER ? (size_t)p * L : L;
    unsigned char *send = malloc(sbytes ? sbytes : 1), *recv = malloc(rbytes ? rbytes : 1);
    if (!send || !recv) {
        printf("%s: buffers of %lu and %lu bytes do not fit node memory\n", a->app, (unsigned long)sbytes,
               (unsigned long)rbytes);
        return 2;
    }
    /* A barrier takes late= and delay=; the others corrupt= (algos.def). */
    int bar = op == COLL_BARRIER;
    long late = bar ? net_arg_num("late") : -1, delay = bar ? net_arg_num("delay") : 0;
    long corrupt = bar ? -1 : net_arg_num("corrupt");
    long runs = net_arg_num("runs"), oneshot = net_arg_num("oneshot"), bad = 0;
    uint64_t t = 0;
    for (long run = 0; run < runs; run++) {
        switch (op) {
        case COLL_BCAST: case COLL_MCAST:
            if (me == root)
                pattern_fill(send, (unsigned)root, (unsigned)p, L);
            else
                memset(send, 0xa5, L);
            break;
        case COLL_SCATTER:
            for (int d = 0; me == root && d < p; d++)
                pattern_fill(send + (size_t)d * L, (unsigned)root, (unsigned)d, L);
            break;
        case COLL_GATHER:
            pattern_fill(send, (unsigned)me, (unsigned)root, L);
            break;
        default:
            for (size_t i = 0; i < count; i++)
                put_value(send + i * es, c.cx.dtype, me, i);
        }
        memset(recv, 0xa5, rbytes);
        if (net_arg_num("sync"))
            barrier();
        uint64_t t_in = 0;
        if (op == COLL_BARRIER && me == late)
            spin_ns((uint64_t)delay);
        uint64_t t0 = net_time_ns();
        t_in = t0;
        void *in = op == COLL_BCAST || op == COLL_MCAST ? (void *)send : recv;
        if (oneshot)                         /* the one-call forms, planning included */
            rc = call_once(&c, send, recv, set, err, sizeof err);
        else
            rc = coll_start(req, send, in, err, sizeof err);
        t = net_time_ns() - t0;
        if (rc) {
            printf("%s\n", err);
            return rc;
        }
        unsigned char *got = op == COLL_BCAST || op == COLL_MCAST ? send : recv;
        if (corrupt == me)
            got[(op == COLL_GATHER ? rbytes : L) / 2] ^= 0x10;
        switch (op) {
        case COLL_BCAST: case COLL_MCAST:
            if (member)
                bad += (long)pattern_check(got, (unsigned)root, (unsigned)p, L);
            else
                for (size_t i = 0; i < L; i++)
                    bad += got[i] != 0xa5;
            break;
        case COLL_SCATTER:
            bad += (long)pattern_check(got, (unsigned)root, (unsigned)me, L);
            break;
        case COLL_GATHER:
            for (int s = 0; me == root && s < p; s++)
                bad += (long)pattern_check(got + (size_t)s * L, (unsigned)s, (unsigned)root, L);
            break;
        case COLL_REDUCE: case COLL_ALLREDUCE: case COLL_SCAN:
            if (op != COLL_REDUCE || me == root)
                bad += check_reduced(got, count, c.cx.dtype, c.cx.rop, op == COLL_SCAN ? me : p - 1);
            break;
        case COLL_BARRIER: {                 /* nobody left before the late node came */
            uint64_t t_out = t0 + t, late_in = t_in;
            net_step(0);                     /* the check's messages are no step of the barrier's: step 0,
                                              * with the start barrier (steps.csv, the sweep's columns) */
            for (int v = 0; me == late && v < p; v++)
                if (v != me)
                    net_send(v, BARRIER_TAG - 1, &late_in, sizeof late_in);
            if (me != late)
                net_recv((int)late, BARRIER_TAG - 1, &late_in, sizeof late_in, NULL);
            if (t_out < late_in) {
                printf("%s: node %d left the barrier at %llu ns, before node %ld entered at %llu ns\n", a->app,
                       me, (unsigned long long)t_out, late, (unsigned long long)late_in);
                bad++;
            }
            break;
        }
        default:
            break;
        }
    }
    rc = report(a, req, len, "", t, bad, coll_ops[op].unit == COLL_U_ELEMENTS ? "elements" : "bytes");
    coll_free(req);
    free(send);
    free(recv);
    return rc;
}

/* The apps of the algorithms with multidestination worms (worms.def):
 * a broadcast or multicast filled, timed and checked as above, run by
 * coll_start_worms (the one-call form is the same request). */
int coll_worm_app(enum coll_op op, const char *algo)
{
    int me = net_rank(), p = net_nodes();
    static int set[COLL_MAX_SET];
    struct coll_call c = { op, algo, 0, { 0 } };
    struct coll_req *req;
    char err[400];
    int rc = coll_ctx_from_args(op, arg_of, NULL, p, &c.cx, set, err, sizeof err) ? 2 : 0;
    long len = net_arg_num("len"), runs = net_arg_num("runs"), corrupt = net_arg_num("corrupt"), bad = 0;
    c.len = len < 0 ? 0 : (size_t)len;
    if (rc || (rc = coll_init_call(&c, &req, err, sizeof err)) || (rc = coll_worms_prepare(req, err, sizeof err))) {
        printf("%s\n", err);
        return rc;
    }
    const struct coll_algo *a = coll_req_algo(req);
    int root = c.cx.root, member = op != COLL_MCAST || me == root;
    for (int i = 0; op == COLL_MCAST && i < c.cx.nset; i++)
        member |= set[i] == me;
    size_t L = c.len;
    unsigned char *buf = malloc(L ? L : 1);
    if (!buf) {
        printf("%s: a buffer of %lu bytes does not fit node memory\n", a->app, (unsigned long)L);
        return 2;
    }
    uint64_t t = 0;
    for (long run = 0; run < runs; run++) {
        if (me == root)
            pattern_fill(buf, (unsigned)root, (unsigned)p, L);
        else
            memset(buf, 0xa5, L);
        if (net_arg_num("sync"))
            barrier();
        uint64_t t0 = net_time_ns();
        rc = coll_start_worms(req, buf, buf, err, sizeof err);
        t = net_time_ns() - t0;
        if (rc) {
            printf("%s\n", err);
            return rc;
        }
        if (corrupt == me)
            buf[L / 2] ^= 0x10;
        if (member)
            bad += (long)pattern_check(buf, (unsigned)root, (unsigned)p, L);
        else
            for (size_t i = 0; i < L; i++)
                bad += buf[i] != 0xa5;
    }
    rc = report(a, req, len, "", t, bad, "bytes");
    coll_worms_free(req);
    coll_free(req);
    free(buf);
    return rc;
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
#define COLL_WORM_ALGO(op, name, restr, desc) \
    int app_##op##_##name(void) { return coll_worm_app(COLL_##op, #name); }
#include "worms.def"
#undef COLL_WORM_ALGO
