/* The collective library: complete exchange (MPI_Alltoall), all-to-all
 * broadcast (MPI_Allgather), broadcast, multicast, scatter, gather,
 * reduction, all-reduction, scan and barrier, by the algorithms of the
 * papers in ../shared/seeds (apps/coll/algos.def lists them).
 *
 * Every algorithm is a schedule: at step t = 1..nsteps, node `me` sends
 * some messages and receives some messages, each message a list of
 * blocks. A block is `len` bytes and has a label, by operation:
 *   alltoall   label s * p + d, the block node s has for node d;
 *   allgather  label s, the block of node s (for every node);
 *   bcast      label k = segment k of the root's message (segs of them;
 *   mcast      one for the unsegmented algorithms), the root holds all;
 *   scatter    label d, the root's block for node d;
 *   gather     label s, node s's block for the root;
 *   reduce     label k = segment k of the vector every node contributes;
 *   allreduce  as reduce;
 *   scan       label 0 = the node's result, label 1 = its running
 *              partial (Kumar's two buffers; survey section 7);
 *   barrier    label 0, an empty token every node starts with.
 * The schedule is a pure function of (machine shape and call, node, step):
 * the same code drives the node (apps/coll/req.c, run.c) and the host unit tests
 * (tests/unit/test_sched.c, tests/unit/sched_sim.h), which check delivery,
 * step counts and channel contention for every shape an algorithm
 * supports.
 *
 * What a message does to its blocks (its mode; coll_emit_mode()):
 *   COLL_MOVE     the sender gives the block up; the receiver must not hold
 *                 it (default of alltoall, scatter, gather);
 *   COLL_COPY     the sender keeps it; the receiver must not hold it
 *                 (default of allgather, bcast, mcast);
 *   COLL_COMBINE  the sender keeps it; the receiver combines it into its
 *                 own block of that label (x = x op y), or takes it if it
 *                 holds none (default of reduce, allreduce, barrier);
 *   COLL_REPLACE  the sender keeps it; the receiver's block of that label
 *                 is overwritten, or taken if it holds none (the
 *                 distribution phase of a ring all-reduction);
 *   COLL_SCAN     COMBINE, and when the sender's rank is below the
 *                 receiver's, also combined into the receiver's label 0
 *                 (the result buffer rule; default of scan).
 * A message's blocks go on the wire in the order of its labels; sender
 * and receiver compute the same list, so no label travels with the data.
 *
 * This header is pure C (no node headers): it is compiled for the host too.
 */
#ifndef COLL_H
#define COLL_H

#include <stddef.h>
#include "../restrict.h"

enum coll_op {
    COLL_ALLTOALL = 0, COLL_ALLGATHER = 1, COLL_BCAST, COLL_MCAST, COLL_SCATTER, COLL_GATHER,
    COLL_REDUCE, COLL_ALLREDUCE, COLL_SCAN, COLL_BARRIER, COLL_NOPS
};

enum coll_mode { COLL_DEFAULT = 0, COLL_MOVE, COLL_COPY, COLL_COMBINE, COLL_REPLACE, COLL_SCAN_RULE };

/* What each operation is, as data: one row per enum coll_op, in
 * registry.c. The planner, the executor, the memory estimate, the apps'
 * argument checks and the schedule checker read these rows; where an
 * operation's blocks start and must end (run.c, req.c) is code. */
enum coll_count { COLL_N_P2, COLL_N_P, COLL_N_SEGS, COLL_N_TWO, COLL_N_ONE };
enum coll_unit {
    COLL_U_BLOCK,                /* a block is len bytes */
    COLL_U_SEGMENT,              /* ceil(len / segs) bytes (the message cut in segments) */
    COLL_U_ELEMENTS,             /* ceil(elements / segs) whole elements (the vector cut in segments) */
    COLL_U_NONE                  /* no data (a barrier) */
};
struct coll_op_info {
    const char *name;            /* "alltoall": the apps' prefix */
    enum coll_mode mode;         /* a message's mode unless the schedule says otherwise */
    enum coll_count labels;      /* how many labels: p^2, p, segs, 2 (scan: result and partial) or 1 */
    enum coll_unit unit;         /* a block's bytes from the call's len */
    /* The caller's buffers and the library's work buffer, in blocks:
     * per_p x p + per_seg x segs + fixed. */
    unsigned char per_p, per_seg, fixed;
};
extern const struct coll_op_info coll_ops[COLL_NOPS];
static inline enum coll_mode coll_default_mode(enum coll_op op) { return coll_ops[op].mode; }

/* Reduction operators and element types (reduce, allreduce, scan). The
 * bitwise operators take integers only. */
enum coll_rop { COLL_SUM = 0, COLL_MAX, COLL_MIN, COLL_BAND, COLL_BOR, COLL_BXOR, COLL_NROPS };
enum coll_dtype { COLL_INT32 = 0, COLL_INT64, COLL_DOUBLE, COLL_NDTYPES };
extern const char *const coll_rop_names[COLL_NROPS];     /* "sum" "max" "min" "band" "bor" "bxor" */
extern const char *const coll_dtype_names[COLL_NDTYPES]; /* "int" "long" "double" */
extern const int coll_dtype_size[COLL_NDTYPES];

/* The call a rooted or set collective is planned for (app_shape.cx).
 * Every node passes the same context. */
#define COLL_MAX_SET 4096
struct coll_ctx {
    int root;                    /* bcast, mcast, scatter, gather, reduce: 0..p-1 */
    int nset;                    /* mcast: how many destinations */
    const int *set;              /* mcast: the destinations, ascending, distinct, root excluded */
    int segs;                    /* bcast/mcast/reduce/allreduce: segments (labels) the message is
                                    cut into, as the algorithm's segments() fixed it */
    enum coll_rop rop;           /* reduce, allreduce, scan (the executor's; schedules ignore) */
    enum coll_dtype dtype;
};

#define COLL_MAX_MSGS 16         /* messages one node sends (receives) in one step */

struct coll_msg {
    int peer;                    /* destination of a send, source of a receive */
    int nblk;                    /* blocks in the message */
    int off;                     /* its labels are plan->lab[off .. off+nblk) */
    int mode;                    /* enum coll_mode, never COLL_DEFAULT in a plan */
};

/* What one node does at one step: its sends, then its receives. */
struct coll_plan {
    int nsend, nrecv;
    struct coll_msg send[COLL_MAX_MSGS], recv[COLL_MAX_MSGS];
    int *lab;                    /* labels (the caller's storage, cap entries) */
    int cap, nlab;
    int overflow;                /* more than cap labels or COLL_MAX_MSGS messages */
};

/* How an algorithm lists messages: coll_emit_msg(e, to) starts a message,
 * coll_emit_blk(e, label) appends a block to it. The library uses the same
 * list to build receives (only the messages to one node are kept). */
struct coll_emit {
    struct coll_plan *plan;
    int recv_from;               /* -1: record as sends; else as receives from this node */
    int only_to;                 /* -1: every message; else only messages to this node */
    struct coll_msg *cur;        /* the message being filled, or NULL if skipped */
};
void coll_emit_msg(struct coll_emit *e, int to);
void coll_emit_blk(struct coll_emit *e, int label);
/* The mode of the message being emitted (after coll_emit_msg; default:
 * the operation's, coll_default_mode()). */
void coll_emit_mode(struct coll_emit *e, enum coll_mode mode);
/* Multidestination worms (seed 002 section 8; net_msend in netdev/net.h):
 * one message that a single worm delivers to several nodes, on routers
 * that copy worms to their nodes as they pass. coll_emit_worm(e, kind,
 * dst, n) starts one (kind: enum nic_mdw of netdev/nic_shm.h; dst[0..n)
 * in the worm's order, n >= 1); its blocks follow with coll_emit_blk. In
 * the sender's plan it is one message, to dst[0], of mode COLL_WORM |
 * kind (the blocks are copied, as COLL_COPY); each listed node's plan
 * gets a receive from the sender, of the operation's mode. The list is
 * not kept in the plan: coll_plan_worms() gives it, the worms of node's
 * sends at step in plan order, in w->dst (w->cap entries of the caller's
 * storage). 0, or -1 if the plan or w overflowed. Algorithms with worms
 * set coll_algo.worms and run by coll_start_worms (coll_worm_app). */
#define COLL_WORM 0x100
void coll_emit_worm(struct coll_emit *e, int kind, const int *dst, int n);
struct coll_worms {
    int n;
    int kind[COLL_MAX_MSGS], ndst[COLL_MAX_MSGS], off[COLL_MAX_MSGS];
    int *dst;
    int cap, used, overflow;
};

/* A whole message of the blocks (s_base | any subset of s_free, d_base |
 * any subset of d_free), s then d ascending (apps/coll/plan.c). */
void coll_emit_masked(struct coll_emit *e, int to, int p, int s_base, int s_free,
                      int d_base, int d_free);
/* A whole message of the blocks (s, d) of an n x n machine (rank = column
 * + n * row): s in rows sr0.. (srows of them) and columns sc0.. (scols),
 * d in the rows congruent to rho mod m and columns dc0.. (dcols). */
void coll_emit_grid(struct coll_emit *e, int to, int n, int sr0, int srows, int sc0, int scols,
                    int rho, int m, int dc0, int dcols);

struct coll_algo {
    enum coll_op op;
    const char *name;            /* "pex" */
    const char *app;             /* "alltoall_pex" */
    int restr;                   /* enum app_restriction */
    /* Steps of the schedule on this shape. */
    int (*nsteps)(const struct app_shape *sh);
    /* Emit the messages `node` sends at `step` (1..nsteps). */
    void (*sends)(const struct app_shape *sh, int node, int step, struct coll_emit *e);
    /* The nodes that send to `node` at `step` (a superset is allowed:
     * a listed node that sends nothing to `node` adds no receive). NULL:
     * the library asks every node's sends() (fine up to a few hundred
     * nodes; give it for the machines of thousands). */
    int (*senders)(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]);
    /* Most blocks in one message, and most blocks a node holds at once
     * (after a step's sends and before its receives are counted both). */
    long (*max_msg_blocks)(const struct app_shape *sh);
    long (*max_hold)(const struct app_shape *sh);
    /* bcast, mcast, reduce, allreduce: the segments the message is cut
     * into, given the caller's wish sh->cx->segs (0: the algorithm's
     * choice). NULL: one. The library stores the answer in cx->segs
     * before calling any other hook. */
    int (*segments)(const struct app_shape *sh);
    /* Extra check of the call beyond the restriction (a multicast set the
     * algorithm cannot take, a segment count ...): 0, or -1 with the
     * reason in err. NULL: none. */
    int (*check)(const struct app_shape *sh, char *err, size_t errlen);
    /* Sends multidestination worms (coll_emit_worm): needs routers that
     * copy worms to their nodes, and runs by coll_start_worms. */
    int worms;
};

/* An algorithm's facts, given once: its operation and name by the
 * identifiers of its line in algos.def (or worms.def), its app name made
 * of them, its restriction from that line. An algorithm's file opens its
 * struct coll_algo with COLL_FACTS(op, name), so the run tool (apps.def)
 * and the node (req.c) check the same restriction. */
enum {
    coll_op_alltoall = COLL_ALLTOALL, coll_op_allgather = COLL_ALLGATHER, coll_op_bcast = COLL_BCAST,
    coll_op_mcast = COLL_MCAST, coll_op_scatter = COLL_SCATTER, coll_op_gather = COLL_GATHER,
    coll_op_reduce = COLL_REDUCE, coll_op_allreduce = COLL_ALLREDUCE, coll_op_scan = COLL_SCAN,
    coll_op_barrier = COLL_BARRIER
};
#define COLL_ALGO(op, name, restr, desc) enum { coll_restr_##op##_##name = restr };
#define COLL_WORM_ALGO COLL_ALGO
#include "algos.def"
#include "worms.def"
#undef COLL_WORM_ALGO
#undef COLL_ALGO
#define COLL_FACTS(op_, name_) \
    .op = (enum coll_op)coll_op_##op_, .name = #name_, .app = #op_ "_" #name_, \
    .restr = coll_restr_##op_##_##name_ /* undeclared: no COLL_ALGO(op, name, ...) line in algos.def gives it */

/* The registry (apps/coll/registry.c), in the order of algos.def; the
 * `auto` entries have no schedule (sends == NULL). */
extern const struct coll_algo *const coll_algos[];
const struct coll_algo *coll_find_app(const char *app);          /* "alltoall_pex" */
const struct coll_algo *coll_find(enum coll_op op, const char *name);
/* The first hook an algorithm must give and does not ("nsteps", "sends",
 * "senders", "max_msg_blocks", "max_hold"), or NULL. An `auto` gives none;
 * every other algorithm gives all of them, senders() only if it is an
 * all-to-all or all-gather. Host only: the run tool refuses such an app
 * before any node starts (app_check), and test_coll_check names it. */
const char *coll_missing_hook(const struct coll_algo *a);

/* The algorithm `auto` picks for this machine and block length
 * (apps/coll/auto.c documents the table), and why, in `why`. */
const struct coll_algo *coll_auto(enum coll_op op, const struct app_shape *sh, long len,
                                  unsigned long msg_max, char *why, size_t whylen);

/* Fill plan with what node `me` does at `step`: sends, then receives.
 * Messages without blocks are dropped. 0, or -1 if the plan overflowed. */
int coll_plan_step(const struct coll_algo *a, const struct app_shape *sh, int me, int step,
                   struct coll_plan *plan);
int coll_plan_worms(const struct coll_algo *a, const struct app_shape *sh, int node, int step,
                    struct coll_plan *plan, struct coll_worms *w);

/* Most labels in a node's whole schedule (the sum over its steps). */
long coll_plan_labels_bound(const struct coll_algo *a, const struct app_shape *sh);

/* The node maps block labels to its slots with a plain table when there
 * are at most this many labels (p^2 for a complete exchange, p for an
 * all-to-all broadcast), else with a hash map. */
#define COLL_DIRECT_MAP 65536

/* Labels of an operation on p nodes with segs segments (coll_ops[].labels). */
int coll_nlabels(enum coll_op op, int p, int segs);

/* Bytes of node memory a collective app of `a` needs for blocks of len:
 * the caller's send and receive buffers and the library's. */
unsigned long coll_mem_need(const struct coll_algo *a, const struct app_shape *sh, long len);

/* Labels. */
static inline int coll_lab(int s, int d, int p) { return s * p + d; }

/* The pairwise XOR exchange shared by PEX (Thakur et al.) and the direct
 * algorithm (McKinley et al.): p - 1 steps, at step i node j sends its
 * block for j XOR i to j XOR i and receives that node's block for j
 * (apps/coll/xor_exchange.c). The algorithms differ only in the machines
 * their papers allow. */
int  coll_xor_nsteps(const struct app_shape *sh);
void coll_xor_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e);
int  coll_xor_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]);
long coll_xor_msg_blocks(const struct app_shape *sh);
long coll_xor_held_blocks(const struct app_shape *sh);

/* The call of a collective app from its words (ARGS), the same on host and
 * node (apps/coll/args.c): arg(key, u) gives a word or NULL. Reads only
 * the keys op takes (COLL_ARGS, apps/coll/algos.def): root= (bcast, mcast,
 * scatter, gather, reduce; default 0), segs= (bcast, allreduce; default 0:
 * the algorithm's choice), op= (sum max min band bor bxor; default sum)
 * and type= (int long double; default int) for reduce, allreduce and scan,
 * and for a multicast set=a,b,c (ranks; set=all: every node but the root)
 * or m=<count> seed=<n> (m distinct ranks other than the root, drawn by a
 * fixed generator from the seed, default 1). The set goes, ascending, to
 * setbuf (room for COLL_MAX_SET) and cx->set points at it. 0, or -1 with
 * the reason and the accepted values in err (a root out of 0..p-1, a rank
 * out of range, the root in the set, a duplicate, an empty set, m out of
 * 1..p-1, an unknown operator or type, a bitwise operator on doubles). */
int coll_ctx_from_args(enum coll_op op, const char *(*arg)(const char *key, void *u), void *u, int p,
                       struct coll_ctx *cx, int *setbuf, char *err, size_t errlen);

/* The bytes of one block of a call of `a` with len bytes (the whole
 * message for bcast and mcast, the vector for the reductions; one block
 * for the others), once sh->cx->segs is fixed: ceil(len / segs), in whole
 * elements for the reductions; 0 for a barrier. */
long coll_block_len(const struct coll_algo *a, const struct app_shape *sh, long len);

/* Shape helpers (apps/coll/shape.c). */
void shape_coords(const struct app_shape *sh, int rank, int c[SHAPE_MAX_DIMS]);
int  shape_rank(const struct app_shape *sh, const int c[SHAPE_MAX_DIMS]);
/* `node` moved by `by` along dimension i, around the ring of that line. */
int  shape_along(const struct app_shape *sh, int node, int i, int by);
int  is_pow2(long x);                        /* x >= 1 and a power of two */
int  ilog2(long x);                          /* floor(log2(x)), x >= 1 */
long next_pow2(long x);                      /* smallest power of two >= x */

/* --- Node side (apps/coll/req.c, run.c): the MPI-like calls --------------
 *
 * coll_alltoall(send, recv, len, algo): send holds p blocks of len bytes,
 * block d for node d; on return recv holds p blocks, block s from node s
 * (MPI_Alltoall). coll_allgather(send, recv, len, algo): send is this
 * node's block; recv gets every node's, block s from node s
 * (MPI_Allgather). algo is a name of algos.def ("pex", "flood", "auto"
 * ...). Every node must make the same call. Returns 0; 2 if the call is
 * not allowed (unknown algorithm, machine outside its restriction, len out
 * of range, memory), with the reason in err; 1 if the schedule failed at
 * run time. The send buffer is not changed.
 *
 * The persistent form (MPI_Alltoall_init / MPI_Start): coll_init()
 * computes the node's whole schedule once; coll_start() runs it (any
 * number of times); coll_free() releases it. */
struct coll_req;
int  coll_init(enum coll_op op, const char *algo, size_t len, struct coll_req **req,
               char *err, size_t errlen);
int  coll_start(struct coll_req *req, const void *send, void *recv, char *err, size_t errlen);
/* Algorithms with multidestination worms (coll_algo.worms) run by
 * coll_start_worms (apps/coll/run_worm.c) instead of coll_start: a
 * broadcast or multicast of one block, sent from and received into the
 * caller's buffer. coll_worms_prepare() computes the worms' destination
 * lists first (untimed, as coll_init plans; 2 with the reason in err if
 * they do not fit node memory); coll_worms_free() releases them before
 * coll_free(). */
typedef int (*coll_start_fn)(struct coll_req *req, const void *send, void *recv, char *err, size_t errlen);
int  coll_worms_prepare(struct coll_req *req, char *err, size_t errlen);
void coll_worms_free(struct coll_req *req);
int  coll_start_worms(struct coll_req *req, const void *send, void *recv, char *err, size_t errlen);
void coll_free(struct coll_req *req);
const struct coll_algo *coll_req_algo(const struct coll_req *req);  /* auto resolved */
int  coll_req_steps(const struct coll_req *req);
int  coll_alltoall(const void *send, void *recv, size_t len, const char *algo, char *err, size_t errlen);
int  coll_allgather(const void *send, void *recv, size_t len, const char *algo, char *err, size_t errlen);

/* The collective apps (apps/coll/apps.c): fill, call, time, verify.
 * coll_worm_app: the same for an algorithm with multidestination worms. */
int coll_app(enum coll_op op, const char *algo);
int coll_worm_app(enum coll_op op, const char *algo);

/* --- Node side, part 2: the rooted, reducing and synchronising calls -----
 *
 * The general persistent form: struct coll_call names the operation, the
 * algorithm, the byte length and the context; coll_init_call() plans it;
 * coll_start(req, send, recv) runs it with the buffers of that operation:
 *   bcast, mcast   len bytes; send = recv = the message (read at the root,
 *                  written at the others; a multicast writes only the
 *                  set's nodes);
 *   scatter        send = p blocks of len at the root; recv = len bytes;
 *   gather         send = len bytes; recv = p blocks of len at the root;
 *   reduce         send, recv = len bytes (len / size elements of dtype);
 *   allreduce      recv written on every node, at the root only for reduce;
 *   scan           node i gets x_0 op ... op x_i;
 *   barrier        len 0; no buffers.
 * The one-call forms below plan, run and free. */
struct coll_call {
    enum coll_op op;
    const char *algo;
    size_t len;
    struct coll_ctx cx;
};
int coll_init_call(const struct coll_call *c, struct coll_req **req, char *err, size_t errlen);
int coll_bcast(void *buf, size_t len, int root, const char *algo, char *err, size_t errlen);
int coll_mcast(void *buf, size_t len, int root, const int *set, int nset, const char *algo, char *err,
               size_t errlen);
int coll_scatter(const void *send, void *recv, size_t len, int root, const char *algo, char *err, size_t errlen);
int coll_gather(const void *send, void *recv, size_t len, int root, const char *algo, char *err, size_t errlen);
int coll_reduce(const void *send, void *recv, size_t count, enum coll_dtype t, enum coll_rop op, int root,
                const char *algo, char *err, size_t errlen);
int coll_allreduce(const void *send, void *recv, size_t count, enum coll_dtype t, enum coll_rop op,
                   const char *algo, char *err, size_t errlen);
int coll_scan(const void *send, void *recv, size_t count, enum coll_dtype t, enum coll_rop op,
              const char *algo, char *err, size_t errlen);
int coll_barrier(const char *algo, char *err, size_t errlen);

/* x = x op y over n elements (apps/coll/combine.c; pure C). */
void coll_combine(void *x, const void *y, size_t n, enum coll_dtype t, enum coll_rop op);

#endif
