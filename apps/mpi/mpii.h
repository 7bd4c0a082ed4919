/* The node MPI library's inside (apps/mpi/): communicators, requests,
 * types, the wire tags and the error path. include/mpi.h is the outside.
 *
 * Wire tags (the NIC's 32-bit tag, netdev/net.h). The project's own
 * collectives tag a message with its step (< 2^16); on a sub-communicator
 * (apps/mpi/view.c) with its collective context too, (ctx + 1) << 16 |
 * step, bits 16..28; MPI traffic sets bit 30 and never meets theirs:
 *   bit 30        MPI traffic
 *   bit 29        an Ssend's acknowledgement (never matched by a receive)
 *   bit 28        an Ssend's data: the receiver acknowledges it (receives
 *                 match either value of this bit)
 *   bits 15..27   the context: a communicator's point-to-point context is
 *                 even, its collectives' (apps/mpi/coll.c) the odd one after
 *   bits 0..14    the MPI tag, 0..MPI_TAG_UB_VALUE
 * Invariant: the messages of one MPI message go back to back, each of
 * msg_max bytes but the last, which is shorter (0 bytes if the length is
 * a multiple of msg_max), so a receiver knows the last by its length and
 * the non-overtaking rule of net.h keeps them in order.
 */
#ifndef MPII_H
#define MPII_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include "include/mpi.h"

#define MPII_BIT_MPI   (1u << 30)
#define MPII_BIT_ACK   (1u << 29)
#define MPII_BIT_SYNC  (1u << 28)
#define MPII_CTX_SHIFT 15
#define MPII_CTX_MAX   (1u << 13)
#define MPII_TAG_MASK  0x7fffu
/* The bits a receive of one tag matches (all but SYNC), and of MPI_ANY_TAG. */
#define MPII_MASK_TAG    (~MPII_BIT_SYNC & 0x7fffffffu)
#define MPII_MASK_ANYTAG (MPII_BIT_MPI | MPII_BIT_ACK | ((MPII_CTX_MAX - 1) << MPII_CTX_SHIFT))

static inline uint32_t mpii_wire(uint32_t ctx, int tag)
{
    return MPII_BIT_MPI | ctx << MPII_CTX_SHIFT | ((uint32_t)tag & MPII_TAG_MASK);
}

/* Tags on a communicator's collective context: the blocking collectives'
 * (apps/mpi/coll.c 1, vcoll.c 2, neighbor.c 4, inter.c 8, comm.c
 * MPI_TAG_UB_VALUE),
 * the nonblocking ones' from MPII_TAG_ICOLL, and MPI_Comm_create_group's
 * from MPII_TAG_CREATE (the program's tag modulo 16383 after it). */
#define MPII_TAG_ICOLL  16
#define MPII_TAG_CREATE 16384

#define MPII_MAX_COMMS 64
#define MPII_MAX_WINS  16            /* windows at once (apps/mpi/win.c) */
/* Whether g is a group handle in use (apps/mpi/group.c). */
int mpii_group_ok(MPI_Group g);
/* A Cartesian topology (apps/mpi/topo.c). */
#define MPII_MAX_DIMS 16
struct mpii_cart {
    int ndims;
    int dims[MPII_MAX_DIMS], periods[MPII_MAX_DIMS];
};

/* A graph topology (apps/mpi/graph.c): MPI_Graph_create's (kind
 * MPI_GRAPH: the whole graph's index and edges, and this rank's
 * neighbours as both its sources and its destinations) or a distributed
 * graph's (MPI_DIST_GRAPH: this rank's sources and destinations alone,
 * with their weights, 1 each if unweighted). One block of `bytes`, the
 * arrays after the struct: index[nnodes], edges[nedges], in[nin],
 * inw[nin], out[nout], outw[nout]. */
struct mpii_graph {
    int kind, weighted;
    int nnodes, nedges, nin, nout;
    size_t bytes;
    int data[];
};
/* (As strchr does, each takes a const graph and gives its array writable:
 * the caller owns the graph or only reads.) */
static inline int *graph_index(const struct mpii_graph *g) { return (int *)g->data; }
static inline int *graph_edges(const struct mpii_graph *g) { return graph_index(g) + g->nnodes; }
static inline int *graph_in(const struct mpii_graph *g) { return graph_edges(g) + g->nedges; }
static inline int *graph_inw(const struct mpii_graph *g) { return graph_in(g) + g->nin; }
static inline int *graph_out(const struct mpii_graph *g) { return graph_inw(g) + g->nin; }
static inline int *graph_outw(const struct mpii_graph *g) { return graph_out(g) + g->nout; }

/* An intercommunicator (MPI-3.1 6.6) is used MPII_USED_INTER, not 1, so
 * the lookup of every call that does not take one (mpii_comm) finds none
 * and refuses it, naming the call (mpii_comm_refused). Its size and world
 * are the remote group's, so that point to point, which names a remote
 * process by its rank (6.6.1), runs as on an intracommunicator; rank is
 * this process's in the local group, and mpii_local(c) an
 * intracommunicator of the local group on a context of its own (made with
 * it, freed with it), for the local group's size and group and for the
 * local half of the intercommunicator collectives (apps/mpi/inter.c).
 * That handle is kept apart from struct mpii_comm, whose size (the
 * stride of mpii_comms) is in the instructions of the point-to-point
 * path. */
#define MPII_USED_INTER 3
struct mpii_comm {
    int used;                        /* 2: freed by the program, kept while requests use it; MPII_USED_INTER */
    int size, rank;
    int *world;                      /* world[r]: the node of rank r */
    int identity;                    /* world[r] = r for every rank of every node */
    uint32_t ctx;                    /* point to point; ctx + 1 for collectives */
    MPI_Errhandler errh;
    unsigned icoll;                  /* nonblocking collectives started on it (their tags) */
    char name[MPI_MAX_OBJECT_NAME];
    struct mpii_cart *cart;          /* its grid, or NULL (freed with the communicator) */
    struct mpii_graph *graph;        /* its graph, or NULL (freed with the communicator) */
};
/* A communicator's topology (apps/mpi/topo.c): freed (and none left), or
 * copied to a duplicate (MPI-3.1 6.4.2); the copy returns an error class. */
void mpii_topo_free(struct mpii_comm *c);
int mpii_topo_copy(MPI_Comm comm, struct mpii_comm *to, const struct mpii_comm *from);
/* The neighbours of this rank in its Cartesian topology, in the order of
 * the neighbourhood collectives (MPI-3.1 7.6): per dimension the one at
 * -1, then the one at +1, MPI_PROC_NULL where there is none; 2 ndims of
 * them in list. */
void mpii_cart_neighbours(const struct mpii_comm *c, int *list);
/* The communicator MPI_Comm_split makes of (comm, color, key), given grid
 * g or graph gr (either NULL), or both freed where it makes none; call
 * names the MPI call for errors (apps/mpi/topo.c). */
int mpii_split_with_topology(MPI_Comm comm, int color, int key, struct mpii_cart *g, struct mpii_graph *gr,
                             const char *call, MPI_Comm *out);
/* A block type of a collective that takes contiguous blocks: valid,
 * committed and contiguous, its size in *size; else an error class
 * (apps/mpi/vcoll.c). */
int mpii_contig_type(MPI_Comm comm, MPI_Datatype t, int *size);
extern struct mpii_comm mpii_comms[MPII_MAX_COMMS];
extern MPI_Comm mpii_locals[MPII_MAX_COMMS];
static inline MPI_Comm mpii_local(const struct mpii_comm *ic) { return mpii_locals[ic - mpii_comms]; }

/* The intracommunicator of a handle, or NULL; mpii_comm_any: the
 * intracommunicator or intercommunicator, or NULL; mpii_inter: the
 * intercommunicator, or NULL. */
struct mpii_comm *mpii_comm(MPI_Comm c);
struct mpii_comm *mpii_comm_any(MPI_Comm c);
struct mpii_comm *mpii_inter(MPI_Comm c);
/* The refusal of a communicator handle, the format of mpii_err's detail
 * (its argument the handle): "communicator %d is not valid", or, if the
 * handle is an intercommunicator, that the call does not take one (apps/
 * mpi/env.c). mpii_comm_refused(comm) is that error, of a call given
 * comm, which mpii_comm did not find. */
extern const char mpii_comm_invalid[];
int mpii_comm_refused(MPI_Comm comm);
/* The error MPI_ERR_COMM of a call that takes intercommunicators alone,
 * given comm, which mpii_inter did not find. */
int mpii_not_inter(MPI_Comm comm);
/* In a call: c, the intracommunicator of handle comm, or return
 * MPI_ERR_COMM; ANY_COMM_OR_ERR: an intercommunicator too. */
#define COMM_OR_ERR(c, comm)                                                                   \
    struct mpii_comm *c = mpii_comm(comm);                                                     \
    if (!c)                                                                                    \
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, mpii_comm_invalid, comm)
#define ANY_COMM_OR_ERR(c, comm)                                                               \
    struct mpii_comm *c = mpii_comm_any(comm);                                                 \
    if (!c)                                                                                    \
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, mpii_comm_invalid, comm)
/* In a call: return MPI_ERR_ARG (MPICH's class for it) if p, a pointer
 * the call writes its result through (or a handle it frees or sets), is
 * null; comm's error handler decides. The message names the parameter:
 * pass it by its name. A status is never checked: MPI_STATUS_IGNORE and
 * MPI_STATUSES_IGNORE are the null pointer. */
#define OUT_OR_ERR(comm, p)                                                                     \
    do {                                                                                        \
        if (!(p))                                                                               \
            return mpii_err(comm, MPI_ERR_ARG, "null pointer in parameter %s; accepted: the "   \
                            "address the call writes to", #p);                                 \
    } while (0)
/* Where a collective takes MPI_IN_PLACE (MPI-3.1 5.2.1 and each call's
 * section): nowhere (MPII_IP_NONE: MPI_Bcast, its one buffer passed as
 * both), as the send buffer of every rank (MPII_IP_SEND: Allgather,
 * Alltoall, Allreduce, Scan, Reduce_scatter and their forms), as the
 * root's send buffer (MPII_IP_ROOT_SEND: Gather, Reduce) or as the root's
 * receive buffer (MPII_IP_ROOT_RECV: Scatter). A buffer that is not
 * significant on this rank (the root's alone elsewhere) is not looked at.
 * mpii_in_place_ok returns MPI_ERR_BUFFER (or the class of a bad
 * communicator or root) where MPI_IN_PLACE is not taken, else
 * MPI_SUCCESS; without MPI_IN_PLACE it returns at once (apps/mpi/coll.c). */
enum mpii_in_place { MPII_IP_NONE, MPII_IP_SEND, MPII_IP_ROOT_SEND, MPII_IP_ROOT_RECV };
int mpii_in_place_ok(MPI_Comm comm, enum mpii_in_place where, int root, const void *send, const void *recv);
/* A call's communicator (in *cp), count, type and root (MPII_NO_ROOT:
 * none) checked, and its bytes in *len; else an error class. No root is
 * a value no rank can be: -1 is a program's bad root, refused with
 * MPI_ERR_ROOT as any other (MPI-3.1 5.4). `how` says the caller:
 * MPII_CONTIG, a collective of a contiguous type (another refused), or 0:
 * point to point (MPII_P2P) if root is MPII_NO_ROOT, else a collective
 * with a root that checks its types itself (MPII_ROOTED: Gatherv,
 * Scatterv). Point to point takes an intercommunicator, its ranks the
 * remote group's. A collective given one refuses it, unless the call
 * (mpii_call) is one with an intercommunicator form (mpii_ic_call,
 * apps/mpi/inter.c): then mpii_check checks the count and type, and
 * returns MPII_IS_INTER, no error raised, where the caller would return
 * an error; the caller runs that form. So the intracommunicator path
 * runs the instructions it ran before intercommunicators, which the
 * figures of docs/mpi.md follow. */
#define MPII_NO_ROOT INT_MIN
#define MPII_P2P     0
#define MPII_ROOTED  0
#define MPII_CONTIG  1
#define MPII_IS_INTER (-1)
int mpii_ic_call(const char *call);
int mpii_check(MPI_Comm comm, struct mpii_comm **cp, int count, MPI_Datatype t, int root, int how, size_t *len);

/* Every call starts with MPII_ENTER("MPI_Send"), which checks that MPI is
 * initialised and names the call for the error path. */
extern const char *mpii_call;
#define MPII_ENTER(name) do { mpii_call = (name); mpii_check_init(); } while (0)
void mpii_check_init(void);

/* An object's name (MPI-3.1 6.8): name (the call's parameter `param`)
 * copied to `to` (which holds MPI_MAX_OBJECT_NAME), a longer one cut as
 * 6.8 allows; `from` copied to name, its length in *len. A null pointer
 * is errcomm's MPI_ERR_ARG (apps/mpi/env.c). */
int mpii_name_set(MPI_Comm errcomm, char *to, const char *name, const char *param);
int mpii_name_get(MPI_Comm errcomm, const char *from, char *name, int *len);

/* The error path: under MPI_ERRORS_ARE_FATAL (the default) print
 * "MPI error: rank R: CALL: CLASS: detail" and end the node with status
 * 16 + class; under MPI_ERRORS_RETURN return the class. */
int mpii_err(MPI_Comm comm, int cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Error handlers (apps/mpi/env.c): whether h may be set on a communicator
 * (for_win 0) or on a window (1), predefined or the program's of that
 * kind and not freed; a new handle of h (MPI_*_get_errhandler) for the
 * program to free; the window whose communicator comm is (apps/mpi/win.c;
 * MPI_WIN_NULL if none), which a window's handler is called with. */
int mpii_errh_valid(MPI_Errhandler h, int for_win);
void mpii_errh_ref(MPI_Errhandler h);
MPI_Win mpii_win_of_comm(MPI_Comm comm);

/* Types (apps/mpi/dtype.c, typemap.c): bytes of data of one element, 0
 * for an unknown handle; a basic type's size; 1 if count elements are
 * count x size contiguous bytes; 1 if t may be used in communication
 * (basic, or derived and committed). mpii_pack copies count elements'
 * data into out, contiguous; mpii_unpack puts bytes of data back. */
int mpii_type_size(MPI_Datatype t);
int mpii_basic_size(MPI_Datatype t);
int mpii_basic_align(MPI_Datatype t);
int mpii_type_contig(MPI_Datatype t);
/* Types on a mixed machine (apps/mpi/isa.c): the first basic type t holds
 * whose size differs between the ISAs (MPI_LONG, ...), its name in *name;
 * MPI_DATATYPE_NULL if none. */
MPI_Datatype mpii_type_varying(MPI_Datatype t, const char **name);
/* mpii_isa_mixed: the machine has nodes of both ISAs (set by MPI_Init,
 * mpii_isa_init). A call that would move such a type between nodes of
 * the two ISAs is refused: to the node of rank peer of c
 * (mpii_isa_peer), or, a collective, anywhere in comm (mpii_isa_coll; an
 * intercommunicator's two groups); each returns an error class. */
extern int mpii_isa_mixed;
void mpii_isa_init(void);
int mpii_isa_peer(MPI_Comm comm, const struct mpii_comm *c, MPI_Datatype t, int peer);
int mpii_isa_coll(MPI_Comm comm, MPI_Datatype t);
/* A collective's check: e, mpii_check's answer (MPI_SUCCESS, or
 * MPII_IS_INTER for an intercommunicator's form), or the refusal of t on
 * comm. Inline: a machine of one ISA pays one test. */
static inline int mpii_isa_checked(MPI_Comm comm, MPI_Datatype t, int e)
{
    if (mpii_isa_mixed && (e == MPI_SUCCESS || e == MPII_IS_INTER)) {
        int f = mpii_isa_coll(comm, t);
        if (f)
            return f;
    }
    return e;
}
int mpii_type_usable(MPI_Datatype t);
MPI_Aint mpii_type_extent(MPI_Datatype t);   /* 0 for an unknown handle */
void mpii_pack(const void *in, int count, MPI_Datatype t, void *out);
void mpii_unpack(const void *in, size_t bytes, MPI_Datatype t, void *out);

/* Show the project's collective library communicator c instead of the
 * whole machine until mpii_view(NULL) (apps/mpi/view.c). */
void mpii_view(const struct mpii_comm *c);
/* Wait for a message of node with tag as a blocking receive waits (apps/mpi/p2p.c). */
void mpii_await_node(int node, int tag);
/* This node's number in the machine, in view or not. */
int mpii_node(void);

/* Point to point on a context (apps/mpi/p2p.c), in bytes. Ranks are the
 * communicator's. Return an MPI error class. */
int mpii_send(struct mpii_comm *c, uint32_t ctx, const void *buf, size_t len, int dest, int tag, int sync);
int mpii_recv(struct mpii_comm *c, uint32_t ctx, void *buf, size_t cap, int src, int tag, MPI_Status *st);
/* The NIC pattern of receives of (src, tag) on ctx (MPI_ANY_SOURCE and
 * MPI_ANY_TAG taken); block until a message of it is there, taking none,
 * as a blocking receive waits (the pending receives and the windows'
 * requests served meanwhile). */
struct net_pattern;
void mpii_pattern(struct net_pattern *p, const struct mpii_comm *c, uint32_t ctx, int src, int tag);
void mpii_await_pattern(const struct net_pattern *p);

/* The windows' requests (apps/mpi/win_sync.c), served by their target
 * whenever it waits in the library: mpii_win_patterns writes up to room
 * NIC patterns of them, with the window each is of in which[]; 0 while
 * one is being served (its own waits serve no other). mpii_win_serve
 * serves window which's requests that are there; mpii_win_serve_all
 * every window's; mpii_win_live: whether a window may have requests. */
int mpii_win_patterns(struct net_pattern *p, int *which, int room);
void mpii_win_serve(int which);
void mpii_win_serve_all(void);
extern int mpii_win_count, mpii_win_serving;   /* windows made and not freed; in a request's service */
static inline int mpii_win_live(void) { return mpii_win_count && !mpii_win_serving; }

/* Nonblocking collectives (apps/mpi/icoll.c): a schedule of sends,
 * receives and local steps in rounds, progressed by Test and Wait and by
 * any blocking receive meanwhile. mpii_sched_test: 1 if complete (making
 * what progress it can); mpii_sched_wait: complete it, returns an error
 * class; busy: 1 if some schedule but the one being waited on alone is
 * active; poke: progress every active schedule without waiting.
 * mpii_req_sched: a request for a schedule (apps/mpi/p2p.c). */
struct mpii_sched;
int mpii_sched_test(struct mpii_sched *s);
int mpii_sched_wait(struct mpii_sched *s);
int mpii_sched_busy(void);
void mpii_sched_poke(void);
int mpii_req_sched(MPI_Comm comm, struct mpii_sched *s, MPI_Request *request);
/* A request-based RMA operation's request (MPI-3.1 11.3.5; apps/mpi/
 * win.c): complete at once when ticket is 0 (a put or an accumulate, its
 * data sent), else once window win (of generation gen) has taken ticket
 * answers from target (mpii_win_answered, apps/mpi/win_sync.c: with
 * block, taking them; without, only those already there; 1 when done,
 * *err the error class of a failed take). */
int mpii_req_rma(MPI_Comm comm, MPI_Win win, int gen, int target, unsigned long ticket, MPI_Request *request);
int mpii_win_answered(MPI_Win win, int gen, int target, unsigned long ticket, int block, int *err);
/* A neighbourhood collective's one round (apps/mpi/neighbor.c lists the
 * blocks and runs the blocking form; mpii_ineighbour, apps/mpi/icoll.c,
 * the nonblocking one as a schedule): send block k of sl[k]
 * bytes at sp[k] to out[k], then receive block k into rp[k] (rl[k]
 * bytes) from in[k], each in that order; MPI_PROC_NULL: none. */
struct mpii_round {
    int nout;
    const int *out;
    const unsigned char *const *sp;
    const size_t *sl;
    int nin;
    const int *in;
    unsigned char *const *rp;
    const size_t *rl;
};
int mpii_ineighbour(MPI_Comm comm, struct mpii_comm *c, const struct mpii_round *r, MPI_Request *request);
/* 1 while a request not yet complete uses comm or t (-1: not asked). */
int mpii_pending_use(MPI_Comm comm, MPI_Datatype t);
/* 1 if a message of (ctx, src, tag) has arrived by now. */
int mpii_arrived(const struct mpii_comm *c, uint32_t ctx, int src, int tag);

/* Caching (apps/mpi/attr.c, MPI-3.1 6.7): the attributes of object obj,
 * a communicator or a datatype. mpii_attr_copy runs the copy callback of
 * each attribute of from, in the order they were set, and sets on to
 * those it says to keep (MPI_Comm_dup, MPI_Type_dup); mpii_attr_delete_all
 * runs the delete callback of each attribute of obj, the last set first,
 * and removes it (MPI_Comm_free, MPI_Type_free, MPI_Finalize). A callback's
 * error stops either, which returns it through errcomm's error handler
 * (the attributes not yet done stay). */
enum mpii_attr_kind { MPII_ATTR_COMM = 1, MPII_ATTR_TYPE = 2 };
int mpii_attr_copy(enum mpii_attr_kind kind, int from, int to, MPI_Comm errcomm);
int mpii_attr_delete_all(enum mpii_attr_kind kind, int obj, MPI_Comm errcomm);
/* 1 if t is a basic type or a derived one the program holds (typemap.c). */
int mpii_type_known(MPI_Datatype t);
/* The largest error class or code in use, the program's too (errcode.c). */
int mpii_last_used_code(void);

/* Info objects (apps/mpi/info.c, MPI-3.1 chapter 9). mpii_info_check:
 * MPI_SUCCESS if info is MPI_INFO_NULL or an info object, else comm's
 * error MPI_ERR_INFO (a call that takes hints and uses none checks its
 * info so). mpii_info_copy: *to is a new info of from's keys, held by the
 * library (MPI_INFO_NULL for MPI_INFO_NULL); mpii_info_release frees one
 * (none for MPI_INFO_NULL) and sets it to MPI_INFO_NULL. */
int mpii_info_check(MPI_Comm comm, MPI_Info info);
int mpii_info_copy(MPI_Comm comm, MPI_Info from, MPI_Info *to);
void mpii_info_release(MPI_Info *info);
/* Where communicator comm's hints are kept: a library-held info, or
 * MPI_INFO_NULL (none set); MPI_Comm_free releases it. Kept apart from
 * struct mpii_comm, as the hooks below, so that a program that uses no
 * hints, caching or error classes of its own links none of them: an MPI
 * image's layout shows in its figures (a kilobyte more of the library's
 * data and code in a program that used none of it moved docs/mpi.md's
 * MPI_Alltoall times). */
MPI_Info *mpii_comm_hints(MPI_Comm comm);

/* Hooks set by the parts a program uses (NULL until then): MPI_Finalize's
 * deletion of attributes (apps/mpi/attr.c), and the name of an error
 * class or code of the program's for the error path, NULL if code is not
 * one (apps/mpi/errcode.c). */
extern int (*mpii_at_finalize)(void);
extern const char *(*mpii_added_name)(int code);
/* The program's error classes and codes (apps/mpi/errcode.c): code's
 * class, or -1 if the program added no such code; its string ("" if none
 * set), or NULL. */
int mpii_added_class(int code);
const char *mpii_added_string(int code);

/* Context pairs (apps/mpi/ctx.c): bit p of mpii_ctx_held, pair p
 * (contexts 2p and 2p + 1) held by a communicator of this node. Hold and
 * drop by a pair's even context; the union of two masks; the lowest pair
 * free in a mask, as its even context (0: none); the error of none free;
 * the agreement of members list[0..n) of c (all of c if NULL), this node
 * list[me], through list[0] with tag on c's collective context. */
#define MPII_CTX_WORDS ((int)(MPII_CTX_MAX / 2 / 64))
extern uint64_t mpii_ctx_held[MPII_CTX_WORDS];
void mpii_ctx_hold(uint32_t ctx);
void mpii_ctx_drop(uint32_t ctx);
void mpii_ctx_union(uint64_t *acc, const uint64_t *mask);
uint32_t mpii_ctx_lowest_free(const uint64_t *held);
int mpii_ctx_none(MPI_Comm comm);
int mpii_ctx_agree(struct mpii_comm *c, const int *list, int n, int me, int tag, uint32_t *ctx);
/* Make a communicator of the parent's ranks list[0..n), this node being
 * list[me], on context ctx, in *out. */
int mpii_comm_make(MPI_Comm parent, const int *list, int n, int me, uint32_t ctx, MPI_Comm *out);

/* The linear gather and scatter through the root, on c's collective
 * context (apps/mpi/vcoll.c): blocks of counts[r] x unit bytes at
 * displs[r] x unit (counts, displs NULL: unit bytes at r x unit). The
 * root's own block is copied unless it is MPI_IN_PLACE or in place. */
int mpii_gather_linear(struct mpii_comm *c, const void *send, size_t slen, void *recv, const int *counts,
                       const int *displs, size_t unit, int root);
int mpii_scatter_linear(struct mpii_comm *c, const void *send, const int *counts, const int *displs, size_t unit,
                        void *recv, size_t rlen, int root);

/* n for each rank of comm, in a malloc'ed array; NULL with *e set if comm
 * or n is not valid or memory lacks (apps/mpi/vcoll.c). */
int *mpii_even_counts(MPI_Comm comm, int n, int *e);

/* Reduction: y = x op y elementwise over n elements of type t; 0, or -1
 * if op does not apply to t. mpii_reduce_local takes the user operators
 * and the types before long double, mpii_reduce_more long double,
 * MPI_OFFSET and the complex types (apps/mpi/dtype.c); mpii_reduce either. */
int mpii_reduce_local(const void *x, void *y, int n, MPI_Datatype t, MPI_Op op);
int mpii_reduce_more(const void *x, void *y, int n, MPI_Datatype t, MPI_Op op);
static inline int mpii_reduce(const void *x, void *y, int n, MPI_Datatype t, MPI_Op op)
{
    return mpii_reduce_local(x, y, n, t, op) && mpii_reduce_more(x, y, n, t, op) ? -1 : 0;
}
/* MPI_SUCCESS if op applies to t, else the error of comm for MPI_ERR_OP. */
int mpii_op_check(MPI_Comm comm, MPI_Op op, MPI_Datatype t);

/* The algorithm a setting (MPIR_CVAR_<OP>_INTRA_ALGORITHM=name in ARGS)
 * chooses for an operation, "auto" if none (apps/mpi/cvar.c). */
const char *mpii_cvar_algorithm(const char *op);
void mpii_cvar_read(void);     /* at MPI_Init: reads and checks the settings */

/* The intercommunicator forms of the collectives that have one (MPI-3.1
 * 5.2.2, apps/mpi/inter.c), on intercommunicator comm, once mpii_check
 * has checked the count and the type (contiguous: the caller packs
 * another) and found it one; the arguments are the call's, Bcast's
 * length in bytes. */
int mpii_ic_barrier(MPI_Comm comm);
int mpii_ic_bcast(MPI_Comm comm, void *buf, size_t len, int root);
int mpii_ic_allreduce(MPI_Comm comm, const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op);
int mpii_ic_allgather(MPI_Comm comm, const void *send, int scount, MPI_Datatype st, void *recv, int rcount,
                      MPI_Datatype rt);
/* Make an intercommunicator (apps/mpi/comm.c) in *out: remote group
 * nodes[0..n), local group `local` (an intracommunicator it owns from
 * then on; this process's rank is its rank there), context ctx, error
 * handler errh. */
int mpii_inter_make(MPI_Comm errcomm, MPI_Comm local, const int *nodes, int n, uint32_t ctx, MPI_Errhandler errh,
                    MPI_Comm *out);
/* A duplicate of intercommunicator comm (ic), in *newcomm: the same
 * groups on a new context (MPI-3.1 6.4.2, apps/mpi/inter.c). */
int mpii_inter_dup(MPI_Comm comm, struct mpii_comm *ic, MPI_Comm *newcomm);

#endif
