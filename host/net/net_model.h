/* The interconnect: a flit-level model of a wormhole-routed k-ary n-cube
 * (mesh, torus), hypercube or banyan, advanced one cycle at a time.
 *
 * Time: one cycle is the time one flit takes to cross a link
 * (flit_bytes x byte_ps). A message of len bytes is a worm of
 * F = max(1, ceil(len / flit_bytes)) + header_flits flits. Uncontended, a
 * message posted at t (ns) arrives (its tail has left the network at the
 * destination) at
 *     t + t_send + (D x hop_cycles + F) x cycle
 * for D router-to-router hops: the head needs hop_cycles per hop (router
 * plus link) and the body follows one flit per cycle. With a NIC slower
 * than the links (nic_cycles > 1) the body follows at the NIC's pace:
 *     t + t_send + (D x hop_cycles + (F - 1) x nic_cycles + 1) x cycle
 *
 * Routing is dimension-ordered (dimension 0 first; e-cube on a hypercube)
 * by default; the `routing` parameter picks an adaptive routing function
 * instead (net_route.h, docs/network.md "Adaptive routing").
 * A banyan (seed 004) is log2 N stages of 2x2 switches between the
 * nodes' routers, self-routing on the destination's bits; a worm crosses
 * log2 N + 1 links; a fat tree (a k-ary n-tree) routes up to the lowest
 * common ancestor and down (net_topo.c has both).
 * On a torus the shorter direction is taken and a tie (offset exactly k/2)
 * goes in the + direction, or with tie=source-parity + from an even
 * coordinate and - from an odd one; a unidirectional torus has + links only, and
 * every worm goes +. Deadlock freedom on a torus comes from two
 * virtual-channel classes per dimension (Dally's dateline): a worm uses
 * class 0 until it takes the wrap link of a dimension (k-1 -> 0 going +,
 * 0 -> k-1 going -), class 1 from that link on; it starts each dimension in
 * class 0. With V virtual channels, class 0 is VCs [0, V/2), class 1 the
 * rest. Meshes and hypercubes need no classes: any VC serves any worm.
 *
 * Flow control is credit based: an output VC may send only while the
 * downstream VC buffer has room (buf_flits). A credit returns one cycle
 * after its flit leaves the buffer, so a worm streams at the full link rate
 * only if buf_flits >= hop_cycles + 1 (the credit round trip); smaller
 * buffers throttle it, as they would in hardware. Switching:
 *   wormhole       a blocked worm stays spread over the channels it holds;
 *   cut-through    a head takes a downstream VC only if it can hold the
 *                  whole worm (buffers grow to the worm's size);
 *   store-forward  as cut-through, and a head leaves a router only once
 *                  its tail is in the same buffer.
 * Each output port sends at most one flit per cycle and each input port
 * receives at most one: worms on different VCs of a link share it flit by
 * flit. Who goes first is the `alloc` parameter (docs/network.md
 * "Arbitration"): round robin at every VC and switch arbiter (default),
 * the oldest worm first with round robin among equals, or the fixed input
 * order of earlier versions.
 *
 * Port model: a node has injection and ejection channels to its router:
 * one-port one of each; all-port one per link direction; k-port k (the
 * `ports` parameter). A channel moves one flit every nic_cycles cycles (a
 * NIC slower than the links: nic_cycles > 1). A message takes the injection channel of its first
 * hop's direction (modulo the count), and the ejection channel of the link
 * it came in on (modulo the count); each channel carries one worm at a time.
 *
 * Everything is deterministic: fixed scan orders, and round-robin pointers
 * that are part of the state.
 *
 * Cost: a cycle costs work in each router holding flits, so stepping every
 * cycle makes a message's cost grow with its length. While worms only
 * stream (no head reaches a new router, no tail leaves, nothing becomes
 * ready), the state of the worms sharing ports repeats with a short period
 * up to the flits' indices and the clock; the engine finds such a period
 * for each group of ports apart and jumps it over whole periods at once,
 * while the rest of the network steps, with exactly the times and counters
 * stepping would give (net_jump.h says how and why). Idle stretches are
 * skipped outright.
 */
#ifndef NET_MODEL_H
#define NET_MODEL_H

#include <stdint.h>
#include <stdio.h>
#include "machine.h"

/* One message in the network. The caller fills the first block. */
struct net_msg {
    int src, dst;
    uint32_t len;
    uint64_t seq;                   /* per source: ties broken by (src, seq) */
    uint64_t t_ready_ns;            /* when it may enter (post + start-up) */
    int nic_made;                   /* made by the NIC, not posted by the node: its channel
                                       may serve it before messages queued earlier (net_inject) */
    int notify_head;                /* net_run also stops when its head reaches its NIC (net_heads) */
    struct net_mc *mc;              /* a multidestination worm (net_inject_mc), or NULL */
    /* filled by the model */
    int hops;                       /* links its route crosses (Valiant's: both phases) */
    uint32_t flits;
    uint64_t c_ready;               /* first cycle it may enter: t_ready_ns rounded up (net_queue) */
    uint64_t c_inject;              /* cycle its head entered the router */
    uint64_t c_head;                /* cycle its head reached the destination NIC */
    uint64_t c_leave;               /* cycle after its tail left the source NIC */
    uint64_t c_arrive;              /* cycle after its tail reached the destination NIC */
    uint64_t blocked_cycles;        /* cycles a ready flit of it could not move */
    uint32_t f_out;                 /* flits that have reached the destination NIC */
    uint32_t jix;                   /* engine scratch (net_jump.h), beside f_out: a thaw reads
                                       both for each worm and jix again for each of its flits */
    uint64_t jid;                   /* its number in the engine, from 1, never reused: a
                                       group's state names worms by it (net_jump_probe.c), as a
                                       freed message's address may come back */
    uint64_t jmark;                 /* engine scratch (net_jump_probe.c) */
    struct net_msg *next_done, *next_left;  /* event list links */
    struct net_msg *next_head;
    struct net_msg *next_queue;             /* injection queue link */
    void *owner;                    /* the caller's message */
    /* filled by the model, read only under an adaptive routing (kept
     * after the fields every cycle reads) */
    int via;                        /* routing=valiant: its intermediate node, else -1 */
    int via_done;                   /* its head has reached via (its group on a dragonfly) */
    int decided;                    /* routing=ugal: minimal or not was chosen (via -1: minimal) */
    uint32_t route_at, route_len;   /* 1 + where the links its head took start in the model's
                                       record, and how many (net_taken); route_at 0 (as a
                                       zeroed message has it): none, an oblivious route */
};

struct link_stats {
    uint64_t flits, worms, blocked;  /* blocked: cycles a ready flit wanted it and did not go */
};

struct net;

/* NULL with a message in err if the parameters do not fit the machine. */
struct net *net_new(const struct topo_shape *m, const struct net_params *p, char *err, size_t errlen);
void net_free(struct net *n);

uint64_t net_cycle_ps(const struct net *n);
int net_nic_channels(const struct net *n);       /* injection channels per node (port model, ports) */
uint64_t net_now(const struct net *n);           /* next cycle to simulate */
int net_busy(const struct net *n);               /* any worm not yet delivered */
uint64_t net_ns_to_cycle_ceil(const struct net *n, uint64_t ns);
uint64_t net_cycle_to_ns(const struct net *n, uint64_t c);
/* The first ns at or after the start of cycle c (net_cycle_to_ns rounded
 * up): a worm a NIC makes at the end of cycle c - 1, ready at it, never
 * enters before the network's now. */
uint64_t net_cycle_to_ns_ceil(const struct net *n, uint64_t c);

/* Hand a message to its source's NIC. It enters at cycle
 * ceil(t_ready_ns / cycle) or later (under cycles shorter than 1 ns, not
 * before the cycles whose arrivals fall in that ns: net_ceil_cycle); that
 * cycle must not be before net_now() (the caller's synchronisation
 * guarantees it). A NIC channel
 * serves its messages in order of t_ready_ns, nic_made ones first among
 * equals, then by sequence number (net_inject.c, goes_before). */
void net_inject(struct net *n, struct net_msg *m);

/* Simulate cycles while now < end_cycle, stopping after the first cycle in
 * which some message arrived or left its source (idle stretches are
 * skipped). *arrived gets the messages whose tail reached their
 * destination in that cycle, *left those whose tail left their source;
 * each list in (src, seq) order, linked by next_done / next_left. Returns
 * 1 if it stopped on such an event, 0 if it reached end_cycle, -1 if no
 * flit could move for a million cycles (which the model rules out), -2 if
 * NET_JUMP_CHECK found a difference, -3 if multidestination worms or an
 * adaptive routing's worms deadlocked (net_run_error names the worms and
 * the channels). */
int net_run(struct net *n, uint64_t end_cycle, struct net_msg **arrived, struct net_msg **left);
/* The worms with notify_head whose head reached their destination NIC in
 * the cycle the last net_run stopped after ((src, seq) order, linked by
 * next_head; their c_head is set). net_run stops after such a cycle too. */
struct net_msg *net_heads(const struct net *n);
/* What a negative net_run means, in words. */
const char *net_run_error(const struct net *n);
/* For a caller that needs no event: net_run until every worm handed over
 * is delivered or cycle end is reached (UINT64_MAX: until delivered). 0,
 * or -1 with net_run_error and the cycle in err. */
int net_run_until(struct net *n, uint64_t end, char *err, size_t errlen);

/* Multidestination worms (seed 002 section 8, "Support Within the Data
 * Network"). One worm, injected once, is delivered to several nodes:
 *   NET_MC_PATH   a path through the destinations in the order given, each
 *                 leg dimension-ordered (e-cube on a hypercube); every
 *                 listed router copies the flits to its node as they pass
 *                 (intermediate reception);
 *   NET_MC_HPATH  the same on a 2D mesh, each leg routed along the
 *                 Hamiltonian path of Lin et al. (the snake: row y is
 *                 crossed in + x when y is even, label y W + x, in - x
 *                 when odd, label y W + W - 1 - x): from u towards v the
 *                 neighbour with the largest label <= L(v) when L(v) >
 *                 L(u), the smallest >= L(v) when lower. The labels of the
 *                 source and the destinations, in the order given, must
 *                 rise or fall throughout (Figure 30(b));
 *   NET_MC_TREE   a tree: the dimension-ordered routes from the source to
 *                 every destination, merged; a router where they part
 *                 replicates each flit onto every branch (message
 *                 replication, the XY tree of Figure 30(a)).
 * On a mesh or a hypercube only. Replication is in lock step: a flit
 * leaves its buffer only in a cycle in which every branch of it (each
 * output, and the ejection channel where it is delivered) takes it; each
 * branch holds its output VC from the head to the tail, so one blocked
 * branch blocks the whole worm, and worms that wait on each other's
 * channels deadlock (Figure 31; the nCUBE-2's trees). Those are the
 * caller's to avoid; net_run reports them (-3). Multidestination worms
 * go before others at a router: their VCs are allocated first and their
 * flits cross the switch first. The header grows with the list: a worm
 * of len bytes to m destinations has header_flits + ceil(4 (m - 1) /
 * flit_bytes) header flits (a 4-byte address for each further
 * destination). While one is in the network the engine steps every
 * cycle (no jumps). */
enum net_mc_kind { NET_MC_PATH = NIC_MDW_PATH, NET_MC_HPATH = NIC_MDW_HPATH, NET_MC_TREE = NIC_MDW_TREE };
struct net_mc_hop;
struct net_mc {
    int kind;                       /* enum net_mc_kind */
    int ncopy;
    struct net_msg **copy;          /* one record per destination (its dst, seq, owner set by the
                                       caller), in the order of the path; the model fills the
                                       rest as for a worm of its own, and reports each as it
                                       arrives; the worm itself is reported as it leaves */
    /* filled by the model */
    int left;                       /* copies not yet delivered */
    int nhop;
    struct net_mc_hop *hop;         /* the route: a tree of routers (freed after the last copy) */
};
/* m->mc and its copies filled: check the route and hand the worm to its
 * source's NIC as net_inject does. -1 with the reason in err (a
 * topology without multidestination worms, a destination that is the
 * source or listed twice, an HPATH order that is not monotone). */
int net_inject_mc(struct net *n, struct net_msg *m, char *err, size_t errlen);
/* 0 if the routers take a worm of kind from src to dst[0..nd) (the rules of
 * netdev/nic_mdw.h), else -1 with the reason in err. A count nd outside
 * 1..nodes-1 is refused before dst is read, so dst may be NULL then: the
 * router checks a node's count before it reads or copies a destination. */
int net_mc_check(const struct net *n, int kind, int src, const int *dst, int nd, char *err, size_t errlen);
/* The directed links a worm of kind from src to dst[0..nd) takes, as
 * net_link_stats indices (each once: a tree's shared links are one), at
 * most max; -1 with the reason if net_inject_mc would refuse it. */
int net_mc_links(struct net *n, int kind, int src, const int *dst, int nd, int *links, int max, char *err,
                 size_t errlen);
/* What the model keeps of a worm still in it, for a caller that frees it
 * before its copies were all delivered (the run stopped). */
void net_mc_release(struct net_mc *mc);

/* The network is a graph of routers joined by directed links. Routers
 * 0 .. nodes-1 are the nodes' own (each with its NIC's injection and
 * ejection channels); an indirect network's switches follow. Every router
 * has the same number P of link ports (2 x ndims on a direct network, 2 on
 * a banyan, 2k on a k-ary fat tree); a directed link is named by its
 * router and output port:
 *     index = router * P + port
 * and on a direct network port = 2 dim + (dir == -1). */
const struct link_stats *net_link_stats(const struct net *n, int *nlinks);
int net_routers(const struct net *n);
int net_link_ports(const struct net *n);       /* P, above (reads no counter: settles nothing) */
/* A direct network's link from node in dimension dim, direction dir. */
int net_link_exists(const struct net *n, int node, int dim, int dir);
/* Link `link` (an index as above): 1 with the router it leaves, its port
 * there and the router it enters; 0 if that port has no link. */
int net_link_ends(const struct net *n, int link, int *from, int *port, int *to);
/* A router's name in reports: a node's rank ("5"), or a switch as
 * s<stage>.<switch> on a banyan, s<level>.<switch> on a fat tree ("s1.3"). */
void net_router_name(const struct net *n, int router, char *buf, size_t len);
uint64_t net_cycles_simulated(const struct net *n);   /* cycles the network was busy */
uint64_t net_flit_hops(const struct net *n);

/* The engine jumps over periodic stretches (see the top of the file)
 * unless turned off; the results are the same either way. NET_JUMP_CHECK
 * also runs a second model beside it, stepped every cycle in every router
 * (none asleep) and with no shortcut in switch allocation, and net_run
 * returns -2 at the first event, time or counter where the two differ.
 * Set before the first net_inject; -1 if there is no memory for the check. */
enum net_jump { NET_JUMP_OFF, NET_JUMP_ON, NET_JUMP_CHECK };
int net_set_jump(struct net *n, enum net_jump mode);
/* Cycles stepped one by one, cycles the clock jumped over (every flit in
 * a frozen group), and how many groups were frozen. */
void net_engine_stats(const struct net *n, uint64_t *stepped, uint64_t *jumped, uint64_t *jumps);
/* Flit moves (a flit leaving a buffer) in all, and how many of them the
 * engine jumped over instead of stepping: the share of work it saved. */
void net_engine_moves(const struct net *n, uint64_t *moves, uint64_t *jumped);

/* The directed links of the route src -> dst of the topology's own
 * (deterministic) routing, as net_link_stats indices, in order; returns
 * how many (at most max). */
int net_path(const struct net *n, int src, int dst, int *links, int max);

/* Cycles an uncontended worm of `flits` flits over `hops` hops takes from
 * its head entering the network to its tail leaving it, in the network's
 * switching mode. */
uint64_t net_uncontended_cycles(const struct net *n, int hops, uint32_t flits);

/* Optional: called when a worm's tail crosses a link, with the cycles its
 * head and its tail crossed it (for traces). */
typedef void (*net_link_trace_fn)(void *ctx, int link, const struct net_msg *m, uint64_t c_head, uint64_t c_tail);
/* The routing functions (routing=), the machines each routes and what it
 * does, one a line (--help, --list-params; host/net/net_route.c). */
void net_route_list(FILE *f);
/* The router allocators (alloc=) and what each does, one a line
 * (host/net/net_alloc.c). */
void net_alloc_list(FILE *f);

/* The links (router x link ports + port) the worm m crossed, or will:
 * under an adaptive routing those its head took, as recorded; else its
 * route from src to dst (net_path). */
int net_taken(const struct net *n, const struct net_msg *m, int *links, int max);

void net_set_link_trace(struct net *n, net_link_trace_fn fn, void *ctx);


#endif
