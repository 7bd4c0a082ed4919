/* The network's topologies as graphs (net_state.h): which router each
 * link port joins to which, and the routing function that picks a worm's
 * output port at a router. The cycle model (net_core.c) knows nothing else of
 * the shape: a new topology is a wiring and a route here. */
#include <stdio.h>
#include <stdlib.h>
#include "net_state.h"

static int neighbor(const struct net *n, int node, int dim, int dir)
{
    int c[NIC_MAX_DIMS];
    topo_coords(&n->m, node, c);
    int k = n->m.dims[dim], x = c[dim] + dir;
    if (k < 2)
        return -1;
    if (x < 0 || x >= k) {
        if (n->m.topo != TOPO_TORUS)
            return -1;
        x = (x + k) % k;
    }
    c[dim] = x;
    int r = 0;
    for (int i = n->nd - 1; i >= 0; i--)
        r = r * n->m.dims[i] + c[i];
    return r;
}

int net_link_exists(const struct net *n, int node, int dim, int dir)
{
    int torus = n->m.topo == TOPO_TORUS;
    return !machine_indirect(&n->m) && dim < n->nd && neighbor(n, node, dim, dir) >= 0 &&
           !(torus && dir < 0 && (n->m.dims[dim] == 2 || n->p.unidirectional));
}

int net_topo_hops(const struct net *n, int a, int b)
{
    if (!(n->m.topo == TOPO_TORUS && n->p.unidirectional))     /* banyan included */
        return machine_hops(&n->m, a, b);
    int h = 0;
    for (int d = 0; d < n->nd; d++) {
        int k = n->m.dims[d];
        h += ((n->r[b].coords[d] - n->r[a].coords[d]) % k + k) % k;
    }
    return h;
}

/* Switches per stage (banyan) or level (fat tree). */
static int per_level(const struct net *n)
{
    int N = n->m.nodes;
    return n->m.topo == TOPO_FATTREE ? N / n->m.dims[0] : N / 2;
}

void net_router_name(const struct net *n, int router, char *buf, size_t len)
{
    int N = n->m.nodes;
    if (router < N)
        snprintf(buf, len, "%d", router);
    else if (n->m.topo == TOPO_DRAGONFLY)
        snprintf(buf, len, "g%d.r%d", (router - N) / n->m.dims[1], (router - N) % n->m.dims[1]);
    else
        snprintf(buf, len, "s%d.%d", (router - N) / per_level(n), (router - N) % per_level(n));
}

/* Join output port `o` of router `a` to input port `ip` of router `b`. */
static void wire(struct net *n, int a, int o, int b, int ip)
{
    n->r[a].out[o].to_router = b;
    n->r[a].out[o].to_port = ip;
    n->r[b].up[ip] = a;
    n->r[b].up_port[ip] = o;
}

/* A k-ary n-cube or hypercube: router i is node i, and link port
 * 2 dim + (dir < 0) leaves towards the neighbour in that direction and
 * enters it by the port of the same number (the direction travelled). */
static void wire_direct(struct net *n)
{
    for (int i = 0; i < n->m.nodes; i++)
        for (int o = 0; o < n->nlinkp; o++)
            if (net_link_exists(n, i, o / 2, o % 2 ? -1 : +1))
                wire(n, i, o, neighbor(n, i, o / 2, o % 2 ? -1 : +1), o);
}

/* The banyan of seed 004: s = log2 N stages of N/2 2x2 switches. Lines
 * 0 .. N-1 run between the stages; switch j of a stage joins lines 2j
 * (port 0) and 2j+1 (port 1), and sets each worm straight or crossed.
 * Between stage i and stage i+1 the interstage permutation tau_i swaps
 * bits 0 and i+1 of the line number (p_{m-1}..p_{i+1}p_i..p_0 ->
 * p_{m-1}..p_0 p_i..p_1 p_{i+1}). Processor x's output port is line x
 * into stage 0; line x out of the last stage is processor x's input port.
 * Router of switch j of stage i: N + i N/2 + j. */
static int banyan_switch(const struct net *n, int stage, int line)
{
    return n->m.nodes + stage * (n->m.nodes / 2) + line / 2;
}

static int banyan_tau(int line, int i)
{
    int a = line & 1, b = line >> (i + 1) & 1;
    return a == b ? line : line ^ 1 ^ (1 << (i + 1));
}

static void wire_banyan(struct net *n)
{
    int N = n->m.nodes, S = machine_log2(N);
    for (int x = 0; x < N; x++)
        wire(n, x, 0, banyan_switch(n, 0, x), x % 2);
    for (int i = 0; i < S; i++)
        for (int line = 0; line < N; line++) {
            int a = banyan_switch(n, i, line), t = i + 1 < S ? banyan_tau(line, i) : line;
            if (i + 1 < S)
                wire(n, a, line % 2, banyan_switch(n, i + 1, t), t % 2);
            else
                wire(n, a, line % 2, t, 0);
        }
}

/* A k-ary n-tree (Petrini and Vanneschi; the CM-5's data network is a
 * 4-ary one, seed 002 section 8): N = k^n nodes and n levels of k^(n-1)
 * switches, level 0 the leaves. Switch <w, l> (w of n-1 base-k digits
 * w_0 ..) has down ports 0 .. k-1 and up ports k .. 2k-1. Node p hangs
 * from down port p_0 of leaf <p / k, 0>. Up port k + j of <w, l> joins
 * <w with digit l set to j, l + 1> at its down port w_l, both ways, so
 * <w, l> reaches the nodes d with d / k^(l+1) = w / k^l. Router of
 * <w, l>: N + l k^(n-1) + w. */
static int kpow(int k, int e)
{
    int x = 1;
    while (e-- > 0)
        x *= k;
    return x;
}

static void wire_fattree(struct net *n)
{
    int N = n->m.nodes, k = n->m.dims[0], L = n->m.ndims, S = N / k;
    for (int p = 0; p < N; p++) {
        wire(n, p, 0, N + p / k, p % k);
        wire(n, N + p / k, p % k, p, 0);
    }
    for (int l = 0; l + 1 < L; l++)
        for (int w = 0; w < S; w++) {
            int kl = kpow(k, l), wl = w / kl % k, a = N + l * S + w;
            for (int j = 0; j < k; j++) {
                int b = N + (l + 1) * S + w + (j - wl) * kl;
                wire(n, a, k + j, b, wl);
                wire(n, b, wl, a, k + j);
            }
        }
}

/* The dragonfly (machine.h: its groups and global links). Router G a + r
 * of the switches (router N + G a + r of the network) has ports 0 .. p-1
 * to its nodes, p .. p+a-2 to the other routers of its group (the port
 * to router j: p + j, less one past its own index), and p+a-1 .. p+a-2+h
 * for its global links; node x's port 0 joins terminal port x mod p of
 * router x / p. */
int net_df_local_port(const struct net *n, int r, int j) { return n->m.dims[0] + (j < r ? j : j - 1); }
int net_df_global_port(const struct net *n, int k) { return n->m.dims[0] + n->m.dims[1] - 1 + k % df_h(&n->m); }

static void wire_dragonfly(struct net *n)
{
    int N = n->m.nodes, p = n->m.dims[0], a = n->m.dims[1], g = n->m.dims[2], h = df_h(&n->m);
    for (int x = 0; x < N; x++) {
        wire(n, x, 0, N + x / p, x % p);
        wire(n, N + x / p, x % p, x, 0);
    }
    for (int G = 0; G < g; G++)
        for (int r = 0; r < a; r++) {
            for (int j = 0; j < a; j++)
                if (j != r)
                    wire(n, N + G * a + r, net_df_local_port(n, r, j), N + G * a + j, net_df_local_port(n, j, r));
            for (int k = r * h; k < (r + 1) * h; k++) {
                int G2 = (G + k + 1) % g, k2 = df_link_back(&n->m, k);
                wire(n, N + G * a + r, net_df_global_port(n, k), N + G2 * a + k2 / h, net_df_global_port(n, k2));
            }
        }
}

void net_topo_wire(struct net *n)
{
    if (n->m.topo == TOPO_DRAGONFLY)
        wire_dragonfly(n);
    else if (n->m.topo == TOPO_BANYAN)
        wire_banyan(n);
    else if (n->m.topo == TOPO_FATTREE)
        wire_fattree(n);
    else
        wire_direct(n);
}

int net_topo_link_ports(const struct topo_shape *m)
{
    if (m->topo == TOPO_DRAGONFLY)
        return m->dims[0] + m->dims[1] - 1 + df_h(m);
    return m->topo == TOPO_FATTREE ? 2 * m->dims[0] : 2 * m->ndims;
}

int net_topo_routers(const struct topo_shape *m, const struct net_params *p, char *err, size_t errlen)
{
    if (!machine_indirect(m))
        return m->nodes;
    if (m->all_port != TOPO_ONE_PORT || p->ports > 1) {
        snprintf(err, errlen, "a %s gives each processor one input and one output port: "
                 "PORT_MODEL=one-port and ports=1 (or 0), not %s", m->topo == TOPO_BANYAN ? "banyan" : m->topo == TOPO_FATTREE ? "fat tree" : "dragonfly",
                 m->all_port == TOPO_ONE_PORT ? "more ports" : "all-port");
        return -1;
    }
    if (m->topo == TOPO_FATTREE)
        return m->nodes + m->ndims * (m->nodes / m->dims[0]);
    if (m->topo == TOPO_DRAGONFLY)
        return m->nodes + m->dims[1] * m->dims[2];
    return m->nodes + machine_log2(m->nodes) * (m->nodes / 2);
}

/* The dateline class a worm needs for the hop from router `at` in
 * dimension `dim`, direction `dir` (Dally and Seitz). The worm entered this
 * dimension at its source's coordinate s. Going +, the wrap link is
 * k-1 -> 0: the hop is in class 1 if it is that link or the worm has
 * already taken it (then its coordinate is below s); going -, the wrap
 * link is 0 -> k-1 and the test mirrors. Returns -1 when there are no
 * classes (mesh, hypercube). */
static int vc_class(const struct net *n, int at, const struct net_msg *m, int dim, int dir)
{
    if (n->m.topo != TOPO_TORUS)
        return -1;
    int k = n->m.dims[dim], s = n->r[m->src].coords[dim], here = n->r[at].coords[dim];
    if (dir > 0)
        return here == k - 1 || here < s;
    return here == 0 || here > s;
}

/* The direction of an offset of exactly k/2 (enum tie, machine.h): the
 * worm is at its source's coordinate in this dimension, since it enters a
 * dimension only there. */
static int tie_dir(enum tie t, int coord)
{
    return t == TIE_SOURCE_PARITY && coord % 2 ? -1 : +1;
}

int net_topo_dir(const struct net *n, const int *a, const int *b, int d)
{
    int off = b[d] - a[d];
    if (!off)
        return 0;
    int dir = off > 0 ? +1 : -1;
    if (n->m.topo == TOPO_TORUS) {
        int k = n->m.dims[d], fwd = ((off % k) + k) % k;
        dir = fwd < k - fwd ? +1 : fwd > k - fwd ? -1 : tie_dir(n->p.tie, a[d]);
        if (k == 2 || n->p.unidirectional)
            dir = +1;                                  /* a 2-ring or a one-way ring: + only */
    }
    return dir;
}

/* Dimension-ordered route from router `at` towards m->dst: the output link
 * port (2 dim + (dir < 0)), or -1 if the worm is at its destination;
 * *cls is the dateline class the hop needs, or -1 (vc_class). */
static int route_direct(const struct net *n, int at, const struct net_msg *m, int *cls)
{
    const int *a = n->r[at].coords, *b = n->r[m->dst].coords;
    for (int d = 0; d < n->nd; d++) {
        int dir = net_topo_dir(n, a, b, d);
        if (!dir)
            continue;
        *cls = vc_class(n, at, m, d, dir);
        return 2 * d + (dir < 0);
    }
    return -1;
}

/* Self-routing on the banyan (wire_banyan): stage i < s-1 puts the
 * worm on the line whose bit 0 is bit i+1 of the destination (tau_i then
 * moves it to place i+1, where no later stage touches it); the last
 * stage sets bit 0. The line out of the last stage is the destination.
 * No cycles, so no dateline classes. */
static int route_banyan(const struct net *n, int at, const struct net_msg *m, int *cls)
{
    int N = n->m.nodes, S = machine_log2(N);
    *cls = -1;
    if (at < N)
        return at == m->dst ? -1 : 0;
    int stage = (at - N) / (N / 2);
    return stage + 1 < S ? m->dst >> (stage + 1) & 1 : m->dst & 1;
}

/* Up-then-down routing on the fat tree (wire_fattree): a worm climbs until
 * the switch's subtree holds its destination d, taking up port k + d_l at
 * level l (destination-mod-k: the worms leaving one subtree for k^(l+1)
 * consecutive destinations take k^l different up links each, so a shift
 * s -> s + c never puts two on one link), then descends by down port d_l
 * at level l. Every route is up links, then down links, so the channel
 * dependences have no cycle and need no dateline classes. */
static int route_fattree(const struct net *n, int at, const struct net_msg *m, int *cls)
{
    int N = n->m.nodes, k = n->m.dims[0], S = N / k, d = m->dst;
    *cls = -1;
    if (at < N)
        return at == d ? -1 : 0;
    int l = (at - N) / S, w = (at - N) % S, kl = kpow(k, l);
    if (w / kl == d / (kl * k))
        return d / kl % k;                              /* down, by digit l */
    return k + d / kl % k;                              /* up, by digit l too */
}

/* The port of dragonfly router `at` (a switch) towards node `dst`, or
 * with dst < 0 towards any router of group `tg`: minimal, a local hop to
 * the router holding the global link, the global link, a local hop to the
 * destination's router (Kim et al.'s MIN). -1 if `at` is in group tg and
 * dst < 0 (the group is reached). */
int net_df_port(const struct net *n, int at, int dst, int tg)
{
    int N = n->m.nodes, p = n->m.dims[0], a = n->m.dims[1], h = df_h(&n->m);
    int S = at - N, G = S / a, r = S % a;
    if (dst >= 0) {
        tg = dst / p / a;
        if (tg == G)
            return dst / p % a == r ? dst % p : net_df_local_port(n, r, dst / p % a);
    } else if (tg == G) {
        return -1;
    }
    int k = df_link_to(&n->m, G, tg);
    return k / h == r ? net_df_global_port(n, k) : net_df_local_port(n, r, k / h);
}

/* Minimal routing on the dragonfly: up from the node, then net_df_port.
 * Deadlock freedom by two VC classes (Kim et al. section 4.2): class 0
 * in the source's group (its local hop and the global link), class 1 in
 * the destination's; a minimal route never goes back to class 0. */
static int route_dragonfly(const struct net *n, int at, const struct net_msg *m, int *cls)
{
    int N = n->m.nodes, pa = n->m.dims[0] * n->m.dims[1];
    if (at < N) {
        *cls = 0;
        return at == m->dst ? -1 : 0;
    }
    *cls = (at - N) / n->m.dims[1] != m->src / pa;
    return net_df_port(n, at, m->dst, -1);
}

int net_topo_route(const struct net *n, int at, const struct net_msg *m, int *cls)
{
    switch (n->m.topo) {
    case TOPO_DRAGONFLY: return route_dragonfly(n, at, m, cls);
    case TOPO_BANYAN: return route_banyan(n, at, m, cls);
    case TOPO_FATTREE: return route_fattree(n, at, m, cls);
    default: return route_direct(n, at, m, cls);
    }
}
