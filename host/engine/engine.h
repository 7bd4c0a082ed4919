/* The router engine: reads each node's NIC memory, moves messages through
 * the network model in simulated-time order, answers blocking requests.
 *
 * It knows nothing of QEMU or sockets: the caller attaches each node's
 * memory, calls engine_node_poll() when a node rang its doorbell (or died),
 * and is called back through notify() to interrupt a node. That keeps it
 * testable on the host (tests/unit/).
 *
 * Synchronisation is conservative (Chandy-Misra style): an event at
 * simulated time T is processed only when every running node is known to
 * be at or past T, and the network (host/net/) simulates a cycle only
 * when no injection still unknown could enter during it. It stops after
 * each cycle that delivers a message, so a node woken by it can inject
 * before the network moves on. A
 * running node is known to be at the time of the last descriptor it
 * posted, plus its send start-up after a SEND, or at the time of the
 * message it received plus its receive start-up (the lookahead); a
 * blocked node imposes no bound until it is woken. So what each
 * node sees, and when, is a function of the programs and the parameters
 * only, never of host scheduling.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "machine.h"
#include "net/net_model.h"
#include "net/hwnet.h"
#include "engine/pair_order.h"

#define SIM_INF UINT64_MAX
/* The latest simulated time a node may stamp on a descriptor: 2^50 ns,
 * about 13 days. Every time the router and the network compute stays
 * below 2^63 ps, so no sum or ns -> ps product can wrap. */
#define SIM_TIME_MAX_NS (1ull << 50)
/* All nodes together: the router holds at most this many times held_max
 * of messages (struct engine's held_limit), and less if the run tool's memory
 * check leaves less host memory (engine_set_held_limit). A limit of the
 * host's memory, like --timeout of its time: where it ends a run depends
 * on how far the nodes got, not only on the simulated machine. */
#define HELD_TOTAL_FACTOR 32u
/* The worms a NIC makes itself (fetch-and-increment replies, flood
 * relays) are numbered in the order the network makes them, apart from
 * the node's own messages (numbered in its program order), so that every
 * (src, seq) order is the same whatever the host reads first. */
#define NIC_SEQ_BASE (1ull << 62)

enum node_state {
    NODE_BOOT,        /* QEMU started, link not up yet */
    NODE_RUNNING,     /* executing; lb is a lower bound of its clock */
    NODE_BLOCKED,     /* waiting for an answer to RECV / PROBE */
    NODE_EXITED,      /* posted EXIT */
    NODE_FAILED,      /* faulted, broke the protocol, or died */
};

/* What a worm of the data network carries: a node's message, or a
 * fetch-and-increment request or reply between NICs (hwnet.h), which is
 * no message of the nodes (not in messages.csv nor the counters). A
 * multidestination worm (MSG_MDW, NIC_OP_MSEND) is one worm whose copies
 * are messages (MSG_DATA, each with `mdw` set): the network delivers
 * them, the worm itself is no message. */
enum msg_kind { MSG_DATA = 0, MSG_FI_REQUEST, MSG_FI_REPLY, MSG_FLOOD, MSG_MDW, MSG_RTS, MSG_CTS };

/* Rendezvous (params eager_max): a SEND longer than eager_max keeps its
 * data message in the sender's NIC (the engine's rdv_held list) and sends
 * a request-to-send instead (MSG_RTS: its header alone, the node's worm,
 * in the data's place in its pair's order). The request is matched in the
 * receiver's mailbox exactly as the data would be; when a RECV takes it,
 * the receiver's NIC sends a clear-to-send back (MSG_CTS, the NIC's worm),
 * leaving when both the request has arrived and the receive is posted,
 * and the RECV waits for that data message alone (node.rdv_wait). The
 * data enters the network when the clear-to-send has arrived, already
 * matched: it takes no part in its pair's order and never enters a
 * mailbox. Neither control worm is in the log (summary.json counts them:
 * rendezvous_packets). A PROBE sees a request as the message it stands
 * for. */

struct msg {
    struct net_msg nm;            /* the worm in the network model */
    int kind;                     /* enum msg_kind */
    int first;                    /* MSG_FLOOD: the first of its origin at its NIC (relayed, kept) */
    uint64_t value;               /* MSG_FI_REPLY: the register's value; MSG_FI_REQUEST: the register;
                                     MSG_FLOOD: its origin; MSG_MDW: copies not yet delivered */
    struct msg *mdw;              /* a copy of a multidestination worm: the worm (freed with its
                                     last copy's arrival, while a copy may wait for its pair) */
    int src, dst;
    uint32_t tag, len;
    uint64_t seq;                 /* per-source sequence number */
    uint64_t t_post, t_arrive;    /* ns: SEND descriptor time, tail arrival */
    uint32_t step;                /* the sender's step mark when it sent */
    struct msg *next;
    struct msg *net_prev, *net_next; /* on the router's list of messages in the network, or of
                                        rendezvous data not yet cleared (rdv_held) */
    struct msg *pair_prev, *pair_next; /* earlier and later messages of its pair not yet handed over (pair_order.h) */
    uint8_t chained, arrived;     /* in its pair's chain; its tail arrived (and it waits for an earlier one) */
    uint8_t mdw_copy;             /* a copy of a multidestination worm (mdw may be gone: record) */
    uint8_t mdw_kind;             /* a copy: its worm's kind (enum net_mc_kind) */
    uint64_t worm;                /* a copy: 1 + its worm's seq, which its copies share; else 0 */
    uint8_t rdv_data;             /* a rendezvous' data message: matched before it is sent */
    struct msg *rdv;              /* MSG_RTS and MSG_CTS: the data message they stand for */
    uint8_t data[];
};

/* What a recorded worm was (messages.csv's kind): a message one node sent
 * another, a flood worm (the node's own or a relay its NIC made), or one
 * destination's copy of a multidestination worm. msg_replay.c reads the
 * names back. A fetch-and-increment packet is not recorded (summary.json
 * counts them: fetch_inc_packets). */
enum rec_kind { REC_DATA, REC_FLOOD, REC_MDW, REC_KINDS };
extern const char *const rec_kind_names[REC_KINDS];

/* What the run reports of each message (kept after delivery). */
struct msg_record {
    int src, dst, hops;
    uint32_t tag, len, step, flits;
    uint64_t t_post, t_inject, t_head, t_arrive, blocked_cycles;
    uint64_t seq, t_ready;          /* its source's number for it, and when it could enter (net_msg) */
    uint32_t route_at, route_len;   /* the links it took (net_taken) */
    uint64_t c_inject;              /* the cycle its head entered (t_inject is it in ns, rounded down) */
    enum rec_kind kind;
    uint64_t worm;                  /* REC_MDW: 1 + its worm's seq, the same for every copy of it */
    int mdw_kind;                   /* REC_MDW: its worm's kind (enum net_mc_kind) */
};

/* What a node's NIC holds of one flood (NIC_OP_FLOOD*), by tag. */
struct flood_rx {
    uint32_t tag, len;
    int origin;                   /* the node whose message began it at this NIC (its len) */
    uint8_t *have;                /* [origin]: its first message's head has come (or it is this node's own) */
    uint8_t *got;                 /* [origin]: that message delivered (simulated-time order) */
    uint8_t *data;                /* [origin x len]: its content */
    uint32_t count;               /* other origins delivered */
    uint64_t t_last;              /* when the last of them arrived */
};

struct node {
    int rank;
    enum node_state state;
    uint32_t link_up;             /* the hello the router answered (0: none yet); nic_status.link_up is
                                     its copy for the node, which the node can write too */
    uint8_t *shm;
    size_t shm_size;
    uint32_t cons;                /* descriptors consumed */
    uint64_t lb;                  /* lower bound of the node's simulated time */
    struct nic_desc blk;          /* the blocking request, when BLOCKED */
    int blk_checked;              /* its time has been reached with no match */
    struct msg *mbox, *mbox_tail; /* arrived, not yet received; arrival order */
    uint64_t next_seq;
    uint64_t last_leave;          /* when this node's last send left it */
    uint32_t unleft;              /* its messages still (partly) in its NIC */
    uint64_t held_in;             /* bytes of its mailbox (payload + NIC_MSG_HELD_BYTES each; <= held_max) */
    uint64_t nicq_bytes, nicq_ns; /* the least its NIC queue can hold at nicq_ns (see handle) */
    uint64_t finish_ns;
    int exit_code;
    uint32_t step;
    /* counters */
    uint64_t sends, recvs, bytes_sent, bytes_recv;
    uint64_t wait_ns;             /* simulated time spent blocked */
    uint64_t nic_seq;             /* sequence of the worms its NIC makes (replies, relays) */
    struct flood_rx *floods;      /* floods in progress at its NIC */
    int nfloods;
    uint32_t *floods_done;        /* tags it has waited for: their late copies are dropped */
    int ndone;
    uint64_t flood_rules_ns;      /* when it installed its flood rules; SIM_INF: not yet */
    uint64_t rec[NIC_REC_COUNT];  /* the figures it reported (RECORD), by enum nic_record */
    uint32_t rec_set;             /* bit k: it reported key k */
    struct msg *rdv_wait;         /* the data message its RECV took by its request (rendezvous) */
    struct nic_pattern *pats;     /* its PROBE_ANY's patterns, read once when posted (NULL until one) */
    uint32_t npats;
};

struct engine {
    struct topo_shape m;
    struct params p;
    int n;
    unsigned isa_period;          /* the nodes' ISAs, as the NIC's configuration says them (nic_shm.h; */
    uint32_t isa_bits;            /* set by the run tool after engine_init, 0: not said) */
    struct node *nodes;
    /* Two tournament trees over the nodes (engine.c, "The bounds"): win[0]
     * finds the safe time, win[1] the earliest unchecked request. Slot 1
     * is the root, leaves start at tree_size. */
    int *win[2];
    int tree_size;
    struct net *net;              /* the interconnect */
    struct hwnet hw;              /* the barrier circuits, control network and fetch-and-increment registers */
    uint32_t *flood_rules;        /* [node x n + origin]: the port mask its NIC relays origin's floods to
                                     (NULL until a node installs rules) */

    struct msg *in_net;           /* injected, not yet arrived: freed with the router */
    struct pair_table pairs;      /* each pair's messages not yet handed over, in send order */
    struct msg **heap;            /* arrived messages not yet delivered, min-heap on (t_arrive, src, seq) */
    size_t heap_len, heap_cap;
    uint64_t messages, bytes, unreceived;
    uint64_t reordered;           /* messages that overtook an earlier one of their pair and waited for it */
    uint64_t fi_packets;          /* fetch-and-increment requests and replies sent (not in the log) */
    uint64_t rdv_messages;        /* messages sent by rendezvous (longer than eager_max) */
    uint64_t rdv_packets;         /* rendezvous requests and clears sent (not in the log) */
    struct msg *rdv_held;         /* data messages waiting for their clear-to-send (net_prev/net_next) */
    uint64_t progress;            /* descriptors consumed, answers given and network runs: moves iff the run does */
    uint64_t held_total;          /* bytes of every message alive (payload + NIC_MSG_HELD_BYTES each) */
    uint64_t held_limit;          /* at most this many (HELD_TOTAL_FACTOR above) */
    uint64_t sim_end;             /* latest finish time */
    struct msg_record *log;       /* every message, as it arrived (each pair's in send order, but a
                                     rendezvous' data, matched by its request, may come after a
                                     later message of its pair) */
    size_t nlog, log_cap;
    int failed_node;              /* first node that broke the protocol, or -1 */
    int stopped;                  /* an error that is no node's ended the engine */
    char error[512];              /* why the run must stop, if set */
    FILE *desc_log;               /* every descriptor and answer, if set (WORMSIM_DESC_LOG=1) */
    struct tracebuf *timeline;    /* the Chrome trace being recorded, if set */
    void (*notify)(void *ctx, int rank);
    void *ctx;
};

/* Returns -1 with r->error set if the network parameters do not fit. */
int  engine_init(struct engine *r, const struct topo_shape *m, const struct params *p);
void engine_free(struct engine *r);

/* Write the node's configuration into its NIC memory (before it boots). */
void engine_attach(struct engine *r, int rank, uint8_t *shm, size_t size,
                   const char *app, const char *args);

/* Read what node `rank` posted, then run the network as far as is safe.
 * Returns -1 (with r->error set) if the node broke the NIC protocol, or
 * if the run must stop for another reason (r->error says which). */
int engine_node_poll(struct engine *r, int rank);

/* Node rank, a node its pool keeps, waits after its EXIT for the pool to
 * reset it (nic_config.after_exit); set after engine_attach. */
void engine_node_waits_after_exit(struct engine *r, int rank);

/* Hold at most `bytes` of messages in all, if that is less than
 * HELD_TOTAL_FACTOR x held_max: the host memory a run's nodes leave. */
void engine_set_held_limit(struct engine *r, uint64_t bytes);

/* The node's link-up handshake: 1 if it just came up. */
int engine_node_hello(struct engine *r, int rank);

/* Run the network as far as is safe (also called by engine_node_poll).
 * Returns -1 once r->error is set: the run must stop. */
int engine_advance(struct engine *r);

/* 1 if every unfinished node waits in RECV and nothing is in flight. */
int engine_deadlocked(const struct engine *r);
/* What the waiting nodes wait for, when some wait on the hardware beside
 * the data network ("node 3 waits on barrier circuit 0, which 7 of 8
 * nodes set"); "" if they all wait for messages. */
void engine_wait_detail(const struct engine *r, char *buf, size_t len);

/* 1 if every node has posted EXIT. */
int engine_all_exited(const struct engine *r);

/* The latest simulated time a node is known to have reached: its clock,
 * or the time of the request it waits on if later. For a run that
 * stopped before its nodes exited (sim_end is the last exit). */
uint64_t engine_time_reached(const struct engine *r);

/* Mark a node failed (fault, death) so it no longer holds time back. */
void engine_node_failed(struct engine *r, int rank);

/* 1 if the trees that give the safe time agree with a scan of every node
 * (for the tests: a state change the trees missed shows here). */
int engine_bounds_consistent(const struct engine *r);

const char *engine_op_name(uint32_t op);
/* The name of a RECORD key (enum nic_record), "?" if none. */
const char *engine_record_name(unsigned key);
_Static_assert(NIC_REC_COUNT <= 32, "struct node's rec_set has a bit per record key");

#endif
