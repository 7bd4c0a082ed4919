/* netsim's synthetic traffic (netsim.c says what its runs measure): the
 * destination patterns, a run at an offered load (--rate, each rate of
 * --sweep) and its line, and --burst. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "machine.h"
#include "host_clock.h"
#include "netsim.h"

const char *const pattern_names[] = { "uniform", "transpose", "bitcomp", "bitrev", "tornado", "hotspot", "neighbor" };
_Static_assert(sizeof pattern_names / sizeof *pattern_names == N_PATTERNS, "a name for each pattern");

/* Below this share of the generated load accepted, a run is saturated
 * (the fall of accepted against offered throughput, Dally and Towles
 * ch. 23.1), when the window made at least SATURATED_MIN_PACKETS measured
 * packets. Accepted counts the packets whose tails arrive in the window,
 * generated those made in it: below saturation the packets in flight at
 * its start and at its end are as many on average, but each is a whole
 * packet's flits, so with a few packets one of them more in flight at the
 * end is a large share (6 packets of 4 KB on a 4x4 mesh in 3,000 cycles:
 * 0.053 accepted of 0.064). From 100 packets one is at most 1 % of the
 * window's flits; below that the drain alone decides. */
#define SATURATED_SHARE 0.9
#define SATURATED_MIN_PACKETS 100

static uint64_t next_rand(uint64_t *s)            /* xorshift64* */
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static double unit(uint64_t *s) { return (double)(next_rand(s) >> 11) / 9007199254740992.0; }


static int pattern_dst(const struct cfg *c, int src, uint64_t *rng)
{
    int N = c->m.nodes, b = machine_log2(N), cs[NIC_MAX_DIMS];
    topo_coords(&c->m, src, cs);
    switch (c->pat) {
    case P_UNIFORM:
        return (int)(next_rand(rng) % (uint64_t)N);
    case P_HOTSPOT:
        return unit(rng) < c->hot_frac ? 0 : (int)(next_rand(rng) % (uint64_t)N);
    case P_BITCOMP:
        return ~src & (N - 1);
    case P_BITREV: {
        int d = 0;
        for (int i = 0; i < b; i++)
            if (src & (1 << i))
                d |= 1 << (b - 1 - i);
        return d;
    }
    case P_TRANSPOSE:
        if (c->m.ndims == 2 && c->m.dims[0] == c->m.dims[1] && c->m.topo != TOPO_HYPERCUBE)
            return cs[1] + c->m.dims[0] * cs[0];
        return ((src << (b / 2)) | (src >> (b - b / 2))) & (N - 1);   /* swap the halves of the bits */
    case P_TORNADO:
    case P_NEIGHBOR: {
        int d = 0;
        for (int i = c->m.ndims - 1; i >= 0; i--) {
            int k = c->m.dims[i];
            int x = c->pat == P_TORNADO ? (cs[i] + (k + 1) / 2 - 1) % k : (cs[i] + 1) % k;
            d = d * k + x;
        }
        return d;
    }
    }
    return src;
}

/* Whether pattern p is defined on machine m: bitcomp and bitrev need a
 * power-of-two node count, transpose that or a square 2D shape. */
static int pattern_fits(const struct topo_shape *m, enum pattern p)
{
    int square = m->ndims == 2 && m->dims[0] == m->dims[1];
    return !(m->nodes & (m->nodes - 1)) || !(p == P_BITCOMP || p == P_BITREV || (p == P_TRANSPOSE && !square));
}

/* Whether pattern pat gives some node of the machine another node as
 * destination: a packet a node would send itself is not sent, so under a
 * pattern that gives every node itself (tornado on dimensions of 2, bitrev
 * or transpose on 2 nodes, any on 1) a run would measure no traffic. */
static int pattern_moves(const struct cfg *c, enum pattern pat)
{
    struct cfg k = *c;
    k.pat = pat;
    if (k.m.nodes < 2)
        return 0;
    if (pat == P_UNIFORM || pat == P_HOTSPOT)
        return 1;
    uint64_t rng = 1;                 /* (the other patterns draw nothing) */
    for (int i = 0; i < k.m.nodes; i++)
        if (pattern_dst(&k, i, &rng) != i)
            return 1;
    return 0;
}

/* The patterns defined on the machine that send some traffic on it,
 * ", "-separated in acc ("" if none). */
static void patterns_here(const struct cfg *c, char *acc, size_t len)
{
    *acc = 0;
    for (int i = 0; i < N_PATTERNS; i++)
        if (pattern_fits(&c->m, (enum pattern)i) && pattern_moves(c, (enum pattern)i))
            snprintf(acc + strlen(acc), len - strlen(acc), "%s%s", *acc ? ", " : "", pattern_names[i]);
}

/* 0, or -1 said: the chosen pattern is not defined on this machine
 * (pattern_fits); the message names the machine and the patterns that
 * run on it. */
int refuse_unfit(const struct cfg *c, const char *pat)
{
    if (pattern_fits(&c->m, c->pat))
        return 0;
    char dimstr[64], acc[160];
    machine_dims_str(&c->m, dimstr, sizeof dimstr);
    patterns_here(c, acc, sizeof acc);
    fprintf(stderr, "netsim: pattern %s needs a power-of-two node count%s, and %s %s has %d nodes%s; accepted "
            "here: %s\n", pat, c->pat == P_TRANSPOSE ? " or a square 2D shape" : "", topo_names[c->m.topo], dimstr,
            c->m.nodes, c->pat == P_TRANSPOSE ? ", not in a square" : "", *acc ? acc : "none");
    return -1;
}

/* 0, or -1 said: the chosen pattern sends nothing on this machine; the
 * message names the patterns that do, if any. */
int refuse_no_traffic(const struct cfg *c, const char *pat)
{
    if (pattern_moves(c, c->pat))
        return 0;
    char dimstr[64], acc[160];
    machine_dims_str(&c->m, dimstr, sizeof dimstr);
    patterns_here(c, acc, sizeof acc);
    fprintf(stderr, "netsim: pattern %s on %s %s gives every node itself as destination, and a packet a node "
            "would send itself is not sent: no traffic; accepted: %s\n", pat, topo_names[c->m.topo], dimstr,
            *acc ? acc : "a machine of 2 nodes or more");
    return -1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

struct pkt { struct net_msg nm; uint64_t created; int measured; };

/* One generator per node, seeded from --seed and the node. */
static uint64_t *new_rngs(const struct cfg *c)
{
    uint64_t *rng = malloc((size_t)c->m.nodes * sizeof *rng);
    for (int i = 0; rng && i < c->m.nodes; i++)
        rng[i] = (c->seed + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(i + 1) * 0xbf58476d1ce4e5b9ull;
    return rng;
}

int run_once(const struct cfg *c, struct result *res, char *err, size_t errlen)
{
    struct net *n = new_net(c, err, errlen);
    if (!n)
        return -1;
    int N = c->m.nodes;
    uint64_t *rng = new_rngs(c);
    uint64_t flits = (c->len + c->p.net.flit_bytes - 1) / c->p.net.flit_bytes;
    if (!flits)
        flits = 1;
    flits += c->p.net.header_flits;
    double prob = c->rate / (double)flits;
    size_t lat_cap = 1024, nlat = 0;
    uint64_t *lat = malloc(lat_cap * sizeof *lat);
    uint64_t *seq = calloc((size_t)N, sizeof *seq);
    uint64_t end = c->warmup + c->measure, flits_in_window = 0, outstanding_measured = 0, flits_generated = 0;
    memset(res, 0, sizeof *res);
    double t0 = now_s();
    uint64_t cyc;
    for (cyc = 0;; cyc++) {
        if (cyc < end) {
            for (int i = 0; i < N; i++) {
                if (unit(&rng[i]) >= prob)
                    continue;
                int d = pattern_dst(c, i, &rng[i]);
                if (d == i)
                    continue;
                struct pkt *p = calloc(1, sizeof *p);
                p->nm.src = i;
                p->nm.dst = d;
                p->nm.len = c->len;
                p->nm.seq = seq[i]++;
                p->nm.t_ready_ns = net_cycle_to_ns(n, cyc);
                p->nm.owner = p;
                p->created = cyc;
                p->measured = cyc >= c->warmup;
                outstanding_measured += (uint64_t)p->measured;
                flits_generated += p->measured ? flits : 0;
                res->created++;
                net_inject(n, &p->nm);
            }
        } else if (!outstanding_measured || cyc >= end + c->drain_max) {
            res->saturated = outstanding_measured > 0;
            break;
        }
        struct net_msg *arr, *left;
        while (net_now(n) <= cyc) {
            if (net_run(n, cyc + 1, &arr, &left) < 0) {
                snprintf(err, errlen, "%s at cycle %llu", net_run_error(n), (unsigned long long)net_now(n));
                return -1;
            }
            for (struct net_msg *nx; arr; arr = nx) {
                nx = arr->next_done;          /* arr lives inside p, freed below */
                struct pkt *p = arr->owner;
                res->delivered++;
                if (arr->c_arrive > c->warmup && arr->c_arrive <= end)
                    flits_in_window += arr->flits;
                if (p->measured) {
                    if (nlat == lat_cap)
                        lat = realloc(lat, (lat_cap *= 2) * sizeof *lat);
                    lat[nlat++] = arr->c_arrive - p->created;
                    outstanding_measured--;
                }
                free(p);
            }
        }
    }
    double wall = now_s() - t0;
    qsort(lat, nlat, sizeof *lat, cmp_u64);
    double sum = 0;
    for (size_t i = 0; i < nlat; i++)
        sum += (double)lat[i];
    res->offered = c->rate;
    res->generated = (double)flits_generated / ((double)N * (double)c->measure);
    res->accepted = (double)flits_in_window / ((double)N * (double)c->measure);
    res->measured = nlat;
    res->mean = nlat ? sum / (double)nlat : 0;
    res->p50 = nlat ? (double)lat[nlat / 2] : 0;
    res->p99 = nlat ? (double)lat[(size_t)((double)(nlat - 1) * 0.99)] : 0;
    res->max_lat = nlat ? (double)lat[nlat - 1] : 0;
    res->saturated |= flits_generated >= SATURATED_MIN_PACKETS * flits &&
                      res->accepted < SATURATED_SHARE * res->generated;
    res->cycles = net_cycles_simulated(n);
    res->wall_s = wall;
    res->flit_hops_per_s = wall > 0 ? (double)net_flit_hops(n) / wall : 0;
    res->router_cycles_per_s = wall > 0 ? (double)cyc * N / wall : 0;
    free(lat);
    free(seq);
    free(rng);
    net_free(n);     /* packets still inside (saturated runs) go with the process */
    return 0;
}

/* --burst: M destinations drawn per node at cycle 0, a packet to each
 * but the node itself (as under --rate, a packet a node would send itself
 * is not sent); one JSON object or table row, whose packets are those
 * sent. Each node's packets are numbered 0, 1, .. in the order sent. */
int run_burst(const struct cfg *c, char *err, size_t errlen)
{
    struct net *n = new_net(c, err, errlen);
    if (!n)
        return -1;
    int N = c->m.nodes;
    size_t drawn = (size_t)N * c->burst, total = 0;
    struct net_msg *msg = calloc(drawn, sizeof *msg);
    uint64_t *rng = new_rngs(c);
    if (!msg || !rng) {
        snprintf(err, errlen, "no memory for %zu packets", drawn);
        return -1;
    }
    for (int i = 0; i < N; i++) {
        uint64_t sent = 0;
        for (uint64_t j = 0; j < c->burst; j++) {
            int d = pattern_dst(c, i, &rng[i]);
            if (d == i)
                continue;
            struct net_msg *m = &msg[total++];
            m->src = i;
            m->dst = d;
            m->len = c->len;
            m->seq = sent++;
            net_inject(n, m);
        }
    }
    double w0 = now_s(), c0 = own_cpu_s();
    if (net_run_until(n, UINT64_MAX, err, errlen))
        return -1;
    double wall = now_s() - w0, cpu = own_cpu_s() - c0;
    uint64_t h = DIGEST_START;
    for (size_t i = 0; i < total; i++)
        h = fold_msg(h, &msg[i]);
    print_engine_run(c, n, h, "packets", total, "len", c->len, wall, cpu);
    free(msg);
    free(rng);
    net_free(n);
    return 0;
}

/* A latency of the run: JSON null when no packet was measured (there is
 * no latency to give, and 0 is none a packet can have). */
static json_t *latency_json(const struct result *r, double v)
{
    return r->measured ? json_real(v) : json_null();
}

/* One traffic run as one JSON object a line (docs/files.md, netsim --json). */
void print_traffic_json(const struct cfg *c, const char *dimstr, const char *pat, const struct result *r)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:f, s:f, s:f, s:o, s:o, s:o, s:o, s:I, s:b, s:f, s:f, s:f}",
        "topology", topo_names[c->m.topo], "dims", dimstr, "pattern", pat, "len", (int)c->len,
        "routing", routing_names[c->p.net.routing], "selection", selection_names[c->p.net.selection],
        "offered", r->offered, "generated", r->generated, "accepted", r->accepted,
        "mean_latency", latency_json(r, r->mean), "p50_latency", latency_json(r, r->p50),
        "p99_latency", latency_json(r, r->p99), "max_latency", latency_json(r, r->max_lat),
        "packets", (json_int_t)r->measured, "saturated", r->saturated, "wall_s", r->wall_s,
        "flit_hops_per_s", r->flit_hops_per_s, "router_cycles_per_s", r->router_cycles_per_s);
    char *t = json_dumps(o, NETSIM_JSON_FLAGS);
    puts(t);
    free(t);
    json_decref(o);
}

/* One traffic run as a table row; its latencies '-' when no packet was
 * measured. */
void print_traffic_row(const struct result *r)
{
    if (r->measured)
        printf("%8.3f %9.3f %9.1f %9.0f %9.0f %9.0f", r->offered, r->accepted, r->mean, r->p50, r->p99, r->max_lat);
    else
        printf("%8.3f %9.3f %9s %9s %9s %9s", r->offered, r->accepted, "-", "-", "-", "-");
    printf(" %10llu %12.2f%s\n", (unsigned long long)r->measured, r->flit_hops_per_s / 1e6,
           r->saturated ? "  saturated" : "");
}
