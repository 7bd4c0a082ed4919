/* The MPI environment: MPI_Init .. MPI_Finalize, MPI_Wtime, the processor
 * name, versions, and the error path every call shares (MPI-3.1 chapter 8).
 * MPI_Wtime is the node's simulated clock (netdev/net.h): the same
 * figures whatever the host, a tick of a nanosecond. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpii.h"
#include "../../netdev/net.h"

static int initialized, finalized;
const char *mpii_call = "MPI";

static const char *const class_names[] = {
    [MPI_SUCCESS] = "MPI_SUCCESS", [MPI_ERR_BUFFER] = "MPI_ERR_BUFFER", [MPI_ERR_COUNT] = "MPI_ERR_COUNT",
    [MPI_ERR_TYPE] = "MPI_ERR_TYPE", [MPI_ERR_TAG] = "MPI_ERR_TAG", [MPI_ERR_COMM] = "MPI_ERR_COMM",
    [MPI_ERR_RANK] = "MPI_ERR_RANK", [MPI_ERR_REQUEST] = "MPI_ERR_REQUEST", [MPI_ERR_ROOT] = "MPI_ERR_ROOT",
    [MPI_ERR_GROUP] = "MPI_ERR_GROUP", [MPI_ERR_OP] = "MPI_ERR_OP", [MPI_ERR_TOPOLOGY] = "MPI_ERR_TOPOLOGY",
    [MPI_ERR_DIMS] = "MPI_ERR_DIMS", [MPI_ERR_ARG] = "MPI_ERR_ARG", [MPI_ERR_UNKNOWN] = "MPI_ERR_UNKNOWN",
    [MPI_ERR_TRUNCATE] = "MPI_ERR_TRUNCATE", [MPI_ERR_OTHER] = "MPI_ERR_OTHER", [MPI_ERR_INTERN] = "MPI_ERR_INTERN",
    [MPI_ERR_IN_STATUS] = "MPI_ERR_IN_STATUS", [MPI_ERR_PENDING] = "MPI_ERR_PENDING",
    [MPI_ERR_BASE] = "MPI_ERR_BASE", [MPI_ERR_DISP] = "MPI_ERR_DISP", [MPI_ERR_SIZE] = "MPI_ERR_SIZE",
    [MPI_ERR_WIN] = "MPI_ERR_WIN", [MPI_ERR_RMA_SYNC] = "MPI_ERR_RMA_SYNC", [MPI_ERR_RMA_RANGE] = "MPI_ERR_RMA_RANGE",
    [MPI_ERR_INFO] = "MPI_ERR_INFO", [MPI_ERR_INFO_KEY] = "MPI_ERR_INFO_KEY",
    [MPI_ERR_INFO_VALUE] = "MPI_ERR_INFO_VALUE", [MPI_ERR_INFO_NOKEY] = "MPI_ERR_INFO_NOKEY",
    [MPI_ERR_NO_MEM] = "MPI_ERR_NO_MEM", [MPI_ERR_KEYVAL] = "MPI_ERR_KEYVAL",
    [MPI_ERR_LOCKTYPE] = "MPI_ERR_LOCKTYPE", [MPI_ERR_RMA_ATTACH] = "MPI_ERR_RMA_ATTACH",
    [MPI_ERR_RMA_FLAVOR] = "MPI_ERR_RMA_FLAVOR", [MPI_ERR_RMA_SHARED] = "MPI_ERR_RMA_SHARED",
};

int (*mpii_at_finalize)(void);
const char *(*mpii_added_name)(int code);

static const char *class_name(int cls)
{
    if (cls >= 0 && cls < (int)(sizeof class_names / sizeof class_names[0]) && class_names[cls])
        return class_names[cls];
    const char *added = mpii_added_name ? mpii_added_name(cls) : NULL;
    return added ? added : "MPI_ERR_UNKNOWN";
}

void mpii_check_init(void)
{
    if (!initialized || finalized) {
        fprintf(stderr, "MPI error: rank %d: %s: MPI_ERR_OTHER: called %s\n", net_rank(), mpii_call,
                finalized ? "after MPI_Finalize" : "before MPI_Init");
        exit(16 + MPI_ERR_OTHER);
    }
}

/* The program's error handlers (MPI-3.1 8.3): handle MPII_FIRST_ERRH + i
 * is user_errh[i]; refs counts the program's handles of it (from
 * MPI_Comm_create_errhandler and MPI_Comm_get_errhandler, less those
 * freed), and with none left it stays while a communicator has it. */
#define MPII_FIRST_ERRH 3
#define MPII_MAX_ERRH 32
static struct {
    MPI_Comm_errhandler_function *fn;
    MPI_Win_errhandler_function *win_fn;   /* a window's (MPI_Win_create_errhandler): fn is NULL */
    int refs;
} user_errh[MPII_MAX_ERRH];

/* 1 if h is a program's handler (of either kind) still in its table. */
static int user_errh_made(MPI_Errhandler h)
{
    int i = h - MPII_FIRST_ERRH;
    return i >= 0 && i < MPII_MAX_ERRH && (user_errh[i].fn || user_errh[i].win_fn);
}

/* A program's handler is called with the communicator (a window's, with
 * the window whose communicator it is) and the code, and the call then
 * returns the code; the call's name is kept across it (the handler may
 * make MPI calls). */
static int call_user(MPI_Errhandler h, MPI_Comm comm, int code)
{
    const char *call = mpii_call;
    int i = h - MPII_FIRST_ERRH;
    if (user_errh[i].win_fn) {
        MPI_Win win = mpii_win_of_comm(comm);
        user_errh[i].win_fn(&win, &code);
    } else
        user_errh[i].fn(&comm, &code);
    mpii_call = call;
    return code;
}

int mpii_errh_valid(MPI_Errhandler h, int for_win)
{
    int i = h - MPII_FIRST_ERRH;
    if (h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN)
        return 1;
    return user_errh_made(h) && user_errh[i].refs && !user_errh[i].win_fn == !for_win;
}

void mpii_errh_ref(MPI_Errhandler h)
{
    if (user_errh_made(h))             /* a new handle of it, for the program to free */
        user_errh[h - MPII_FIRST_ERRH].refs++;
}

const char mpii_comm_invalid[] = "communicator %d is not valid";

/* comm's refusal (mpii_comm_invalid) where comm is an intercommunicator,
 * under its error handler, else MPI_SUCCESS. */
static int refused_inter(MPI_Comm comm, int cls)
{
    if (!mpii_inter(comm))
        return MPI_SUCCESS;
    return mpii_err(comm, cls, "communicator %d is an intercommunicator, which %s does not take (docs/mpi.md lists "
                    "the calls that do)", comm, mpii_call);
}

int mpii_err(MPI_Comm comm, int cls, const char *fmt, ...)
{
    if (fmt == mpii_comm_invalid) {
        va_list ap;
        va_start(ap, fmt);
        int e = refused_inter(va_arg(ap, MPI_Comm), cls);
        va_end(ap);
        if (e)
            return e;
    }
    struct mpii_comm *c = mpii_comm_any(comm);
    if (c && c->errh == MPI_ERRORS_RETURN)
        return cls;
    if (c && user_errh_made(c->errh))
        return call_user(c->errh, comm, cls);
    char detail[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    /* printf, not stderr: one stream keeps the node log's order */
    printf("MPI error: rank %d: %s: %s: %s\n", net_rank(), mpii_call, class_name(cls), detail);
    exit(16 + cls);
}

static int *world_ranks(int n, int first)
{
    int *w = malloc((size_t)n * sizeof *w);
    if (!w) {
        printf("MPI error: rank %d: %s: MPI_ERR_NO_MEM: %d bytes for a communicator\n", net_rank(), mpii_call,
               (int)(n * sizeof *w));
        exit(16 + MPI_ERR_NO_MEM);
    }
    for (int i = 0; i < n; i++)
        w[i] = first + i;
    return w;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    mpii_call = "MPI_Init";
    if (initialized) {
        printf("MPI error: rank %d: MPI_Init: MPI_ERR_OTHER: called twice\n", net_rank());
        exit(16 + MPI_ERR_OTHER);
    }
    initialized = 1;
    struct mpii_comm *w = &mpii_comms[MPI_COMM_WORLD], *s = &mpii_comms[MPI_COMM_SELF];
    *w = (struct mpii_comm){ .used = 1, .size = net_nodes(), .rank = net_rank(), .ctx = 0, .identity = 1,
                             .errh = MPI_ERRORS_ARE_FATAL, .name = "MPI_COMM_WORLD" };
    w->world = world_ranks(w->size, 0);
    *s = (struct mpii_comm){ .used = 1, .size = 1, .rank = 0, .ctx = 2, .identity = net_nodes() == 1,
                             .errh = MPI_ERRORS_ARE_FATAL, .name = "MPI_COMM_SELF" };
    s->world = world_ranks(1, net_rank());
    mpii_cvar_read();
    mpii_isa_init();
    if (provided)
        *provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
}

int MPI_Init(int *argc, char ***argv)
{
    return MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL);
}

int MPI_Query_thread(int *provided)
{
    MPII_ENTER("MPI_Query_thread");
    OUT_OR_ERR(MPI_COMM_WORLD, provided);
    *provided = MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
}

/* First the attributes of MPI_COMM_SELF and MPI_COMM_WORLD are deleted
 * (apps/mpi/attr.c, MPI-3.1 8.7.1), MPI not yet finalized for their
 * callbacks. Every node ends with its NIC's queue drained: nothing it
 * sent is lost by its leaving (net_wait_sent). */
int MPI_Finalize(void)
{
    MPII_ENTER("MPI_Finalize");
    int e = mpii_at_finalize ? mpii_at_finalize() : MPI_SUCCESS;
    net_wait_sent();
    finalized = 1;
    return e;
}

/* The calls a program may make before MPI_Init and after MPI_Finalize
 * name themselves without MPII_ENTER's check. */
int MPI_Initialized(int *flag)
{
    mpii_call = "MPI_Initialized";
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    *flag = initialized;
    return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
    mpii_call = "MPI_Finalized";
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    *flag = finalized;
    return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;
    printf("MPI_Abort: rank %d: error code %d\n", net_rank(), errorcode);
    exit(errorcode ? errorcode : 1);
}

double MPI_Wtime(void) { return (double)net_time_ns() * 1e-9; }
double MPI_Wtick(void) { return 1e-9; }

/* "node 17 (1,2) of mesh 8x8": the node and its coordinates. */
int MPI_Get_processor_name(char *name, int *resultlen)
{
    MPII_ENTER("MPI_Get_processor_name");
    OUT_OR_ERR(MPI_COMM_WORLD, name);
    OUT_OR_ERR(MPI_COMM_WORLD, resultlen);
    static const char *const kind[] = { TOPO_NAMES };
    const struct topo_shape *t = net_topology();
    int c[NET_MAX_DIMS], o;
    net_coords(net_rank(), c);
    o = snprintf(name, MPI_MAX_PROCESSOR_NAME, "node %d (", net_rank());
    for (int i = 0; i < t->ndims && o < MPI_MAX_PROCESSOR_NAME; i++)
        o += snprintf(name + o, MPI_MAX_PROCESSOR_NAME - (size_t)o, i ? ",%d" : "%d", c[i]);
    if (o < MPI_MAX_PROCESSOR_NAME)
        o += snprintf(name + o, MPI_MAX_PROCESSOR_NAME - (size_t)o, ") of %s",
                      (unsigned)t->topo < TOPO_COUNT ? kind[t->topo] : "machine");
    for (int i = 0; i < t->ndims && o < MPI_MAX_PROCESSOR_NAME; i++)
        o += snprintf(name + o, MPI_MAX_PROCESSOR_NAME - (size_t)o, i ? "x%d" : " %d", t->dims[i]);
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

int MPI_Get_version(int *version, int *subversion)
{
    mpii_call = "MPI_Get_version";
    OUT_OR_ERR(MPI_COMM_WORLD, version);
    OUT_OR_ERR(MPI_COMM_WORLD, subversion);
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int MPI_Get_library_version(char *version, int *resultlen)
{
    mpii_call = "MPI_Get_library_version";
    OUT_OR_ERR(MPI_COMM_WORLD, version);
    OUT_OR_ERR(MPI_COMM_WORLD, resultlen);
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "wormsim node MPI (MPI %d.%d subset)",
                          MPI_VERSION, MPI_SUBVERSION);
    return MPI_SUCCESS;
}

/* A predefined class's name; a class or code of the program's, the
 * string it set ("" if none, MPI-3.1 8.5). */
int mpii_name_set(MPI_Comm errcomm, char *to, const char *name, const char *param)
{
    if (!name)
        return mpii_err(errcomm, MPI_ERR_ARG, "null pointer in parameter %s; accepted: a string", param);
    snprintf(to, MPI_MAX_OBJECT_NAME, "%s", name);
    return MPI_SUCCESS;
}

int mpii_name_get(MPI_Comm errcomm, const char *from, char *name, int *len)
{
    OUT_OR_ERR(errcomm, name);
    OUT_OR_ERR(errcomm, len);
    *len = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", from);
    return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    mpii_call = "MPI_Error_string";
    OUT_OR_ERR(MPI_COMM_WORLD, string);
    OUT_OR_ERR(MPI_COMM_WORLD, resultlen);
    const char *s = mpii_added_string(errorcode);
    if (!s)
        s = class_name(errorcode);
    *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", s);
    return MPI_SUCCESS;
}

/* A predefined code is its class; a code of the program's has the class
 * it was added to. */
int MPI_Error_class(int errorcode, int *errorclass)
{
    mpii_call = "MPI_Error_class";
    OUT_OR_ERR(MPI_COMM_WORLD, errorclass);
    int added = mpii_added_class(errorcode);
    if (added < 0 && (errorcode < MPI_SUCCESS || errorcode > MPI_ERR_LASTCODE))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "error code %d is not valid; accepted: %d..%d", errorcode,
                        MPI_SUCCESS, mpii_last_used_code());
    *errorclass = added < 0 ? errorcode : added;
    return MPI_SUCCESS;
}

/* The node runs one thread, the main one (MPI-3.1 12.4.3). */
int MPI_Is_thread_main(int *flag)
{
    MPII_ENTER("MPI_Is_thread_main");
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    MPII_ENTER("MPI_Comm_set_errhandler");
    struct mpii_comm *c = mpii_comm_any(comm);
    if (!c)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, mpii_comm_invalid, comm);
    if (!mpii_errh_valid(errhandler, 0))
        return mpii_err(comm, MPI_ERR_ARG, "error handler %d; accepted: MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN "
                        "or one of MPI_Comm_create_errhandler's, not freed", errhandler);
    c->errh = errhandler;
    return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    MPII_ENTER("MPI_Comm_get_errhandler");
    struct mpii_comm *c = mpii_comm_any(comm);
    if (!c)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COMM, mpii_comm_invalid, comm);
    OUT_OR_ERR(comm, errhandler);
    *errhandler = c->errh;
    mpii_errh_ref(c->errh);
    return MPI_SUCCESS;
}

/* Memory for the program (MPI-3.1 8.2): the node's heap; info's hints
 * are not used. */
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    MPII_ENTER("MPI_Alloc_mem");
    OUT_OR_ERR(MPI_COMM_WORLD, baseptr);
    if (size < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "size %ld is negative", (long)size);
    int e = mpii_info_check(MPI_COMM_WORLD, info);
    if (e)
        return e;
    void *p = malloc(size ? (size_t)size : 1);
    if (!p)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%ld bytes", (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int MPI_Free_mem(void *base)
{
    MPII_ENTER("MPI_Free_mem");
    free(base);
    return MPI_SUCCESS;
}

/* Profiling control (MPI-3.1 14.2.4): no profiling library to tell. */
int MPI_Pcontrol(const int level, ...)
{
    MPII_ENTER("MPI_Pcontrol");
    (void)level;
    return MPI_SUCCESS;
}

/* 1 if a communicator (freed ones kept for their requests too) has h. */
static int errh_in_use(MPI_Errhandler h)
{
    for (int i = 0; i < MPII_MAX_COMMS; i++)
        if (mpii_comms[i].used && mpii_comms[i].errh == h)
            return 1;
    return 0;
}

/* A slot for a program's handler: a freed one no communicator has any
 * more is reused. */
static int create(MPI_Comm_errhandler_function *fn, MPI_Win_errhandler_function *win_fn,
                  MPI_Errhandler *errhandler)
{
    OUT_OR_ERR(MPI_COMM_WORLD, errhandler);
    if (!fn && !win_fn)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter function; accepted: a function");
    int i = 0;
    while (i < MPII_MAX_ERRH && user_errh_made(MPII_FIRST_ERRH + i) &&
           (user_errh[i].refs || errh_in_use(MPII_FIRST_ERRH + i)))
        i++;
    if (i == MPII_MAX_ERRH)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INTERN, "more than %d error handlers at once", MPII_MAX_ERRH);
    user_errh[i].fn = fn;
    user_errh[i].win_fn = win_fn;
    user_errh[i].refs = 1;
    *errhandler = MPII_FIRST_ERRH + i;
    return MPI_SUCCESS;
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler)
{
    MPII_ENTER("MPI_Comm_create_errhandler");
    return create(function, NULL, errhandler);
}

/* A window's handler (MPI-3.1 8.3.2): set on windows only, called with the
 * window (MPI_Win_set_errhandler, apps/mpi/win.c). */
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler)
{
    MPII_ENTER("MPI_Win_create_errhandler");
    return create(NULL, function, errhandler);
}

/* The handle is MPI_ERRHANDLER_NULL after; a communicator that has the
 * handler keeps it, and so do the program's other handles of it
 * (MPI-3.1 8.3.4). A predefined handler stays. */
int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    MPII_ENTER("MPI_Errhandler_free");
    OUT_OR_ERR(MPI_COMM_WORLD, errhandler);
    int h = *errhandler, i = h - MPII_FIRST_ERRH;
    if (!mpii_errh_valid(h, 0) && !mpii_errh_valid(h, 1))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "error handler %d is not valid", h);
    if (user_errh_made(h))
        user_errh[i].refs--;
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

/* Invoke comm's error handler with errorcode, as an error of a call on
 * comm would (MPI-3.1 8.3.5): MPI_ERRORS_ARE_FATAL ends the node, naming
 * the code; otherwise the call returns MPI_SUCCESS once the handler has. */
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    MPII_ENTER("MPI_Comm_call_errhandler");
    ANY_COMM_OR_ERR(c, comm);
    (void)c;
    mpii_err(comm, errorcode, "error code %d, raised by the program", errorcode);
    return MPI_SUCCESS;
}
