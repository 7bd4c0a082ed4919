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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include "machine.h"
#include "show.h"
#include "../apps/number.h"
#include "netsim.h"

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
int apply_sets(struct params *p, enum topo_port *pm, const char *const *sets, int nsets)
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
int refuse_node_change(const struct params *before, const struct params *after, const char *opt,
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
        printf("# %s %s, %s traffic, %u-byte packets, %s, %s, %u VCs x %u flits, routing %s%s%s; "
               "latency in cycles of %.3f ns\n"
               "%8s %9s %9s %9s %9s %9s %10s %12s\n", topo_names[c.m.topo], dimstr, pat, c.len,
               switching_names[c.p.net.switching], ports, c.p.net.vcs, c.p.net.buf_flits,
               routing_names[c.p.net.routing], c.p.net.selection != SEL_FIRST ? " selection " : "",
               c.p.net.selection != SEL_FIRST ? selection_names[c.p.net.selection] : "",
               (double)c.p.net.flit_bytes * c.p.net.byte_ps / 1000.0,
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
