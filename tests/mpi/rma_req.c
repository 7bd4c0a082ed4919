/* Request-based one-sided operations (MPI-3.1 11.3.5: MPI_Rput, MPI_Rget,
 * MPI_Raccumulate, MPI_Rget_accumulate) in passive target epochs, and
 * shared memory windows (11.2.3: MPI_Win_allocate_shared,
 * MPI_Win_shared_query) on the communicators of
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED).
 *
 * Every rank puts to its right neighbour, accumulates into every rank and
 * gets from its left one under MPI_Win_lock_all, completing each request
 * by MPI_Wait, by MPI_Test until it says so, or by MPI_Waitall, and uses
 * a get's value before the epoch ends; a get from MPI_PROC_NULL is
 * complete at once; a get into MPI_BOTTOM (a type of absolute addresses)
 * and one whose request was freed at once. The shared window: each rank of a shared communicator
 * writes its world rank + 1 in its part, and the communicator's first
 * rank adds up every part through MPI_Win_shared_query, so the sum over
 * the shared communicators is the same however the ranks share memory
 * (each alone on this machine, all together under mpirun on one host).
 * Rank 0 prints what the standard fixes; tests/mpi/run.sh compares it
 * with Open MPI's. With -x, the errors (the library's own answers: the
 * classes MPI-3.1 names for them), a window's error handler set on a
 * communicator and the converse among them. Needs 2 ranks or more. */
#include <mpi.h>
#include <string.h>
#include "check.h"

static void requests(void)
{
    int *mem, left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Win w;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    mem[0] = -1;
    mem[1] = 0;
    mem[2] = 100 * rank + 5;
    mem[3] = 1000 * rank;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, w);
    int v = 10 * rank + 1, seen = -1, old = -1, one = 1, flag = 0, none = 7, tests = 0;
    MPI_Request put, acc[64], get, fetch, null;
    MPI_Rput(&v, 1, MPI_INT, right, 0, 1, MPI_INT, w, &put);
    MPI_Wait(&put, MPI_STATUS_IGNORE);             /* complete at the origin: v may change */
    v = -99;
    int n = size < 64 ? size : 64;
    for (int r = 0; r < n; r++) {
        int add = rank + 1;
        MPI_Raccumulate(&add, 1, MPI_INT, r, 1, 1, MPI_INT, MPI_SUM, w, &acc[r]);
    }
    MPI_Rget(&seen, 1, MPI_INT, left, 2, 1, MPI_INT, w, &get);
    MPI_Rget_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, right, 3, 1, MPI_INT, MPI_SUM, w, &fetch);
    MPI_Rget(&none, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w, &null);
    MPI_Test(&null, &flag, MPI_STATUS_IGNORE);
    int null_done = flag && null == MPI_REQUEST_NULL && none == 7;
    for (flag = 0; !flag; tests++)
        MPI_Test(&get, &flag, MPI_STATUS_IGNORE);
    int got = seen;                  /* complete: the value may be used in the epoch */
    MPI_Waitall(n, acc, MPI_STATUSES_IGNORE);
    MPI_Wait(&fetch, MPI_STATUS_IGNORE);
    int fetched = old;
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    show_ranks("put from the left", mem[0]);
    show_ranks("sum of rank + 1 at each", mem[1]);
    show_ranks("got from the left", got);
    show_ranks("fetched from the right", fetched);
    show_ranks("added by the left", mem[3]);
    check("rget of MPI_PROC_NULL done", null_done);
    check("rget tested until done", tests >= 1 && get == MPI_REQUEST_NULL);

    /* A get into MPI_BOTTOM through a type of absolute addresses, then a
     * plain one: each answer lands where its own get said; a request freed
     * before its get completed leaves the get to the unlock. */
    MPI_Barrier(MPI_COMM_WORLD);
    int into = -1, next = -1, freed = -1, one_len = 1;
    MPI_Aint addr;
    MPI_Datatype abs_t;
    MPI_Get_address(&into, &addr);
    MPI_Type_create_hindexed(1, &one_len, &addr, MPI_INT, &abs_t);
    MPI_Type_commit(&abs_t);
    MPI_Request rb, rn, rf;
    MPI_Win_lock(MPI_LOCK_SHARED, left, 0, w);
    MPI_Rget(MPI_BOTTOM, 1, abs_t, left, 2, 1, MPI_INT, w, &rb);
    MPI_Rget(&next, 1, MPI_INT, left, 3, 1, MPI_INT, w, &rn);
    MPI_Rget(&freed, 1, MPI_INT, left, 1, 1, MPI_INT, w, &rf);
    MPI_Request_free(&rf);
    MPI_Wait(&rn, MPI_STATUS_IGNORE);
    MPI_Wait(&rb, MPI_STATUS_IGNORE);
    MPI_Win_unlock(left, w);
    MPI_Type_free(&abs_t);
    show_ranks("got into MPI_BOTTOM", into);
    show_ranks("got after it", next);
    show_ranks("got by a freed request", freed);
    check("freed request is null", rf == MPI_REQUEST_NULL);

    /* Under an exclusive lock: a get's request waited for, then a put of
     * what it read plus one; the lock keeps each increment whole. */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 3; i++) {
        int c = -1;
        MPI_Request r;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w);
        MPI_Rget(&c, 1, MPI_INT, 0, 0, 1, MPI_INT, w, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        c++;
        MPI_Rput(&c, 1, MPI_INT, 0, 0, 1, MPI_INT, w, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Win_unlock(0, w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int counter = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
    MPI_Get(&counter, 1, MPI_INT, 0, 0, 1, MPI_INT, w);
    MPI_Win_unlock(0, w);
    show_ranks("counter at rank 0", counter);   /* rank 0's left neighbour's put, then 3 a rank */
    MPI_Win_free(&w);
}

static void shared(void)
{
    MPI_Comm node, leaders;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    int *mine;
    MPI_Win w;
    MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &w);
    MPI_Win_lock_all(0, w);
    mine[0] = rank + 1;
    mine[1] = 0;
    MPI_Win_sync(w);
    MPI_Barrier(node);
    MPI_Win_sync(w);
    int sum = 0, units_ok = 1, flavor_ok = 0, *fl, flag;
    if (nrank == 0)
        for (int r = 0; r < nsize; r++) {
            MPI_Aint sz;
            int unit, *part;
            MPI_Win_shared_query(w, r, &sz, &unit, &part);
            units_ok &= sz == 2 * (MPI_Aint)sizeof(int) && unit == (int)sizeof(int);
            sum += part[0];
        }
    MPI_Aint sz;
    int unit, *first;
    MPI_Win_shared_query(w, MPI_PROC_NULL, &sz, &unit, &first);
    int first_ok = sz == 2 * (MPI_Aint)sizeof(int) && first[0] >= 1;
    MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &fl, &flag);
    flavor_ok = flag && *fl == MPI_WIN_FLAVOR_SHARED;
    MPI_Win_unlock_all(w);
    MPI_Comm_split(MPI_COMM_WORLD, nrank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
    int total = 0;
    if (leaders != MPI_COMM_NULL) {
        MPI_Allreduce(&sum, &total, 1, MPI_INT, MPI_SUM, leaders);
        MPI_Comm_free(&leaders);
    }
    MPI_Bcast(&total, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("shared parts add up to %d\n", total);
    check("shared sum is every rank's", total == size * (size + 1) / 2);
    check("shared parts' sizes and units", units_ok && first_ok);
    check("shared window's flavor", flavor_ok);
    MPI_Win_free(&w);
    MPI_Comm_free(&node);
}

static void expect(const char *what, int e)
{
    if (rank == 0)
        printf("bad %s: %s\n", what, class_name(e));
}

static void on_win(MPI_Win *w, int *code, ...) { (void)w; (void)code; }
static void on_comm(MPI_Comm *c, int *code, ...) { (void)c; (void)code; }

static void errors(void)
{
    int *mem, v = 1;
    MPI_Win w;
    MPI_Request r;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, w);
    expect("rput in a fence epoch", MPI_Rput(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, w, &r));
    MPI_Win_fence(0, w);
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
    expect("rget of a target not locked", MPI_Rget(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, w, &r));
    expect("rput past the window", MPI_Rput(&v, 2, MPI_INT, 1, 0, 2, MPI_INT, w, &r));
    MPI_Win_unlock(1, w);
    MPI_Aint sz;
    int unit, *base;
    expect("shared query of an allocated window", MPI_Win_shared_query(w, 0, &sz, &unit, &base));
    MPI_Errhandler hw, hc;
    MPI_Win_create_errhandler(on_win, &hw);
    MPI_Comm_create_errhandler(on_comm, &hc);
    expect("communicator's handler on a window", MPI_Win_set_errhandler(w, hc));
    MPI_Win_free(&w);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    expect("window's handler on a communicator", MPI_Comm_set_errhandler(MPI_COMM_WORLD, hw));
    MPI_Errhandler_free(&hw);
    MPI_Errhandler_free(&hc);
    expect("shared window of two nodes", MPI_Win_allocate_shared(4, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    expect("done", MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && !strcmp(argv[1], "-x"))
        errors();
    else {
        requests();
        shared();
    }
    if (rank == 0)
        printf("rma_req: %s\n", fails ? "FAILED" : "all ok");
    MPI_Finalize();
    return 0;
}
