/* Intercommunicators (MPI-3.1 6.6): the even and the odd world ranks, two
 * groups of different sizes with 3 ranks or more, joined by
 * MPI_Intercomm_create over MPI_COMM_WORLD. Rank 0 prints what the
 * standard fixes: each world rank's local and remote sizes and groups,
 * the blocks of the intercommunicator collectives (5.2.2) and the order of
 * MPI_Intercomm_merge; tests/mpi/run.sh compares them with Open MPI's.
 * Point to point names a remote rank, and a status's MPI_SOURCE is one;
 * MPI_ANY_SOURCE, MPI_PROC_NULL, Probe, Iprobe and the nonblocking forms;
 * a duplicate's messages never meet the original's. Needs 2 ranks or
 * more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

#define MAXN 64

/* Rank 0 prints, for each world rank, "WHAT: world rank R: v0 v1 ..." of
 * the n ints each rank gives (n <= MAXN). */
static void show(const char *what, const int *mine, int n)
{
    int *all = malloc((size_t)size * MAXN * sizeof *all), pad[MAXN] = { 0 };
    for (int i = 0; i < n; i++)
        pad[i] = mine[i];
    MPI_Gather(pad, MAXN, MPI_INT, all, MAXN, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size; r++) {
        printf("%s: world rank %d:", what, r);
        for (int i = 0; i < all[r * MAXN]; i++)   /* all[r][0]: how many follow */
            printf(" %d", all[r * MAXN + 1 + i]);
        printf("\n");
    }
    free(all);
}

/* The world ranks of g's members, after their count, in list. */
static void members(MPI_Group g, int *list)
{
    MPI_Group world;
    int n, in[MAXN];
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(g, &n);
    for (int i = 0; i < n; i++)
        in[i] = i;
    list[0] = n;
    MPI_Group_translate_ranks(g, n, in, world, list + 1);
    MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int color = rank % 2, out[MAXN];
    MPI_Comm local, ic, dup, merged, merged2;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local);
    /* the leaders: world ranks 0 and 1 */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? 0 : 1, 7, &ic);

    int flag, flag_local, lsize, rsize, lrank;
    MPI_Comm_test_inter(ic, &flag);
    MPI_Comm_test_inter(local, &flag_local);
    check("test_inter", flag == 1 && flag_local == 0);
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_rank(ic, &lrank);
    out[0] = 3, out[1] = lsize, out[2] = rsize, out[3] = lrank;
    show("local size, remote size, rank", out, 4);
    MPI_Group lg, rg;
    MPI_Comm_group(ic, &lg);
    MPI_Comm_remote_group(ic, &rg);
    members(lg, out);
    show("local group", out, out[0] + 1);
    members(rg, out);
    show("remote group", out, out[0] + 1);
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);

    /* point to point: every rank sends its world rank to every remote rank,
     * tag its local rank; each receives from MPI_ANY_SOURCE */
    MPI_Request *reqs = malloc((size_t)rsize * sizeof *reqs);
    int *vals = malloc((size_t)rsize * sizeof *vals), p2p_ok = 1, seen[MAXN] = { 0 };
    for (int r = 0; r < rsize; r++)
        MPI_Isend(&rank, 1, MPI_INT, r, lrank, ic, &reqs[r]);
    for (int i = 0; i < rsize; i++) {
        MPI_Status st;
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, ic, &st);
        /* the remote group is the other parity's world ranks in order */
        p2p_ok &= st.MPI_SOURCE == st.MPI_TAG && v == 2 * st.MPI_SOURCE + !color && !seen[st.MPI_SOURCE]++;
    }
    MPI_Waitall(rsize, reqs, MPI_STATUSES_IGNORE);
    check("send, any source", p2p_ok);

    /* Irecv from each remote rank by its rank, Ssend back */
    for (int r = 0; r < rsize; r++)
        MPI_Irecv(&vals[r], 1, MPI_INT, r, 3, ic, &reqs[r]);
    for (int r = 0; r < rsize; r++)
        MPI_Ssend(&rank, 1, MPI_INT, r, 3, ic);
    MPI_Waitall(rsize, reqs, MPI_STATUSES_IGNORE);
    for (int r = 0; r < rsize; r++)
        p2p_ok &= vals[r] == 2 * r + !color;
    check("irecv by rank, ssend", p2p_ok);

    /* MPI_PROC_NULL */
    MPI_Status st;
    int pn = 5, pn_ok = MPI_Send(&pn, 1, MPI_INT, MPI_PROC_NULL, 0, ic) == MPI_SUCCESS;
    pn_ok &= MPI_Recv(&pn, 1, MPI_INT, MPI_PROC_NULL, 0, ic, &st) == MPI_SUCCESS;
    pn_ok &= st.MPI_SOURCE == MPI_PROC_NULL && pn == 5;
    check("proc null", pn_ok);

    /* Probe and Iprobe: remote rank 0 gets lrank + 1 ints from each */
    int buf[MAXN] = { 0 }, probe_ok = 1;
    MPI_Send(buf, lrank + 1, MPI_INT, 0, 11, ic);
    if (lrank == 0)
        for (int i = 0; i < rsize; i++) {
            int n, got = 0;
            do
                MPI_Iprobe(MPI_ANY_SOURCE, 11, ic, &got, &st);
            while (!got);
            MPI_Get_count(&st, MPI_INT, &n);
            probe_ok &= n == st.MPI_SOURCE + 1;
            MPI_Probe(st.MPI_SOURCE, 11, ic, &st);
            MPI_Get_count(&st, MPI_INT, &n);
            probe_ok &= n == st.MPI_SOURCE + 1;
            MPI_Recv(buf, n, MPI_INT, st.MPI_SOURCE, 11, ic, &st);
        }
    check("probe, iprobe", probe_ok);

    /* a duplicate: its own context */
    MPI_Comm_dup(ic, &dup);
    int cmp, cmp_world, dup_inter, a = 1, b = 2, ra = 0, rb = 0;
    MPI_Comm_compare(ic, dup, &cmp);
    MPI_Comm_compare(ic, MPI_COMM_WORLD, &cmp_world);
    MPI_Comm_test_inter(dup, &dup_inter);
    if (lrank == 0) {
        MPI_Send(&b, 1, MPI_INT, 0, 5, dup);
        MPI_Send(&a, 1, MPI_INT, 0, 5, ic);
        MPI_Recv(&ra, 1, MPI_INT, 0, 5, ic, MPI_STATUS_IGNORE);
        MPI_Recv(&rb, 1, MPI_INT, 0, 5, dup, MPI_STATUS_IGNORE);
    } else
        ra = 1, rb = 2;
    check("dup: congruent, own context", cmp == MPI_CONGRUENT && cmp_world == MPI_UNEQUAL && dup_inter && ra == 1 &&
                                              rb == 2);

    /* collectives */
    MPI_Barrier(ic);
    int bc[3] = { -1, -1, -1 };
    if (color == 0 && lrank == 0)
        bc[0] = 40, bc[1] = 41, bc[2] = 42;
    MPI_Bcast(bc, 3, MPI_INT, color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic);
    out[0] = 3, out[1] = bc[0], out[2] = bc[1], out[3] = bc[2];
    show("bcast from even rank 0", out, 4);
    /* from the odd group's last rank, a vector type (every other int) */
    MPI_Datatype every_other;
    MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int vb[6] = { -1, -1, -1, -1, -1, -1 }, odd_root = size / 2 - 1;
    if (color == 1 && lrank == odd_root)
        for (int i = 0; i < 6; i++)
            vb[i] = 100 + i;
    MPI_Bcast(vb, 1, every_other, color == 1 ? (lrank == odd_root ? MPI_ROOT : MPI_PROC_NULL) : odd_root, dup);
    out[0] = 6;
    for (int i = 0; i < 6; i++)
        out[1 + i] = vb[i];
    show("bcast of a vector from the last odd rank", out, 7);

    int mine[2] = { rank, rank * rank }, sum[2];
    MPI_Allreduce(mine, sum, 2, MPI_INT, MPI_SUM, ic);
    out[0] = 2, out[1] = sum[0], out[2] = sum[1];
    show("allreduce sum", out, 3);
    MPI_Allreduce(mine, sum, 2, MPI_INT, MPI_MAX, dup);
    out[0] = 2, out[1] = sum[0], out[2] = sum[1];
    show("allreduce max", out, 3);

    int two[2] = { rank * 10, rank * 10 + 1 }, *gathered = malloc((size_t)rsize * 2 * sizeof *gathered);
    MPI_Allgather(two, 2, MPI_INT, gathered, 2, MPI_INT, ic);
    out[0] = 2 * rsize;
    for (int i = 0; i < 2 * rsize; i++)
        out[1 + i] = gathered[i];
    show("allgather", out, 2 * rsize + 1);
    /* received as a vector type: the remote blocks every other int */
    int *spread = malloc((size_t)rsize * 6 * sizeof *spread);
    for (int i = 0; i < rsize * 6; i++)
        spread[i] = -1;
    int three[3] = { rank, rank + 100, rank + 200 };
    MPI_Allgather(three, 3, MPI_INT, spread, 1, every_other, ic);
    out[0] = 3 * rsize;
    for (int r = 0; r < rsize; r++)   /* a block's extent is 5 ints */
        for (int i = 0; i < 3; i++)
            out[1 + 3 * r + i] = spread[5 * r + 2 * i];
    show("allgather into a vector", out, 3 * rsize + 1);

    /* merge: the even group low, then high; then the other way */
    int mrank, msize;
    MPI_Intercomm_merge(ic, color, &merged);
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    MPI_Comm_test_inter(merged, &flag);
    out[0] = 3, out[1] = mrank, out[2] = msize, out[3] = flag;
    show("merge, evens low: rank, size, inter", out, 4);
    MPI_Intercomm_merge(dup, !color, &merged2);
    MPI_Comm_rank(merged2, &mrank);
    out[0] = 1, out[1] = mrank;
    show("merge, odds low: rank", out, 2);
    int msum;   /* the merged communicator works as any other */
    MPI_Allreduce(&mrank, &msum, 1, MPI_INT, MPI_SUM, merged2);
    check("merged communicator's allreduce", msum == size * (size - 1) / 2);

    MPI_Type_free(&every_other);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&merged2);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&ic);
    check("freed", ic == MPI_COMM_NULL && dup == MPI_COMM_NULL);
    MPI_Comm_free(&local);
    free(reqs);
    free(vals);
    free(gathered);
    free(spread);
    if (rank == 0 && !fails)
        printf("intercomm: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
