/* netsim: the interconnect alone, on synthetic traffic (no QEMU).
 *
 * Each node injects fixed-size packets by a Bernoulli process: in every
 * cycle, with probability rate / flits_per_packet, so `rate` is the
 * offered load in flits per node per cycle. Destinations follow a pattern
 * (Dally and Towles, Principles and Practices of Interconnection Networks,
 * ch. 3; the names BookSim uses). Latency is from the cycle a packet is
 * created to the cycle its tail leaves the network, so it includes source
 * queueing. Packets created during the warm-up are delivered but not
 * measured; accepted throughput counts flits delivered in the measurement
 * window. Random numbers come from one seeded generator per node, so a
 * run is repeatable. A run is saturated if its measured packets are not
 * all delivered within a long drain, or if the network accepts less than
 * SATURATED_SHARE of what the window's packets carry (generated; from
 * SATURATED_MIN_PACKETS of them): a long
 * drain empties any network, so the first test alone misses a network
 * that falls behind only as fast as the window lasts. A sweep goes on
 * past saturation (where
 * accepted throughput shows whether the network's arbitration holds up)
 * without draining the later, heavier runs, and ends with the peak
 * accepted throughput and the last run's share of it.
 *
 * --burst M instead gives every node M packets at cycle 0, destinations
 * by the pattern (a packet to the node itself not sent), as a collective's
 * step would, and runs until all are delivered: the engine's cost for a fixed amount of work. Its digest
 * folds every packet's times and every link's counters into one number,
 * so two runs (say with and without --no-jump) compare in one field.
 *
 * --replay RUN_DIR instead hands the network the messages a wormsim run
 * recorded (its messages.csv, on its machine and parameters: summary.json
 * and params.conf), each when its node posted it, and says whether they
 * crossed it at their recorded times and the links counted what links.csv
 * holds (out/msg_replay.h): the run's network
 * cost without its nodes, or with --set an open-loop what-if.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <time.h>
#include <sys/stat.h>
#include <jansson.h>
#include "machine.h"
#include "host_clock.h"
#include "params.h"
#include "net_model.h"
#include "out/msg_replay.h"
#include "out/results.h"
#include "out/report.h"
#include "show.h"
#include "files.h"
#include "../apps/number.h"
#include "../fnv.h"

enum pattern { P_UNIFORM, P_TRANSPOSE, P_BITCOMP, P_BITREV, P_TORNADO, P_HOTSPOT, P_NEIGHBOR };
static const char *const pattern_names[] = { "uniform", "transpose", "bitcomp", "bitrev", "tornado", "hotspot", "neighbor" };
#define N_PATTERNS (int)(sizeof pattern_names / sizeof *pattern_names)

struct cfg {
    struct topo_shape m;
    struct params p;
    enum pattern pat;
    double rate, hot_frac;
    uint32_t len;
    uint64_t warmup, measure, seed, drain_max;
    int json, jump;
    uint64_t burst;
};

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

/* netsim's JSON lines: compact, in the order written, and reals to 15
 * significant digits, the most a double keeps of a decimal: an offered
 * load of 0.3 (0.1 + 2 x 0.1 in a sweep) prints as 0.3, not as the 17
 * digits of the nearest double, 0.30000000000000004. */
#define NETSIM_JSON_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

struct result {
    double offered, accepted, mean, p50, p99, max_lat;
    double generated;             /* flits per node per cycle the window's packets carry */
    uint64_t measured, created, delivered, cycles;
    double wall_s, flit_hops_per_s, router_cycles_per_s;
    int saturated;
};

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
static int refuse_unfit(const struct cfg *c, const char *pat)
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
static int refuse_no_traffic(const struct cfg *c, const char *pat)
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

/* The network of the run, in the engine mode the options chose. */
static struct net *new_net(const struct cfg *c, char *err, size_t errlen)
{
    struct net *n = net_new(&c->m, &c->p.net, err, errlen);
    if (n && net_set_jump(n, (enum net_jump)c->jump)) {
        snprintf(err, errlen, "no memory for --check-jump");
        net_free(n);
        return NULL;
    }
    return n;
}

/* One generator per node, seeded from --seed and the node. */
static uint64_t *new_rngs(const struct cfg *c)
{
    uint64_t *rng = malloc((size_t)c->m.nodes * sizeof *rng);
    for (int i = 0; rng && i < c->m.nodes; i++)
        rng[i] = (c->seed + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(i + 1) * 0xbf58476d1ce4e5b9ull;
    return rng;
}

static int run_once(const struct cfg *c, struct result *res, char *err, size_t errlen)
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

static uint64_t fold(uint64_t h, uint64_t v)      /* FNV-1a over the 8 bytes of v, low byte first */
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return fnv1a(h, b, sizeof b);
}

/* A run's digest: every message's times (fold_msg, in a fixed order),
 * then every link's counters and the network's totals (fold_net). */
#define DIGEST_START FNV_START
static uint64_t fold_msg(uint64_t h, const struct net_msg *m)
{
    h = fold(h, m->c_inject);
    h = fold(h, m->c_head);
    h = fold(h, m->c_leave);
    h = fold(h, m->c_arrive);
    return fold(h, m->blocked_cycles);
}

static uint64_t fold_net(uint64_t h, const struct net *n)
{
    int nl;
    const struct link_stats *ls = net_link_stats(n, &nl);
    for (int i = 0; i < nl; i++) {
        h = fold(h, ls[i].flits);
        h = fold(h, ls[i].worms);
        h = fold(h, ls[i].blocked);
    }
    h = fold(h, net_flit_hops(n));
    return fold(h, net_cycles_simulated(n));
}

static void digest_text(uint64_t h, char out[17]) { snprintf(out, 17, "%016llx", (unsigned long long)h); }

/* One run of the engine on a fixed load (--burst, --replay): the two
 * figures that name the load (first1, first2), then the cycles, the digest
 * (h, the messages folded, with the network's counters folded here), the
 * engine's steps and jumps and its time; one JSON object or a table row. */
static void print_engine_run(const struct cfg *c, const struct net *n, uint64_t h, const char *k1, uint64_t v1,
                             const char *k2, uint64_t v2, double wall, double cpu)
{
    uint64_t stepped, jumped, jumps, moves, moves_jumped;
    char digest[17];
    digest_text(fold_net(h, n), digest);
    net_engine_stats(n, &stepped, &jumped, &jumps);
    net_engine_moves(n, &moves, &moves_jumped);
    if (c->json) {
        json_t *o = json_pack("{s:I, s:I, s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:f, s:f}", k1, (json_int_t)v1, k2,
            (json_int_t)v2, "cycles", (json_int_t)net_now(n), "digest", digest, "cycles_stepped",
            (json_int_t)stepped, "cycles_jumped", (json_int_t)jumped, "jumps", (json_int_t)jumps, "moves",
            (json_int_t)moves, "moves_jumped", (json_int_t)moves_jumped, "wall_s", wall, "engine_cpu_s", cpu);
        char *t = json_dumps(o, NETSIM_JSON_FLAGS);
        puts(t);
        free(t);
        json_decref(o);
    } else {
        printf("%10s %11s %12s %18s %14s %14s %12s\n", k1, k2, "cycles", "digest", "cycles_stepped",
               "cycles_jumped", "engine_cpu_s");
        printf("%10llu %11llu %12llu %18s %14llu %14llu %12.3f\n", (unsigned long long)v1, (unsigned long long)v2,
               (unsigned long long)net_now(n), digest, (unsigned long long)stepped, (unsigned long long)jumped, cpu);
    }
}

/* --burst: M destinations drawn per node at cycle 0, a packet to each
 * but the node itself (as under --rate, a packet a node would send itself
 * is not sent); one JSON object or table row, whose packets are those
 * sent. Each node's packets are numbered 0, 1, .. in the order sent. */
static int run_burst(const struct cfg *c, char *err, size_t errlen)
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

/* The machine a run ran on (its summary.json's topology and dims); -1
 * with the reason if it has none, or if the run sent fetch-and-increment
 * packets or rendezvous control worms, which messages.csv does not hold
 * (msg_replay.h). */
static int run_machine(const char *dir, struct topo_shape *m, char *err, size_t errlen)
{
    json_t *s = results_load(dir, err, errlen);
    if (!s)
        return -1;
    const char *topo = json_string_value(json_object_get(s, "topology"));
    const char *dims = json_string_value(json_object_get(s, "dims"));
    char b[SHOW_LEN], why[600];
    int bad = !topo || !dims;
    if (bad)
        snprintf(err, errlen, "%s/summary.json names no \"topology\" and \"dims\" (strings)", show(b, dir, 0));
    else if ((bad = machine_parse(m, topo, NULL, dims, why, sizeof why) != 0))
        snprintf(err, errlen, "%s/summary.json: %s", show(b, dir, 0), why);
    json_int_t fi = json_integer_value(json_object_get(s, "fetch_inc_packets"));
    if (!bad && (bad = fi > 0))
        snprintf(err, errlen, "the run sent %lld fetch-and-increment packets (summary.json), which messages.csv "
                 "does not hold, so it does not replay", (long long)fi);
    json_int_t rv = json_integer_value(json_object_get(s, "rendezvous_packets"));
    if (!bad && (bad = rv > 0))
        snprintf(err, errlen, "the run sent %lld rendezvous requests and clears (summary.json, eager_max = %lld), "
                 "which messages.csv does not hold, so it does not replay", (long long)rv,
                 (long long)json_integer_value(json_object_get(json_object_get(s, "network"), "eager_max")));
    json_decref(s);
    return bad ? -1 : 0;
}

/* A run that failed (summary.json's ok false) recorded the messages it
 * had sent until it ended: the replay takes those, and says so first, so
 * that a short replay is not read as the run's whole traffic. */
static void say_if_failed(const char *dir)
{
    char err[600], b[SHOW_LEN], e[SHOW_LEN];
    json_t *s = results_load(dir, err, sizeof err);
    if (s && json_is_false(json_object_get(s, "ok"))) {
        const char *why = json_string_value(json_object_get(s, "error"));
        fprintf(stderr, "netsim: --replay %s: the run failed (%s); its messages.csv holds what it sent before it "
                "ended, and only that replays\n", show(b, dir, 0), why ? show(e, why, 0) : "summary.json: ok false");
    }
    json_decref(s);
}

/* The run's links.csv against the links network n counted (as
 * report_links_csv writes them): 0 if the same, else the first line that
 * differs; -1 with the reason in err if it cannot be read. */
static long links_differ(const struct net *n, const struct topo_shape *m, const char *dir, char *err, size_t errlen)
{
    char path[4200], *mine = NULL, *run = NULL;
    size_t nmine = 0, cap = 0;
    snprintf(path, sizeof path, "%s/links.csv", dir);
    FILE *f = file_fopen_regular(path, "run's links", 1ll << 30, err, errlen);
    if (!f)
        return -1;
    FILE *g = open_memstream(&mine, &nmine);
    if (g) {
        report_links_csv(g, n, m);
        fclose(g);
    }
    long line = 0, at = -1;
    char *p = mine;
    for (ssize_t k; at < 0 && mine && (k = getline(&run, &cap, f)) >= 0;) {
        line++;
        size_t len = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
        if ((size_t)k != len || memcmp(run, p, len))
            at = line;
        p += len;
    }
    if (at < 0 && mine)
        at = *p ? line + 1 : 0;          /* the replay's table goes on past the run's */
    int bad = !mine || ferror(f);
    if (bad)
        snprintf(err, errlen, "%.700s: could not be read, or no memory to compare it", path);
    fclose(f);
    free(run);
    free(mine);
    return bad ? -1 : at;
}

/* --replay: the run's messages, each handed over at its post time; one
 * JSON object or table row, and whether every message kept its recorded
 * times and every link its counters (links.csv). 0, 1 if not and nothing
 * was set (the network is the run's), -1 on an error (in err). */
static int run_replay(const struct cfg *c, const char *dir, int what_if, char *err, size_t errlen)
{
    char path[4200], b[SHOW_LEN];
    snprintf(path, sizeof path, "%s/messages.csv", dir);
    FILE *f = file_fopen_regular(path, "run's messages", 1ll << 40, err, errlen);
    if (!f)
        return -1;
    struct msg_replay r;
    int bad = msg_replay_read(f, path, c->m.nodes, &r, err, errlen);
    fclose(f);
    if (bad)
        return -1;
    struct net *n = new_net(c, err, errlen);
    double w0 = now_s(), c0 = own_cpu_s();
    int rc = !n || msg_replay_run(n, &r, err, errlen) ? -1 : 0;
    double wall = now_s() - w0, cpu = own_cpu_s() - c0;
    size_t first = 0, same = 0;
    long link_line = 0;
    if (rc == 0) {
        uint64_t h = DIGEST_START;
        for (size_t i = 0; i < r.n; i++)
            h = fold_msg(h, &r.m[i].nm);
        same = msg_replay_matched(n, &r, &first);
        print_engine_run(c, n, h, "messages", r.n, "as_recorded", same, wall, cpu);
        link_line = links_differ(n, &c->m, dir, err, errlen);
        rc = link_line < 0 ? -1 : (same < r.n || link_line) && !what_if;
    }
    if (rc == 1 && link_line) {
        fflush(stdout);
        fprintf(stderr, "netsim: the links the replay's network counted differ from %s/links.csv from line %ld\n",
                show(b, dir, 0), link_line);
    }
    if (rc == 1 && same < r.n) {
        const struct msg_replay_msg *m = &r.m[first];
        fflush(stdout);
        fprintf(stderr, "netsim: %zu of the %zu messages of %s crossed the network at other times than in the run; "
                "the first, line %zu (%d -> %d, %u bytes): in, head, arrived at %llu, %llu, %llu ns in the run, "
                "%llu, %llu, %llu here. A run whose messages.csv has no kind column (made before it had one) "
                "may hold multidestination worms or have sent fetch-and-increment packets, which do not replay\n",
                r.n - same, r.n, show(b, path, 0), m->line, m->nm.src, m->nm.dst, m->nm.len,
                (unsigned long long)m->t_inject_ns, (unsigned long long)m->t_head_ns,
                (unsigned long long)m->t_arrive_ns, (unsigned long long)net_cycle_to_ns(n, m->nm.c_inject),
                (unsigned long long)net_cycle_to_ns(n, m->nm.c_head),
                (unsigned long long)net_cycle_to_ns(n, m->nm.c_arrive));
    }
    msg_replay_free(&r);
    net_free(n);
    return rc;
}

/* A latency of the run: JSON null when no packet was measured (there is
 * no latency to give, and 0 is none a packet can have). */
static json_t *latency_json(const struct result *r, double v)
{
    return r->measured ? json_real(v) : json_null();
}

/* One traffic run as one JSON object a line (docs/files.md, netsim --json). */
static void print_traffic_json(const struct cfg *c, const char *dimstr, const char *pat, const struct result *r)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:f, s:f, s:f, s:o, s:o, s:o, s:o, s:I, s:b, s:f, s:f, s:f}",
        "topology", topo_names[c->m.topo], "dims", dimstr, "pattern", pat, "len", (int)c->len,
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
static void print_traffic_row(const struct result *r)
{
    if (r->measured)
        printf("%8.3f %9.3f %9.1f %9.0f %9.0f %9.0f", r->offered, r->accepted, r->mean, r->p50, r->p99, r->max_lat);
    else
        printf("%8.3f %9.3f %9s %9s %9s %9s", r->offered, r->accepted, "-", "-", "-", "-");
    printf(" %10llu %12.2f%s\n", (unsigned long long)r->measured, r->flit_hops_per_s / 1e6,
           r->saturated ? "  saturated" : "");
}

static void usage(FILE *f)
{
    char topos[256];
    machine_topo_list(topos, sizeof topos, " | ");
    fprintf(f,
"usage: netsim [options]   the interconnect alone, on synthetic traffic\n"
"  -t, --topo KIND       %s (default torus)\n"
"  -n, --nodes N         node count (default %d, a dragonfly %d)\n"
"  -d, --dims AxB..      sizes per dimension\n"
"  -p, --pattern P       uniform transpose bitcomp bitrev tornado hotspot neighbor (default uniform)\n"
"  -r, --rate R          offered load, flits per node per cycle (default 0.1); a packet a\n"
"                        node would send itself is not sent, so uniform traffic generates\n"
"                        R (N-1)/N (JSON: generated, measured over the window)\n"
"      --sweep A:B:S     one run per rate from A to B in steps of S: the latency-load curve,\n"
"                        and accepted throughput past saturation (a saturated run's\n"
"                        latencies cover only the packets it delivered)\n"
"  -l, --len BYTES       packet payload (default 64)\n"
"      --warmup C        cycles before measuring (default 2000)\n"
"      --cycles C        measured cycles (default 10000)\n"
"      --seed S          random seed (default 1)\n"
"      --hot-frac F      hotspot: a packet goes to node 0 with probability F, else to a\n"
"                        uniform node (default 0.1)\n"
"      --burst M         instead: M packets per node at cycle 0 (less those to itself, which\n"
"                        are not sent), run until all are delivered\n"
"      --replay RUN_DIR  instead: the messages a wormsim run recorded (RUN_DIR/messages.csv),\n"
"                        each handed over at its post time and entering when it was ready\n"
"                        (t_ready_ns), on the run's machine and parameters (summary.json,\n"
"                        params.conf; --set changes the network's: an open-loop what-if;\n"
"                        a node's, such as t_send_ns, is refused); says how many kept their\n"
"                        recorded times, and without --set exits 1 if any did not, or a\n"
"                        link's counters differ from links.csv\n"
"      --no-jump         step every cycle (the engine's jumps over periodic stretches off;\n"
"                        results are the same)\n"
"      --check-jump      also step a second model every cycle in every router (no shortcut);\n"
"                        fail at the first difference\n"
"      --preset NAME, --set 'k=v ..'   network parameters, as for wormsim (docs/network.md);\n"
"                        --set takes the network's keys only (a node's, such as t_send_ns,\n"
"                        is refused: it would change nothing)\n"
"      --json            one JSON object per run instead of a table\n",
            topos, machine_default_nodes(TOPO_TORUS), machine_default_nodes(TOPO_DRAGONFLY));
}

/* s whole as a finite number (no NaN, no infinity) from lo to hi, ending
 * at stop (0: the string's end, or ':' within --sweep); the text after it
 * in *end. 0, or -1. */
static int read_double(const char *s, char stop, double lo, double hi, double *out, const char **end)
{
    char *e;
    errno = 0;
    double v = strtod(s, &e);
    if (errno || e == s || *e != stop || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    *end = e;
    return 0;
}

static int parse_double(const char *opt, const char *s, double lo, double hi, double *out)
{
    const char *e;
    if (read_double(s, 0, lo, hi, out, &e)) {
        fprintf(stderr, "netsim: %s '%s' is not a number from %g to %g\n", opt, s, lo, hi);
        return -1;
    }
    return 0;
}

#define SWEEP_RATES_MAX 1001       /* 0:1:0.001 */

/* --sweep A:B:S, exactly three finite numbers with 0 <= A <= B <= 1 and
 * S > 0. 0, or -1 said. */
static int parse_sweep(const char *s, double *r0, double *r1, double *step)
{
    const char *e = s;
    if (read_double(e, ':', 0, 1, r0, &e) || read_double(e + 1, ':', *r0, 1, r1, &e) ||
        read_double(e + 1, 0, 0, HUGE_VAL, step, &e) || !(*step > 0)) {
        fprintf(stderr, "netsim: --sweep '%s' is not A:B:S with 0 <= A <= B <= 1 and S > 0\n", s);
        return -1;
    }
    double steps = (*r1 - *r0) / *step + 1e-9;             /* the rate loop's: rates = whole steps + 1 */
    if (steps >= SWEEP_RATES_MAX) {                        /* (also keeps that loop's count an int) */
        if (steps < 1e9)
            fprintf(stderr, "netsim: --sweep '%s' gives %ld rates; at most %d (a larger step S)\n", s,
                    (long)steps + 1, SWEEP_RATES_MAX);
        else
            fprintf(stderr, "netsim: --sweep '%s' gives %.3g rates; at most %d (a larger step S)\n", s, steps,
                    SWEEP_RATES_MAX);
        return -1;
    }
    return 0;
}

/* A whole number in the syntax of every option (apps/number.h: decimal,
 * or hexadecimal after 0x; no sign, and no leading 0 before another
 * digit), from lo to hi (hi at most INT64_MAX). */
static int parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    long long v;
    int rc = number_parse(s, 0, hi, &v);
    if (rc || (uint64_t)v < lo) {
        fprintf(stderr, "netsim: %s '%s' is not a whole number from %llu to %llu%s\n", opt, s,
                (unsigned long long)lo, (unsigned long long)hi,
                rc == NUMBER_OCTAL ? NUMBER_FORM : "");
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

/* Which of the options that only some runs use were given. */
enum { GIVEN_RATE = 1, GIVEN_SWEEP = 2, GIVEN_WARMUP = 4, GIVEN_CYCLES = 8, GIVEN_HOT_FRAC = 16, GIVEN_SEED = 32,
       GIVEN_NO_JUMP = 64, GIVEN_CHECK_JUMP = 128 };

/* Whether pattern p draws random numbers: only uniform and hotspot do;
 * the others are permutations of the nodes. */
static int pattern_draws(enum pattern p) { return p == P_UNIFORM || p == P_HOTSPOT; }

/* No option given is one the run would ignore: a burst has no offered
 * load, warm-up or window (it runs until its packets are delivered), nor
 * a use for --seed under a pattern that draws nothing (a burst draws only
 * destinations), a sweep sets every rate itself, only hotspot traffic has
 * a hot fraction. 0, or -1 with the first such pair said. */
static int refuse_ignored(const struct cfg *c, unsigned given, const char *pat)
{
    static const struct { unsigned bit; const char *opt; } load[] = {
        { GIVEN_SWEEP, "--sweep" }, { GIVEN_RATE, "--rate" }, { GIVEN_WARMUP, "--warmup" }, { GIVEN_CYCLES, "--cycles" },
    };
    for (size_t i = 0; c->burst && i < sizeof load / sizeof *load; i++)
        if (given & load[i].bit) {
            fprintf(stderr, "netsim: --burst and %s do not go together (a burst is M packets a node at "
                    "cycle 0, run until all are delivered)\n", load[i].opt);
            return -1;
        }
    if (c->burst && (given & GIVEN_SEED) && !pattern_draws(c->pat)) {
        fprintf(stderr, "netsim: --burst, --seed and --pattern %s do not go together (a burst draws only "
                "destinations, and %s draws none; --seed is for --rate, --sweep, or a burst of uniform or "
                "hotspot traffic)\n", pat, pat);
        return -1;
    }
    if ((given & GIVEN_RATE) && (given & GIVEN_SWEEP)) {
        fprintf(stderr, "netsim: --rate and --sweep do not go together (the sweep gives every rate)\n");
        return -1;
    }
    if ((given & GIVEN_HOT_FRAC) && c->pat != P_HOTSPOT) {
        fprintf(stderr, "netsim: --hot-frac and --pattern %s do not go together (--hot-frac is for "
                "--pattern hotspot)\n", pat);
        return -1;
    }
    return 0;
}

/* --no-jump and --check-jump each set the engine's mode, so given both the
 * last would win and the other be dropped. 0, or -1 said. */
static int refuse_both_jump_modes(unsigned given)
{
    if (!(given & GIVEN_NO_JUMP) || !(given & GIVEN_CHECK_JUMP))
        return 0;
    fprintf(stderr, "netsim: --no-jump and --check-jump do not go together (--check-jump runs the jumping "
            "engine beside one stepped every cycle; --no-jump runs the stepped one alone)\n");
    return -1;
}

/* The --set options, in their order, on p and pm; 0, or -1 with the
 * first refusal said. */
static int apply_sets(struct params *p, enum topo_port *pm, const char *const *sets, int nsets)
{
    char err[1024];
    for (int i = 0; i < nsets; i++)
        if (params_set_list(p, pm, sets[i], err, sizeof err)) {
            fprintf(stderr, "netsim: %s\n", err);
            return -1;
        }
    return 0;
}

/* 0, or -1 said: the --set options took `before` (the preset's or the
 * run's parameters) to `after` changing only the network's keys; a node's
 * (t_send_ns, cpu_ps, ..), which no netsim run reads, is refused with
 * `why` and the keys that are read. */
static int refuse_node_change(const struct params *before, const struct params *after, const char *opt,
                              const char *why)
{
    const char *node_key = params_off_network_change(before, after);
    if (!node_key)
        return 0;
    char err[1400];
    int o = snprintf(err, sizeof err, "netsim: %s %s: %s, so only the network's parameters change it; accepted:",
                     opt, node_key, why);
    for (int i = 0; i < params_count() && o > 0 && (size_t)o < sizeof err; i++)
        if (params_is_network(i))
            o += snprintf(err + o, sizeof err - (size_t)o, " %s", params_key(i));
    fprintf(stderr, "%s\n", err);
    return -1;
}

/* The files of a run directory that --replay reads (wormsim writes them all). */
static const char *const run_files[] = { "summary.json", "params.conf", "messages.csv", "links.csv" };

/* dir is a run directory: a directory holding every one of run_files.
 * 0, or -1 with what it is instead said. */
static int check_run_dir(const char *dir)
{
    char b[SHOW_LEN], path[4200], lacks[128] = "";
    struct stat st;
    if (stat(dir, &st)) {
        fprintf(stderr, "netsim: --replay: no run directory %s: %m\n", show(b, dir, 1));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "netsim: --replay: %s is not a run directory: it is not a directory\n", show(b, dir, 1));
        return -1;
    }
    size_t o = 0;
    for (size_t i = 0; i < sizeof run_files / sizeof *run_files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, run_files[i]);
        if (stat(path, &st) && (errno == ENOENT || errno == ENOTDIR))
            o += (size_t)snprintf(lacks + o, sizeof lacks - o, "%s%s", o ? ", " : "", run_files[i]);
    }
    if (o)
        fprintf(stderr, "netsim: --replay: %s is not a run directory (wormsim's runs/latest, for one): "
                "it has no %s\n", show(b, dir, 1), lacks);
    return o ? -1 : 0;
}

/* netsim --replay RUN_DIR [--set ..]: the run's machine and parameters,
 * then its messages (run_replay). */
static int replay_main(struct cfg *c, const char *dir, const char *traffic_opt, const char *const *sets, int nsets)
{
    char err[1400], conf[4200], b[SHOW_LEN];
    enum topo_port pm;
    params_defaults(&c->p, &pm);
    if (traffic_opt) {
        fprintf(stderr, "netsim: --replay takes the run's machine, parameters and messages; %s does not go with "
                "it (--set, --no-jump, --check-jump and --json do)\n", traffic_opt);
        return 2;
    }
    if (!*dir) {
        fprintf(stderr, "netsim: --replay needs a run directory (wormsim's runs/latest, for one)\n");
        return 2;
    }
    if (check_run_dir(dir))
        return 2;
    snprintf(conf, sizeof conf, "%s/params.conf", dir);
    if (params_load(&c->p, &pm, conf, err, sizeof err) || run_machine(dir, &c->m, err, sizeof err)) {
        fprintf(stderr, "netsim: --replay %s: %s\n", show(b, dir, 0), err);
        return 2;
    }
    struct params run = c->p;
    if (apply_sets(&c->p, &pm, sets, nsets))
        return 2;
    if (refuse_node_change(&run, &c->p, "--replay --set", "a replay hands the network each message at its "
                           "recorded time"))            /* so a node's key would change nothing */
        return 2;
    c->m.all_port = pm;
    if (params_check_net(&c->p, &c->m, NULL, nsets, err, sizeof err)) {
        fprintf(stderr, "netsim: --replay %s: %s\n", show(b, dir, 0), err);
        return 2;
    }
    say_if_failed(dir);
    int r = run_replay(c, dir, nsets > 0, err, sizeof err);
    if (r < 0)
        fprintf(stderr, "netsim: --replay %s: %s\n", show(b, dir, 0), err);
    return r < 0 ? 2 : r;
}

/* The node interface as the table's header names it: `ports = k` (k > 0)
 * gives every node k channels whatever the port model (docs/network.md,
 * the port model), so it is a k-port node; else one-port or all-port. */
static void port_text(const struct net_params *np, enum topo_port pm, char *out, size_t len)
{
    if (np->ports)
        snprintf(out, len, "%u-port", np->ports);
    else
        snprintf(out, len, "%s", pm == TOPO_ALL_PORT ? "all-port" : "one-port");
}

int main(int argc, char **argv)
{
    show_guard_stderr();
    struct cfg c = { .jump = NET_JUMP_ON, .rate = 0.1, .hot_frac = 0.1, .len = 64, .warmup = 2000, .measure = 10000, .seed = 1 };
    enum topo_port pm;
    params_defaults(&c.p, &pm);
    const char *topo = "torus", *nodes = NULL, *dims = NULL, *pat = "uniform", *preset = NULL, *sweep = NULL;
    const char *replay = NULL, *traffic_opt = NULL;   /* the first option that shapes synthetic traffic */
#define traffic(opt) (traffic_opt = traffic_opt ? traffic_opt : (opt))
    const char *sets[argc];              /* every --set, however many (one an argument at most) */
    int nsets = 0, bad = 0, ch;
    unsigned given = 0;
    uint64_t len = 64;
    static const struct option opts[] = {
        { "topo", 1, 0, 't' }, { "nodes", 1, 0, 'n' }, { "dims", 1, 0, 'd' }, { "pattern", 1, 0, 'p' },
        { "rate", 1, 0, 'r' }, { "len", 1, 0, 'l' }, { "sweep", 1, 0, 'S' }, { "warmup", 1, 0, 'W' },
        { "cycles", 1, 0, 'C' }, { "seed", 1, 0, 's' }, { "hot-frac", 1, 0, 'H' }, { "preset", 1, 0, 'P' },
        { "set", 1, 0, 'X' }, { "json", 0, 0, 'j' }, { "burst", 1, 0, 'B' }, { "no-jump", 0, 0, 'J' }, { "check-jump", 0, 0, 'K' }, { "replay", 1, 0, 'R' }, { "help", 0, 0, 'h' }, { 0, 0, 0, 0 },
    };
    while ((ch = getopt_long(argc, argv, "t:n:d:p:r:l:h", opts, NULL)) != -1) {
        switch (ch) {
        case 't': topo = optarg; traffic("--topo"); break;
        case 'n': nodes = optarg; traffic("--nodes"); break;
        case 'd': dims = optarg; traffic("--dims"); break;
        case 'p': pat = optarg; traffic("--pattern"); break;
        case 'r': bad |= parse_double("--rate", optarg, 0, 1, &c.rate); traffic("--rate"); given |= GIVEN_RATE; break;
        case 'l': bad |= parse_u64("--len", optarg, 0, 1 << 20, &len); traffic("--len"); break;
        case 'S': sweep = optarg; traffic("--sweep"); given |= GIVEN_SWEEP; break;
        case 'W': bad |= parse_u64("--warmup", optarg, 0, 100000000, &c.warmup); traffic("--warmup"); given |= GIVEN_WARMUP; break;
        case 'C': bad |= parse_u64("--cycles", optarg, 1, 1000000000, &c.measure); traffic("--cycles"); given |= GIVEN_CYCLES; break;
        case 's': bad |= parse_u64("--seed", optarg, 0, INT64_MAX, &c.seed); traffic("--seed"); given |= GIVEN_SEED; break;
        case 'H': bad |= parse_double("--hot-frac", optarg, 0, 1, &c.hot_frac); traffic("--hot-frac"); given |= GIVEN_HOT_FRAC; break;
        case 'P': preset = *optarg ? optarg : NULL; traffic("--preset"); break;   /* '': the built-in parameters, as for wormsim */
        case 'X': sets[nsets++] = optarg; break;
        case 'j': c.json = 1; break;
        case 'B': bad |= parse_u64("--burst", optarg, 1, 1000000, &c.burst); traffic("--burst"); break;
        case 'J': c.jump = NET_JUMP_OFF; given |= GIVEN_NO_JUMP; break;
        case 'K': c.jump = NET_JUMP_CHECK; given |= GIVEN_CHECK_JUMP; break;
        case 'R': replay = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (bad)
        return 2;
    if (optind < argc) {
        fprintf(stderr, "netsim: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    c.len = (uint32_t)len;
    char err[1024];
    if (refuse_both_jump_modes(given))
        return 2;
    if (replay)
        return replay_main(&c, replay, traffic_opt, sets, nsets);
    if ((preset && params_load(&c.p, &pm, preset, err, sizeof err))) {
        fprintf(stderr, "netsim: %s\n", err);
        return 2;
    }
    struct params preset_p = c.p;
    if (apply_sets(&c.p, &pm, sets, nsets))
        return 2;
    if (refuse_node_change(&preset_p, &c.p, "--set", "netsim runs no nodes and none of the hardware beside the "
                           "data network: a packet enters the network when it is created"))
        return 2;
    if (machine_parse(&c.m, topo, nodes, dims, err, sizeof err)) {
        fprintf(stderr, "netsim: %s\n", err);
        return 2;
    }
    c.m.all_port = pm;
    int found = 0;
    for (int i = 0; i < N_PATTERNS; i++)
        if (!strcmp(pat, pattern_names[i])) {
            c.pat = (enum pattern)i;
            found = 1;
        }
    if (!found) {
        fprintf(stderr, "netsim: unknown pattern '%s'; accepted: uniform, transpose, bitcomp, bitrev, "
                "tornado, hotspot, neighbor\n", pat);
        return 2;
    }
    if (refuse_unfit(&c, pat))
        return 2;
    if (refuse_ignored(&c, given, pat))
        return 2;
    if (params_check_net(&c.p, &c.m, preset, nsets, err, sizeof err)) {   /* before any output */
        fprintf(stderr, "netsim: %s\n", err);
        return 2;
    }
    if (refuse_no_traffic(&c, pat))
        return 2;
    if (c.burst) {
        if (c.m.nodes * c.burst > 50000000) {
            fprintf(stderr, "netsim: --burst %llu on %d nodes is more than 50000000 packets\n",
                    (unsigned long long)c.burst, c.m.nodes);
            return 2;
        }
        if (run_burst(&c, err, sizeof err)) {
            fprintf(stderr, "netsim: %s\n", err);
            return 2;
        }
        return 0;
    }
    c.drain_max = 20 * (c.warmup + c.measure) + 100000;
    double r0 = c.rate, r1 = c.rate, step = 1;
    if (sweep && parse_sweep(sweep, &r0, &r1, &step))
        return 2;
    char dimstr[64], ports[32];
    machine_dims_str(&c.m, dimstr, sizeof dimstr);
    port_text(&c.p.net, pm, ports, sizeof ports);
    if (!c.json)
        printf("# %s %s, %s traffic, %u-byte packets, %s, %s, %u VCs x %u flits; latency in cycles of %.3f ns\n"
               "%8s %9s %9s %9s %9s %9s %10s %12s\n", topo_names[c.m.topo], dimstr, pat, c.len,
               switching_names[c.p.net.switching], ports,
               c.p.net.vcs, c.p.net.buf_flits, (double)c.p.net.flit_bytes * c.p.net.byte_ps / 1000.0,
               "offered", "accepted", "mean", "p50", "p99", "max", "packets", "Mflit-hop/s");
    double peak = -1, peak_at = 0;
    struct result last = { 0 };
    for (int k = 0; r0 + k * step <= r1 + 1e-9; k++) {
        c.rate = r0 + k * step;
        struct result res;
        if (run_once(&c, &res, err, sizeof err)) {
            fprintf(stderr, "netsim: %s\n", err);
            return 2;
        }
        if (c.json)
            print_traffic_json(&c, dimstr, pat, &res);
        else
            print_traffic_row(&res);
        fflush(stdout);
        if (res.accepted > peak) {
            peak = res.accepted;
            peak_at = res.offered;
        }
        last = res;
        if (res.saturated)
            c.drain_max = 0;        /* higher loads saturate too: measure the window, skip the drain */
    }
    if (sweep && !c.json)
        printf("# peak accepted %.4f at offered %.3f; at offered %.3f: %.4f (%.3f of peak)\n",
               peak, peak_at, last.offered, last.accepted, peak > 0 ? last.accepted / peak : 0.0);
    return 0;
}
