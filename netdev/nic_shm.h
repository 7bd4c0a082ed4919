/* The wormhole NIC's shared-memory layout: the contract between the node's
 * driver (netdev/nic.c) and the router (host/). Each node's NIC memory is
 * its own ivshmem region (BAR2 of PCI 1af4:1110); no node can see another's.
 *
 * Wire rules: all fields little-endian, naturally aligned, fixed width, so
 * the layout is the same for every ISA and for the x86-64 host.
 *
 *   0x0000 struct nic_config   written by the router before link-up
 *   0x0400 struct nic_status   written by the node
 *   0x0480 struct nic_reply    written by the router (answers to blocking ops)
 *   0x0500 producer index      written by the node  (own cache line)
 *   0x0540 consumer index      written by the router (own cache line)
 *   ring_off                   ring_slots x struct nic_desc, node -> router
 *   tx_off                     tx_size bytes of payload (node -> router), used as a byte ring
 *   rx_off                     rx_size bytes: payload of the last reply (router -> node)
 *
 * Link-up. At each boot the node writes hello, one more than it held (the
 * memory outlives a board reset), rings, and waits until link_up equals
 * it. The router writes the configuration, clears the rest of this first
 * page but never writes hello (a pool's node may be booting meanwhile),
 * then sets link_up = hello. A hello during a run is a fault of the node.
 * After its EXIT a node of one run resets its board, which ends its QEMU
 * (-no-reboot); a node a pool keeps waits, and the pool resets it from
 * outside and clears this memory (host/launch/pool.c), so its next boot says
 * hello 1.
 *
 * Protocol. The node appends descriptors to the ring (prod counts all ever
 * posted; slot = index % ring_slots) and rings the doorbell (BAR0 0x0C,
 * peer NIC_HOST_PEER, vector 0). The router consumes them in order and
 * advances cons. A blocking descriptor (RECV, PROBE, PROBE_ANY, WAIT_SENT) is answered
 * in nic_reply with the descriptor's seq and an MSI-X interrupt; the node
 * posts nothing more until the answer comes. Payload of a SEND sits at
 * tx_off + desc.off until cons passes the descriptor; the node places
 * payloads in the byte ring as netdev/tx_ring.h says.
 *
 * Beside the data network (seed 002 section 8; docs/network.md, "Hardware
 * beside the data network"): barrier circuits as the T3D's (BARRIER_SET,
 * BARRIER_WAIT), a control network as the CM-5's (CTRL) and fetch-and-
 * increment registers in every NIC (FETCH_INC). Their answers carry a
 * value in nic_reply.value. Flooding in the NIC (seed 004, the all-to-all
 * broadcast with hardware relaying): FLOOD_RULES, FLOOD, FLOOD_WAIT; each
 * NIC relays a flood message the first time one from its origin arrives,
 * to the ports its rule for that origin names, with no processor on the
 * path, and keeps its content for FLOOD_WAIT. Multidestination worms
 * (MSEND): one worm delivered to several nodes by the routers on its way.
 *
 * Results (RECORD): a node reports a figure of its run (the time of its
 * collective, the steps, ...) by key; the run tool writes them as data
 * (records.csv, summary.json), never read from the console.
 */
#ifndef NIC_SHM_H
#define NIC_SHM_H

#include <stdint.h>
#include <stddef.h>
#include "topo.h"

#define NIC_MAGIC        0x43494e57u   /* "WNIC" */
#define NIC_VERSION      4u            /* 2: ARGS of NIC_ARGS_BYTES - 1 characters; 3: the shape is
                                          netdev/topo.h's struct topo_shape; 4: the machine's ISAs */
#define NIC_HOST_PEER    0u            /* the router's ivshmem peer id; node r is peer r+1 */
#define NIC_MAX_DIMS     TOPO_MAX_DIMS
#define NIC_ARGS_BYTES   800           /* ARGS with its NUL: what fits before nic_status */
#define NIC_MSG_HELD_BYTES 256u        /* what the router counts against held_max for one message beyond
                                          its payload, for its record: empty messages are not free */
/* A node's RAM (the run's ram_mib): the node images are linked into its
 * first NODE_RAM_MIN_MIB (linker/); an MPI program's heap runs to its end. */
#define NODE_RAM_MIN_MIB 32
#define NODE_RAM_MAX_MIB 1024
#define NIC_ANY          0xffffffffu   /* wildcard source or tag in RECV/PROBE */
#define NIC_BARRIERS     16            /* barrier circuits: the T3D's two 8-bit registers */
#define NIC_FI_REGS      2             /* fetch-and-increment registers per NIC, as the T3D's */

#define NIC_CONFIG_OFF   0x0000u
#define NIC_STATUS_OFF   0x0400u
#define NIC_REPLY_OFF    0x0480u
#define NIC_PROD_OFF     0x0500u
#define NIC_CONS_OFF     0x0540u
#define NIC_RING_OFF     0x1000u

/* The shape (netdev/topo.h) is a wire format: its values and layout. */
_Static_assert(TOPO_MESH == 0 && TOPO_TORUS == 1 && TOPO_HYPERCUBE == 2 && TOPO_BANYAN == 3 &&
               TOPO_FATTREE == 4 && TOPO_DRAGONFLY == 5, "the NIC config's topo values are a wire format");
_Static_assert(TOPO_ONE_PORT == 0 && TOPO_ALL_PORT == 1, "the NIC config's all_port values are a wire format");
_Static_assert(sizeof(int) == 4 && sizeof(struct topo_shape) == (4 + TOPO_MAX_DIMS) * 4 &&
               offsetof(struct topo_shape, dims) == 8 && offsetof(struct topo_shape, all_port) == (3 + TOPO_MAX_DIMS) * 4,
               "struct topo_shape is a wire format: 32-bit fields, in this order");

struct nic_config {
    uint32_t magic, version;
    uint32_t rank;
    struct topo_shape shape;           /* the machine (unused dims are 1) */
    uint32_t shm_size;
    uint32_t ring_off, ring_slots;     /* ring_slots is a power of two */
    uint32_t tx_off, tx_size;
    uint32_t rx_off, rx_size;
    uint32_t msg_max;                  /* largest payload of one message */
    uint32_t ps_per_instr;             /* node CPU speed: picoseconds per instruction */
    uint32_t t_send_ns, t_recv_ns;     /* software start-up of a send and of a receive */
    uint32_t after_exit;               /* enum nic_after_exit */
    uint32_t ram_mib;                  /* the node's RAM, NODE_RAM_MIN_MIB..NODE_RAM_MAX_MIB MiB */
    uint32_t held_max;                 /* bytes the router holds for the node's NIC queue, each message
                                          counting NIC_MSG_HELD_BYTES more (docs/network.md held_max) */
    uint32_t nic_flit_bytes;           /* the NIC's full injection rate: nic_flit_bytes (a flit of each */
    uint32_t nic_flit_ps;              /* injection channel) every nic_flit_ps (nic_cycles cycles) */
    uint32_t eager_max;                /* the longest message sent eagerly; 0: every one (rendezvous,
                                          docs/network.md) */
    uint32_t isa_period;               /* node i's ISA is bit i % isa_period of isa_bits (NIC_ISA_*); */
    uint32_t isa_bits;                 /* isa_period 1..NIC_ISA_PERIOD_MAX, 0: not said */
    char     app[64];                  /* NUL-terminated app name */
    char     args[NIC_ARGS_BYTES];     /* NUL-terminated, space-separated key=value */
};

/* A node's ISA in nic_config's isa_bits (host/launch/arch.h's enum
 * node_arch has the same values). A machine's ISAs repeat an --arch list;
 * one whose period passes NIC_ISA_PERIOD_MAX words is not said. */
#define NIC_ISA_ARM        0u
#define NIC_ISA_RISCV      1u
#define NIC_ISA_PERIOD_MAX 32

/* What a node does after its EXIT: reset its board (a node of one run:
 * QEMU's -no-reboot ends it), or wait to be reset from outside (a node a
 * pool keeps: nothing the node did decides what its next run runs). */
enum nic_after_exit { NIC_AFTER_EXIT_RESET = 0, NIC_AFTER_EXIT_WAIT = 1 };

enum nic_state { NIC_STATE_BOOT = 0, NIC_STATE_RUNNING = 1, NIC_STATE_EXITED = 2, NIC_STATE_FAULT = 3 };
/* Fault kinds in nic_status.fault_kind, with the names the node console
 * and the run tool both print. 1-3 are ARM exceptions, 6-11 RISC-V ones
 * (privileged spec table 3.6); values never change meaning. fault_addr is
 * DFAR/IFAR on ARM and mtval on RISC-V (the address, or for an illegal
 * instruction its bits); fault_status is DFSR/IFSR on ARM, mcause on
 * RISC-V. PCs and addresses are 32 bits: both boards' RAM and devices lie
 * below 4 GiB. */
#define NIC_FAULT_KINDS(X)                                   \
    X(NIC_FAULT_NONE,         0,  "fault")                   \
    X(NIC_FAULT_UNDEF,        1,  "undefined instruction")   \
    X(NIC_FAULT_PABORT,       2,  "prefetch abort")          \
    X(NIC_FAULT_DABORT,       3,  "data abort")              \
    X(NIC_FAULT_UNEXPECTED,   4,  "unexpected exception")    \
    X(NIC_FAULT_PANIC,        5,  "panic")                   \
    X(NIC_FAULT_ILLEGAL,      6,  "illegal instruction")     \
    X(NIC_FAULT_FETCH_ACCESS, 7,  "instruction access fault") \
    X(NIC_FAULT_LOAD_ACCESS,  8,  "load access fault")       \
    X(NIC_FAULT_STORE_ACCESS, 9,  "store access fault")      \
    X(NIC_FAULT_MISALIGNED,   10, "misaligned access")       \
    X(NIC_FAULT_BREAKPOINT,   11, "breakpoint")
#define NIC_FAULT_ENUM_(name, value, text) name = value,
enum nic_fault { NIC_FAULT_KINDS(NIC_FAULT_ENUM_) NIC_FAULT_COUNT };
#undef NIC_FAULT_ENUM_

struct nic_status {
    uint32_t hello;                    /* node: at each boot one more than before (never 0) */
    uint32_t link_up;                  /* router: = hello once the configuration is written */
    uint32_t state;                    /* enum nic_state */
    uint32_t exit_code;
    uint32_t fault_kind;               /* enum nic_fault */
    uint32_t fault_pc, fault_addr, fault_status;
    uint32_t want_space;               /* node: set while waiting for ring or tx space */
    uint32_t reserved[7];
};

/* The descriptors' operations (struct nic_desc's op), each with the name
 * the run tool prints for it (hang reports, traces):
 *   SEND          peer=dst, tag, len, off: payload at tx_off+off
 *   RECV          peer=src|ANY, tag|ANY, len=capacity; blocking; off = the
 *                 tag bits that must match (0: all of them)
 *   PROBE         peer=src|ANY, tag|ANY, off as RECV's; blocking; answers
 *                 arrived-by-time
 *   WAIT_SENT     blocking; answers when all my sends have left the node
 *   STEP          tag = step number the node enters
 *   EXIT          tag = exit status; the node's last descriptor
 *   BARRIER_SET   tag = circuit 0..NIC_BARRIERS-1: set this node's bit of it
 *   BARRIER_WAIT  tag = circuit; blocking; answers when the circuit has
 *                 fired since this node set its bit (every node set it)
 *   CTRL          control network; tag = enum nic_ctrl, peer = root
 *                 (BCAST), the 64-bit value in len (low word) and off (high
 *                 word); blocking; every node posts one per operation, the
 *                 same tag and root; answers the result in reply.value
 *   FETCH_INC     peer = node, tag = register 0..NIC_FI_REGS-1; blocking;
 *                 answers the register's value before the increment
 *   FLOOD_RULES   len = nodes x 4, payload at off: for each origin o, a
 *                 uint32 mask of this node's link ports (bit 2 dim + (dir ==
 *                 -1)) its NIC relays o's flood messages to
 *   FLOOD         tag, len, off: this node's flood message; after the send
 *                 start-up the NIC sends it to the ports of its own rule
 *   FLOOD_WAIT    tag, peer = how many other origins' messages to wait for;
 *                 blocking; answers when they have arrived, origin o's at
 *                 rx_off + o x len (reply.len bytes in all), reply.value =
 *                 when the last of them arrived
 *   MSEND         a multidestination worm: tag, len = payload bytes, peer =
 *                 m destinations; at tx_off + off its list, uint32s: the
 *                 enum nic_mdw, the payload's offset in the transmit area,
 *                 then the m destinations in the worm's order. Worms of one
 *                 payload share it (net_msend_group). Each destination
 *                 receives it as a SEND from this node
 *   RECORD        tag = enum nic_record, the value (below 2^63) in len (low
 *                 word) and off (high word); not blocking. A node's later
 *                 record of a key replaces its earlier one
 *   PROBE_ANY     peer = m patterns, 1..NIC_PROBE_ANY_MAX, at tx_off + off as
 *                 m struct nic_pattern (nic_probe_any_bytes(m) bytes);
 *                 blocking; answers when a message matching one of them has
 *                 arrived (by the request's time, or when it arrives): the
 *                 first such in arrival order, as PROBE answers it, at the
 *                 later of the two times, reply.value = the index of the
 *                 first pattern it matches. It takes nothing: a wait for
 *                 whichever of several receives can go on (apps/mpi/p2p.c,
 *                 MPI's progress rule) */
#define NIC_OPS(X)                                 \
    X(NIC_OP_SEND,          1, "SEND")             \
    X(NIC_OP_RECV,          2, "RECV")             \
    X(NIC_OP_PROBE,         3, "PROBE")            \
    X(NIC_OP_WAIT_SENT,     4, "WAIT_SENT")        \
    X(NIC_OP_STEP,          5, "STEP")             \
    X(NIC_OP_EXIT,          6, "EXIT")             \
    X(NIC_OP_BARRIER_SET,   7, "BARRIER_SET")      \
    X(NIC_OP_BARRIER_WAIT,  8, "BARRIER_WAIT")     \
    X(NIC_OP_CTRL,          9, "CTRL")             \
    X(NIC_OP_FETCH_INC,    10, "FETCH_INC")        \
    X(NIC_OP_FLOOD_RULES,  11, "FLOOD_RULES")      \
    X(NIC_OP_FLOOD,        12, "FLOOD")            \
    X(NIC_OP_FLOOD_WAIT,   13, "FLOOD_WAIT")       \
    X(NIC_OP_MSEND,        14, "MSEND")            \
    X(NIC_OP_RECORD,       15, "RECORD")          \
    X(NIC_OP_PROBE_ANY,    16, "PROBE_ANY")
#define NIC_OP_ENUM_(name, value, text) name = value,
enum nic_op { NIC_OPS(NIC_OP_ENUM_) NIC_OP_END };
#undef NIC_OP_ENUM_

/* A PROBE_ANY pattern, matched as a RECV's peer, tag and off: src or
 * NIC_ANY, tag or NIC_ANY, mask the tag bits that must match (0: all). */
struct nic_pattern { uint32_t src, tag, mask; };
#define NIC_PROBE_ANY_MAX 64
static inline uint64_t nic_probe_any_bytes(uint32_t m) { return (uint64_t)m * sizeof(struct nic_pattern); }

/* The figures a node reports with NIC_OP_RECORD (net_record), by key:
 * results are data, not console text. The run tool writes every node's in
 * records.csv and each key's count, maximum, minimum and node 0's value in
 * summary.json ("records"). Values never change meaning.
 *   coll_ns      the timed operation on this node, ns of its own clock (a
 *                collective; pingpong: the mean round trip)
 *   steps        the operation's steps (node 0)
 *   items        work items this node took (a self-scheduled loop)
 *   wrong        bytes (or a reduction's elements) the node's check found
 *                wrong, reported when there are some */
#define NIC_RECORDS(X)                         \
    X(NIC_REC_COLL_NS,     0, "coll_ns")       \
    X(NIC_REC_STEPS,       1, "steps")         \
    X(NIC_REC_ITEMS,       2, "items")         \
    X(NIC_REC_WRONG,       3, "wrong")
#define NIC_REC_ENUM_(name, value, text) name = value,
enum nic_record { NIC_RECORDS(NIC_REC_ENUM_) NIC_REC_COUNT };
#undef NIC_REC_ENUM_

/* Multidestination worms (seed 002 section 8; docs/network.md): a path
 * through the destinations in order, each leg dimension-ordered; the same
 * with legs along the Hamiltonian path of Lin et al. (2D mesh; the labels
 * must rise or fall along the list); or a tree of the dimension-ordered
 * routes, replicated at the routers where they part. */
enum nic_mdw { NIC_MDW_PATH = 1, NIC_MDW_HPATH = 2, NIC_MDW_TREE = 3 };

/* An MSEND's list in the transmit area, in 32-bit words: the kind (enum
 * nic_mdw), the payload's offset in the transmit area, then the m
 * destinations from word NIC_MSEND_DST; nic_msend_list_bytes(m) long. */
enum nic_msend_word { NIC_MSEND_KIND = 0, NIC_MSEND_PAY = 1, NIC_MSEND_DST = 2 };
static inline uint64_t nic_msend_list_bytes(uint32_t m) { return 4ull * ((uint64_t)m + NIC_MSEND_DST); }

/* The Hamiltonian path of a W-wide 2D mesh that NIC_MDW_HPATH follows
 * (Lin et al.; the survey's Figure 30(b)): row y is crossed in + x when y
 * is even, in - x when odd; node (x, y) has label y W + x or y W + W-1-x. */
static inline int nic_hp_label(int x, int y, int width)
{
    return y * width + (y % 2 ? width - 1 - x : x);
}

/* A control-network operation: kind | combiner << 8. Values are signed
 * 64-bit (MAX, MIN compare them signed). BCAST gives every node the
 * root's value, REDUCE the combination of all, SCAN node i the
 * combination of nodes 0..i (the CM-5's parallel prefix). */
enum nic_ctrl_kind { NIC_CTRL_BCAST = 0, NIC_CTRL_REDUCE = 1, NIC_CTRL_SCAN = 2, NIC_CTRL_KINDS };
enum nic_ctrl_comb { NIC_CTRL_SUM = 0, NIC_CTRL_MAX, NIC_CTRL_MIN, NIC_CTRL_OR, NIC_CTRL_AND, NIC_CTRL_XOR,
                     NIC_CTRL_COMBS };

struct nic_desc {
    uint32_t op, seq;      /* seq = this descriptor's ring index (prod at posting) */
    uint64_t time_ns;      /* the node's simulated time when it posted this */
    uint32_t peer, tag, len, off;
};

enum nic_reply_status { NIC_REPLY_OK = 0, NIC_REPLY_NONE = 1, NIC_REPLY_TRUNC = 2 };

struct nic_reply {
    uint32_t seq;          /* seq of the blocking descriptor answered */
    uint32_t status;       /* enum nic_reply_status */
    uint32_t src, tag, len, pad;
    uint64_t time_ns;      /* simulated time the answer holds at: arrival or departure */
    uint64_t value;        /* CTRL: the result; FETCH_INC: the register before it */
    uint64_t reserved[3];
};

/* The wire rules, checked by every compiler that builds this file (the
 * ARM and RISC-V nodes and the x86-64 router): each block has the same
 * size and field offsets everywhere and fits before the next one. */
_Static_assert(sizeof(struct nic_config) == 1016, "nic_config layout");
_Static_assert(offsetof(struct nic_config, shape) == 12 && offsetof(struct nic_config, shm_size) == 76 &&
               offsetof(struct nic_config, app) == 152,
               "nic_config field offsets");
_Static_assert(NIC_CONFIG_OFF + sizeof(struct nic_config) <= NIC_STATUS_OFF, "nic_config overlaps nic_status");
_Static_assert(sizeof(struct nic_status) == 64, "nic_status layout");
_Static_assert(NIC_STATUS_OFF + sizeof(struct nic_status) <= NIC_REPLY_OFF, "nic_status overlaps nic_reply");
_Static_assert(sizeof(struct nic_reply) == 64 && offsetof(struct nic_reply, time_ns) == 24 &&
               offsetof(struct nic_reply, value) == 32, "nic_reply layout");
_Static_assert(NIC_REPLY_OFF + sizeof(struct nic_reply) <= NIC_PROD_OFF, "nic_reply overlaps the producer index");
_Static_assert(NIC_PROD_OFF + 64 <= NIC_CONS_OFF && NIC_CONS_OFF + 64 <= NIC_RING_OFF,
               "producer and consumer indexes each on a cache line of their own");
_Static_assert(sizeof(struct nic_pattern) == 12, "nic_pattern layout");
_Static_assert(sizeof(struct nic_desc) == 32 && offsetof(struct nic_desc, time_ns) == 8 &&
               offsetof(struct nic_desc, peer) == 16, "nic_desc layout");

#endif
