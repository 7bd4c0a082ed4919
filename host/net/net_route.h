/* Routing functions by name (host/net/routings.def), as BookSim2 keeps them:
 * a routing function receives the router a head is at, the input port
 * and VC it came in on, and the worm, and returns the outputs it may take,
 * each a link port with a range of VCs; a selection function (the
 * `selection` parameter) picks one among those with a free VC.
 *
 * The contract every routing function keeps:
 *   - it reads its arguments, the worm's fields src, dst, seq, via,
 *     via_done and decided (which net_route_commit alone changes), and
 *     for UGAL the router's credit counts; the engine calls it again each
 *     cycle the head waits;
 *   - it returns 0 candidates exactly at the worm's destination, whose
 *     ejection channel the engine picks;
 *   - every candidate's VC range is non-empty and within [0, vcs);
 *   - its channels are deadlock-free as net_route_check admits them:
 *     acyclic dependencies, or an acyclic escape sub-network (Duato),
 *     which tests/unit/test_route.c checks on small networks; free_adapt
 *     alone is not, and says so.
 * A route is at most net_route_room links long.
 * The oblivious one (deterministic) runs on the engine's fast path
 * (net_topo_route); the engine's accelerators assume it and step aside
 * for the others (net_state.h, net_parks; net_core.c, net_router_step). */
#ifndef NET_ROUTE_H
#define NET_ROUTE_H

#include "net_state.h"

struct net_cand {
    int port;                       /* link output port */
    int lo, hi;                     /* VCs [lo, hi) */
    int nonmin;                     /* ugal: the non-minimal (Valiant) choice */
};
#define NET_MAX_CANDS NET_MAX_LINK_PORTS

/* The outputs the routing function permits the head of m at router `at`,
 * which came in on input port in_port, VC in_vc, in the routing's order
 * of preference; 0 at the destination. */
int net_route_cands(const struct net *n, int at, int in_port, int in_vc, const struct net_msg *m,
                    struct net_cand *c);

/* Whether routing r's routes depend only on source and destination. */
int net_route_oblivious(enum routing r);

/* Whether routing r needs atomic VC allocation: a head takes an output VC
 * only once the buffer it feeds holds nothing (net_state.h, net_vc_free).
 * Duato's escape channels need it; a routing whose channel dependency
 * graph is acyclic as it stands does not. */
int net_route_atomic(enum routing r);

/* Whether selection sel changes anything under routing r: net_route_check
 * refuses it where it would not. */
int net_route_selects(enum routing r, enum selection sel);

/* 0 if the routing function of p routes machine m with p's channels,
 * else -1 with what is wrong and what would do in err. */
int net_route_check(const struct topo_shape *m, const struct net_params *p, char *err, size_t errlen);

/* Before a worm enters: its Valiant intermediate node (a hash of
 * route_seed, src and seq, so the same whatever the order messages reach
 * the model) and the hops its route will take. */
void net_route_prepare(const struct net *n, struct net_msg *m);

/* The most links m's route may take (its hops if minimal). */
int net_route_room(const struct net *n, const struct net_msg *m);

/* After the head of m at router `at` took candidate c: what the worm's
 * route keeps of it (Valiant's phase, UGAL's choice). */
void net_route_commit(const struct net *n, int at, struct net_msg *m, const struct net_cand *c);

/* Selection (enum selection) among candidates c[0 .. nc) for the head of
 * m at router `at` in cycle `cycle`: the candidate's index, and in *vc the
 * free VC it gets (the lowest of its range), or -1 if none has one. */
int net_route_select(const struct net *n, int at, const struct net_msg *m, const struct net_cand *c, int nc,
                     uint64_t cycle, int *vc);

#endif
