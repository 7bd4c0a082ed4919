/* The jump's frozen groups (net_jump.h): a group found periodic by the
 * probe (net_jump_probe.c) is frozen, kept in a heap by the cycle it
 * thaws at the latest, and thawed then or when touched: shifted by its
 * whole periods, its last cycles stepped alone. The jump's hooks into the
 * cycle model (net_jump_hooks, net_state.h) are here. */
#include <stdio.h>
#include <stdlib.h>
#include "net_jump.h"

/* Group g's routers, asleep, wake with their owed counts added: what
 * they would count changes when g freezes or thaws. */
static void wake_routers(struct net *n, const struct jgroup *g)
{
    for (int i = 0; i < g->nport; i++)
        net_sleep_end(n, net_port_router(n, g->port[i]));
}

/* --- The frozen groups: a binary heap on `until` ----------------------------- */

static void fz_set(struct net *n, int i, struct jgroup *g)
{
    n->ac.fz[i] = g;
    g->hix = i;
}

static void fz_up(struct net *n, int i)
{
    struct jgroup *g = n->ac.fz[i];
    while (i > 0 && n->ac.fz[(i - 1) / 2]->until > g->until) {
        fz_set(n, i, n->ac.fz[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    fz_set(n, i, g);
}

static void fz_down(struct net *n, int i)
{
    struct jgroup *g = n->ac.fz[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n->ac.nfz)
            break;
        if (c + 1 < n->ac.nfz && n->ac.fz[c + 1]->until < n->ac.fz[c]->until)
            c++;
        if (n->ac.fz[c]->until >= g->until)
            break;
        fz_set(n, i, n->ac.fz[c]);
        i = c;
    }
    fz_set(n, i, g);
}

/* The soonest group, out of the heap. */
static struct jgroup *fz_pop(struct net *n)
{
    struct jgroup *g = n->ac.fz[0];
    if (--n->ac.nfz) {
        fz_set(n, 0, n->ac.fz[n->ac.nfz]);
        fz_down(n, 0);
    }
    return g;
}

void jump_freeze(struct net *n, struct jgroup *g, uint64_t P, uint64_t k)
{
    g->dhops = 0;
    for (int i = 0, j = 0; i < g->nport; i++) {    /* g->ls: from the counters at c0 to a period's */
        int l = link_of(n, g->port[i]);
        if (l < 0)
            continue;
        const struct link_stats *now = &n->ls[l];
        g->ls[j] = (struct link_stats){ now->flits - g->ls[j].flits, now->worms - g->ls[j].worms,
                                        now->blocked - g->ls[j].blocked };
        g->dhops += g->ls[j++].flits;
    }
    g->dmoves = g->dhops;
    for (size_t i = 0; i < g->nmsg; i++)
        g->dmoves += g->msg[i].d;
    if (n->ac.nfz == n->ac.fz_cap) {
        int nc = n->ac.fz_cap ? 2 * n->ac.fz_cap : 64;
        struct jgroup **f = realloc(n->ac.fz, (size_t)nc * sizeof *f);
        if (!f) {
            jump_drop(n, g);                     /* not frozen: its part looked at again */
            return;
        }
        n->ac.fz = f;
        n->ac.fz_cap = nc;
    }
    fz_set(n, n->ac.nfz++, g);                      /* (its place in the heap once `until` is known) */
    wake_routers(n, g);                          /* they count afresh without it */
    g->c1 = n->now;
    g->P = P;
    g->until = P && k < (UINT64_MAX - n->now) / P ? n->now + k * P : UINT64_MAX;
    g->nflits = 0;
    for (int i = 0; i < g->nport; i++) {
        int id = g->port[i];
        n->ac.pg[id] = g;
        if (!is_in(n, id))
            continue;
        struct net_router *R = &n->r[net_port_router(n, id)];
        int ip = net_port_index(n, id);
        if (!n->wide)
            R->acc.fmask |= ((1ull << n->V) - 1) << (ip * n->V);
        for (int vc = 0; vc < n->V; vc++) {
            const struct ivc *v = &R->in[ip * n->V + vc];
            g->nflits += v->count;
            R->acc.nfrozen += v->count;
        }
    }
    n->ac.frozen_flits += g->nflits;
    fz_up(n, g->hix);
    n->ac.next_thaw = n->ac.fz[0]->until;
    n->ac.jumps++;
}

/* Cycle c of frozen group g's ports alone (thaw): its
 * routers in rank order, injection first, then its credits. No event
 * falls in it (the group's bounds). */
static void step_group(struct net *n, struct jgroup *g, uint64_t c)
{
    struct net_msg *arr = n->arr_head, *left = n->left_head, *hd = n->hd_head;
    uint64_t moved = n->moved;
    n->arr_head = n->left_head = n->hd_head = NULL;
    n->moved = 0;
    for (int k = 0, last = -1; k < g->nport && g->port[k] < n->nr * n->nin; k++) {
        int r = net_port_router(n, g->port[k]);
        if (r != last && n->r[r].queued)
            net_inject_step(n, r, c);
        last = r;
    }
    for (int k = 0, last = -1; k < g->nport && g->port[k] < n->nr * n->nin; k++) {
        int r = net_port_router(n, g->port[k]);
        if (r != last && n->r[r].nflits)
            net_router_step(n, r, c);
        last = r;
    }
    net_apply_credits(n, c + 1);
    if (n->arr_head || n->left_head || n->hd_head) {
        fprintf(stderr, "net: an event in a frozen group's period (net_jump.c): a model error\n");
        abort();
    }
    n->moves += n->moved;
    n->moved = moved;
    n->arr_head = arr;
    n->left_head = left;
    n->hd_head = hd;
}


/* --- Thawing --------------------------------------------------------------- */

/* Group g, frozen at c1, to its state at cycle t (before t is stepped). */
static void thaw(struct net *n, struct jgroup *g, uint64_t t)
{
    uint64_t c1 = g->c1, k = (t - c1) / g->P, dt = k * g->P;
    const int V = n->V;
    wake_routers(n, g);                          /* they count afresh with it */
    for (size_t i = 0; i < g->nmsg; i++) {
        struct jmsg *x = &g->msg[i];
        x->m->f_out += (uint32_t)(k * x->d);
        x->m->blocked_cycles += k * x->db;
    }
    int li = 0;
    for (int i = 0; i < g->nport; i++) {
        int id = g->port[i];
        if (is_in(n, id)) {
            struct net_router *R = &n->r[net_port_router(n, id)];
            int ip = net_port_index(n, id);
            if (R->acc.head_c < t)
                R->acc.head_c = t;                   /* its VCs join outputs of parts recorded without them
                                                    (a head woken while frozen: closed_marked) */
            if (!n->wide)
                R->acc.fmask &= ~(((1ull << V) - 1) << (ip * V));
            for (int vc = 0; vc < V; vc++) {
                struct ivc *v = &R->in[ip * V + vc];
                R->acc.nfrozen -= v->count;
                for (uint32_t x = 0; x < v->count; x++) {
                    struct flit *f = ivc_at(v, x);
                    f->idx += (uint32_t)(k * g->msg[f->m->jix].d);
                    if (f->ready > c1)
                        f->ready += dt;
                }
                if (v->count)
                    v->front_ready = v->q[v->head].ready;
            }
            if (ip >= n->nlinkp) {
                struct nic_queue *q = &R->inj[ip - n->nlinkp];
                if (q->first)
                    q->next_flit += (uint32_t)(k * g->msg[q->first->jix].d);
                if (q->next_ok > c1)
                    q->next_ok += dt;
            }
        } else {
            int r = net_port_router(n, id), o = net_port_index(n, id);
            struct oport *op = &n->r[r].out[o];
            if (op->next_ok > c1)
                op->next_ok += dt;
            int l = link_of(n, id);
            if (l >= 0) {
                struct link_stats *ls = &n->ls[l];
                ls->flits += k * g->ls[li].flits;
                ls->worms += k * g->ls[li].worms;
                ls->blocked += k * g->ls[li].blocked;
                if (n->ac.sat_n[l] && n->ac.sat_since[l] > c1 && g->ls[li].blocked == g->P) {
                    /* A head parked on the link in cycle p while g was frozen,
                     * and counted it; the closed form counts from p + 1
                     * (park_counts). g counts every cycle: the jump counted
                     * those from p on, the catch-up none before p. */
                    uint64_t p = n->ac.sat_since[l] - 1;
                    ls->blocked += p - (c1 + dt);        /* (mod 2^64: minus when p < c1 + dt) */
                }
                li++;
            }
        }
    }
    n->flit_hops += k * g->dhops;
    n->moves += k * g->dmoves;
    n->ac.moves_jumped += k * g->dmoves;
    n->ac.frozen_flits -= g->nflits;
    /* the j cycles left, this group's ports alone */
    n->ac.stepping = g;
    for (uint64_t c = c1 + dt; c < t; c++)
        step_group(n, g, c);
    n->ac.stepping = NULL;
    for (int i = 0; i < g->nport; i++) {
        n->ac.pg[g->port[i]] = NULL;
        jump_seed(n, g->port[i]);
        if (is_in(n, g->port[i]))
            net_activate(n, net_port_router(n, g->port[i]));      /* stepped again (struct net's active) */
    }
}

/* Thaw every frozen group that is due by cycle t, or all of them. */
static void thaw_due(struct net *n, uint64_t t, int all)
{
    if (all) {
        for (int i = 0; i < n->ac.nfz; i++) {
            thaw(n, n->ac.fz[i], t);
            jump_group_put(&n->ac.jp, n->ac.fz[i]);
        }
        n->ac.nfz = 0;
    }
    while (n->ac.nfz && n->ac.fz[0]->until <= t) {
        struct jgroup *g = n->ac.fz[0];
        thaw(n, g, t);                           /* (counted in nfz while it thaws: the hooks read
                                                    n->ac.pg only while some group is frozen) */
        jump_group_put(&n->ac.jp, fz_pop(n));
    }
    n->ac.next_thaw = n->ac.nfz ? n->ac.fz[0]->until : UINT64_MAX;
    if (n->ac.jp.next_try > t)
        n->ac.jp.next_try = t;
}

void net_jump_touch(struct net *n, struct jgroup *g, uint64_t t)
{
    if (g->until > t) {
        g->until = t < g->c1 ? g->c1 : t;
        fz_up(n, g->hix);
    }
    if (g->until < n->ac.next_thaw)
        n->ac.next_thaw = g->until;
}

/* Whether a head parking at frozen group g's port id would change what g
 * counts: the port drives a link not yet saturated, on which g's period
 * counts blocked cycles in some of its cycles but not all. Parking there
 * starts the link's closed form (net_state.h), one blocked cycle every
 * cycle from the one after, which replaces g's own counts. A period that
 * counts none there has no flit waiting for the link; one that counts
 * every cycle is replaced one for one, and thaw() moves the count by the
 * cycles its jump and its catch-up got wrong. An ejection channel has no
 * link count. */
static int park_counts(const struct net *n, const struct jgroup *g, int id)
{
    int l = link_of(n, id);
    if (l < 0 || n->ac.sat_n[l] > 0)
        return 0;
    for (int i = 0, k = 0; i < g->nport; i++) {
        if (link_of(n, g->port[i]) < 0)
            continue;
        if (g->port[i] == id)
            return g->ls[k].blocked != 0 && g->ls[k].blocked != g->P;   /* (per period since freeze) */
        k++;
    }
    return 1;
}

/* The head of m, in input port ip of router r, is routed at cycle t: the
 * frozen group of its output thaws then, unless the head would park there
 * (net_would_park) without changing what the group counts (park_counts). */
void net_jump_head(struct net *n, int r, int ip, const struct net_msg *m, uint64_t t)
{
    int cls, o = net_head_route(n, r, ip, m, &cls), id = net_out_id(n, r, o);
    struct jgroup *g = n->ac.pg[id];
    if (g && !(net_parks(n) && !m->mc && net_would_park(n, r, o, cls) && !park_counts(n, g, id)))
        net_jump_touch(n, g, t);
}

/* The start of cycle c: thaw the groups due, and those a head about to
 * enter the network is aimed at. */
void net_jump_cycle(struct net *n, uint64_t c)
{
    if (!n->ac.nfz)
        return;
    if (n->ac.next_thaw <= c)
        thaw_due(n, c, 0);
    /* the nodes with a channel whose front worm has not begun, while any
     * has: a head the NIC pushes in cycle c (net_inject_step's conditions) may
     * be routed in c */
    for (size_t w = 0; n->ac.heads_waiting && w < ((size_t)n->nr + 63) / 64; w++)
        for (uint64_t b = n->ac.hwait[w]; b; b &= b - 1) {
            int i = (int)(w * 64) + __builtin_ctzll(b), waiting = 0;
            const struct net_router *R = &n->r[i];
            for (int ch = 0; ch < n->ninj; ch++) {
                const struct nic_queue *q = &R->inj[ch];
                int ip = n->nlinkp + ch;
                if (!q->first || q->next_flit)
                    continue;
                waiting = 1;
                if (n->ac.pg[net_in_id(n, i, ip)] || !net_nic_can_push(n, R, ch, c))
                    continue;
                net_jump_head(n, i, ip, q->first, c);
            }
            if (!waiting)
                n->ac.hwait[w] &= ~(1ull << (i % 64));
        }
    if (n->ac.next_thaw <= c)
        thaw_due(n, c, 0);
}

/* The cycle the clock may go to when every flit in the network is frozen:
 * the next thaw, or the first an unfrozen channel may inject in. */
uint64_t net_jump_idle_until(const struct net *n)
{
    uint64_t t = n->ac.next_thaw;
    NET_FOR_QUEUED(n, i, ch, q) {
        if (n->ac.pg[net_in_id(n, i, n->nlinkp + ch)])
            continue;
        uint64_t c = q->next_flit ? n->now : q->first->c_ready;
        if (c < t)
            t = c;
    }
    return t;
}

/* A message queued on channel ch of node src. */
void net_jump_queued(struct net *n, int src, int ch, int mc)
{
    if (!n->ac.nfz)
        return;
    if (mc) {
        thaw_due(n, n->now, 1);
        return;
    }
    struct jgroup *g = n->ac.pg[net_in_id(n, src, n->nlinkp + ch)];
    if (g)
        net_jump_touch(n, g, n->now);
    if (n->ac.next_thaw <= n->now)
        thaw_due(n, n->now, 0);
}

void net_jump_settle(struct net *n)
{
    if (n->ac.nfz)
        thaw_due(n, n->now, 1);
    net_sleep_settle(n);
    net_wake(n, n->now);
    if (net_sat_settle(n) && n->ac.jp.ncand) {
        jump_drop_candidates(n);                    /* their link counts at c0 are off now */
        net_jump_reset(n);
    }
}

void net_jump_reset(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    if (p->next_try > n->now)
        p->next_try = n->now;
}

void net_jump_free(struct net *n)
{
    struct jprobe *p = &n->ac.jp;
    for (int i = 0; i < p->ncand; i++)
        jump_group_free(p->cand[i]);
    free(p->cand);
    free(p->port_r);
    free(p->port_i);
    free(p->mark);
    free(p->part);
    free(p->seed);
    free(p->seeded);
    free(p->cm);
    free(p->rj);
    free(p->rh);
    free(p->rstamp);
    free(p->bits);
    for (int i = 0; i < n->ac.nfz; i++)
        jump_group_free(n->ac.fz[i]);
    free(n->ac.fz);
    for (struct jgroup *g = p->spare, *nx; g; g = nx) {
        nx = g->next_spare;
        jump_group_free(g);
    }
    free(n->ac.pg);
}

const struct net_hooks net_jump_hooks = {
    .settle = net_jump_settle, .cycle = net_jump_cycle, .stepped = net_jump_probe, .head = net_jump_head,
    .touch = net_jump_touch, .queued = net_jump_queued, .reset = net_jump_reset, .idle_until = net_jump_idle_until,
    .free = net_jump_free,
};
