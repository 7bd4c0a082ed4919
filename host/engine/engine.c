/* The router engine: the NIC protocol and the clock server of a run (the
 * network model's routers are its switches, host/net/); see engine.h for
 * the synchronisation argument. */
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "engine_int.h"
#include "out/trace.h"
#include "params.h"

#define SHM32(n, off) (*(volatile uint32_t *)((n)->shm + (off)))

static struct nic_config *cfg_of(struct node *n) { return (struct nic_config *)(n->shm + NIC_CONFIG_OFF); }
static volatile struct nic_status *status_of(struct node *n) { return (volatile struct nic_status *)(n->shm + NIC_STATUS_OFF); }

/* The NIC's full injection rate, all its channels at one flit per
 * nic_cycles: *bytes every *ps. The fluid model of its queue
 * (engine_nic_queue_check) drains at it; the node's copy of it (nic_config) lets
 * a program keep under held_max (apps/mpi/p2p.c). */
static void nic_rate(const struct engine *r, uint64_t *bytes, uint64_t *ps)
{
    *bytes = (uint64_t)net_nic_channels(r->net) * r->p.net.flit_bytes;
    *ps = (uint64_t)r->p.net.nic_cycles * net_cycle_ps(r->net);
}

#define OP_NAME_(name, value, text) [value] = text,
static const char *const op_names[NIC_OP_END] = { NIC_OPS(OP_NAME_) };
#undef OP_NAME_

const char *engine_op_name(uint32_t op)
{
    return op < NIC_OP_END && op_names[op] ? op_names[op] : "?";
}

#define REC_NAME_(name, value, text) [value] = text,
static const char *const record_names[NIC_REC_COUNT] = { NIC_RECORDS(REC_NAME_) };
#undef REC_NAME_

const char *engine_record_name(unsigned key)
{
    return key < NIC_REC_COUNT ? record_names[key] : "?";
}

/* --- the in-flight heap, ordered by (t_arrive, src, seq): a total order
 * that does not depend on the order the host learned of the messages. */
static int msg_before(const struct msg *a, const struct msg *b)
{
    if (a->t_arrive != b->t_arrive)
        return a->t_arrive < b->t_arrive;
    if (a->src != b->src)
        return a->src < b->src;
    return a->seq < b->seq;
}

int engine_heap_push(struct engine *r, struct msg *m)
{
    if (r->heap_len == r->heap_cap) {
        size_t cap = r->heap_cap ? 2 * r->heap_cap : 256;
        struct msg **h = realloc(r->heap, cap * sizeof *h);
        if (!h)
            return engine_stop(r, "out of memory for %zu messages in flight", cap);
        r->heap = h;
        r->heap_cap = cap;
    }
    size_t i = r->heap_len++;
    while (i && msg_before(m, r->heap[(i - 1) / 2])) {
        r->heap[i] = r->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->heap[i] = m;
    return 0;
}

static struct msg *heap_pop(struct engine *r)
{
    struct msg *top = r->heap[0], *last = r->heap[--r->heap_len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= r->heap_len)
            break;
        if (c + 1 < r->heap_len && msg_before(r->heap[c + 1], r->heap[c]))
            c++;
        if (!msg_before(r->heap[c], last))
            break;
        r->heap[i] = r->heap[c];
        i = c;
    }
    if (r->heap_len)
        r->heap[i] = last;
    return top;
}

/* --- The bounds ---------------------------------------------------------
 *
 * The router needs, after every event, the safe time S (the least bound
 * of a running node, 0 while one boots) and the blocked node with the
 * earliest request not yet checked. A scan of every node per event made
 * the router's cost grow with the machine; instead two tournament trees
 * hold, at each inner slot, the leaf that wins below it, and every change
 * of a node's state, bound or request goes through engine_touch(), which
 * replays its path to the root. Ties go to the lowest rank, as the scan
 * did. */
static uint64_t key_of(const struct engine *r, int k, int i)
{
    if (i < 0)
        return SIM_INF;
    const struct node *n = &r->nodes[i];
    if (k == 0)
        return n->state == NODE_BOOT ? 0 : n->state == NODE_RUNNING ? n->lb : SIM_INF;
    return n->state == NODE_BLOCKED && !n->blk_checked ? n->blk.time_ns : SIM_INF;
}

static int winner(const struct engine *r, int k, int a, int b)
{
    if (a < 0 || b < 0)
        return a < 0 ? b : a;
    uint64_t ka = key_of(r, k, a), kb = key_of(r, k, b);
    return kb < ka || (kb == ka && b < a) ? b : a;
}

void engine_touch(struct engine *r, const struct node *n)
{
    for (int k = 0; k < 2; k++) {
        int *w = r->win[k];
        for (int s = (r->tree_size + n->rank) / 2; s >= 1; s /= 2)
            w[s] = winner(r, k, w[2 * s], w[2 * s + 1]);
    }
}

/* The winner of tree k, with its key in *key (SIM_INF: none). */
static int top(const struct engine *r, int k, uint64_t *key)
{
    int i = r->win[k][1];
    *key = key_of(r, k, i);
    return *key == SIM_INF ? -1 : i;
}

static int trees_init(struct engine *r)
{
    int size = 1;
    while (size < r->n)
        size *= 2;
    r->tree_size = size;
    for (int k = 0; k < 2; k++) {
        r->win[k] = malloc(2 * (size_t)size * sizeof *r->win[k]);
        if (!r->win[k])
            return -1;
        for (int i = 0; i < size; i++)
            r->win[k][size + i] = i < r->n ? i : -1;
        for (int s = size - 1; s >= 1; s--)
            r->win[k][s] = winner(r, k, r->win[k][2 * s], r->win[k][2 * s + 1]);
    }
    return 0;
}

int engine_bounds_consistent(const struct engine *r)
{
    for (int k = 0; k < 2; k++) {
        uint64_t best = SIM_INF, key;
        int bi = -1;
        for (int i = 0; i < r->n; i++) {
            uint64_t ki = key_of(r, k, i);
            if (ki < best) {
                best = ki;
                bi = i;
            }
        }
        if (top(r, k, &key) != bi || key != best)
            return 0;
    }
    return 1;
}

int engine_init(struct engine *r, const struct topo_shape *m, const struct params *p)
{
    memset(r, 0, sizeof *r);
    r->m = *m;
    r->p = *p;
    r->held_limit = (uint64_t)HELD_TOTAL_FACTOR * p->held_max;
    r->n = m->nodes;
    r->failed_node = -1;
    r->nodes = calloc((size_t)r->n, sizeof *r->nodes);
    if (!r->nodes)
        return -1;
    r->net = net_new(m, &p->net, r->error, sizeof r->error);
    if (!r->net)
        return -1;
    for (int i = 0; i < r->n; i++) {
        r->nodes[i].rank = i;
        r->nodes[i].flood_rules_ns = SIM_INF;
    }
    if (trees_init(r) || hwnet_init(&r->hw, r->n, p)) {
        snprintf(r->error, sizeof r->error, "out of memory for the bounds and the hardware registers of %d nodes",
                 r->n);
        return -1;
    }
    return 0;
}

void engine_free(struct engine *r)
{
    pair_free(&r->pairs);          /* before in_net: it reads the chains */
    for (int i = 0; i < r->n; i++)
        for (struct msg *m = r->nodes[i].mbox, *nx; m; m = nx) {
            nx = m->next;
            free(m);
        }
    for (size_t i = 0; i < r->heap_len; i++)
        free(r->heap[i]);
    for (struct msg *m = r->in_net, *nx; m; m = nx) {
        nx = m->net_next;
        if (m->kind == MSG_MDW)
            net_mc_release(m->nm.mc);
        free(m);
    }
    for (struct msg *m = r->rdv_held, *nx; m; m = nx) {
        nx = m->net_next;
        free(m);
    }
    free(r->heap);
    net_free(r->net);
    hwnet_free(&r->hw);
    for (int i = 0; i < r->n; i++) {
        struct node *n = &r->nodes[i];
        for (int k = 0; k < n->nfloods; k++) {
            free(n->floods[k].have);
            free(n->floods[k].got);
            free(n->floods[k].data);
        }
        free(n->floods);
        free(n->floods_done);
        free(n->pats);
    }
    free(r->flood_rules);
    free(r->log);
    free(r->nodes);
    free(r->win[0]);
    free(r->win[1]);
}

void engine_attach(struct engine *r, int rank, uint8_t *shm, size_t size,
                   const char *app, const char *args)
{
    struct node *n = &r->nodes[rank];
    n->shm = shm;
    n->shm_size = size;
    /* Everything of the first page but hello starts afresh. A pool's node
     * may be booting meanwhile and write hello at any time (nic_shm.h), so
     * hello is never written here: a write-back could undo the node's. */
    _Static_assert(offsetof(struct nic_status, hello) == 0, "hello opens the status block");
    memset(shm, 0, NIC_STATUS_OFF);
    memset(shm + NIC_STATUS_OFF + sizeof(uint32_t), 0, NIC_RING_OFF - NIC_STATUS_OFF - sizeof(uint32_t));
    struct nic_config *c = cfg_of(n);
    struct layout l = layout_of(r, n);
    c->magic = NIC_MAGIC;
    c->version = NIC_VERSION;
    c->rank = (uint32_t)rank;
    c->shape = r->m;
    c->shm_size = (uint32_t)size;
    c->ring_off = l.ring_off;
    c->ring_slots = l.ring_slots;
    c->rx_size = l.rx_size;
    c->rx_off = l.rx_off;
    c->tx_off = l.tx_off;
    c->tx_size = l.tx_size;
    c->msg_max = r->p.msg_max;
    c->ps_per_instr = r->p.ps_per_instr;
    c->t_send_ns = r->p.t_send_ns;
    c->t_recv_ns = r->p.t_recv_ns;
    c->ram_mib = r->p.ram_mib;
    c->held_max = r->p.held_max;
    c->eager_max = r->p.eager_max;
    c->isa_period = r->isa_period;
    c->isa_bits = r->isa_bits;
    uint64_t fb, fps;
    nic_rate(r, &fb, &fps);
    while (fps > UINT32_MAX) {       /* both halved, the time up and the bytes down: never faster */
        fps = (fps + 1) / 2;
        fb /= 2;
    }
    c->nic_flit_bytes = (uint32_t)fb;
    c->nic_flit_ps = (uint32_t)fps;
    snprintf(c->app, sizeof c->app, "%s", app);
    snprintf(c->args, sizeof c->args, "%s", args ? args : "");
    reply_of(n)->seq = 0xffffffffu;      /* answers no descriptor yet */
    n->link_up = 0;
    n->state = NODE_BOOT;
    engine_touch(r, n);
}

void engine_set_held_limit(struct engine *r, uint64_t bytes)
{
    if (bytes < r->held_limit)
        r->held_limit = bytes;
}

void engine_node_waits_after_exit(struct engine *r, int rank)
{
    cfg_of(&r->nodes[rank])->after_exit = NIC_AFTER_EXIT_WAIT;
}

int engine_node_hello(struct engine *r, int rank)
{
    struct node *n = &r->nodes[rank];
    volatile struct nic_status *st = status_of(n);
    uint32_t hello = st->hello;
    if (n->state != NODE_BOOT || !hello || hello == n->link_up)
        return 0;
    __sync_synchronize();            /* the configuration before link_up */
    st->link_up = n->link_up = hello;
    n->state = NODE_RUNNING;
    n->lb = 0;
    engine_touch(r, n);
    return 1;
}

int engine_fail(struct engine *r, struct node *n, const char *fmt, ...)
{
    if (r->failed_node < 0) {
        va_list ap;
        int o = snprintf(r->error, sizeof r->error, "node %d: ", n->rank);
        va_start(ap, fmt);
        vsnprintf(r->error + o, sizeof r->error - (size_t)o, fmt, ap);
        va_end(ap);
        r->failed_node = n->rank;
    }
    n->state = NODE_FAILED;
    engine_touch(r, n);
    return -1;
}

/* An error that is no node's: the run stops. */
int engine_stop(struct engine *r, const char *fmt, ...)
{
    r->stopped = 1;
    if (!r->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->error, sizeof r->error, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void engine_node_failed(struct engine *r, int rank)
{
    r->nodes[rank].state = NODE_FAILED;
    engine_touch(r, &r->nodes[rank]);
}

/* A worm that is matched at its destination in its pair's order: a
 * node's message, or the request-to-send standing for one (a rendezvous'
 * data is matched before it is sent). */
static int pair_ordered(const struct msg *m)
{
    return (m->kind == MSG_DATA && !m->rdv_data) || m->kind == MSG_RTS;
}

/* Put m on (take it off) the list of messages in the network; a node's
 * message also joins its pair's chain (pair_order.h). */
void engine_net_link(struct engine *r, struct msg *m)
{
    if (pair_ordered(m) && pair_sent(&r->pairs, m))
        engine_stop(r, "out of memory for the order of the messages in flight");
    list_push(&r->in_net, m);
}

static void net_unlink(struct engine *r, struct msg *m) { list_remove(&r->in_net, m); }

/* Hand a message to the network: it may enter after the send start-up. */
static void inject(struct engine *r, struct msg *m)
{
    inject_worm(r, m, m->t_post + r->p.t_send_ns, 0);
    r->nodes[m->src].unleft++;
}

/* A worm's record with room for len bytes of payload: its kind, ends,
 * tag, length, post time and the source's next number (nic_made: in the
 * NIC's own sequence, NIC_SEQ_BASE); every other field zero. NULL once
 * the run stopped for want of memory. */
struct msg *engine_msg_new(struct engine *r, int kind, int src, int dst, uint32_t tag, uint32_t len, uint64_t t,
                           int nic_made)
{
    struct msg *m = malloc(sizeof *m + len);
    if (!m) {
        engine_stop(r, "out of memory for a message of %u bytes", len);
        return NULL;
    }
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->src = src;
    m->dst = dst;
    m->tag = tag;
    m->len = len;
    m->t_post = t;
    struct node *s = &r->nodes[src];
    m->seq = nic_made ? NIC_SEQ_BASE | s->nic_seq++ : s->next_seq++;
    return m;
}

void engine_answer(struct engine *r, struct node *n, uint32_t status, const struct msg *m,
                   uint64_t t)
{
    if (r->desc_log)
        fprintf(r->desc_log, "%12llu node %d: answer %s #%u status %u%s%d\n", (unsigned long long)t,
                n->rank, engine_op_name(n->blk.op), n->blk.seq, status, m ? " from " : "", m ? m->src : -1);
    volatile struct nic_reply *rep = reply_of(n);
    rep->status = status;
    rep->src = m ? (uint32_t)m->src : 0;
    rep->tag = m ? m->tag : 0;
    rep->len = m ? m->len : 0;
    rep->time_ns = t;
    __sync_synchronize();
    rep->seq = n->blk.seq;
    __sync_synchronize();
    if (t > n->blk.time_ns)
        n->wait_ns += t - n->blk.time_ns;
    if (r->timeline && t > n->blk.time_ns) {
        char d[40];
        if (m)
            snprintf(d, sizeof d, "got %u bytes from %d, tag %u", m->len, m->src, m->tag);
        else
            snprintf(d, sizeof d, "%s", status == NIC_REPLY_NONE ? "nothing" : "");
        trace_node(r->timeline, n->rank, engine_op_name(n->blk.op), n->blk.time_ns, t, d);
    }
    n->state = NODE_RUNNING;
    /* Lookahead: the driver puts a node that received a message at t
     * (netdev/nic.c, net_recv) at t + t_recv_ns, so it posts nothing
     * earlier, and handle() refuses a descriptor that does. The arrivals
     * of that window can be delivered without waiting for the node to run
     * (docs/design.md, The router's synchronisation). */
    n->lb = t + (n->blk.op == NIC_OP_RECV && status == NIC_REPLY_OK ? r->p.t_recv_ns : 0);
    engine_touch(r, n);
    r->progress++;
    r->notify(r->ctx, n->rank);
}

/* One of node n's messages is out of its NIC at t (its tail left, or the
 * NIC dropped a rendezvous' data whose receiver ended): a WAIT_SENT
 * waiting for it is answered once none is left. */
static void gone(struct engine *r, struct node *n, uint64_t t)
{
    if (t > n->last_leave)
        n->last_leave = t;
    if (--n->unleft == 0 && n->state == NODE_BLOCKED && n->blk.op == NIC_OP_WAIT_SENT)
        engine_answer(r, n, NIC_REPLY_OK, NULL, n->last_leave > n->blk.time_ns ? n->last_leave : n->blk.time_ns);
}

/* Hand message m (already unlinked) to node n's pending RECV at time t. */
static void receive(struct engine *r, struct node *n, struct msg *m, uint64_t t)
{
    struct layout l = layout_of(r, n);
    uint32_t status = NIC_REPLY_OK;
    if (m->len > n->blk.len)
        status = NIC_REPLY_TRUNC;
    else
        memcpy(n->shm + l.rx_off, m->data, m->len);
    n->recvs++;
    n->bytes_recv += m->len;
    n->held_in -= held_of(m);
    engine_answer(r, n, status, m, t);
    release(r, m);
}

/* Node n's RECV takes m from its mailbox at t: a message is received, a
 * request-to-send accepted. */
static void take(struct engine *r, struct node *n, struct msg *m, uint64_t t)
{
    if (m->kind == MSG_RTS)
        engine_rdv_accept(r, n, m, t);
    else
        receive(r, n, m, t);
}

/* A message that will never be received (its destination ended, at t):
 * the data a request stands for goes with it, dropped by its sender's NIC
 * at t, which a WAIT_SENT there no longer waits for. */
static void drop(struct engine *r, struct msg *m, uint64_t t)
{
    r->unreceived++;
    if (m->kind == MSG_RTS) {
        struct msg *dm = m->rdv;
        list_remove(&r->rdv_held, dm);
        gone(r, &r->nodes[dm->src], t);
        release(r, dm);
        free(m);
    } else {
        release(r, m);
    }
}

/* A RECV or PROBE's off is the mask of the tag bits that must match, 0
 * meaning all of them (netdev/nic_shm.h): MPI's MPI_ANY_TAG within one
 * communicator (apps/mpi/) matches the communicator's bits only. */
static int pattern_matches(uint32_t src, uint32_t tag, uint32_t mask, const struct msg *m)
{
    if (!mask)
        mask = 0xffffffffu;
    return (src == NIC_ANY || src == (uint32_t)m->src) && (tag == NIC_ANY || ((tag ^ m->tag) & mask) == 0);
}

/* The first of the blocked PROBE_ANY's patterns m matches; -1 if none. */
static int pattern_of(const struct node *n, const struct msg *m)
{
    for (uint32_t k = 0; k < n->npats; k++)
        if (pattern_matches(n->pats[k].src, n->pats[k].tag, n->pats[k].mask, m))
            return (int)k;
    return -1;
}

/* Whether m is what node n's blocking RECV, PROBE or PROBE_ANY waits for. */
static int matches(const struct node *n, const struct msg *m)
{
    if (n->blk.op == NIC_OP_PROBE_ANY)
        return pattern_of(n, m) >= 0;
    return pattern_matches(n->blk.peer, n->blk.tag, n->blk.off, m);
}

/* The first matching message in n's mailbox (arrival order), unlinked if
 * take is set. */
static struct msg *mbox_find(struct node *n, int take)
{
    struct msg *prev = NULL;
    for (struct msg *m = n->mbox; m; prev = m, m = m->next) {
        if (!matches(n, m))
            continue;
        if (take) {
            if (prev)
                prev->next = m->next;
            else
                n->mbox = m->next;
            if (n->mbox_tail == m)
                n->mbox_tail = prev;
            m->next = NULL;
        }
        return m;
    }
    return NULL;
}

/* Free a node's mailbox, at t: what it never received. */
static void drop_mbox(struct engine *r, struct node *n, uint64_t t)
{
    for (struct msg *m = n->mbox, *nx; m; m = nx) {
        nx = m->next;
        drop(r, m, t);
    }
    n->mbox = n->mbox_tail = NULL;
    n->held_in = 0;
}

/* Answer node n's PROBE_ANY with m, left in its mailbox, at t: m's status
 * as PROBE gives it (a request-to-send's data), the pattern in value. */
static void probe_answer(struct engine *r, struct node *n, const struct msg *m, uint64_t t)
{
    reply_of(n)->value = (uint64_t)pattern_of(n, m);
    engine_answer(r, n, NIC_REPLY_OK, m->kind == MSG_RTS ? m->rdv : m, t);
}

static void deliver(struct engine *r, struct msg *m)
{
    struct node *n = &r->nodes[m->dst];
    if (m->kind == MSG_FLOOD) {
        engine_flood_delivered(r, n, m);
        return;
    }
    if (m->kind == MSG_FI_REPLY) {            /* the requester waits in FETCH_INC */
        if (n->state == NODE_BLOCKED && n->blk.op == NIC_OP_FETCH_INC)
            answer_value(r, n, m->value, m->t_arrive);
        free(m);
        return;
    }
    if (m->rdv_data) {                        /* the RECV that took its request waits for it */
        if (n->state == NODE_BLOCKED && n->rdv_wait == m) {
            n->rdv_wait = NULL;
            n->held_in += held_of(m);
            receive(r, n, m, m->t_arrive);
        } else {
            drop(r, m, m->t_arrive);          /* its receiver failed while waiting */
        }
        return;
    }
    if (n->state == NODE_EXITED || n->state == NODE_FAILED) {
        /* (a request's sender learns it no sooner than the node's end) */
        drop(r, m, n->state == NODE_EXITED && n->finish_ns > m->t_arrive ? n->finish_ns : m->t_arrive);
        return;
    }
    m->next = NULL;
    if (n->mbox_tail)
        n->mbox_tail->next = m;
    else
        n->mbox = m;
    n->mbox_tail = m;
    n->held_in += held_of(m->kind == MSG_RTS ? m->rdv : m);   /* a request: the data it holds back */
    if (n->state == NODE_BLOCKED && n->blk_checked && n->blk.op == NIC_OP_RECV && !n->rdv_wait &&
        matches(n, m)) {
        take(r, n, mbox_find(n, 1), m->t_arrive);
        return;
    }
    if (n->state == NODE_BLOCKED && n->blk_checked && n->blk.op == NIC_OP_PROBE_ANY && matches(n, m)) {
        probe_answer(r, n, m, m->t_arrive);   /* the first match: nothing before it matched at the check */
        return;
    }
    /* Unreceived data is bounded as a real NIC's receive memory is: a
     * node that lets arrivals pile up ends the run, named. Deliveries come
     * in simulated-time order, so where this happens is a function of the
     * programs only. */
    if (n->held_in > r->p.held_max) {
        engine_fail(r, n, "%llu bytes of messages arrived%s that it has not received (payload and %u bytes a "
                    "message), more than held_max (%u bytes): it does not receive what is sent to it",
                    (unsigned long long)n->held_in, r->p.eager_max ? " (or announced by a request-to-send)" : "",
                    NIC_MSG_HELD_BYTES, r->p.held_max);
        drop_mbox(r, n, m->t_arrive);
    }
}

/* The blocked node's request time has been reached: everything that
 * arrives by then is in its mailbox (or counted for its flood). */
static void check(struct engine *r, struct node *n)
{
    uint64_t t = n->blk.time_ns;
    if (n->blk.op == NIC_OP_FLOOD_WAIT) {
        struct flood_rx *f = engine_flood_find(n, n->blk.tag);
        if (f && f->count >= n->blk.peer) {
            engine_flood_answer(r, n, f, t);
        } else {
            n->blk_checked = 1;              /* answered by the delivery that completes the count */
            engine_touch(r, n);
        }
        return;
    }
    if (n->blk.op == NIC_OP_PROBE) {
        struct msg *m = mbox_find(n, 0);
        engine_answer(r, n, m ? NIC_REPLY_OK : NIC_REPLY_NONE, m && m->kind == MSG_RTS ? m->rdv : m, t);
        return;
    }
    if (n->blk.op == NIC_OP_PROBE_ANY) {
        struct msg *m = mbox_find(n, 0);
        if (m)
            probe_answer(r, n, m, t > m->t_arrive ? t : m->t_arrive);
        else {
            n->blk_checked = 1;              /* answered by the first matching delivery */
            engine_touch(r, n);
        }
        return;
    }
    struct msg *m = mbox_find(n, 1);
    if (m)
        take(r, n, m, t > m->t_arrive ? t : m->t_arrive);
    else {
        n->blk_checked = 1;
        engine_touch(r, n);
    }
}

const char *const rec_kind_names[REC_KINDS] = { "data", "flood", "mdw" };

static int record(struct engine *r, const struct msg *m)
{
    if (r->nlog == r->log_cap) {
        size_t cap = r->log_cap ? 2 * r->log_cap : 1024;
        struct msg_record *l = realloc(r->log, cap * sizeof *l);
        if (!l)
            return engine_stop(r, "out of memory for the record of %zu messages", cap);
        r->log = l;
        r->log_cap = cap;
    }
    const struct net_msg *x = &m->nm;
    r->log[r->nlog++] = (struct msg_record){
        m->src, m->dst, x->hops, m->tag, m->len, m->step, x->flits, m->t_post,
        net_cycle_to_ns(r->net, x->c_inject), net_cycle_to_ns(r->net, x->c_head),
        m->t_arrive, x->blocked_cycles, m->seq, x->t_ready_ns, x->route_at, x->route_len, x->c_inject,
        m->kind == MSG_FLOOD ? REC_FLOOD : m->mdw_copy ? REC_MDW : REC_DATA, m->worm, m->mdw_kind };
    return 0;
}

/* Take what the network reported after a cycle: flood heads that reached
 * a NIC (relayed), tails that left their source (answering WAIT_SENT), and
 * arrivals (into the heap). */
static void net_events(struct engine *r, struct net_msg *arrived, struct net_msg *left)
{
    if (engine_flood_heads(r, net_heads(r->net)))
        return;
    for (struct net_msg *x = left; x; x = x->next_left) {
        int kind = ((struct msg *)x->owner)->kind;
        if (kind == MSG_DATA || kind == MSG_MDW)
            gone(r, &r->nodes[x->src], net_cycle_to_ns(r->net, x->c_leave));
    }
    for (struct net_msg *x = arrived, *next; x; x = next) {
        struct msg *m = x->owner;
        next = x->next_done;      /* m may be freed below */
        net_unlink(r, m);
        if (m->mdw && --m->mdw->value == 0) {   /* the worm's last copy: it is gone */
            net_unlink(r, m->mdw);
            free(m->mdw);
        }
        m->t_arrive = net_cycle_to_ns(r->net, x->c_arrive);
        if (m->kind == MSG_FLOOD) {
            if (record(r, m)) {
                release(r, m);
                return;
            }
            if (engine_flood_arrived(r, m))
                return;
            continue;
        }
        if (m->kind == MSG_FI_REQUEST) {
            /* The owner's NIC increments and replies, fi_ns after the
             * request's tail came in (at the cycle's end, rounded up so
             * the reply never enters before the network's now). */
            uint64_t v = hwnet_fetch_inc(&r->hw, m->dst, (uint32_t)m->value);
            uint64_t t = net_cycle_to_ns_ceil(r->net, x->c_arrive) + r->p.fi_ns;
            int src = m->src, dst = m->dst;
            free(m);
            if (engine_inject_fi(r, MSG_FI_REPLY, dst, src, v, t))
                return;
            continue;
        }
        if (m->kind == MSG_CTS) {
            /* The sender's NIC starts the data as the clear's tail is in
             * (rounded up, as a fetch-and-increment reply). */
            struct msg *dm = m->rdv;
            uint64_t t = net_cycle_to_ns_ceil(r->net, x->c_arrive);
            free(m);
            list_remove(&r->rdv_held, dm);
            inject_worm(r, dm, t, 0);
            continue;
        }
        if (!pair_ordered(m)) {
            if ((m->rdv_data && record(r, m)) || engine_heap_push(r, m)) {
                free(m);         /* the run stops here */
                return;
            }
            continue;
        }
        struct msg *d = pair_arrived(&r->pairs, m), *dn;
        r->reordered += !d;
        for (; d; d = dn) {
            dn = d->next;
            if ((d->kind == MSG_DATA && record(r, d)) || engine_heap_push(r, d)) {
                for (; d; d = dn) {   /* the run stops here (a request's data: engine_free) */
                    dn = d->next;
                    if (d->kind == MSG_RTS)
                        free(d);
                    else
                        release(r, d);
                }
                return;
            }
        }
    }
}

/* A failed node no longer holds time back, so the rest of the machine
 * moves on after it; only a stop (no node's error) ends the engine. */
int engine_advance(struct engine *r)
{
    for (;;) {
        if (r->stopped)
            return -1;
        uint64_t safe, b;
        top(r, 0, &safe);
        int bi = top(r, 1, &b);
        struct node *bn = bi < 0 ? NULL : &r->nodes[bi];
        uint64_t a = r->heap_len ? r->heap[0]->t_arrive : SIM_INF;
        uint64_t e = a < b ? a : b;
        /* The network can still deliver at (now + 1) cycles or later: run it
         * first if that could come before the next event. It may simulate
         * cycle c only if no injection still unknown could enter then:
         * those enter at ceil(safe / cycle) or later. */
        if (net_busy(r->net) && net_cycle_to_ns(r->net, net_now(r->net) + 1) <= e) {
            uint64_t end = safe == SIM_INF ? UINT64_MAX : net_ns_to_cycle_ceil(r->net, safe);
            if (e != SIM_INF) {
                /* cycles c whose arrivals, at floor((c + 1) x cycle) ns,
                 * come by e: c + 1 <= ((e + 1) x 1000 - 1) / cycle. The
                 * same rounding as net_cycle_to_ns, so the test above and
                 * this bound never disagree. */
                uint64_t upto = ((e + 1) * 1000 - 1) / net_cycle_ps(r->net);
                if (upto < end)
                    end = upto;
            }
            if (end <= net_now(r->net))
                return r->error[0] ? -1 : 0; /* wait for the nodes to move on */
            struct net_msg *arr, *left;
            int rc = net_run(r->net, end, &arr, &left);
            r->progress++;           /* the network moved: the run is not hung */
            if (rc == -3)
                return engine_stop(r, "network deadlock at %llu ns: %s",
                                   (unsigned long long)net_cycle_to_ns(r->net, net_now(r->net)), net_run_error(r->net));
            if (rc < 0)
                return engine_stop(r, "%s at cycle %llu (a model error; please report it)", net_run_error(r->net),
                                   (unsigned long long)net_now(r->net));
            net_events(r, arr, left);
            continue;
        }
        if (a == SIM_INF && b == SIM_INF)
            break;
        if (a <= b) {               /* arrivals at T count as there by T */
            if (a > safe)
                break;
            deliver(r, heap_pop(r));
        } else {
            if (b > safe)
                break;
            check(r, bn);
        }
    }
    return r->error[0] ? -1 : 0;
}

/* A node that sends faster than its NIC injects. The NIC queue is
 * modelled as a fluid: every SEND adds its bytes (payload and
 * NIC_MSG_HELD_BYTES) at its time, and the queue drains at the NIC's full
 * rate, all its injection channels at one flit per nic_cycles, from then
 * on. Of payload the real queue is never shorter (a message waits for its
 * send start-up, a channel, the network); the record's bytes drain at the
 * same byte rate, where the NIC sends a small message's flits in less, so
 * a long stream of very small messages on a NIC much slower than its node
 * is counted longer than it is (docs/design.md). The model reads only the
 * node's own descriptors, so the check is exact in simulated time: the
 * same program fails at the same SEND whatever the host does. */
int engine_nic_queue_check(struct engine *r, struct node *n, const struct nic_desc *d)
{
    const struct net_params *np = &r->p.net;
    unsigned channels = (unsigned)net_nic_channels(r->net);
    uint64_t fb, fps;
    nic_rate(r, &fb, &fps);
    unsigned __int128 drained = (unsigned __int128)(d->time_ns - n->nicq_ns) * 1000u * fb / fps;
    n->nicq_bytes = drained >= n->nicq_bytes ? 0 : n->nicq_bytes - (uint64_t)drained;
    n->nicq_bytes += (uint64_t)d->len + NIC_MSG_HELD_BYTES;
    n->nicq_ns = d->time_ns;
    if (n->nicq_bytes <= r->p.held_max)
        return 0;
    return engine_fail(r, n, "SEND descriptor %u: at least %llu bytes of its messages would wait in its NIC at "
                       "%llu ns, more than held_max (%u bytes): it sends faster than its NIC injects "
                       "(%u channel%s, each a %u-byte flit every %u x %llu ps)", d->seq,
                       (unsigned long long)n->nicq_bytes, (unsigned long long)d->time_ns, r->p.held_max,
                       channels, channels == 1 ? "" : "s", np->flit_bytes, np->nic_cycles,
                       (unsigned long long)net_cycle_ps(r->net));
}

/* A SEND or MSEND of d->len bytes whose messages the router would hold
 * (`bytes` in all): 0 if that fits the host's limit, else the node fails. */
int engine_held_room(struct engine *r, struct node *n, const struct nic_desc *d, uint64_t bytes)
{
    if (r->held_total + bytes <= r->held_limit)
        return 0;
    return engine_fail(r, n, "%s descriptor %u: the router would hold %llu bytes of messages for all nodes, more than "
                       "it may (%llu: " HELD_LIMIT_WHY "): the nodes send faster than the network and their receivers "
                       "take them", engine_op_name(d->op), d->seq, (unsigned long long)(r->held_total + bytes),
                       (unsigned long long)r->held_limit);
}

/* A send the node posted, of `copies` messages: counted, and the node's
 * time bound moves past its start-up. */
void engine_sent(struct engine *r, struct node *n, const struct nic_desc *d, uint32_t copies)
{
    n->sends++;
    n->bytes_sent += d->len;
    r->messages += copies;
    r->bytes += (uint64_t)copies * d->len;
    n->lb = d->time_ns + r->p.t_send_ns;
    engine_touch(r, n);
}

/* SEND: the payload copied out of the transmit area into a message,
 * injected (or offered, past eager_max, apps' rendezvous). */
static int send_op(struct engine *r, struct node *n, const struct nic_desc *d)
{
    struct layout l = layout_of(r, n);
    if (d->peer >= (uint32_t)r->n)
        return engine_fail(r, n, "SEND descriptor %u: destination %u out of range 0..%d", d->seq, d->peer, r->n - 1);
    if (d->len > r->p.msg_max)
        return engine_fail(r, n, "SEND descriptor %u: length %u exceeds the largest message, %u bytes", d->seq, d->len,
                           r->p.msg_max);
    if (d->off > l.tx_size || d->len > l.tx_size - d->off)
        return engine_fail(r, n, "SEND descriptor %u: payload [%u, +%u) outside the %u-byte transmit area", d->seq,
                           d->off, d->len, l.tx_size);
    if (engine_nic_queue_check(r, n, d))
        return -1;
    if (engine_held_room(r, n, d, (uint64_t)d->len + NIC_MSG_HELD_BYTES))
        return -1;
    struct msg *m = engine_msg_new(r, MSG_DATA, n->rank, (int)d->peer, d->tag, d->len, d->time_ns, 0);
    if (!m)
        return -1;
    m->step = n->step;
    memcpy(m->data, n->shm + l.tx_off + d->off, d->len);
    r->held_total += held_of(m);
    if (r->p.eager_max && d->len > r->p.eager_max) {
        if (engine_rdv_send(r, m)) {
            release(r, m);
            return -1;
        }
    } else {
        inject(r, m);
    }
    if (r->timeline) {
        char dd[40];
        snprintf(dd, sizeof dd, "to %u, tag %u, %u bytes", d->peer, d->tag, d->len);
        trace_node(r->timeline, n->rank, "send", d->time_ns, d->time_ns + r->p.t_send_ns, dd);
    }
    engine_sent(r, n, d, 1);
    return 0;
}

/* RECORD: a figure of the node's (nic_shm.h's NIC_RECORDS), kept for
 * records.csv and summary.json. */
static int record_op(struct engine *r, struct node *n, const struct nic_desc *d)
{
    if (d->tag >= NIC_REC_COUNT) {
        char keys[160] = "";
        for (unsigned k = 0; k < NIC_REC_COUNT; k++)
            snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%u %s", k ? ", " : "", k,
                     record_names[k]);
        return engine_fail(r, n, "RECORD descriptor %u: key %u; the keys are %s", d->seq, d->tag, keys);
    }
    uint64_t v = (uint64_t)d->off << 32 | d->len;
    if (v > INT64_MAX)                       /* summary.json's integers are signed 64-bit */
        return engine_fail(r, n, "RECORD descriptor %u: %s = %llu, beyond the largest figure, 2^63 - 1", d->seq,
                           record_names[d->tag], (unsigned long long)v);
    n->rec[d->tag] = v;
    n->rec_set |= 1u << d->tag;
    n->lb = d->time_ns;
    engine_touch(r, n);
    return 0;
}

/* EXIT: the node's last descriptor; its mailbox goes. */
static int exit_op(struct engine *r, struct node *n, const struct nic_desc *d)
{
    n->state = NODE_EXITED;
    engine_touch(r, n);
    n->exit_code = (int)d->tag;
    n->finish_ns = d->time_ns;
    if (d->time_ns > r->sim_end)
        r->sim_end = d->time_ns;
    drop_mbox(r, n, d->time_ns);
    return 0;
}

/* The checks every descriptor passes first: the node is not waiting for
 * an answer, and its time is within the limit and not before its clock. */
static int desc_ok(struct engine *r, struct node *n, const struct nic_desc *d)
{
    if (n->state == NODE_BLOCKED)
        return engine_fail(r, n, "posted %s (descriptor %u) while its %s was unanswered", engine_op_name(d->op), d->seq,
                           engine_op_name(n->blk.op));
    if (d->time_ns > SIM_TIME_MAX_NS)
        return engine_fail(r, n, "descriptor %u has time %llu ns, past the simulated-time limit of %llu ns "
                           "(about 13 days)", d->seq, (unsigned long long)d->time_ns, SIM_TIME_MAX_NS);
    if (d->time_ns < n->lb)
        return engine_fail(r, n, "descriptor %u has time %llu ns, before the node's clock (%llu ns)", d->seq,
                           (unsigned long long)d->time_ns, (unsigned long long)n->lb);
    return 0;
}

/* A PROBE_ANY's patterns, read once from the transmit area into the node's
 * own copy (the node may rewrite its memory while it waits), each checked. */
static int read_patterns(struct engine *r, struct node *n, const struct nic_desc *d)
{
    struct layout l = layout_of(r, n);
    uint64_t bytes = nic_probe_any_bytes(d->peer);
    if (d->peer < 1 || d->peer > NIC_PROBE_ANY_MAX)
        return engine_fail(r, n, "PROBE_ANY descriptor %u: %u patterns; it takes 1..%d", d->seq, d->peer,
                           NIC_PROBE_ANY_MAX);
    if (d->off > l.tx_size || bytes > l.tx_size - d->off)
        return engine_fail(r, n, "PROBE_ANY descriptor %u: its %u patterns at offset %u (%llu bytes) lie outside "
                           "the %u-byte transmit area", d->seq, d->peer, d->off, (unsigned long long)bytes,
                           l.tx_size);
    if (!n->pats && !(n->pats = malloc(NIC_PROBE_ANY_MAX * sizeof *n->pats)))
        return engine_stop(r, "out of memory for a PROBE_ANY's patterns");
    memcpy(n->pats, n->shm + l.tx_off + d->off, bytes);
    n->npats = d->peer;
    for (uint32_t k = 0; k < n->npats; k++)
        if (n->pats[k].src != NIC_ANY && n->pats[k].src >= (uint32_t)r->n)
            return engine_fail(r, n, "PROBE_ANY descriptor %u: pattern %u's source %u out of range 0..%d", d->seq, k,
                               n->pats[k].src, r->n - 1);
    return 0;
}

static int handle(struct engine *r, struct node *n, const struct nic_desc *d)
{
    if (r->desc_log)
        fprintf(r->desc_log, "%12llu node %d: %s #%u peer %d tag %d len %u\n", (unsigned long long)d->time_ns,
                n->rank, engine_op_name(d->op), d->seq, (int)d->peer, (int)d->tag, d->len);
    if (desc_ok(r, n, d))
        return -1;
    switch (d->op) {
    case NIC_OP_SEND:
        return send_op(r, n, d);
    case NIC_OP_RECV:
    case NIC_OP_PROBE:
        if (d->peer != NIC_ANY && d->peer >= (uint32_t)r->n)
            return engine_fail(r, n, "%s descriptor %u: source %u out of range 0..%d", engine_op_name(d->op), d->seq,
                               d->peer, r->n - 1);
        block_on(r, n, d, 0);
        return 0;
    case NIC_OP_PROBE_ANY:
        if (read_patterns(r, n, d))
            return -1;
        block_on(r, n, d, 0);
        return 0;
    case NIC_OP_WAIT_SENT:
        if (n->unleft)
            block_on(r, n, d, 1);            /* answered when its last tail leaves */
        else {
            n->blk = *d;
            engine_answer(r, n, NIC_REPLY_OK, NULL, n->last_leave > d->time_ns ? n->last_leave : d->time_ns);
        }
        return 0;
    case NIC_OP_STEP:
        n->step = d->tag;
        n->lb = d->time_ns;
        engine_touch(r, n);
        return 0;
    case NIC_OP_BARRIER_SET:
    case NIC_OP_BARRIER_WAIT:
    case NIC_OP_CTRL:
    case NIC_OP_FETCH_INC:
    case NIC_OP_FLOOD_RULES:
    case NIC_OP_FLOOD:
    case NIC_OP_FLOOD_WAIT:
        return engine_handle_hw(r, n, d);
    case NIC_OP_MSEND:
        return engine_msend(r, n, d);
    case NIC_OP_RECORD:
        return record_op(r, n, d);
    case NIC_OP_EXIT:
        return exit_op(r, n, d);
    default:
        return engine_fail(r, n, "descriptor %u has unknown operation %u", d->seq, d->op);
    }
}

int engine_node_poll(struct engine *r, int rank)
{
    struct node *n = &r->nodes[rank];
    if (n->state == NODE_FAILED || n->state == NODE_BOOT)
        return n->state == NODE_FAILED ? -1 : 0;
    struct layout l = layout_of(r, n);
    /* hello before prod: a node posts EXIT (prod) before any reset that
     * makes it say hello again, so a hello seen here comes with every
     * descriptor posted before it, EXIT included. Read after prod, a hello
     * could come from a reset whose EXIT this poll did not see. */
    uint32_t hello = status_of(n)->hello;
    __sync_synchronize();
    uint32_t prod = SHM32(n, NIC_PROD_OFF);
    __sync_synchronize();
    if (prod - n->cons > l.ring_slots)
        return engine_fail(r, n, "producer index %u is beyond the ring (consumer %u, %u slots)",
                           prod, n->cons, l.ring_slots);
    while (n->cons != prod) {
        struct nic_desc d;
        memcpy(&d, n->shm + l.ring_off + (n->cons % l.ring_slots) * sizeof d, sizeof d);
        if (n->state == NODE_EXITED)
            return engine_fail(r, n, "posted %s (descriptor %u) after EXIT, which must be its last",
                               engine_op_name(d.op), n->cons);
        if (d.seq != n->cons)
            return engine_fail(r, n, "descriptor in slot %u has index %u, expected %u",
                               n->cons % l.ring_slots, d.seq, n->cons);
        if (handle(r, n, &d))
            return -1;
        n->cons++;
        r->progress++;
    }
    __sync_synchronize();
    SHM32(n, NIC_CONS_OFF) = n->cons;
    __sync_synchronize();
    /* A hello before EXIT is a node that reset itself mid-run; after EXIT
     * a node may be reset (nic_shm.h). */
    if (n->state != NODE_EXITED && hello != n->link_up)
        return engine_fail(r, n, "restarted during the run (its NIC said hello again)");
    if (status_of(n)->want_space)
        r->notify(r->ctx, n->rank);
    return engine_advance(r);
}

int engine_deadlocked(const struct engine *r)
{
    int blocked = 0;
    if (r->heap_len || net_busy(r->net))
        return 0;
    for (int i = 0; i < r->n; i++) {
        enum node_state s = r->nodes[i].state;
        if (s == NODE_BOOT || s == NODE_RUNNING)
            return 0;
        if (s == NODE_BLOCKED) {
            if (!r->nodes[i].blk_checked)
                return 0;
            blocked++;
        }
    }
    return blocked > 0;
}

void engine_wait_detail(const struct engine *r, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < r->n && o + 1 < len; i++) {
        const struct node *n = &r->nodes[i];
        if (n->state != NODE_BLOCKED || n->blk.op == NIC_OP_RECV || n->blk.op == NIC_OP_PROBE_ANY)
            continue;
        char what[160];
        int held_to = n->blk.op == NIC_OP_WAIT_SENT ? engine_rdv_held_from(r, i) : -1;
        if (n->blk.op == NIC_OP_BARRIER_WAIT)
            snprintf(what, sizeof what, "waits on barrier circuit %u, which %d of %d nodes set", n->blk.tag,
                     hwnet_barrier_count(&r->hw, n->blk.tag), r->n);
        else if (n->blk.op == NIC_OP_FLOOD_WAIT)
            snprintf(what, sizeof what, "waits for %u flood messages of tag %u, %u of which came", n->blk.peer,
                     n->blk.tag, engine_flood_find((struct node *)n, n->blk.tag) ?
                                     engine_flood_find((struct node *)n, n->blk.tag)->count : 0);
        else if (n->blk.op == NIC_OP_CTRL)
            snprintf(what, sizeof what, "waits in a control-network operation that %d of %d nodes posted",
                     r->hw.ctrl_posted, r->n);
        else if (held_to >= 0)
            snprintf(what, sizeof what, "waits in WAIT_SENT for its message to node %d, held until that node "
                     "posts its receive (eager_max = %u)", held_to, r->p.eager_max);
        else
            snprintf(what, sizeof what, "waits in %s", engine_op_name(n->blk.op));
        int w = snprintf(buf + o, len - o, "%snode %d %s", o ? "; " : "", i, what);
        if (w < 0 || (size_t)w >= len - o)
            break;
        o += (size_t)w;
    }
}

int engine_all_exited(const struct engine *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->nodes[i].state != NODE_EXITED)
            return 0;
    return 1;
}

uint64_t engine_time_reached(const struct engine *r)
{
    uint64_t t = 0;
    for (int i = 0; i < r->n; i++) {
        const struct node *n = &r->nodes[i];
        uint64_t u = n->state == NODE_BLOCKED && n->blk.time_ns > n->lb ? n->blk.time_ns : n->lb;
        if (u > t)
            t = u;
    }
    return t;
}
