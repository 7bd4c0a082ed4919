/* One-sided communication with fences (MPI-3.1 11): windows made by
 * MPI_Win_create and MPI_Win_allocate; MPI_Put, MPI_Get, MPI_Accumulate,
 * MPI_Get_accumulate, MPI_Fetch_and_op and MPI_Compare_and_swap, with
 * contiguous and strided origin types, over several epochs; the window's
 * attributes, group and name; the errors of an operation outside an epoch and out of a
 * window's range under MPI_ERRORS_RETURN. Rank 0 prints what the standard
 * fixes; tests/mpi/run.sh compares it with Open MPI's. Needs 2 ranks or
 * more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

#define N 8

static void ring_and_sum(void)
{
    int buf[N] = { 0 }, got = -1, one = rank + 1, left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Win w;
    buf[1] = 100 + rank;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w);
    int v = rank * 10 + 1;
    MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, w);
    MPI_Get(&got, 1, MPI_INT, left, 1, 1, MPI_INT, w);
    MPI_Accumulate(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, w);
    MPI_Accumulate(&v, 1, MPI_INT, 0, 3, 1, MPI_INT, MPI_MAX, w);
    MPI_Put(&v, 0, MPI_INT, right, 4, 0, MPI_INT, w);              /* empty operations */
    MPI_Accumulate(&v, 0, MPI_INT, right, 4, 0, MPI_INT, MPI_SUM, w);
    MPI_Get(&v, 0, MPI_INT, left, 4, 0, MPI_INT, w);
    MPI_Win_fence(0, w);
    show_ranks("put from the left", buf[0]);
    show_ranks("got from the left", got);
    show_ranks("sum of rank + 1 at rank 0", buf[2]);
    show_ranks("max at rank 0", buf[3]);
    for (int epoch = 0; epoch < 5; epoch++) {   /* each epoch passes the values one rank on */
        int mine = buf[0];
        MPI_Win_fence(0, w);
        MPI_Put(&mine, 1, MPI_INT, right, 0, 1, MPI_INT, w);
        MPI_Win_fence(0, w);
    }
    show_ranks("five epochs on", buf[0]);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
    MPI_Win_free(&w);
    check("window freed", w == MPI_WIN_NULL);
}

/* A vector of every second int at the origin into 4 ints at the target,
 * and back into every third; replace, get-accumulate and fetch-and-op. */
static void types_and_atomics(void)
{
    int *base, src[2 * 4], back[3 * 4] = { 0 }, old[4] = { 0 }, add[4], ticket = -1, one = 1;
    MPI_Win w;
    MPI_Datatype every2, every3;
    MPI_Type_vector(4, 1, 2, MPI_INT, &every2);
    MPI_Type_vector(4, 1, 3, MPI_INT, &every3);
    MPI_Type_commit(&every2);
    MPI_Type_commit(&every3);
    MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
    for (int i = 0; i < 16; i++)
        base[i] = 0;
    for (int i = 0; i < 8; i++)
        src[i] = rank * 100 + i;
    for (int i = 0; i < 4; i++)
        add[i] = rank + i;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Win_fence(0, w);
    MPI_Put(src, 1, every2, right, 4, 4, MPI_INT, w);
    MPI_Win_fence(0, w);
    show_ranks("strided put, first", base[4]);
    show_ranks("strided put, last", base[7]);
    MPI_Get(back, 1, every3, left, 4, 4, MPI_INT, w);
    MPI_Accumulate(add, 4, MPI_INT, rank, 8, 4, MPI_INT, MPI_REPLACE, w);
    MPI_Fetch_and_op(&one, &ticket, MPI_INT, 0, 15, MPI_SUM, w);
    MPI_Win_fence(0, w);
    show_ranks("strided get, third", back[6]);
    show_ranks("replaced", base[8] + base[11]);
    int tickets = 0, *all = malloc((size_t)size * sizeof *all), seen_all = 1;
    MPI_Allgather(&ticket, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int t = 0; t < size; t++) {          /* each ticket 0..size-1 once, in whatever order */
        int seen = 0;
        for (int r = 0; r < size; r++)
            seen += all[r] == t;
        seen_all &= seen == 1;
    }
    free(all);
    check("fetch_and_op tickets distinct", seen_all);
    if (rank == 0)
        tickets = base[15];
    show_ranks("fetch_and_op counter", tickets);
    MPI_Get_accumulate(add, 4, MPI_INT, old, 4, MPI_INT, rank, 8, 4, MPI_INT, MPI_SUM, w);
    MPI_Win_fence(0, w);
    show_ranks("get_accumulate old", old[3]);
    show_ranks("get_accumulate new", base[11]);
    int unset = -1, old_owner = -2, winners, owner = -3;   /* one compare-and-swap of the many wins */
    if (rank == 0)
        base[14] = -1;
    MPI_Win_fence(0, w);
    MPI_Compare_and_swap(&rank, &unset, &old_owner, MPI_INT, 0, 14, w);
    MPI_Win_fence(0, w);
    int won = old_owner == -1;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        owner = base[14];
    MPI_Bcast(&owner, 1, MPI_INT, 0, MPI_COMM_WORLD);
    check("compare_and_swap: one winner", winners == 1 && (!won || owner == rank) && (won || old_owner == owner));
    int peek = -1;
    MPI_Get_accumulate(NULL, 0, MPI_INT, &peek, 1, MPI_INT, left, 8, 1, MPI_INT, MPI_NO_OP, w);
    MPI_Win_fence(0, w);
    show_ranks("no_op read of the left", peek);

    int flag, *unit, *flavor;
    MPI_Aint *sz;
    void *b;
    MPI_Win_get_attr(w, MPI_WIN_BASE, &b, &flag);
    check("MPI_WIN_BASE", flag && b == base);
    MPI_Win_get_attr(w, MPI_WIN_SIZE, &sz, &flag);
    check("MPI_WIN_SIZE", flag && *sz == 16 * (MPI_Aint)sizeof(int));
    MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &unit, &flag);
    check("MPI_WIN_DISP_UNIT", flag && *unit == (int)sizeof(int));
    MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    check("MPI_WIN_CREATE_FLAVOR", flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE);
    MPI_Group g;
    int gs;
    MPI_Win_get_group(w, &g);
    MPI_Group_size(g, &gs);
    MPI_Group_free(&g);
    check("window group", gs == size);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Win_set_name(w, "halo");
    MPI_Win_get_name(w, name, &len);
    check("window name", len == 4 && name[0] == 'h');
    MPI_Win_free(&w);
    MPI_Type_free(&every2);
    MPI_Type_free(&every3);
}

/* A line of ranks, not a ring: each puts its value into its neighbours'
 * halo cells, the ends' outer neighbours being MPI_PROC_NULL (nothing
 * happens there), three steps over. */
static void halo_with_proc_null(void)
{
    int cells[3] = { -1, rank, -1 };
    int lo = rank ? rank - 1 : MPI_PROC_NULL, hi = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    MPI_Win w;
    MPI_Win_create(cells, sizeof cells, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    for (int step = 0; step < 3; step++) {
        MPI_Win_fence(0, w);
        MPI_Put(&cells[1], 1, MPI_INT, lo, 2, 1, MPI_INT, w);   /* into the left one's right halo */
        MPI_Put(&cells[1], 1, MPI_INT, hi, 0, 1, MPI_INT, w);
        MPI_Get(&cells[1], 0, MPI_INT, hi, 0, 0, MPI_INT, w);
        MPI_Win_fence(0, w);
        cells[1] += cells[0] + cells[2] + 2;   /* an end's outer halo stays -1 */
    }
    MPI_Win_free(&w);
    show_ranks("halo with MPI_PROC_NULL ends", cells[1]);
}

static void errors_returned(void)
{
    int buf[4] = { 0 }, v = 1;
    MPI_Win w;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    int e = MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, w);    /* no fence yet */
    if (rank == 0)
        printf("put before the first fence: %s\n", class_name(e));
    MPI_Win_fence(0, w);
    e = MPI_Put(&v, 1, MPI_INT, 0, 4, 1, MPI_INT, w);         /* past the 4 ints */
    if (rank == 0)
        printf("put past the window: %s\n", class_name(e));
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
    e = MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, w);         /* after the last */
    if (rank == 0)
        printf("get after a closing fence: %s\n", class_name(e));
    MPI_Win_free(&w);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ring_and_sum();
    types_and_atomics();
    halo_with_proc_null();
    errors_returned();
    if (rank == 0 && !fails)
        printf("rma: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
