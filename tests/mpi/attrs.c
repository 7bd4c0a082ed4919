/* Caching (MPI-3.1 6.7): keyvals and attributes on communicators and
 * datatypes. Each callback logs its call: which keyval, which object and
 * value, so that the checks count the calls and their order:
 * MPI_Comm_set_attr over a value deletes the old one first; MPI_Comm_dup
 * and MPI_Comm_dup_with_info copy as each copy callback says
 * (MPI_COMM_NULL_COPY_FN: not copied, MPI_COMM_DUP_FN: the same value);
 * MPI_Comm_free and MPI_Comm_delete_attr run the delete callbacks; a
 * freed keyval's attributes stay until deleted, by its handle or by
 * MPI_Comm_free; a callback's error is the
 * call's; the same for datatypes (MPI_Type_dup, MPI_Type_free, a basic
 * type's attributes); and MPI_Finalize deletes MPI_COMM_SELF's
 * attributes first, the last set first (8.7.1), then MPI_COMM_WORLD's,
 * checked by each rank after it (printed by rank 0). With -x, the
 * library's own answers where MPI-3.1 leaves them to the implementation
 * or Open MPI 4.1 departs from it: a line per bad argument, its class;
 * a dup whose copy and then delete callbacks fail leaving no attribute
 * on the next communicator made; and whether MPI_Finalized was true in
 * the callbacks of MPI_Finalize
 * (8.7: it is true once MPI_Finalize has completed; Open MPI 4.1 says
 * true there). Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

/* The callbacks' log: "c3:5" copy of keyval 3's value 5, "d3:5" delete. */
static char log_[512];
static int copy_fail, delete_fail;
static MPI_Comm last_comm = MPI_COMM_NULL;
static MPI_Datatype last_type = MPI_DATATYPE_NULL;

static void note(char what, int keyval_index, void *val)
{
    snprintf(log_ + strlen(log_), sizeof log_ - strlen(log_), "%s%c%d:%ld", log_[0] ? " " : "", what, keyval_index,
             (long)(MPI_Aint)val);
}

/* extra_state is the keyval's index in the log (1, 2, 3 ...). The copy
 * keeps the value plus 100. */
static int copy_plus(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval;
    last_comm = old;
    note('c', (int)(MPI_Aint)extra, in);
    if (copy_fail)
        return MPI_ERR_OTHER;
    *(void **)out = (void *)((MPI_Aint)in + 100);
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_note(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval;
    last_comm = comm;
    note('d', (int)(MPI_Aint)extra, val);
    return delete_fail ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int type_copy_plus(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval;
    last_type = old;
    note('c', (int)(MPI_Aint)extra, in);
    *(void **)out = (void *)((MPI_Aint)in + 100);
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete_note(MPI_Datatype t, int keyval, void *val, void *extra)
{
    (void)keyval;
    last_type = t;
    note('d', (int)(MPI_Aint)extra, val);
    return MPI_SUCCESS;
}

static int logged(const char *want)
{
    int ok = !strcmp(log_, want);
    if (!ok)
        printf("rank %d: log \"%s\", expected \"%s\"\n", rank, log_, want);
    log_[0] = 0;
    return ok;
}

#define V(x) ((void *)(MPI_Aint)(x))

static long value(MPI_Comm comm, int keyval, int *flag)
{
    void *v = NULL;
    MPI_Comm_get_attr(comm, keyval, &v, flag);
    return (long)(MPI_Aint)v;
}

/* --- at MPI_Finalize ----------------------------------------------------- */
static char fin_log[128];
static int fin_finalized;

static int fin_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval, (void)extra;
    int f;
    MPI_Finalized(&f);
    fin_finalized |= f;
    snprintf(fin_log + strlen(fin_log), sizeof fin_log - strlen(fin_log), " %s:%ld",
             comm == MPI_COMM_SELF ? "self" : comm == MPI_COMM_WORLD ? "world" : "other", (long)(MPI_Aint)val);
    return MPI_SUCCESS;
}

/* -x: bad arguments, each call and its class. */
static void bad_arguments(void)
{
    int k, kt, flag, freed, e;
    void *v;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kt, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &freed, NULL);
    int stale = freed;
    MPI_Comm_free_keyval(&freed);
    struct { const char *what; int e; } calls[] = {
        { "get_attr MPI_KEYVAL_INVALID", MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v, &flag) },
        { "get_attr 12345", MPI_Comm_get_attr(MPI_COMM_WORLD, 12345, &v, &flag) },
        { "get_attr freed", MPI_Comm_get_attr(MPI_COMM_WORLD, stale, &v, &flag) },
        { "set_attr freed", MPI_Comm_set_attr(MPI_COMM_WORLD, stale, V(1)) },
        { "free_keyval twice", MPI_Comm_free_keyval(&stale) },
        { "set_attr a type keyval", MPI_Comm_set_attr(MPI_COMM_WORLD, kt, V(1)) },
        { "type_set_attr a comm keyval", MPI_Type_set_attr(MPI_INT, k, V(1)) },
        { "type_get_attr MPI_TAG_UB", MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag) },
        { "type_set_attr no type", MPI_Type_set_attr(MPI_DATATYPE_NULL, kt, V(1)) },
        { "set_attr MPI_TAG_UB", MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, V(1)) },
        { "delete_attr MPI_TAG_UB", MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB) },
        { "free_keyval MPI_TAG_UB", MPI_Comm_free_keyval(&(int){ MPI_TAG_UB }) },
        { "set_attr no comm", MPI_Comm_set_attr(MPI_COMM_NULL, k, V(1)) },
        { "get_attr null flag", MPI_Comm_get_attr(MPI_COMM_WORLD, k, &v, NULL) },
        { "create_keyval null keyval", MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL) },
    };
    for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (rank == 0)
            printf("bad %s: %s\n", calls[i].what, class_name(calls[i].e));
    e = MPI_Comm_free_keyval(&k);
    e |= MPI_Type_free_keyval(&kt);
    if (rank == 0)
        printf("bad done: %s\n", class_name(e));

    /* a dup whose second copy callback fails, and then the delete callback
     * of the first attribute copied too: the next communicator made (in
     * the lowest free slot, apps/mpi/comm.c, which was the duplicate's)
     * has none of the attributes the duplicate kept */
    MPI_Comm a, b, c;
    int kd, kc, flag2;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);       /* MPI_ERRORS_RETURN, as the world now */
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_note, &kd, V(8));
    MPI_Comm_create_keyval(copy_plus, MPI_COMM_NULL_DELETE_FN, &kc, V(9));
    MPI_Comm_set_attr(a, kd, V(80));
    MPI_Comm_set_attr(a, kc, V(90));
    copy_fail = delete_fail = 1;
    e = MPI_Comm_dup(a, &b);
    copy_fail = delete_fail = 0;
    int ok = e != MPI_SUCCESS && b == MPI_COMM_NULL && logged("c9:90 d8:80");
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_get_attr(c, kd, &v, &flag2);
    ok &= !flag2;
    MPI_Comm_free(&c);
    MPI_Comm_free(&a);
    ok &= logged("d8:80");
    MPI_Comm_free_keyval(&kd);
    MPI_Comm_free_keyval(&kc);
    check("own: a failed dup leaves no attribute behind", ok);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int own = argc > 1 && !strcmp(argv[1], "-x");
    if (own)
        bad_arguments();
    int k1, k2, k3, flag, ok, e;
    MPI_Comm a, b, c;

    /* set, get, set again: the old value deleted first */
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_create_keyval(copy_plus, delete_note, &k1, V(1));
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_note, &k2, V(2));
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k3, V(3));
    ok = k1 != MPI_KEYVAL_INVALID && k2 != k1 && k3 != k2;
    value(a, k1, &flag);
    ok &= !flag;
    MPI_Comm_set_attr(a, k1, V(10 + rank));
    ok &= value(a, k1, &flag) == 10 + rank && flag && logged("");
    MPI_Comm_set_attr(a, k1, V(20 + rank));
    char want[128];
    snprintf(want, sizeof want, "d1:%d", 10 + rank);
    ok &= value(a, k1, &flag) == 20 + rank && flag && logged(want) && last_comm == a;
    check("set, get, set again", ok);

    /* dup: k1 copied plus 100, k2 not (null copy), k3 the same (dup fn);
     * the copy callback is given the old communicator */
    MPI_Comm_set_attr(a, k2, V(30));
    MPI_Comm_set_attr(a, k3, V(40));
    MPI_Comm_dup(a, &b);
    snprintf(want, sizeof want, "c1:%d", 20 + rank);
    ok = logged(want) && last_comm == a;
    ok &= value(b, k1, &flag) == 120 + rank && flag;
    value(b, k2, &flag);
    ok &= !flag;
    ok &= value(b, k3, &flag) == 40 && flag;
    ok &= value(a, k1, &flag) == 20 + rank && flag && value(a, k2, &flag) == 30 && flag;
    check("dup copies as the callbacks say", ok);

    /* delete_attr: its callback once, then gone; deleting k3 calls the null delete */
    MPI_Comm_delete_attr(b, k1);
    snprintf(want, sizeof want, "d1:%d", 120 + rank);
    ok = logged(want) && last_comm == b;
    value(b, k1, &flag);
    ok &= !flag;
    MPI_Comm_delete_attr(b, k3);
    value(b, k3, &flag);
    ok &= !flag && logged("");
    check("delete_attr", ok);

    /* a freed keyval still names its attributes, which the program deletes
     * by it (MPI-3.1 6.7.2) */
    int k4, saved;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_note, &k4, V(4));
    MPI_Comm_set_attr(b, k4, V(44));
    saved = k4;
    MPI_Comm_free_keyval(&k4);
    ok = k4 == MPI_KEYVAL_INVALID && value(b, saved, &flag) == 44 && flag && logged("");
    MPI_Comm_delete_attr(b, saved);
    ok &= logged("d4:44");
    check("a freed keyval's attribute", ok);

    /* free: each attribute's delete callback, once; a freed keyval's
     * attribute stays, its callback run at the free */
    MPI_Comm_free_keyval(&k2);
    ok = k2 == MPI_KEYVAL_INVALID;
    MPI_Comm_free(&a);
    ok &= a == MPI_COMM_NULL;
    snprintf(want, sizeof want, "d2:30 d1:%d", 20 + rank);
    char want2[128];
    snprintf(want2, sizeof want2, "d1:%d d2:30", 20 + rank);
    ok &= !strcmp(log_, want) || !strcmp(log_, want2);   /* MPI-3.1 6.4.3 leaves the order open */
    log_[0] = 0;
    check("free runs the delete callbacks", ok);

    /* dup_with_info copies too */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "wormsim_hint", "1");
    MPI_Comm_set_attr(b, k1, V(7));
    MPI_Comm_dup_with_info(b, info, &c);
    ok = logged("c1:7") && value(c, k1, &flag) == 107 && flag;
    MPI_Info_free(&info);
    MPI_Comm_free(&c);
    ok &= logged("d1:107");
    check("dup_with_info copies", ok);

    /* a callback's error is the call's: under MPI_ERRORS_RETURN the copy's
     * fails the dup, the delete's the set over a value, delete_attr and free */
    MPI_Comm_set_errhandler(b, MPI_ERRORS_RETURN);
    copy_fail = 1;
    e = MPI_Comm_dup(b, &c);
    ok = e != MPI_SUCCESS && logged("c1:7");
    copy_fail = 0;
    delete_fail = 1;
    ok &= MPI_Comm_set_attr(b, k1, V(8)) != MPI_SUCCESS && logged("d1:7");
    ok &= MPI_Comm_delete_attr(b, k1) != MPI_SUCCESS && logged("d1:7");
    ok &= MPI_Comm_free(&b) != MPI_SUCCESS && logged("d1:7");
    delete_fail = 0;
    ok &= MPI_Comm_free(&b) == MPI_SUCCESS && logged("d1:7") && b == MPI_COMM_NULL;
    check("a callback's error is the call's", ok);

    /* predefined attributes still answer, and a keyval of none set gives flag 0 */
    int *tag_ub = NULL;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    ok = flag && *tag_ub >= 32767;
    value(MPI_COMM_WORLD, k1, &flag);
    ok &= !flag;
    MPI_Comm_free_keyval(&k1);
    MPI_Comm_free_keyval(&k3);
    ok &= k1 == MPI_KEYVAL_INVALID && k3 == MPI_KEYVAL_INVALID;
    check("predefined, and keyvals freed", ok);

    /* datatypes: set on a vector, copied by Type_dup (given the old type),
     * deleted by Type_free; a basic type takes attributes too */
    int t1, t2;
    MPI_Datatype vec, dup;
    MPI_Type_create_keyval(type_copy_plus, type_delete_note, &t1, V(5));
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete_note, &t2, V(6));
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_set_attr(vec, t1, V(50));
    MPI_Type_set_attr(vec, t2, V(60));
    void *tv = NULL;
    MPI_Type_get_attr(vec, t1, &tv, &flag);
    ok = flag && tv == V(50);
    MPI_Type_dup(vec, &dup);
    ok &= logged("c5:50") && last_type == vec;
    MPI_Type_get_attr(dup, t1, &tv, &flag);
    ok &= flag && tv == V(150);
    MPI_Type_get_attr(dup, t2, &tv, &flag);
    ok &= flag && tv == V(60);
    MPI_Type_free(&dup);
    ok &= (!strcmp(log_, "d6:60 d5:150") || !strcmp(log_, "d5:150 d6:60")) && dup == MPI_DATATYPE_NULL;
    log_[0] = 0;
    MPI_Type_delete_attr(vec, t2);
    ok &= logged("d6:60") && last_type == vec;
    MPI_Type_free(&vec);
    ok &= logged("d5:50");
    MPI_Type_set_attr(MPI_INT, t1, V(70));
    MPI_Type_get_attr(MPI_INT, t1, &tv, &flag);
    ok &= flag && tv == V(70);
    MPI_Type_delete_attr(MPI_INT, t1);
    MPI_Type_get_attr(MPI_INT, t1, &tv, &flag);
    ok &= !flag && logged("d5:70");
    MPI_Type_free_keyval(&t1);
    MPI_Type_free_keyval(&t2);
    ok &= t1 == MPI_KEYVAL_INVALID && t2 == MPI_KEYVAL_INVALID;
    check("datatype attributes", ok);

    /* MPI_Finalize: MPI_COMM_SELF's first, the last set first; then
     * MPI_COMM_WORLD's; MPI not yet finalized for the callbacks */
    int f1, f2, f3, f4;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fin_delete, &f1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fin_delete, &f2, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fin_delete, &f3, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fin_delete, &f4, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, f2, V(1));
    MPI_Comm_set_attr(MPI_COMM_WORLD, f4, V(9));
    MPI_Comm_set_attr(MPI_COMM_SELF, f1, V(2));
    MPI_Comm_set_attr(MPI_COMM_SELF, f3, V(3));
    MPI_Comm_free_keyval(&f3);
    if (rank == 0)
        printf(fails ? "attrs: FAILED\n" : "attrs: all ok\n");
    MPI_Finalize();
    ok = !strcmp(fin_log, " self:3 self:2 self:1 world:9");
    if (rank == 0)
        printf("at finalize:%s (%s)\n", fin_log, ok ? "ok" : "FAILED");
    if (rank == 0 && own)
        printf("finalized in its callbacks: %s\n", fin_finalized ? "yes" : "no");
    return fails != 0 || !ok;
}
