/* Intercommunicators (MPI-3.1 6.6): made by MPI_Intercomm_create from
 * two disjoint groups, duplicated (MPI_Comm_dup, apps/mpi/comm.c), merged
 * into an intracommunicator by MPI_Intercomm_merge, and the collectives
 * that have an intercommunicator form here (5.2.2): Barrier, Bcast,
 * Allreduce and Allgather. Each runs as its local group's intracommunicator
 * collective (mpii.h: struct mpii_comm's `local`) and one exchange between
 * the two groups' leaders (rank 0 of each) on the intercommunicator's
 * collective context. Every other collective refuses an intercommunicator
 * (mpii_check, mpii_comm_refused). */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

#define TAG_IC 8                     /* the leaders' exchanges, on the collective context */

/* The collectives with an intercommunicator form (mpii_check asks). */
int mpii_ic_call(const char *call)
{
    static const char *const calls[] = { "MPI_Barrier", "MPI_Bcast", "MPI_Allreduce", "MPI_Allgather" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        if (!strcmp(call, calls[i]))
            return 1;
    return 0;
}

/* The leaders' exchange: this group's leader sends out (olen bytes) to
 * the remote group's and receives in (ilen bytes at most) from it; the
 * other ranks do nothing. Sends complete at once (apps/mpi/p2p.c), so
 * both leaders send first. */
static int leaders_swap(struct mpii_comm *ic, const void *out, size_t olen, void *in, size_t ilen)
{
    if (ic->rank)
        return MPI_SUCCESS;
    int e = mpii_send(ic, ic->ctx + 1, out, olen, 0, TAG_IC, 0);
    return e ? e : mpii_recv(ic, ic->ctx + 1, in, ilen, 0, TAG_IC, NULL);
}

/* Run an intracommunicator call on local group lc as part of the call
 * named call, which the error path goes on naming; lc has ic's error
 * handler for it. */
#define LOCAL(call, ic, lc, e, expr)                                                          \
    do {                                                                                      \
        mpii_comms[lc].errh = (ic)->errh;                                                     \
        (e) = (expr);                                                                         \
        mpii_call = (call);                                                                   \
    } while (0)

/* The context pairs a group's members hold between them (the union of
 * their masks, apps/mpi/ctx.c), and its leader's word for the other's. */
struct offer {
    uint64_t held[MPII_CTX_WORDS];
    int mine;
};

/* The context pair both groups of ic may use, in *ctx: the lowest that no
 * member of either holds (as apps/mpi/ctx.c agrees on one for an
 * intracommunicator), through lc (the local group, ranked as ic) and the
 * leaders; with it each leader's `mine` for the other group (*theirs) and
 * its own group (*ours). */
static int agree(struct mpii_comm *ic, MPI_Comm lc, int mine, uint32_t *ctx, int *ours, int *theirs)
{
    const char *call = mpii_call;
    struct offer out = { .mine = mine }, in = { .mine = 0 };
    int all[3] = { 0, mine, 0 }, e;
    LOCAL(call, ic, lc, e, MPI_Allreduce(mpii_ctx_held, out.held, MPII_CTX_WORDS, MPI_UINT64_T, MPI_BOR, lc));
    if (!e)
        e = leaders_swap(ic, &out, sizeof out, &in, sizeof in);
    if (!e && !ic->rank) {
        mpii_ctx_union(out.held, in.held);
        all[0] = (int)mpii_ctx_lowest_free(out.held);
        all[2] = in.mine;
    }
    if (!e)
        LOCAL(call, ic, lc, e, MPI_Bcast(all, 3, MPI_INT, 0, lc));
    if (!e && !all[0])
        e = mpii_ctx_none(lc);
    *ctx = (uint32_t)all[0];
    *ours = all[1];
    *theirs = all[2];
    return e;
}

/* A duplicate of local group's intracommunicator lc, for a new
 * intercommunicator (the same ranks, a context of its own). */
static int local_dup(MPI_Comm lc, MPI_Comm *out)
{
    const char *call = mpii_call;
    int e = MPI_Comm_split(lc, 0, mpii_comms[lc].rank, out);
    mpii_call = call;
    return e;
}

int mpii_inter_dup(MPI_Comm comm, struct mpii_comm *ic, MPI_Comm *newcomm)
{
    MPI_Comm lc;
    uint32_t ctx;
    int ours, theirs, e = local_dup(mpii_local(ic), &lc);
    if (!e)
        e = agree(ic, lc, 0, &ctx, &ours, &theirs);
    if (!e)
        e = mpii_inter_make(comm, lc, ic->world, ic->size, ctx, ic->errh, newcomm);
    return e;
}

/* The remote group's leader sends this group's leader the group's size
 * and the context pairs its members hold (struct offer, `mine` the
 * size), then its nodes; over peer, on its point-to-point context with
 * the program's tag (6.6.2). Only the local leader calls it; `held` comes
 * back with the remote group's pairs added. *nodes is malloc'ed. */
static int leaders_meet(struct mpii_comm *peer, int remote_leader, int tag, const int *mine, int n,
                        uint64_t *held, int *rn, int **nodes)
{
    struct offer out = { .mine = n }, in;
    memcpy(out.held, held, sizeof out.held);
    int e = mpii_send(peer, peer->ctx, &out, sizeof out, remote_leader, tag, 0);
    if (!e)
        e = mpii_send(peer, peer->ctx, mine, (size_t)n * sizeof *mine, remote_leader, tag, 0);
    if (!e)
        e = mpii_recv(peer, peer->ctx, &in, sizeof in, remote_leader, tag, NULL);
    if (e)
        return e;
    *rn = in.mine;
    mpii_ctx_union(held, in.held);
    if (!(*nodes = malloc((size_t)(in.mine > 0 ? in.mine : 1) * sizeof **nodes)))
        return mpii_err(peer - mpii_comms, MPI_ERR_NO_MEM, "%d bytes for a remote group", in.mine);
    return mpii_recv(peer, peer->ctx, *nodes, (size_t)in.mine * sizeof **nodes, remote_leader, tag, NULL);
}

/* MPI-3.1 6.6.2. Errors knowable by every member (the local leader, the
 * tag, overlapping groups) are raised by every member; those of the
 * peer communicator and the remote leader by the local leader alone,
 * where alone they are significant. */
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm *newintercomm)
{
    MPII_ENTER("MPI_Intercomm_create");
    COMM_OR_ERR(c, local_comm);
    OUT_OR_ERR(local_comm, newintercomm);
    if (local_leader < 0 || local_leader >= c->size)
        return mpii_err(local_comm, MPI_ERR_RANK, "local_leader %d; accepted: 0..%d", local_leader, c->size - 1);
    if (tag < 0 || tag > MPI_TAG_UB_VALUE)
        return mpii_err(local_comm, MPI_ERR_TAG, "tag %d; accepted: 0..%d", tag, MPI_TAG_UB_VALUE);
    struct mpii_comm *peer = NULL;
    if (c->rank == local_leader) {
        if (!(peer = mpii_comm_any(peer_comm)))
            return mpii_err(local_comm, MPI_ERR_COMM, "peer_comm %d is not valid", peer_comm);
        if (remote_leader < 0 || remote_leader >= peer->size)
            return mpii_err(local_comm, MPI_ERR_RANK, "remote_leader %d; accepted: 0..%d (a rank of peer_comm)",
                            remote_leader, peer->size - 1);
    }
    MPI_Comm lc = MPI_COMM_NULL;
    uint64_t held[MPII_CTX_WORDS];
    int e = local_dup(local_comm, &lc), hdr[2] = { 0, 0 }, *nodes = NULL;
    if (!e) {
        e = MPI_Allreduce(mpii_ctx_held, held, MPII_CTX_WORDS, MPI_UINT64_T, MPI_BOR, lc);
        mpii_call = "MPI_Intercomm_create";
    }
    if (!e && peer)                  /* hdr: the remote group's size, the context agreed */
        e = leaders_meet(peer, remote_leader, tag, c->world, c->size, held, &hdr[0], &nodes);
    if (!e) {
        hdr[1] = (int)mpii_ctx_lowest_free(held);
        e = MPI_Bcast(hdr, 2, MPI_INT, local_leader, lc);
    }
    if (!e && !nodes && !(nodes = malloc((size_t)(hdr[0] > 0 ? hdr[0] : 1) * sizeof *nodes)))
        e = mpii_err(local_comm, MPI_ERR_NO_MEM, "%d bytes for a remote group", hdr[0]);
    if (!e)
        e = MPI_Bcast(nodes, hdr[0], MPI_INT, local_leader, lc);
    mpii_call = "MPI_Intercomm_create";
    for (int i = 0; i < hdr[0] && !e; i++)
        for (int r = 0; r < c->size && !e; r++)
            if (nodes[i] == c->world[r])
                e = mpii_err(local_comm, MPI_ERR_COMM, "the local and remote groups share node %d; they must be "
                             "disjoint (MPI-3.1 6.6.2)", nodes[i]);
    if (!e && !hdr[1])
        e = mpii_ctx_none(local_comm);
    if (!e)
        e = mpii_inter_make(local_comm, lc, nodes, hdr[0], (uint32_t)hdr[1], c->errh, newintercomm);
    else if (lc != MPI_COMM_NULL)
        MPI_Comm_free(&lc);
    mpii_call = "MPI_Intercomm_create";
    free(nodes);
    return e;
}

/* MPI-3.1 6.6.2: the group whose leader said high = false first; if both
 * said the same, the group of the lower leader node first (the standard
 * leaves that order to the library). Ranks within each group keep their
 * order. */
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    MPII_ENTER("MPI_Intercomm_merge");
    struct mpii_comm *ic = mpii_inter(intercomm);
    if (!ic)
        return mpii_not_inter(intercomm);
    OUT_OR_ERR(intercomm, newintracomm);
    struct mpii_comm *lc = &mpii_comms[mpii_local(ic)];
    uint32_t ctx;
    int ours, theirs, e = agree(ic, mpii_local(ic), !!high, &ctx, &ours, &theirs);
    if (e)
        return e;
    int n = lc->size + ic->size, *nodes = malloc((size_t)n * sizeof *nodes);
    if (!nodes)
        return mpii_err(intercomm, MPI_ERR_NO_MEM, "%d bytes for a communicator", (int)(n * sizeof *nodes));
    int local_first = ours != theirs ? ours < theirs : lc->world[0] < ic->world[0];
    const struct mpii_comm *first = local_first ? lc : ic, *second = local_first ? ic : lc;
    memcpy(nodes, first->world, (size_t)first->size * sizeof *nodes);
    memcpy(nodes + first->size, second->world, (size_t)second->size * sizeof *nodes);
    /* COMM_WORLD's ranks are its nodes, so the nodes are its ranks */
    e = mpii_comm_make(MPI_COMM_WORLD, nodes, n, (local_first ? 0 : ic->size) + ic->rank, ctx, newintracomm);
    if (!e)
        mpii_comms[*newintracomm].errh = ic->errh;
    free(nodes);
    return e;
}

/* --- collectives (MPI-3.1 5.2.2) ----------------------------------------------- */

/* The buffers of an intercommunicator collective are never MPI_IN_PLACE
 * (5.2.2, and each call's section). */
static int not_in_place(MPI_Comm comm, const void *send, const void *recv)
{
    if (send == MPI_IN_PLACE || recv == MPI_IN_PLACE)
        return mpii_err(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not taken on an intercommunicator");
    return MPI_SUCCESS;
}

/* Every rank of both groups has entered once the leaders have heard from
 * each other between two barriers of their groups. */
int mpii_ic_barrier(MPI_Comm comm)
{
    struct mpii_comm *ic = mpii_inter(comm);
    int e;
    LOCAL("MPI_Barrier", ic, mpii_local(ic), e, MPI_Barrier(mpii_local(ic)));
    if (!e)
        e = leaders_swap(ic, NULL, 0, NULL, 0);
    if (!e)
        LOCAL("MPI_Barrier", ic, mpii_local(ic), e, MPI_Barrier(mpii_local(ic)));
    return e;
}

/* The root (MPI_ROOT) sends to the remote group's leader, which
 * broadcasts in its group; the root's group (MPI_PROC_NULL) does nothing
 * more. */
int mpii_ic_bcast(MPI_Comm comm, void *buf, size_t len, int root)
{
    struct mpii_comm *ic = mpii_inter(comm);
    int e = MPI_SUCCESS;
    if (root == MPI_PROC_NULL)
        return e;
    if (root == MPI_ROOT)
        return mpii_send(ic, ic->ctx + 1, buf, len, 0, TAG_IC, 0);
    if (root < 0 || root >= ic->size)
        return mpii_err(comm, MPI_ERR_ROOT, "root %d; accepted: MPI_ROOT, MPI_PROC_NULL or a rank of the remote "
                        "group, 0..%d", root, ic->size - 1);
    if (ic->rank == 0)
        e = mpii_recv(ic, ic->ctx + 1, buf, len, root, TAG_IC, NULL);
    if (!e)
        LOCAL("MPI_Bcast", ic, mpii_local(ic), e, MPI_Bcast(buf, (int)len, MPI_BYTE, 0, mpii_local(ic)));
    return e;
}

/* Each group's result is the reduction of the other group's vectors:
 * reduce in the group to its leader, the leaders swap, each broadcasts
 * what it got. */
int mpii_ic_allreduce(MPI_Comm comm, const void *send, void *recv, int count, MPI_Datatype t, MPI_Op op)
{
    struct mpii_comm *ic = mpii_inter(comm), *lc;
    size_t len;
    int e = mpii_check(comm, &lc, count, t, MPII_NO_ROOT, MPII_P2P, &len);
    if (!e)
        e = mpii_op_check(comm, op, t);
    if (!e)
        e = not_in_place(comm, send, recv);
    void *mine = e ? NULL : malloc(len ? len : 1);
    if (!e && !mine)
        e = mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes of node memory for the call", (unsigned long)len);
    if (!e)
        LOCAL("MPI_Allreduce", ic, mpii_local(ic), e, MPI_Reduce(send, mine, count, t, op, 0, mpii_local(ic)));
    if (!e)
        e = leaders_swap(ic, mine, len, recv, len);
    if (!e)
        LOCAL("MPI_Allreduce", ic, mpii_local(ic), e, MPI_Bcast(recv, count, t, 0, mpii_local(ic)));
    free(mine);
    return e;
}

/* Each group receives the other group's blocks in rank order: gather in
 * the group to its leader, the leaders swap, each broadcasts what it
 * got. */
int mpii_ic_allgather(MPI_Comm comm, const void *send, int scount, MPI_Datatype st, void *recv, int rcount,
                      MPI_Datatype rt)
{
    struct mpii_comm *ic = mpii_inter(comm), *lc;
    size_t sl, rl;
    int e = mpii_check(comm, &lc, scount, st, MPII_NO_ROOT, MPII_P2P, &sl);
    if (!e)
        e = mpii_check(comm, &lc, rcount, rt, MPII_NO_ROOT, MPII_P2P, &rl);
    if (!e)
        e = not_in_place(comm, send, recv);
    int n = mpii_comms[mpii_local(ic)].size;
    size_t all = ic->rank ? 0 : sl * (size_t)n;
    void *mine = e ? NULL : malloc(all ? all : 1);
    if (!e && !mine)
        e = mpii_err(comm, MPI_ERR_NO_MEM, "%lu bytes of node memory for the call", (unsigned long)all);
    if (!e)
        LOCAL("MPI_Allgather", ic, mpii_local(ic), e, MPI_Gather(send, scount, st, mine, scount, st, 0, mpii_local(ic)));
    if (!e)
        e = leaders_swap(ic, mine, all, recv, rl * (size_t)ic->size);
    if (!e)
        LOCAL("MPI_Allgather", ic, mpii_local(ic), e, MPI_Bcast(recv, rcount * ic->size, rt, 0, mpii_local(ic)));
    free(mine);
    return e;
}
