/* The netsim tool's parts share these: netsim.c (the statement of what
 * each run measures; options and main), netsim_traffic.c (the patterns,
 * --rate, --sweep and --burst), netsim_engine.c (a run's network, the
 * digest and the line of a run on a fixed load) and netsim_replay.c
 * (--replay). */
#ifndef NETSIM_H
#define NETSIM_H

#include "params.h"
#include "net_model.h"
#include "../fnv.h"

enum pattern { P_UNIFORM, P_TRANSPOSE, P_BITCOMP, P_BITREV, P_TORNADO, P_HOTSPOT, P_NEIGHBOR };
#define N_PATTERNS (P_NEIGHBOR + 1)
/* Their names, by enum pattern, in netsim_traffic.c (which asserts there
 * are N_PATTERNS). */
extern const char *const pattern_names[];

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

/* netsim_traffic.c. refuse_unfit, refuse_no_traffic: 0, or -1 said, the
 * chosen pattern not defined on the machine, or sending nothing on it;
 * run_once: one run at offered load c->rate into *res, 0 or -1 with the
 * reason in err; run_burst: --burst, its line printed, 0 or -1;
 * print_traffic_json, print_traffic_row: one run of run_once as a JSON
 * object or a table row. */
int refuse_unfit(const struct cfg *c, const char *pat);
int refuse_no_traffic(const struct cfg *c, const char *pat);
int run_once(const struct cfg *c, struct result *res, char *err, size_t errlen);
int run_burst(const struct cfg *c, char *err, size_t errlen);
void print_traffic_json(const struct cfg *c, const char *dimstr, const char *pat, const struct result *r);
void print_traffic_row(const struct result *r);

/* netsim_engine.c. new_net: the network of a run, in the engine mode the
 * options chose, or NULL with the reason in err; a run's digest starts
 * at DIGEST_START and folds each message by fold_msg, and
 * print_engine_run prints it with the engine's figures. */
struct net *new_net(const struct cfg *c, char *err, size_t errlen);
#define DIGEST_START FNV_START
uint64_t fold_msg(uint64_t h, const struct net_msg *m);
void print_engine_run(const struct cfg *c, const struct net *n, uint64_t h, const char *k1, uint64_t v1,
                      const char *k2, uint64_t v2, double wall, double cpu);

/* netsim_replay.c: netsim --replay RUN_DIR [--set ..]; the exit code. */
int replay_main(struct cfg *c, const char *dir, const char *traffic_opt, const char *const *sets, int nsets);

/* netsim.c, for the replay: apply_sets, the --set options in their order
 * on p and pm; refuse_node_change, a --set of a node's key refused with
 * `why`. Each 0, or -1 said. */
int apply_sets(struct params *p, enum topo_port *pm, const char *const *sets, int nsets);
int refuse_node_change(const struct params *before, const struct params *after, const char *opt,
                       const char *why);

#endif
