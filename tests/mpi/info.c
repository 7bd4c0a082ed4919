/* Info objects (MPI-3.1 chapter 9) and a communicator's hints (6.4.4):
 * keys in the order first set, a value set again replaced in place, a
 * value cut to valuelen, a deleted key gone and the others in order, a
 * duplicate independent of its original, the errors of a key or value
 * too long and of a missing key; MPI_INFO_ENV readable;
 * an info taken by MPI_Alloc_mem, MPI_Comm_split_type and
 * MPI_Comm_dup_with_info. With -x, the library's own answers where
 * MPI-3.1 leaves them to the implementation or Open MPI 4.1 departs from
 * it: the hints MPI_Comm_get_info gives (those set: the library uses
 * none), kept by MPI_Comm_dup, replaced by MPI_Comm_dup_with_info's; a
 * key of MPI_MAX_INFO_KEY characters taken (Open MPI's limit is one
 * less); MPI_INFO_ENV empty; and a class per bad argument (n out of
 * range MPI_ERR_ARG, as MPICH; Open MPI 4.1 says MPI_ERR_INFO_KEY). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

/* The keys of info in order, "a=1 b=2". */
static void entries(MPI_Info info, char *out, size_t cap)
{
    int n = -1, flag;
    char key[MPI_MAX_INFO_KEY + 1], val[64];
    out[0] = 0;
    MPI_Info_get_nkeys(info, &n);
    for (int i = 0; i < n; i++) {
        MPI_Info_get_nthkey(info, i, key);
        MPI_Info_get(info, key, sizeof val - 1, val, &flag);
        snprintf(out + strlen(out), cap - strlen(out), "%s%s=%s", i ? " " : "", key, flag ? val : "?");
    }
}

static int has(MPI_Info info, const char *want)
{
    char got[256];
    entries(info, got, sizeof got);
    if (strcmp(got, want))
        printf("rank %d: info \"%s\", expected \"%s\"\n", rank, got, want);
    return !strcmp(got, want);
}

/* -x: the library's own answers. */
static void own_answers(void)
{
    MPI_Info info, got, none;
    MPI_Comm a, b;
    memset(&none, 0x5a, sizeof none);   /* a handle of no info */
    int n = -1, ok;
    MPI_Info_create(&info);
    MPI_Info_set(info, "wormsim_a", "1");
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_get_info(a, &got);
    ok = has(got, "");
    MPI_Info_free(&got);
    MPI_Comm_set_info(a, info);
    MPI_Info_set(info, "wormsim_b", "2");
    MPI_Info_set(info, "wormsim_a", "3");
    MPI_Comm_set_info(a, info);
    MPI_Comm_get_info(a, &got);
    ok &= has(got, "wormsim_a=3 wormsim_b=2");
    MPI_Info_free(&got);
    MPI_Comm_dup(a, &b);
    MPI_Comm_get_info(b, &got);
    ok &= has(got, "wormsim_a=3 wormsim_b=2");
    MPI_Info_free(&got);
    MPI_Comm_free(&b);
    MPI_Info_delete(info, "wormsim_a");
    MPI_Comm_dup_with_info(a, info, &b);
    MPI_Comm_get_info(b, &got);
    ok &= has(got, "wormsim_b=2");
    MPI_Info_free(&got);
    MPI_Comm_free(&b);
    MPI_Comm_dup_with_info(a, MPI_INFO_NULL, &b);
    MPI_Comm_get_info(b, &got);
    ok &= has(got, "");
    MPI_Info_free(&got);
    MPI_Comm_free(&b);
    MPI_Comm_free(&a);
    check("own: the hints set are given back", ok);

    char key[MPI_MAX_INFO_KEY + 2];
    memset(key, 'k', MPI_MAX_INFO_KEY);
    key[MPI_MAX_INFO_KEY] = 0;
    MPI_Info_get_nkeys(MPI_INFO_ENV, &n);
    check("own: a key of MPI_MAX_INFO_KEY, env empty", MPI_Info_set(info, key, "v") == MPI_SUCCESS && n == 0);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char val[8];
    int flag;
    MPI_Info freed;
    MPI_Info_create(&freed);
    MPI_Info stale = freed;
    MPI_Info_free(&freed);
    struct { const char *what; int e; } calls[] = {
        { "set on no info", MPI_Info_set(none, "a", "1") },
        { "set on a freed info", MPI_Info_set(stale, "a", "1") },
        { "set an empty key", MPI_Info_set(info, "", "1") },
        { "set an empty value", MPI_Info_set(info, "a", "") },
        { "set on MPI_INFO_ENV", MPI_Info_set(MPI_INFO_ENV, "a", "1") },
        { "free MPI_INFO_ENV", MPI_Info_free(&(MPI_Info){ MPI_INFO_ENV }) },
        { "free MPI_INFO_NULL", MPI_Info_free(&(MPI_Info){ MPI_INFO_NULL }) },
        { "get valuelen -1", MPI_Info_get(info, "wormsim_b", -1, val, &flag) },
        { "nthkey of an empty info", MPI_Info_get_nthkey(MPI_INFO_ENV, 0, key) },
        { "nthkey 2 of 2 keys", MPI_Info_get_nthkey(info, 2, key) },   /* Open MPI 4.1: MPI_ERR_INFO_KEY */
        { "comm_set_info MPI_INFO_NULL", MPI_Comm_set_info(MPI_COMM_WORLD, MPI_INFO_NULL) },
        { "dup_with_info no info", MPI_Comm_dup_with_info(MPI_COMM_WORLD, none, &a) },
        { "alloc_mem no info", MPI_Alloc_mem(8, none, &(void *){ NULL }) },
    };
    for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (rank == 0)
            printf("bad %s: %s\n", calls[i].what, class_name(calls[i].e));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && !strcmp(argv[1], "-x"))
        own_answers();
    MPI_Info info, copy;
    int n = -1, flag = -1, len = -1, ok, e;
    char val[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];

    MPI_Info_create(&info);
    MPI_Info_get_nkeys(info, &n);
    ok = n == 0 && info != MPI_INFO_NULL;
    MPI_Info_set(info, "color", "blue");
    MPI_Info_set(info, "size", "large");
    MPI_Info_set(info, "shape", "round");
    MPI_Info_set(info, "color", "red");   /* replaced where it is */
    ok &= has(info, "color=red size=large shape=round");
    check("create, set, nkeys, nthkey", ok);

    /* get: cut to valuelen; a missing key: flag 0, value untouched */
    strcpy(val, "untouched");
    MPI_Info_get(info, "size", 3, val, &flag);
    ok = flag == 1 && !strcmp(val, "lar");
    MPI_Info_get_valuelen(info, "shape", &len, &flag);
    ok &= flag == 1 && len == 5;
    strcpy(val, "untouched");
    MPI_Info_get(info, "weight", sizeof val - 1, val, &flag);
    ok &= flag == 0 && !strcmp(val, "untouched");
    MPI_Info_get_valuelen(info, "weight", &len, &flag);
    ok &= flag == 0;
    check("get, get_valuelen", ok);

    /* dup: the same keys in the same order, independent after */
    MPI_Info_dup(info, &copy);
    MPI_Info_set(copy, "extra", "1");
    MPI_Info_delete(info, "size");
    ok = has(copy, "color=red size=large shape=round extra=1") && has(info, "color=red shape=round");
    MPI_Info_free(&copy);
    ok &= copy == MPI_INFO_NULL;
    check("dup, delete", ok);

    /* errors under MPI_ERRORS_RETURN */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char longkey[MPI_MAX_INFO_KEY + 2], longval[MPI_MAX_INFO_VAL + 2];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = 0;
    memset(longval, 'v', sizeof longval - 1);
    longval[sizeof longval - 1] = 0;
    e = MPI_Info_set(info, longkey, "1");
    if (rank == 0)
        printf("a key of MPI_MAX_INFO_KEY + 1: %s\n", class_name(e));
    e = MPI_Info_set(info, "k", longval);
    if (rank == 0)
        printf("a value of MPI_MAX_INFO_VAL + 1: %s\n", class_name(e));
    e = MPI_Info_delete(info, "weight");
    if (rank == 0)
        printf("delete a missing key: %s\n", class_name(e));
    ok = has(info, "color=red shape=round");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check("errors leave the info as it was", ok);

    /* the environment's info is readable */
    n = -1;
    check("MPI_INFO_ENV", MPI_Info_get_nkeys(MPI_INFO_ENV, &n) == MPI_SUCCESS && n >= 0);

    /* calls that take an info: hints the library does not know */
    int *mem = NULL;
    MPI_Comm shared, dup;
    ok = MPI_Alloc_mem(64 * sizeof(int), info, &mem) == MPI_SUCCESS && mem;
    for (int i = 0; ok && i < 64; i++)
        mem[i] = i;
    ok &= MPI_Free_mem(mem) == MPI_SUCCESS;
    ok &= MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, info, &shared) == MPI_SUCCESS;
    ok &= MPI_Comm_set_info(MPI_COMM_WORLD, info) == MPI_SUCCESS;
    ok &= MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup) == MPI_SUCCESS;
    int sum = 0, one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
    ok &= sum == size;
    MPI_Info got;
    ok &= MPI_Comm_get_info(dup, &got) == MPI_SUCCESS && got != MPI_INFO_NULL;
    MPI_Info_get(got, "color", sizeof val - 1, val, &flag);   /* a hint given back has the value set */
    ok &= !flag || !strcmp(val, "red");
    MPI_Info_free(&got);
    MPI_Comm_free(&dup);
    if (shared != MPI_COMM_NULL)
        MPI_Comm_free(&shared);
    MPI_Info_free(&info);
    ok &= info == MPI_INFO_NULL;
    check("calls that take an info", ok);

    if (rank == 0)
        printf(fails ? "info: FAILED\n" : "info: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
