/* The routing functions (net_route.h states their contract; routings.def
 * lists them) and the selection among the outputs they permit.
 *
 * Directions on a 2D mesh: dimension 0 is x (east +, west -), dimension 1
 * is y (north +, south -). A direct network's link port is 2 dim +
 * (dir < 0) (net_topo.c). Every adaptive function here is minimal: each
 * hop it permits brings the worm one hop nearer its target. */
#include <stdio.h>
#include <string.h>
#include "net_route.h"

static const struct routing_def {
    const char *name;
    unsigned topos;                 /* bit NIC_TOPO_*: the machines it routes */
    int oblivious;
    const char *doc;
} defs[] = {
#define ROUTING(id, name, topos, oblivious, doc) { name, topos, oblivious, doc },
#include "routings.def"
#undef ROUTING
};
_Static_assert(sizeof defs / sizeof defs[0] == ROUTING_COUNT, "one entry an enum routing");

int net_route_oblivious(enum routing r) { return defs[r].oblivious; }

int net_route_atomic(enum routing r) { return r == ROUTING_DUATO; }

static int port_of(int d, int dir) { return 2 * d + (dir < 0); }

static struct net_cand cand(int port, int lo, int hi) { return (struct net_cand){ port, lo, hi, 0 }; }

/* The worm's current target: Valiant's intermediate node until its head
 * has reached it, then its destination. */
static int target(const struct net_msg *m, int at)
{
    return m->via >= 0 && !m->via_done && at != m->via ? m->via : m->dst;
}

/* The dateline class of a hop of an adaptive worm's escape or Valiant
 * route at coordinate `here` towards coordinate `to` of a k-ring, going
 * dir (Dally and Seitz's rule, by the target rather than the source, so
 * it holds wherever the worm entered the ring): going +, class 1 on the
 * wrap link (here = k-1) and wherever the target lies ahead without a wrap
 * (here < to), class 0 while the wrap is still ahead; - mirrors. Class-1
 * channels then lead only towards the target without wrapping and class-0
 * ones only up to the wrap, so neither class's dependencies close a ring. */
static int dateline(int k, int here, int to, int dir)
{
    if (dir > 0)
        return here == k - 1 || here < to;
    return here == 0 || here > to;
}

/* Dimension order towards `to` from router `at`, on the VCs [base, base +
 * span) of one class range: a torus splits them by dateline class. */
static int dor(const struct net *n, int at, int to, int base, int span, struct net_cand *c)
{
    const int *a = n->r[at].coords, *b = n->r[to].coords;
    for (int d = 0; d < n->nd; d++) {
        int dir = net_topo_dir(n, a, b, d);
        if (!dir)
            continue;
        if (n->m.topo != TOPO_TORUS) {
            c[0] = cand(port_of(d, dir), base, base + span);
        } else {
            int half = span / 2, cls = dateline(n->m.dims[d], a[d], b[d], dir);
            c[0] = cand(port_of(d, dir), base + cls * half, base + (cls ? span : half));
        }
        return 1;
    }
    return 0;
}

/* Every productive hop of dimensions d with sign(dir) in `signs` (bit 0:
 * -, bit 1: +), each on VCs [lo, hi), appended to c from index k. */
static int productive(const struct net *n, int at, int to, int signs, int lo, int hi, struct net_cand *c, int k)
{
    const int *a = n->r[at].coords, *b = n->r[to].coords;
    for (int d = 0; d < n->nd; d++) {
        int dir = net_topo_dir(n, a, b, d);
        if (dir && (signs >> (dir > 0) & 1))
            c[k++] = cand(port_of(d, dir), lo, hi);
    }
    return k;
}

static int route_DETERMINISTIC(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    int cls, p = net_topo_route(n, at, m, &cls);
    if (p < 0)
        return 0;
    c[0] = cand(p, 0, n->V);
    net_class_vcs(n, &n->r[at].out[p], cls, &c[0].lo, &c[0].hi);
    return 1;
}

/* Glass and Ni (1992), minimal forms: a worm bound west goes west first
 * (the turns into west are the ones forbidden, so it takes them never);
 * otherwise any productive direction. */
static int route_WEST_FIRST(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    const int *a = n->r[at].coords, *b = n->r[m->dst].coords;
    if (b[0] < a[0]) {
        c[0] = cand(port_of(0, -1), 0, n->V);
        return 1;
    }
    return productive(n, at, m->dst, 3, 0, n->V, c, 0);
}

/* North last: any productive direction but north; north only when it is
 * all that is left (turns out of north are the forbidden ones). */
static int route_NORTH_LAST(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    const int *a = n->r[at].coords, *b = n->r[m->dst].coords;
    int k = 0;
    if (b[0] != a[0])
        c[k++] = cand(port_of(0, b[0] > a[0] ? +1 : -1), 0, n->V);
    if (b[1] < a[1])
        c[k++] = cand(port_of(1, -1), 0, n->V);
    if (!k && b[1] > a[1])
        c[k++] = cand(port_of(1, +1), 0, n->V);
    return k;
}

/* Negative first, any number of dimensions: every productive - hop while
 * any is left, then every productive + hop (no turn from + to -). */
static int route_NEGATIVE_FIRST(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    int k = productive(n, at, m->dst, 1, 0, n->V, c, 0);
    return k ? k : productive(n, at, m->dst, 2, 0, n->V, c, 0);
}

/* Chiu (2000), ROUTE of the odd-even turn model, minimal: no east-to-
 * north or east-to-south turn in an even column, no north-to-west or
 * south-to-west turn in an odd column. Columns are x coordinates. */
static int route_ODD_EVEN(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    const int *a = n->r[at].coords, *b = n->r[m->dst].coords, *s = n->r[m->src].coords;
    int e0 = b[0] - a[0], e1 = b[1] - a[1], k = 0;
    int ns = port_of(1, e1 > 0 ? +1 : -1);
    if (!e0 && !e1)
        return 0;
    if (!e0) {
        c[k++] = cand(ns, 0, n->V);
    } else if (e0 > 0) {
        if (!e1) {
            c[k++] = cand(port_of(0, +1), 0, n->V);
        } else {
            if (a[0] % 2 == 1 || a[0] == s[0])
                c[k++] = cand(ns, 0, n->V);
            if (b[0] % 2 == 1 || e0 != 1)
                c[k++] = cand(port_of(0, +1), 0, n->V);
        }
    } else {
        c[k++] = cand(port_of(0, -1), 0, n->V);
        if (e1 && a[0] % 2 == 0)
            c[k++] = cand(ns, 0, n->V);
    }
    return k;
}

/* Escape VCs of Duato's routing: 1 (0 .. 1 on a torus, its two dateline
 * classes). */
static int escape_vcs(const struct net *n) { return n->m.topo == TOPO_TORUS ? 2 : 1; }

/* Duato (1993): every productive hop on the adaptive VCs, then the
 * dimension-order hop on the escape VCs. The escape sub-network is
 * dimension order with dateline classes, acyclic with the dependencies
 * the adaptive channels add (test_route.c checks the extended graph). */
static int route_DUATO(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    int e = escape_vcs(n), k = productive(n, at, m->dst, 3, e, n->V, c, 0);
    return k ? k + dor(n, at, m->dst, 0, e, c + k) : 0;
}

/* The dragonfly (machine.h, net_topo.c): a worm's group, and the VC
 * class of its next hop under Valiant or UGAL, the global links it has
 * taken (Kim et al. section 4.2): 0 in the source's group, 1 after one
 * global link, 2 after two. A route's classes only rise, and within one
 * class it takes at most a local hop and a global link, so no cycle. */
static int df_group(const struct net *n, int x) { return x / (n->m.dims[0] * n->m.dims[1]); }
static int df_phase0(const struct net *n, int at, const struct net_msg *m)
{
    return m->via >= 0 && !m->via_done && (at - n->m.nodes) / n->m.dims[1] != df_group(n, m->via);
}
static int df_class(const struct net *n, int at, const struct net_msg *m)
{
    if (at < n->m.nodes || df_phase0(n, at, m))
        return 0;
    int srcg = df_group(n, m->src), curg = (at - n->m.nodes) / n->m.dims[1];
    if (m->via < 0)
        return curg != srcg;
    int viag = df_group(n, m->via);
    return (srcg != viag) + (curg != viag);
}
static struct net_cand df_cand(const struct net *n, int port, int cls)
{
    return cand(port, cls * n->V / 3, (cls + 1) * n->V / 3);
}
/* The next port of the Valiant (or, via < 0, minimal) route at `at`. */
static int df_next(const struct net *n, int at, const struct net_msg *m)
{
    if (at < n->m.nodes)
        return 0;
    return df_phase0(n, at, m) ? net_df_port(n, at, -1, df_group(n, m->via)) : net_df_port(n, at, m->dst, -1);
}

/* Valiant (1982): dimension order to the intermediate node, then to the
 * destination; phase 0 on VCs [0, V/2), phase 1 on [V/2, V), so the two
 * phases' dependencies never join. On a dragonfly (Kim et al.'s VAL):
 * minimally to a router of the intermediate node's group, then to the
 * destination, the classes by global links taken (df_class). */
static int route_VALIANT(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    if (n->m.topo == TOPO_DRAGONFLY) {
        c[0] = df_cand(n, df_next(n, at, m), df_class(n, at, m));
        return 1;
    }
    int to = target(m, at), half = n->V / 2, phase = to == m->dst;
    return dor(n, at, to, phase * half, phase ? n->V - half : half, c);   /* [0, V/2), then [V/2, V) */
}

/* The links from dragonfly router `at` to the end of m's route as it
 * stands (Valiant's or, via < 0, the minimal one). */
static int df_links_left(const struct net *n, int at, struct net_msg m)
{
    int k = 0;
    while (at != m.dst && k < 16) {
        if (at >= n->m.nodes && !df_phase0(n, at, &m) && m.via >= 0)
            m.via_done = 1;
        at = n->r[at].out[df_next(n, at, &m)].to_router;
        k++;
    }
    return k;
}

/* Flits waiting on output o (downstream buffers less their credits). */
static uint32_t occupancy(const struct net *n, int at, int o)
{
    uint32_t q = 0;
    for (int k = 0; k < n->V; k++)
        q += n->vc_room - n->r[at].out[o].credits[k];
    return q;
}

/* UGAL-L (Kim et al. 2008, section 4.2): at the source's router, the
 * minimal route or Valiant's through the intermediate node's group, the
 * one with the smaller queue length times hops first (minimal on a tie);
 * both are offered, and the one the head takes decides its route
 * (net_route_commit). Then as Valiant, or as minimal with via -1. */
static int route_UGAL(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    if (m->decided || at < n->m.nodes) {
        c[0] = df_cand(n, df_next(n, at, m), df_class(n, at, m));
        return 1;
    }
    struct net_msg min = *m;
    min.via = -1;
    int pm = df_next(n, at, &min), pn = df_next(n, at, m);
    c[0] = df_cand(n, pm, 0);
    if (pn == pm || m->via < 0)
        return 1;                                   /* the intermediate group is on the way */
    c[1] = df_cand(n, pn, 0);
    c[1].nonmin = 1;
    uint64_t qm = (uint64_t)occupancy(n, at, pm) * (uint64_t)df_links_left(n, at, min),
             qn = (uint64_t)occupancy(n, at, pn) * (uint64_t)df_links_left(n, at, *m);
    if (qn < qm) {
        struct net_cand t = c[0];
        c[0] = c[1];
        c[1] = t;
    }
    return 2;
}

/* Fat tree: climbing, any up port (each leads to a switch whose subtree
 * holds the same nodes), the deterministic one first and the others after
 * it in turn, so selection=first spreads worms as up/down does until a
 * link is taken; descending, the destination's digit, as route_fattree.
 * Up links then down links: no cycle. */
static int route_ADAPTIVE_UP(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    int cls, p = net_topo_route(n, at, m, &cls), k = n->m.dims[0];
    if (p < 0)
        return 0;
    if (at < n->m.nodes || p < k) {
        c[0] = cand(p, 0, n->V);
        return 1;
    }
    for (int j = 0; j < k; j++)
        c[j] = cand(k + (p - k + j) % k, 0, n->V);
    return k;
}

/* Every productive hop on any VC: the channel dependencies have cycles
 * (four turns make one on a mesh), so worms can deadlock; for showing
 * what the others avoid. */
static int route_FREE_ADAPT(const struct net *n, int at, const struct net_msg *m, struct net_cand *c)
{
    return productive(n, at, m->dst, 3, 0, n->V, c, 0);
}

typedef int (*route_fn)(const struct net *, int, const struct net_msg *, struct net_cand *);
static const route_fn fns[] = {
#define ROUTING(id, name, topos, oblivious, doc) route_##id,
#include "routings.def"
#undef ROUTING
};

int net_route_cands(const struct net *n, int at, int in_port, int in_vc, const struct net_msg *m,
                    struct net_cand *c)
{
    (void)in_port;                  /* every function here is minimal: the way in does not matter */
    (void)in_vc;
    if (at == m->dst && target(m, at) == m->dst)
        return 0;
    return fns[n->p.routing](n, at, m, c);
}

/* Whether routing r routes 2D meshes only (the turns it names are a
 * plane's). */
static int only_2d(enum routing r)
{
    return r == ROUTING_WEST_FIRST || r == ROUTING_NORTH_LAST || r == ROUTING_ODD_EVEN;
}

/* Whether routing r routes machine m: its topology, and a plane if its
 * turns are a plane's. */
static int routes(enum routing r, const struct topo_shape *m)
{
    return (defs[r].topos >> m->topo & 1) && (!only_2d(r) || m->ndims == 2);
}

/* The engine asks the selection only of a routing that is not oblivious
 * (net.c, n->adaptive); Valiant's permits one output a hop, where
 * least_used still picks the VC with the most credits (free_vc) but
 * random picks what first does. */
int net_route_selects(enum routing r, enum selection sel)
{
    if (defs[r].oblivious)
        return sel == SEL_FIRST;
    return r != ROUTING_VALIANT || sel != SEL_RANDOM;
}

/* Appends to err, from offset o, every routing that routes m (with sel
 * >= 0, every such routing under which selection sel changes anything). */
static size_t list_routings(const struct topo_shape *m, int sel, char *err, size_t errlen, size_t o)
{
    for (int i = 0; i < ROUTING_COUNT && o < errlen; i++)
        if (routes((enum routing)i, m) && (sel < 0 || net_route_selects((enum routing)i, (enum selection)sel)))
            o += (size_t)snprintf(err + o, errlen - o, " %s", defs[i].name);
    return o;
}

int net_route_check(const struct topo_shape *m, const struct net_params *p, char *err, size_t errlen)
{
    enum routing r = p->routing;
    if (!(defs[r].topos >> m->topo & 1)) {
        size_t o = (size_t)snprintf(err, errlen, "routing=%s does not route a %s%s; for a %s:", defs[r].name,
                                    topo_names[m->topo], only_2d(r) ? " (a 2D mesh only)" : "", topo_names[m->topo]);
        list_routings(m, -1, err, errlen, o);
        return -1;
    }
    if (!routes(r, m)) {
        size_t o = (size_t)snprintf(err, errlen, "routing=%s routes a 2D mesh; this mesh has %d dimensions; "
                                    "for it:", defs[r].name, m->ndims);
        list_routings(m, -1, err, errlen, o);
        return -1;
    }
    if (!net_route_selects(r, p->selection)) {
        size_t o = (size_t)snprintf(err, errlen, "selection=%s chooses among an adaptive routing's outputs, and "
                                    "routing=%s gives one a hop (accepted here: %s; routings of a %s it changes:",
                                    selection_names[p->selection], defs[r].name,
                                    defs[r].oblivious ? "first" : "first, or least_used for the emptiest VC",
                                    topo_names[m->topo]);
        size_t e = list_routings(m, (int)p->selection, err, errlen, o);
        if (e < errlen)
            snprintf(err + e, errlen - e, "%s)", e == o ? " none" : "");
        return -1;
    }
    int torus = m->topo == TOPO_TORUS, df = m->topo == TOPO_DRAGONFLY;
    uint32_t need = r == ROUTING_DUATO ? (torus ? 3 : 2) : r == ROUTING_VALIANT ? (torus ? 4 : df ? 3 : 2) :
                    r == ROUTING_UGAL ? 3 : 1;
    if (p->vcs < need) {
        snprintf(err, errlen, "routing=%s on a %s needs vcs >= %u (%s), not %u", defs[r].name, topo_names[m->topo],
                 need, r == ROUTING_DUATO ? "escape channels, and one adaptive" :
                 df ? "a class for each count of global links taken: 0, 1, 2" :
                 torus ? "two phases of two dateline classes" : "one per phase", p->vcs);
        return -1;
    }
    return 0;
}

/* splitmix64 (Steele, Lea and Flood): a well-mixed 64-bit hash. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void net_route_prepare(const struct net *n, struct net_msg *m)
{
    m->via = -1;
    m->via_done = m->decided = 0;
    m->hops = net_topo_hops(n, m->src, m->dst);
    if (n->p.routing != ROUTING_VALIANT && n->p.routing != ROUTING_UGAL)
        return;
    uint64_t h = mix(mix((uint64_t)n->p.route_seed << 32 | (uint32_t)m->src) ^ m->seq);
    m->via = (int)(h % (uint64_t)n->m.nodes);
    if (n->m.topo != TOPO_DRAGONFLY)
        m->hops = net_topo_hops(n, m->src, m->via) + net_topo_hops(n, m->via, m->dst);
}

int net_route_room(const struct net *n, const struct net_msg *m)
{
    /* a dragonfly's Valiant route: up, local, global, local, global, local, down */
    return n->m.topo == TOPO_DRAGONFLY && m->via >= 0 ? 7 : m->hops;
}

void net_route_commit(const struct net *n, int at, struct net_msg *m, const struct net_cand *c)
{
    if (m->via < 0)
        return;
    if (n->p.routing == ROUTING_UGAL && at >= n->m.nodes && !m->decided) {
        m->decided = 1;
        if (!c->nonmin) {
            m->via = -1;                              /* minimal from here on */
            return;
        }
    }
    if (n->m.topo == TOPO_DRAGONFLY ? at >= n->m.nodes && !df_phase0(n, at, m) : at == m->via)
        m->via_done = 1;
}

/* The VC of candidate q the head would get: the lowest free one, or with
 * least_used the free one with the most credits; -1 if none is free. */
static int free_vc(const struct net *n, const struct oport *op, const struct net_cand *q)
{
    int got = -1;
    for (int k = q->lo; k < q->hi; k++)
        if (net_vc_free(n, op, k)) {
            if (n->p.selection != SEL_LEAST_USED)
                return k;
            if (got < 0 || op->credits[k] > op->credits[got])
                got = k;
        }
    return got;
}

int net_route_select(const struct net *n, int at, const struct net_msg *m, const struct net_cand *c, int nc,
                     uint64_t cycle, int *vc)
{
    const struct oport *out = n->r[at].out;
    int vcs[NET_MAX_CANDS], ok[NET_MAX_CANDS], nok = 0;
    for (int q = 0; q < nc; q++)
        if ((vcs[q] = free_vc(n, &out[c[q].port], &c[q])) >= 0)
            ok[nok++] = q;
    if (!nok)
        return -1;
    int pick = ok[0];
    if (n->p.selection == SEL_LEAST_USED) {
        for (int j = 1; j < nok; j++)
            if (out[c[ok[j]].port].credits[vcs[ok[j]]] > out[c[pick].port].credits[vcs[pick]])
                pick = ok[j];
    } else if (n->p.selection == SEL_RANDOM) {
        uint64_t h = mix(mix(mix((uint64_t)n->p.route_seed << 32 | (uint32_t)m->src) ^ m->seq) ^
                         ((uint64_t)(uint32_t)at << 40 ^ cycle));
        pick = ok[h % (uint64_t)nok];
    }
    *vc = vcs[pick];
    return pick;
}

void net_route_list(FILE *f)
{
    fprintf(f, "\nrouting functions (routing=NAME, the first the default), the machines each routes:\n");
    for (int i = 0; i < ROUTING_COUNT; i++) {
        fprintf(f, "  %-15s", defs[i].name);
        for (int t = 0; t < TOPO_COUNT; t++)
            if (defs[i].topos >> t & 1)
                fprintf(f, " %s", topo_names[t]);
        fprintf(f, "\n  %-15s %s\n", "", defs[i].doc);
    }
}
