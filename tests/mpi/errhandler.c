/* The program's error handlers (MPI-3.1 8.3): MPI_Comm_create_errhandler,
 * MPI_Comm_set_errhandler and _get_errhandler of one, MPI_Errhandler_free
 * and MPI_Comm_call_errhandler. A handler set on a duplicate of
 * MPI_COMM_WORLD is called once per error of a call on it, with that
 * communicator and the error's code, and the call returns the code; it
 * may make MPI calls; MPI_Comm_call_errhandler calls it with the
 * program's code and returns MPI_SUCCESS; a freed handler stays with the
 * communicators that have it; a duplicate inherits it; MPI_ERRORS_RETURN
 * and a handler that a communicator does not have are not called. A
 * window's handler (MPI_Win_create_errhandler) is called with the window,
 * by an error of a call on it and by MPI_Win_call_errhandler;
 * MPI_Win_get_errhandler gives it back. Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

static int calls, last_code, last_rank;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
    last_code = *code;
    MPI_Comm_rank(*comm, &last_rank);   /* MPI calls inside a handler */
}

static int other_calls;
static void other(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    other_calls++;
}

static int win_calls, win_code;
static MPI_Win win_seen;
static void win_handler(MPI_Win *win, int *code, ...)
{
    win_calls++;
    win_seen = *win;
    win_code = *code;
}

static int class_of(int code)
{
    int c;
    MPI_Error_class(code, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup, dup2;
    MPI_Errhandler h, h2, got;
    int x = 0, ok;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_errhandler(handler, &h);
    MPI_Comm_create_errhandler(other, &h2);
    MPI_Comm_set_errhandler(dup, h);

    /* an error of a call on dup: the handler, then the code returned */
    int e = MPI_Send(&x, 1, MPI_INT, size + 5, 0, dup);
    ok = calls == 1 && last_comm == dup && last_code == e && class_of(e) == MPI_ERR_RANK && last_rank == rank;
    e = MPI_Recv(&x, 1, MPI_INT, 0, -7, dup, MPI_STATUS_IGNORE);
    ok &= calls == 2 && last_code == e && class_of(e) == MPI_ERR_TAG;
    check("handler called, code returned", ok);
    if (rank == 0)
        printf("classes: %d %d\n", class_of(MPI_ERR_RANK), class_of(e));

    /* called by the program */
    e = MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER);
    check("call_errhandler", e == MPI_SUCCESS && calls == 3 && last_code == MPI_ERR_OTHER && last_comm == dup);

    /* get gives the handler; freeing handles leaves it with dup */
    MPI_Comm_get_errhandler(dup, &got);
    ok = got == h;
    MPI_Errhandler_free(&got);
    MPI_Errhandler_free(&h);
    ok &= got == MPI_ERRHANDLER_NULL && h == MPI_ERRHANDLER_NULL;
    MPI_Comm_call_errhandler(dup, MPI_ERR_ARG);
    ok &= calls == 4 && last_code == MPI_ERR_ARG;
    check("freed, still dup's", ok);

    /* a duplicate inherits it, with its own communicator passed */
    MPI_Comm_dup(dup, &dup2);
    e = MPI_Send(&x, -1, MPI_INT, 0, 0, dup2);
    check("a duplicate inherits it", calls == 5 && last_comm == dup2 && class_of(e) == MPI_ERR_COUNT);

    /* another handler on dup2 only; MPI_ERRORS_RETURN calls nothing */
    MPI_Comm_set_errhandler(dup2, h2);
    MPI_Comm_call_errhandler(dup2, MPI_ERR_OTHER);
    ok = other_calls == 1 && calls == 5;
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    e = MPI_Send(&x, 1, MPI_INT, size + 5, 0, dup);
    ok &= class_of(e) == MPI_ERR_RANK && calls == 5 && other_calls == 1;
    e = MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER);
    ok &= calls == 5 && other_calls == 1;
    check("each its own, return calls none", ok);
    MPI_Errhandler_free(&h2);

    /* a window's own handler */
    int *mem;
    MPI_Win w;
    MPI_Errhandler wh, wgot;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    MPI_Win_create_errhandler(win_handler, &wh);
    MPI_Win_set_errhandler(w, wh);
    MPI_Win_fence(0, w);
    e = MPI_Put(&x, 1, MPI_INT, size + 5, 0, 1, MPI_INT, w);
    MPI_Win_fence(0, w);
    ok = win_calls == 1 && win_seen == w && win_code == e && class_of(e) == MPI_ERR_RANK;
    e = MPI_Win_call_errhandler(w, MPI_ERR_OTHER);
    ok &= e == MPI_SUCCESS && win_calls == 2 && win_seen == w && win_code == MPI_ERR_OTHER;
    MPI_Win_get_errhandler(w, &wgot);
    ok &= wgot == wh && calls == 5 && other_calls == 1;
    MPI_Errhandler_free(&wgot);
    MPI_Errhandler_free(&wh);
    MPI_Win_call_errhandler(w, MPI_ERR_ARG);
    ok &= win_calls == 3 && win_code == MPI_ERR_ARG;
    check("a window's handler", ok);
    MPI_Win_free(&w);

    /* the communicators still work */
    int to = (rank + 1) % size, from = (rank + size - 1) % size, y = -1;
    x = rank;
    MPI_Sendrecv(&x, 1, MPI_INT, to, 1, &y, 1, MPI_INT, from, 1, dup2, MPI_STATUS_IGNORE);
    check("communication after", y == from);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);
    if (rank == 0)
        printf(fails ? "errhandler: FAILED\n" : "errhandler: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
