/* One-sided communication with locks and with post-start-complete-wait
 * (MPI-3.1 11.5.2, 11.5.3), and dynamic windows (11.2.4): a counter
 * every rank increments under an exclusive lock by a get, a flush and a
 * put (the lock is all that keeps the increments whole); accumulates and
 * fetch-and-ops in a lock_all epoch, flushed; a get under a shared lock
 * and one completed by flush_local; a ring of puts and gets in PSCW
 * epochs, waited for by MPI_Win_wait and by MPI_Win_test; locks on the
 * rank's own window; memory attached to a dynamic window at an address
 * another rank was told. Rank 0 prints what the standard fixes;
 * tests/mpi/run.sh compares it with Open MPI's. With -x, the errors of
 * wrong synchronization under MPI_ERRORS_RETURN (the library's own
 * answers: the classes MPI-3.1 names for them). Needs 2 ranks or more
 * (-x: 3 or more, so that rank 0 flushes a target it has not locked).
 * With -f, only the flood below. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define ROUNDS 5

static void exclusive_counter(void)
{
    int *mem, got = 0, mine;
    MPI_Win w;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    memset(mem, 0, 4 * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w);
        MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, w);
        MPI_Win_flush(0, w);
        got += rank + 1;
        MPI_Put(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, w);
        MPI_Win_unlock(0, w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);     /* every rank reads rank 0's, its own included */
    MPI_Get(&mine, 1, MPI_INT, 0, 0, 1, MPI_INT, w);
    MPI_Win_unlock(0, w);
    show_ranks("counter at rank 0", mine);
    check("counter is the sum", mine == ROUNDS * size * (size + 1) / 2);
    MPI_Win_free(&w);
}

static void all_and_flush(void)
{
    int *mem, one = 1, old = -1, left = (rank + size - 1) % size, right = (rank + 1) % size, seen = -1;
    MPI_Win w;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    mem[0] = 100 * rank;
    mem[1] = mem[2] = mem[3] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, w);
    for (int r = 0; r < size; r++) {
        int v = rank + 1;
        MPI_Accumulate(&v, 1, MPI_INT, r, 1, 1, MPI_INT, MPI_SUM, w);
    }
    MPI_Fetch_and_op(&one, &old, MPI_INT, right, 2, MPI_SUM, w);
    MPI_Win_flush_all(w);
    MPI_Get(&seen, 1, MPI_INT, left, 0, 1, MPI_INT, w);
    MPI_Win_flush_local(left, w);
    int first = seen;                /* complete at the origin: the value may be used */
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    show_ranks("sum of rank + 1 at each", mem[1]);
    show_ranks("fetch-and-add from the left", mem[2]);
    show_ranks("old value fetched", old);
    show_ranks("got from the left", first);
    MPI_Win_free(&w);
}

static void shared_and_own(void)
{
    int buf[2] = { rank * 7, -1 }, got = -1, self = -1, left = (rank + size - 1) % size;
    MPI_Win w;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_lock(MPI_LOCK_SHARED, left, 0, w);
    MPI_Get(&got, 1, MPI_INT, left, 0, 1, MPI_INT, w);
    MPI_Win_unlock(left, w);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w);
    int v = rank + 1000;
    MPI_Put(&v, 1, MPI_INT, rank, 1, 1, MPI_INT, w);
    MPI_Get(&self, 1, MPI_INT, rank, 0, 1, MPI_INT, w);
    MPI_Win_unlock(rank, w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, left, MPI_MODE_NOCHECK, w);   /* each window locked by one rank only */
    MPI_Win_unlock(left, w);
    MPI_Barrier(MPI_COMM_WORLD);
    show_ranks("shared get from the left", got);
    show_ranks("own window, put", buf[1]);
    show_ranks("own window, got", self);
    MPI_Win_free(&w);
}

/* Each round: rank r exposes its window to its left neighbour, which
 * puts into it and gets from it; waited for by wait, or by test. */
static void pscw_ring(int by_test)
{
    int buf[2] = { rank, -1 }, got = -1, left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Group world, from, to;
    MPI_Win w;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &from);
    MPI_Group_incl(world, 1, &right, &to);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    for (int i = 0; i < ROUNDS; i++) {
        int v = 10 * rank + i;
        MPI_Win_post(from, 0, w);
        MPI_Win_start(to, 0, w);
        MPI_Put(&v, 1, MPI_INT, right, 1, 1, MPI_INT, w);
        MPI_Get(&got, 1, MPI_INT, right, 0, 1, MPI_INT, w);
        MPI_Win_complete(w);
        if (by_test) {
            int flag = 0;
            while (!flag)
                MPI_Win_test(w, &flag);
        } else
            MPI_Win_wait(w);
    }
    show_ranks(by_test ? "PSCW put from the left, tested" : "PSCW put from the left", buf[1]);
    show_ranks(by_test ? "PSCW got from the right, tested" : "PSCW got from the right", got);
    MPI_Win_free(&w);
    MPI_Group_free(&from);
    MPI_Group_free(&to);
    MPI_Group_free(&world);
}

static void dynamic(void)
{
    int *mem = malloc(4 * sizeof *mem), right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    MPI_Aint a;
    int64_t mine, *addr = malloc((size_t)size * sizeof *addr);
    MPI_Win w;
    int flag, *flavor;
    mem[0] = rank * 3;
    mem[1] = -1;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    check("dynamic window's flavor", flag && *flavor == MPI_WIN_FLAVOR_DYNAMIC);
    MPI_Win_attach(w, mem, 4 * sizeof *mem);
    MPI_Get_address(mem, &a);
    mine = (int64_t)(unsigned long)a;        /* an address of either ISA's nodes */
    MPI_Allgather(&mine, 1, MPI_INT64_T, addr, 1, MPI_INT64_T, MPI_COMM_WORLD);
    int v = 500 + rank;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w);
    MPI_Put(&v, 1, MPI_INT, right, (MPI_Aint)(addr[right] + (int64_t)sizeof(int)), 1, MPI_INT, w);
    MPI_Get(&got, 1, MPI_INT, right, (MPI_Aint)addr[right], 1, MPI_INT, w);
    MPI_Win_unlock(right, w);
    MPI_Barrier(MPI_COMM_WORLD);
    show_ranks("dynamic put from the left", mem[1]);
    show_ranks("dynamic got from the right", got);
    (void)left;
    MPI_Win_detach(w, mem);
    MPI_Win_free(&w);
    free(mem);
    free(addr);
}

/* Rank 0 accumulates FLOOD blocks into rank 1's window in a lock_all
 * epoch, completing each only at the origin (flush_local), while rank 1
 * waits in a barrier: faster than rank 1 can add them up, so the origin
 * must hold back until the target has served enough (a run with a small
 * held_max stops if it does not). */
#define FLOOD 64
#define BLOCK 16384
static void flood(void)
{
    int *mem, *v = malloc(BLOCK * sizeof *v);
    MPI_Win w;
    MPI_Win_allocate(BLOCK * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    for (int i = 0; i < BLOCK; i++)
        mem[i] = 0, v[i] = i % 7;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock_all(0, w);
        for (int k = 0; k < FLOOD; k++) {
            MPI_Accumulate(v, BLOCK, MPI_INT, 1, 0, BLOCK, MPI_INT, MPI_SUM, w);
            MPI_Win_flush_local(1, w);
        }
        MPI_Win_unlock_all(w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int ok = 1;
    for (int i = 0; rank == 1 && i < BLOCK; i++)
        ok &= mem[i] == FLOOD * (i % 7);
    check("every block added up", ok);
    show_ranks("the last element at each", mem[BLOCK - 1]);
    MPI_Win_free(&w);
    free(v);
}

/* The library's own answers: wrong synchronization is refused where it
 * is made, with the class MPI-3.1 11 names for it; rank 0 prints
 * "bad WHAT: CLASS" of each. */
static void bad(const char *what, int e)
{
    if (rank == 0)
        printf("bad %s: %s\n", what, class_name(e));
}

static void errors(void)
{
    int buf[2] = { 0 }, v = 1, flag, right = (rank + 1) % size;
    MPI_Win w;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    bad("unlock of no lock", MPI_Win_unlock(right, w));
    bad("lock of no type", MPI_Win_lock(99, right, 0, w));
    bad("lock of no rank", MPI_Win_lock(MPI_LOCK_SHARED, size, 0, w));
    bad("put outside any epoch", MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, w));
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
    bad("second lock of one target", MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w));
    bad("lock_all while locked", MPI_Win_lock_all(0, w));
    bad("put past the window", MPI_Put(&v, 1, MPI_INT, right, 2, 1, MPI_INT, w));
    bad("flush of a target not locked", MPI_Win_flush(rank, w));
    bad("free while locked", MPI_Win_free(&w));
    MPI_Win_unlock(right, w);
    bad("unlock_all of no lock_all", MPI_Win_unlock_all(w));
    bad("wait with no post", MPI_Win_wait(w));
    bad("test with no post", MPI_Win_test(w, &flag));
    bad("complete with no start", MPI_Win_complete(w));
    bad("post of no group", MPI_Win_post(MPI_GROUP_NULL, 0, w));
    bad("attach to a created window", MPI_Win_attach(w, buf, sizeof buf));
    bad("done", MPI_Win_free(&w));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int own = argc > 1 && !strcmp(argv[1], "-x");
    if (own)
        errors();
    else if (argc > 1 && !strcmp(argv[1], "-f"))
        flood();
    else {
        exclusive_counter();
        all_and_flush();
        shared_and_own();
        pscw_ring(0);
        pscw_ring(1);
        dynamic();
    }
    if (rank == 0)
        printf("%s\n", fails ? "some FAILED" : "all ok");
    MPI_Finalize();
    return 0;
}
