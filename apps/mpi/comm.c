/* MPI communicators (MPI-3.1 chapter 6): COMM_WORLD (every node, rank =
 * node), COMM_SELF, and those made from them by MPI_Comm_dup and
 * MPI_Comm_split. A communicator is a list of nodes and a context pair
 * (mpii.h) that every member agrees on: one none of them holds
 * (apps/mpi/ctx.c), so no node ever holds two communicators of one
 * context. */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"
#include "../../netdev/net.h"

struct mpii_comm mpii_comms[MPII_MAX_COMMS];
MPI_Comm mpii_locals[MPII_MAX_COMMS];   /* an intercommunicator's local group (mpii.h) */
#define TAG_COMM MPI_TAG_UB_VALUE    /* the collective context's tag for making communicators */

struct mpii_comm *mpii_comm(MPI_Comm c)
{
    return c >= 0 && c < MPII_MAX_COMMS && mpii_comms[c].used == 1 ? &mpii_comms[c] : NULL;
}

struct mpii_comm *mpii_inter(MPI_Comm c)
{
    return c >= 0 && c < MPII_MAX_COMMS && mpii_comms[c].used == MPII_USED_INTER ? &mpii_comms[c] : NULL;
}

struct mpii_comm *mpii_comm_any(MPI_Comm c)
{
    struct mpii_comm *k = mpii_comm(c);
    return k ? k : mpii_inter(c);
}

int mpii_comm_refused(MPI_Comm comm)
{
    return mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, mpii_comm_invalid, comm);
}

int mpii_not_inter(MPI_Comm comm)
{
    if (mpii_comm(comm))
        return mpii_err(comm, MPI_ERR_COMM, "communicator %d is an intracommunicator; accepted: an "
                        "intercommunicator", comm);
    return mpii_comm_refused(comm);
}

/* mpii_check's checks but that of the communicator: c, comm's. */
static inline __attribute__((always_inline)) int check_args(MPI_Comm comm, struct mpii_comm *c,
                                                            struct mpii_comm **cp, int count, MPI_Datatype t,
                                                            int root, int how, size_t *len)
{
    *cp = c;
    if (count < 0)
        return mpii_err(comm, MPI_ERR_COUNT, "count %d is negative", count);
    if (!mpii_type_usable(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    if (how && !mpii_type_contig(t))   /* MPII_CONTIG */
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not contiguous, which %s does not take yet", t, mpii_call);
    if (root != MPII_NO_ROOT && (root < 0 || root >= c->size))
        return mpii_err(comm, MPI_ERR_ROOT, "root %d; accepted: 0..%d", root, c->size - 1);
    *len = (size_t)count * (size_t)mpii_type_size(t);
    return MPI_SUCCESS;
}

/* mpii_check of comm, which is not an intracommunicator (see `how`,
 * mpii.h): an intercommunicator is checked as one for point to point,
 * and so for a collective with a form for one, which then gets
 * MPII_IS_INTER (and *len); else the refusal. */
static int __attribute__((noinline, cold)) not_intra(MPI_Comm comm, struct mpii_comm **cp, int count, int how, MPI_Datatype t, int root, size_t *len)
{
    struct mpii_comm *c = mpii_inter(comm);
    if (c && how == MPII_P2P && root == MPII_NO_ROOT)
        return check_args(comm, c, cp, count, t, root, how, len);
    if (!c || !mpii_ic_call(mpii_call))
        return mpii_comm_refused(comm);
    int e = check_args(comm, c, cp, count, t, MPII_NO_ROOT, how, len);   /* its root: its own (inter.c) */
    return e ? e : MPII_IS_INTER;
}

/* Its intracommunicator path is as it was before intercommunicators (the
 * same instructions: the figures of docs/mpi.md follow them). */
int mpii_check(MPI_Comm comm, struct mpii_comm **cp, int count, MPI_Datatype t, int root, int how, size_t *len)
{
    struct mpii_comm *c = mpii_comm(comm);
    if (!c)
        return not_intra(comm, cp, count, how, t, root, len);
    return check_args(comm, c, cp, count, t, root, how, len);
}

/* MPI_Comm_rank's and MPI_Comm_size's answer (*out) for comm, which is
 * not an intracommunicator: an intercommunicator's rank or size in its
 * local group (MPI-3.1 6.6.1), else the refusal. Apart, so that the
 * intracommunicator's path keeps its instructions (a program's figures
 * count them from its first instruction). */
static int __attribute__((noinline)) local_rank_size(MPI_Comm comm, int *out, int size)
{
    struct mpii_comm *c = mpii_inter(comm);
    if (!c)
        return mpii_comm_refused(comm);
    OUT_OR_ERR(comm, out);
    *out = size ? mpii_comms[mpii_local(c)].size : c->rank;
    return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    MPII_ENTER("MPI_Comm_rank");
    struct mpii_comm *c = mpii_comm(comm);
    if (!c)
        return local_rank_size(comm, rank, 0);
    OUT_OR_ERR(comm, rank);
    *rank = c->rank;
    return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    MPII_ENTER("MPI_Comm_size");
    struct mpii_comm *c = mpii_comm(comm);
    if (!c)
        return local_rank_size(comm, size, 1);
    OUT_OR_ERR(comm, size);
    *size = c->size;
    return MPI_SUCCESS;
}

/* Every rank's n ints, rank r's at all[r n], through rank 0 (linear). */
static int allgather_ints(struct mpii_comm *c, const int *mine, int n, int *all)
{
    size_t len = (size_t)n * sizeof(int);
    uint32_t ctx = c->ctx + 1;
    int e = MPI_SUCCESS;
    memcpy(all + c->rank * n, mine, len);
    if (c->rank) {
        e = mpii_send(c, ctx, mine, len, 0, TAG_COMM, 0);
        return e ? e : mpii_recv(c, ctx, all, len * (size_t)c->size, 0, TAG_COMM, NULL);
    }
    for (int r = 1; r < c->size && !e; r++)
        e = mpii_recv(c, ctx, all + r * n, len, r, TAG_COMM, NULL);
    for (int r = 1; r < c->size && !e; r++)
        e = mpii_send(c, ctx, all, len * (size_t)c->size, r, TAG_COMM, 0);
    return e;
}

/* A free slot for a communicator of n ranks, and its world of n nodes
 * (malloc'ed, to fill); else an error of errcomm's. */
static int new_slot(MPI_Comm errcomm, int n, int *out, int **world)
{
    int slot = 2;                    /* a freed one no request uses any more is reused */
    while (slot < MPII_MAX_COMMS && mpii_comms[slot].used &&
           (mpii_comms[slot].used != 2 || mpii_pending_use(slot, -1)))
        slot++;
    if (slot < MPII_MAX_COMMS && mpii_comms[slot].used == 2) {
        free(mpii_comms[slot].world);
        mpii_topo_free(&mpii_comms[slot]);
        mpii_ctx_drop(mpii_comms[slot].ctx);
        mpii_comms[slot].used = 0;
    }
    if (slot == MPII_MAX_COMMS)
        return mpii_err(errcomm, MPI_ERR_INTERN, "more than %d communicators at once", MPII_MAX_COMMS);
    if (!(*world = malloc((size_t)(n ? n : 1) * sizeof **world)))
        return mpii_err(errcomm, MPI_ERR_NO_MEM, "%d bytes for a communicator", (int)(n * sizeof **world));
    *out = slot;
    return MPI_SUCCESS;
}

int mpii_comm_make(MPI_Comm parent, const int *list, int n, int me, uint32_t ctx, MPI_Comm *out)
{
    int slot, *w, e = new_slot(parent, n, &slot, &w);
    if (e)
        return e;
    struct mpii_comm *p = &mpii_comms[parent], *c = &mpii_comms[slot];
    for (int i = 0; i < n; i++)
        w[i] = p->world[list[i]];
    *c = (struct mpii_comm){ .used = 1, .size = n, .rank = me, .world = w, .ctx = ctx, .errh = p->errh,
                             .identity = n == net_nodes() };
    for (int i = 0; i < n; i++)
        c->identity &= w[i] == i;
    mpii_ctx_hold(ctx);
    *out = slot;
    return MPI_SUCCESS;
}

int mpii_inter_make(MPI_Comm errcomm, MPI_Comm local, const int *nodes, int n, uint32_t ctx, MPI_Errhandler errh,
                    MPI_Comm *out)
{
    int slot, *w, e = new_slot(errcomm, n, &slot, &w);
    if (e)
        return e;
    memcpy(w, nodes, (size_t)n * sizeof *w);
    mpii_comms[slot] = (struct mpii_comm){ .used = MPII_USED_INTER, .size = n, .rank = mpii_comms[local].rank,
                                           .world = w, .ctx = ctx, .errh = errh };
    mpii_locals[slot] = local;
    mpii_ctx_hold(ctx);
    *out = slot;
    return MPI_SUCCESS;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    MPII_ENTER("MPI_Comm_split");
    COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, newcomm);
    if (color < 0 && color != MPI_UNDEFINED)
        return mpii_err(comm, MPI_ERR_ARG, "color %d; accepted: 0 or more, or MPI_UNDEFINED", color);
    int mine[2] = { color, key }, n = 0, me = -1;
    int *all = malloc((size_t)c->size * sizeof mine), *list = malloc((size_t)c->size * sizeof *list);
    if (!all || !list) {
        free(all);
        free(list);
        return mpii_err(comm, MPI_ERR_NO_MEM, "%d bytes to split a communicator", (int)(c->size * sizeof mine));
    }
    uint32_t ctx = 0;
    int e = allgather_ints(c, mine, 2, all);
    if (!e)                          /* every member agrees, MPI_UNDEFINED's too: their masks are in it */
        e = mpii_ctx_agree(c, NULL, c->size, c->rank, TAG_COMM, &ctx);
    /* members of this color, by (key, rank in comm): insertion sort */
    for (int r = 0; r < c->size && !e && color != MPI_UNDEFINED; r++) {
        if (all[2 * r] != color)
            continue;
        int i = n++;
        while (i > 0 && all[2 * list[i - 1] + 1] > all[2 * r + 1])
            list[i] = list[i - 1], i--;
        list[i] = r;
    }
    for (int i = 0; i < n; i++)
        if (list[i] == c->rank)
            me = i;
    *newcomm = MPI_COMM_NULL;
    if (!e && color != MPI_UNDEFINED)
        e = mpii_comm_make(comm, list, n, me, ctx, newcomm);
    free(all);
    free(list);
    return e;
}

/* The communicator of slot c, made free: its context pair with it, or
 * (requests pending on it) when new_slot takes the slot again. */
static void release(MPI_Comm comm, struct mpii_comm *c)
{
    if (c->used == MPII_USED_INTER)  /* its local group's communicator goes with it */
        release(mpii_local(c), &mpii_comms[mpii_local(c)]);
    mpii_info_release(mpii_comm_hints(comm));
    if (mpii_pending_use(comm, -1))
        c->used = 2;                 /* its pending operations complete normally (MPI-3.1 6.4.3) */
    else {
        free(c->world);
        mpii_topo_free(c);
        mpii_ctx_drop(c->ctx);
        c->used = 0;
    }
}

/* comm duplicated (MPI-3.1 6.4.2): its group, its topology, its
 * attributes as their copy callbacks say (6.7.2) and the hints of info
 * (comm's own for MPI_Comm_dup). A callback's error frees the duplicate
 * again (the delete callbacks of the attributes copied run) and is the
 * call's, *newcomm being MPI_COMM_NULL. Should a delete callback fail
 * too, the duplicate's slot stays taken, with the attributes it kept:
 * freed, the next communicator made there would have them. */
static int dup_with_hints(MPI_Comm comm, struct mpii_comm *c, MPI_Info hints, MPI_Comm *newcomm)
{
    const char *call = mpii_call;
    int e = c->used == MPII_USED_INTER ? mpii_inter_dup(comm, c, newcomm) : MPI_Comm_split(comm, 0, c->rank, newcomm);
    mpii_call = call;
    if (e)
        return e;
    struct mpii_comm *d = &mpii_comms[*newcomm];
    e = mpii_topo_copy(comm, d, c);
    if (!e)
        e = mpii_info_copy(comm, hints, mpii_comm_hints(*newcomm));
    if (!e)
        e = mpii_attr_copy(MPII_ATTR_COMM, comm, *newcomm, comm);
    if (e) {
        if (!mpii_attr_delete_all(MPII_ATTR_COMM, *newcomm, comm))
            release(*newcomm, d);
        *newcomm = MPI_COMM_NULL;
    }
    return e;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    MPII_ENTER("MPI_Comm_dup");
    ANY_COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, newcomm);
    return dup_with_hints(comm, c, *mpii_comm_hints(comm), newcomm);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    MPII_ENTER("MPI_Comm_dup_with_info");
    ANY_COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, newcomm);
    int e = mpii_info_check(comm, info);
    return e ? e : dup_with_hints(comm, c, info, newcomm);
}

/* Its attributes are deleted first (MPI-3.1 6.7.3); a delete callback's
 * error leaves it, and is the call's. */
int MPI_Comm_free(MPI_Comm *comm)
{
    MPII_ENTER("MPI_Comm_free");
    OUT_OR_ERR(MPI_COMM_WORLD, comm);
    ANY_COMM_OR_ERR(c, *comm);
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return mpii_err(*comm, MPI_ERR_COMM, "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed");
    int e = mpii_attr_delete_all(MPII_ATTR_COMM, *comm, *comm);
    if (e)
        return e;
    release(*comm, c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* Two groups of nodes: MPI_CONGRUENT (the same in the same order),
 * MPI_SIMILAR (the same members) or MPI_UNEQUAL. */
static int compare_groups(const struct mpii_comm *a, const struct mpii_comm *b)
{
    int same_order = a->size == b->size, same_set = a->size == b->size;
    for (int i = 0; i < a->size && same_set; i++) {
        same_order &= a->world[i] == b->world[i];
        int found = 0;
        for (int j = 0; j < b->size && !found; j++)
            found = a->world[i] == b->world[j];
        same_set &= found;
    }
    return same_order ? MPI_CONGRUENT : same_set ? MPI_SIMILAR : MPI_UNEQUAL;
}

/* MPI-3.1 6.4.1: of two intercommunicators, both their local and their
 * remote groups are compared (the weaker answer of the two); an
 * intercommunicator and an intracommunicator are MPI_UNEQUAL. */
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    MPII_ENTER("MPI_Comm_compare");
    ANY_COMM_OR_ERR(a, comm1);
    ANY_COMM_OR_ERR(b, comm2);
    OUT_OR_ERR(comm1, result);
    int inter = (a->used == MPII_USED_INTER) + (b->used == MPII_USED_INTER);
    if (comm1 == comm2)
        *result = MPI_IDENT;
    else if (inter == 1)
        *result = MPI_UNEQUAL;
    else if (inter == 2) {           /* MPI_CONGRUENT < MPI_SIMILAR < MPI_UNEQUAL */
        int l = compare_groups(&mpii_comms[mpii_local(a)], &mpii_comms[mpii_local(b)]), r = compare_groups(a, b);
        *result = l > r ? l : r;
    } else
        *result = compare_groups(a, b);
    return MPI_SUCCESS;
}

/* No process here was started by MPI_Comm_spawn (10.3.2), which the
 * library does not have: the parent is MPI_COMM_NULL. */
int MPI_Comm_get_parent(MPI_Comm *parent)
{
    MPII_ENTER("MPI_Comm_get_parent");
    OUT_OR_ERR(MPI_COMM_WORLD, parent);
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    MPII_ENTER("MPI_Comm_test_inter");
    ANY_COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, flag);
    *flag = c->used == MPII_USED_INTER;
    return MPI_SUCCESS;
}

int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    MPII_ENTER("MPI_Comm_remote_size");
    struct mpii_comm *c = mpii_inter(comm);
    if (!c)
        return mpii_not_inter(comm);
    OUT_OR_ERR(comm, size);
    *size = c->size;                 /* an intercommunicator's size is its remote group's (mpii.h) */
    return MPI_SUCCESS;
}

int MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    MPII_ENTER("MPI_Comm_set_name");
    ANY_COMM_OR_ERR(c, comm);
    return mpii_name_set(comm, c->name, name, "comm_name");
}

int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    MPII_ENTER("MPI_Comm_get_name");
    ANY_COMM_OR_ERR(c, comm);
    return mpii_name_get(comm, c->name, name, resultlen);
}

/* MPI-3.1 6.4.2: MPI_COMM_TYPE_SHARED splits comm into the processes
 * that share memory; a node is one process with its own memory, so each
 * rank gets a communicator of itself. MPI_UNDEFINED gives MPI_COMM_NULL.
 * Collective over comm, as a split is. */
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    MPII_ENTER("MPI_Comm_split_type");
    COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, newcomm);
    int e = mpii_info_check(comm, info);
    if (e)
        return e;
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
        return mpii_err(comm, MPI_ERR_ARG, "split_type %d; accepted: MPI_COMM_TYPE_SHARED or MPI_UNDEFINED",
                        split_type);
    e = MPI_Comm_split(comm, split_type == MPI_UNDEFINED ? MPI_UNDEFINED : c->rank, key, newcomm);
    mpii_call = "MPI_Comm_split_type";
    return e;
}
