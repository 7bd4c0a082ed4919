/* The node ABI: everything a node program uses to talk to the machine.
 *
 * Ranks number the nodes 0..net_nodes()-1. On a mesh or torus, coordinate 0
 * varies fastest: rank = c[0] + dims[0]*(c[1] + dims[1]*c[2] ...). On a
 * hypercube of 2^n nodes, ndims = n, every dims[i] = 2, and coordinate i
 * is bit i of the rank.
 *
 * Messages are delivered in order between a given pair of nodes with a
 * given tag (non-overtaking: where a later worm passes an earlier one in
 * the network, the destination's NIC holds it until the earlier one has
 * come, docs/network.md "The order of a pair's messages"). net_send() is
 * buffered: it returns as soon as the NIC holds the data, after the send
 * start-up time; the buffer may be
 * reused at once. If the run sets eager_max (0, the default, sends every
 * message eagerly), a message longer than it leaves the NIC only once its
 * receiver has posted a matching receive (rendezvous, docs/network.md
 * "Eager and rendezvous"); net_send() still returns at once. Every call advances the node's simulated clock by the
 * instructions it executes; a blocking call jumps it to the simulated time
 * at which the awaited event happens. Messages carry the sender's simulated
 * time, so results do not depend on host speed or load.
 */
#ifndef NET_H
#define NET_H

#include <stddef.h>
#include <stdint.h>
#include "nic_shm.h"

#define NET_ANY      (-1)       /* wildcard source or tag for net_recv/net_probe */
#define NET_MAX_DIMS TOPO_MAX_DIMS

struct net_status {
    int src, tag;
    size_t len;                 /* bytes of the message (may exceed what was copied) */
    uint64_t time_ns;           /* simulated time the message arrived */
};

int net_rank(void);
int net_nodes(void);
/* The ISA node runs (NIC_ISA_ARM, NIC_ISA_RISCV: netdev/nic_shm.h), as
 * the router says; -1 where it does not say. */
int net_node_isa(int node);
/* The node's RAM in MiB (the run's ram_mib, netdev/nic_shm.h). */
unsigned net_ram_mib(void);
/* The machine's shape (netdev/topo.h), as the router configured it. */
const struct topo_shape *net_topology(void);
void net_coords(int rank, int coords[NET_MAX_DIMS]);
int net_rank_of(const int coords[NET_MAX_DIMS]);
size_t net_msg_max(void);       /* largest payload of one message */
/* What the router holds of this node's NIC queue (held_max): a node whose
 * queued messages, each counting its payload and NIC_MSG_HELD_BYTES, pass
 * it is stopped (docs/design.md, "Memory is bounded"). */
size_t net_held_max(void);
/* The NIC's full injection rate, as the router models the queue that
 * held_max bounds: *bytes every *ps picoseconds. */
void net_nic_rate(uint32_t *bytes, uint32_t *ps);
/* The longest message sent eagerly (eager_max); 0: every message. A
 * longer one leaves only once its receiver has posted the receive. */
size_t net_eager_max(void);

/* Send len bytes to dst with a tag (tag >= 0). */
void net_send(int dst, int tag, const void *buf, size_t len);

/* Send the same len bytes to n nodes: the data is copied into the NIC once
 * and each message is posted from there, with its own send start-up (an
 * all-port node's DMA engines reading one buffer). Same as n calls of
 * net_send() but for the copies. */
void net_send_multi(const int *dst, int n, int tag, const void *buf, size_t len);

/* Block until a message from src (or NET_ANY) with tag (or NET_ANY)
 * arrives; copy at most cap bytes into buf. A longer message is an error.
 * With NET_ANY, the message that arrived first in simulated time wins;
 * ties go to the lowest source rank. st may be NULL. */
void net_recv(int src, int tag, void *buf, size_t cap, struct net_status *st);

/* 1 if a matching message has arrived by the caller's simulated time (and
 * fill st), else 0. Does not receive it. */
int net_probe(int src, int tag, struct net_status *st);

/* net_recv and net_probe matching only the tag bits set in mask (a
 * message matches if (its tag ^ tag) & mask is 0; the MPI library's
 * MPI_ANY_TAG within one communicator). net_recv_masked does not stop the
 * node on a message longer than cap: it receives it, copies nothing and
 * returns -1 with st->len its length; else 0. st may not be NULL. */
int net_recv_masked(int src, int tag, uint32_t mask, void *buf, size_t cap, struct net_status *st);
int net_probe_masked(int src, int tag, uint32_t mask, struct net_status *st);

/* Wait, without receiving, until a message matching one of n patterns
 * (1..NET_PROBE_ANY_MAX; each a source or NET_ANY, a tag or NET_ANY and a
 * mask as net_probe_masked's, 0 for all bits) has arrived: the first such
 * in arrival order, its status in st. Returns the index of the first
 * pattern it matches. The node's clock moves on to its arrival if that is
 * later. A wait for whichever of several receives can go on (the MPI
 * library's progress). */
#define NET_PROBE_ANY_MAX 64
struct net_pattern { int src, tag; uint32_t mask; };
int net_probe_any(const struct net_pattern *p, int n, struct net_status *st);

/* Send to one node and receive from another, as one exchange step. */
void net_sendrecv(int dst, int stag, const void *sbuf, size_t slen,
                  int src, int rtag, void *rbuf, size_t rcap, struct net_status *st);

/* Block until every message this node sent has left it. Under rendezvous
 * a long message leaves only once its receiver has posted the receive, so
 * a node that waits here before receiving can wait for ever. */
void net_wait_sent(void);

/* This node's simulated time in nanoseconds. */
uint64_t net_time_ns(void);

/* Mark that this node enters step `step` of an algorithm; the router
 * reports messages and contention per step. */
void net_step(int step);

/* Report a figure of this run as data, by key (enum nic_record in
 * nic_shm.h: NIC_REC_COLL_NS, NIC_REC_STEPS, ...): the run tool writes it
 * in records.csv and summary.json, where tools read it; the console is for
 * people. Not blocking; a later record of a key replaces the earlier. */
void net_record(enum nic_record key, uint64_t value);

/* --- Hardware beside the data network (seed 002 section 8) ---------------
 * docs/network.md ("Hardware beside the data network") gives each one's
 * latency model and parameters. A bad circuit, register or node stops the
 * node with a panic naming the accepted values. */

/* Barrier circuits, as the T3D's: set this node's bit of circuit c
 * (0..NIC_BARRIERS-1), which fires once every node has set its bit; then
 * sleep until it has fired (woken by interrupt). Work may go between the
 * two calls (a split-phase barrier). */
void net_barrier_set(int c);
void net_barrier_wait(int c);

/* The control network, as the CM-5's: every node calls it with the same
 * kind, combiner and root. BCAST returns the root's value, REDUCE the
 * combination of every node's, SCAN that of nodes 0..net_rank()
 * (enum nic_ctrl_kind, enum nic_ctrl_comb; BCAST takes NIC_CTRL_SUM). */
int64_t net_ctrl(enum nic_ctrl_kind kind, enum nic_ctrl_comb comb, int root, int64_t value);

/* Fetch-and-increment register reg (0..NIC_FI_REGS-1) of node's NIC: its
 * value before this increment. The request and the reply cross the data
 * network as packets of the NICs, without the owner's CPU. */
uint64_t net_fetch_inc(int node, int reg);

/* Flooding in the NIC (seed 004's all-to-all broadcast with hardware
 * relaying; docs/network.md). net_flood_rules installs this node's rules
 * once: masks[o], for each origin o, the link ports (bit 2 dim +
 * (dir == -1)) its NIC relays o's flood messages to, the first time one
 * arrives. net_flood sends this node's message of len bytes along its own
 * rule, after the send start-up, and returns the time it was posted at;
 * net_flood_wait sleeps until count other origins' messages of the tag
 * have arrived and copies every origin's into buf (origin o at o x len,
 * this node's own included), returning the time the last of them arrived
 * (the node's clock goes to the later of that and its own). Floods are
 * told apart by tag, and each tag is flooded once. */
void net_flood_rules(const uint32_t *masks);
uint64_t net_flood(int tag, const void *buf, size_t len);
uint64_t net_flood_wait(int tag, int count, void *buf, size_t cap);

/* Multidestination worms (seed 002 section 8): one send of len bytes that
 * a single worm delivers to the n nodes dst[] (docs/network.md,
 * "Multidestination worms"): kind NIC_MDW_PATH visits them in the order
 * given by dimension-ordered legs, NIC_MDW_HPATH by legs along the
 * Hamiltonian path (2D mesh; labels rising or falling along the list),
 * NIC_MDW_TREE replicates the worm where their dimension-ordered routes
 * part. Each destination receives it with net_recv as a message from this
 * node. A list the network cannot take ends the run with the reason. */
void net_msend(enum nic_mdw kind, const int *dst, int n, int tag, const void *buf, size_t len);
/* Several worms of the same len bytes (a multicast's dual-path pair, a
 * node's row and column worms): the data is copied into the NIC once,
 * each worm then has its start-up, in the order given. */
struct net_worm {
    enum nic_mdw kind;
    const int *dst;
    int n;
};
void net_msend_group(const struct net_worm *w, int nw, int tag, const void *buf, size_t len);

/* App arguments (ARGS="key=value ..."), parsed at boot against the keys
 * the running app declares (apps/apps.def, apps/restrict.h) by the run
 * tool's own check: words it would refuse stop the node with a panic, and
 * so does reading a key the app does not declare.
 * net_arg: the value as given, or NULL if absent.
 * net_arg_num: a number key's value, or its declared default if absent
 * (APP_KEY_NONE if it has none); for a word key, the word's index in the
 * declared list. */
const char *net_arg(const char *key);
long net_arg_num(const char *key);

#endif
