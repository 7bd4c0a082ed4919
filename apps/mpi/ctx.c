/* Context pairs (mpii.h): which this node's communicators hold, and the
 * agreement of a new communicator's members on one that none of them
 * holds. Pair p is contexts 2p (point to point) and 2p + 1 (collectives);
 * pairs 0 and 1 are MPI_COMM_WORLD's and MPI_COMM_SELF's.
 *
 * Invariant: no node holds two communicators of one context, so a
 * message's context and source name its communicator at the receiver.
 * A pair is held from the making of a communicator until its slot is
 * free again (MPI_Comm_free with no pending operation on it, or the
 * slot's reuse after them, apps/mpi/comm.c), and then may be taken by the
 * next communicator all of whose members have let it go: the members
 * agree on the lowest pair free in the union of their masks, as MPICH
 * does with its context-id mask. A message sent on a freed communicator
 * and never received could match the communicator that takes its pair
 * next, as in MPICH and Open MPI, which reuse contexts too. */
#include <string.h>
#include "mpii.h"

uint64_t mpii_ctx_held[MPII_CTX_WORDS] = { 3 };   /* pairs 0 and 1 */

void mpii_ctx_hold(uint32_t ctx) { mpii_ctx_held[ctx / 128] |= 1ull << (ctx / 2 % 64); }
void mpii_ctx_drop(uint32_t ctx) { mpii_ctx_held[ctx / 128] &= ~(1ull << (ctx / 2 % 64)); }

void mpii_ctx_union(uint64_t *acc, const uint64_t *mask)
{
    for (int w = 0; w < MPII_CTX_WORDS; w++)
        acc[w] |= mask[w];
}

uint32_t mpii_ctx_lowest_free(const uint64_t *held)
{
    for (int w = 0; w < MPII_CTX_WORDS; w++)
        if (~held[w])
            return 2 * (uint32_t)(64 * w + __builtin_ctzll(~held[w]));
    return 0;
}

int mpii_ctx_none(MPI_Comm comm)
{
    return mpii_err(comm, MPI_ERR_INTERN, "more than %u communicators held by the members together",
                    MPII_CTX_MAX / 2);
}

/* Members list[0..n) of c (ranks in c; all of c in order if list is
 * NULL), this node being list[me], agree through list[0] on c's
 * collective context with tag: each sends it its mask, it answers with
 * the lowest pair free in their union (0: none, which every member
 * raises). */
int mpii_ctx_agree(struct mpii_comm *c, const int *list, int n, int me, int tag, uint32_t *ctx)
{
    uint64_t all[MPII_CTX_WORDS], theirs[MPII_CTX_WORDS];
    uint32_t got = 0;
    int e = MPI_SUCCESS;
    if (me == 0) {
        memcpy(all, mpii_ctx_held, sizeof all);
        for (int i = 1; i < n && !e; i++) {
            e = mpii_recv(c, c->ctx + 1, theirs, sizeof theirs, list ? list[i] : i, tag, NULL);
            mpii_ctx_union(all, theirs);
        }
        got = mpii_ctx_lowest_free(all);
        for (int i = 1; i < n && !e; i++)
            e = mpii_send(c, c->ctx + 1, &got, sizeof got, list ? list[i] : i, tag, 0);
    } else {
        int leader = list ? list[0] : 0;
        e = mpii_send(c, c->ctx + 1, mpii_ctx_held, sizeof mpii_ctx_held, leader, tag, 0);
        if (!e)
            e = mpii_recv(c, c->ctx + 1, &got, sizeof got, leader, tag, NULL);
    }
    if (e)
        return e;
    *ctx = got;
    return got ? MPI_SUCCESS : mpii_ctx_none(c - mpii_comms);
}
