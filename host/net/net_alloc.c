/* The router allocators (net_state.h, struct net_allocator, states their
 * contract; allocs.def lists them). An allocator is a VC allocator, a switch allocator and the
 * priority its arbiters serve by, put together by name; each is written
 * once here and specialised per allocator by the compiler (the key is a
 * constant in each). Dally and Towles, "Principles and Practices of
 * Interconnection Networks", ch. 18 (arbiters) and 19 (allocators). */
#include <string.h>
#include "net_route.h"
#include "net_accel.h"

/* Which requester an arbiter serves first (allocs.def's key):
 * ROTATION the nearest at or after its round-robin pointer; AGE the worm
 * ready to enter the network first (t_ready), then by rotation; ORDER the
 * lowest place, whatever the pointer. */
enum key { KEY_ROTATION, KEY_AGE, KEY_ORDER };

/* The priority of the worm at the front of input VC v, at place `at` of
 * an arbiter whose pointer is ptr over `span` places: lower goes first. */
typedef unsigned __int128 prio_t;
static inline __attribute__((always_inline)) prio_t priority(const struct ivc *v, uint32_t at, uint32_t ptr,
                                                             uint32_t span, enum key k)
{
    if (k == KEY_ORDER)
        return at;
    uint32_t d = at + span - ptr;                /* at, ptr < span: (at - ptr) mod span, no divide */
    prio_t rot = d >= span ? d - span : d;
    if (k == KEY_AGE)
        return (prio_t)v->q[v->head].m->t_ready_ns << 32 | rot;
    return rot;
}

/* The lowest set bit of w at or above `from`, or `end` if none (w has
 * no bits at or above end, end <= 64). */
static inline int next_bit(uint64_t w, int from, int end)
{
    uint64_t rest = from < 64 ? w >> from : 0;
    return rest ? from + __builtin_ctzll(rest) : end;
}

/* The place after `at` of an arbiter over `span` places (at < span):
 * (at + 1) mod span, no divide. */
static inline uint32_t next_of(uint32_t at, uint32_t span) { return at + 1 == span ? 0 : at + 1; }

/* The dateline class an unallocated input VC asks for (0 when none). */
static int va_class(const struct ivc *v) { return v->out_vc == -3; }

/* VC allocation, in order: the heads of n->va_req in ascending input VC
 * order, so input port 0 always goes first. */
static inline __attribute__((always_inline)) int vc_in_order(struct net *n, int node, int nva, uint8_t *seen,
                                                             uint64_t c, enum key k)
{
    (void)k;
    int granted = 0;
    for (int q = 0; q < nva; q++) {
        if (net_vc_grant(n, node, n->va_req[q], c))
            granted++;
        else
            granted += net_refused(n, node, n->va_req[q], seen, c);
    }
    return granted;
}

/* VC allocation by arbiters: each output port, per dateline class, is an
 * arbiter over the input VCs with a round-robin pointer that moves past
 * each one granted; requesters are granted free VCs in priority order.
 * Under ROTATION a waiting requester is granted before any other of its
 * class twice; under AGE the worms ready before it go first, and among
 * equals the same. */
static inline __attribute__((always_inline)) int vc_arbiters(struct net *n, int node, int nva, uint8_t *seen,
                                                             uint64_t c, enum key k)
{
    struct net_router *r = &n->r[node];
    const uint32_t NV = (uint32_t)(n->nin * n->V);
    if (nva == 1 && acc_shortcut(n)) {
        /* a lone requester: its arbiter's grant, or its refusal, without
         * the scans (except in the checking reference, as in sw_separable) */
        const int i = n->va_req[0];
        uint32_t *ptr = &r->out[r->in[i].out_port].va_rr[va_class(&r->in[i])];
        if (net_vc_grant(n, node, i, c)) {
            *ptr = ((uint32_t)i + 1) % NV;
            return 1;
        }
        return net_refused(n, node, i, seen, c);
    }
    int granted = 0;
    /* each (output, class) in turn; in it, requesters by priority. Every
     * requester of one (output, class) wants the same VCs, so once one is
     * refused the rest are too. Only the pairs asked for are visited (bit
     * 2 o + cls of `want`; every pair when they do not fit in 64 bits). */
    const int sparse = 2 * n->nout <= 64;
    uint64_t want = 0;
    for (int q = 0; sparse && q < nva; q++) {
        const struct ivc *v = &r->in[n->va_req[q]];
        want |= 1ull << (2 * v->out_port + va_class(v));
    }
    const int npair = 2 * n->nout;
    for (int pair = sparse ? next_bit(want, 0, npair) : 0; pair < npair;
         pair = sparse ? next_bit(want, pair + 1, npair) : pair + 1) {
        int o = pair / 2, cls = pair % 2;
        uint32_t *ptr = &r->out[o].va_rr[cls];
        for (;;) {
            int qi = -1;
            prio_t best = 0;
            for (int q = 0; q < nva; q++) {
                const struct ivc *v = &r->in[n->va_req[q]];
                if (v->out_port != o || v->out_vc >= 0 || va_class(v) != cls)
                    continue;
                prio_t pr = priority(v, (uint32_t)n->va_req[q], *ptr, NV, k);
                if (qi < 0 || pr < best) {
                    best = pr;
                    qi = q;
                }
            }
            if (qi < 0)
                break;
            if (net_vc_grant(n, node, n->va_req[qi], c)) {
                *ptr = ((uint32_t)n->va_req[qi] + 1) % NV;
                granted++;
                continue;
            }
            for (int q = 0; q < nva; q++) {
                const struct ivc *v = &r->in[n->va_req[q]];
                if (v->out_port == o && v->out_vc < 0 && va_class(v) == cls)
                    granted += net_refused(n, node, n->va_req[q], seen, c);
            }
            break;
        }
    }
    return granted;
}

/* VC allocation for the heads of n->ava_req (ascending), under an
 * adaptive routing: one arbiter for the router, since a head may ask for
 * several outputs, with one round-robin pointer over the router's input
 * VCs. By priority each head takes what the selection function picks
 * among its routing function's candidates with a free VC (net_route.c); a
 * head given none is blocked this cycle, counted against its first
 * candidate's link. */
static inline __attribute__((always_inline)) int vc_adaptive(struct net *n, int node, int nava, uint8_t *seen,
                                                             uint64_t c, enum key k)
{
    struct net_router *r = &n->r[node];
    const uint32_t NV = (uint32_t)(n->nin * n->V);
    int granted = 0;
    for (int left = nava; left > 0; left--) {
        int qi = -1;
        prio_t best = 0;
        for (int q = 0; q < nava; q++) {
            const struct ivc *v = &r->in[n->ava_req[q]];
            if (v->out_vc >= 0 || n->ava_req[q] < 0)
                continue;
            prio_t pr = priority(v, (uint32_t)n->ava_req[q], r->ava_rr, NV, k);
            if (qi < 0 || pr < best) {
                best = pr;
                qi = q;
            }
        }
        int i = n->ava_req[qi];
        n->ava_req[qi] = -1;                     /* served */
        struct ivc *v = &r->in[i];
        struct net_msg *m = v->q[v->head].m;
        struct net_cand cd[NET_MAX_CANDS];
        int nc = net_route_cands(n, node, i / n->V, i % n->V, m, cd), vc;
        int q = net_route_select(n, node, m, cd, nc, c, &vc);
        if (q < 0) {
            net_count_blocked(n, node, v->out_port, m, seen);
            continue;
        }
        net_vc_take(n, node, i, &cd[q], vc);
        r->ava_rr = ((uint32_t)i + 1) % NV;
        granted++;
    }
    return granted;
}

/* Switch request q bids for its output: it becomes the output's pick
 * (n->out_pick) if it goes before the one there, by priority against
 * the output's pointer. With `bid` (at most 64 outputs), the outputs
 * bid for so far: an output not in it has no pick yet, whatever
 * out_pick holds; without, out_pick's -1 says so. */
static inline __attribute__((always_inline)) void bid_for_output(struct net *n, const struct net_router *r, int q,
                                                                 enum key k, uint64_t *bid)
{
    const int V = n->V;
    const uint32_t NV = (uint32_t)(n->nin * V), at = (uint32_t)(n->req_ip[q] * V + n->req_vc[q]);
    const struct ivc *v = &r->in[at];
    const int o = v->out_port;
    int b;
    if (bid) {
        b = *bid >> o & 1 ? n->out_pick[o] : -1;
        *bid |= 1ull << o;
    } else {
        b = n->out_pick[o];
    }
    const uint32_t rr = r->out[o].rr;
    if (b < 0) {
        n->out_pick[o] = q;
        return;
    }
    const uint32_t bat = (uint32_t)(n->req_ip[b] * V + n->req_vc[b]);
    if (priority(v, at, rr, NV, k) < priority(&r->in[bat], bat, rr, NV, k))
        n->out_pick[o] = q;
}

/* Whether switch request q goes before request p of the same input port,
 * by priority against the input's pointer over its VCs. */
static inline __attribute__((always_inline)) int input_prefers(const struct net *n, const struct net_router *r,
                                                               int q, int p, enum key k)
{
    const int V = n->V, ip = n->req_ip[q];
    return priority(&r->in[ip * V + n->req_vc[q]], (uint32_t)n->req_vc[q], r->in_rr[ip], (uint32_t)V, k) <
           priority(&r->in[ip * V + n->req_vc[p]], (uint32_t)n->req_vc[p], r->in_rr[ip], (uint32_t)V, k);
}

/* Switch request q crosses to its output o: the input's pointer and the
 * output's move past it (iSLIP's update), and its front flit goes. */
static inline __attribute__((always_inline)) void cross(struct net *n, struct net_router *r, int node, int q, int o,
                                                        uint64_t c)
{
    const int V = n->V, ip = n->req_ip[q], vc = n->req_vc[q];
    r->in_rr[ip] = next_of((uint32_t)vc, (uint32_t)V);
    r->out[o].rr = next_of((uint32_t)(ip * V + vc), (uint32_t)(n->nin * V));
    net_send_flit(n, node, ip, vc, c);                /* sets in_used[ip] */
}

/* Switch request q did not cross: its worm is blocked this cycle. */
static inline __attribute__((always_inline)) void left_waiting(struct net *n, const struct net_router *r, int node,
                                                               int q, uint8_t *seen)
{
    const struct ivc *v = &r->in[n->req_ip[q] * n->V + n->req_vc[q]];
    net_count_blocked(n, node, v->out_port, v->q[v->head].m, seen);
}

/* Switch allocation, fixed: output by output in port order, each output
 * granting round robin among the requests whose input port has not sent
 * yet this cycle. A request that loses to another input on its output is
 * blocked; one whose input sent elsewhere first is not counted. */
static inline __attribute__((always_inline)) void sw_fixed(struct net *n, int node, int nreq, int nmc, uint64_t c,
                                                           uint8_t *seen, enum key k)
{
    (void)k;
    struct net_router *r = &n->r[node];
    const int V = n->V;
    if (!nmc)
        memset(n->in_used, 0, (size_t)n->nin);
    for (int o = 0; o < n->nout; o++) {
        struct oport *op = &r->out[o];
        int best = -1;
        uint32_t best_key = UINT32_MAX;
        for (int q = 0; q < nreq; q++) {
            struct ivc *v = &r->in[n->req_ip[q] * V + n->req_vc[q]];
            if (v->out_port != o || n->in_used[n->req_ip[q]])
                continue;
            uint32_t idx = (uint32_t)(n->req_ip[q] * V + n->req_vc[q]);
            uint32_t key = (idx + (uint32_t)(n->nin * V) - op->rr) % (uint32_t)(n->nin * V);
            if (key < best_key) {
                best_key = key;
                best = q;
            }
        }
        if (best < 0)
            continue;
        for (int q = 0; q < nreq; q++) {                 /* the losers were blocked */
            struct ivc *v = &r->in[n->req_ip[q] * V + n->req_vc[q]];
            if (q != best && v->out_port == o && !n->in_used[n->req_ip[q]])
                net_count_blocked(n, node, o, v->q[v->head].m, seen);
        }
        op->rr = (uint32_t)(n->req_ip[best] * V + n->req_vc[best] + 1) % (uint32_t)(n->nin * V);
        net_send_flit(n, node, n->req_ip[best], n->req_vc[best], c);
    }
}

/* sw_separable by bit masks, for a router of at most 64 input VCs (so
 * nreq <= 64) and 64 outputs, outside the checking reference (which so
 * compares it with the scans): the inputs with a pick, the outputs bid
 * for, the requests that went. A requesting input moved no flit before
 * (request() leaves out those a multidestination worm used), so one moves
 * this cycle if and only if its pick goes; in_used is set by
 * net_send_flit as ever and not read here. */
static inline __attribute__((always_inline)) void sw_separable_masks(struct net *n, struct net_router *r, int node,
                                                                     int nreq, uint64_t c, uint8_t *seen, enum key k)
{
    uint64_t picked = 0, bid = 0, went = 0;
    for (int q = 0; q < nreq; q++) {
        int ip = n->req_ip[q];
        if (!(picked >> ip & 1)) {
            picked |= 1ull << ip;
            n->in_pick[ip] = q;
        } else if (input_prefers(n, r, q, n->in_pick[ip], k)) {
            n->in_pick[ip] = q;
        }
    }
    for (int q = 0; q < nreq; q++)
        if (n->in_pick[n->req_ip[q]] == q)
            bid_for_output(n, r, q, k, &bid);
    for (; bid; bid &= bid - 1) {                     /* the winners, in output order */
        int o = __builtin_ctzll(bid), best = n->out_pick[o];
        went |= 1ull << best;
        cross(n, r, node, best, o, c);
    }
    for (uint64_t b = ~went & (nreq < 64 ? (1ull << nreq) - 1 : ~0ull); b; b &= b - 1)
        left_waiting(n, r, node, __builtin_ctzll(b), seen);
}

/* Switch allocation, separable input-first: each input port picks one of
 * its requesting VCs by priority against its pointer; each output grants
 * one of the picks aimed at it by priority against its pointer. Pointers
 * move only on a grant (as in iSLIP), past the one granted, so under
 * ROTATION a requester waits at most V - 1 grants of its input and nin V
 * - 1 of its output. Every request that does not move is blocked. A lone
 * request is granted without the scans (its input's pick, its output's
 * grant, both pointers past it, nothing blocked), except in the checking
 * reference, which compares the two. */
static inline __attribute__((always_inline)) void sw_separable(struct net *n, int node, int nreq, int nmc,
                                                               uint64_t c, uint8_t *seen, enum key k)
{
    struct net_router *r = &n->r[node];
    if (nreq == 1 && acc_shortcut(n)) {
        cross(n, r, node, 0, r->in[n->req_ip[0] * n->V + n->req_vc[0]].out_port, c);
        return;
    }
    if (!n->wide && n->nout <= 64 && acc_shortcut(n)) {
        sw_separable_masks(n, r, node, nreq, c, seen, k);
        return;
    }
    /* Only the requesting inputs' entries are read below: those of in_used
     * (net_send_flit sets it) unless multidestination worms used the
     * switch first (mc_switch cleared it, then marked theirs), and in_pick. */
    for (int q = 0; q < nreq; q++) {
        if (!nmc)
            n->in_used[n->req_ip[q]] = 0;
        n->in_pick[n->req_ip[q]] = -1;
    }
    for (int q = 0; q < nreq; q++) {
        int p = n->in_pick[n->req_ip[q]];
        if (p < 0 || input_prefers(n, r, q, p, k))
            n->in_pick[n->req_ip[q]] = q;
    }
    /* each output's best pick, in one pass over the inputs' picks
     * (priorities are distinct among one output's requesters, so the order
     * of the pass does not matter); then the winners cross in output order. */
    for (int o = 0; o < n->nout; o++)
        n->out_pick[o] = -1;
    for (int q = 0; q < nreq; q++)
        if (n->in_pick[n->req_ip[q]] == q)
            bid_for_output(n, r, q, k, NULL);
    for (int o = 0; o < n->nout; o++)
        if (n->out_pick[o] >= 0)
            cross(n, r, node, n->out_pick[o], o, c);
    for (int q = 0; q < nreq; q++) {
        int ip = n->req_ip[q];
        if (!(n->in_used[ip] && n->in_pick[ip] == q))
            left_waiting(n, r, node, q, seen);
    }
}

/* Switch allocation, separable output-first: each output port grants one
 * of the requests aimed at it by priority against its pointer; each input
 * port accepts one of the grants it got (one per output at most, for
 * different VCs) by priority against its pointer. Pointers move only on an
 * acceptance, past the one accepted, as in sw_separable. Every request
 * that does not move is blocked, a granted one its input did not accept
 * too. Where inputs compete for one output the two orders agree; they
 * part when one input's VCs want several outputs: input-first sends one
 * flit from it and may leave those outputs idle, output-first lets every
 * output grant and the input choose among them. */
static inline __attribute__((always_inline)) void sw_output_first(struct net *n, int node, int nreq, int nmc,
                                                                  uint64_t c, uint8_t *seen, enum key k)
{
    struct net_router *r = &n->r[node];
    if (!nmc)
        memset(n->in_used, 0, (size_t)n->nin);
    for (int ip = 0; ip < n->nin; ip++)
        n->in_pick[ip] = -1;
    for (int o = 0; o < n->nout; o++)
        n->out_pick[o] = -1;
    for (int q = 0; q < nreq; q++)                /* grants: each output's best request */
        bid_for_output(n, r, q, k, NULL);
    for (int o = 0; o < n->nout; o++) {           /* acceptances: each input's best grant */
        int q = n->out_pick[o];
        if (q < 0)
            continue;
        int ip = n->req_ip[q], p = n->in_pick[ip];
        if (p < 0 || input_prefers(n, r, q, p, k))
            n->in_pick[ip] = q;
    }
    for (int o = 0; o < n->nout; o++) {           /* the accepted cross, in output order */
        int q = n->out_pick[o];
        if (q >= 0 && n->in_pick[n->req_ip[q]] == q)
            cross(n, r, node, q, o, c);
    }
    for (int q = 0; q < nreq; q++)
        if (n->in_pick[n->req_ip[q]] != q)
            left_waiting(n, r, node, q, seen);
}

/* Each allocator's three functions, its key a constant in each. */
#define ALLOC(id, name, vc, sw, key, doc)                                                          \
    static int vc_##id(struct net *n, int node, int nva, uint8_t *seen, uint64_t c)             \
    {                                                                                           \
        return vc_##vc(n, node, nva, seen, c, KEY_##key);                                       \
    }                                                                                           \
    static int ava_##id(struct net *n, int node, int nava, uint8_t *seen, uint64_t c)           \
    {                                                                                           \
        return vc_adaptive(n, node, nava, seen, c, KEY_##key);                                  \
    }                                                                                           \
    static void sw_##id(struct net *n, int node, int nreq, int nmc, uint64_t c, uint8_t *seen)  \
    {                                                                                           \
        sw_##sw(n, node, nreq, nmc, c, seen, KEY_##key);                                        \
    }
#include "allocs.def"
#undef ALLOC

const struct net_allocator net_allocators[ALLOC_COUNT] = {
#define ALLOC(id, name, vc, sw, key, doc) [ALLOC_##id] = { name, doc, vc_##id, ava_##id, sw_##id },
#include "allocs.def"
#undef ALLOC
};

void net_alloc_list(FILE *f)
{
    fprintf(f, "\nrouter allocators (alloc=NAME, the first the default):\n");
    for (int i = 0; i < ALLOC_COUNT; i++)
        fprintf(f, "  %-15s %s\n", net_allocators[i].name, net_allocators[i].doc);
}
