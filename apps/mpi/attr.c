/* Caching (MPI-3.1 6.7): the program's keyvals and the attributes they
 * key on communicators (6.7.2, 6.7.3) and datatypes (6.7.4), the
 * predefined callbacks, the predefined attributes every communicator has
 * (8.1.2, 8.5), and the MPI-1 forms of the communicator's calls,
 * deprecated since MPI-2.0 (15.2). All of it is local: no message.
 *
 * A keyval is handle FIRST_KEYVAL + i, never used again once freed, so a
 * freed one is told apart from any other. Freed, it stays while
 * attributes of it remain (6.7.2: "the actual free does not transpire
 * until after all references ... have been freed"): their callbacks
 * still run, and its handle still names it, so that the program can
 * delete them by it, as 6.7.2 says it must (and free it again, as MPICH
 * takes); with none left, its handle is refused. The
 * attributes of every object are one list in the order they were set
 * (setting a key again puts it last), so that the last set is deleted
 * first (8.7.1 asks it of MPI_COMM_SELF at MPI_Finalize) and the copies
 * of MPI_Comm_dup and MPI_Type_dup are made in the order of setting. A
 * callback may make MPI calls, caching ones on the same object too: the
 * list is searched again after each. As many keyvals and attributes as
 * the node's heap holds. */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

#define FIRST_KEYVAL 16              /* above the predefined MPI_TAG_UB .. MPI_APPNUM */
struct keyval {
    enum mpii_attr_kind kind;
    int freed;                       /* by the program: kept while uses > 0 */
    int uses;                        /* attributes of it set */
    MPI_Comm_copy_attr_function *comm_copy;
    MPI_Comm_delete_attr_function *comm_delete;
    MPI_Type_copy_attr_function *type_copy;
    MPI_Type_delete_attr_function *type_delete;
    void *extra;
};
static struct keyval *keyvals;
static int nkeyvals, capkeyvals;

struct attr {
    enum mpii_attr_kind kind;
    int obj, keyval;
    void *val;
};
static struct attr *attrs;           /* in the order they were set */
static int nattrs, capattrs;

static const char *const kind_name[] = { [MPII_ATTR_COMM] = "a communicator's", [MPII_ATTR_TYPE] = "a datatype's" };

/* --- the predefined callbacks (6.7.2, 6.7.4) ------------------------------- */

int mpii_comm_null_copy_fn(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)x, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int mpii_comm_dup_fn(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)x;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int mpii_comm_null_delete_fn(MPI_Comm c, int k, void *v, void *x)
{
    (void)c, (void)k, (void)v, (void)x;
    return MPI_SUCCESS;
}

int mpii_type_null_copy_fn(MPI_Datatype t, int k, void *x, void *in, void *out, int *flag)
{
    return mpii_comm_null_copy_fn(t, k, x, in, out, flag);
}

int mpii_type_dup_fn(MPI_Datatype t, int k, void *x, void *in, void *out, int *flag)
{
    return mpii_comm_dup_fn(t, k, x, in, out, flag);
}

int mpii_type_null_delete_fn(MPI_Datatype t, int k, void *v, void *x)
{
    return mpii_comm_null_delete_fn(t, k, v, x);
}

/* --- keyvals ------------------------------------------------------------ */

static int predefined(int keyval) { return keyval >= MPI_TAG_UB && keyval <= MPI_APPNUM; }

/* The keyval of handle k that a call on an object of kind names, or NULL
 * with the error of errcomm in *e: not a keyval, freed, or another kind's.
 * The predefined ones are the caller's to take or refuse. */
static struct keyval *keyval_of(int k, enum mpii_attr_kind kind, MPI_Comm errcomm, int *e)
{
    int i = k - FIRST_KEYVAL;
    if (predefined(k) && kind == MPII_ATTR_TYPE)
        *e = mpii_err(errcomm, MPI_ERR_KEYVAL, "keyval %d is a communicator's predefined attribute (MPI-3.1 8.1.2), "
                      "not a datatype's", k);
    else if (i < 0 || i >= nkeyvals)
        *e = mpii_err(errcomm, MPI_ERR_KEYVAL, "keyval %d is not valid; accepted: a keyval of %s", k,
                      kind == MPII_ATTR_COMM ? "MPI_Comm_create_keyval, or a predefined attribute's"
                                             : "MPI_Type_create_keyval");
    else if (keyvals[i].freed && !keyvals[i].uses)
        *e = mpii_err(errcomm, MPI_ERR_KEYVAL, "keyval %d was freed, and no attribute of it is left", k);
    else if (keyvals[i].kind != kind)
        *e = mpii_err(errcomm, MPI_ERR_KEYVAL, "keyval %d is %s, not %s", k, kind_name[keyvals[i].kind],
                      kind_name[kind]);
    else
        return &keyvals[i];
    return NULL;
}

static int create_keyval(struct keyval kv, int *keyval)
{
    OUT_OR_ERR(MPI_COMM_WORLD, keyval);
    if (nkeyvals == capkeyvals) {
        int cap = capkeyvals ? 2 * capkeyvals : 16;
        struct keyval *more = realloc(keyvals, (size_t)cap * sizeof *more);
        if (!more)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%u bytes for keyvals", (unsigned)(cap * sizeof *more));
        keyvals = more;
        capkeyvals = cap;
    }
    keyvals[nkeyvals] = kv;
    *keyval = FIRST_KEYVAL + nkeyvals++;
    return MPI_SUCCESS;
}

/* *keyval is MPI_KEYVAL_INVALID after; its attributes stay until deleted. */
static int free_keyval(int *keyval, enum mpii_attr_kind kind)
{
    OUT_OR_ERR(MPI_COMM_WORLD, keyval);
    if (predefined(*keyval))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "keyval %d is predefined (MPI-3.1 8.1.2): it is not freed",
                        *keyval);
    int e = MPI_SUCCESS;
    struct keyval *kv = keyval_of(*keyval, kind, MPI_COMM_WORLD, &e);
    if (!kv)
        return e;
    kv->freed = 1;
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* --- attributes --------------------------------------------------------- */

static int find(enum mpii_attr_kind kind, int obj, int keyval)
{
    for (int a = 0; a < nattrs; a++)
        if (attrs[a].kind == kind && attrs[a].obj == obj && attrs[a].keyval == keyval)
            return a;
    return -1;
}

static void remove_attr(int a)
{
    keyvals[attrs[a].keyval - FIRST_KEYVAL].uses--;
    memmove(&attrs[a], &attrs[a + 1], (size_t)(nattrs - a - 1) * sizeof *attrs);
    nattrs--;
}

static int at_finalize(void);

static int append(enum mpii_attr_kind kind, int obj, int keyval, void *val, MPI_Comm errcomm)
{
    mpii_at_finalize = at_finalize;
    if (nattrs == capattrs) {
        int cap = capattrs ? 2 * capattrs : 16;
        struct attr *more = realloc(attrs, (size_t)cap * sizeof *more);
        if (!more)
            return mpii_err(errcomm, MPI_ERR_NO_MEM, "%u bytes for attributes", (unsigned)(cap * sizeof *more));
        attrs = more;
        capattrs = cap;
    }
    attrs[nattrs++] = (struct attr){ kind, obj, keyval, val };
    keyvals[keyval - FIRST_KEYVAL].uses++;
    return MPI_SUCCESS;
}

/* A program's callback, the call's name kept across it (it may make MPI
 * calls); NULL is taken as the null callback, as MPICH defines it. */
static int run_copy(struct attr a, void **out, int *flag)
{
    struct keyval kv = keyvals[a.keyval - FIRST_KEYVAL];
    const char *call = mpii_call;
    int e = MPI_SUCCESS;
    *flag = 0;
    if (kv.kind == MPII_ATTR_COMM && kv.comm_copy)
        e = kv.comm_copy(a.obj, a.keyval, kv.extra, a.val, out, flag);
    else if (kv.kind == MPII_ATTR_TYPE && kv.type_copy)
        e = kv.type_copy(a.obj, a.keyval, kv.extra, a.val, out, flag);
    mpii_call = call;
    return e;
}

static int run_delete(struct attr a)
{
    struct keyval kv = keyvals[a.keyval - FIRST_KEYVAL];
    const char *call = mpii_call;
    int e = MPI_SUCCESS;
    if (kv.kind == MPII_ATTR_COMM && kv.comm_delete)
        e = kv.comm_delete(a.obj, a.keyval, a.val, kv.extra);
    else if (kv.kind == MPII_ATTR_TYPE && kv.type_delete)
        e = kv.type_delete(a.obj, a.keyval, a.val, kv.extra);
    mpii_call = call;
    return e;
}

/* The attribute at a deleted: its delete callback, then (if that succeeds)
 * it is removed. A callback's error is the call's (6.7.2). */
static int delete_at(int a, MPI_Comm errcomm)
{
    struct attr was = attrs[a];
    int e = run_delete(was);
    if (e)
        return mpii_err(errcomm, e, "the delete callback of keyval %d returned %d", was.keyval, e);
    a = find(was.kind, was.obj, was.keyval);   /* the callback may have changed the list */
    if (a >= 0)
        remove_attr(a);
    return MPI_SUCCESS;
}

/* Set over a value already there: as if it were deleted first (6.7.2). */
static int set_attr(enum mpii_attr_kind kind, int obj, int keyval, void *val, MPI_Comm errcomm)
{
    int a = find(kind, obj, keyval), e = a >= 0 ? delete_at(a, errcomm) : MPI_SUCCESS;
    return e ? e : append(kind, obj, keyval, val, errcomm);
}

static int get_attr(enum mpii_attr_kind kind, int obj, int keyval, void *val, int *flag, MPI_Comm errcomm)
{
    OUT_OR_ERR(errcomm, flag);
    int a = find(kind, obj, keyval);
    *flag = a >= 0;
    if (a >= 0) {
        OUT_OR_ERR(errcomm, val);
        *(void **)val = attrs[a].val;
    }
    return MPI_SUCCESS;
}

/* Deleting an attribute not set does nothing, as in MPICH. */
static int delete_attr(enum mpii_attr_kind kind, int obj, int keyval, MPI_Comm errcomm)
{
    int a = find(kind, obj, keyval);
    return a >= 0 ? delete_at(a, errcomm) : MPI_SUCCESS;
}

int mpii_attr_copy(enum mpii_attr_kind kind, int from, int to, MPI_Comm errcomm)
{
    for (int a = 0; a < nattrs; a++) {
        if (attrs[a].kind != kind || attrs[a].obj != from)
            continue;
        struct attr was = attrs[a];
        void *out = NULL;
        int flag, e = run_copy(was, &out, &flag);
        if (e)
            return mpii_err(errcomm, e, "the copy callback of keyval %d returned %d", was.keyval, e);
        if (flag && (e = set_attr(kind, to, was.keyval, out, errcomm)))
            return e;
        a = find(kind, from, was.keyval);   /* the callback may have changed the list */
        if (a < 0)
            return MPI_SUCCESS;
    }
    return MPI_SUCCESS;
}

int mpii_attr_delete_all(enum mpii_attr_kind kind, int obj, MPI_Comm errcomm)
{
    for (;;) {                       /* from the end each time: a callback may change the list */
        int a = nattrs - 1;
        while (a >= 0 && !(attrs[a].kind == kind && attrs[a].obj == obj))
            a--;
        if (a < 0)
            return MPI_SUCCESS;
        int e = delete_at(a, errcomm);
        if (e)
            return e;
    }
}

/* MPI_Finalize's first act: as if MPI_COMM_SELF were freed, its
 * attributes are deleted, the last set first (MPI-3.1 8.7.1), then
 * MPI_COMM_WORLD's, as MPICH and Open MPI do. */
static int at_finalize(void)
{
    int e = mpii_attr_delete_all(MPII_ATTR_COMM, MPI_COMM_SELF, MPI_COMM_SELF);
    return e ? e : mpii_attr_delete_all(MPII_ATTR_COMM, MPI_COMM_WORLD, MPI_COMM_WORLD);
}

/* --- on communicators (6.7.2, 6.7.3) ------------------------------------ */

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, int *keyval,
                           void *extra_state)
{
    MPII_ENTER("MPI_Comm_create_keyval");
    return create_keyval((struct keyval){ .kind = MPII_ATTR_COMM, .comm_copy = copy, .comm_delete = del,
                                          .extra = extra_state }, keyval);
}

int MPI_Comm_free_keyval(int *keyval)
{
    MPII_ENTER("MPI_Comm_free_keyval");
    return free_keyval(keyval, MPII_ATTR_COMM);
}

static int comm_set_attr(MPI_Comm comm, int keyval, void *val)
{
    ANY_COMM_OR_ERR(c, comm);
    (void)c;
    if (predefined(keyval))
        return mpii_err(comm, MPI_ERR_KEYVAL, "keyval %d is predefined (MPI-3.1 8.1.2): it is read, not set", keyval);
    int e = MPI_SUCCESS;
    return keyval_of(keyval, MPII_ATTR_COMM, comm, &e) ? set_attr(MPII_ATTR_COMM, comm, keyval, val, comm) : e;
}

/* The predefined attributes of MPI-3.1 8.1.2 (every communicator has
 * them, as MPI_COMM_WORLD's): the largest tag; no host; every rank may do
 * I/O (its output goes to its node log); clocks not said to be
 * synchronised; the universe is the world; 8.5's largest error class or
 * code in use; and no application number (10.5.3: a program not started
 * as one of several has none, flag 0). */
static int comm_get_attr(MPI_Comm comm, int keyval, void *val, int *flag)
{
    ANY_COMM_OR_ERR(c, comm);
    (void)c;
    static int tag_ub = MPI_TAG_UB_VALUE, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE, wtime_global = 0, universe,
               lastused;
    int *v = NULL, e = MPI_SUCCESS;
    switch (keyval) {
    case MPI_TAG_UB: v = &tag_ub; break;
    case MPI_HOST: v = &host; break;
    case MPI_IO: v = &io; break;
    case MPI_WTIME_IS_GLOBAL: v = &wtime_global; break;
    case MPI_UNIVERSE_SIZE: universe = mpii_comms[MPI_COMM_WORLD].size; v = &universe; break;
    case MPI_LASTUSEDCODE: lastused = mpii_last_used_code(); v = &lastused; break;
    case MPI_APPNUM: break;
    default:
        return keyval_of(keyval, MPII_ATTR_COMM, comm, &e) ? get_attr(MPII_ATTR_COMM, comm, keyval, val, flag, comm)
                                                           : e;
    }
    OUT_OR_ERR(comm, flag);
    *flag = v != NULL;
    if (v) {
        OUT_OR_ERR(comm, val);
        *(int **)val = v;
    }
    return MPI_SUCCESS;
}

static int comm_delete_attr(MPI_Comm comm, int keyval)
{
    ANY_COMM_OR_ERR(c, comm);
    (void)c;
    if (predefined(keyval))
        return mpii_err(comm, MPI_ERR_KEYVAL, "keyval %d is predefined (MPI-3.1 8.1.2): it is read, not deleted",
                        keyval);
    int e = MPI_SUCCESS;
    return keyval_of(keyval, MPII_ATTR_COMM, comm, &e) ? delete_attr(MPII_ATTR_COMM, comm, keyval, comm) : e;
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val)
{
    MPII_ENTER("MPI_Comm_set_attr");
    return comm_set_attr(comm, keyval, attribute_val);
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    MPII_ENTER("MPI_Comm_get_attr");
    return comm_get_attr(comm, keyval, attribute_val, flag);
}

int MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    MPII_ENTER("MPI_Comm_delete_attr");
    return comm_delete_attr(comm, keyval);
}

/* The MPI-1 forms (15.2): the same calls under their old names. */
int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval, void *extra_state)
{
    MPII_ENTER("MPI_Keyval_create");
    return create_keyval((struct keyval){ .kind = MPII_ATTR_COMM, .comm_copy = copy, .comm_delete = del,
                                          .extra = extra_state }, keyval);
}

int MPI_Keyval_free(int *keyval)
{
    MPII_ENTER("MPI_Keyval_free");
    return free_keyval(keyval, MPII_ATTR_COMM);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    MPII_ENTER("MPI_Attr_put");
    return comm_set_attr(comm, keyval, attribute_val);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    MPII_ENTER("MPI_Attr_get");
    return comm_get_attr(comm, keyval, attribute_val, flag);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    MPII_ENTER("MPI_Attr_delete");
    return comm_delete_attr(comm, keyval);
}

/* --- on datatypes (6.7.4): basic types take them too --------------------- */

int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy, MPI_Type_delete_attr_function *del, int *keyval,
                           void *extra_state)
{
    MPII_ENTER("MPI_Type_create_keyval");
    return create_keyval((struct keyval){ .kind = MPII_ATTR_TYPE, .type_copy = copy, .type_delete = del,
                                          .extra = extra_state }, keyval);
}

int MPI_Type_free_keyval(int *keyval)
{
    MPII_ENTER("MPI_Type_free_keyval");
    return free_keyval(keyval, MPII_ATTR_TYPE);
}

/* In a datatype's call: return MPI_ERR_TYPE if t is not a type, or the
 * error of a keyval that is not a datatype's. */
#define TYPE_KEYVAL_OR_ERR(t, keyval)                                                               \
    do {                                                                                            \
        int e_ = MPI_SUCCESS;                                                                       \
        if (!mpii_type_known(t))                                                                    \
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);           \
        if (!keyval_of(keyval, MPII_ATTR_TYPE, MPI_COMM_WORLD, &e_))                                \
            return e_;                                                                              \
    } while (0)

int MPI_Type_set_attr(MPI_Datatype t, int keyval, void *attribute_val)
{
    MPII_ENTER("MPI_Type_set_attr");
    TYPE_KEYVAL_OR_ERR(t, keyval);
    return set_attr(MPII_ATTR_TYPE, t, keyval, attribute_val, MPI_COMM_WORLD);
}

int MPI_Type_get_attr(MPI_Datatype t, int keyval, void *attribute_val, int *flag)
{
    MPII_ENTER("MPI_Type_get_attr");
    TYPE_KEYVAL_OR_ERR(t, keyval);
    return get_attr(MPII_ATTR_TYPE, t, keyval, attribute_val, flag, MPI_COMM_WORLD);
}

int MPI_Type_delete_attr(MPI_Datatype t, int keyval)
{
    MPII_ENTER("MPI_Type_delete_attr");
    TYPE_KEYVAL_OR_ERR(t, keyval);
    return delete_attr(MPII_ATTR_TYPE, t, keyval, MPI_COMM_WORLD);
}
