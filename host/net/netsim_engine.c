/* netsim's network for each run, and the line of a run on a fixed load
 * (--burst, --replay): its digest, the engine's steps and jumps and its
 * time (netsim.c says what the digest is for). */
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>
#include "netsim.h"

/* The network of the run, in the engine mode the options chose. */
struct net *new_net(const struct cfg *c, char *err, size_t errlen)
{
    struct net *n = net_new(&c->m, &c->p.net, err, errlen);
    if (n && net_set_jump(n, (enum net_jump)c->jump)) {
        snprintf(err, errlen, "no memory for --check-jump");
        net_free(n);
        return NULL;
    }
    return n;
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
uint64_t fold_msg(uint64_t h, const struct net_msg *m)
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
void print_engine_run(const struct cfg *c, const struct net *n, uint64_t h, const char *k1, uint64_t v1,
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
