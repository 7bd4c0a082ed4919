/* The accelerators' hooks into the cycle model.
 *
 * The cycle model (net_core.c: a router's step, a NIC's injection, links
 * and credits) is exact on its own: stepping every router every cycle
 * gives every time and counter. Three accelerators skip work whose outcome
 * they can give exactly, and they keep their state apart (struct
 * router_accel, struct net_accel):
 *   - sleep (net_sleep.c): a router whose cycle would repeat, nothing
 *     moved, only blocked worms counted, is skipped and owes the counts;
 *   - parked heads (net_park.c): a head refused an output VC waits without
 *     asking, its link's blocked count kept in closed form;
 *   - the jump (net_jump.h): periodic stretches of groups of ports frozen
 *     and thawed in closed form.
 * Their assumptions (net_state.h, net_accel's no_accel): oblivious
 * routes (the jump foresees where heads go; parked heads and sleeping
 * routers log one output each), NIC channels of one VC, and a credit
 * usable the cycle after its flit left (the jump's periods and a
 * sleeper's wake-up know no credit in flight). Where a run breaks them
 * (an adaptive routing, nic_vcs > 1, credit_delay > 0) they switch
 * themselves off, and the run is exact, only slower; NET_JUMP_CHECK runs the bare
 * model beside (plain: no shortcut, no sleep) and compares.
 *
 * The cycle model calls them only through the functions below, each at
 * the event it names; net_core.c reads no field of the accelerators. The
 * run loop's (net.c) come last; the jump's own hooks (struct net_hooks:
 * settle, cycle, stepped, head, touch, queued, reset, idle_until) are
 * reached through these and net.c. */
#ifndef NET_ACCEL_H
#define NET_ACCEL_H

#include "net_state.h"

/* --- flit pushed, credit returned: a sleeping router wakes --------------- */

/* A flit came into router r. */
static inline void acc_flit_in(const struct net *n, struct net_router *r)
{
    if (r->acc.sleep == 1)
        net_rouse(n, r);
}

/* A credit came back to one of router r's outputs. */
static inline void acc_credit_in(const struct net *n, struct net_router *r)
{
    if (r->acc.sleep == 1)
        net_rouse(n, r);
}

/* --- head routed: what a router's input VCs join may change --------------- */

/* A head entered, was routed or woken at router r in cycle c. */
static inline void acc_head_seen(struct net_router *r, uint64_t c) { r->acc.head_c = c; }

/* A head crossed output o of router `node` in cycle c into input port
 * to_port of router `to`: the frozen group it will be routed into thaws
 * (outside a group's own catch-up). */
static inline void acc_head_pushed(struct net *n, int to, int to_port, const struct net_msg *m, uint64_t c)
{
    if (n->ac.nfz && !n->ac.stepping)
        net_hk_head(n, to, to_port, m, c + 1);
    n->r[to].acc.head_c = c;
}

/* --- queue changed: a NIC channel's front worm ------------------------ */

/* Message m is about to be queued on NIC channel ch of its source: the
 * jump numbers it, and its probe and groups take note. */
static inline void acc_queueing(struct net *n, struct net_msg *m, int ch)
{
    m->jmark = 0;
    m->jid = ++n->ac.jids;
    net_hk_reset(n);
    net_hk_queued(n, m->src, ch, m->mc != NULL);
}

/* A multidestination worm was queued: no router sleeps while one is about. */
static inline void acc_multidest_queued(struct net *n)
{
    NET_FOR_ACTIVE(n, i) {
        net_sleep_end(n, i);
    }
    NET_FOR_DORMANT(n, i) {
        net_sleep_end(n, i);
    }
}

/* Router `node`'s NIC channel ch pushes the first flit of its front worm in cycle c:
 * a part the jump looks at (net_jump_probe.c). */
static inline void acc_nic_started(struct net *n, struct net_router *r, int node, int ch, uint64_t c)
{
    r->acc.head_c = c;
    n->ac.heads_waiting--;
    if (n->ac.jump_on)
        net_jump_seed(n, net_in_id(n, node, n->nlinkp + ch));
}

/* A head in input port ip of router `node` is routed to its ejection
 * channel: home, its part no longer grows (net_jump_probe.c). */
static inline void acc_head_home(struct net *n, int node, int ip)
{
    if (n->ac.jump_on)
        net_jump_seed(n, net_in_id(n, node, ip));
}

/* A NIC channel of router `node` has a new front worm, not begun. */
static inline void acc_nic_next(struct net *n, int node)
{
    n->ac.heads_waiting++;
    n->ac.hwait[node / 64] |= 1ull << (node % 64);
}

/* --- routers to skip: frozen groups' ports ------------------------------- */

/* Whether NIC channel ch of router `node` belongs to a frozen group other
 * than the one being stepped (its cycles come in closed form). */
static inline int acc_nic_skipped(const struct net *n, const struct net_router *r, int node, int ch)
{
    if (!n->ac.nfz)
        return 0;
    int ip = n->nlinkp + ch;
    return n->ac.stepping || n->wide ? n->ac.pg[net_in_id(n, node, ip)] != n->ac.stepping
                                     : (int)(r->acc.fmask >> (ip * n->V) & 1);
}

/* The input VCs of router r in frozen groups, as a busy mask to leave out
 * (none while a group's own cycles are stepped). */
static inline uint64_t acc_vcs_skipped(const struct net *n, const struct net_router *r)
{
    return n->ac.stepping ? 0 : r->acc.fmask;
}

/* Where masks do not tell (a group's catch-up, a wide network): the
 * frozen groups of router `node`'s input ports, or NULL if none is asked. */
static inline struct jgroup *const *acc_port_groups(const struct net *n, int node)
{
    return n->ac.nfz && (n->ac.stepping || n->wide) ? &n->ac.pg[net_in_id(n, node, 0)] : NULL;
}
static inline int acc_port_skipped(const struct net *n, struct jgroup *const *pg, int ip)
{
    return pg && pg[ip] != n->ac.stepping;
}

/* --- VC allocation: parked heads ------------------------------------------ */

/* Input VC i of router r may not take a VC now: a thawing group's last
 * cycles, whose VCs were still owned (net_jump.c). */
static inline int acc_vc_withheld(const struct net *n, const struct net_router *r, int i)
{
    return n->ac.stepping && !n->wide && (r->acc.parked >> i & 1);
}

/* Input VC i of router `node` took an output VC in cycle c. */
static inline void acc_vc_granted(struct net *n, int node, int i, uint64_t c)
{
    struct net_router *r = &n->r[node];
    if (!n->wide && (r->acc.parked >> i & 1)) {
        net_unpark(n, node, i, c);
        r->acc.head_c = c;                       /* its input port joins its output (net_jump_probe.c) */
    }
}

/* Input VC i of router `node`, refused an output VC in cycle c, parks if it
 * may and is not yet parked. 1: it parked (a change: no sleep after). Its
 * input port no longer joins its output: each side's part is looked at
 * (net_jump_probe.c). */
static inline int acc_refused(struct net *n, int node, int i, uint64_t c)
{
    if (!(net_parks(n) && !n->mc_live) || (n->r[node].acc.parked >> i & 1))
        return 0;
    net_park(n, node, i, c);
    if (n->ac.jump_on) {
        net_jump_seed(n, net_in_id(n, node, i / n->V));
        net_jump_seed(n, net_out_id(n, node, n->r[node].in[i].out_port));
    }
    return 1;
}

/* A tail left input port ip of router `node` by output o in cycle c, freeing its VC ovc:
 * its part may split (net_jump_probe.c);
 * the heads parked on that output that may take ovc ask again from the
 * next cycle, their frozen groups touched then. */
static inline void acc_tail_left(struct net *n, int node, int ip, int o, int ovc, uint64_t c)
{
    struct net_router *r = &n->r[node];
    const struct oport *op = &r->out[o];
    r->acc.head_c = c;                           /* a parked head may join its output */
    if (n->ac.jump_on) {
        net_jump_tail(n, net_in_id(n, node, ip));
        net_jump_tail(n, net_out_id(n, node, o));
    }
    for (uint64_t b = r->acc.parked & ~r->acc.waking; b; b &= b - 1) {
        int i = __builtin_ctzll(b), lo, hi;
        if (r->in[i].out_port != o)
            continue;
        net_class_vcs(n, op, net_head_class(&r->in[i]), &lo, &hi);
        if (ovc < lo || ovc >= hi)
            continue;                            /* those that may take this VC (vc_grant) */
        if (!r->acc.waking)
            n->ac.wk[n->ac.nwk++] = node;        /* once until net_wake: nwk <= nr */
        r->acc.waking |= 1ull << i;
        struct jgroup *g = n->ac.nfz ? n->ac.pg[net_in_id(n, node, i / n->V)] : NULL;
        if (g)
            net_hk_touch(n, g, c + 1);
    }
}

/* --- blocked counts: parked links and sleeping routers' logs -------------- */

/* Worm m was counted blocked at router `node`: a router that may sleep
 * logs it, to owe its count while asleep. */
static inline void acc_worm_blocked(struct net *n, int node, struct net_msg *m)
{
    struct net_router *r = &n->r[node];
    if (n->ac.slog_node == node)
        r->acc.slog_m[r->acc.nslog_m++] = m;
}

/* Whether link port `port` of router `node` is saturated: a parked head's
 * link, counted in closed form (net_park.c), so not counted here. */
static inline int acc_link_saturated(const struct net *n, int node, int port)
{
    return n->ac.sat_n[(size_t)node * n->nlinkp + port] != 0;
}

/* The link was counted blocked: logged as the worms are. */
static inline void acc_link_blocked(struct net *n, int node, int port)
{
    struct net_router *r = &n->r[node];
    if (n->ac.slog_node == node)
        r->acc.slog_l[r->acc.nslog_l++] = node * n->nlinkp + port;
}

/* --- a router's step: sleep ---------------------------------------------- */

/* Router `node` begins its step: whether it may fall asleep after it.
 * Wormhole only (elsewhere a VC is granted on room downstream, which no
 * event announces), never in a frozen group's own cycles, in the checking
 * reference, with multidestination worms about, or where the accelerators
 * step aside (no_accel). If it may, its blocked counts are logged. */
static inline int acc_router_begin(struct net *n, int node)
{
    int may = !n->ac.stepping && !n->ac.plain && !n->mc_live && !n->ac.no_accel &&
              n->p.switching == SW_WORMHOLE;
    if (may) {
        n->ac.slog_node = node;
        n->r[node].acc.nslog_m = n->r[node].acc.nslog_l = 0;
    }
    return may;
}

static inline void acc_router_end(struct net *n) { n->ac.slog_node = -1; }

/* Nothing moved nor was granted at router r in cycle c, and it may sleep:
 * each cycle after is this one again until a flit or credit comes or a
 * front flit is ready (at `wake`). */
static inline void acc_router_quiet(struct net_router *r, uint64_t c, uint64_t wake)
{
    r->acc.sleep = 1;
    r->acc.sleep_c = c + 1;
    r->acc.wake_at = wake;
}

/* Whether the switch allocator may take its one-request shortcut
 * (net_alloc.c), and a router its step's fast path (net_core.c): not in
 * the checking reference, which so compares each against the full code. */
static inline int acc_shortcut(const struct net *n) { return !n->ac.plain; }

/* --- the run loop (net.c): routers to skip, and the clock ----------------- */

/* Whether every flit in the network is in a frozen group. */
static inline int acc_all_frozen(const struct net *n)
{
    return n->ac.nfz && n->inflight_flits == n->ac.frozen_flits;
}

/* Whether any group is frozen (the loop's standstill count waits then). */
static inline int acc_any_frozen(const struct net *n) { return n->ac.nfz != 0; }

/* Every flit frozen: the clock goes to the next thaw or injection, at
 * most to `end`, the cycles counted as jumped. */
static inline void acc_idle_skip(struct net *n, uint64_t end)
{
    uint64_t t = net_hk_idle_until(n);
    if (t > end)
        t = end;
    if (t > n->now) {
        n->ac.jumped += t - n->now;
        n->now = t;
    }
}

/* The start of cycle c: groups due thaw, waking heads ask again. */
static inline void acc_cycle_start(struct net *n, uint64_t c)
{
    net_hk_cycle(n, c);
    if (n->ac.nwk)
        net_wake(n, c);
}

/* Whether active router i steps in cycle c: flits outside frozen groups,
 * and not asleep (a sleeper past its wake cycle pays what it owes first). */
static inline int acc_router_due(struct net *n, int i, uint64_t c)
{
    struct net_router *R = &n->r[i];
    if (R->nflits <= R->acc.nfrozen || (R->acc.sleep == 1 && c < R->acc.wake_at))
        return 0;                                /* (asleep: owed) */
    if (R->acc.sleep) {
        net_sleep_owe(n, i, c);
        R->acc.sleep = 0;
    }
    return 1;
}

/* Whether NIC channel ch of router i is in a frozen group. */
static inline int acc_nic_frozen(const struct net *n, int i, int ch)
{
    return n->ac.nfz && n->ac.pg[net_in_id(n, i, n->nlinkp + ch)];
}

/* Whether router i has flits or queued messages outside frozen groups:
 * the cycle loop steps it (struct net's active). */
static inline int acc_live(const struct net *n, int i)
{
    const struct net_router *r = &n->r[i];
    if (r->nflits > r->acc.nfrozen)
        return 1;
    if (!r->queued)
        return 0;
    if (!n->ac.nfz)
        return 1;
    for (int ch = 0; ch < n->ninj; ch++)
        if (r->inj[ch].first && !acc_nic_frozen(n, i, ch))
            return 1;
    return 0;
}

/* Whether a NIC channel of router i, asleep, may push a flit before the
 * router steps again: a worm queued on a channel not frozen, with room in
 * its (wormhole) injection buffer. One without room gets it only when the
 * router sends, and a frozen channel is stepped again only after its
 * group thaws, which wakes the router (net_sleep_end). */
static inline int acc_nic_may_push(const struct net *n, int i)
{
    const struct net_router *r = &n->r[i];
    for (int ch = 0; r->queued && ch < n->ninj; ch++)
        if (r->inj[ch].first && !net_inj_full(n, r, ch) && !acc_nic_frozen(n, i, ch))
            return 1;
    return 0;
}

/* After router i's turn in a cycle: it leaves the active set if nothing
 * of it is live, or goes dormant if asleep with nothing to wake it but a
 * flit or a credit (until roused: net_rouse, net_sleep_end). */
static inline void acc_router_stepped(struct net *n, int i)
{
    const struct net_router *R = &n->r[i];
    if (!acc_live(n, i)) {
        n->active[i / 64] &= ~(1ull << (i % 64));
    } else if (R->acc.sleep == 1 && R->acc.wake_at == UINT64_MAX && !acc_nic_may_push(n, i)) {
        n->active[i / 64] &= ~(1ull << (i % 64));
        n->ac.dormant[i / 64] |= 1ull << (i % 64);
    }
}

/* A cycle was stepped without an event: the jump may look for a period. */
static inline void acc_stepped(struct net *n)
{
    if (n->ac.jump_on)
        net_hk_stepped(n);
}

/* net_accel.c: the accelerators' state, made with the network (after its
 * routers are wired) and freed with it; -1 if out of memory. */
int net_accel_init(struct net *n);
void net_accel_free(struct net *n);

#endif
