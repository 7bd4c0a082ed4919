/* Communicators made and freed without end (MPI-3.1 6.4): more than the
 * 4,096 context pairs a run has, each freed one's taken again, and no
 * message or collective of one communicator meeting another's.
 * - 5,000 duplicates of MPI_COMM_SELF and 200 of MPI_COMM_WORLD, each
 *   used and freed;
 * - a communicator freed on some ranks and still held on others while
 *   new ones are made: messages of the same source and tag on both go to
 *   their own;
 * - a split freed, then one of the same sizes and ranks but other
 *   members, which may take its context: its collectives have its own
 *   members;
 * - MPI_Comm_create_group, MPI_Intercomm_create and MPI_Intercomm_merge
 *   in a loop, each used and freed.
 * Rank 0 prints one line a check; tests/mpi/run.sh compares them with
 * Open MPI's. Needs 4 ranks or more, an even number. */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

/* A ring exchange on c: each rank's rank + base from its left; 1 if it
 * came. */
static int ring(MPI_Comm c, int base)
{
    int r, n, got = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int mine = r + base;
    MPI_Sendrecv(&mine, 1, MPI_INT, (r + 1) % n, 5, &got, 1, MPI_INT, (r + n - 1) % n, 5, c, MPI_STATUS_IGNORE);
    return got == (r + n - 1) % n + base;
}

static int dups_of_self(void)
{
    int ok = 1;
    for (int i = 0; i < 5000 && ok; i++) {
        MPI_Comm c;
        ok = MPI_Comm_dup(MPI_COMM_SELF, &c) == MPI_SUCCESS && ring(c, i);
        MPI_Comm_free(&c);
    }
    return ok;
}

static int dups_of_world(void)
{
    int ok = 1;
    for (int i = 0; i < 200; i++) {
        MPI_Comm c;
        int sum = 0, one = 1;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        ok &= ring(c, i);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
        ok &= sum == size;
        MPI_Comm_free(&c);
    }
    return ok;
}

/* The lower half frees old while the upper half still holds it; the
 * lower half makes a duplicate of MPI_COMM_SELF (which may take old's
 * context there), then every rank a duplicate of the world, fresh, which
 * must not. A message on old and one on fresh, of the same source and
 * tag, each reach their own receive. */
static int freed_on_some(void)
{
    MPI_Comm old, self, fresh;
    int lower = rank < size / 2, ok = 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &old);
    if (lower)
        MPI_Comm_free(&old);
    MPI_Comm_dup(MPI_COMM_SELF, &self);
    MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
    ok &= ring(self, 3);
    /* the upper half: rank r + size/2 sends to r + 1 (wrapping in the half) on old, then on fresh */
    int half = size / 2, a = 100 + rank, b = 200 + rank, got_old = -1, got_fresh = -1;
    if (!lower) {
        int to = half + (rank - half + 1) % half, from = half + (rank - half + half - 1) % half;
        MPI_Request q[2];
        MPI_Irecv(&got_fresh, 1, MPI_INT, from, 9, fresh, &q[0]);
        MPI_Irecv(&got_old, 1, MPI_INT, from, 9, old, &q[1]);
        MPI_Send(&b, 1, MPI_INT, to, 9, fresh);
        MPI_Send(&a, 1, MPI_INT, to, 9, old);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        ok &= got_old == 100 + from && got_fresh == 200 + from;
        MPI_Comm_free(&old);
    }
    ok &= ring(fresh, 7);
    MPI_Comm_free(&self);
    MPI_Comm_free(&fresh);
    return ok;
}

/* Pairs {0, 1}, {2, 3}, ... then pairs {0, 3}, {2, 1}, ... (the same
 * size and the same rank on every node): each sums the squares of its
 * members' world ranks, 20 times over. */
static int same_shape_other_members(void)
{
    int ok = 1;
    for (int i = 0; i < 20; i++) {
        MPI_Comm p, q;
        int sp = 0, sq = 0, quad = rank / 4 * 4, in_quad = rank % 4, sqr = rank * rank, lo = rank / 2 * 2;
        MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &p);
        MPI_Allreduce(&sqr, &sp, 1, MPI_INT, MPI_SUM, p);
        ok &= sp == lo * lo + (lo + 1) * (lo + 1);
        MPI_Comm_free(&p);
        if (quad + 4 > size) {       /* a last pair on its own: as before */
            MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &q);
            MPI_Allreduce(&sqr, &sq, 1, MPI_INT, MPI_SUM, q);
            ok &= sq == sp;
        } else {                     /* {q, q+3} and {q+2, q+1}: ranks 0 1 and 0 1 as in p */
            int color = quad + (in_quad == 0 || in_quad == 3 ? 0 : 1), key = in_quad == 0 || in_quad == 2 ? 0 : 1;
            MPI_Comm_split(MPI_COMM_WORLD, color, key, &q);
            MPI_Allreduce(&sqr, &sq, 1, MPI_INT, MPI_SUM, q);
            int a = color == quad ? quad : quad + 1, b = color == quad ? quad + 3 : quad + 2;
            ok &= sq == a * a + b * b;
            int qr;
            MPI_Comm_rank(q, &qr);
            ok &= qr == rank % 2;
        }
        MPI_Comm_free(&q);
    }
    return ok;
}

static int groups_and_intercomms(void)
{
    MPI_Group world, evens;
    int ok = 1, n = (size + 1) / 2, list[64];
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < n; i++)
        list[i] = 2 * i;
    MPI_Group_incl(world, n, list, &evens);
    for (int i = 0; i < 30; i++) {
        MPI_Comm g = MPI_COMM_NULL, local, ic, merged;
        MPI_Comm_create_group(MPI_COMM_WORLD, rank % 2 ? MPI_GROUP_EMPTY : evens, i, &g);
        if (rank % 2 == 0) {
            ok &= ring(g, i);
            MPI_Comm_free(&g);
        }
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, i, &ic);
        MPI_Intercomm_merge(ic, rank % 2, &merged);
        ok &= ring(merged, i);
        int mr;
        MPI_Comm_rank(merged, &mr);
        ok &= mr == (rank % 2 ? size / 2 + rank / 2 : rank / 2);
        MPI_Comm_free(&merged);
        MPI_Comm_free(&ic);
        MPI_Comm_free(&local);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check("5000 duplicates of self", dups_of_self());
    check("200 duplicates of the world", dups_of_world());
    check("freed on some ranks", freed_on_some());
    check("same shape, other members", same_shape_other_members());
    check("groups and intercommunicators", groups_and_intercomms());
    if (rank == 0 && !fails)
        printf("contexts: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
